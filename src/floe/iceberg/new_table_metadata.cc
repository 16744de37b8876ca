#include "floe/iceberg/new_table_metadata.h"

#include <charconv>
#include <unordered_map>

#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/iceberg/table_properties.h"

namespace floe::iceberg {
namespace {

// Properties Java never persists: they describe the metadata itself.
constexpr std::string_view kReservedProperties[] = {
    "format-version",           "uuid",
    "snapshot-count",           "current-snapshot-id",
    "current-snapshot-summary", "current-snapshot-timestamp-ms",
    "current-schema",           "default-partition-spec",
    "default-sort-order",
};

// Java's AssignFreshIds: a struct takes ids for all its fields before any
// child does; a list its element id, a map its key and value ids, before
// their types are visited.
class FreshIds {
 public:
  TypePtr Assign(const TypePtr& type) {
    switch (type->id()) {
      case TypeId::kStruct: {
        const std::vector<NestedField>& fields = type->fields();
        std::vector<int32_t> ids;
        ids.reserve(fields.size());
        for (const NestedField& field : fields) ids.push_back(Next(field.field_id));
        std::vector<NestedField> fresh;
        fresh.reserve(fields.size());
        for (size_t i = 0; i < fields.size(); ++i) {
          NestedField field = fields[i];
          field.field_id = ids[i];
          field.type = Assign(fields[i].type);
          fresh.push_back(std::move(field));
        }
        return Type::Struct(std::move(fresh));
      }
      case TypeId::kList: {
        const NestedField& element = type->element_field();
        const int32_t id = Next(element.field_id);
        return Type::List(id, Assign(element.type), element.required);
      }
      case TypeId::kMap: {
        const NestedField& key = type->key_field();
        const NestedField& value = type->value_field();
        const int32_t key_id = Next(key.field_id);
        const int32_t value_id = Next(value.field_id);
        TypePtr key_type = Assign(key.type);
        return Type::Map(key_id, std::move(key_type), value_id, Assign(value.type), value.required);
      }
      default: return type;
    }
  }

  // The new id of an old one, or -1 when the old id was not in the schema.
  int32_t Map(int32_t old_id) const {
    auto it = new_ids_.find(old_id);
    return it == new_ids_.end() ? -1 : it->second;
  }

 private:
  int32_t Next(int32_t old_id) {
    new_ids_[old_id] = ++last_;
    return last_;
  }

  int32_t last_ = 0;
  std::unordered_map<int32_t, int32_t> new_ids_;
};

Result<int> FormatVersionOf(const TableDefinition& definition) {
  auto it = definition.properties.find(std::string(kFormatVersionProperty));
  if (it == definition.properties.end()) return definition.format_version;
  int version = 0;
  std::string_view text = Trim(it->second);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), version);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    return Status::InvalidArgument(
        StrCat("table property ", Quote(kFormatVersionProperty), " is ", Quote(it->second), ", not an integer"));
  }
  return version;
}

Result<std::vector<int32_t>> MapSourceIds(const FreshIds& ids, const std::vector<int32_t>& source_ids,
                                          std::string_view what) {
  std::vector<int32_t> mapped;
  mapped.reserve(source_ids.size());
  for (int32_t old_id : source_ids) {
    const int32_t id = ids.Map(old_id);
    if (id < 0) return Status::InvalidArgument(StrCat(what, ": source column ", old_id, " is not in the schema"));
    mapped.push_back(id);
  }
  return mapped;
}

}  // namespace

Result<std::vector<TableUpdate>> NewTableUpdates(const TableDefinition& definition) {
  std::string location = definition.location;
  while (location.size() > 1 && location.back() == '/') location.pop_back();
  if (location.empty()) return Status::InvalidArgument("new table: the location is empty");
  FLOE_ASSIGN_OR_RETURN(int format_version, FormatVersionOf(definition));
  if (format_version < kMinFormatVersion) {
    return Status::InvalidArgument(StrCat("new table: format version ", format_version, " is below 1"));
  }
  if (format_version > kMaxFormatVersion) {
    return Status::Unsupported(StrCat("new table: format version ", format_version));
  }

  FreshIds ids;
  TypePtr fresh_struct = ids.Assign(definition.schema.as_struct());
  std::vector<int32_t> identifier_ids;
  for (int32_t old_id : definition.schema.identifier_field_ids()) identifier_ids.push_back(ids.Map(old_id));
  auto schema = Schema::Make(Schema::kInitialSchemaId, fresh_struct->fields(), std::move(identifier_ids));
  if (!schema.ok()) return schema.status().WithContext("new table");

  PartitionSpec spec;
  spec.spec_id = PartitionSpec::kInitialSpecId;
  int32_t next_partition_id = PartitionSpec::kFirstFieldId;
  for (const PartitionField& field : definition.partition_spec.fields) {
    PartitionField fresh = field;
    FLOE_ASSIGN_OR_RETURN(fresh.source_ids,
                          MapSourceIds(ids, field.source_ids, StrCat("partition field ", Quote(field.name))));
    fresh.field_id = next_partition_id++;
    spec.fields.push_back(std::move(fresh));
  }

  SortOrder order;
  for (const SortField& field : definition.sort_order.fields) {
    SortField fresh = field;
    FLOE_ASSIGN_OR_RETURN(fresh.source_ids, MapSourceIds(ids, field.source_ids, "sort field"));
    order.fields.push_back(std::move(fresh));
  }
  // The builder numbers a sorted order 1 and keeps 0 for unsorted.
  order.order_id = order.is_unsorted() ? SortOrder::kUnsortedOrderId : 1;

  std::map<std::string, std::string> properties = definition.properties;
  for (std::string_view reserved : kReservedProperties) properties.erase(std::string(reserved));
  properties.emplace(std::string(kParquetCompression), std::string(kParquetCompressionNewTableDefault));

  return std::vector<TableUpdate>{
      AssignUuid{RandomUuid()},          UpgradeFormatVersion{format_version},
      AddSchema{std::move(*schema)},     SetCurrentSchema{kLastAdded},
      AddPartitionSpec{std::move(spec)}, SetDefaultSpec{kLastAdded},
      AddSortOrder{std::move(order)},    SetDefaultSortOrder{kLastAdded},
      SetLocation{std::move(location)},  SetProperties{std::move(properties)},
  };
}

Result<TableMetadata> NewTableMetadata(const TableDefinition& definition) {
  FLOE_ASSIGN_OR_RETURN(std::vector<TableUpdate> updates, NewTableUpdates(definition));
  return ApplyTableChanges(nullptr, {AssertCreate{}}, updates);
}

}  // namespace floe::iceberg
