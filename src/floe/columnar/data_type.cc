#include "floe/columnar/data_type.h"

#include "floe/base/strings.h"
#include "floe/columnar/c_data_metadata.h"

namespace floe {

std::string_view TimeUnitSuffix(TimeUnit unit) { return unit == TimeUnit::kMicro ? "us" : "ns"; }

std::string Field::ToString() const {
  std::string out = name + ": " + (type ? type->ToString() : "<no type>");
  if (!nullable) out += " not null";
  return out;
}

bool Field::Equals(const Field& other) const {
  return name == other.name && nullable == other.nullable && field_id == other.field_id &&
         metadata == other.metadata && TypeEquals(type, other.type);
}

bool IsJsonTextField(const Field& field) {
  if (field.type == nullptr || field.type->id() != TypeId::kString) return false;
  for (const auto& [key, value] : field.metadata) {
    if (key == c_data::kExtensionNameKey) return value == c_data::kJsonExtensionName;
  }
  return false;
}

Field MarkJsonText(Field field) {
  if (IsJsonTextField(field)) return field;
  std::erase_if(field.metadata, [](const auto& kv) {
    return kv.first == c_data::kExtensionNameKey || kv.first == c_data::kExtensionMetadataKey;
  });
  // The extension has no parameters: its metadata is empty.
  field.metadata.emplace_back(std::string(c_data::kExtensionNameKey), std::string(c_data::kJsonExtensionName));
  field.metadata.emplace_back(std::string(c_data::kExtensionMetadataKey), "");
  return field;
}

bool TypeEquals(const TypePtr& a, const TypePtr& b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  return a->Equals(*b);
}

int32_t DataType::ByteWidthOf(TypeId id) {
  switch (id) {
    case TypeId::kInt8:
    case TypeId::kUInt8:
      return 1;
    case TypeId::kInt16:
    case TypeId::kUInt16:
      return 2;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32:
      return 4;
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return 8;
    case TypeId::kDecimal128:
    case TypeId::kInterval:
    case TypeId::kUuid:
      return 16;
    case TypeId::kFixedSizeBinary:  // set by the factory
    case TypeId::kNull:
    case TypeId::kBool:
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kStruct:
    case TypeId::kDictionary:  // its buffer holds indices, not values
      return -1;
  }
  return -1;
}

#define FLOE_SINGLETON_TYPE_(Name, id)                                                  \
  TypePtr DataType::Name() {                                                            \
    static const TypePtr kType = std::make_shared<const DataType>(Passkey{}, TypeId::id); \
    return kType;                                                                       \
  }

FLOE_SINGLETON_TYPE_(Null, kNull)
FLOE_SINGLETON_TYPE_(Bool, kBool)
FLOE_SINGLETON_TYPE_(Int8, kInt8)
FLOE_SINGLETON_TYPE_(Int16, kInt16)
FLOE_SINGLETON_TYPE_(Int32, kInt32)
FLOE_SINGLETON_TYPE_(Int64, kInt64)
FLOE_SINGLETON_TYPE_(UInt8, kUInt8)
FLOE_SINGLETON_TYPE_(UInt16, kUInt16)
FLOE_SINGLETON_TYPE_(UInt32, kUInt32)
FLOE_SINGLETON_TYPE_(UInt64, kUInt64)
FLOE_SINGLETON_TYPE_(Float32, kFloat32)
FLOE_SINGLETON_TYPE_(Float64, kFloat64)
FLOE_SINGLETON_TYPE_(Date32, kDate32)
FLOE_SINGLETON_TYPE_(Utf8, kString)
FLOE_SINGLETON_TYPE_(Binary, kBinary)
FLOE_SINGLETON_TYPE_(Uuid, kUuid)
FLOE_SINGLETON_TYPE_(Interval, kInterval)

#undef FLOE_SINGLETON_TYPE_

Result<TypePtr> DataType::Decimal128(int32_t precision, int32_t scale) {
  if (precision < 1 || precision > 38) {
    return Status::InvalidArgument(StrCat("decimal precision ", precision, " is outside 1..38"));
  }
  if (scale < 0 || scale > precision) {
    return Status::InvalidArgument(
        StrCat("decimal(", precision, ",", scale, "): scale ", scale, " is outside 0..", precision));
  }
  auto type = std::make_shared<DataType>(Passkey{}, TypeId::kDecimal128);
  type->precision_ = precision;
  type->scale_ = scale;
  return TypePtr(std::move(type));
}

TypePtr DataType::Time64(TimeUnit unit) {
  auto type = std::make_shared<DataType>(Passkey{}, TypeId::kTime64);
  type->unit_ = unit;
  return type;
}

TypePtr DataType::Timestamp(TimeUnit unit, std::string timezone) {
  auto type = std::make_shared<DataType>(Passkey{}, TypeId::kTimestamp);
  type->unit_ = unit;
  type->timezone_ = std::move(timezone);
  return type;
}

Result<TypePtr> DataType::FixedSizeBinary(int32_t byte_width) {
  if (byte_width < 0) return Status::InvalidArgument(StrCat("fixed_size_binary width ", byte_width, " is negative"));
  auto type = std::make_shared<DataType>(Passkey{}, TypeId::kFixedSizeBinary);
  type->byte_width_ = byte_width;
  return TypePtr(std::move(type));
}

TypePtr DataType::List(Field item) {
  auto type = std::make_shared<DataType>(Passkey{}, TypeId::kList);
  type->fields_.push_back(std::move(item));
  return type;
}

TypePtr DataType::List(TypePtr item_type) { return List(Field("item", std::move(item_type))); }

Result<TypePtr> DataType::Map(Field key, Field value, bool keys_sorted) {
  if (key.nullable) return Status::InvalidArgument(StrCat("map key field ", Quote(key.name), " must not be nullable"));
  auto type = std::make_shared<DataType>(Passkey{}, TypeId::kMap);
  std::vector<Field> entries;
  entries.push_back(std::move(key));
  entries.push_back(std::move(value));
  type->fields_.emplace_back("entries", Struct(std::move(entries)), /*nullable=*/false);
  type->keys_sorted_ = keys_sorted;
  return TypePtr(std::move(type));
}

TypePtr DataType::Map(TypePtr key_type, TypePtr value_type, bool keys_sorted) {
  return Map(Field("key", std::move(key_type), /*nullable=*/false), Field("value", std::move(value_type)),
             keys_sorted)
      .value();
}

TypePtr DataType::Struct(std::vector<Field> fields) {
  auto type = std::make_shared<DataType>(Passkey{}, TypeId::kStruct);
  type->fields_ = std::move(fields);
  return type;
}

Result<TypePtr> DataType::Dictionary(TypePtr value_type) {
  if (value_type == nullptr) return Status::InvalidArgument("dictionary value type is missing");
  if (value_type->id() != TypeId::kString && value_type->id() != TypeId::kBinary) {
    return Status::InvalidArgument(
        StrCat("dictionary value type ", value_type->ToString(), " is not string or binary"));
  }
  auto type = std::make_shared<DataType>(Passkey{}, TypeId::kDictionary);
  type->value_type_ = std::move(value_type);
  return TypePtr(std::move(type));
}

std::string DataType::ToString() const {
  switch (id_) {
    case TypeId::kNull:
      return "null";
    case TypeId::kBool:
      return "bool";
    case TypeId::kInt8:
      return "int8";
    case TypeId::kInt16:
      return "int16";
    case TypeId::kInt32:
      return "int32";
    case TypeId::kInt64:
      return "int64";
    case TypeId::kUInt8:
      return "uint8";
    case TypeId::kUInt16:
      return "uint16";
    case TypeId::kUInt32:
      return "uint32";
    case TypeId::kUInt64:
      return "uint64";
    case TypeId::kFloat32:
      return "float32";
    case TypeId::kFloat64:
      return "float64";
    case TypeId::kDecimal128:
      return StrCat("decimal(", precision_, ",", scale_, ")");
    case TypeId::kDate32:
      return "date32";
    case TypeId::kTime64:
      return StrCat("time64[", TimeUnitSuffix(unit_), "]");
    case TypeId::kTimestamp:
      if (timezone_.empty()) return StrCat("timestamp[", TimeUnitSuffix(unit_), "]");
      return StrCat("timestamp[", TimeUnitSuffix(unit_), ", tz=", timezone_, "]");
    case TypeId::kInterval:
      return "interval";
    case TypeId::kString:
      return "string";
    case TypeId::kBinary:
      return "binary";
    case TypeId::kFixedSizeBinary:
      return StrCat("fixed_size_binary[", byte_width_, "]");
    case TypeId::kUuid:
      return "uuid";
    case TypeId::kList:
      return "list<" + item_field().ToString() + ">";
    case TypeId::kMap: {
      std::string out = "map<" + key_field().type->ToString() + ", " + value_field().type->ToString();
      if (!value_field().nullable) out += " not null";
      if (keys_sorted_) out += ", keys_sorted";
      return out + ">";
    }
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i > 0) out += ", ";
        out += fields_[i].ToString();
      }
      return out + ">";
    }
    case TypeId::kDictionary: return "dictionary<" + value_type_->ToString() + ">";
  }
  return "<unknown type>";
}

