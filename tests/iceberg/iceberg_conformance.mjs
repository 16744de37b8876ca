// Conformance of floe's Iceberg table scans on tables other engines wrote:
// every table of duckdb-iceberg's data/persistent fixtures, read by
// `floe table scan --metadata FILE [--as-of ID] --format jsonl` at the
// current snapshot of every metadata file and at every snapshot of each
// table's last metadata file, compared row by row with an independent
// reading of the same snapshot:
//   - manifests read by Debian's python3-avro (iceberg_manifests.py), live
//     entries and delete files planned here by the spec's rules (a position
//     delete applies to data files of its partition with a data sequence
//     number <= its own; an equality delete to those with a strictly smaller
//     one, in its partition or, from an unpartitioned spec, anywhere);
//   - data and delete files read by DuckDB's read_parquet; columns matched by
//     field id (files without ids through the table's name mapping); fields
//     a file lacks filled per the spec's Column Projection rules (identity
//     partition value, initial-default, null); position deletes removed by an
//     anti-join on (file_path, pos), equality deletes by an anti-join on the
//     equality columns with IS NOT DISTINCT FROM.
// Row counts are also checked against the snapshot summaries (total-records
// minus total-position-deletes) where no equality deletes make that count
// unknowable, which checks this oracle as well.
//
// Usage: node iceberg_conformance.mjs FLOE_BINARY DUCKDB_ICEBERG_DIR DUCKDB_TOOLS_DIR
// Exits 0 when every read conforms, 1 otherwise (listing each difference),
// or when DuckDB or python3-avro is missing (77, skip, with
// FLOE_ALLOW_MISSING_TOOLS=1).
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { looseEqual, parseExact } from '../formats/json_rows.mjs';
import { missingTool, requireFixtures, requireNodeModules } from '../testing/required_tools.mjs';

const [floeArg, fixtures, tools] = process.argv.slice(2);
const floe = path.resolve(floeArg);
const here = path.dirname(fileURLToPath(import.meta.url));
const python = '/usr/bin/python3';
requireFixtures(fixtures);
requireNodeModules(tools, ['@duckdb/node-api']);
try {
  execFileSync(python, ['-c', 'import avro'], { stdio: 'ignore' });
} catch {
  missingTool(`${python} cannot import avro (Debian python3-avro, installed by dev/setup)`);
}
const require = createRequire(path.join(path.resolve(tools), '/'));
const { DuckDBInstance } = require('@duckdb/node-api');
const root = path.resolve(fixtures);
const persistent = path.join(root, 'data/persistent');

// Reads that must fail, and how: the fixture's own defects and what floe
// deliberately refuses, when a snapshot is read (a table without one reads
// no file). `snapshot` limits an entry to one snapshot.
const expectedFailures = [
  {
    file: /equality_deletes\/warehouse\/mydb\/mytable\/metadata\/v\d\.metadata\.json$/,
    snapshot: '7342794868382145167',
    floe: /^floe: NotFound: open '.*snap-7342794868382145167-1-34f7dec7-90c5-4cd5-b158-5782b73fc010\.avro'/,
    why: 'the metadata names manifest list snap-...-1-34f7dec7, the fixture has only snap-...-3-34f7dec7',
  },
  {
    file: /generated_bounds\//,
    floe: /^floe: InvalidArgument: location 's3:\/\/fake-bucket\/.*' is not on the local disk \(scheme 's3'\)/,
    why: 'metadata only: its 5000 data files are on a bucket that does not exist; a scan without a catalog reads local files only',
  },
  {
    file: /map_stats\//,
    floe: /^floe: InvalidArgument: file location 'file:\/\/data\/persistent\/map_stats\/.*' names host 'data'/,
    why: "file://data/... names host 'data' (RFC 8089); floe reads local paths only (decision 0026)",
  },
  {
    file: /name_mapping\/warehouse_1\/mydb\/t1\/metadata\/v2\.metadata\.json$/,
    floe: /^floe: InvalidArgument: table property 'schema\.name-mapping\.default' .*expected a list of field mappings/,
    why: 'the name mapping is an object {"type":"struct","fields":[...]}, the spec serializes a list',
  },
];
const expectedFailure = (file, snapshot) => snapshot !== undefined &&
  expectedFailures.find((e) => e.file.test(file) && (e.snapshot === undefined || e.snapshot === snapshot));

const failures = [];
const fail = (what) => failures.push(what);

