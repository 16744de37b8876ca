#!/usr/bin/env bash
# Parquet footer decoding, floe against DuckDB 1.5.6 on the same ~1.2 MB
# footer (100 row groups x 100 columns, bench/parquet_footer_bench.cc) in the
# same run, interleaved BENCH_RUNS times. Both sides report CPU time (floe:
# google-benchmark's cpu_time; DuckDB: node's process.cpuUsage around
# parquet_file_metadata()), the steadier measure on a shared machine.
#
#   bench/parquet-footer-vs-duckdb.sh [BUILD_DIR]      (BENCH_RUNS=3)
#
# Prints one line per run and, last, "footer floe/duckdb cpu ratio: X.XX"
# (below 1: floe is faster) with floe's MB/s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
runs=${BENCH_RUNS:-3}
bench=$build/bench/parquet_footer_bench
[ -x "$bench" ] || { echo "missing $bench: build first (make build)" >&2; exit 1; }
file=${TMPDIR:-/tmp}/floe-footer-bench-$$.parquet
trap 'rm -f "$file"' EXIT

best_floe=""
best_duck=""
bytes=0
for ((r = 1; r <= runs; ++r)); do
  # name,iterations,real_time,cpu_time,time_unit,bytes_per_second,...
  line=$(FLOE_BENCH_FOOTER_FILE=$file "$bench" --benchmark_filter='^BM_DecodeFooter' --benchmark_repetitions=1 \
           --benchmark_min_time=0.5 --benchmark_format=csv 2>/dev/null | grep '^"BM_DecodeFooter' | head -1)
  floe_ms=$(echo "$line" | awk -F, '{ printf "%.3f", $4 / 1000 }')  # time_unit is us
  bytes=$(stat -c %s "$file")
  read -r duck_wall duck_cpu < <(node "$here/duckdb.mjs" footer "$file" 20)
  printf 'run %d: floe %8.3f ms cpu   duckdb %8.3f ms cpu (%8.3f ms wall)\n' "$r" "$floe_ms" "$duck_cpu" "$duck_wall"
  best_floe=$(awk -v a="$best_floe" -v b="$floe_ms" 'BEGIN { print (a == "" || b < a) ? b : a }')
  best_duck=$(awk -v a="$best_duck" -v b="$duck_cpu" 'BEGIN { print (a == "" || b < a) ? b : a }')
done
awk -v f="$best_floe" -v d="$best_duck" -v n="$bytes" \
  'BEGIN { n -= 12; printf "footer floe/duckdb cpu ratio: %.2f (floe %.0f MB/s over %d footer bytes)\n", f / d, n / f / 1000, n }'
