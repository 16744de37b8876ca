// Conformance of floe's Parquet reader on parquet-testing: every file of
// the folder, in every subfolder, is claimed by exactly one rule below, and
// a file no rule claims fails the check (so a new fixture cannot go
// unread). The rules:
//   - data/**.parquet: read by `floe parquet cat --format jsonl`, compared
//     value by value with DuckDB's reading of the same file, with the
//     *_expect.csv files where they exist, and with the documented
//     expectations (*.md) where DuckDB cannot read a file;
//   - data/geospatial/: GEOMETRY / GEOGRAPHY read as their WKB bytes, equal
//     to DuckDB's; where the file has a `wkt` column, DuckDB's text of
//     floe's bytes is that WKT (the files' own expectation);
//   - **.parquet.encrypted: without keys, floe's one-line PermissionDenied
//     error naming the encryption; with the keys data/README.md documents,
//     the rows of the generator that wrote them;
//   - bad_data/: a one-line Corrupt error, except ARROW-GH-43605 (valid
//     data that crashed Arrow), compared with DuckDB;
//   - shredded_variant/: each case of cases.json reads (its binary form,
//     --variant binary) with the case's row count and null variants; where
//     a row stores its variant unshredded, floe's metadata + value bytes are
//     the case's *.variant.bin; DuckDB's row count and nulls agree where
//     DuckDB can read the file (the ones it cannot are listed with DuckDB's
//     reason). The values themselves, shredded ones included, are rebuilt
//     and compared by formats.ParquetShreddedVariantTest. As JSON (cat's
//     default), every valid case's variants equal DuckDB's `var::JSON` up to
//     the two engines' notations (sameVariantJson), and the cases the folder
//     calls errors fail with one line naming the column;
//   - files that are not Parquet (descriptions, generators, variant/'s
//     binary pairs checked by formats.ParquetVariantTest, bloom filter
//     headers, key material) are listed with the reason they are not read.
//
// Usage: node parquet_conformance.mjs FLOE_BINARY PARQUET_TESTING_DIR DUCKDB_TOOLS_DIR
// Exits 0 when every file conforms, 1 otherwise (listing each difference)
// or when DuckDB is missing (77, skip, with FLOE_ALLOW_MISSING_TOOLS=1).
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { requireFixtures, requireNodeModules } from '../testing/required_tools.mjs';
import { diffRows, floeRows as floeRowsOf, looseEqual, parseExact } from './json_rows.mjs';

const [floe, testing, tools] = process.argv.slice(2);
requireFixtures(testing);
requireNodeModules(tools, ['@duckdb/node-api']);
const require = createRequire(path.join(path.resolve(tools), '/'));
const { DuckDBInstance } = require('@duckdb/node-api');

const failures = [];
const fail = (file, what) => failures.push(`${file}: ${what}`);
const floeRows = (file, args = []) => floeRowsOf(floe, path.join(testing, file), args);
const used = new Set();  // non-Parquet files a check read (expectations)
const counts = { duckdb: 0, wkt: 0, unshredded: 0, decrypted: 0, variantJson: 0 };
function compareRows(file, rows, expected, source) {
  const diff = diffRows(rows, expected, source);
  if (diff) fail(file, diff);
}

// DuckDB, reopened after an error: an INTERNAL error invalidates the
// database, and every later query would fail too.
let conn = await (await DuckDBInstance.create(':memory:')).connect();
const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;
async function duck(sql) {
  try {
    return { rows: (await conn.runAndReadAll(sql)).getRowObjectsJson() };
  } catch (e) {
    conn = await (await DuckDBInstance.create(':memory:')).connect();
    return { error: String(e.message ?? e).split('\n')[0] };
  }
}
const duckRows = (file) => duck(`SELECT * FROM read_parquet(${sqlString(path.join(testing, file))})`);

// ---- data/ ---------------------------------------------------------------

