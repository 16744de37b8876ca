// Files floe writes, read by other engines: DuckDB writes the rich table
// (with field ids), `floe parquet rewrite` writes it again under every
// option combination, and
//  - DuckDB reads floe's file with exactly the values it reads from its own;
//  - DuckDB's parquet_schema() shows the field ids and its parquet_metadata()
//    shows floe's statistics (min/max present on every flat column chunk);
//  - parquet-wasm (arrow-rs) reads floe's file with the values floe reads;
//  - parquet-testing files with INT96, FLOAT16 and RLE booleans, rewritten by
//    floe (which keeps INT96 and FLOAT16), read the same in DuckDB as the
//    originals, with the physical types kept;
//  - GEOMETRY files rewritten by floe show DuckDB the geospatial statistics
//    (box and types) parquet-cpp wrote into the originals.
//
// Usage: node parquet_to_others.mjs FLOE_BINARY TOOLS_DIR PARQUET_TESTING_DIR
// Exits 0 when all agree, 1 otherwise or when DuckDB or parquet-wasm is
// missing (77, skip, with FLOE_ALLOW_MISSING_TOOLS=1).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { richTableSql } from './duckdb_rich_table.mjs';
import { requireFixtures, requireNodeModules } from '../testing/required_tools.mjs';
import { floeRows, looseEqual } from './json_rows.mjs';

const [floe, tools, testing] = process.argv.slice(2);
requireNodeModules(tools, ['@duckdb/node-api', 'parquet-wasm', 'apache-arrow']);
requireFixtures(testing);
const require = createRequire(path.join(path.resolve(tools), '/'));
const { DuckDBInstance } = require('@duckdb/node-api');
const wasm = { pw: require('parquet-wasm'), arrow: require('apache-arrow') };

const variants = [
  [],
  ['--codec', 'none'],
  ['--codec', 'snappy', '--page-version', '2'],
  ['--codec', 'gzip', '--dictionary', 'off'],
  ['--codec', 'lz4_raw', '--row-group-rows', '500', '--page-bytes', '4096'],
  ['--codec', 'brotli', '--page-version', '2', '--dictionary', 'off'],
  ['--codec', 'zstd', '--level', '9', '--no-page-index', '--bloom', 'id,string_col'],
  ['--codec', 'none', '--page-version', '2', '--boolean-encoding', 'rle'],
  ['--codec', 'snappy', '--boolean-encoding', 'rle', '--row-group-rows', '700'],
  // Pages in the other encodings, nulls and nesting included (DuckDB 1.5.6
  // reads BYTE_STREAM_SPLIT for FLOAT and DOUBLE only).
  ['--page-version', '2', '--encoding', 'int64_col=DELTA_BINARY_PACKED', '--encoding', 'int32_col=DELTA_BINARY_PACKED',
    '--encoding', 'list_col.list.element=DELTA_BINARY_PACKED', '--encoding', 'double_col=BYTE_STREAM_SPLIT',
    '--encoding', 'float_col=BYTE_STREAM_SPLIT', '--encoding', 'string_col=DELTA_LENGTH_BYTE_ARRAY',
    '--encoding', 'unique_string_col=DELTA_BYTE_ARRAY', '--encoding', 'uuid_col=DELTA_BYTE_ARRAY',
    '--encoding', 'nullable_bool_col=RLE'],
];

// parquet-testing files whose physical forms floe's rewrite must keep.
const testingData = path.join(testing, 'data');
// [file, physical type of its leaf, rows to compare]. DuckDB reads the
// original INT96 of year 290000 as a wrapped nanosecond count (226414 BC);
// floe reads it as Spark wrote it (decision 0017), so that row is compared
// against its known value instead.
const keptForms = [
  ['int96_from_spark.parquet', 'INT96', 'WHERE a IS NULL OR year(a) BETWEEN 1 AND 9999'],
  ['float16_nonzeros_and_nans.parquet', 'FIXED_LEN_BYTE_ARRAY', ''],
  ['float16_zeros_and_nans.parquet', 'FIXED_LEN_BYTE_ARRAY', ''],
  ['rle_boolean_encoding.parquet', 'BOOLEAN', ''],
];

