// TableMetadata: one version of an Iceberg table (spec: "Table Metadata"),
// the content of a `*.metadata.json` file, for format versions 1 to 3.
//
// A plain struct: operations build new versions by copying and changing
// fields, then Validate(). JSON lives in table_metadata_json.h, files in
// metadata_io.h. Names follow the spec's fields (`last-column-id` →
// last_column_id).
//
// Thread safety: a plain value; const methods may be called concurrently.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"
#include "floe/iceberg/snapshot.h"
#include "floe/iceberg/sort_order.h"

namespace floe::iceberg {

inline constexpr int kMinFormatVersion = 1;
inline constexpr int kMaxFormatVersion = 3;

struct SnapshotLogEntry {
  int64_t timestamp_ms = 0;
  int64_t snapshot_id = 0;
  bool operator==(const SnapshotLogEntry&) const = default;
};

struct MetadataLogEntry {
  int64_t timestamp_ms = 0;
  std::string metadata_file;
  bool operator==(const MetadataLogEntry&) const = default;
};

// A blob of a Puffin statistics file (spec: "Table Statistics").
struct BlobMetadata {
  std::string type;
  int64_t source_snapshot_id = 0;               // JSON "snapshot-id"
  int64_t source_snapshot_sequence_number = 0;  // JSON "sequence-number"
  std::vector<int32_t> fields;
  std::map<std::string, std::string> properties;
  bool operator==(const BlobMetadata&) const = default;
};

struct StatisticsFile {
  int64_t snapshot_id = 0;
  std::string statistics_path;
  int64_t file_size_in_bytes = 0;
  int64_t file_footer_size_in_bytes = 0;
  std::optional<std::string> key_metadata;  // base64, as in the JSON
  std::vector<BlobMetadata> blob_metadata;
  bool operator==(const StatisticsFile&) const = default;
};

struct PartitionStatisticsFile {
  int64_t snapshot_id = 0;
  std::string statistics_path;
  int64_t file_size_in_bytes = 0;
  bool operator==(const PartitionStatisticsFile&) const = default;
};

// v3 "encryption-keys": a table key, itself encrypted.
struct EncryptedKey {
  std::string key_id;
  std::string encrypted_key_metadata;  // base64, as in the JSON
  std::optional<std::string> encrypted_by_id;
  std::map<std::string, std::string> properties;
  bool operator==(const EncryptedKey&) const = default;
};

struct TableMetadata {
  static constexpr int64_t kInitialSequenceNumber = 0;

  int format_version = 2;
  std::string table_uuid;  // optional in v1 (empty), required from v2
  std::string location;
  int64_t last_sequence_number = kInitialSequenceNumber;  // always 0 in v1
  int64_t last_updated_ms = 0;
  int32_t last_column_id = 0;
  std::vector<Schema> schemas;
  int32_t current_schema_id = Schema::kInitialSchemaId;
  std::vector<PartitionSpec> partition_specs;
  int32_t default_spec_id = PartitionSpec::kInitialSpecId;
  int32_t last_partition_id = PartitionSpec::kUnpartitionedLastAssignedId;
  std::map<std::string, std::string> properties;
  // nullopt: the table has no current snapshot (JSON -1 or absent).
  std::optional<int64_t> current_snapshot_id;
  std::vector<Snapshot> snapshots;
  std::vector<SnapshotLogEntry> snapshot_log;
  std::vector<MetadataLogEntry> metadata_log;
  std::vector<SortOrder> sort_orders;
  int32_t default_sort_order_id = SortOrder::kUnsortedOrderId;
  std::map<std::string, SnapshotRef> refs;
  std::vector<StatisticsFile> statistics;
  std::vector<PartitionStatisticsFile> partition_statistics;
  // v3 row lineage: the next row id to assign; required from v3.
  std::optional<int64_t> next_row_id;
  std::vector<EncryptedKey> encryption_keys;  // v3

  // Lookups; nullptr when there is no such object.
  const Schema* SchemaById(int32_t schema_id) const;
  const Schema* current_schema() const { return SchemaById(current_schema_id); }
  const PartitionSpec* PartitionSpecById(int32_t spec_id) const;
  const PartitionSpec* default_spec() const { return PartitionSpecById(default_spec_id); }
  const SortOrder* SortOrderById(int32_t order_id) const;
  const SortOrder* default_sort_order() const { return SortOrderById(default_sort_order_id); }
  const Snapshot* SnapshotById(int64_t snapshot_id) const;
  const Snapshot* current_snapshot() const;
  // The snapshot a branch or tag points at.
  const Snapshot* SnapshotByRef(const std::string& ref_name) const;

  // Checks the spec's invariants; InvalidArgument naming the JSON field and
  // value on the first violation: format version 1..3; unique schema, spec,
  // order and snapshot ids; current schema, default spec and default sort
  // order exist; last-column-id and last-partition-id not below any assigned
  // id; partition specs valid against the current schema when their sources
  // exist there; order id 0 unsorted; current snapshot and every ref's
  // snapshot exist; main agrees with current-snapshot-id; sequence numbers
  // not above last-sequence-number (v2+); v3 row lineage present and
  // non-negative; version-specific requirements (uuid from v2, v3 types only
  // in v3 tables).
  Status Validate() const;

  bool operator==(const TableMetadata&) const = default;
};

}  // namespace floe::iceberg
