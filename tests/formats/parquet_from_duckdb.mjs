// Files DuckDB writes, read by floe: every codec, data page v1 and v2 (with
// DuckDB's DELTA encodings), dictionary on and off, small and large row
// groups, flat and nested types with nulls. floe's rows must equal DuckDB's
// reading of the same file; and a file of large values that decode to 3 GB
// (decision 0074), read and written again by floe, holds the same values.
//
// Usage: node parquet_from_duckdb.mjs FLOE_BINARY DUCKDB_TOOLS_DIR
// Exits 0 when every file reads the same, 1 otherwise or without DuckDB
// (77, skip, with FLOE_ALLOW_MISSING_TOOLS=1).
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
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

  // Large values that compress to nothing: 30,000 strings of 100 KB, 26
  // distinct, dictionary-encoded in one row group, are 49 KB on disk and
  // 3 GB decoded, past what a batch's 32-bit offsets address and the 64 MiB
  // a batch's strings may hold (decision 0074). floe reads them at its
  // defaults and writes them again; DuckDB finds the same values in floe's
  // file. (Printing them would be 3 GB.)
  const large = path.join(dir, 'large_values.parquet');
  const rewritten = path.join(dir, 'large_values_floe.parquet');
  await conn.run(`COPY (SELECT i AS id, repeat(chr(65 + (i % 26)::INTEGER), 100000) AS doc FROM range(30000) t(i))
                  TO '${large}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 30000)`);
  try {
    execFileSync(floe, ['parquet', 'rewrite', large, rewritten], { stdio: ['ignore', 'pipe', 'pipe'] });
    const summary = async (f) => (await conn.runAndReadAll(
      `SELECT count(*) AS n, sum(length(doc)) AS bytes, count(DISTINCT doc) AS distinct_docs,
              bool_and(doc = repeat(chr(65 + (id % 26)::INTEGER), 100000)) AS each_right FROM read_parquet('${f}')`)).getRowObjectsJson();
    const [want, got] = [await summary(large), await summary(rewritten)];
    if (JSON.stringify(got) !== JSON.stringify(want) || got[0].each_right !== true) {
      failures.push(`large_values: floe's rewrite holds ${JSON.stringify(got)}, DuckDB's file ${JSON.stringify(want)}`);
    }
  } catch (e) {
    failures.push(`large_values: floe parquet rewrite failed: ${(e.stderr ?? '').toString().trim()}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(failures.join('\n'));
  console.log(`${failures.length} of ${variants.length} DuckDB-written files read differently`);
  process.exit(1);
}
console.log(`all ${variants.length} DuckDB-written files read the same, and a file of 3 GB of large values ` +
  'read and written again by floe holds the same values in DuckDB');
