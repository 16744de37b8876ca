#include "floe/iceberg/scan/incremental_append_scan.h"

#include <algorithm>
#include <set>
#include <string>

#include "floe/base/strings.h"

namespace floe::iceberg {

IncrementalAppendScan::~IncrementalAppendScan() = default;

Result<std::unique_ptr<IncrementalAppendScan>> IncrementalAppendScan::Make(
    std::shared_ptr<FileIO> io, std::shared_ptr<const TableMetadata> metadata, AppendRange range,
    TableScanOptions options) {
  if (options.snapshot_id || options.as_of_timestamp_ms || options.ref) {
    return Status::InvalidArgument("an incremental append scan takes a snapshot range, not a time-travel option");
  }
  const Schema* schema = metadata->current_schema();
  if (schema == nullptr) return Status::Corrupt("table metadata has no current schema");
  auto snapshot = [&](int64_t id) -> Result<const Snapshot*> {
    const Snapshot* s = metadata->SnapshotById(id);
    if (s == nullptr) return Status::NotFound(StrCat("snapshot ", id, " does not exist"));
    return s;
  };
  if (range.from_snapshot_id) FLOE_RETURN_IF_ERROR(snapshot(*range.from_snapshot_id).status());
  const Snapshot* to = metadata->current_snapshot();
  if (range.to_snapshot_id) {
    FLOE_ASSIGN_OR_RETURN(to, snapshot(*range.to_snapshot_id));
  }

  std::unique_ptr<IncrementalAppendScan> scan(new IncrementalAppendScan());
  // The range, newest first: `to` and its ancestors down to `from`.
  std::vector<const Snapshot*> in_range;
  bool reached_from = !range.from_snapshot_id.has_value();
  if (to != nullptr && range.from_snapshot_id && !range.from_inclusive && *range.from_snapshot_id == to->snapshot_id) {
    reached_from = true;  // an empty range
  } else {
    for (const Snapshot* s = to; s != nullptr;) {
      if (range.from_snapshot_id && s->snapshot_id == *range.from_snapshot_id) {
        if (range.from_inclusive) in_range.push_back(s);
        reached_from = true;
        break;
      }
      in_range.push_back(s);
      // spec (Java isParentAncestorOf): an exclusive start may be the parent
      // of the oldest snapshot still in the table.
      if (range.from_snapshot_id && !range.from_inclusive && s->parent_snapshot_id == *range.from_snapshot_id) {
        reached_from = true;
        break;
      }
      if (!s->parent_snapshot_id) break;
      s = metadata->SnapshotById(*s->parent_snapshot_id);
    }
  }
  if (!reached_from) {
    return Status::InvalidArgument(StrCat("starting snapshot ", *range.from_snapshot_id,
                                          range.from_inclusive ? " (inclusive)" : " (exclusive)",
                                          " is not an ancestor of end snapshot ",
                                          to != nullptr ? StrCat(to->snapshot_id) : std::string("none")));
  }

  std::set<int64_t> appends;
  std::vector<const Snapshot*> append_snapshots;
  for (auto it = in_range.rbegin(); it != in_range.rend(); ++it) {
    if ((*it)->operation != kOperationAppend) continue;
    scan->snapshot_ids_.push_back((*it)->snapshot_id);
    appends.insert((*it)->snapshot_id);
    append_snapshots.push_back(*it);
  }

  FLOE_ASSIGN_OR_RETURN(scan->scan_, TableScan::MakeAt(std::move(io), std::move(metadata), to, *schema,
                                                       std::move(options)));
  scan->scan_->append_snapshots_ = std::move(append_snapshots);
  scan->scan_->append_snapshot_ids_ = std::move(appends);
  return scan;
}

}  // namespace floe::iceberg
