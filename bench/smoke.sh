#!/usr/bin/env bash
# The benchmarks' short, bounded form for `make test`: bench/smoke.sh BUILD_DIR.
# Every micro-benchmark runs for a token time (it must run and not fail), and
# the DuckDB comparison runs on small files, where it still fails if floe and
# DuckDB disagree on a result. The numbers printed here are not measurements:
# `make bench` is where speed is measured. `make test` runs it on the
# sanitizer build, so it also checks the benchmarks' code for memory errors.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?build dir}
for bin in "$build"/bench/*_bench; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  case "$name" in
    # The S3 benchmark's server is Ceph RGW, already exercised by the s3.rgw
    # test; its smoke run uses moto, the quick server.
    s3_bench) env FLOE_BENCH_S3_SERVER=moto FLOE_BENCH_S3_OBJECT_MIB=1 "$bin" --benchmark_min_time=0.01 >/dev/null ;;
    # Planning builds its synthetic table first; the smoke run uses a small one.
    plan_bench) env FLOE_BENCH_PLAN_FILES=20000 "$bin" --benchmark_min_time=0.01 >/dev/null ;;
    # Commits to a table of 1,000 manifests take their setup time; the smoke run keeps 10.
    commit_bench) "$bin" --benchmark_min_time=0.01 --benchmark_filter='BM_AppendCommit/10/' >/dev/null ;;
    # Not a Google Benchmark: it starts floe serve and PostgreSQL (below).
    serve_commit_bench) continue ;;
    *) "$bin" --benchmark_min_time=0.01 >/dev/null ;;
  esac
  echo "bench smoke: $name ok"
done
BENCH_ROWS=200000 BENCH_RUNS=1 BENCH_ROUNDS=1 "$here/parquet-vs-duckdb.sh" "$build" | tail -1 | sed 's/^/bench smoke: /'
# Writing: every column kind, two codecs, small; fails when DuckDB reads a
# file floe wrote with other values than the input's.
BENCH_ROWS=100000 BENCH_RUNS=1 BENCH_CODECS="uncompressed zstd" "$here/parquet-write-vs-duckdb.sh" "$build" | tail -1 |
  sed 's/^/bench smoke: /'
# The orders query on S3 next to local disk, on moto with a small table.
ORDERS_PER_DAY=800 FLOE_BENCH_S3_SERVER=moto "$here/orders-s3-vs-local.sh" "$build" | tail -1 | sed 's/^/bench smoke: /'
# The bytes goal is the full-size table's (make demo); here only the answers must agree.
BENCH_ORDERS_PER_DAY=20000 BENCH_RUNS=1 "$here/orders-vs-duckdb.sh" --report-only "$build" | tail -1 | sed 's/^/bench smoke: /'
# Commits through floe serve over SQLite and PostgreSQL, W = 1 and 8, briefly.
"$here/serve-commits.sh" "$build" short | tail -1 | sed 's/^/bench smoke: /'
