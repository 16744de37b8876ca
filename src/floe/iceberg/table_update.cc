#include "floe/iceberg/table_update.h"

#include <algorithm>
#include <chrono>

#include "floe/base/overloaded.h"
#include "floe/base/strings.h"

namespace floe::iceberg {
namespace {

int64_t SystemNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Status Conflict(std::string message) {
  return Status::CommitConflict("requirement failed: " + std::move(message))
      .WithConflictReason(ConflictReason::kRequirementFailed);
}

std::string RefDescription(const std::string& ref) { return ref == kMainBranch ? "branch main" : "ref '" + ref + "'"; }

}  // namespace

std::string_view TableUpdateAction(const TableUpdate& update) {
  return std::visit(Overloaded{
                        [](const AssignUuid&) { return std::string_view("assign-uuid"); },
                        [](const UpgradeFormatVersion&) { return std::string_view("upgrade-format-version"); },
                        [](const AddSchema&) { return std::string_view("add-schema"); },
                        [](const SetCurrentSchema&) { return std::string_view("set-current-schema"); },
                        [](const AddPartitionSpec&) { return std::string_view("add-spec"); },
                        [](const SetDefaultSpec&) { return std::string_view("set-default-spec"); },
                        [](const AddSortOrder&) { return std::string_view("add-sort-order"); },
                        [](const SetDefaultSortOrder&) { return std::string_view("set-default-sort-order"); },
                        [](const AddSnapshot&) { return std::string_view("add-snapshot"); },
                        [](const SetSnapshotRef&) { return std::string_view("set-snapshot-ref"); },
                        [](const RemoveSnapshots&) { return std::string_view("remove-snapshots"); },
                        [](const RemoveSnapshotRef&) { return std::string_view("remove-snapshot-ref"); },
                        [](const SetLocation&) { return std::string_view("set-location"); },
                        [](const SetProperties&) { return std::string_view("set-properties"); },
                        [](const RemoveProperties&) { return std::string_view("remove-properties"); },
                        [](const SetStatistics&) { return std::string_view("set-statistics"); },
                        [](const RemoveStatistics&) { return std::string_view("remove-statistics"); },
                        [](const SetPartitionStatistics&) { return std::string_view("set-partition-statistics"); },
                        [](const RemovePartitionStatistics&) {
                          return std::string_view("remove-partition-statistics");
                        },
                        [](const RemovePartitionSpecs&) { return std::string_view("remove-partition-specs"); },
                        [](const RemoveSchemas&) { return std::string_view("remove-schemas"); },
                    },
                    update);
}

std::string_view TableRequirementType(const TableRequirement& requirement) {
  return std::visit(Overloaded{
                        [](const AssertCreate&) { return std::string_view("assert-create"); },
                        [](const AssertTableUuid&) { return std::string_view("assert-table-uuid"); },
                        [](const AssertRefSnapshotId&) { return std::string_view("assert-ref-snapshot-id"); },
                        [](const AssertLastAssignedFieldId&) {
                          return std::string_view("assert-last-assigned-field-id");
                        },
                        [](const AssertCurrentSchemaId&) { return std::string_view("assert-current-schema-id"); },
                        [](const AssertLastAssignedPartitionId&) {
                          return std::string_view("assert-last-assigned-partition-id");
                        },
                        [](const AssertDefaultSpecId&) { return std::string_view("assert-default-spec-id"); },
                        [](const AssertDefaultSortOrderId&) {
                          return std::string_view("assert-default-sort-order-id");
                        },
                    },
                    requirement);
}

Status ValidateRequirement(const TableRequirement& requirement, const TableMetadata* current) {
  if (std::holds_alternative<AssertCreate>(requirement)) {
    return current == nullptr ? Status::OK() : Conflict("the table already exists");
  }
  if (current == nullptr) {
    return Conflict(StrCat(TableRequirementType(requirement), ": the table does not exist"));
  }
  const TableMetadata& m = *current;
  return std::visit(
      Overloaded{
          [](const AssertCreate&) { return Status::OK(); },
          [&](const AssertTableUuid& r) {
            return r.uuid == m.table_uuid ? Status::OK()
                                          : Conflict(StrCat("table uuid is ", m.table_uuid, ", expected ", r.uuid));
          },
          [&](const AssertRefSnapshotId& r) {
            auto it = m.refs.find(r.ref);
            // A v1 table without refs still has main through current-snapshot-id.
            std::optional<int64_t> actual;
            if (it != m.refs.end()) {
              actual = it->second.snapshot_id;
            } else if (r.ref == kMainBranch) {
              actual = m.current_snapshot_id;
            }
            if (actual == r.snapshot_id) return Status::OK();
            if (!actual) return Conflict(StrCat(RefDescription(r.ref), " does not exist, expected snapshot ", *r.snapshot_id));
            if (!r.snapshot_id) return Conflict(StrCat(RefDescription(r.ref), " exists (snapshot ", *actual, "), expected none"));
            return Conflict(StrCat(RefDescription(r.ref), " is at snapshot ", *actual, ", expected ", *r.snapshot_id));
          },
          [&](const AssertLastAssignedFieldId& r) {
            return r.last_assigned_field_id == m.last_column_id
                       ? Status::OK()
                       : Conflict(StrCat("last assigned field id is ", m.last_column_id, ", expected ",
                                         r.last_assigned_field_id));
          },
          [&](const AssertCurrentSchemaId& r) {
            return r.current_schema_id == m.current_schema_id
                       ? Status::OK()
                       : Conflict(StrCat("current schema is ", m.current_schema_id, ", expected ", r.current_schema_id));
          },
          [&](const AssertLastAssignedPartitionId& r) {
            return r.last_assigned_partition_id == m.last_partition_id
                       ? Status::OK()
                       : Conflict(StrCat("last assigned partition id is ", m.last_partition_id, ", expected ",
                                         r.last_assigned_partition_id));
          },
          [&](const AssertDefaultSpecId& r) {
            return r.default_spec_id == m.default_spec_id
                       ? Status::OK()
                       : Conflict(StrCat("default spec is ", m.default_spec_id, ", expected ", r.default_spec_id));
          },
          [&](const AssertDefaultSortOrderId& r) {
            return r.default_sort_order_id == m.default_sort_order_id
                       ? Status::OK()
                       : Conflict(StrCat("default sort order is ", m.default_sort_order_id, ", expected ",
                                         r.default_sort_order_id));
          },
      },
      requirement);
}

TableMetadataBuilder::TableMetadataBuilder(TableMetadata base) : metadata_(std::move(base)) {}

Status TableMetadataBuilder::ApplyAll(const std::vector<TableUpdate>& updates) {
  for (const TableUpdate& update : updates) FLOE_RETURN_IF_ERROR(Apply(update));
  return Status::OK();
}

Status TableMetadataBuilder::Apply(const TableUpdate& update) {
  const std::string_view action = TableUpdateAction(update);
  auto invalid = [&](std::string message) { return Status::InvalidArgument(StrCat(action, ": ", message)); };
  TableMetadata& m = metadata_;
  TableMetadata before = m;
  Status status = std::visit(
      Overloaded{
          [&](const AssignUuid& u) {
            if (u.uuid.empty()) return invalid("empty uuid");
            if (!m.table_uuid.empty() && m.table_uuid != u.uuid) {
              return invalid(StrCat("the table's uuid is already ", m.table_uuid));
            }
            m.table_uuid = u.uuid;
            return Status::OK();
          },
          [&](const UpgradeFormatVersion& u) {
            if (u.format_version > kMaxFormatVersion) {
              return Status::Unsupported(StrCat(action, ": format version ", u.format_version));
            }
            if (u.format_version < m.format_version) {
              return invalid(StrCat("cannot downgrade format version ", m.format_version, " to ", u.format_version));
            }
            m.format_version = u.format_version;
            if (m.format_version >= 3 && !m.next_row_id) m.next_row_id = 0;
            return Status::OK();
          },
          [&](const AddSchema& u) {
            // Reuse the id of a structurally equal schema (as Java does), so
            // that re-adding an old schema does not grow the list.
            for (const Schema& existing : m.schemas) {
              if (TypeEquals(existing.as_struct(), u.schema.as_struct()) &&
                  existing.identifier_field_ids() == u.schema.identifier_field_ids()) {
                last_added_schema_id_ = existing.schema_id();
                return Status::OK();
              }
            }
            int32_t id = 0;
            for (const Schema& existing : m.schemas) id = std::max(id, existing.schema_id() + 1);
            auto schema = Schema::Make(id, u.schema.fields(), u.schema.identifier_field_ids());
            if (!schema.ok()) return invalid(schema.status().message());
            m.schemas.push_back(std::move(*schema));
            m.last_column_id = std::max(m.last_column_id, u.schema.HighestFieldId());
            last_added_schema_id_ = id;
            return Status::OK();
          },
          [&](const SetCurrentSchema& u) {
            int32_t id = u.schema_id;
            if (id == kLastAdded) {
              if (!last_added_schema_id_) return invalid("no schema was added");
              id = *last_added_schema_id_;
            }
            if (m.SchemaById(id) == nullptr) return invalid(StrCat("no schema with id ", id));
            m.current_schema_id = id;
            return Status::OK();
          },
          [&](const AddPartitionSpec& u) {
            for (const PartitionSpec& existing : m.partition_specs) {
              if (existing.fields == u.spec.fields) {
                last_added_spec_id_ = existing.spec_id;
                return Status::OK();
              }
            }
            PartitionSpec spec = u.spec;
            spec.spec_id = 0;
            for (const PartitionSpec& existing : m.partition_specs) {
              spec.spec_id = std::max(spec.spec_id, existing.spec_id + 1);
            }
            if (const Schema* schema = m.current_schema()) {
              Status valid = ValidatePartitionSpec(spec, *schema);
              if (!valid.ok()) return invalid(valid.message());
            }
            m.last_partition_id = std::max(m.last_partition_id, spec.LastAssignedFieldId());
            last_added_spec_id_ = spec.spec_id;
            m.partition_specs.push_back(std::move(spec));
            return Status::OK();
          },
          [&](const SetDefaultSpec& u) {
            int32_t id = u.spec_id;
            if (id == kLastAdded) {
              if (!last_added_spec_id_) return invalid("no partition spec was added");
              id = *last_added_spec_id_;
            }
            if (m.PartitionSpecById(id) == nullptr) return invalid(StrCat("no partition spec with id ", id));
            m.default_spec_id = id;
            return Status::OK();
          },
          [&](const AddSortOrder& u) {
            if (u.sort_order.is_unsorted()) {
              last_added_order_id_ = SortOrder::kUnsortedOrderId;
              if (m.SortOrderById(SortOrder::kUnsortedOrderId) == nullptr) m.sort_orders.push_back(SortOrder{});
              return Status::OK();
            }
            for (const SortOrder& existing : m.sort_orders) {
              if (existing.fields == u.sort_order.fields) {
                last_added_order_id_ = existing.order_id;
                return Status::OK();
              }
            }
            SortOrder order = u.sort_order;
            order.order_id = 1;
            for (const SortOrder& existing : m.sort_orders) order.order_id = std::max(order.order_id, existing.order_id + 1);
            if (const Schema* schema = m.current_schema()) {
              for (const SortField& field : order.fields) {
                if (schema->FindFieldById(field.source_id()) == nullptr) {
                  return invalid(StrCat("sort field source ", field.source_id(), " is not in the current schema"));
                }
              }
            }
            last_added_order_id_ = order.order_id;
            m.sort_orders.push_back(std::move(order));
            return Status::OK();
          },
          [&](const SetDefaultSortOrder& u) {
            int32_t id = u.sort_order_id;
            if (id == kLastAdded) {
              if (!last_added_order_id_) return invalid("no sort order was added");
              id = *last_added_order_id_;
            }
            if (m.SortOrderById(id) == nullptr) return invalid(StrCat("no sort order with id ", id));
            m.default_sort_order_id = id;
            return Status::OK();
          },
          [&](const AddSnapshot& u) { return ApplySnapshot(u); },
          [&](const SetSnapshotRef& u) { return ApplyRef(u); },
          [&](const RemoveSnapshots& u) { return ApplyRemoveSnapshots(u); },
          [&](const RemoveSnapshotRef& u) {
            if (m.refs.erase(u.ref_name) == 0) return Status::OK();
            if (u.ref_name == kMainBranch) m.current_snapshot_id.reset();
            return Status::OK();
          },
          [&](const SetLocation& u) {
            if (u.location.empty()) return invalid("empty location");
            m.location = u.location;
            return Status::OK();
          },
          [&](const SetProperties& u) {
            for (const auto& [key, value] : u.updates) m.properties[key] = value;
            return Status::OK();
          },
          [&](const RemoveProperties& u) {
            for (const std::string& key : u.removals) m.properties.erase(key);
            return Status::OK();
          },
          [&](const SetStatistics& u) {
            std::erase_if(m.statistics, [&](const StatisticsFile& f) { return f.snapshot_id == u.statistics.snapshot_id; });
            m.statistics.push_back(u.statistics);
            return Status::OK();
          },
          [&](const RemoveStatistics& u) {
            std::erase_if(m.statistics, [&](const StatisticsFile& f) { return f.snapshot_id == u.snapshot_id; });
            return Status::OK();
          },
          [&](const SetPartitionStatistics& u) {
            std::erase_if(m.partition_statistics, [&](const PartitionStatisticsFile& f) {
              return f.snapshot_id == u.statistics.snapshot_id;
            });
            m.partition_statistics.push_back(u.statistics);
            return Status::OK();
          },
          [&](const RemovePartitionStatistics& u) {
            std::erase_if(m.partition_statistics,
                          [&](const PartitionStatisticsFile& f) { return f.snapshot_id == u.snapshot_id; });
            return Status::OK();
          },
          [&](const RemovePartitionSpecs& u) {
            for (int32_t id : u.spec_ids) {
              if (id == m.default_spec_id) return invalid(StrCat("cannot remove the default spec ", id));
            }
            std::erase_if(m.partition_specs, [&](const PartitionSpec& s) {
              return std::find(u.spec_ids.begin(), u.spec_ids.end(), s.spec_id) != u.spec_ids.end();
            });
            return Status::OK();
          },
          [&](const RemoveSchemas& u) {
            for (int32_t id : u.schema_ids) {
              if (id == m.current_schema_id) return invalid(StrCat("cannot remove the current schema ", id));
            }
            std::erase_if(m.schemas, [&](const Schema& s) {
              return std::find(u.schema_ids.begin(), u.schema_ids.end(), s.schema_id()) != u.schema_ids.end();
            });
            return Status::OK();
          },
      },
      update);
  if (!status.ok()) {
    m = std::move(before);
    return status;
  }
  changed_ = true;
  return Status::OK();
}

Status TableMetadataBuilder::ApplySnapshot(const AddSnapshot& update) {
  TableMetadata& m = metadata_;
  const Snapshot& snapshot = update.snapshot;
  auto invalid = [](std::string message) { return Status::InvalidArgument("add-snapshot: " + std::move(message)); };
  if (m.SnapshotById(snapshot.snapshot_id) != nullptr) {
    return invalid(StrCat("snapshot ", snapshot.snapshot_id, " already exists"));
  }
  // spec: sequence numbers only grow; a v2 snapshot's must exceed the last.
  if (m.format_version >= 2 && snapshot.sequence_number <= m.last_sequence_number &&
      snapshot.parent_snapshot_id.has_value()) {
    return invalid(StrCat("snapshot ", snapshot.snapshot_id, " has sequence number ", snapshot.sequence_number,
                          ", not above the table's last sequence number ", m.last_sequence_number));
  }
  if (m.format_version >= 3) {
    // spec: "first-row-id ... must be greater than or equal to the table's next-row-id".
    if (!snapshot.first_row_id || !snapshot.added_rows) {
      return invalid(StrCat("v3 snapshot ", snapshot.snapshot_id, " lacks first-row-id or added-rows"));
    }
    if (*snapshot.first_row_id < m.next_row_id.value_or(0)) {
      return invalid(StrCat("snapshot ", snapshot.snapshot_id, " has first-row-id ", *snapshot.first_row_id,
                            " below the table's next-row-id ", m.next_row_id.value_or(0)));
    }
    m.next_row_id = *snapshot.first_row_id + *snapshot.added_rows;
  }
  m.snapshots.push_back(snapshot);
  m.last_sequence_number = std::max(m.last_sequence_number, snapshot.sequence_number);
  // Java: a commit's time is its snapshot's time; the snapshot log uses it.
  now_ms_ = now_ms_ != 0 ? std::max(now_ms_, snapshot.timestamp_ms) : snapshot.timestamp_ms;
  return Status::OK();
}

Status TableMetadataBuilder::ApplyRef(const SetSnapshotRef& update) {
  TableMetadata& m = metadata_;
  const Snapshot* snapshot = m.SnapshotById(update.ref.snapshot_id);
  if (snapshot == nullptr) {
    return Status::InvalidArgument(
        StrCat("set-snapshot-ref: ", update.ref_name, " points at unknown snapshot ", update.ref.snapshot_id));
  }
  FLOE_RETURN_IF_ERROR(ValidateSnapshotRef(update.ref_name, update.ref));
  if (update.ref_name == kMainBranch && !update.ref.is_branch()) {
    return Status::InvalidArgument("set-snapshot-ref: main must be a branch");
  }
  auto existing = m.refs.find(update.ref_name);
  if (existing != m.refs.end() && existing->second == update.ref) return Status::OK();
  m.refs[update.ref_name] = update.ref;
  if (update.ref_name == kMainBranch) {
    m.current_snapshot_id = update.ref.snapshot_id;
    if (now_ms_ == 0) now_ms_ = SystemNowMs();
    m.snapshot_log.push_back(SnapshotLogEntry{now_ms_, update.ref.snapshot_id});
  }
  return Status::OK();
}

Status TableMetadataBuilder::ApplyRemoveSnapshots(const RemoveSnapshots& update) {
  TableMetadata& m = metadata_;
  std::set<int64_t> removed(update.snapshot_ids.begin(), update.snapshot_ids.end());
  std::erase_if(m.snapshots, [&](const Snapshot& s) { return removed.contains(s.snapshot_id); });
  for (auto it = m.refs.begin(); it != m.refs.end();) {
    if (removed.contains(it->second.snapshot_id)) {
      if (it->first == kMainBranch) m.current_snapshot_id.reset();
      it = m.refs.erase(it);
    } else {
      ++it;
    }
  }
  if (m.current_snapshot_id && removed.contains(*m.current_snapshot_id)) m.current_snapshot_id.reset();
  // As Java: the snapshot log stays a valid history, so it keeps only the
  // entries after the last one whose snapshot is gone.
  size_t keep_from = 0;
  for (size_t i = 0; i < m.snapshot_log.size(); ++i) {
    if (removed.contains(m.snapshot_log[i].snapshot_id)) keep_from = i + 1;
  }
  m.snapshot_log.erase(m.snapshot_log.begin(), m.snapshot_log.begin() + static_cast<std::ptrdiff_t>(keep_from));
  std::erase_if(m.statistics, [&](const StatisticsFile& f) { return removed.contains(f.snapshot_id); });
  std::erase_if(m.partition_statistics,
                [&](const PartitionStatisticsFile& f) { return removed.contains(f.snapshot_id); });
  return Status::OK();
}

Result<TableMetadata> TableMetadataBuilder::Build() const {
  TableMetadata m = metadata_;
  if (changed_) m.last_updated_ms = std::max(m.last_updated_ms, now_ms_ != 0 ? now_ms_ : SystemNowMs());
  FLOE_RETURN_IF_ERROR(m.Validate());
  return m;
}

Result<TableMetadata> ApplyTableChanges(const TableMetadata* base, const std::vector<TableRequirement>& requirements,
                                        const std::vector<TableUpdate>& updates) {
  for (const TableRequirement& requirement : requirements) FLOE_RETURN_IF_ERROR(ValidateRequirement(requirement, base));
  TableMetadata start;
  if (base != nullptr) {
    start = *base;
  } else {
    // A table being created starts empty; its updates (upgrade-format-version,
    // add-schema, ...) fill it in, as in a REST create transaction.
    start.format_version = kMinFormatVersion;
    start.schemas.clear();
    start.partition_specs.clear();
    start.sort_orders.clear();
  }
  TableMetadataBuilder builder(std::move(start));
  FLOE_RETURN_IF_ERROR(builder.ApplyAll(updates));
  return builder.Build();
}

Result<TableChanges> SetRefChange(const TableMetadata& metadata, const std::string& name, SnapshotRefType type,
                                 int64_t snapshot_id) {
  if (metadata.SnapshotById(snapshot_id) == nullptr) {
    return Status::NotFound(StrCat("snapshot ", snapshot_id, " does not exist"));
  }
  SnapshotRef ref;
  std::optional<int64_t> current;
  if (auto it = metadata.refs.find(name); it != metadata.refs.end()) {
    if (it->second.type != type) {
      return Status::InvalidArgument(StrCat(Quote(name), " is a ", SnapshotRefTypeName(it->second.type), ", not a ",
                                            SnapshotRefTypeName(type)));
    }
    ref = it->second;
    current = it->second.snapshot_id;
  }
  ref.type = type;
  ref.snapshot_id = snapshot_id;
  TableChanges change;
  change.requirements.push_back(AssertRefSnapshotId{name, current});
  change.updates.push_back(SetSnapshotRef{name, std::move(ref)});
  return change;
}

}  // namespace floe::iceberg
