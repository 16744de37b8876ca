#include "floe/iceberg/scan/column_projection.h"

#include <memory>
#include <utility>
#include <vector>

#include "floe/base/strings.h"
#include "floe/columnar/builder.h"
#include "floe/iceberg/default_value.h"
#include "floe/iceberg/schema.h"

namespace floe::iceberg {
namespace {

template <typename T, typename B>
Result<Array> Repeat(B* builder, T value, int64_t length) {
  FLOE_RETURN_IF_ERROR(builder->Reserve(length));
  for (int64_t i = 0; i < length; ++i) builder->UnsafeAppend(value);
  return builder->Finish();
}

// A copy of `column` with another type and children (the buffers are shared).
Array WithChildren(const Array& column, const floe::TypePtr& type, std::vector<std::shared_ptr<const ArrayData>> children) {
  const ArrayData& d = *column.data();
  return Array(std::make_shared<ArrayData>(type, d.length, d.buffers, std::move(children), d.GetNullCount(), d.offset));
}

// The file's primitive column as the table's type: the same, or a promotion
// the spec allows.
Result<Array> Widen(const Array& column, const floe::TypePtr& type, const std::string& name) {
  if (floe::TypeEquals(column.type(), type)) return column;
  const int64_t n = column.length();
  const bool nulls = column.null_count() > 0;
  auto widen = [&](auto& builder, auto convert) -> Result<Array> {
    FLOE_RETURN_IF_ERROR(builder.Reserve(n));
    for (int64_t i = 0; i < n; ++i) {
      if (nulls && column.IsNull(i)) {
        FLOE_RETURN_IF_ERROR(builder.AppendNull());
      } else {
        builder.UnsafeAppend(convert(i));
      }
    }
    return builder.Finish();
  };
  if (column.type_id() == floe::TypeId::kInt32 && type->id() == floe::TypeId::kInt64) {
    Int64Builder builder;
    const int32_t* v = column.Values<int32_t>();
    return widen(builder, [&](int64_t i) { return int64_t{v[i]}; });
  }
  if (column.type_id() == floe::TypeId::kFloat32 && type->id() == floe::TypeId::kFloat64) {
    Float64Builder builder;
    const float* v = column.Values<float>();
    return widen(builder, [&](int64_t i) { return double{v[i]}; });
  }
  if (column.type_id() == floe::TypeId::kDecimal128 && type->id() == floe::TypeId::kDecimal128 &&
      column.type()->scale() == type->scale() && column.type()->precision() <= type->precision()) {
    PrimitiveBuilder<Decimal128Value> builder(type);
    return widen(builder, [&](int64_t i) { return column.GetDecimal128(i); });
  }
  // spec: a uuid is a 16-byte fixed_len_byte_array in Parquet; some writers
  // (PyIceberg) leave out the UUID annotation. The layout is the same.
  if (column.type_id() == floe::TypeId::kFixedSizeBinary && type->id() == floe::TypeId::kUuid &&
      column.type()->byte_width() == 16) {
    return WithChildren(column, type, {});
  }
  return Status::InvalidArgument(StrCat("column ", Quote(name), ": the file's type ", column.type()->ToString(),
                                        " cannot be read as ", type->ToString()));
}

Status CannotRead(const Array& column, const floe::TypePtr& type, const NestedField& field) {
  return Status::InvalidArgument(StrCat("column ", Quote(field.name), ": the file's type ",
                                        column.type()->ToString(), " cannot be read as ", type->ToString()));
}

const MappedField* ChildMapping(const MappedField* parent, int32_t field_id) {
  if (parent == nullptr) return nullptr;
  for (const MappedField& f : parent->fields) {
    if (f.field_id == field_id) return &f;
  }
  return nullptr;
}

}  // namespace

ColumnProjection::ColumnProjection(bool file_has_ids, const NameMapping* mapping,
                                   std::map<int32_t, std::optional<Literal>> constants)
    : file_has_ids_(file_has_ids), mapping_(mapping), constants_(std::move(constants)) {}

const MappedField* ColumnProjection::TopLevelMapping(int32_t field_id) const {
  if (mapping_ == nullptr) return nullptr;
  for (const MappedField& f : mapping_->fields) {
    if (f.field_id == field_id) return &f;
  }
  return nullptr;
}

Result<Array> ColumnProjection::Project(const Array* column, const NestedField& field, const floe::TypePtr& type,
                                        const MappedField* mapped, int64_t length) const {
  if (column == nullptr) return Missing(field, type, length);
  if (floe::HasDictionary(column->type())) {
    // Dictionary encoding is the reader's layout, not a type of the table:
    // the table's columnar types have none, so the values are read out.
    FLOE_ASSIGN_OR_RETURN(const Array decoded, floe::DecodeDictionaries(*column));
    return Project(&decoded, field, type, mapped, length);
  }
  if (floe::TypeEquals(column->type(), type)) return *column;
  switch (field.type->id()) {
    case TypeId::kStruct: {
      if (column->type_id() != floe::TypeId::kStruct) return CannotRead(*column, type, field);
      return ProjectStruct(*column, field, type, mapped);
    }
    case TypeId::kList: {
      if (column->type_id() != floe::TypeId::kList) return CannotRead(*column, type, field);
      // Offsets index the unsliced values: project all of them.
      const Array values = column->list_values();
      const NestedField& element = field.type->element_field();
      FLOE_ASSIGN_OR_RETURN(Array projected, Project(&values, element, type->item_field().type,
                                                     ChildMapping(mapped, element.field_id), values.length()));
      return WithChildren(*column, type, {projected.data()});
    }
    case TypeId::kMap: {
      if (column->type_id() != floe::TypeId::kMap) return CannotRead(*column, type, field);
      const Array entries = column->list_values();
      const Array keys = entries.field(0);
      const Array values = entries.field(1);
      const NestedField& key = field.type->key_field();
      const NestedField& value = field.type->value_field();
      FLOE_ASSIGN_OR_RETURN(Array k, Project(&keys, key, type->key_field().type, ChildMapping(mapped, key.field_id),
                                             keys.length()));
      FLOE_ASSIGN_OR_RETURN(Array v, Project(&values, value, type->value_field().type,
                                             ChildMapping(mapped, value.field_id), values.length()));
      const floe::TypePtr& entries_type = type->field(0).type;
      Array projected_entries(std::make_shared<ArrayData>(entries_type, keys.length(),
                                                          std::vector<Buffer>{Buffer()},
                                                          std::vector<std::shared_ptr<const ArrayData>>{k.data(), v.data()},
                                                          0));
      return WithChildren(*column, type, {projected_entries.data()});
    }
    default: return Widen(*column, type, field.name);
  }
}

int ColumnProjection::FindChild(const floe::DataType& file_struct, const NestedField& child,
                                const MappedField* mapped_child) const {
  for (int i = 0; i < file_struct.num_fields(); ++i) {
    const floe::Field& f = file_struct.field(i);
    if (file_has_ids_) {
      if (f.field_id == child.field_id) return i;
      continue;
    }
    if (mapping_ != nullptr) {
      // spec: with a name mapping, only the names it lists match.
      if (mapped_child == nullptr) continue;
      for (const std::string& name : mapped_child->names) {
        if (name == f.name) return i;
      }
    } else if (f.name == child.name) {
      return i;
    }
  }
  return -1;
}

Result<Array> ColumnProjection::ProjectStruct(const Array& column, const NestedField& field,
                                              const floe::TypePtr& type, const MappedField* mapped) const {
  // Children are indexed like their parent (offset included): work on the
  // first offset + length elements of each, unsliced.
  const int64_t total = column.offset() + column.length();
  std::vector<std::shared_ptr<const ArrayData>> children;
  const auto& fields = field.type->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    const NestedField& child = fields[i];
    const MappedField* mapped_child = ChildMapping(mapped, child.field_id);
    const int c = FindChild(*column.type(), child, mapped_child);
    const floe::TypePtr& child_type = type->field(static_cast<int>(i)).type;
    if (c < 0) {
      FLOE_ASSIGN_OR_RETURN(Array missing, Missing(child, child_type, total));
      children.push_back(missing.data());
      continue;
    }
    Array file_child(column.data()->children[static_cast<size_t>(c)]);
    if (file_child.length() > total) file_child = file_child.Slice(0, total);
    FLOE_ASSIGN_OR_RETURN(Array projected, Project(&file_child, child, child_type, mapped_child, total));
    children.push_back(projected.data());
  }
  return WithChildren(column, type, std::move(children));
}

