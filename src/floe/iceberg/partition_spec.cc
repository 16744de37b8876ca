#include "floe/iceberg/partition_spec.h"

#include <algorithm>

#include "floe/base/strings.h"

namespace floe::iceberg {

bool PartitionSpec::is_unpartitioned() const {
  return std::all_of(fields.begin(), fields.end(), [](const PartitionField& f) { return f.transform.is_void(); });
}

int32_t PartitionSpec::LastAssignedFieldId() const {
  int32_t last = kUnpartitionedLastAssignedId;
  for (const auto& f : fields) last = std::max(last, f.field_id);
  return last;
}

namespace {

Result<TypePtr> FieldResultType(const PartitionField& field, const Schema& schema) {
  if (field.source_ids.empty()) {
    return Status::InvalidArgument(StrCat("partition field ", Quote(field.name), ": no source column"));
  }
  for (int32_t id : field.source_ids) {
    if (schema.FindFieldById(id) == nullptr) {
      return Status::InvalidArgument(
          StrCat("partition field ", Quote(field.name), ": source column ", id, " is not in the schema"));
    }
  }
  if (field.transform.is_unknown()) return Type::Unknown();
  if (field.source_ids.size() > 1) {
    return Status::InvalidArgument(StrCat("partition field ", Quote(field.name), ": transform ",
                                          Quote(field.transform.ToString()), " takes one source column, not ",
                                          field.source_ids.size()));
  }
  const NestedField* source = schema.FindFieldById(field.source_ids[0]);
  auto type = field.transform.ResultType(source->type);
  if (!type.ok()) return type.status().WithContext(StrCat("partition field ", Quote(field.name)));
  return type;
}

}  // namespace

Result<TypePtr> PartitionSpec::PartitionType(const Schema& schema) const {
  std::vector<NestedField> out;
  out.reserve(fields.size());
  for (const auto& f : fields) {
    FLOE_ASSIGN_OR_RETURN(TypePtr type, FieldResultType(f, schema));
    out.push_back(NestedField{f.field_id, f.name, std::move(type), false, {}, {}, {}});
  }
  return Type::Struct(std::move(out));
}

Status ValidatePartitionSpec(const PartitionSpec& spec, const Schema& schema) {
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const PartitionField& f = spec.fields[i];
    if (f.name.empty()) return Status::InvalidArgument(StrCat("partition field ", f.field_id, ": empty name"));
    for (size_t j = 0; j < i; ++j) {
      if (spec.fields[j].field_id == f.field_id) {
        return Status::InvalidArgument(StrCat("partition field id ", f.field_id, " appears twice"));
      }
      if (spec.fields[j].name == f.name) {
        return Status::InvalidArgument(StrCat("partition field name ", Quote(f.name), " appears twice"));
      }
    }
    FLOE_RETURN_IF_ERROR(FieldResultType(f, schema));
  }
  return Status::OK();
}

}  // namespace floe::iceberg
