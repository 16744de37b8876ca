#!/usr/bin/env bash
# Parquet scan speed, floe against DuckDB 1.5.6 on the same files in the same
# run: six column kinds x four codecs x 1 and 2 threads, scan + SUM (strings:
# the sum of their byte lengths). Files are written by DuckDB.
#
#   bench/parquet-vs-duckdb.sh [BUILD_DIR]     (BENCH_ROWS=20000000 BENCH_RUNS=5)
#
# Prints the table and, last, "worst ratio floe/duckdb: X.XX" (floe's time
# over DuckDB's; below 1 means floe is faster). Both results must agree, or
# the script fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
rows=${BENCH_ROWS:-20000000}
runs=${BENCH_RUNS:-5}
data=${BENCH_DATA:-${TMPDIR:-/tmp}/floe-parquet-bench-$rows}
scan=$build/bench/floe_parquet_scan
[ -x "$scan" ] || { echo "missing $scan: build first (make build)" >&2; exit 1; }

if [ ! -f "$data/.complete" ]; then
  echo "writing benchmark files ($rows rows per column kind) to $data ..."
  node "$here/duckdb.mjs" generate "$data" "$rows"
  touch "$data/.complete"
fi

printf '%-20s %-13s %7s %10s %10s %7s\n' kind codec threads floe_ms duckdb_ms ratio
worst=0
for file in "$data"/*.parquet; do
  base=$(basename "$file" .parquet)
  kind=${base%.*}
  codec=${base#*.}
  case $kind in
    string_*) expr="sum(strlen(x))" ;;
    *) expr="sum(x)" ;;
  esac
  for threads in 1 2; do
    read -r floe_ms floe_value < <("$scan" "$file" x "$threads" "$runs")
    read -r duck_ms duck_value < <(node "$here/duckdb.mjs" scan "$file" "$expr" "$threads" "$runs")
    if [ "$kind" = double ]; then
      same=$(awk -v a="$floe_value" -v b="$duck_value" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a); print (d <= 1e-6 * m) ? 1 : 0 }')
    else
      same=$([ "$floe_value" = "$duck_value" ] && echo 1 || echo 0)
    fi
    if [ "$same" != 1 ]; then
      echo "$base: floe computed $floe_value, DuckDB $duck_value" >&2
      exit 1
    fi
    ratio=$(awk -v a="$floe_ms" -v b="$duck_ms" 'BEGIN { printf "%.2f", a / b }')
    worst=$(awk -v a="$ratio" -v b="$worst" 'BEGIN { print (a > b) ? a : b }')
    printf '%-20s %-13s %7s %10.1f %10.1f %7s\n' "$kind" "$codec" "$threads" "$floe_ms" "$duck_ms" "$ratio"
  done
done
echo "worst ratio floe/duckdb: $worst"