Result<Array> ColumnProjection::Missing(const NestedField& field, const floe::TypePtr& type, int64_t length) const {
  if (auto it = constants_.find(field.field_id); it != constants_.end() && field.type->is_primitive()) {
    return ConstantArray(it->second, type, length);
  }
  if (!field.initial_default.has_value()) return MakeArrayOfNull(type, length);
  if (field.type->id() == TypeId::kStruct) {
    // spec: a struct's default is `{}`; its fields take their own defaults.
    if (*field.initial_default != "{}") {
      return Status::Unsupported(StrCat("field ", Quote(field.name), ": struct default ", *field.initial_default));
    }
    std::vector<std::shared_ptr<const ArrayData>> children;
    const auto& fields = field.type->fields();
    for (size_t i = 0; i < fields.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(Array child, Missing(fields[i], type->field(static_cast<int>(i)).type, length));
      children.push_back(child.data());
    }
    return Array(std::make_shared<ArrayData>(type, length, std::vector<Buffer>{Buffer()}, std::move(children), 0));
  }
  auto value = ParseDefaultValue(field.type, *field.initial_default);
  if (!value.ok()) {
    return Status(value.status().code(), StrCat("field ", Quote(field.name), ": ", value.status().message()));
  }
  return ConstantArray(*value, type, length);
}

