// The Parquet files of the table-format fixtures, which real engines wrote
// (Spark and parquet-mr through Iceberg, Delta and Hudi; PyIceberg; delta-rs),
// each read by `floe parquet cat` and by DuckDB and compared value by value.
// parquet-testing has its own check (parquet_conformance.mjs); these files
// add what those writers do in production: Avro-derived schemas, Hudi's
// metadata columns, Spark's INT96 and decimals, nested Iceberg types.
//
// Hudi's tables are zipped: every .zip of the hudi folder is unpacked into a
// temporary folder (Python's zipfile, no unzip needed) and read from there.
// The zips' __MACOSX/ folders hold macOS resource forks named like the
// Parquet files ("._<name>.parquet"); they are not Parquet and are skipped.
//
// Usage: node parquet_engine_files.mjs FLOE_BINARY FIXTURES_DIR DUCKDB_TOOLS_DIR
// Exits 0 when every file agrees, 1 otherwise (listing each difference), or
// 77 (skip) when DuckDB is missing under FLOE_ALLOW_MISSING_TOOLS=1.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireFixtures, requireNodeModules } from '../testing/required_tools.mjs';
import { diffRows, floeRows } from './json_rows.mjs';

const [floe, fixtures, tools] = process.argv.slice(2);
for (const folder of ['iceberg', 'delta', 'hudi']) requireFixtures(path.join(fixtures, folder));
requireNodeModules(tools, ['@duckdb/node-api']);
const require = createRequire(path.join(path.resolve(tools), '/'));
const { DuckDBInstance } = require('@duckdb/node-api');

// Fewer files than this means a fixture folder lost its tables, not that
// floe read them all: 199 loose files plus 220 in Hudi's zips when written.
const MINIMUM_FILES = 400;

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full) : [full];
  }).sort();
}

let conn = await (await DuckDBInstance.create(':memory:')).connect();
async function duckRows(file) {
  try {
    // Only the file's own columns: DuckDB would add the folders' hive partitions.
    const sql = `SELECT * FROM read_parquet('${file.replaceAll("'", "''")}', hive_partitioning = false)`;
    return { rows: (await conn.runAndReadAll(sql)).getRowObjectsJson() };
  } catch (e) {
    conn = await (await DuckDBInstance.create(':memory:')).connect();  // an INTERNAL error spoils it
    return { error: String(e.message ?? e).split('\n')[0] };
  }
}

// DuckDB 1.5.6 reads BYTE_STREAM_SPLIT only for FLOAT and DOUBLE. Iceberg
// wrote each of these files from the same rows as its PLAIN twin, so floe's
// rows are compared with DuckDB's reading of the twin.
const plainTwin = (file) => {
  const m = /^(.*)\/BYTE_STREAM_SPLIT\/((int32|int64|uuid)(_with_nulls)?\.parquet)$/.exec(file);
  return m ? `${m[1]}/PLAIN/${m[2]}` : null;
};

// DuckDB renames a column whose name differs from an earlier one only in
// case ("user_id", "uSeR_Id" -> "uSeR_Id_1"); Iceberg's names are case
// sensitive and floe keeps them. DuckDB's rows are given floe's names back
// where its names are floe's, each possibly with such a suffix.
function withFloeNames(floeRow, duckRows) {
  const floeNames = Object.keys(floeRow ?? {});
  const duckNames = Object.keys(duckRows[0] ?? {});
  const renamed = floeNames.length === duckNames.length &&
    floeNames.some((n, i) => n !== duckNames[i]) &&
    floeNames.every((n, i) => duckNames[i] === n || new RegExp(`^${n.replace(/\W/g, '\\$&')}_\\d+$`).test(duckNames[i]));
  if (!renamed) return duckRows;
  return duckRows.map((r) => Object.fromEntries(duckNames.map((d, i) => [floeNames[i], r[d]])));
}

const unpacked = mkdtempSync(path.join(os.tmpdir(), 'floe-engine-files-'));
const failures = [];
let compared = 0;
try {
  const hudi = path.join(fixtures, 'hudi');
  for (const zip of walk(hudi).filter((f) => f.endsWith('.zip'))) {
    const into = path.join(unpacked, path.relative(hudi, zip).replace(/\.zip$/, ''));
    execFileSync('python3', ['-m', 'zipfile', '-e', zip, into]);
  }
  const files = [
    ...['iceberg', 'delta', 'hudi'].flatMap((f) => walk(path.join(fixtures, f))),
    ...walk(unpacked),
  ].filter((f) => f.endsWith('.parquet') && !f.includes(`${path.sep}__MACOSX${path.sep}`));
  for (const file of files) {
    const name = file.startsWith(unpacked) ? `hudi zip: ${path.relative(unpacked, file)}` : path.relative(fixtures, file);
    const got = floeRows(floe, file);
    const twin = plainTwin(file);
    const duck = await duckRows(twin ?? file);
    if (got.error && duck.error) {
      failures.push(`${name}: neither reads it (floe: ${got.error}; DuckDB: ${duck.error})`);
    } else if (got.error) {
      failures.push(`${name}: ${got.error}`);
    } else if (duck.error) {
      failures.push(`${name}: DuckDB cannot read it (${duck.error}); floe read ${got.rows.length} rows`);
    } else {
      const diff = diffRows(got.rows, withFloeNames(got.rows[0], duck.rows), twin ? 'duckdb(PLAIN twin)' : 'duckdb');
      if (diff) failures.push(`${name}: ${diff}`);
      ++compared;
    }
  }
  if (files.length < MINIMUM_FILES) failures.push(`only ${files.length} Parquet files found, at least ${MINIMUM_FILES} expected`);
  console.log(`${files.length} Parquet files of the table-format fixtures, ${compared} compared with DuckDB`);
} finally {
  rmSync(unpacked, { recursive: true, force: true });
}

for (const f of failures) console.log(`FAIL ${f}`);
process.exit(failures.length === 0 ? 0 : 1);
