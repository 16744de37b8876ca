#!/usr/bin/env bash
# Parquet writing speed, floe against DuckDB 1.5.6 on the same data in the
# same run: six column kinds (those of bench/parquet-vs-duckdb.sh) x four
# codecs. Each side loads the same generated column into memory first
# (untimed: floe as RecordBatches, DuckDB as an in-memory table), then writes
# it to a file; the sides alternate, BENCH_RUNS rounds of two writes each
# (the first warms the process), best of all. floe: ParquetFileWriter (Open,
# Write, Close), DuckDB: COPY t TO ... (FORMAT parquet, COMPRESSION c,
# ROW_GROUP_SIZE n) on one thread. Equal settings: row groups of BENCH_ROW_GROUP rows, each
# codec at its default level (zstd 3), data page v1, statistics on. floe also
# writes what DuckDB does not: the page index (column and offset index) and
# page CRCs, its defaults; the script prints what each file holds.
#
#   bench/parquet-write-vs-duckdb.sh [BUILD_DIR]
#       (BENCH_ROWS=20000000 BENCH_RUNS=3 BENCH_ROW_GROUP=122880 BENCH_KINDS=all BENCH_CODECS=all
#        BENCH_PAGE_ROWS=)
#
# floe writes its default pages (1 MiB or 20,000 rows, parquet-mr's and
# arrow-rs's limits); DuckDB writes one page per row group and has no option
# to change that. BENCH_PAGE_ROWS=N makes floe cut pages by N rows alone, so
# BENCH_PAGE_ROWS=$BENCH_ROW_GROUP gives floe DuckDB's page layout.
#
# Times are CPU time (user + system of the writing process around the write),
# the steadier measure on a shared machine, and wall time. Last line:
# "worst ratio floe/duckdb: X.XX" (floe's CPU time over DuckDB's; below 1
# means floe is faster). DuckDB reads every file floe wrote back and
# compares it row by row with the input; any difference fails the script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
rows=${BENCH_ROWS:-20000000}
runs=${BENCH_RUNS:-3}
row_group=${BENCH_ROW_GROUP:-122880}
page_rows=${BENCH_PAGE_ROWS:-}
kinds=${BENCH_KINDS:-random_int64 sequential_int64 int32_1000_distinct double string_50_distinct string_32_bytes}
codecs=${BENCH_CODECS:-uncompressed snappy zstd lz4_raw}
[ "$kinds" = all ] && kinds="random_int64 sequential_int64 int32_1000_distinct double string_50_distinct string_32_bytes"
[ "$codecs" = all ] && codecs="uncompressed snappy zstd lz4_raw"
writer=$build/bench/floe_parquet_write
[ -x "$writer" ] || { echo "missing $writer: build first (make build)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/floe-parquet-write-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

printf '%-20s %-13s %9s %9s %9s %9s %6s %6s\n' kind codec floe_cpu duck_cpu floe_wall duck_wall cpu_x wall_x
worst=0
described=""
for kind in $kinds; do
  src=$work/$kind.src.parquet
  node "$here/duckdb.mjs" source "$kind" "$rows" "$src"
  for codec in $codecs; do
    floe_file=$work/$kind.$codec.floe.parquet
    duck_file=$work/$kind.$codec.duckdb.parquet
    # The sides alternate, two timed writes each per round, best of all:
    # on this VM the cost of a write into fresh page cache swings several-fold
    # from one second to the next (freed guest pages go back to the host and
    # fault in again), so running one side's writes all in a row would hand it
    # whatever state the machine was in then. Each write starts with no dirty
    # pages pending (sync), so none is throttled by the other's writeback.
    floe_wall=inf floe_cpu=inf duck_wall=inf duck_cpu=inf
    for ((round = 1; round <= runs; ++round)); do
      sync
      read -r wall cpu < <("$writer" write "$src" "$floe_file" "$codec" "$row_group" 2 ${page_rows:+"$page_rows"})
      floe_wall=$(awk -v a="$wall" -v b="$floe_wall" 'BEGIN { print (b == "inf" || a < b) ? a : b }')
      floe_cpu=$(awk -v a="$cpu" -v b="$floe_cpu" 'BEGIN { print (b == "inf" || a < b) ? a : b }')
      sync
      check=""
      [ "$round" = "$runs" ] && check=$floe_file
      { read -r wall cpu; [ -z "$check" ] || read -r src_rows floe_rows differ; } < <(node "$here/duckdb.mjs" write \
        "$src" "$duck_file" "$codec" "$row_group" 2 $check)
      duck_wall=$(awk -v a="$wall" -v b="$duck_wall" 'BEGIN { print (b == "inf" || a < b) ? a : b }')
      duck_cpu=$(awk -v a="$cpu" -v b="$duck_cpu" 'BEGIN { print (b == "inf" || a < b) ? a : b }')
    done
    if [ "$src_rows" != "$floe_rows" ] || [ "$differ" != 0 ]; then
      echo "$kind/$codec: DuckDB reads floe's file as $floe_rows rows, $differ differing from the input's $src_rows" >&2
      exit 1
    fi
    cpu_x=$(awk -v a="$floe_cpu" -v b="$duck_cpu" 'BEGIN { printf "%.2f", a / b }')
    wall_x=$(awk -v a="$floe_wall" -v b="$duck_wall" 'BEGIN { printf "%.2f", a / b }')
    worst=$(awk -v a="$cpu_x" -v b="$worst" 'BEGIN { print (a > b) ? a : b }')
    printf '%-20s %-13s %9.1f %9.1f %9.1f %9.1f %6s %6s\n' "$kind" "$codec" "$floe_cpu" "$duck_cpu" "$floe_wall" \
      "$duck_wall" "$cpu_x" "$wall_x"
    if [ "$codec" = "${codecs%% *}" ]; then  # what each side writes, once per kind
      described+="$kind/$codec floe:   $("$writer" describe "$floe_file")"$'\n'
      described+="$kind/$codec duckdb: $("$writer" describe "$duck_file")"$'\n'
    fi
    rm -f "$floe_file" "$duck_file"
  done
  rm -f "$src"
done
printf '%s' "$described"
echo "worst ratio floe/duckdb: $worst"