std::map<int32_t, std::optional<Literal>> IdentityPartitionValues(const PartitionSpec& spec, const Schema& schema,
                                                                  const PartitionValues& partition) {
  std::map<int32_t, std::optional<Literal>> values;
  for (size_t i = 0; i < spec.fields.size() && i < partition.size(); ++i) {
    const PartitionField& pf = spec.fields[i];
    if (pf.transform != Transform::Identity()) continue;
    const NestedField* source = schema.FindFieldById(pf.source_id());
    if (source == nullptr || !source->type->is_primitive()) continue;
    if (!partition[i].has_value()) {
      values[pf.source_id()] = std::nullopt;
      continue;
    }
    if (TypeEquals(partition[i]->type(), source->type)) {
      values[pf.source_id()] = partition[i];
    } else if (auto cast = partition[i]->CastTo(source->type); cast.ok()) {
      values[pf.source_id()] = std::move(*cast);
    }
  }
  return values;
}

Result<Array> ConstantArray(const std::optional<Literal>& value, const floe::TypePtr& type, int64_t length) {
  if (!value.has_value()) return MakeArrayOfNull(type, length);
  const Literal& v = *value;
  switch (type->id()) {
    case floe::TypeId::kBool: {
      BoolBuilder b;
      return Repeat(&b, v.bool_value(), length);
    }
    case floe::TypeId::kInt32:
    case floe::TypeId::kDate32: {
      PrimitiveBuilder<int32_t> b(type);
      return Repeat(&b, v.int_value(), length);
    }
    case floe::TypeId::kInt64:
    case floe::TypeId::kTime64:
    case floe::TypeId::kTimestamp: {
      PrimitiveBuilder<int64_t> b(type);
      return Repeat(&b, v.long_value(), length);
    }
    case floe::TypeId::kFloat32: {
      Float32Builder b;
      return Repeat(&b, v.float_value(), length);
    }
    case floe::TypeId::kFloat64: {
      Float64Builder b;
      return Repeat(&b, v.double_value(), length);
    }
    case floe::TypeId::kDecimal128: {
      PrimitiveBuilder<Decimal128Value> b(type);
      return Repeat(&b, v.decimal_value(), length);
    }
    case floe::TypeId::kString:
    case floe::TypeId::kBinary: {
      auto builder = MakeBuilder(type);
      auto* b = builder->As<BinaryBuilder>();
      FLOE_RETURN_IF_ERROR(b->Reserve(length));
      FLOE_RETURN_IF_ERROR(b->ReserveData(length * static_cast<int64_t>(v.bytes().size())));
      for (int64_t i = 0; i < length; ++i) b->UnsafeAppend(v.bytes());
      return b->Finish();
    }
    case floe::TypeId::kFixedSizeBinary:
    case floe::TypeId::kUuid: {
      FixedSizeBinaryBuilder b(type);
      if (static_cast<int64_t>(v.bytes().size()) != b.byte_width()) {
        return Status::InvalidArgument(StrCat("constant of ", v.bytes().size(), " bytes for ", type->ToString()));
      }
      return Repeat(&b, static_cast<const void*>(v.bytes().data()), length);
    }
    default: return Status::InvalidArgument(StrCat("no constant column of type ", type->ToString()));
  }
}

}  // namespace floe::iceberg
