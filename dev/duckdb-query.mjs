// Runs SQL in DuckDB (the peer engine the tests check floe against) and
// prints each result row as one JSON object per line.
// Usage: node dev/duckdb-query.mjs "SELECT ..." [more statements ...]
import { createRequire } from 'node:module';

// Installed by dev/install-test-tools into dev/tools/node_modules.
const require = createRequire(new URL('./tools/', import.meta.url));
const { DuckDBInstance } = require('@duckdb/node-api');

const statements = process.argv.slice(2);
if (statements.length === 0) {
  console.error('usage: duckdb-query.mjs SQL...');
  process.exit(2);
}
try {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  for (const sql of statements) {
    const reader = await conn.runAndReadAll(sql);
    for (const row of reader.getRowObjectsJson()) console.log(JSON.stringify(row));
  }
} catch (e) {
  console.error(`duckdb: ${String(e.message ?? e).split('\n')[0]}`);
  process.exit(1);
}
