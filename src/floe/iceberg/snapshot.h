// Snapshot, its summary, and SnapshotRef (spec: "Snapshots", "Snapshot
// References").
//
// Thread safety: plain values.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

namespace floe::iceberg {

// The summary's "operation" values the spec defines.
inline constexpr std::string_view kOperationAppend = "append";
inline constexpr std::string_view kOperationReplace = "replace";
inline constexpr std::string_view kOperationOverwrite = "overwrite";
inline constexpr std::string_view kOperationDelete = "delete";

struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  // v2+: the data sequence number of the snapshot's new files; 0 in v1.
  int64_t sequence_number = 0;
  int64_t timestamp_ms = 0;
  // The manifest list's location; empty only for a v1 snapshot that lists
  // its manifests inline in `manifests` instead.
  std::string manifest_list;
  std::vector<std::string> manifests;  // v1 only, when there is no manifest list
  // "operation" (required in v2+; absent only when a v1 snapshot has no
  // summary) and the other summary entries.
  std::optional<std::string> operation;
  std::map<std::string, std::string> summary;
  std::optional<int32_t> schema_id;
  // v3 row lineage: the first row id assigned to the snapshot's new rows and
  // how many ids it assigned; both or neither.
  std::optional<int64_t> first_row_id;
  std::optional<int64_t> added_rows;
  // v3 encryption: the id of the key that encrypts the manifest list.
  std::optional<std::string> key_id;

  bool operator==(const Snapshot&) const = default;
};

enum class SnapshotRefType : uint8_t { kBranch, kTag };

// "branch" / "tag".
std::string_view SnapshotRefTypeName(SnapshotRefType type);
// InvalidArgument for any other word.
Result<SnapshotRefType> ParseSnapshotRefType(std::string_view text);

inline constexpr std::string_view kMainBranch = "main";

struct SnapshotRef {
  int64_t snapshot_id = 0;
  SnapshotRefType type = SnapshotRefType::kBranch;
  // Branches only: snapshots to keep at least, and the longest age of a kept
  // snapshot. Unset: the table's defaults apply.
  std::optional<int32_t> min_snapshots_to_keep;
  std::optional<int64_t> max_snapshot_age_ms;
  // The longest age of the ref itself; main never expires.
  std::optional<int64_t> max_ref_age_ms;

  bool is_branch() const { return type == SnapshotRefType::kBranch; }
  bool operator==(const SnapshotRef&) const = default;
};

// InvalidArgument naming the ref when a tag carries branch-only retention or
// a retention value is not positive.
Status ValidateSnapshotRef(std::string_view name, const SnapshotRef& ref);

}  // namespace floe::iceberg
