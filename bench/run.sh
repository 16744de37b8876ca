#!/usr/bin/env bash
# Runs every micro-benchmark briefly: bench/run.sh BUILD_DIR.
# Comparisons against DuckDB live in their own scripts (bench/*-vs-duckdb.sh).
set -euo pipefail
build=${1:?build dir}
for bin in "$build"/bench/*_bench; do
  [ -x "$bin" ] || continue
  # Not a Google Benchmark: bench/serve-commits.sh runs it, below.
  [ "$(basename "$bin")" = serve_commit_bench ] && continue
  echo "== $(basename "$bin")"
  "$bin" --benchmark_min_time=0.2 --benchmark_counters_tabular=true
done
echo "== serve_commit_bench (bench/serve-commits.sh)"
"$(dirname "$0")/serve-commits.sh" "$build"
