// Files DuckDB writes, read by floe: every codec, data page v1 and v2 (with
// DuckDB's DELTA encodings), dictionary on and off, small and large row
// groups, flat and nested types with nulls. floe's rows must equal DuckDB's
// reading of the same file.
//
// Usage: node parquet_from_duckdb.mjs FLOE_BINARY DUCKDB_TOOLS_DIR
// Exits 0 when every file reads the same, 1 otherwise or without DuckDB
// (77, skip, with FLOE_ALLOW_MISSING_TOOLS=1).
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireNodeModules } from '../testing/required_tools.mjs';
import { richTableSql } from './duckdb_rich_table.mjs';
import { diffRows, floeRows } from './json_rows.mjs';

const [floe, tools] = process.argv.slice(2);
requireNodeModules(tools, ['@duckdb/node-api']);
const require = createRequire(path.join(path.resolve(tools), '/'));
const { DuckDBInstance } = require('@duckdb/node-api');

const variants = [
  { name: 'uncompressed', options: 'COMPRESSION uncompressed' },
  { name: 'snappy', options: 'COMPRESSION snappy' },
  { name: 'zstd', options: 'COMPRESSION zstd' },
  { name: 'gzip', options: 'COMPRESSION gzip' },
  { name: 'lz4_raw', options: 'COMPRESSION lz4_raw' },
  { name: 'brotli', options: 'COMPRESSION brotli' },
  { name: 'v2_zstd', options: 'COMPRESSION zstd, PARQUET_VERSION v2' },
  { name: 'v2_uncompressed', options: 'COMPRESSION uncompressed, PARQUET_VERSION v2' },
  { name: 'no_dictionary', options: 'COMPRESSION snappy, DICTIONARY_SIZE_LIMIT 1' },
  { name: 'small_row_groups', options: 'COMPRESSION zstd, ROW_GROUP_SIZE 100' },
];

const dir = mkdtempSync(path.join(os.tmpdir(), 'floe-duckdb-written-'));
const failures = [];
try {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await conn.run(`CREATE TABLE t AS ${richTableSql}`);
  for (const v of variants) {
    const file = path.join(dir, `${v.name}.parquet`);
    await conn.run(`COPY t TO '${file}' (FORMAT parquet, ${v.options})`);
    const expected = (await conn.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowObjectsJson();
    const got = floeRows(floe, file);
    if (got.error) {
      failures.push(`${v.name}: ${got.error}`);
      continue;
    }
    const diff = diffRows(got.rows, expected, 'duckdb');
    if (diff) failures.push(`${v.name}: ${diff}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(failures.join('\n'));
  console.log(`${failures.length} of ${variants.length} DuckDB-written files read differently`);
  process.exit(1);
}
console.log(`all ${variants.length} DuckDB-written files read the same`);
