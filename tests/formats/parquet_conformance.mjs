// Conformance of floe's Parquet reader on parquet-testing: every file in
// data/ is read by `floe parquet cat --format jsonl` and compared value by
// value with DuckDB's reading of the same file, with the *_expect.csv files
// where they exist, and with the documented expectations where DuckDB cannot
// read a file. Files that must fail (bad checksums, malformed data,
// encryption) must fail with the expected error kind.
//
// Usage: node parquet_conformance.mjs FLOE_BINARY PARQUET_TESTING_DIR DUCKDB_TOOLS_DIR
// Exits 0 when every file conforms, 1 otherwise (listing each difference),
// 77 (skip) when DuckDB is not installed.
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { diffRows, floeRows as floeRowsOf, looseEqual } from './json_rows.mjs';

const [floe, testing, tools] = process.argv.slice(2);
if (!existsSync(path.join(tools, 'node_modules/@duckdb/node-api'))) {
  console.log('SKIP: DuckDB is not installed (run dev/install-test-tools)');
  process.exit(77);
}
const require = createRequire(path.join(path.resolve(tools), '/'));
const { DuckDBInstance } = require('@duckdb/node-api');
const data = path.join(testing, 'data');

// Files floe must refuse, with the error kind and a word of the message.
const mustFail = {
  'datapage_v1-corrupt-checksum.parquet': /^floe: Corrupt: .*CRC mismatch/,
  'rle-dict-uncompressed-corrupt-checksum.parquet': /^floe: Corrupt: .*CRC mismatch/,
  'nation.dict-malformed.parquet': /^floe: Corrupt: /,
  // 4 KiB that declare a 1 GiB page: refused by the page memory budget.
  'large_string_map.brotli.parquet': /^floe: Unsupported: .*page budget/,
};
// Files DuckDB 1.5.6 cannot read, and what floe's rows are checked against.
const duckdbCannotRead = {
  // Hadoop-framed LZ4: the same rows as the LZ4_RAW files.
  'hadoop_lz4_compressed.parquet': { sameAs: 'lz4_raw_compressed.parquet' },
  'hadoop_lz4_compressed_larger.parquet': { sameAs: 'lz4_raw_compressed_larger.parquet' },
  'non_hadoop_lz4_compressed.parquet': { sameAs: 'lz4_raw_compressed.parquet' },
  // map_no_value.md: a map without values is the list of its keys; the file
  // repeats one row's keys in its int list column.
  'map_no_value.parquet': { check: mapNoValue },
  // int96_from_spark.md lists the instants as microseconds; the last one is
  // beyond DuckDB's range (it wraps), not beyond floe's.
  'int96_from_spark.parquet': { check: int96FromSpark },
  // Self-checking: each *_byte_stream_split column equals its *_plain twin.
  'byte_stream_split_extended.gzip.parquet': { check: byteStreamSplitTwins },
};

const failures = [];
const fail = (file, what) => failures.push(`${file}: ${what}`);
const floeRows = (file) => floeRowsOf(floe, file);
function compareRows(file, rows, expected, source) {
  const diff = diffRows(rows, expected, source);
  if (diff) fail(file, diff);
}

function mapNoValue(file, rows) {
  // map_no_value.md: each row's keys, in both maps, equal its my_list.
  if (rows.length !== 3) return fail(file, `${rows.length} rows, 3 expected`);
  rows.forEach((r, i) => {
    const keys = (r.my_map ?? []).map((e) => e.key);
    if (!looseEqual(keys, r.my_list)) fail(file, `row ${i}: my_map keys ${JSON.stringify(keys)} vs my_list ${JSON.stringify(r.my_list)}`);
    if (!looseEqual(r.my_map_no_v, r.my_list)) fail(file, `row ${i}: my_map_no_v ${JSON.stringify(r.my_map_no_v)} vs my_list ${JSON.stringify(r.my_list)}`);
    if (!(r.my_map ?? []).every((e) => e.value === null)) fail(file, `row ${i}: my_map values are not all null`);
  });
}

