#!/usr/bin/env bash
# One bounded fuzz replay (a ctest entry of `make test`):
# fuzz/replay.sh BINARY SECONDS SHARED_DIR. Feeds the target its seeds and
# then mutations of them for SECONDS (fuzz/replay_main.cc).
set -euo pipefail
bin=${1:?binary}
seconds=${2:?seconds}
shared=${3:?shared dir}
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$bin" _replay)
mapfile -t seeds < <("$here/seeds.sh" "$name" "$shared")
exec "$bin" "$seconds" "${seeds[@]}"