// Files floe must refuse, with the error kind and a word of the message.
const mustFail = {
  'data/datapage_v1-corrupt-checksum.parquet': /^floe: Corrupt: .*CRC mismatch/,
  'data/rle-dict-uncompressed-corrupt-checksum.parquet': /^floe: Corrupt: .*CRC mismatch/,
  'data/nation.dict-malformed.parquet': /^floe: Corrupt: /,
  // 4 KiB that declare a 1 GiB page: refused by the page memory budget.
  'data/large_string_map.brotli.parquet': /^floe: Unsupported: .*page budget/,
};
// Files DuckDB 1.5.6 cannot read, and what floe's rows are checked against.
const duckdbCannotRead = {
  // Hadoop-framed LZ4: the same rows as the LZ4_RAW files.
  'data/hadoop_lz4_compressed.parquet': { sameAs: 'data/lz4_raw_compressed.parquet' },
  'data/hadoop_lz4_compressed_larger.parquet': { sameAs: 'data/lz4_raw_compressed_larger.parquet' },
  'data/non_hadoop_lz4_compressed.parquet': { sameAs: 'data/lz4_raw_compressed.parquet' },
  // map_no_value.md: a map without values is the list of its keys; the file
  // repeats one row's keys in its int list column.
  'data/map_no_value.parquet': { check: mapNoValue },
  // int96_from_spark.md lists the instants as microseconds; the last one is
  // beyond DuckDB's range (it wraps), not beyond floe's.
  'data/int96_from_spark.parquet': { check: int96FromSpark },
  // Self-checking: each *_byte_stream_split column equals its *_plain twin.
  'data/byte_stream_split_extended.gzip.parquet': { check: byteStreamSplitTwins },
};

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

async function checkDataFile(file) {
  const got = floeRows(file);
  if (mustFail[file]) {
    if (!got.error) fail(file, 'floe read a file it must refuse');
    else if (!mustFail[file].test(got.error)) fail(file, `wrong error: ${got.error}`);
    return;
  }
  if (got.error) return fail(file, got.error);
  const expect = file.replace(/\.parquet$/, '_expect.csv');
  if (existsSync(path.join(testing, expect))) {
    compareCsv(file, got.rows, readFileSync(path.join(testing, expect), 'utf8'));
    used.add(expect);
  }
  const special = duckdbCannotRead[file];
  if (special?.check) return special.check(file, got.rows);
  const duckFile = special?.sameAs ?? file;
  const d = await duckRows(duckFile);
  if (d.error) return fail(file, `DuckDB cannot read ${duckFile} (${d.error}); add its expectation`);
  compareRows(file, got.rows, d.rows, special?.sameAs ? `duckdb(${special.sameAs})` : 'duckdb');
  ++counts.duckdb;
}

// ---- data/geospatial/ -----------------------------------------------------

// The file's WKT writes MULTIPOINT ((x y), ...), DuckDB MULTIPOINT (x y, ...).
const plainMultipoint = (wkt) =>
  wkt.replace(/MULTIPOINT( [ZM]+)? \(((?:\([^()]*\)(?:, )?)+)\)/g, (_, dims, points) =>
    `MULTIPOINT${dims ?? ''} (${points.replace(/[()]/g, '')})`);

async function checkGeospatial(file) {
  const got = floeRows(file);
  if (got.error) return fail(file, got.error);
  const d = await duckRows(file);
  if (d.error) return fail(file, `DuckDB: ${d.error}`);
  compareRows(file, got.rows, d.rows, 'duckdb');
  ++counts.duckdb;
  const column = 'geometry' in (got.rows[0] ?? {}) ? 'geometry' : 'geography';
  if (got.rows.length === 0 || !(column in got.rows[0])) return fail(file, 'no geometry or geography column');
  if (!('wkt' in got.rows[0])) return;
  for (const [i, row] of got.rows.entries()) {
    if (row[column] === null || row.wkt === null) {
      if (row[column] !== row.wkt) fail(file, `row ${i}: ${column} ${row[column]} but wkt ${row.wkt}`);
      continue;
    }
    const text = await duck(`SELECT ST_GeomFromWKB(from_hex(${sqlString(row[column])}))::VARCHAR AS wkt`);
    if (text.error) {
      fail(file, `row ${i}: DuckDB cannot read floe's WKB ${row[column].slice(0, 80)}: ${text.error}`);
    } else if (plainMultipoint(text.rows[0].wkt) !== plainMultipoint(row.wkt)) {
      fail(file, `row ${i}: floe's WKB is ${text.rows[0].wkt}, the file's wkt ${row.wkt}`);
    }
    ++counts.wkt;
  }
}

// ---- encrypted and bad files ---------------------------------------------

