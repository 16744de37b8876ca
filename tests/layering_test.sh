#!/usr/bin/env bash
# Checks the house rules that a compiler does not: layers include only the
# layers below them, and format code never touches the OS for I/O (all bytes
# go through FileIO). Exits non-zero naming every offending line.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

declare -A allowed=(
  [base]="base"
  [io]="base io"
  [columnar]="base columnar"
  [formats]="base io columnar formats"
  [table]="base io columnar formats table"
  [iceberg]="base io columnar formats table iceberg"
  [delta]="base io columnar formats table delta"
  [hudi]="base io columnar formats table hudi"
  [catalog]="base io columnar formats table iceberg delta hudi catalog"
  [server]="base io columnar formats table iceberg delta hudi catalog server"
  [sql]="base columnar table sql"
  [exec]="base io columnar formats table sql exec"
  [cli]="base io columnar formats table iceberg delta hudi catalog server sql exec cli"
)

failures=0
for dir in src/floe/* include/floe/*; do
  [ -d "$dir" ] || continue
  layer=$(basename "$dir")
  if [ -z "${allowed[$layer]+x}" ]; then
    echo "layering: $dir is not a known layer (add it to tests/layering_test.sh)"
    failures=$((failures + 1))
    continue
  fi
  while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    target=$(sed -E 's/.*#include "floe\/([a-z_]+)\/.*/\1/' <<<"$rest")
    if [[ " ${allowed[$layer]} " != *" $target "* ]]; then
      echo "layering: $file:$line: layer '$layer' includes 'floe/$target/' (allowed: ${allowed[$layer]})"
      failures=$((failures + 1))
    fi
  done < <(grep -rnE '#include "floe/[a-z_]+/' "$dir" || true)
done

# Format kernels and format libraries reach storage only through FileIO.
for dir in src/floe/formats src/floe/table src/floe/iceberg src/floe/delta src/floe/hudi; do
  [ -d "$dir" ] || continue
  while IFS= read -r hit; do
    echo "layering: $hit: direct OS I/O in format code (use FileIO)"
    failures=$((failures + 1))
  done < <(grep -rnE '(\bfopen\(|\bstd::ifstream\b|\bstd::ofstream\b|\bstd::filesystem\b|[^a-zA-Z_:.]open\(|\bpread\(|\bunlink\()' "$dir" || true)
done

if [ "$failures" -ne 0 ]; then
  echo "layering: $failures violation(s)"
  exit 1
fi
echo "layering: ok"
