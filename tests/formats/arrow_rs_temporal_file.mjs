// Writes a Parquet file with parquet-wasm (arrow-rs): TIME and TIMESTAMP in
// milliseconds and nanoseconds, with nulls, for
// parquet_logical_types_test.cc (which knows the values).
// Usage: node arrow_rs_temporal_file.mjs <dev/tools folder> <out.parquet>
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const [tools, out] = process.argv.slice(2);
const require = createRequire(path.join(tools, 'node_modules') + '/');
const arrow = require('apache-arrow');
const pw = require('parquet-wasm');

// A column of `type` from raw values (null for null), bypassing the
// builders, which take timestamps in milliseconds whatever the unit.
const column = (type, ArrayType, values) => {
  const data = new ArrayType(values.length);
  const validity = new Uint8Array(Math.ceil(values.length / 8));
  values.forEach((v, i) => {
    if (v !== null) {
      data[i] = v;
      validity[i >> 3] |= 1 << (i & 7);
    }
  });
  return arrow.makeVector(arrow.makeData({ type, length: values.length, data, nullBitmap: validity }));
};

const table = new arrow.Table({
  t_ms: column(new arrow.TimeMillisecond(), Int32Array, [0, 45296789, null, 86399999, 1000]),
  t_ns: column(new arrow.TimeNanosecond(), BigInt64Array, [0n, 45296789012345n, 86399999999999n, null, 1n]),
  ts_ms: column(new arrow.TimestampMillisecond(), BigInt64Array, [0n, -1000n, 1577934245678n, null, 253402300799999n]),
  ts_ns: column(new arrow.TimestampNanosecond('UTC'), BigInt64Array, [0n, -1n, 1577934245678901234n, null, 5n]),
});
writeFileSync(out, pw.writeParquet(pw.Table.fromIPCStream(arrow.tableToIPC(table, 'stream'))));