// Encrypted files (docs/decisions/0065). Without keys: one line,
// PermissionDenied, naming the encryption. With the keys data/README.md
// documents: the rows of the generator the files were written from
// (parquet-cpp's encryption tests: 50 rows; the bloom filter file,
// parquet-mr: 2000). The README's keys are ASCII digits ("0123456789012345").
// external_key_material_java's keys are wrapped by parquet-mr's InMemoryKMS
// under those same keys as master keys "kf", "kc1" and "kc2" (decision
// 0067); its generator wrote 100 rows.
const asciiHex = (s) => Buffer.from(s, 'ascii').toString('hex');
function documentedKeys(file) {
  if (file.includes('external_key_material')) {
    return ['--master-key', `kf=${asciiHex('0123456789012345')}`, '--master-key', `kc1=${asciiHex('1234567890123450')}`,
      '--master-key', `kc2=${asciiHex('1234567890123451')}`];
  }
  if (file.includes('/aes256/')) {
    const column = (last) => asciiHex(`1234567890123456789012345678901${last}`);
    return ['--footer-key', asciiHex('01234567890123456789012345678901'),
      '--column-key', `double_field=${column(2)}`, '--column-key', `float_field=${column(3)}`,
      '--column-key', `boolean_field=${column(4)}`, '--column-key', `int32_field=${column(5)}`,
      '--column-key', `ba_field=${column(6)}`, '--column-key', `flba_field=${column(7)}`,
      '--column-key', `int64_field.list.element=${column(8)}`, '--column-key', `int96_field=${column(9)}`];
  }
  return ['--footer-key', asciiHex('0123456789012345'), '--column-key', `double_field=${asciiHex('1234567890123450')}`,
    '--column-key', `float_field=${asciiHex('1234567890123451')}`];
}
function generatorRowDiff(file, row, i) {
  if (file.includes('external_key_material')) {
    const want = { integers: i, strings: `${String.fromCharCode(97 + (i % 10))}${i}` };
    return JSON.stringify(row) === JSON.stringify(want) ? null : `want ${JSON.stringify(want)}`;
  }
  if (file.includes('bloom_filter')) {
    const want = { double_field: i + 0.5, float_field: i + 0.25, int32_field: i, name: `name_${i}` };
    return JSON.stringify(row) === JSON.stringify(want) ? null : `want ${JSON.stringify(want)}`;
  }
  const byte = i.toString(16).padStart(2, '0');
  const checks = [
    ['boolean_field', row.boolean_field === (i % 2 === 0)],
    ['int32_field', row.int32_field === `00:00:00.${String(i).padStart(3, '0')}000`],
    ['int64_field', JSON.stringify(row.int64_field) === JSON.stringify([2 * i * 1e12, (2 * i + 1) * 1e12])],
    ['float_field', Math.fround(row.float_field) === Math.fround(Math.fround(i) * Math.fround(1.1))],
    ['double_field', row.double_field === i * 1.1111111],
    ['ba_field', row.ba_field === (i % 2 === 0 ? asciiHex(`parquet${String(i).padStart(3, '0')}`) : null)],
    ['flba_field', row.flba_field === byte.repeat(10)],
  ];
  const wrong = checks.filter(([, ok]) => !ok).map(([name]) => name);
  return wrong.length ? `${wrong.join(', ')} differ from the generator` : null;
}
function checkEncrypted(file) {
  const keyless = floeRows(file);
  if (!keyless.error || !/^floe: PermissionDenied: [^\n]*encrypted[^\n]*$/.test(keyless.error)) {
    fail(file, `expected a one-line PermissionDenied error without keys, got ${keyless.error ?? 'rows'}`);
  }
  const args = ['--format', 'jsonl', 'parquet', 'cat', path.join(testing, file), ...documentedKeys(file)];
  if (file.includes('disable_aad_storage')) args.push('--aad-prefix', 'tester');
  let rows;
  try {
    rows = execFileSync(floe, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString().split('\n')
      .filter((l) => l.length > 0).map((l) => JSON.parse(l));
  } catch (e) {
    return fail(file, `floe with the documented keys: ${(e.stderr ?? '').toString().trim()}`);
  }
  const expected = file.includes('bloom_filter') ? 2000 : file.includes('external_key_material') ? 100 : 50;
  if (rows.length !== expected) return fail(file, `decrypted ${rows.length} rows, the generator wrote ${expected}`);
  for (let i = 0; i < rows.length; ++i) {
    const diff = generatorRowDiff(file, rows[i], i);
    if (diff) return fail(file, `row ${i}: ${JSON.stringify(rows[i])}: ${diff}`);
  }
  ++counts.decrypted;
}

async function checkBadData(file) {
  const got = floeRows(file);
  if (file === 'bad_data/ARROW-GH-43605.parquet') {
    // Valid: RLE dictionary indices of bit width 0 (all zero) crashed Arrow.
    if (got.error) return fail(file, got.error);
    const d = await duckRows(file);
    if (d.error) return fail(file, `DuckDB: ${d.error}`);
    compareRows(file, got.rows, d.rows, 'duckdb');
    ++counts.duckdb;
    return;
  }
  if (!got.error || !/^floe: Corrupt: [^\n]+$/.test(got.error)) {
    fail(file, `expected a one-line Corrupt error, got ${got.error ?? 'rows'}`);
  }
}

// ---- shredded_variant/ ----------------------------------------------------

// Files DuckDB 1.5.6 cannot read, with its reason; the rest must read.
const duckdbCannotReadVariant = {
  'case-041.parquet': 'wants metadata and value as the first two columns (no value column)',
  'case-131.parquet': 'wants metadata and value as the first two columns (no value column)',
  'case-138.parquet': 'wants metadata and value as the first two columns (no value column)',
  'case-088.parquet': 'INTERNAL error on the statistics of a shredded field struct',
  'case-132.parquet': 'INTERNAL error on the statistics of a shredded field struct',
  'case-087.parquet': 'refuses the invalid case (non-object value with shredded fields)',
  'case-128.parquet': 'refuses the invalid case (non-object value with shredded fields)',
  'case-127.parquet': 'refuses the unsupported case (uint32 typed_value)',
};

const hex = (bytes) => Buffer.from(bytes).toString('hex');
// Whether a serialized variant (metadata, then value) holds the Variant
// null: its value is the one byte 00 (VariantEncoding.md: the metadata is a
// header, a dictionary size and size + 1 offsets of one width, then the keys).
function isVariantNull(bytes) {
  const width = (bytes[0] >> 6) + 1;
  const le = (at) => bytes.subarray(at, at + width).reduceRight((v, b) => v * 256 + b, 0);
  const count = le(1);
  const metadataLength = 1 + width + (count + 1) * width + le(1 + width + count * width);
  return bytes.length === metadataLength + 1 && bytes[metadataLength] === 0;
}

// Nanoseconds of a fraction's digits (".123" -> 123000000).
const fractionNanos = (f) => Number((f ?? '').slice(1).padEnd(9, '0').slice(0, 9));
const DATETIME = /^(\d{4,}-\d\d-\d\d[T ])?(\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]00(:?00)?)?$/;
// DuckDB prints BLOB bytes outside printable ASCII as \xHH.
const duckBlob = (s) => Buffer.from(s.replace(/\\x([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1');

// floe's JSON of a variant against DuckDB's var::JSON. The notations differ
// and nothing else may: a float prints in its own shortest form in floe
// (-10.11) and as the widened double in DuckDB (-10.109999656677246);
// timestamps are ISO with "T" and "+00:00" in floe, with " " and "+00" in
// DuckDB, which rounds a UTC instant's nanoseconds to micros; binary is
// Base64 in floe, escaped bytes in DuckDB. Both sides are read with
// parseExact, so integers past 2^53 compare as their digits.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
function sameVariantJson(a, b) {
  if (a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameVariantJson(x, b[i]));
  }
  if (typeof a === 'object' || typeof b === 'object') {
    if (typeof a !== 'object' || typeof b !== 'object') return false;
    const keys = Object.keys(a).sort();
    return looseEqual(keys, Object.keys(b).sort()) && keys.every((k) => sameVariantJson(a[k], b[k]));
  }
  // A float: DuckDB's double is exactly floe's float widened.
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.fround(a) === b;
  if (typeof a !== 'string' || typeof b !== 'string') return a === b;
  if (a === b) return true;
  const ta = DATETIME.exec(a), tb = DATETIME.exec(b);
  if (ta && tb) {
    const date = (m) => (m[1] ?? '').replace('T', ' ');
    // Only a UTC instant with nanoseconds may differ, by DuckDB's rounding.
    const rounded = Boolean(ta[4]) && (ta[3] ?? '').length === 10;
    const nanos = Math.abs(fractionNanos(ta[3]) - fractionNanos(tb[3]));
    return date(ta) === date(tb) && ta[2] === tb[2] && Boolean(ta[4]) === Boolean(tb[4]) &&
      (nanos === 0 || (rounded && nanos < 1000));
  }
  return BASE64.test(a) && Buffer.from(a, 'base64').equals(duckBlob(b));
}

// Every row's variant as JSON (cat's default) against DuckDB's var::JSON.
async function checkVariantJson(file, c) {
  const got = floeRows(file);
  // The spec lets a reader refuse these or read their shredded values.
  const mayFail = (c.notes ?? '').includes('not valid');
  if (c.error_message || (mayFail && got.error)) {
    if (!got.error || !/^floe: (Corrupt|Unsupported): [^\n]*column 'var': variant at row \d+: [^\n]+$/.test(got.error)) {
      fail(file, `as JSON, expected a one-line error naming the column (${c.error_message}), got ${got.error ?? 'rows'}`);
    }
    return;
  }
  if (got.error) return fail(file, `as JSON: ${got.error}`);
  if (duckdbCannotReadVariant[c.parquet_file]) return;
  const d = await duck(`SELECT var::JSON::VARCHAR AS j FROM read_parquet(${sqlString(path.join(testing, file))})`);
  if (d.error) return fail(file, `DuckDB's var::JSON: ${d.error}`);
  if (d.rows.length !== got.rows.length) return fail(file, `as JSON, floe reads ${got.rows.length} rows, DuckDB ${d.rows.length}`);
  for (const [r, row] of got.rows.entries()) {
    const theirs = d.rows[r].j == null ? null : parseExact(`[${d.rows[r].j}]`)[0];
    if (!sameVariantJson(row.var, theirs)) {
      fail(file, `row ${r}: variant as JSON ${JSON.stringify(row.var)}, DuckDB ${JSON.stringify(theirs)}`);
    }
  }
  ++counts.variantJson;
}

async function checkShreddedVariants(cases) {
  const folder = 'shredded_variant';
  used.add(`${folder}/cases.json`);
  let checked = 0;
  for (const c of cases) {
    if (!c.parquet_file) continue;  // a numbered case without files (case 3)
    const file = `${folder}/${c.parquet_file}`;
    claimed.add(file);
    ++checked;
    await checkVariantJson(file, c);
    const got = floeRows(file, ['--variant', 'binary']);
    if (got.error) { fail(file, got.error); continue; }
    const expected = c.error_message ? null : (c.variant_files ?? [c.variant_file]);
    if (expected) {
      if (got.rows.length !== expected.length) fail(file, `floe reads ${got.rows.length} rows, cases.json has ${expected.length}`);
      for (const [r, row] of got.rows.entries()) {
        const bin = expected[r];
        if ((row.var === null) !== (bin === null)) { fail(file, `row ${r}: variant ${row.var === null ? 'null' : 'present'}, cases.json ${bin}`); continue; }
        if (bin === null) continue;
        used.add(`${folder}/${bin}`);
        const v = row.var;
        // Unshredded (no typed_value beside the value): the bytes are the expected ones.
        if (v.value != null && v.typed_value == null) {
          const want = hex(readFileSync(path.join(testing, folder, bin)));
          if (v.metadata + v.value !== want) fail(file, `row ${r}: metadata+value ${v.metadata + v.value}, ${bin} ${want}`);
          ++counts.unshredded;
        }
      }
    } else if (got.rows.length === 0) {
      fail(file, 'no rows');
    }
    const d = await duck(`SELECT var IS NULL AS n FROM read_parquet(${sqlString(path.join(testing, file))})`);
    const reason = duckdbCannotReadVariant[c.parquet_file];
    if (d.error) {
      if (!reason) fail(file, `DuckDB cannot read it (${d.error}): list it with DuckDB's reason`);
      continue;
    }
    if (reason) { fail(file, `DuckDB now reads it: drop "${reason}"`); continue; }
    ++counts.duckdb;
    if (d.rows.length !== got.rows.length) fail(file, `floe reads ${got.rows.length} rows, DuckDB ${d.rows.length}`);
    else if (expected) {
      // DuckDB reads the Variant null (a present variant) as SQL NULL too.
      const nulls = got.rows.map((row, r) =>
        row.var === null || isVariantNull(readFileSync(path.join(testing, folder, expected[r]))));
      if (!looseEqual(nulls, d.rows.map((row) => row.n))) fail(file, `null variants ${JSON.stringify(nulls)}, DuckDB ${JSON.stringify(d.rows.map((row) => row.n))}`);
    }
  }
  return checked;
}

// ---- every file of the folder --------------------------------------------

function walk(dir) {
  return readdirSync(path.join(testing, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    return e.isDirectory() ? walk(rel) : [rel];
  }).sort();
}

// [pattern, check] for files read as Parquet; [pattern, reason] for files
// that are not Parquet. The first rule that matches a file claims it.
const rules = [
  [/^data\/(aes256\/)?[^/]+\.parquet\.encrypted$/, checkEncrypted],
  [/^data\/geospatial\/[^/]+\.parquet$/, checkGeospatial],
  [/^data\/[^/]+\.parquet$/, checkDataFile],
  [/^bad_data\/[^/]+\.parquet$/, checkBadData],
  [/^shredded_variant\/[^/]+\.parquet$/, null],  // per case of cases.json, below
  [/^(.*\/)?(README\.md|LICENSE\.txt)$/, 'documentation'],
  [/^data\/[^/]+_expect\.csv$/, 'expected values, read by the check of its .parquet'],
  [/^data\/[^/]+\.md$/, 'a description of a data file, whose values are checked against DuckDB, its _expect.csv or this script'],
  [/^data\/bloom_filter(\.xxhash)?\.bin$/, 'a bloom filter header and bitset, not Parquet: checked by formats.MetadataFixturesTest.DecodesBloomFilterHeaders'],
  [/^data\/_KEY_MATERIAL_FOR_[^/]+\.json$/, 'key material of external_key_material_java, read through it'],
  [/^data\/geospatial\/[^/]+\.(py|yaml)$/, 'the generator of the geospatial files and its input (the files carry the WKT)'],
  [/^variant\/[^/]+\.(metadata|value)$/, 'a Variant binary pair, not Parquet: decoded and checked by formats.ParquetVariantTest'],
  [/^variant\/(data_dictionary\.json|regen\.py)$/, 'the expected values of variant/ (formats.ParquetVariantTest) and their generator'],
  [/^shredded_variant\/[^/]+\.variant\.bin$/, 'an expected variant, read below and by formats.ParquetShreddedVariantTest'],
  [/^shredded_variant\/cases\.json$/, 'the list of cases, read below'],
];

const claimed = new Set();
const notParquet = [];
let checked = 0;
for (const file of walk('')) {
  const rule = rules.find(([pattern]) => pattern.test(file));
  if (!rule) { fail(file, 'no rule claims this fixture file: add one to parquet_conformance.mjs'); continue; }
  const [, action] = rule;
  if (typeof action === 'function') {
    claimed.add(file);
    await action(file);
    ++checked;
  } else if (typeof action === 'string') {
    notParquet.push([file, action]);
  }
}
checked += await checkShreddedVariants(JSON.parse(readFileSync(path.join(testing, 'shredded_variant/cases.json'), 'utf8')));

for (const file of walk('')) {
  if (/\.parquet(\.encrypted)?$/.test(file) && !claimed.has(file)) fail(file, 'not read by any check');
  if (/(_expect\.csv|\.variant\.bin)$/.test(file) && !used.has(file)) fail(file, 'an expectation no check read');
}

const byReason = new Map();
for (const [file, reason] of notParquet) byReason.set(reason, [...(byReason.get(reason) ?? []), file]);
console.log(`not read as Parquet (${notParquet.length} files):`);
for (const [reason, files] of byReason) console.log(`  ${reason} (${files.length}): ${files.join(' ')}`);
if (failures.length > 0) {
  console.log(failures.join('\n'));
  console.log(`${failures.length} failures in ${checked} parquet-testing files`);
  process.exit(1);
}
console.log(`all ${checked} parquet-testing files conform (${counts.duckdb} compared with DuckDB, ` +
  `${counts.wkt} geometries with their WKT, ${counts.unshredded} unshredded variants byte for byte, ` +
  `${counts.decrypted} encrypted files decrypted to their generator's rows, ` +
  `${counts.variantJson} variant files' JSON equal to DuckDB's)`);
