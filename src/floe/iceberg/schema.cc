#include "floe/iceberg/schema.h"

#include <algorithm>
#include <cctype>

#include "floe/base/strings.h"

namespace floe::iceberg {

struct Schema::Index {
  std::unordered_map<int32_t, const NestedField*> by_id;
  std::unordered_map<int32_t, std::string> name_by_id;
  std::unordered_map<std::string, const NestedField*> by_name;
  // Lower-cased names; nullptr marks names that collide case-insensitively.
  std::unordered_map<std::string, const NestedField*> by_lower_name;
  // Whether each field may act as an identifier field (see Make()).
  std::unordered_map<int32_t, bool> identifiable;
};

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Status IndexFields(const std::vector<NestedField>& fields, const std::string& prefix, bool identifiable_path,
                   bool check_names, void* index_ptr, int32_t* highest) {
  auto* index = static_cast<Schema::Index*>(index_ptr);
  std::vector<std::string_view> names;
  for (const NestedField& f : fields) {
    if (!f.type) return Status::InvalidArgument(StrCat("field ", f.field_id, ": no type"));
    if (f.field_id < 0) {
      return Status::InvalidArgument(StrCat("field ", Quote(f.name), ": id ", f.field_id, " is negative"));
    }
    if (check_names) {
      if (f.name.empty()) return Status::InvalidArgument(StrCat("field ", f.field_id, ": empty name"));
      if (std::find(names.begin(), names.end(), f.name) != names.end()) {
        return Status::InvalidArgument(StrCat("field name ", Quote(prefix + f.name), " appears twice"));
      }
      names.push_back(f.name);
    }
    if (!index->by_id.emplace(f.field_id, &f).second) {
      return Status::InvalidArgument(StrCat("field id ", f.field_id, " appears twice"));
    }
    *highest = std::max(*highest, f.field_id);
    const std::string full = prefix + f.name;
    index->name_by_id[f.field_id] = full;
    index->by_name.emplace(full, &f);
    auto [it, inserted] = index->by_lower_name.emplace(Lower(full), &f);
    if (!inserted) it->second = nullptr;
    const bool float_like = f.type->id() == TypeId::kFloat || f.type->id() == TypeId::kDouble;
    index->identifiable[f.field_id] = identifiable_path && f.required && f.type->is_primitive() && !float_like &&
                                      f.type->id() != TypeId::kVariant && f.type->id() != TypeId::kUnknown;
    if (f.type->is_nested()) {
      // spec: identifier fields may be nested in structs, "but cannot be
      // nested within maps or lists"; a struct parent must be required.
      const bool child_identifiable = identifiable_path && f.required && f.type->id() == TypeId::kStruct;
      FLOE_RETURN_IF_ERROR(IndexFields(f.type->fields(), full + ".", child_identifiable,
                                       f.type->id() == TypeId::kStruct, index, highest));
    }
  }
  return Status::OK();
}

}  // namespace

Schema::Schema() : schema_id_(kInitialSchemaId), struct_(Type::Struct({})), index_(std::make_shared<const Index>()) {}

Schema::Schema(int32_t schema_id, TypePtr as_struct, std::vector<int32_t> identifier_field_ids,
               std::shared_ptr<const Index> index, int32_t highest_field_id)
    : schema_id_(schema_id),
      struct_(std::move(as_struct)),
      identifier_field_ids_(std::move(identifier_field_ids)),
      index_(std::move(index)),
      highest_field_id_(highest_field_id) {}

Result<Schema> Schema::Make(int32_t schema_id, std::vector<NestedField> fields,
                            std::vector<int32_t> identifier_field_ids) {
  TypePtr as_struct = Type::Struct(std::move(fields));
  auto index = std::make_shared<Index>();
  int32_t highest = 0;
  FLOE_RETURN_IF_ERROR(IndexFields(as_struct->fields(), "", true, true, index.get(), &highest));
  for (size_t i = 0; i < identifier_field_ids.size(); ++i) {
    const int32_t id = identifier_field_ids[i];
    if (std::find(identifier_field_ids.begin(), identifier_field_ids.begin() + static_cast<long>(i), id) !=
        identifier_field_ids.begin() + static_cast<long>(i)) {
      return Status::InvalidArgument(StrCat("identifier field id ", id, " appears twice"));
    }
    auto it = index->identifiable.find(id);
    if (it == index->identifiable.end()) {
      return Status::InvalidArgument(StrCat("identifier field id ", id, " is not a field of the schema"));
    }
    if (!it->second) {
      return Status::InvalidArgument(StrCat("identifier field ", Quote(index->name_by_id[id]),
                                            " must be a required primitive, not float or double, and not "
                                            "inside an optional struct, a list or a map"));
    }
  }
  return Schema(schema_id, std::move(as_struct), std::move(identifier_field_ids), std::move(index), highest);
}

