#!/usr/bin/env bash
# Prints the seed folders of one fuzz target, one per line (only those that
# exist): fuzz/seeds.sh TARGET_NAME SHARED_DIR. Seeds are read in place from
# ../shared/fixtures, never copied. Used by fuzz/run.sh (libFuzzer) and by
# the bounded replay in `make test` (fuzz/replay_main.cc).
set -euo pipefail
name=${1:?target name}
shared=${2:?shared dir}
f="$shared/fixtures"
case "$name" in
  parquet_*|codec_*) seeds=("$f/parquet-testing/data" "$f/parquet-testing/bad_data") ;;
  avro_*) seeds=("$f/iceberg/rust-testdata/manifests_lists"
                 "$f/iceberg/duckdb-iceberg/data/persistent/partition_integer/metadata"
                 "$f/iceberg/duckdb-iceberg/data/persistent/iceberg_v1_deprecated/default/legacy_v1/metadata") ;;
  table_metadata_*) seeds=("$f/iceberg/java-golden") ;;
  manifest_*) seeds=("$f/iceberg/rust-testdata/manifests_lists"
                     "$f/iceberg/duckdb-iceberg/data/persistent/partition_decimal_bigint/metadata"
                     "$f/iceberg/duckdb-iceberg/data/persistent/iceberg_v1_repro/repro/merch_v1/metadata") ;;
  puffin_*) seeds=("$f/iceberg/go-dv" "$f/iceberg/java-golden/org/apache/iceberg/puffin") ;;
  *) seeds=() ;;
esac
for s in "${seeds[@]}"; do [ -e "$s" ] && echo "$s"; done
exit 0
