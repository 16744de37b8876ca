#!/usr/bin/env bash
# The orders query of `floe demo` (orders and amount by city on a two-hour
# window of shop.orders) on an Iceberg warehouse on S3 next to the same on
# local disk, in the same run: requests, bytes read and time of the query,
# and the time of the whole demo (writing the tables included).
#
#   bench/orders-s3-vs-local.sh [BUILD_DIR]   (ORDERS_PER_DAY=1000000, FLOE_BENCH_S3_SERVER=rgw|moto)
#
# The S3 server is started for the run by tests/s3/s3_test_server.sh on
# 127.0.0.1 (Ceph RGW by default, the production one) and stopped after. No
# peer engine runs beside floe: DuckDB (npm, offline) has neither httpfs nor
# iceberg here, see docs/benchmarks.md. Prints the table and, last,
# "orders query s3/local: time X.XX, requests N vs M".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
per_day=${ORDERS_PER_DAY:-1000000}
server=${FLOE_BENCH_S3_SERVER:-rgw}
floe=$build/floe
[ -x "$floe" ] || { echo "missing $floe: build first (make build)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/floe-orders-bench-XXXXXX")
cleanup() {
  "$here/../tests/s3/s3_test_server.sh" stop "$work/server" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

endpoint=$("$here/../tests/s3/s3_test_server.sh" start "$server" "$work/server")
bucket=floe-orders-bench
# The payload hash header is signed too (RGW refuses curl's signature without it).
empty_sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
curl -sf -X PUT --aws-sigv4 "aws:amz:us-east-1:s3" --user floe-test:floe-test-secret \
  -H "x-amz-content-sha256: $empty_sha256" "$endpoint/$bucket" >/dev/null ||
  { echo "could not create bucket $bucket on $endpoint" >&2; exit 1; }

export AWS_ENDPOINT_URL_S3=$endpoint AWS_ACCESS_KEY_ID=floe-test AWS_SECRET_ACCESS_KEY=floe-test-secret
export AWS_REGION=us-east-1 AWS_PROFILE= AWS_SESSION_TOKEN= FLOE_WAREHOUSE= FLOE_CATALOG= FLOE_LOG=

# One demo run; prints "requests data_requests bytes_read query_ms demo_ms".
run() {  # warehouse catalog_db
  local start end out line requests
  start=$(date +%s%N)
  out=$("$floe" --warehouse "$1" --catalog "sqlite:$2" demo --orders-per-day "$per_day")
  end=$(date +%s%N)
  # "    requests: 6 (manifests 3, data files 3, delete files 0)" (the planning report)
  # "  floe read 9.1 KiB of the 51.3 KiB of data files (17.80%) in 3 requests, 14.5 KiB in all, 6 ms"
  requests=$(sed -nE 's/^    requests: ([0-9]+) .*/\1/p' <<<"$out")
  line=$(grep -E '^  floe read ' <<<"$out") || true
  [ -n "$requests" ] && [ -n "$line" ] || { echo "no planning report or 'floe read' line in the demo's output" >&2; exit 1; }
  sed -E 's/^  floe read .* in ([0-9]+) requests, ([0-9.]+ [KMG]?i?B) in all, ([0-9]+) ms$/\1 \2 \3/' <<<"$line" |
    awk -v requests="$requests" -v demo_ms=$(((end - start) / 1000000)) '{ print requests, $1, $2 $3, $4, demo_ms }'
}

read -r l_req l_data l_bytes l_ms l_demo < <(run "$work/local-wh" "$work/local.db")
read -r s_req s_data s_bytes s_ms s_demo < <(run "s3://$bucket/wh" "$work/s3.db")

printf 'orders query, %s orders a day (3 days), server %s\n' "$per_day" "$server"
printf '%-8s %9s %14s %11s %9s %10s\n' storage requests data_requests bytes_read query_ms demo_ms
printf '%-8s %9s %14s %11s %9s %10s\n' local "$l_req" "$l_data" "$l_bytes" "$l_ms" "$l_demo"
printf '%-8s %9s %14s %11s %9s %10s\n' s3 "$s_req" "$s_data" "$s_bytes" "$s_ms" "$s_demo"
awk -v s="$s_ms" -v l="$l_ms" -v sr="$s_req" -v lr="$l_req" \
  'BEGIN { printf "orders query s3/local: time %s, requests %d vs %d\n", (l > 0 ? sprintf("%.2f", s / l) : "n/a (local under 1 ms)"), sr, lr }'
