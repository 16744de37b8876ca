#!/usr/bin/env bash
# Parquet writing speed, floe against DuckDB 1.5.6 on the same data in the
# same run: six column kinds (those of bench/parquet-vs-duckdb.sh) x four
# codecs. Each side loads the same generated column into memory first
# (untimed: floe as RecordBatches, DuckDB as an in-memory table), then writes
# it to a file; the sides alternate, BENCH_RUNS rounds of two writes each
# (the first warms the process), best of all. floe: ParquetFileWriter (Open,
# Write, Close), DuckDB: COPY t TO ... (FORMAT parquet, COMPRESSION c,
# ROW_GROUP_SIZE n) on one thread. Equal settings: row groups of BENCH_ROW_GROUP rows, each
# codec at its default level (zstd 3), data page v1, statistics on, and one
# page per row group: DuckDB writes that layout and has no option to change
# it, so floe is given the same (docs/decisions/0064). floe also writes what
# DuckDB does not: the page index (column and offset index) and page CRCs,
# its defaults; the script prints what each file holds.
#
# Each round also times floe with its own default pages (1 MiB or 20,000
# rows, parquet-mr's and arrow-rs's limits; 6-7 pages a row group here), in
# the columns floe_pages_cpu and pages_x: the cost of a finer page index,
# shown beside the equal-settings ratio rather than in it.
#
#   bench/parquet-write-vs-duckdb.sh [BUILD_DIR]
#       (BENCH_ROWS=20000000 BENCH_RUNS=3 BENCH_ROW_GROUP=122880 BENCH_KINDS=all BENCH_CODECS=all)
#
# Times are CPU time (user + system of the writing process around the write),
# the steadier measure on a shared machine, and wall time. The line before the
# last gives the worst ratio with floe's default pages; the last line,
# "worst ratio floe/duckdb: X.XX", the worst at equal settings (floe's CPU
# time over DuckDB's; below 1 means floe is faster). DuckDB reads every file
# floe wrote back, in both layouts, and compares it row by row with the
# input; any difference fails the script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
rows=${BENCH_ROWS:-20000000}
runs=${BENCH_RUNS:-3}
row_group=${BENCH_ROW_GROUP:-122880}
kinds=${BENCH_KINDS:-random_int64 sequential_int64 int32_1000_distinct double string_50_distinct string_32_bytes}
codecs=${BENCH_CODECS:-uncompressed snappy zstd lz4_raw}
[ "$kinds" = all ] && kinds="random_int64 sequential_int64 int32_1000_distinct double string_50_distinct string_32_bytes"
[ "$codecs" = all ] && codecs="uncompressed snappy zstd lz4_raw"
writer=$build/bench/floe_parquet_write
[ -x "$writer" ] || { echo "missing $writer: build first (make build)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/floe-parquet-write-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The lesser of a time and the best so far ("inf" before the first).
lesser() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "inf" || a < b) ? a : b }'; }
# Fails the script unless DuckDB read FILE (named LAYOUT) as the input's rows.
check_read_back() {
  local layout=$1 src_rows=$2 file_rows=$3 differ=$4
  if [ "$src_rows" != "$file_rows" ] || [ "$differ" != 0 ]; then
    echo "$kind/$codec: DuckDB reads floe's file ($layout) as $file_rows rows, $differ differing from the input's $src_rows" >&2
    exit 1
  fi
}

printf '%-20s %-13s %9s %9s %9s %9s %6s %6s %14s %7s\n' kind codec floe_cpu duck_cpu floe_wall duck_wall cpu_x wall_x \
  floe_pages_cpu pages_x
worst=0
worst_pages=0
described=""
for kind in $kinds; do
  src=$work/$kind.src.parquet
  node "$here/duckdb.mjs" source "$kind" "$rows" "$src"
  for codec in $codecs; do
    floe_file=$work/$kind.$codec.floe.parquet
    floe_pages_file=$work/$kind.$codec.floe-pages.parquet
    duck_file=$work/$kind.$codec.duckdb.parquet
    # The sides alternate, two timed writes each per round, best of all:
    # on this VM the cost of a write into fresh page cache swings several-fold
    # from one second to the next (freed guest pages go back to the host and
    # fault in again), so running one side's writes all in a row would hand it
    # whatever state the machine was in then. Each write starts with no dirty
    # pages pending (sync), so none is throttled by the other's writeback.
    floe_wall=inf floe_cpu=inf floe_pages_cpu=inf duck_wall=inf duck_cpu=inf
    for ((round = 1; round <= runs; ++round)); do
      sync
      read -r wall cpu < <("$writer" write "$src" "$floe_file" "$codec" "$row_group" 2 "$row_group")
      floe_wall=$(lesser "$wall" "$floe_wall") floe_cpu=$(lesser "$cpu" "$floe_cpu")
      sync
      read -r _ cpu < <("$writer" write "$src" "$floe_pages_file" "$codec" "$row_group" 2)
      floe_pages_cpu=$(lesser "$cpu" "$floe_pages_cpu")
      sync
      read -r wall cpu < <(node "$here/duckdb.mjs" write "$src" "$duck_file" "$codec" "$row_group" 2)
      duck_wall=$(lesser "$wall" "$duck_wall") duck_cpu=$(lesser "$cpu" "$duck_cpu")
    done
    read -r src_rows file_rows differ < <(node "$here/duckdb.mjs" same "$src" "$floe_file")
    check_read_back "one page per row group" "$src_rows" "$file_rows" "$differ"
    read -r src_rows file_rows differ < <(node "$here/duckdb.mjs" same "$src" "$floe_pages_file")
    check_read_back "default pages" "$src_rows" "$file_rows" "$differ"
    cpu_x=$(awk -v a="$floe_cpu" -v b="$duck_cpu" 'BEGIN { printf "%.2f", a / b }')
    wall_x=$(awk -v a="$floe_wall" -v b="$duck_wall" 'BEGIN { printf "%.2f", a / b }')
    pages_x=$(awk -v a="$floe_pages_cpu" -v b="$duck_cpu" 'BEGIN { printf "%.2f", a / b }')
    worst=$(awk -v a="$cpu_x" -v b="$worst" 'BEGIN { print (a > b) ? a : b }')
    worst_pages=$(awk -v a="$pages_x" -v b="$worst_pages" 'BEGIN { print (a > b) ? a : b }')
    printf '%-20s %-13s %9.1f %9.1f %9.1f %9.1f %6s %6s %14.1f %7s\n' "$kind" "$codec" "$floe_cpu" "$duck_cpu" \
      "$floe_wall" "$duck_wall" "$cpu_x" "$wall_x" "$floe_pages_cpu" "$pages_x"
    if [ "$codec" = "${codecs%% *}" ]; then  # what each side writes, once per kind
      described+="$kind/$codec floe:        $("$writer" describe "$floe_file")"$'\n'
      described+="$kind/$codec floe, pages: $("$writer" describe "$floe_pages_file")"$'\n'
      described+="$kind/$codec duckdb:      $("$writer" describe "$duck_file")"$'\n'
    fi
    rm -f "$floe_file" "$floe_pages_file" "$duck_file"
  done
  rm -f "$src"
done
printf '%s' "$described"
echo "worst ratio with floe's default pages: $worst_pages"
echo "worst ratio floe/duckdb: $worst"
