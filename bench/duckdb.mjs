// DuckDB's side of bench/parquet-vs-duckdb.sh, run in-process so node's
// start-up is not timed.
//   node bench/duckdb.mjs generate DIR ROWS   writes the benchmark files
//   node bench/duckdb.mjs scan FILE EXPR THREADS RUNS
//       prints "<best wall ms> <best cpu ms> <value>" for SELECT EXPR FROM
//       read_parquet(FILE); the CPU time is the process's (user + system, all
//       of DuckDB's threads)
//   node bench/duckdb.mjs orders GLOB THREADS RUNS
//       the demo's orders query over read_parquet(GLOB); prints
//       "<best ms> <bytes read> orders=<n> amount=<cents>", the bytes being
//       what the process read (rchar of /proc/self/io) during the first run
//   node bench/duckdb.mjs footer FILE RUNS
//       prints "<best wall ms> <best cpu ms>" of parquet_file_metadata(FILE), one footer parse
//   node bench/duckdb.mjs source KIND ROWS FILE
//       writes the column kind's generated values, uncompressed, to FILE: the
//       input both writers of bench/parquet-write-vs-duckdb.sh load untimed
//   node bench/duckdb.mjs write SRC OUT CODEC ROW_GROUP_ROWS RUNS [CHECK]
//       loads SRC into an in-memory table (untimed), then times
//       COPY t TO OUT (FORMAT parquet, COMPRESSION CODEC, ROW_GROUP_SIZE ...)
//       on one thread; prints "<best wall ms> <best cpu ms>", and with CHECK
//       (another writer's file of the same input) then
//       "<rows of SRC> <rows of CHECK> <rows that differ>", rows paired by
//       position (POSITIONAL JOIN), values compared with IS DISTINCT FROM
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const require = createRequire(new URL('../dev/tools/', import.meta.url));
const { DuckDBInstance } = require('@duckdb/node-api');

// Column kinds of the issue's benchmark; deterministic (hash of the row number).
export const kinds = {
  random_int64: '(hash(i) % 9223372036854775807)::BIGINT',
  sequential_int64: 'i::BIGINT',
  int32_1000_distinct: '(hash(i) % 1000)::INTEGER',
  double: '(hash(i) % 1000000007)::DOUBLE / 1024.0',
  string_50_distinct: "'city_' || (hash(i) % 50)::VARCHAR",
  string_32_bytes: 'md5(i::VARCHAR)',
};
export const codecs = ['uncompressed', 'snappy', 'zstd', 'lz4_raw'];

const [command, ...args] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();

