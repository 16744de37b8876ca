#include "floe/iceberg/snapshot.h"

#include "floe/base/strings.h"

namespace floe::iceberg {

std::string_view SnapshotRefTypeName(SnapshotRefType type) {
  return type == SnapshotRefType::kBranch ? "branch" : "tag";
}

Result<SnapshotRefType> ParseSnapshotRefType(std::string_view text) {
  if (text == "branch") return SnapshotRefType::kBranch;
  if (text == "tag") return SnapshotRefType::kTag;
  return Status::InvalidArgument(StrCat("ref type ", Quote(text), " is not 'branch' or 'tag'"));
}

Status ValidateSnapshotRef(std::string_view name, const SnapshotRef& ref) {
  const std::string what = StrCat("ref ", Quote(name));
  if (!ref.is_branch() && (ref.min_snapshots_to_keep || ref.max_snapshot_age_ms)) {
    return Status::InvalidArgument(
        StrCat(what, ": a tag cannot have 'min-snapshots-to-keep' or 'max-snapshot-age-ms'"));
  }
  if (ref.min_snapshots_to_keep && *ref.min_snapshots_to_keep <= 0) {
    return Status::InvalidArgument(
        StrCat(what, ": field 'min-snapshots-to-keep' is ", *ref.min_snapshots_to_keep, ", must be > 0"));
  }
  if (ref.max_snapshot_age_ms && *ref.max_snapshot_age_ms <= 0) {
    return Status::InvalidArgument(
        StrCat(what, ": field 'max-snapshot-age-ms' is ", *ref.max_snapshot_age_ms, ", must be > 0"));
  }
  if (ref.max_ref_age_ms && *ref.max_ref_age_ms <= 0) {
    return Status::InvalidArgument(StrCat(what, ": field 'max-ref-age-ms' is ", *ref.max_ref_age_ms, ", must be > 0"));
  }
  if (name == kMainBranch && !ref.is_branch()) {
    return Status::InvalidArgument(StrCat(what, ": main must be a branch"));
  }
  return Status::OK();
}

}  // namespace floe::iceberg