// JSON.parse keeping integers of 16 digits and more exact (as strings).
const parseBig = (text) => JSON.parse(text.replace(/([:\[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
function readMetadata(file) {
  let bytes = readFileSync(file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return parseBig(bytes.toString('utf8'));
}
// Snapshot ids as floe takes them: the signed 64 bits (some writers mint unsigned ids).
const signedId = (id) => BigInt.asIntN(64, BigInt(id)).toString();

function metadataFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...metadataFiles(p));
    else if (entry.name.endsWith('.metadata.json')) out.push(p);
  }
  return out.sort();
}

// Locations inside the fixtures are relative: to the duckdb-iceberg checkout
// for most tables, to data/persistent/iceberg for the lineitem tables.
const cwdFor = (metadata) => (/^(file:\/\/)?data\//.test(metadata.location) ? root : path.join(persistent, 'iceberg'));
const localPath = (cwd, location) => path.resolve(cwd, location.replace(/^file:\/\//, ''));

// ---- Iceberg types in DuckDB SQL ----
function duckType(t) {
  if (typeof t === 'string') {
    const dec = /^decimal\((\d+),\s*(\d+)\)$/.exec(t);
    if (dec) return `DECIMAL(${dec[1]},${dec[2]})`;
    if (/^fixed\[\d+\]$/.test(t)) return 'BLOB';
    return {
      boolean: 'BOOLEAN', int: 'INTEGER', long: 'BIGINT', float: 'FLOAT', double: 'DOUBLE', date: 'DATE',
      time: 'TIME', timestamp: 'TIMESTAMP', timestamptz: 'TIMESTAMPTZ', string: 'VARCHAR', uuid: 'UUID',
      binary: 'BLOB',
    }[t] ?? 'VARCHAR';
  }
  if (t.type === 'struct') return `STRUCT(${t.fields.map((f) => `${quoteId(f.name)} ${duckType(f.type)}`).join(', ')})`;
  if (t.type === 'list') return `${duckType(t.element)}[]`;
  return `MAP(${duckType(t.key)}, ${duckType(t.value)})`;
}
const quoteId = (name) => `"${String(name).replaceAll('"', '""')}"`;
const quoteText = (s) => `'${String(s).replaceAll("'", "''")}'`;

// A partition value as iceberg_manifests.py prints it (dates in days,
// timestamps in microseconds, decimals as text, bytes as hex), in SQL.
function partitionLiteral(value, type) {
  if (value === null || value === undefined) return `NULL::${duckType(type)}`;
  switch (type) {
    case 'date': return `(DATE '1970-01-01' + ${value})`;
    case 'time': return `make_time(0, 0, ${value} / 1e6)`;
    case 'timestamp': return `make_timestamp(${value}::BIGINT)`;
    case 'timestamptz': return `make_timestamp(${value}::BIGINT)::TIMESTAMPTZ`;
    case 'binary': return `from_hex(${quoteText(value)})`;
    default:
      if (/^fixed/.test(type)) return `from_hex(${quoteText(value)})`;
      return `${typeof value === 'string' ? quoteText(value) : value}::${duckType(type)}`;
  }
}
// An initial-default (JSON single-value form, as the metadata spells it).
function defaultLiteral(json, type) {
  if (typeof type !== 'string') throw new Error(`default ${JSON.stringify(json)} of nested type`);
  if (json === null) return `NULL::${duckType(type)}`;
  if (type === 'binary' || /^fixed/.test(type)) return `from_hex(${quoteText(json)})`;
  return `${typeof json === 'string' ? quoteText(json) : json}::${duckType(type)}`;
}

// ---- Data file schemas (DuckDB's parquet_schema, as a tree) ----
const schemaCache = new Map();
async function fileSchema(conn, file) {
  if (!schemaCache.has(file)) {
    const rows = (await conn.runAndReadAll(`SELECT name, field_id, num_children FROM parquet_schema(${quoteText(file)})`)).getRowObjectsJson();
    let i = 0;
    const node = () => {
      const r = rows[i++];
      const n = { name: r.name, id: r.field_id === null ? null : Number(r.field_id), children: [] };
      for (let c = 0; c < Number(r.num_children ?? 0); ++c) n.children.push(node());
      return n;
    };
    const tree = node();
    // DuckDB renames columns whose names differ only in case ("uSeR_Id_1"):
    // top-level columns are referred to by the names it gives them.
    const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${quoteText(file)}, hive_partitioning = false)`)).getRowObjectsJson();
    tree.children.forEach((child, i) => { child.sql = described[i].column_name; });
    const hasIds = rows.slice(1).some((r) => r.field_id !== null);
    schemaCache.set(file, { tree, hasIds });
  }
  return schemaCache.get(file);
}

// The name mapping property: spec "Name Mapping Serialization" is a list.
function nameMapping(metadata) {
  const text = metadata.properties?.['schema.name-mapping.default'];
  if (text === undefined) return null;
  const parsed = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error('name mapping is not a list of field mappings');
  return parsed;
}

// The SQL expression reading table field `field` from file node `node`
// (null: the file lacks it), as `ref` names the node's value.
function fieldExpr(field, node, ref, ctx, mapped) {
  if (node === null) {
    if (ctx.partition.has(field.id)) return partitionLiteral(ctx.partition.get(field.id), field.type);
    if (field['initial-default'] !== undefined) {
      if (typeof field.type === 'object' && field.type.type === 'struct') {
        return `struct_pack(${field.type.fields.map((c) => `${quoteId(c.name)} := ${fieldExpr(c, null, null, ctx, null)}`).join(', ')})`;
      }
      return defaultLiteral(field['initial-default'], field.type);
    }
    return `NULL::${duckType(field.type)}`;
  }
  if (typeof field.type === 'object' && field.type.type === 'struct') {
    const children = field.type.fields.map((c) => {
      const m = mapped?.fields?.find((f) => f['field-id'] === c.id) ?? null;
      const child = findNode(node.children, c, ctx, m);
      return `${quoteId(c.name)} := ${fieldExpr(c, child, child && `${ref}.${quoteId(child.name)}`, ctx, m)}`;
    });
    return `CASE WHEN ${ref} IS NULL THEN NULL ELSE struct_pack(${children.join(', ')}) END`;
  }
  return `${ref}::${duckType(field.type)}`;
}
function findNode(nodes, field, ctx, mapped) {
  if (ctx.hasIds) return nodes.find((n) => n.id === field.id) ?? null;
  if (ctx.mapping) return nodes.find((n) => (mapped?.names ?? []).includes(n.name)) ?? null;
  return nodes.find((n) => n.name === field.name) ?? null;
}

// ---- Planning (spec: "Scan Planning") ----
function plan(dumped, metadata) {
  const specs = new Map((metadata['partition-specs'] ?? []).map((s) => [s['spec-id'], s]));
  const data = [];
  const deletes = [];
  for (const m of dumped.manifests) {
    for (const e of m.entries) {
      if (e.status === 2) continue;  // DELETED
      const file = { ...e, spec_id: m.spec_id, key: `${m.spec_id}:${JSON.stringify(e.partition)}` };
      (m.content === 0 ? data : deletes).push(file);
    }
  }
  const unpartitioned = (specId) => (specs.get(specId)?.fields ?? []).every((f) => f.transform === 'void');
  for (const f of data) {
    f.positionDeletes = deletes.filter((d) => d.content === 1 && d.sequence_number >= f.sequence_number &&
      (d.referenced_data_file ? d.referenced_data_file === f.file_path : d.key === f.key));
    f.equalityDeletes = deletes.filter((d) => d.content === 2 && d.sequence_number > f.sequence_number &&
      (unpartitioned(d.spec_id) || d.key === f.key));
  }
  return data;
}

// `filter`: SQL over the fields, each named {name}, or undefined.
async function oracleRows(conn, metadata, schema, dumped, cwd, filter) {
  const specs = new Map((metadata['partition-specs'] ?? []).map((s) => [s['spec-id'], s]));
  const parts = [];
  const files = plan(dumped, metadata);
  for (let i = 0; i < files.length; ++i) {
    const f = files[i];
    const local = localPath(cwd, f.file_path);
    const { tree, hasIds } = await fileSchema(conn, local);
    // spec: the name mapping resolves the columns of files without field ids.
    const mapping = hasIds ? null : nameMapping(metadata);
    // spec: identity partition values stand in for source columns the file lacks.
    const partition = new Map();
    for (const pf of specs.get(f.spec_id)?.fields ?? []) {
      if (pf.transform === 'identity' && pf.name in f.partition) partition.set(pf['source-id'], f.partition[pf.name]);
    }
    const ctx = { hasIds, mapping, partition };
    const exprs = new Map();
    for (const field of schema.fields) {
      const m = mapping?.find((x) => x['field-id'] === field.id) ?? null;
      const node = findNode(tree.children, field, ctx, m);
      exprs.set(field.id, fieldExpr(field, node, node && `d.${quoteId(node.sql)}`, ctx, m));
    }
    const where = [];
    if (f.positionDeletes.length > 0) {
      const list = f.positionDeletes.map((d) => quoteText(localPath(cwd, d.file_path))).join(', ');
      where.push(`NOT EXISTS (SELECT 1 FROM read_parquet([${list}], hive_partitioning = false) p WHERE p.file_path = ${quoteText(f.file_path)} AND p.pos = d.file_row_number)`);
    }
    for (const d of f.equalityDeletes) {
      const eqFile = localPath(cwd, d.file_path);
      const eqSchema = await fileSchema(conn, eqFile);
      const conditions = d.equality_ids.map((id) => {
        const column = eqSchema.tree.children.find((n) => n.id === id);
        if (!column || !exprs.has(id)) throw new Error(`equality delete ${d.file_path}: no column for field id ${id}`);
        return `e.${quoteId(column.name)} IS NOT DISTINCT FROM ${exprs.get(id)}`;
      });
      where.push(`NOT EXISTS (SELECT 1 FROM read_parquet(${quoteText(eqFile)}, hive_partitioning = false) e WHERE ${conditions.join(' AND ')})`);
    }
    // Positional names: DuckDB's column names are case-insensitive, Iceberg's are not.
    const select = schema.fields.map((field, c) => `${exprs.get(field.id)} AS c${c}`);
    parts.push(`SELECT ${i} AS __file, d.file_row_number AS __row, ${select.join(', ')} ` +
      `FROM read_parquet(${quoteText(local)}, file_row_number = true, hive_partitioning = false) d` + (where.length ? ` WHERE ${where.join(' AND ')}` : ''));
  }
  if (parts.length === 0) return [];
  const names = schema.fields.map((field, c) => `c${c}`).join(', ');
  const where = filter === undefined ? '' : ` WHERE ${filter.replace(/\{(\w+)\}/g, (_, n) => `c${schema.fields.findIndex((f) => f.name === n)}`)}`;
  const sql = `SELECT ${names} FROM (${parts.join(' UNION ALL ')})${where} ORDER BY __file, __row`;
  return (await conn.runAndReadAll(sql)).getRowObjectsJson();
}

function floeScan(cwd, file, asOf, where) {
  const args = ['--format', 'jsonl', 'table', 'scan', '--metadata', path.relative(cwd, file)];
  if (asOf !== undefined) args.push('--as-of', signedId(asOf));
  if (where !== undefined) args.push('--where', where);
  try {
    const out = execFileSync(floe, args, { cwd, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
    return { rows: out.toString().split('\n').filter((l) => l.length > 0).map(parseExact) };
  } catch (e) {
    return { error: ((e.stderr ?? '').toString().trim() || String(e)).split('\n')[0] };
  }
}

// The first difference between floe's rows and the oracle's, or null.
function diff(rows, expected, schema) {
  if (rows.length !== expected.length) return `floe reads ${rows.length} rows, the oracle ${expected.length}`;
  for (let i = 0; i < rows.length; ++i) {
    for (const [c, field] of schema.fields.entries()) {
      if (!looseEqual(rows[i][field.name] ?? null, expected[i][`c${c}`] ?? null)) {
        return `row ${i} column ${field.name}: floe ${JSON.stringify(rows[i][field.name])}, ` +
          `oracle ${JSON.stringify(expected[i][`c${c}`])}`;
      }
    }
  }
  return null;
}

// ---- The run ----
const files = metadataFiles(persistent);
const tables = new Map();  // metadata folder → its files (the last one is the newest)
for (const f of files) {
  const dir = path.dirname(f);
  if (!tables.has(dir)) tables.set(dir, []);
  tables.get(dir).push(f);
}
const byCwd = new Map();
const metadataOf = new Map();
for (const f of files) {
  const m = readMetadata(f);
  metadataOf.set(f, m);
  const cwd = cwdFor(m);
  if (!byCwd.has(cwd)) byCwd.set(cwd, []);
  byCwd.get(cwd).push(f);
}
const dumps = new Map();
for (const [cwd, list] of byCwd) {
  const out = execFileSync(python, [path.join(here, 'iceberg_manifests.py'), ...list.map((f) => path.relative(cwd, f))],
    { cwd, maxBuffer: 1 << 30 });
  for (const [rel, snapshots] of Object.entries(JSON.parse(out.toString().replace(/(:\s*)(-?\d{16,})(?=[,}\]])/g, '$1"$2"')))) {
    dumps.set(path.resolve(cwd, rel), snapshots);
  }
}

const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
await conn.run("SET TimeZone = 'UTC'");

// The newest metadata file of a table: the highest version number, else the
// version hint's, else the last in name order.
function newest(list) {
  const versioned = (f) => /\/(\d+)-[^/]*\.metadata\.json$/.exec(f)?.[1] ?? /\/v(\d+)[^/]*\.metadata\.json$/.exec(f)?.[1];
  return [...list].sort((a, b) => Number(versioned(a) ?? 0) - Number(versioned(b) ?? 0) || a.localeCompare(b)).at(-1);
}

let reads = 0, matched = 0, expectedErrors = 0, summaryChecks = 0;
const seen = new Set();
async function check(file, snapshotId, asOf) {
  const metadata = metadataOf.get(file);
  const cwd = cwdFor(metadata);
  const name = `${path.relative(persistent, file)}${asOf !== undefined ? ` @${snapshotId}` : ''}`;
  const snapshot = (metadata.snapshots ?? []).find((s) => String(s['snapshot-id']) === snapshotId);
  // The schema read: the snapshot's for time travel, else the table's.
  const schemaId = asOf !== undefined && snapshot?.['schema-id'] !== undefined ? snapshot['schema-id'] : metadata['current-schema-id'];
  const schema = metadata.schemas ? metadata.schemas.find((s) => s['schema-id'] === schemaId) ?? metadata.schemas[0] : metadata.schema;
  const dumped = snapshotId === undefined ? { manifests: [] } : dumps.get(file)[snapshotId];
  // Identical reads (same files, schema and mapping) are checked once.
  const signature = JSON.stringify([cwd, snapshot?.['manifest-list'] ?? snapshot?.manifests ?? null, schema, metadata.properties?.['schema.name-mapping.default'] ?? null, metadata['partition-specs']]);
  if (seen.has(signature)) return;
  seen.add(signature);
  ++reads;
  const got = floeScan(cwd, file, asOf);
  const expected = expectedFailure(file, snapshotId);
  if (expected) {
    if (got.error && expected.floe.test(got.error)) ++expectedErrors;
    else fail(`${name}: expected floe to fail (${expected.why}) with ${expected.floe}, got ${got.error ?? `${got.rows.length} rows`}`);
    return;
  }
  if (got.error) return fail(`${name}: floe fails: ${got.error}`);
  let want;
  try {
    if (dumped.error) throw new Error(dumped.error);
    want = await oracleRows(conn, metadata, schema, dumped, cwd);
  } catch (e) {
    return fail(`${name}: the oracle fails: ${String(e.message ?? e).split('\n')[0]}`);
  }
  const d = diff(got.rows, want, schema);
  if (d) return fail(`${name}: ${d}`);
  ++matched;
  // spec: total-records counts the rows of live data files; position
  // deletes remove exactly their rows. Equality deletes remove an unknown count.
  const summary = snapshot?.summary ?? {};
  if (summary['total-records'] !== undefined && Number(summary['total-equality-deletes'] ?? 0) === 0) {
    const count = Number(summary['total-records']) - Number(summary['total-position-deletes'] ?? 0);
    ++summaryChecks;
    if (count !== want.length) fail(`${name}: the summary counts ${count} rows, floe and the oracle ${want.length}`);
  }
}

for (const [, list] of tables) {
  for (const file of list) {
    const m = metadataOf.get(file);
    const current = m['current-snapshot-id'];
    await check(file, current === undefined || current === null || String(current) === '-1' ? undefined : String(current));
  }
  const last = newest(list);
  for (const s of metadataOf.get(last).snapshots ?? []) await check(last, String(s['snapshot-id']), String(s['snapshot-id']));
}

// Filtered reads, where the fixtures test pruning (null counts, bounds,
// partitions): floe's --where against the oracle's rows under the same
// condition in SQL.
const filtered = [
  ['is_null_is_not_null/metadata/00001-43ceeb9a-cd0d-4556-b1e2-513b5bf88ff8.metadata.json', 'value is null', '{value} IS NULL'],
  ['is_null_is_not_null/metadata/00001-43ceeb9a-cd0d-4556-b1e2-513b5bf88ff8.metadata.json', 'value is not null', '{value} IS NOT NULL'],
  ['null_stats/default/test_nulls/metadata/00003-9d6a621e-8a72-4190-a880-f6ca02e32b86.metadata.json', 'flag is null', '{flag} IS NULL'],
  ['null_stats/default/test_nulls/metadata/00003-9d6a621e-8a72-4190-a880-f6ca02e32b86.metadata.json', 'flag = true and id > 1', '{flag} = true AND {id} > 1'],
  ['null_stats/default/test_nulls/metadata/00003-9d6a621e-8a72-4190-a880-f6ca02e32b86.metadata.json', "ts >= '2024-03-06T00:00:00+00:00'", "{ts} >= TIMESTAMPTZ '2024-03-06 00:00:00+00'"],
  ['expression_filter/metadata/00001-19739cda-f528-4429-84cc-377ffdd24c75.metadata.json', "value = 'bar' or id = 3", "{value} = 'bar' OR {id} = 3"],
  ['equality_deletes/warehouse/mydb/mytable/metadata/v7.metadata.json', 'id = 4', '{id} = 4'],
  ['equality_deletes/warehouse/mydb/mytable_partitioned/metadata/v6.metadata.json', "name in ('a', 'b', 'f')", "{name} IN ('a', 'b', 'f')"],
  ['partition_integer/metadata/v2.metadata.json', 'partition_col = 42', '{partition_col} = 42'],
  ['partition_timestamp/default.db/partition_timestamp/metadata/00001-0c9938a5-103e-4185-b46d-331368ae4db7.metadata.json', "partition_col > '2023-06-01T00:00:00'", "{partition_col} > TIMESTAMP '2023-06-01 00:00:00'"],
  ['name_mapping/warehouse_1/mydb/t1/metadata/v3.metadata.json', 'b < 10', '{b} < 10'],
  ['name_mapping/warehouse_1/mydb/t1/metadata/v5.metadata.json', 'b >= 990', '{b} >= 990'],
];
for (const [rel, where, sql] of filtered) {
  const file = path.join(persistent, rel);
  const metadata = metadataOf.get(file);
  const cwd = cwdFor(metadata);
  const schema = metadata.schemas.find((x) => x['schema-id'] === metadata['current-schema-id']);
  const got = floeScan(cwd, file, undefined, where);
  ++reads;
  if (got.error) {
    fail(`${rel} where ${where}: floe fails: ${got.error}`);
    continue;
  }
  const want = await oracleRows(conn, metadata, schema, dumps.get(file)[String(metadata['current-snapshot-id'])], cwd, sql);
  const d = diff(got.rows, want, schema);
  if (d) fail(`${rel} where ${where}: ${d}`);
  else if (want.length === 0) fail(`${rel} where ${where}: no rows (a filter that keeps none checks little)`);
  else ++matched;
}

// lineitem_iceberg's README: TPC-H Q6 on the table after its delete is
// 1077536.9101 according to pyspark.
{
  const cwd = path.join(persistent, 'iceberg');
  const got = floeScan(cwd, path.join(cwd, 'lineitem_iceberg/metadata/v2.metadata.json'), undefined,
    "l_shipdate >= '1994-01-01' and l_shipdate < '1995-01-01' and l_discount >= 0.05 and l_discount <= 0.07 and l_quantity < 24");
  ++reads;
  // Exact decimal arithmetic: both factors have scale 2.
  const cents = (v) => BigInt(Math.round(Number(v) * 100));
  const revenue = got.error ? null : got.rows.reduce((sum, r) => sum + cents(r.l_extendedprice) * cents(r.l_discount), 0n);
  if (revenue !== 10775369101n) fail(`lineitem_iceberg TPC-H Q6: ${got.error ?? `revenue ${revenue} (scale 4)`}, pyspark 1077536.9101`);
  else ++matched;
}

// Not metadata at all: refused as Corrupt, naming the file.
const bad = floeScan(root, path.join(persistent, 'bad_data/bad_iceberg_metadata.json'));
if (!bad.error || !/^floe: Corrupt: table metadata 'data\/persistent\/bad_data\/bad_iceberg_metadata\.json'/.test(bad.error)) {
  fail(`bad_data/bad_iceberg_metadata.json: expected a Corrupt error naming the file, got ${bad.error ?? `${bad.rows.length} rows`}`);
}

if (failures.length > 0) {
  console.log(failures.join('\n'));
  console.log(`FAIL: ${failures.length} of ${reads + 1} reads differ`);
  process.exit(1);
}
console.log(`OK: ${files.length} metadata files of ${tables.size} tables, ${reads} distinct reads: ` +
  `${matched} equal to the oracle (${summaryChecks} also to their snapshot summary), ` +
  `${expectedErrors} failing as expected; bad_data refused`);