if (command === 'generate') {
  const [dir, rows] = args;
  mkdirSync(dir, { recursive: true });
  for (const [kind, expr] of Object.entries(kinds)) {
    await conn.run(`CREATE TABLE t_${kind} AS SELECT ${expr} AS x FROM range(${Number(rows)}) t(i)`);
    for (const codec of codecs) {
      await conn.run(`COPY t_${kind} TO '${path.join(dir, `${kind}.${codec}.parquet`)}' (FORMAT parquet, COMPRESSION ${codec})`);
    }
    await conn.run(`DROP TABLE t_${kind}`);
  }
} else if (command === 'scan') {
  const [file, expr, threads, runs] = args;
  await conn.run(`SET threads = ${Number(threads)}`);
  const sql = `SELECT ${expr} AS v FROM read_parquet('${file}')`;
  let best = Infinity;
  let bestCpu = Infinity;
  let value;
  for (let r = 0; r < Number(runs); ++r) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const reader = await conn.runAndReadAll(sql);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const used = process.cpuUsage(cpu);
    value = reader.getRowObjectsJson()[0].v;
    best = Math.min(best, ms);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1e3);
  }
  console.log(`${best.toFixed(3)} ${bestCpu.toFixed(3)} ${value}`);
} else if (command === 'orders') {
  const [glob, threads, runs] = args;
  await conn.run(`SET threads = ${Number(threads)}`);
  // Every run reads the files again, as floe's does.
  await conn.run('SET enable_external_file_cache = false');
  const sql = `SELECT city, count(*) AS orders, CAST(sum(amount) * 100 AS BIGINT) AS cents
               FROM read_parquet('${glob}')
               WHERE order_ts >= TIMESTAMP '2026-10-21 20:00:00' AND order_ts < TIMESTAMP '2026-10-21 22:00:00'
               GROUP BY city`;
  const rchar = () => Number(/rchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
  const probe = (() => { const a = rchar(); return rchar() - a; })();  // what reading the counter costs
  let best = Infinity;
  let bytes = 0;
  let orders = 0n;
  let cents = 0n;
  for (let r = 0; r < Number(runs); ++r) {
    const before = rchar();
    const start = process.hrtime.bigint();
    const reader = await conn.runAndReadAll(sql);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r === 0) bytes = rchar() - before - probe;
    best = Math.min(best, ms);
    orders = 0n;
    cents = 0n;
    for (const row of reader.getRowObjectsJson()) {
      orders += BigInt(row.orders);
      cents += BigInt(row.cents);
    }
  }
  console.log(`${best.toFixed(3)} ${bytes} orders=${orders} amount=${cents}`);
} else if (command === 'footer') {
  // The footer parse alone: parquet_file_metadata() decodes the whole footer
  // and returns one row (no per-chunk result rows to build).
  const [file, runs] = args;
  await conn.run('SET threads = 1');
  // Wall time and this process's CPU time (user + system, so DuckDB's work
  // whatever thread ran it): on a shared machine the CPU time is the steadier.
  let best = Infinity;
  let bestCpu = Infinity;
  for (let r = 0; r < Number(runs); ++r) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    await conn.runAndReadAll(`SELECT num_rows FROM parquet_file_metadata('${file}')`);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
    const used = process.cpuUsage(cpu);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1e3);
  }
  console.log(`${best.toFixed(3)} ${bestCpu.toFixed(3)}`);
} else if (command === 'source') {
  const [kind, rows, file] = args;
  if (!(kind in kinds)) throw new Error(`unknown kind ${kind}`);
  await conn.run(`COPY (SELECT ${kinds[kind]} AS x FROM range(${Number(rows)}) t(i)) TO '${file}' (FORMAT parquet, COMPRESSION uncompressed)`);
} else if (command === 'write') {
  const [src, out, codec, rowGroupRows, runs] = args;
  // One thread, as floe's writer: DuckDB's COPY would otherwise encode row
  // groups in parallel. Input and output as floe's: in memory, to OUT.
  await conn.run('SET threads = 1');
  await conn.run(`CREATE TABLE t AS SELECT * FROM read_parquet('${src}')`);
  const sql = `COPY t TO '${out}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE ${Number(rowGroupRows)})`;
  let best = Infinity;
  let bestCpu = Infinity;
  for (let r = 0; r < Number(runs); ++r) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    await conn.run(sql);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
    const used = process.cpuUsage(cpu);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1e3);
  }
  console.log(`${best.toFixed(3)} ${bestCpu.toFixed(3)}`);
} else if (command === 'same') {
  // "SRC_ROWS FILE_ROWS DIFFERING": FILE read back against SRC, row by row.
  const [src, file] = args;
  const one = async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJson()[0].n;
  const diff = await one(`SELECT count(*)::BIGINT AS n FROM read_parquet('${src}') a POSITIONAL JOIN read_parquet('${file}') b
                          WHERE a.x IS DISTINCT FROM b.x`);
  const srcRows = await one(`SELECT count(*)::BIGINT AS n FROM read_parquet('${src}')`);
  const fileRows = await one(`SELECT count(*)::BIGINT AS n FROM read_parquet('${file}')`);
  console.log(`${srcRows} ${fileRows} ${diff}`);
} else {
  console.error('usage: duckdb.mjs generate DIR ROWS | scan FILE EXPR THREADS RUNS | orders GLOB THREADS RUNS | footer FILE RUNS | source KIND ROWS FILE | write SRC OUT CODEC ROW_GROUP_ROWS RUNS | same SRC FILE');
  process.exit(2);
}