// "YYYY-MM-DD HH:MM:SS.ffffff" of a count of microseconds (any year).
function isoFromMicros(micros) {
  const perDay = 86400000000n;
  let days = micros / perDay;
  let rem = micros % perDay;
  if (rem < 0n) { rem += perDay; days -= 1n; }
  let z = days + 719468n;
  const era = (z >= 0n ? z : z - 146096n) / 146097n;
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  const y = yoe + era * 400n + (m <= 2n ? 1n : 0n);
  const pad = (v, n) => String(v).padStart(n, '0');
  const secs = rem / 1000000n;
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)} ${pad(secs / 3600n, 2)}:${pad((secs / 60n) % 60n, 2)}:${pad(secs % 60n, 2)}.${pad(rem % 1000000n, 6)}`;
}

function int96FromSpark(file, rows) {
  const expected = [1704141296123456n, 1704070800000000n, 253402225200000000n, 1735599600000000n, null, 9089380393200000000n];
  if (rows.length !== expected.length) return fail(file, `${rows.length} rows, ${expected.length} expected`);
  rows.forEach((r, i) => {
    const want = expected[i] === null ? null : isoFromMicros(expected[i]);
    if (!looseEqual(r.a, want)) fail(file, `row ${i}: ${r.a}, expected ${want}`);
  });
}

function byteStreamSplitTwins(file, rows) {
  if (rows.length === 0) return fail(file, 'no rows');
  const names = Object.keys(rows[0]).filter((n) => n.endsWith('_byte_stream_split'));
  if (names.length < 5) return fail(file, `only ${names.length} byte_stream_split columns`);
  for (const n of names) {
    const twin = n.replace(/_byte_stream_split$/, '_plain');
    rows.forEach((r, i) => { if (!looseEqual(r[n], r[twin])) fail(file, `row ${i}: ${n}=${JSON.stringify(r[n])} vs ${twin}=${JSON.stringify(r[twin])}`); });
  }
}

// RFC 4180 rows: quoted cells may hold commas and doubled quotes; an empty
// unquoted cell is null.
function parseCsv(text) {
  const rows = [];
  let row = [], cell = '', quoted = false, wasQuoted = false;
  const endCell = () => { row.push(cell === '' && !wasQuoted ? null : cell); cell = ''; wasQuoted = false; };
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; ++i; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') { quoted = true; wasQuoted = true; }
    else if (c === ',') endCell();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') ++i;
      endCell(); rows.push(row); row = [];
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) { endCell(); rows.push(row); }
  return rows;
}

// The expect.csv headers do not always spell the column names as the files
// do (spaces, colons), so values are compared by position.
function compareCsv(file, floe, csvText) {
  const [, ...expected] = parseCsv(csvText);
  compareRows(file, floe.map((r) => Object.values(r)), expected, 'expect.csv');
}

const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
async function duckRows(file) {
  try {
    const reader = await conn.runAndReadAll(`SELECT * FROM read_parquet('${file.replaceAll("'", "''")}')`);
    return { rows: reader.getRowObjectsJson() };
  } catch (e) {
    return { error: String(e.message ?? e).split('\n')[0] };
  }
}

let checked = 0;
const files = readdirSync(data).filter((f) => f.endsWith('.parquet')).sort();
for (const name of files) {
  const file = path.join(data, name);
  const got = floeRows(file);
  if (mustFail[name]) {
    if (!got.error) fail(name, 'floe read a file it must refuse');
    else if (!mustFail[name].test(got.error)) fail(name, `wrong error: ${got.error}`);
    ++checked;
    continue;
  }
  if (got.error) {
    fail(name, got.error);
    continue;
  }
  const expect = path.join(data, name.replace(/\.parquet$/, '_expect.csv'));
  if (existsSync(expect)) compareCsv(name, got.rows, readFileSync(expect, 'utf8'));
  const special = duckdbCannotRead[name];
  if (special?.check) {
    special.check(name, got.rows);
  } else {
    const duck = await duckRows(special?.sameAs ? path.join(data, special.sameAs) : file);
    if (duck.error) fail(name, `DuckDB cannot read it (${duck.error}); add its expectation`);
    else compareRows(name, got.rows, duck.rows, special?.sameAs ? `duckdb(${special.sameAs})` : 'duckdb');
  }
  ++checked;
}

// Encrypted files: floe does not decrypt (docs/decisions); the error says so.
for (const name of readdirSync(data).filter((f) => f.endsWith('.parquet.encrypted')).sort()) {
  const got = floeRows(path.join(data, name));
  if (!got.error || !/^floe: Unsupported: .*(encrypted|decrypt)/.test(got.error)) {
    fail(name, `expected an Unsupported encryption error, got ${got.error ?? 'rows'}`);
  }
  ++checked;
}

// VARIANT files (shredded or not) read in their binary form: the annotated
// group of metadata, value and typed_value. Every file must read, with the
// row count DuckDB gives.
for (const folder of ['shredded_variant']) {
  const dir = path.join(testing, folder);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.parquet')).sort()) {
    const file = path.join(dir, name);
    const got = floeRows(file);
    if (got.error) {
      fail(`${folder}/${name}`, got.error);
      continue;
    }
    try {
      const count = Number((await conn.runAndReadAll(`SELECT count(*) AS n FROM read_parquet('${file}')`)).getRowObjectsJson()[0].n);
      if (count !== got.rows.length) fail(`${folder}/${name}`, `floe reads ${got.rows.length} rows, DuckDB ${count}`);
    } catch (e) {
      // DuckDB rejects the deliberately invalid variants; floe reads their bytes.
    }
    ++checked;
  }
}

if (failures.length > 0) {
  console.log(failures.join('\n'));
  console.log(`${failures.length} of ${checked} files do not conform`);
  process.exit(1);
}
console.log(`all ${checked} parquet-testing files conform`);
