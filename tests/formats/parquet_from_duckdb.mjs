// Files DuckDB writes, read by floe: every codec, data page v1 and v2 (with
// DuckDB's DELTA encodings), dictionary on and off, small and large row
// groups, flat and nested types with nulls. floe's rows must equal DuckDB's
// reading of the same file.
//
// Usage: node parquet_from_duckdb.mjs FLOE_BINARY DUCKDB_TOOLS_DIR
// Exits 0 when every file reads the same, 1 otherwise, 77 (skip) without DuckDB.
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { diffRows, floeRows } from './json_rows.mjs';

const [floe, tools] = process.argv.slice(2);
if (!existsSync(path.join(tools, 'node_modules/@duckdb/node-api'))) {
  console.log('SKIP: DuckDB is not installed (run dev/install-test-tools)');
  process.exit(77);
}
const require = createRequire(path.join(path.resolve(tools), '/'));
const { DuckDBInstance } = require('@duckdb/node-api');

// Every type DuckDB writes that floe maps, with nulls, empty strings and
// lists, extremes and nesting.
const rows = `
SELECT
  i AS id,
  CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 3 - 4000)::INTEGER END AS int32_col,
  CASE WHEN i = 1 THEN 9223372036854775807 WHEN i = 2 THEN -9223372036854775808 ELSE (i * 1000003)::BIGINT END AS int64_col,
  (i % 120)::TINYINT AS int8_col, (i % 30000 - 15000)::SMALLINT AS int16_col,
  (i % 250)::UTINYINT AS uint8_col, (i % 60000)::USMALLINT AS uint16_col,
  (i * 7919)::UINTEGER AS uint32_col, CASE WHEN i = 3 THEN 18446744073709551615 ELSE i * 104729 END::UBIGINT AS uint64_col,
  CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN '' ELSE 'value ' || (i % 37) END AS string_col,
  md5(i::VARCHAR) AS unique_string_col,
  CASE WHEN i % 9 = 0 THEN NULL ELSE i / 7.0 END::DOUBLE AS double_col,
  CASE WHEN i = 4 THEN 'NaN'::FLOAT WHEN i = 5 THEN '-inf'::FLOAT WHEN i = 6 THEN -0.0 ELSE i / 3.0 END::FLOAT AS float_col,
  i % 3 = 0 AS bool_col,
  CASE WHEN i % 4 = 0 THEN NULL ELSE i % 2 = 0 END AS nullable_bool_col,
  DATE '1969-12-25' + (i % 1000)::INTEGER AS date_col,
  TIMESTAMP '1960-01-01 00:00:00' + to_microseconds(i * 1000000007) AS timestamp_col,
  (TIMESTAMP '2020-01-01 00:00:00' + to_microseconds(i * 37))::TIMESTAMPTZ AS timestamptz_col,
  TIME '00:00:00' + to_microseconds((i * 1000003) % 86400000000) AS time_col,
  ((i % 790) * 0.25 - 99)::DECIMAL(4,2) AS decimal4_col,
  (i * 1.25)::DECIMAL(18,2) AS decimal18_col,
  CASE WHEN i % 6 = 0 THEN NULL ELSE (i * 12345.678 - 99999)::DECIMAL(38,3) END AS decimal38_col,
  md5(i::VARCHAR)::UUID AS uuid_col,
  ('\\x00\\x01' || i::VARCHAR)::BLOB AS blob_col,
  CASE WHEN i % 11 = 0 THEN NULL WHEN i % 11 = 1 THEN [] ELSE [i, NULL, i + 1] END AS list_col,
  CASE WHEN i % 13 = 0 THEN NULL ELSE ['a' || i, NULL, ''] END AS string_list_col,
  CASE WHEN i % 8 = 0 THEN NULL ELSE {'a': i, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE 'x' || i END} END AS struct_col,
  CASE WHEN i % 17 = 0 THEN NULL ELSE MAP {'k' || (i % 5): i, 'z': NULL} END AS map_col,
  [[i], [], NULL, [NULL, i]] AS nested_list_col,
  CASE WHEN i % 19 = 0 THEN NULL ELSE [{'p': i, 'q': [i, i]}, NULL] END AS list_of_struct_col
FROM range(3000) t(i)`;

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
  await conn.run(`CREATE TABLE t AS ${rows}`);
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
