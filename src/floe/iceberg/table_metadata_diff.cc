#include "floe/iceberg/table_metadata_diff.h"

#include <algorithm>
#include <set>

#include "floe/base/strings.h"

namespace floe::iceberg {
namespace {

template <typename T, typename Id>
const T* FindById(const std::vector<T>& items, Id id, Id (*id_of)(const T&)) {
  for (const T& item : items) {
    if (id_of(item) == id) return &item;
  }
  return nullptr;
}

int32_t SchemaId(const Schema& s) { return s.schema_id(); }
int32_t SpecId(const PartitionSpec& s) { return s.spec_id; }
int32_t OrderId(const SortOrder& s) { return s.order_id; }

// The elements of `updated` whose id `base` lacks, with the one whose id is
// `current_id` last (so "-1, the last added" names it). Unsupported when an
// id is in both with different contents: no update rewrites one.
template <typename T>
Result<std::vector<const T*>> Added(const std::vector<T>& base, const std::vector<T>& updated, int32_t (*id_of)(const T&),
                                    int32_t current_id, std::string_view what) {
  std::vector<const T*> added;
  const T* current = nullptr;
  for (const T& item : updated) {
    const T* old = FindById(base, id_of(item), id_of);
    if (old == nullptr) {
      if (id_of(item) == current_id) {
        current = &item;
      } else {
        added.push_back(&item);
      }
    } else if (!(*old == item)) {
      return Status::Unsupported(StrCat("commit changes ", what, " ", id_of(item), " in place"));
    }
  }
  if (current != nullptr) added.push_back(current);
  return added;
}

template <typename T>
std::vector<int32_t> Removed(const std::vector<T>& base, const std::vector<T>& updated, int32_t (*id_of)(const T&)) {
  std::vector<int32_t> removed;
  for (const T& item : base) {
    if (FindById(updated, id_of(item), id_of) == nullptr) removed.push_back(id_of(item));
  }
  return removed;
}

// The id to name in set-current-schema & co: -1 when it is the one just added.
int32_t CurrentIdFor(int32_t id, bool added_last) { return added_last ? kLastAdded : id; }

// Everything a commit controls, with the builder-derived fields cleared, for
// comparing two versions of a table.
TableMetadata Controlled(TableMetadata m) {
  m.last_updated_ms = 0;
  m.metadata_log.clear();
  m.snapshot_log.clear();
  return m;
}

}  // namespace

Result<TableChanges> DiffTableMetadata(const TableMetadata* base_in, const TableMetadata& updated) {
  const bool create = base_in == nullptr;
  TableMetadata empty;
  empty.format_version = kMinFormatVersion;
  empty.schemas.clear();
  empty.partition_specs.clear();
  empty.sort_orders.clear();
  const TableMetadata& base = create ? empty : *base_in;
  TableChanges changes;
  auto& updates = changes.updates;
  auto& requirements = changes.requirements;

  if (create) {
    requirements.push_back(AssertCreate{});
  } else if (!base.table_uuid.empty()) {
    requirements.push_back(AssertTableUuid{base.table_uuid});
  }
  if (base.encryption_keys != updated.encryption_keys) {
    return Status::Unsupported("commit changes the table's encryption keys, which no REST update expresses yet");
  }
  if (updated.format_version != base.format_version) updates.push_back(UpgradeFormatVersion{updated.format_version});
  if (updated.table_uuid != base.table_uuid) updates.push_back(AssignUuid{updated.table_uuid});

  // Schemas.
  FLOE_ASSIGN_OR_RETURN(auto schemas, Added(base.schemas, updated.schemas, SchemaId, updated.current_schema_id, "schema"));
  if (!schemas.empty() && !create) requirements.push_back(AssertLastAssignedFieldId{base.last_column_id});
  for (const Schema* s : schemas) updates.push_back(AddSchema{*s});
  const bool schema_added_last = !schemas.empty() && schemas.back()->schema_id() == updated.current_schema_id;
  if (create || updated.current_schema_id != base.current_schema_id) {
    if (!create) requirements.push_back(AssertCurrentSchemaId{base.current_schema_id});
    updates.push_back(SetCurrentSchema{CurrentIdFor(updated.current_schema_id, schema_added_last)});
  }

  // Partition specs.
  FLOE_ASSIGN_OR_RETURN(auto specs, Added(base.partition_specs, updated.partition_specs, SpecId,
                                          updated.default_spec_id, "partition spec"));
  if (!specs.empty() && !create) requirements.push_back(AssertLastAssignedPartitionId{base.last_partition_id});
  for (const PartitionSpec* s : specs) updates.push_back(AddPartitionSpec{*s});
  const bool spec_added_last = !specs.empty() && specs.back()->spec_id == updated.default_spec_id;
  if (create || updated.default_spec_id != base.default_spec_id) {
    if (!create) requirements.push_back(AssertDefaultSpecId{base.default_spec_id});
    updates.push_back(SetDefaultSpec{CurrentIdFor(updated.default_spec_id, spec_added_last)});
  }

  // Sort orders.
  FLOE_ASSIGN_OR_RETURN(auto orders, Added(base.sort_orders, updated.sort_orders, OrderId,
                                           updated.default_sort_order_id, "sort order"));
  for (const SortOrder* s : orders) updates.push_back(AddSortOrder{*s});
  const bool order_added_last = !orders.empty() && orders.back()->order_id == updated.default_sort_order_id;
  if (create || updated.default_sort_order_id != base.default_sort_order_id) {
    if (!create) requirements.push_back(AssertDefaultSortOrderId{base.default_sort_order_id});
    updates.push_back(SetDefaultSortOrder{CurrentIdFor(updated.default_sort_order_id, order_added_last)});
  }

  // Snapshots and refs.
  for (const Snapshot& s : updated.snapshots) {
    const Snapshot* old = base.SnapshotById(s.snapshot_id);
    if (old == nullptr) {
      updates.push_back(AddSnapshot{s});
    } else if (!(*old == s)) {
      return Status::Unsupported(StrCat("commit changes snapshot ", s.snapshot_id, " in place"));
    }
  }
  auto assert_ref = [&](const std::string& name) {
    if (create) return;
    auto it = base.refs.find(name);
    requirements.push_back(AssertRefSnapshotId{
        name, it == base.refs.end() ? std::nullopt : std::optional<int64_t>(it->second.snapshot_id)});
  };
  for (const auto& [name, ref] : base.refs) {
    if (updated.refs.count(name) == 0) {
      assert_ref(name);
      updates.push_back(RemoveSnapshotRef{name});
    }
  }
  for (const auto& [name, ref] : updated.refs) {
    auto it = base.refs.find(name);
    if (it == base.refs.end() || !(it->second == ref)) {
      assert_ref(name);
      updates.push_back(SetSnapshotRef{name, ref});
    }
  }
  std::vector<int64_t> removed_snapshots;
  for (const Snapshot& s : base.snapshots) {
    if (updated.SnapshotById(s.snapshot_id) == nullptr) removed_snapshots.push_back(s.snapshot_id);
  }
  if (!removed_snapshots.empty()) updates.push_back(RemoveSnapshots{std::move(removed_snapshots)});

  if (updated.location != base.location) updates.push_back(SetLocation{updated.location});

  // Properties.
  SetProperties set;
  for (const auto& [key, value] : updated.properties) {
    auto it = base.properties.find(key);
    if (it == base.properties.end() || it->second != value) set.updates[key] = value;
  }
  RemoveProperties remove;
  for (const auto& [key, value] : base.properties) {
    if (updated.properties.count(key) == 0) remove.removals.push_back(key);
  }
  if (!set.updates.empty()) updates.push_back(std::move(set));
  if (!remove.removals.empty()) updates.push_back(std::move(remove));

  // Statistics, keyed by snapshot id. Those of removed snapshots go with them.
  for (const StatisticsFile& f : updated.statistics) {
    auto it = std::find_if(base.statistics.begin(), base.statistics.end(),
                           [&](const StatisticsFile& o) { return o.snapshot_id == f.snapshot_id; });
    if (it == base.statistics.end() || !(*it == f)) updates.push_back(SetStatistics{f});
  }
  for (const StatisticsFile& f : base.statistics) {
    const bool kept = std::any_of(updated.statistics.begin(), updated.statistics.end(),
                                  [&](const StatisticsFile& o) { return o.snapshot_id == f.snapshot_id; });
    if (!kept && updated.SnapshotById(f.snapshot_id) != nullptr) updates.push_back(RemoveStatistics{f.snapshot_id});
  }
  for (const PartitionStatisticsFile& f : updated.partition_statistics) {
    auto it = std::find_if(base.partition_statistics.begin(), base.partition_statistics.end(),
                           [&](const PartitionStatisticsFile& o) { return o.snapshot_id == f.snapshot_id; });
    if (it == base.partition_statistics.end() || !(*it == f)) updates.push_back(SetPartitionStatistics{f});
  }
  for (const PartitionStatisticsFile& f : base.partition_statistics) {
    const bool kept = std::any_of(updated.partition_statistics.begin(), updated.partition_statistics.end(),
                                  [&](const PartitionStatisticsFile& o) { return o.snapshot_id == f.snapshot_id; });
    if (!kept && updated.SnapshotById(f.snapshot_id) != nullptr) {
      updates.push_back(RemovePartitionStatistics{f.snapshot_id});
    }
  }

  // Removed specs and schemas (after the defaults moved off them).
  if (auto removed = Removed(base.partition_specs, updated.partition_specs, SpecId); !removed.empty()) {
    requirements.push_back(AssertDefaultSpecId{base.default_spec_id});
    updates.push_back(RemovePartitionSpecs{std::move(removed)});
  }
  if (auto removed = Removed(base.schemas, updated.schemas, SchemaId); !removed.empty()) {
    requirements.push_back(AssertCurrentSchemaId{base.current_schema_id});
    updates.push_back(RemoveSchemas{std::move(removed)});
  }

  // One requirement of each kind and target is enough.
  std::vector<TableRequirement> unique;
  for (auto& r : requirements) {
    const bool seen = std::any_of(unique.begin(), unique.end(), [&](const TableRequirement& u) {
      if (u.index() != r.index()) return false;
      if (auto* a = std::get_if<AssertRefSnapshotId>(&u)) return a->ref == std::get<AssertRefSnapshotId>(r).ref;
      return true;
    });
    if (!seen) unique.push_back(std::move(r));
  }
  requirements = std::move(unique);
  return changes;
}

bool ChangesVisible(const TableChanges& changes, const TableMetadata& current) {
  bool adds_snapshot = false;
  for (const TableUpdate& update : changes.updates) {
    if (const auto* add = std::get_if<AddSnapshot>(&update)) {
      adds_snapshot = true;
      // Snapshot ids are random 63-bit numbers: finding ours means it landed.
      if (current.SnapshotById(add->snapshot.snapshot_id) == nullptr) return false;
    }
  }
  if (adds_snapshot) return true;
  TableMetadataBuilder builder(current);
  builder.set_now_ms(current.last_updated_ms);
  if (!builder.ApplyAll(changes.updates).ok()) return false;
  auto rebuilt = builder.Build();
  return rebuilt.ok() && Controlled(*rebuilt) == Controlled(current);
}

}  // namespace floe::iceberg
