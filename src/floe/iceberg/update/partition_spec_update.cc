#include "floe/iceberg/update/partition_spec_update.h"

#include <algorithm>

#include "floe/base/strings.h"

namespace floe::iceberg {

std::string DefaultPartitionFieldName(const std::string& source_name, const Transform& transform) {
  switch (transform.type()) {
    case TransformType::kIdentity:
      return source_name;
    case TransformType::kBucket:
      return source_name + "_bucket";
    case TransformType::kTruncate:
      return source_name + "_trunc";
    case TransformType::kYear:
      return source_name + "_year";
    case TransformType::kMonth:
      return source_name + "_month";
    case TransformType::kDay:
      return source_name + "_day";
    case TransformType::kHour:
      return source_name + "_hour";
    case TransformType::kVoid:
      return source_name + "_null";
    case TransformType::kUnknown:
      break;
  }
  return source_name + "_" + transform.ToString();
}

PartitionSpecUpdate::PartitionSpecUpdate(std::vector<PartitionSpec> specs, PartitionSpec base, Schema schema,
                                         int32_t last_partition_id, int format_version)
    : specs_(std::move(specs)),
      spec_(std::move(base)),
      schema_(std::move(schema)),
      last_partition_id_(std::max(last_partition_id, spec_.LastAssignedFieldId())),
      format_version_(format_version) {}

void PartitionSpecUpdate::Fail(std::string message) {
  if (error_.ok()) error_ = Status::InvalidArgument(std::move(message));
}

PartitionSpecUpdate& PartitionSpecUpdate::AddField(const std::string& source_name, const Transform& transform,
                                                   std::string name) {
  const NestedField* source = schema_.FindFieldByName(source_name);
  if (source == nullptr) {
    Fail(StrCat("cannot partition by '", source_name, "': no such column"));
    return *this;
  }
  if (!transform.CanTransform(*source->type)) {
    Fail(StrCat("cannot partition by ", transform.ToString(), "(", source_name, "): not defined for ",
                source->type->ToString()));
    return *this;
  }
  if (name.empty()) name = DefaultPartitionFieldName(source_name, transform);
  for (const PartitionField& field : spec_.fields) {
    if (field.source_ids == std::vector<int32_t>{source->field_id} && field.transform == transform) {
      Fail(StrCat("the spec already partitions by ", transform.ToString(), "(", source_name, ") as '", field.name, "'"));
      return *this;
    }
    if (field.name == name) {
      // A v1 void field keeps its name; reusing it would clash.
      Fail(StrCat("the spec already has a partition field named '", name, "'"));
      return *this;
    }
  }
  // Reuse the id of the same field in an earlier spec (Java recycles them).
  int32_t field_id = 0;
  for (const PartitionSpec& spec : specs_) {
    for (const PartitionField& field : spec.fields) {
      if (field.source_ids == std::vector<int32_t>{source->field_id} && field.transform == transform) {
        field_id = field.field_id;
      }
    }
  }
  if (field_id == 0 || format_version_ == 1) field_id = ++last_partition_id_;
  spec_.fields.push_back(PartitionField{{source->field_id}, field_id, std::move(name), transform});
  return *this;
}

PartitionSpecUpdate& PartitionSpecUpdate::RemoveField(const std::string& name) {
  auto it = std::find_if(spec_.fields.begin(), spec_.fields.end(),
                         [&](const PartitionField& f) { return f.name == name && !f.transform.is_void(); });
  if (it == spec_.fields.end()) {
    Fail(StrCat("cannot remove partition field '", name, "': no such field"));
    return *this;
  }
  if (format_version_ == 1) {
    it->transform = Transform::Void();
  } else {
    spec_.fields.erase(it);
  }
  return *this;
}

PartitionSpecUpdate& PartitionSpecUpdate::RenameField(const std::string& name, const std::string& new_name) {
  auto it = std::find_if(spec_.fields.begin(), spec_.fields.end(), [&](const PartitionField& f) { return f.name == name; });
  if (it == spec_.fields.end()) {
    Fail(StrCat("cannot rename partition field '", name, "': no such field"));
    return *this;
  }
  for (const PartitionField& f : spec_.fields) {
    if (f.name == new_name) {
      Fail(StrCat("cannot rename partition field '", name, "' to '", new_name, "': the name is taken"));
      return *this;
    }
  }
  it->name = new_name;
  return *this;
}

Result<PartitionSpecUpdate::Applied> PartitionSpecUpdate::Apply() const {
  FLOE_RETURN_IF_ERROR(error_);
  FLOE_RETURN_IF_ERROR(ValidatePartitionSpec(spec_, schema_));
  return Applied{spec_, last_partition_id_};
}

}  // namespace floe::iceberg
