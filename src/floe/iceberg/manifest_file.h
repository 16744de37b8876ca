// ManifestFile: one row of a manifest list (spec: "Manifest Lists"), v1–v3,
// with its partition field summaries.
//
// Thread safety: plain values.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace floe::iceberg {

// spec: manifest_file.content.
enum class ManifestContent : int32_t { kData = 0, kDeletes = 1 };

// spec: field_summary — per partition field, over the manifest's live and
// deleted entries. Bounds are Appendix D bytes of the partition field's type.
struct PartitionFieldSummary {
  bool contains_null = false;
  std::optional<bool> contains_nan;
  std::optional<std::string> lower_bound;
  std::optional<std::string> upper_bound;
  bool operator==(const PartitionFieldSummary&) const = default;
};

struct ManifestFile {
  // A sequence number not known yet: a manifest written for a commit that
  // has not got its sequence number. The manifest list writer replaces it
  // with the commit's (spec: "When a manifest list is written, the
  // (optimistic) sequence number of the snapshot is written for all new
  // manifest files tracked by the list").
  static constexpr int64_t kUnassignedSequenceNumber = -1;

  std::string manifest_path;
  int64_t manifest_length = 0;
  int32_t partition_spec_id = 0;
  ManifestContent content = ManifestContent::kData;  // v2+
  // The sequence number of the snapshot that added the manifest, and the
  // smallest data sequence number of its live entries (v2+; 0 in v1), or
  // kUnassignedSequenceNumber before the manifest list assigns them.
  int64_t sequence_number = 0;
  int64_t min_sequence_number = 0;
  int64_t added_snapshot_id = 0;
  // Counts of entries by status (v1 may leave them unset; v2+ lists require
  // them).
  std::optional<int32_t> added_files_count;
  std::optional<int32_t> existing_files_count;
  std::optional<int32_t> deleted_files_count;
  std::optional<int64_t> added_rows_count;
  std::optional<int64_t> existing_rows_count;
  std::optional<int64_t> deleted_rows_count;
  std::vector<PartitionFieldSummary> partitions;  // empty: no summaries
  std::optional<std::string> key_metadata;
  // v3 row lineage: the first row id assigned to the manifest's added rows.
  std::optional<int64_t> first_row_id;

  bool operator==(const ManifestFile&) const = default;
};

}  // namespace floe::iceberg
