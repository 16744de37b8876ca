#!/usr/bin/env bash
# The demo's orders query — orders and amount by city for 2026-10-21
# 20:00-22:00 — floe through its Iceberg scan against DuckDB 1.5.6's
# read_parquet over the same data files (by glob, same filter), in the same
# run, both on one thread. The table is the demo's shop.orders (three days of
# BENCH_ORDERS_PER_DAY rows, zstd, eight row groups a day), written once by
# `floe demo` into BENCH_DATA.
#
#   bench/orders-vs-duckdb.sh [--report-only] [BUILD_DIR]
#       (BENCH_ORDERS_PER_DAY=1000000 BENCH_RUNS=5)
#
# BENCH_WAREHOUSE=DIR uses the shop.orders table `floe demo` already wrote
# there instead (`make demo` does this for ./warehouse).
#
# Prints both engines' best time and bytes read from the data files (floe:
# its scan report's data-file bytes; DuckDB: what its process read), then
# "orders query floe/duckdb: time X.XX, bytes Y.YY" (below 1: floe is faster
# or reads less) and whether the demo's goal, at most half DuckDB's bytes,
# is met. Exit status: 1 when the two answers (order count and amount)
# differ; 3 when the bytes goal is missed, unless --report-only (which
# prints the verdict and exits 0). Bytes do not depend on the machine's
# load, so a miss is a real regression (docs/decisions/0053).
set -euo pipefail
report_only=0
if [ "${1:-}" = "--report-only" ]; then
  report_only=1
  shift
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build/release}" && pwd)
per_day=${BENCH_ORDERS_PER_DAY:-1000000}
runs=${BENCH_RUNS:-5}
data=${BENCH_DATA:-${TMPDIR:-/tmp}/floe-orders-bench-$per_day}
floe=$build/floe
query=$build/bench/floe_orders_query
for bin in "$floe" "$query"; do
  [ -x "$bin" ] || { echo "missing $bin: build first (make build)" >&2; exit 1; }
done

if [ -n "${BENCH_WAREHOUSE:-}" ]; then
  warehouse=$(cd "$BENCH_WAREHOUSE" && pwd)
elif [ ! -f "$data/.complete" ]; then
  rm -rf "$data"
  mkdir -p "$data"
  echo "writing the orders table ($per_day rows a day) to $data ..." >&2
  (cd "$data" && "$floe" --warehouse "$data/warehouse" demo --orders-per-day "$per_day" >/dev/null)
  touch "$data/.complete"
fi
warehouse=${warehouse:-$data/warehouse}
table=$(dirname "$(find "$warehouse" -path '*orders/metadata/*.metadata.json' | sort | tail -1)")
table=$(dirname "$table")
metadata=$(ls "$table"/metadata/*.metadata.json | sort | tail -1)

read -r floe_ms floe_bytes floe_orders floe_amount < <("$query" "$metadata" "$runs")
read -r duck_ms duck_bytes duck_orders duck_amount < <(node "$here/duckdb.mjs" orders "$table/data/**/*.parquet" 1 "$runs")
if [ "$floe_orders $floe_amount" != "$duck_orders $duck_amount" ]; then
  echo "orders query: floe answered $floe_orders $floe_amount, DuckDB $duck_orders $duck_amount" >&2
  exit 1
fi
printf '%-8s %10s %14s   %s %s\n' engine ms data_bytes "$floe_orders" "$floe_amount"
printf '%-8s %10.1f %14s\n' floe "$floe_ms" "$floe_bytes"
printf '%-8s %10.1f %14s\n' duckdb "$duck_ms" "$duck_bytes"
awk -v fm="$floe_ms" -v dm="$duck_ms" -v fb="$floe_bytes" -v db="$duck_bytes" \
  'BEGIN { b = (db > 0 ? fb / db : 0)
          printf "orders query floe/duckdb: time %.2f, bytes %.4f (goal: bytes at most 0.50, %s)\n", fm / dm, b,
                 (db > 0 && 2 * fb <= db) ? "met" : "NOT met" }'
if [ "$duck_bytes" -le 0 ] || [ $((2 * floe_bytes)) -gt "$duck_bytes" ]; then
  if [ "$report_only" = 1 ]; then
    echo "orders query: the bytes goal is missed (--report-only: not failing)" >&2
  else
    echo "orders query: floe read $floe_bytes bytes of data files, more than half of DuckDB's $duck_bytes" >&2
    exit 3
  fi
fi
