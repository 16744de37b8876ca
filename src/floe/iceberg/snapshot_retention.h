// Snapshot retention: which refs and snapshots an expiry keeps, as Java's
// ExpireSnapshots (RemoveSnapshots) decides them.
//
// - Refs: main always stays; another ref stays while its snapshot is at
//   most `max-ref-age-ms` old (the ref's own, else the table property
//   history.expire.max-ref-age-ms, default unlimited); an older one is
//   removed, and so is a ref whose snapshot does not exist.
// - Each kept branch keeps its head and the ancestors after it while fewer
//   than `min-snapshots-to-keep` are kept or the ancestor is not older than
//   its cutoff, stopping at the first that is neither. The cutoff is now
//   minus the branch's `max-snapshot-age-ms`, else ExpireOptions'
//   older_than_ms, else now minus history.expire.max-snapshot-age-ms
//   (default 5 days); the minimum is the branch's, else
//   ExpireOptions' retain_last, else history.expire.min-snapshots-to-keep
//   (default 1).
// - Each kept tag keeps its snapshot.
// - A snapshot no kept ref reaches stays while it is not older than the
//   table-wide cutoff (older_than_ms, else the property's).
// Everything else expires.
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

struct ExpireOptions {
  std::optional<int64_t> older_than_ms;  // default: now - history.expire.max-snapshot-age-ms (5 days)
  std::optional<int> retain_last;        // default: history.expire.min-snapshots-to-keep (1); at least 1
  bool delete_files = true;
  // The time ages are measured from (default: the wall clock now).
  std::optional<int64_t> now_ms;
};

struct RetentionPlan {
  std::vector<std::string> removed_refs;     // sorted by name
  std::set<int64_t> retained_snapshot_ids;
  std::vector<int64_t> expired_snapshot_ids;  // in the metadata's snapshot order
};

// What an expiry at `now_ms` removes from `metadata`. InvalidArgument for a
// retain_last below 1 or a history.expire.* property that is not an
// integer (naming it).
Result<RetentionPlan> PlanSnapshotRetention(const TableMetadata& metadata, const ExpireOptions& options,
                                            int64_t now_ms);

}  // namespace floe::iceberg