// parquet-wasm's Arrow values as floe prints them: bytes as hex, 64-bit
// integers as strings; timestamps and dates stay numbers (milliseconds),
// compared to floe's ISO text by `sameInstant`.
function fromArrow(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (Array.isArray(v)) return v.map(fromArrow);
  if (typeof v === 'object' && typeof v.toJSON === 'function') return fromArrow(v.toJSON());
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromArrow(x)]));
  return v;
}
// floe prints a time of day as HH:MM:SS.ffffff; Arrow JS gives microseconds.
function sameTime(floeValue, wasmValue) {
  const m = typeof floeValue === 'string' && /^(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?$/.exec(floeValue);
  if (!m || !/^\d+$/.test(String(wasmValue))) return false;
  const micros = ((BigInt(m[1]) * 60n + BigInt(m[2])) * 60n + BigInt(m[3])) * 1000000n +
    BigInt((m[4] ?? '').padEnd(6, '0').slice(0, 6) || '0');
  return micros === BigInt(wasmValue);
}
// floe prints instants as ISO 8601 text; Arrow JS gives milliseconds, with
// the microseconds as the fraction. Compared in microseconds.
function sameInstant(floeValue, wasmValue) {
  if (typeof floeValue !== 'string' || typeof wasmValue !== 'number') return false;
  const m = /^(\d{4}-\d\d-\d\d)(?:T(\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?)?(\+00:00|Z)?$/.exec(floeValue);
  if (!m) return false;
  const seconds = Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}Z`);
  const micros = BigInt(seconds) * 1000n + BigInt((m[3] ?? '').padEnd(6, '0').slice(0, 6) || '0');
  return micros === BigInt(Math.round(wasmValue * 1000));
}
function wasmEqual(f, w) {
  if (looseEqual(f, w) || sameInstant(f, w) || sameTime(f, w)) return true;
  // A UUID: floe prints it with dashes, Arrow JS gives the 16 bytes (hex here).
  if (typeof f === 'string' && /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/.test(f)) return f.replaceAll('-', '') === w;
  if (Array.isArray(f) && Array.isArray(w)) return f.length === w.length && f.every((x, i) => wasmEqual(x, w[i]));
  if (f && w && typeof f === 'object' && typeof w === 'object') {
    const keys = Object.keys(f);
    return keys.length === Object.keys(w).length && keys.every((k) => wasmEqual(f[k], w[k]));
  }
  return false;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'floe-written-'));
const failures = [];
let keptChecked = 0;
let geoChecked = 0;
try {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const rows = async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
  const source = path.join(dir, 'source.parquet');
  await conn.run(`COPY (${richTableSql}) TO '${source}' (FORMAT parquet, FIELD_IDS 'auto')`);
  const expected = await rows(`SELECT * FROM read_parquet('${source}')`);
  const sourceIds = await rows(`SELECT name, field_id FROM parquet_schema('${source}') WHERE field_id IS NOT NULL ORDER BY name`);

  for (const [i, options] of variants.entries()) {
    const name = options.join(' ') || '(defaults)';
    const out = path.join(dir, `floe-${i}.parquet`);
    try {
      execFileSync(floe, ['parquet', 'rewrite', source, out, ...options], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      failures.push(`${name}: floe parquet rewrite failed: ${(e.stderr ?? '').toString().trim()}`);
      continue;
    }
    const got = await rows(`SELECT * FROM read_parquet('${out}')`);
    if (!isDeepStrictEqual(got, expected)) {
      const at = got.findIndex((r, k) => !isDeepStrictEqual(r, expected[k]));
      failures.push(`${name}: DuckDB reads floe's file differently (${got.length} vs ${expected.length} rows; first difference at row ${at}: ${JSON.stringify(got[at])?.slice(0, 300)} vs ${JSON.stringify(expected[at])?.slice(0, 300)})`);
    }
    const ids = await rows(`SELECT name, field_id FROM parquet_schema('${out}') WHERE field_id IS NOT NULL ORDER BY name`);
    if (!isDeepStrictEqual(ids, sourceIds)) failures.push(`${name}: field ids differ: ${JSON.stringify(ids).slice(0, 300)}`);
    const noStats = await rows(`SELECT path_in_schema FROM parquet_metadata('${out}') WHERE stats_min_value IS NULL AND stats_max_value IS NULL AND stats_null_count < num_values AND path_in_schema NOT LIKE '%,%'`);
    if (noStats.length > 0) failures.push(`${name}: column chunks without min/max: ${noStats.map((r) => r.path_in_schema).join(' ')}`);

    try {
      const table = wasm.arrow.tableFromIPC(wasm.pw.readParquet(new Uint8Array(readFileSync(out))).intoIPCStream());
      const floeView = floeRows(floe, out);
      if (floeView.error) throw new Error(floeView.error);
      if (table.numRows !== floeView.rows.length) throw new Error(`${table.numRows} rows vs floe's ${floeView.rows.length}`);
      // Arrow JS gives a decimal's unscaled integer (as JSON text).
      const scales = Object.fromEntries(table.schema.fields
        .filter((f) => f.type.typeId === wasm.arrow.Type.Decimal).map((f) => [f.name, f.type.scale]));
      const sameDecimal = (f, w, scale) => f === null ? w === null :
        w !== null && BigInt(String(w).replaceAll('"', '')) === BigInt(Math.round(Number(f) * 10 ** scale));
      for (let r = 0; r < table.numRows; ++r) {
        const w = fromArrow(table.get(r).toJSON());
        for (const [column, value] of Object.entries(floeView.rows[r])) {
          const equal = column in scales ? sameDecimal(value, w[column], scales[column]) : wasmEqual(value, w[column]);
          if (!equal) {
            throw new Error(`row ${r} column ${column}: floe ${JSON.stringify(value)} vs parquet-wasm ${JSON.stringify(w[column])}`);
          }
        }
      }
    } catch (e) {
      failures.push(`${name}: parquet-wasm: ${String(e.message ?? e).split('\n')[0].slice(0, 400)}`);
    }
  }

  for (const [file, physical, where] of keptForms) {
    const original = path.join(testingData, file);
    for (const extra of [[], ['--boolean-encoding', 'rle', '--page-version', '2']]) {
      const name = `${file} ${extra.join(' ')}`.trim();
      const out = path.join(dir, `kept-${file}`);
      try {
        execFileSync(floe, ['parquet', 'rewrite', original, out, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) {
        failures.push(`${name}: floe parquet rewrite failed: ${(e.stderr ?? '').toString().trim()}`);
        continue;
      }
      ++keptChecked;
      const want = await rows(`SELECT * FROM read_parquet('${original}') ${where}`);
      const got = await rows(`SELECT * FROM read_parquet('${out}') ${where}`);
      if (physical === 'INT96') {
        const far = await rows(`SELECT a::VARCHAR AS a FROM read_parquet('${out}') WHERE year(a) > 9999`);
        if (!isDeepStrictEqual(far, [{ a: '290000-12-30 23:00:00' }])) {
          failures.push(`${name}: the year-290000 value reads as ${JSON.stringify(far)}`);
        }
      }
      if (!isDeepStrictEqual(got, want)) {
        failures.push(`${name}: DuckDB reads floe's rewrite differently: ${JSON.stringify(got).slice(0, 300)} vs ${JSON.stringify(want).slice(0, 300)}`);
      }
      const types = await rows(`SELECT type, logical_type FROM parquet_schema('${out}') WHERE num_children IS NULL`);
      const wantTypes = await rows(`SELECT type, logical_type FROM parquet_schema('${original}') WHERE num_children IS NULL`);
      if (types.some((t) => t.type !== physical) || !isDeepStrictEqual(types, wantTypes)) {
        failures.push(`${name}: leaf types ${JSON.stringify(types)} instead of ${JSON.stringify(wantTypes)}`);
      }
      if (extra.length > 0 && physical === 'BOOLEAN') {
        const enc = await rows(`SELECT encodings FROM parquet_metadata('${out}')`);
        if (enc.some((e) => !String(e.encodings).includes('RLE') || String(e.encodings).includes('PLAIN'))) {
          failures.push(`${name}: encodings ${JSON.stringify(enc)} (RLE expected, no PLAIN)`);
        }
      }
    }
  }

  // Geospatial statistics floe writes, as DuckDB reads them from the footer:
  // rewrites of parquet-testing's one-row-group GEOMETRY files carry the box
  // and types parquet-cpp wrote into the originals.
  for (const file of ['geospatial-with-nan.parquet', 'crs-default.parquet', 'crs-srid.parquet', 'crs-projjson.parquet']) {
    const original = path.join(testingData, 'geospatial', file);
    const out = path.join(dir, `geo-${file}`);
    try {
      execFileSync(floe, ['parquet', 'rewrite', original, out], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      failures.push(`${file}: floe parquet rewrite failed: ${(e.stderr ?? '').toString().trim()}`);
      continue;
    }
    const geo = (f) => rows(`SELECT path_in_schema, geo_bbox::VARCHAR AS bbox, geo_types::VARCHAR AS types
                             FROM parquet_metadata('${f}') ORDER BY row_group_id, column_id`);
    const [got, want] = [await geo(out), await geo(original)];
    if (!got.some((c) => c.bbox !== null) || !isDeepStrictEqual(got, want)) {
      failures.push(`${file}: DuckDB reads floe's geospatial statistics as ${JSON.stringify(got).slice(0, 400)}, the original's as ${JSON.stringify(want).slice(0, 400)}`);
    }
    ++geoChecked;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(failures.join('\n'));
  console.log(`${failures.length} problems in ${variants.length} floe-written files`);
  process.exit(1);
}
console.log(`all ${variants.length} floe-written files read the same in DuckDB and parquet-wasm; ` +
  `${keptChecked} rewrites of INT96, FLOAT16 and RLE-boolean files read as their originals; ` +
  `${geoChecked} rewritten GEOMETRY files carry their originals' geospatial statistics`);