const NestedField* Schema::FindFieldById(int32_t field_id) const {
  auto it = index_->by_id.find(field_id);
  return it == index_->by_id.end() ? nullptr : it->second;
}

const NestedField* Schema::FindFieldByName(std::string_view name, bool case_sensitive) const {
  if (case_sensitive) {
    auto it = index_->by_name.find(std::string(name));
    return it == index_->by_name.end() ? nullptr : it->second;
  }
  auto it = index_->by_lower_name.find(Lower(name));
  return it == index_->by_lower_name.end() ? nullptr : it->second;
}

std::string Schema::FindColumnName(int32_t field_id) const {
  auto it = index_->name_by_id.find(field_id);
  return it == index_->name_by_id.end() ? std::string() : it->second;
}

bool Schema::operator==(const Schema& other) const {
  return schema_id_ == other.schema_id_ && identifier_field_ids_ == other.identifier_field_ids_ &&
         struct_->Equals(*other.struct_);
}

Result<floe::TypePtr> ToColumnarType(const Type& type) {
  switch (type.id()) {
    case TypeId::kBoolean: return DataType::Bool();
    case TypeId::kInt: return DataType::Int32();
    case TypeId::kLong: return DataType::Int64();
    case TypeId::kFloat: return DataType::Float32();
    case TypeId::kDouble: return DataType::Float64();
    case TypeId::kDecimal: return DataType::Decimal128(type.precision(), type.scale());
    case TypeId::kDate: return DataType::Date32();
    case TypeId::kTime: return DataType::Time64(TimeUnit::kMicro);
    case TypeId::kTimestamp: return DataType::Timestamp(TimeUnit::kMicro);
    case TypeId::kTimestampTz: return DataType::Timestamp(TimeUnit::kMicro, "UTC");
    case TypeId::kTimestampNs: return DataType::Timestamp(TimeUnit::kNano);
    case TypeId::kTimestampTzNs: return DataType::Timestamp(TimeUnit::kNano, "UTC");
    case TypeId::kString: return DataType::Utf8();
    case TypeId::kUuid: return DataType::Uuid();
    case TypeId::kFixed: return DataType::FixedSizeBinary(static_cast<int32_t>(type.length()));
    case TypeId::kBinary:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography: return DataType::Binary();
    case TypeId::kUnknown: return DataType::Null();
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: {
      std::vector<Field> children;
      for (const NestedField& f : type.fields()) {
        FLOE_ASSIGN_OR_RETURN(floe::TypePtr child, ToColumnarType(*f.type));
        KeyValueMetadata metadata;
        const TypeId id = f.type->id();
        if (id == TypeId::kVariant || id == TypeId::kGeometry || id == TypeId::kGeography) {
          metadata.emplace_back("iceberg.type", f.type->ToString());
        }
        children.emplace_back(f.name, std::move(child), !f.required, std::move(metadata), f.field_id);
      }
      if (type.id() == TypeId::kStruct) return DataType::Struct(std::move(children));
      if (type.id() == TypeId::kList) return DataType::List(std::move(children[0]));
      return DataType::Map(std::move(children[0]), std::move(children[1]));
    }
  }
  return Status::Internal("ToColumnarType: unhandled Iceberg type");
}

Result<floe::Schema> ToColumnarSchema(const Schema& schema) {
  FLOE_ASSIGN_OR_RETURN(floe::TypePtr as_struct, ToColumnarType(*schema.as_struct()));
  return floe::Schema(as_struct->fields());
}

}  // namespace floe::iceberg
