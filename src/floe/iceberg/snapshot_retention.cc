#include "floe/iceberg/snapshot_retention.h"

#include <limits>
#include <map>

#include "floe/base/strings.h"
#include "floe/iceberg/table_properties.h"

namespace floe::iceberg {
namespace {

// a - b, clamped to int64_t (properties may say "forever" as INT64_MAX).
int64_t SaturatingSub(int64_t a, int64_t b) {
  int64_t out = 0;
  if (!__builtin_sub_overflow(a, b, &out)) return out;
  return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

// The parent of `s` in `m`, or null.
const Snapshot* ParentOf(const TableMetadata& m, const Snapshot& s) {
  return s.parent_snapshot_id ? m.SnapshotById(*s.parent_snapshot_id) : nullptr;
}

}  // namespace

Result<RetentionPlan> PlanSnapshotRetention(const TableMetadata& m, const ExpireOptions& options, int64_t now_ms) {
  if (options.retain_last.has_value() && *options.retain_last < 1) {
    return Status::InvalidArgument(
        StrCat("the number of snapshots to retain must be at least 1, not ", *options.retain_last));
  }
  FLOE_ASSIGN_OR_RETURN(const int64_t max_snapshot_age_ms,
                        LongProperty(m.properties, kMaxSnapshotAgeMs, kMaxSnapshotAgeMsDefault));
  FLOE_ASSIGN_OR_RETURN(const int32_t min_snapshots_to_keep,
                        IntProperty(m.properties, kMinSnapshotsToKeep, kMinSnapshotsToKeepDefault));
  FLOE_ASSIGN_OR_RETURN(const int64_t max_ref_age_ms, LongProperty(m.properties, kMaxRefAgeMs, kMaxRefAgeMsDefault));
  const int64_t default_cutoff = options.older_than_ms.value_or(SaturatingSub(now_ms, max_snapshot_age_ms));
  const int64_t default_min = options.retain_last.value_or(min_snapshots_to_keep);

  RetentionPlan plan;
  std::map<std::string, const SnapshotRef*> kept_refs;
  for (const auto& [name, ref] : m.refs) {
    const Snapshot* snapshot = m.SnapshotById(ref.snapshot_id);
    const int64_t max_age = ref.max_ref_age_ms.value_or(max_ref_age_ms);
    const bool young = snapshot != nullptr && SaturatingSub(now_ms, snapshot->timestamp_ms) <= max_age;
    if (name == kMainBranch || young) {
      kept_refs.emplace(name, &ref);
    } else {
      plan.removed_refs.push_back(name);
    }
  }

  std::set<int64_t>& retained = plan.retained_snapshot_ids;
  std::set<int64_t> reachable;  // from a kept ref: ancestors of branches, tags' snapshots
  for (const auto& [name, ref] : kept_refs) {
    const Snapshot* head = m.SnapshotById(ref->snapshot_id);
    if (head == nullptr) continue;  // main pointing nowhere keeps nothing
    if (!ref->is_branch()) {
      retained.insert(head->snapshot_id);
      reachable.insert(head->snapshot_id);
      continue;
    }
    const int64_t cutoff =
        ref->max_snapshot_age_ms ? SaturatingSub(now_ms, *ref->max_snapshot_age_ms) : default_cutoff;
    const int64_t min_keep = ref->min_snapshots_to_keep ? *ref->min_snapshots_to_keep : default_min;
    int64_t kept = 0;
    bool keeping = true;
    for (const Snapshot* s = head; s != nullptr; s = ParentOf(m, *s)) {
      reachable.insert(s->snapshot_id);
      // A branch's head always stays (as in Java), even when a property says
      // to keep 0 snapshots: expiring it would leave the ref dangling.
      if (keeping && (s == head || kept < min_keep || s->timestamp_ms >= cutoff)) {
        retained.insert(s->snapshot_id);
        ++kept;
      } else {
        keeping = false;  // the first ancestor past both limits ends the branch's history
      }
    }
  }
  for (const auto& s : m.snapshots) {
    if (reachable.count(s.snapshot_id) == 0 && s.timestamp_ms >= default_cutoff) retained.insert(s.snapshot_id);
  }
  for (const auto& s : m.snapshots) {
    if (retained.count(s.snapshot_id) == 0) plan.expired_snapshot_ids.push_back(s.snapshot_id);
  }
  return plan;
}

}  // namespace floe::iceberg