bool DataType::Equals(const DataType& other) const {
  if (this == &other) return true;
  return id_ == other.id_ && precision_ == other.precision_ && scale_ == other.scale_ &&
         byte_width_ == other.byte_width_ && unit_ == other.unit_ && keys_sorted_ == other.keys_sorted_ &&
         timezone_ == other.timezone_ && fields_ == other.fields_ && TypeEquals(value_type_, other.value_type_);
}

bool HasDictionary(const TypePtr& type) {
  if (type->id() == TypeId::kDictionary) return true;
  for (const Field& field : type->fields()) {
    if (HasDictionary(field.type)) return true;
  }
  return false;
}

TypePtr WithoutDictionaries(const TypePtr& type) {
  if (!HasDictionary(type)) return type;
  if (type->id() == TypeId::kDictionary) return type->value_type();
  switch (type->id()) {
    case TypeId::kList: {
      Field item = type->item_field();
      item.type = WithoutDictionaries(item.type);
      return DataType::List(std::move(item));
    }
    case TypeId::kMap: {
      Field key = type->key_field();
      Field value = type->value_field();
      key.type = WithoutDictionaries(key.type);
      value.type = WithoutDictionaries(value.type);
      // The key stays non-nullable, so the factory cannot fail.
      return DataType::Map(std::move(key), std::move(value), type->keys_sorted()).value();
    }
    default: {  // struct, the only other type with fields
      std::vector<Field> fields = type->fields();
      for (Field& field : fields) field.type = WithoutDictionaries(field.type);
      return DataType::Struct(std::move(fields));
    }
  }
}

int Schema::FieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::string Schema::ToString() const {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ", ";
    out += fields[i].ToString();
  }
  return out;
}

}  // namespace floe
