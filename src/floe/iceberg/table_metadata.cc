#include "floe/iceberg/table_metadata.h"

#include <algorithm>
#include <unordered_set>

#include "floe/base/strings.h"

namespace floe::iceberg {

const Schema* TableMetadata::SchemaById(int32_t schema_id) const {
  for (const auto& s : schemas) {
    if (s.schema_id() == schema_id) return &s;
  }
  return nullptr;
}

const PartitionSpec* TableMetadata::PartitionSpecById(int32_t spec_id) const {
  for (const auto& s : partition_specs) {
    if (s.spec_id == spec_id) return &s;
  }
  return nullptr;
}

const SortOrder* TableMetadata::SortOrderById(int32_t order_id) const {
  for (const auto& o : sort_orders) {
    if (o.order_id == order_id) return &o;
  }
  return nullptr;
}

const Snapshot* TableMetadata::SnapshotById(int64_t snapshot_id) const {
  for (const auto& s : snapshots) {
    if (s.snapshot_id == snapshot_id) return &s;
  }
  return nullptr;
}

const Snapshot* TableMetadata::current_snapshot() const {
  return current_snapshot_id ? SnapshotById(*current_snapshot_id) : nullptr;
}

const Snapshot* TableMetadata::SnapshotByRef(const std::string& ref_name) const {
  auto it = refs.find(ref_name);
  return it == refs.end() ? nullptr : SnapshotById(it->second.snapshot_id);
}

namespace {

Status Invalid(const std::string& message) { return Status::InvalidArgument(message); }

template <typename T, typename IdOf>
Status CheckUniqueIds(const std::vector<T>& items, IdOf id_of, std::string_view what) {
  std::unordered_set<int64_t> seen;
  for (const auto& item : items) {
    if (!seen.insert(id_of(item)).second) return Invalid(StrCat(what, " ", id_of(item), " appears twice"));
  }
  return Status::OK();
}

}  // namespace

Status TableMetadata::Validate() const {
  if (format_version < kMinFormatVersion || format_version > kMaxFormatVersion) {
    return Status::Unsupported(StrCat("field 'format-version' is ", format_version, ", floe reads versions ",
                                      kMinFormatVersion, " to ", kMaxFormatVersion));
  }
  if (format_version >= 2 && table_uuid.empty()) return Invalid("field 'table-uuid' is missing (required from v2)");
  if (location.empty()) return Invalid("field 'location' is empty");
  if (last_column_id < 0) return Invalid(StrCat("field 'last-column-id' is ", last_column_id));
  if (last_sequence_number < 0) return Invalid(StrCat("field 'last-sequence-number' is ", last_sequence_number));
  if (format_version == 1 && last_sequence_number != 0) {
    return Invalid(StrCat("field 'last-sequence-number' is ", last_sequence_number, " in a v1 table"));
  }

  // Schemas.
  if (schemas.empty()) return Invalid("field 'schemas' is empty");
  FLOE_RETURN_IF_ERROR(CheckUniqueIds(
      schemas, [](const Schema& s) { return s.schema_id(); }, "schema id"));
  for (const auto& s : schemas) {
    if (s.HighestFieldId() > last_column_id) {
      return Invalid(StrCat("field 'last-column-id' is ", last_column_id, " but schema ", s.schema_id(),
                            " has field id ", s.HighestFieldId()));
    }
    if (MinFormatVersion(*s.as_struct()) > format_version) {
      return Invalid(StrCat("schema ", s.schema_id(), " uses a type of format v3 in a v", format_version, " table"));
    }
  }
  const Schema* schema = current_schema();
  if (schema == nullptr) {
    return Invalid(StrCat("field 'current-schema-id' is ", current_schema_id, ", which is not a schema id"));
  }

  // Partition specs.
  if (partition_specs.empty()) return Invalid("field 'partition-specs' is empty");
  FLOE_RETURN_IF_ERROR(CheckUniqueIds(
      partition_specs, [](const PartitionSpec& s) { return s.spec_id; }, "partition spec id"));
  for (const auto& spec : partition_specs) {
    for (const auto& f : spec.fields) {
      if (f.field_id > last_partition_id) {
        return Invalid(StrCat("field 'last-partition-id' is ", last_partition_id, " but partition spec ", spec.spec_id,
                              " has field id ", f.field_id));
      }
      if (f.source_ids.size() > 1 && format_version < 3) {
        return Invalid(StrCat("partition spec ", spec.spec_id, " field ", Quote(f.name),
                              ": multi-argument transforms need format v3"));
      }
    }
    // Older specs may name columns that later schemas dropped (spec:
    // "Partition specs ... may reference dropped fields"), so only sources
    // that exist are checked against their types.
    bool sources_present = true;
    for (const auto& f : spec.fields) {
      for (int32_t id : f.source_ids) sources_present = sources_present && schema->FindFieldById(id) != nullptr;
    }
    if (sources_present) {
      Status st = ValidatePartitionSpec(spec, *schema);
      if (!st.ok()) return st.WithContext(StrCat("partition spec ", spec.spec_id));
    }
  }
  if (default_spec() == nullptr) {
    return Invalid(StrCat("field 'default-spec-id' is ", default_spec_id, ", which is not a partition spec id"));
  }

  // Sort orders.
  if (sort_orders.empty()) return Invalid("field 'sort-orders' is empty");
  FLOE_RETURN_IF_ERROR(CheckUniqueIds(
      sort_orders, [](const SortOrder& o) { return o.order_id; }, "sort order id"));
  for (const auto& order : sort_orders) {
    if (order.order_id == SortOrder::kUnsortedOrderId && !order.fields.empty()) {
      return Invalid("sort order 0 is reserved for the unsorted order but has fields");
    }
    for (const auto& f : order.fields) {
      if (f.source_ids.empty()) return Invalid(StrCat("sort order ", order.order_id, ": a field has no source"));
    }
  }
  if (default_sort_order() == nullptr) {
    return Invalid(
        StrCat("field 'default-sort-order-id' is ", default_sort_order_id, ", which is not a sort order id"));
  }

  // Snapshots and refs.
  FLOE_RETURN_IF_ERROR(CheckUniqueIds(
      snapshots, [](const Snapshot& s) { return s.snapshot_id; }, "snapshot id"));
  for (const auto& snap : snapshots) {
    const std::string what = StrCat("snapshot ", snap.snapshot_id);
    if (format_version >= 2) {
      if (snap.sequence_number > last_sequence_number) {
        return Invalid(StrCat(what, ": field 'sequence-number' is ", snap.sequence_number,
                              ", above 'last-sequence-number' ", last_sequence_number));
      }
      if (snap.manifest_list.empty()) return Invalid(StrCat(what, ": field 'manifest-list' is missing"));
      if (!snap.operation) return Invalid(StrCat(what, ": summary field 'operation' is missing"));
    } else if (snap.manifest_list.empty() && snap.manifests.empty()) {
      return Invalid(StrCat(what, ": has neither 'manifest-list' nor 'manifests'"));
    }
    if (snap.sequence_number < 0) return Invalid(StrCat(what, ": field 'sequence-number' is ", snap.sequence_number));
    if (snap.first_row_id.has_value() != snap.added_rows.has_value()) {
      return Invalid(StrCat(what, ": 'first-row-id' and 'added-rows' must be given together"));
    }
    if (snap.first_row_id && *snap.first_row_id < 0) {
      return Invalid(StrCat(what, ": field 'first-row-id' is ", *snap.first_row_id));
    }
    if (snap.added_rows && *snap.added_rows < 0) {
      return Invalid(StrCat(what, ": field 'added-rows' is ", *snap.added_rows));
    }
  }
  if (current_snapshot_id && current_snapshot() == nullptr) {
    return Invalid(StrCat("field 'current-snapshot-id' is ", *current_snapshot_id, ", which is not a snapshot id"));
  }
  for (const auto& [name, ref] : refs) {
    FLOE_RETURN_IF_ERROR(ValidateSnapshotRef(name, ref));
    if (SnapshotById(ref.snapshot_id) == nullptr) {
      return Invalid(
          StrCat("ref ", Quote(name), ": field 'snapshot-id' is ", ref.snapshot_id, ", which is not a snapshot id"));
    }
  }
  auto main = refs.find(std::string(kMainBranch));
  if (current_snapshot_id) {
    if (main != refs.end() && main->second.snapshot_id != *current_snapshot_id) {
      return Invalid(StrCat("field 'current-snapshot-id' is ", *current_snapshot_id, " but ref 'main' points at ",
                            main->second.snapshot_id));
    }
  } else if (main != refs.end()) {
    return Invalid("ref 'main' exists but field 'current-snapshot-id' is -1");
  }

  // Row lineage.
  if (format_version >= 3) {
    if (!next_row_id) return Invalid("field 'next-row-id' is missing (required from v3)");
    if (*next_row_id < 0) return Invalid(StrCat("field 'next-row-id' is ", *next_row_id));
  } else if (next_row_id) {
    return Invalid(StrCat("field 'next-row-id' is set in a v", format_version, " table"));
  }
  for (const auto& stats : statistics) {
    if (stats.file_size_in_bytes < 0 || stats.file_footer_size_in_bytes < 0) {
      return Invalid(StrCat("statistics file ", Quote(stats.statistics_path), ": negative size"));
    }
  }
  for (const auto& stats : partition_statistics) {
    if (stats.file_size_in_bytes < 0) {
      return Invalid(StrCat("partition statistics file ", Quote(stats.statistics_path), ": negative size"));
    }
  }
  return Status::OK();
}

}  // namespace floe::iceberg
