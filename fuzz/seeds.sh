#!/usr/bin/env bash
# Prints the seed folders of one fuzz target, one per line (only those that
# exist): fuzz/seeds.sh TARGET_NAME SHARED_DIR. Seeds are read in place from
# ../shared/fixtures, never copied; where no engine's files fit (REST request
# bodies, S3 answers), floe keeps its own in fuzz/seeds/. Used by fuzz/run.sh
# (libFuzzer) and by the bounded replay in `make test` (fuzz/replay_main.cc).
set -euo pipefail
name=${1:?target name}
shared=${2:?shared dir}
f="$shared/fixtures"
here=$(cd "$(dirname "$0")" && pwd)
case "$name" in
  parquet_*|codec_*) seeds=("$f/parquet-testing/data" "$f/parquet-testing/bad_data") ;;
  variant_*) seeds=("$f/parquet-testing/shredded_variant") ;;
  rest_*) seeds=("$here/seeds/rest_request") ;;
  s3_*) seeds=("$here/seeds/s3_xml") ;;
  json_text_*) seeds=("$here/seeds/rest_request" "$f/iceberg/rust-testdata/table_metadata"
                      "$f/iceberg/rust-testdata/view_metadata") ;;
  avro_*) seeds=("$f/iceberg/rust-testdata/manifests_lists"
                 "$f/iceberg/duckdb-iceberg/data/persistent/partition_integer/metadata"
                 "$f/iceberg/duckdb-iceberg/data/persistent/iceberg_v1_deprecated/default/legacy_v1/metadata") ;;
  table_metadata_*) seeds=("$f/iceberg/java-golden" "$f/iceberg/rust-testdata/table_metadata"
                     "$f/iceberg/rust-testdata/view_metadata") ;;
  manifest_*) seeds=("$f/iceberg/rust-testdata/manifests_lists"
                     "$f/iceberg/duckdb-iceberg/data/persistent/partition_decimal_bigint/metadata"
                     "$f/iceberg/duckdb-iceberg/data/persistent/iceberg_v1_repro/repro/merch_v1/metadata") ;;
  puffin_*) seeds=("$f/iceberg/go-dv" "$f/iceberg/java-golden/org/apache/iceberg/puffin") ;;
  *) seeds=() ;;
esac
for s in "${seeds[@]}"; do [ -e "$s" ] && echo "$s"; done
exit 0
