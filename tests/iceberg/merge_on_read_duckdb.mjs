// Merge-on-read deletes as another engine reads them: floe creates a v2
// table with write.delete.mode=merge-on-read, appends rows and deletes some
// by a filter; DuckDB then reads the table's data files and position delete
// files with read_parquet, checks the delete files' columns carry the
// spec's reserved field ids (file_path 2147483546, pos 2147483545), and
// removes the deleted rows by an anti-join on (file_path, pos). The rows
// left must equal floe's own scan and the model.
//
// Usage: node merge_on_read_duckdb.mjs FLOE_BINARY DUCKDB_TOOLS_DIR
// Exits 0 when they agree, 1 otherwise or without DuckDB (77, skip, with
// FLOE_ALLOW_MISSING_TOOLS=1).
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireNodeModules } from '../testing/required_tools.mjs';

const [floeArg, tools] = process.argv.slice(2);
const floe = path.resolve(floeArg);
requireNodeModules(tools, ['@duckdb/node-api']);
const require = createRequire(path.join(path.resolve(tools), '/'));
const { DuckDBInstance } = require('@duckdb/node-api');

const dir = mkdtempSync(path.join(os.tmpdir(), 'floe-mor-'));
const warehouse = path.join(dir, 'warehouse');
const run = (...args) => execFileSync(floe, ['--warehouse', warehouse, ...args], { encoding: 'utf8' });
let failures = 0;
const fail = (what) => {
  console.log(`FAIL: ${what}`);
  failures++;
};

try {
  run('namespace', 'create', 'db');
  run('table', 'create', 'db.t', '--schema', 'id long not null, region string, v long', '--partition', 'region',
      '--property', 'write.delete.mode=merge-on-read', '--format-version', '2');
  const rows = [];
  for (let id = 0; id < 90; id++) rows.push({ id, region: ['a', 'b', 'c'][id % 3], v: (id * 7) % 20 });
  const csv = path.join(dir, 'rows.csv');
  writeFileSync(csv, 'id,region,v\n' + rows.map((r) => `${r.id},${r.region},${r.v}`).join('\n') + '\n');
  run('table', 'append', 'db.t', csv);
  run('table', 'delete', 'db.t', '--where', 'v < 5 or id = 40');
  run('table', 'delete', 'db.t', '--where', 'v = 13');
  const expected = rows.filter((r) => !(r.v < 5 || r.id === 40 || r.v === 13)).map((r) => r.id).sort((x, y) => x - y);
  const scanned = run('table', 'scan', 'db.t', '--format', 'jsonl').trim().split('\n').filter((l) => l)
    .map((l) => Number(JSON.parse(l).id)).sort((x, y) => x - y);
  if (JSON.stringify(scanned) !== JSON.stringify(expected)) fail(`floe scan: ${scanned.length} rows, model ${expected.length}`);

  const files = [];
  const walk = (p) => {
    for (const name of readdirSync(p)) {
      const full = path.join(p, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.parquet')) files.push(full);
    }
  };
  walk(path.join(warehouse));
  const deletes = files.filter((f) => f.endsWith('-deletes.parquet'));
  const data = files.filter((f) => !f.endsWith('-deletes.parquet'));
  if (deletes.length !== 6) fail(`expected 6 position delete files (3 data files x 2 deletes), found ${deletes.length}`);
  const list = (fs) => '[' + fs.map((f) => `'${f}'`).join(', ') + ']';
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  for (const f of deletes) {
    const schema = (await conn.runAndReadAll(`SELECT name, field_id FROM parquet_schema('${f}') WHERE name IN ('file_path', 'pos')`)).getRowObjectsJson();
    const ids = Object.fromEntries(schema.map((r) => [r.name, String(r.field_id)]));
    if (ids.file_path !== '2147483546' || ids.pos !== '2147483545') fail(`${f}: field ids ${JSON.stringify(ids)}`);
  }
  // file_path is the data file's location as the table names it; DuckDB's
  // filename is the local path.
  const local = (p) => `regexp_replace(${p}, '^file:(//)?', '')`;
  const left = (await conn.runAndReadAll(`
      SELECT d.id FROM read_parquet(${list(data)}, filename = true, file_row_number = true) d
      WHERE NOT EXISTS (SELECT 1 FROM read_parquet(${list(deletes)}) x
                        WHERE ${local('x.file_path')} = d.filename AND x.pos = d.file_row_number)
      ORDER BY d.id`)).getRowObjectsJson().map((r) => Number(r.id));
  if (JSON.stringify(left) !== JSON.stringify(expected)) {
    fail(`DuckDB with the deletes applied: ${left.length} rows, model ${expected.length}`);
  }
  console.log(`${failures === 0 ? 'OK' : 'FAILED'}: ${expected.length} rows left of ${rows.length}; ${data.length} data files, ${deletes.length} delete files`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failures === 0 ? 0 : 1);
