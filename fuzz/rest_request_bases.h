// The table and the view rest_request_fuzz applies commits to, shared with
// tests/server/rest_fuzz_seeds_test.cc, which checks that the seeds' commits
// apply to them (so the fuzzer starts from accepted commits, not errors).

#pragma once

#include <string_view>

namespace floe::fuzz {

// A base table for commits: v2, two schemas, two specs, a sort order, two
// snapshots (the second current), a branch and a tag.
inline constexpr std::string_view kBaseTable = R"json({
  "format-version": 2, "table-uuid": "d20125c8-7284-442c-9aea-15fee620737c",
  "location": "s3://bucket/warehouse/db/t", "last-sequence-number": 2,
  "last-updated-ms": 1700000000000, "last-column-id": 4, "current-schema-id": 1,
  "schemas": [
    {"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "ts", "required": false, "type": "timestamptz"}]},
    {"type": "struct", "schema-id": 1, "identifier-field-ids": [1], "fields": [
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "ts", "required": false, "type": "timestamptz"},
      {"id": 3, "name": "name", "required": false, "type": "string"},
      {"id": 4, "name": "amount", "required": false, "type": "decimal(10, 2)"}]}],
  "default-spec-id": 1,
  "partition-specs": [
    {"spec-id": 0, "fields": []},
    {"spec-id": 1, "fields": [
      {"name": "ts_day", "transform": "day", "source-id": 2, "field-id": 1000},
      {"name": "id_bucket", "transform": "bucket[16]", "source-id": 1, "field-id": 1001}]}],
  "last-partition-id": 1001,
  "default-sort-order-id": 1,
  "sort-orders": [
    {"order-id": 0, "fields": []},
    {"order-id": 1, "fields": [
      {"transform": "identity", "source-id": 1, "direction": "asc", "null-order": "nulls-first"}]}],
  "properties": {"write.format.default": "parquet"},
  "current-snapshot-id": 2,
  "refs": {
    "main": {"snapshot-id": 2, "type": "branch"},
    "audit": {"snapshot-id": 1, "type": "branch", "max-ref-age-ms": 86400000},
    "v1": {"snapshot-id": 1, "type": "tag"}},
  "snapshots": [
    {"snapshot-id": 1, "sequence-number": 1, "timestamp-ms": 1700000000000,
     "summary": {"operation": "append"}, "manifest-list": "s3://bucket/warehouse/db/t/metadata/snap-1.avro",
     "schema-id": 0},
    {"snapshot-id": 2, "parent-snapshot-id": 1, "sequence-number": 2, "timestamp-ms": 1700000000001,
     "summary": {"operation": "overwrite"}, "manifest-list": "s3://bucket/warehouse/db/t/metadata/snap-2.avro",
     "schema-id": 1}],
  "snapshot-log": [{"snapshot-id": 1, "timestamp-ms": 1700000000000}, {"snapshot-id": 2, "timestamp-ms": 1700000000001}],
  "metadata-log": []
})json";

inline constexpr std::string_view kBaseView = R"json({
  "view-uuid": "fa6506c3-7681-40c8-86dc-e36561f83385", "format-version": 1,
  "location": "s3://bucket/warehouse/db/v", "current-version-id": 1,
  "properties": {"comment": "a view"},
  "schemas": [{"schema-id": 0, "type": "struct", "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"}]}],
  "versions": [{"version-id": 1, "timestamp-ms": 1700000000000, "schema-id": 0,
    "summary": {"engine-name": "floe"}, "default-namespace": ["db"],
    "representations": [{"type": "sql", "sql": "SELECT id FROM t", "dialect": "spark"}]}],
  "version-log": [{"version-id": 1, "timestamp-ms": 1700000000000}]
})json";

}  // namespace floe::fuzz
