#!/usr/bin/env bash
# Runs every fuzz target for a bounded time: fuzz/run.sh BUILD_DIR SECONDS.
# Seeds come from ../shared/fixtures (read in place); new inputs go to
# BUILD_DIR/corpus/<target>. A crash leaves its input in BUILD_DIR/crashes/ and
# fails the run.
set -euo pipefail
build=${1:?build dir}
seconds=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
shared=$(cd "$here/../.." && pwd)/shared
[ -d "$shared" ] || shared=$(cd "$here/.." && pwd)/../shared
mkdir -p "$build/crashes"
status=0
for bin in "$build"/fuzz/*_fuzz; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  corpus="$build/corpus/$name"
  mkdir -p "$corpus"
  mapfile -t existing < <("$here/seeds.sh" "$name" "$shared")
  # A target's libFuzzer dictionary, when it has one (fuzz/<target>.dict).
  dict=()
  [ -f "$here/$name.dict" ] && dict=(-dict="$here/$name.dict")
  echo "fuzz: $name for ${seconds}s"
  if ! "$bin" "$corpus" "${existing[@]}" "${dict[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$build/crashes/$name-" -print_final_stats=1 >"$build/$name.log" 2>&1; then
    echo "fuzz: $name FAILED (see $build/$name.log)"
    tail -20 "$build/$name.log"
    status=1
  else
    grep -E "stat::number_of_executed_runs|cov:" "$build/$name.log" | tail -2 | sed "s/^/fuzz: $name: /"
  fi
done
exit $status
