#!/usr/bin/env bash
# Commits through `floe serve` (bench/serve_commit_bench.cc) over SQLite and
# over PostgreSQL: bench/serve-commits.sh BUILD_DIR [short]
# Starts a PostgreSQL server on 127.0.0.1 with dev/postgres-server.sh (its
# durable defaults: fsync and synchronous_commit on), gives each catalog a
# fresh folder in a temporary directory (the warehouse: local disk), and
# prints the bench's table and goal line. "short" is the smoke form for
# `make test`: W = 1 and 8, 16 commits per case (PostgreSQL's start takes most of its time).
# BENCH_COMMITS (default 1000), BENCH_WRITERS (1,8,16,32), BENCH_WORKERS (32),
# BENCH_MAX_SECONDS (per case, 60), BENCH_MODES (distinct,one) and
# BENCH_CATALOGS (sqlite,postgresql) change the full form.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?build dir}
mode=${2:-full}
bench="$build/bench/serve_commit_bench"
floe="$build/floe"
work=$(mktemp -d /tmp/floe-serve-bench-XXXXXX)
# Its own folder under /tmp: the postgres user cannot enter $work.
pg_root=$(mktemp -d /tmp/floe-pg-XXXXXX)
cleanup() {
  "$here/../dev/postgres-server.sh" stop "$pg_root" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
args=(--floe "$floe" --log "$work/serve.log" --workers "${BENCH_WORKERS:-32}")
if [ "$mode" = short ]; then
  args+=(--writers 1,8 --commits 16 --max-seconds 5)
else
  args+=(--writers "${BENCH_WRITERS:-1,8,16,32}" --commits "${BENCH_COMMITS:-1000}" --max-seconds "${BENCH_MAX_SECONDS:-60}")
  args+=(--modes "${BENCH_MODES:-distinct,one}")
fi
catalogs=${BENCH_CATALOGS:-sqlite,postgresql}
if [[ ",$catalogs," == *,sqlite,* ]]; then
  mkdir -p "$work/sqlite"
  args+=(--run "sqlite,sqlite:$work/sqlite/catalog.db,$work/sqlite/warehouse")
fi
if [[ ",$catalogs," != *,postgresql,* ]]; then
  "$bench" "${args[@]}"
  exit
fi
set +e
port=$("$here/../dev/postgres-server.sh" start "$pg_root" durable)
rc=$?
set -e
if [ $rc = 0 ]; then
  mkdir -p "$work/postgresql"
  args+=(--run "postgresql,postgresql://floe@127.0.0.1:$port/postgres,$work/postgresql/warehouse")
else
  echo "# PostgreSQL not started (exit $rc): SQLite only"
fi
"$bench" "${args[@]}"
