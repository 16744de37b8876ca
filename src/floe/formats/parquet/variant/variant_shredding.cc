#include "floe/formats/parquet/variant/variant_shredding.h"

#include <algorithm>
#include <string>

#include "floe/base/strings.h"
#include "floe/formats/parquet/variant/variant_decoder.h"

namespace floe::parquet {
namespace {

std::optional<int> FieldIndex(const DataType& group, std::string_view name) {
  const auto& fields = group.fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) return static_cast<int>(i);
  }
  return std::nullopt;
}

std::string Child(const std::string& path, std::string_view name) { return StrCat(path, ".", name); }

// spec: "Shredded Value Types", as floe's reader types those columns.
bool IsShreddedPrimitive(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBool:
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kDecimal128:
    case TypeId::kDate32:
    case TypeId::kTimestamp:
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kUuid: return true;
    case TypeId::kTime64: return type.unit() == TimeUnit::kMicro;
    default: return false;
  }
}

// Checks the type of a {value, typed_value} group, recursively, before any
// row is read: a typed_value of a type the spec does not allow makes the
// whole column unreadable, whatever its rows hold.
Status CheckShape(const DataType& group, const std::string& path, int depth) {
  if (depth > kMaxVariantDepth) return Status::Corrupt(StrCat(path, ": nesting too deep"));
  if (group.id() != TypeId::kStruct) {
    return Status::InvalidArgument(StrCat(path, ": a ", group.ToString(), ", not a group"));
  }
  const std::optional<int> value = FieldIndex(group, "value");
  const std::optional<int> typed_value = FieldIndex(group, "typed_value");
  if (value && group.field(*value).type->id() != TypeId::kBinary) {
    return Status::InvalidArgument(StrCat(path, ": value is ", group.field(*value).type->ToString(), ", not binary"));
  }
  if (!typed_value) {
    if (!value) return Status::InvalidArgument(StrCat(path, ": neither value nor typed_value"));
    return Status::OK();
  }
  const DataType& typed = *group.field(*typed_value).type;
  const std::string typed_path = Child(path, "typed_value");
  switch (typed.id()) {
    case TypeId::kStruct:
      for (const Field& f : typed.fields()) FLOE_RETURN_IF_ERROR(CheckShape(*f.type, Child(typed_path, f.name), depth + 1));
      return Status::OK();
    case TypeId::kList:
      return CheckShape(*typed.item_field().type, Child(Child(typed_path, "list"), "element"), depth + 1);
    default:
      if (IsShreddedPrimitive(typed)) return Status::OK();
      return Status::Unsupported(StrCat(typed_path, ": ", typed.ToString(), " is not a shredded variant type"));
  }
}

// The `value` and `typed_value` children of a variant group, a shredded
// object field or an array element (its shape checked); either may be
// absent from the schema.
struct Slot {
  std::optional<Array> value;
  std::optional<Array> typed_value;
};

Slot SlotOf(const Array& group) {
  Slot slot;
  if (auto i = FieldIndex(*group.type(), "value")) slot.value = group.field(*i);
  if (auto i = FieldIndex(*group.type(), "typed_value")) slot.typed_value = group.field(*i);
  return slot;
}

class Rebuilder {
 public:
  explicit Rebuilder(const VariantMetadata& metadata) : metadata_(metadata) {}

  // The value a slot (its shape checked) holds at index `i`; nullopt when
  // it is missing.
  Result<std::optional<VariantValue>> Build(const Slot& slot, int64_t i, const std::string& path) {
    const bool has_value = slot.value && slot.value->IsValid(i);
    const bool has_typed = slot.typed_value && slot.typed_value->IsValid(i);
    if (!has_typed) {
      if (!has_value) return std::optional<VariantValue>();
      return Decode(*slot.value, i, path);
    }
    const Array& typed = *slot.typed_value;
    const std::string typed_path = Child(path, "typed_value");
    if (typed.type_id() == TypeId::kStruct) return Object(slot, i, path);
    // spec: "Writers must not produce data where both value and
    // typed_value are non-null, unless the Variant value is an object."
    if (has_value) return Status::Corrupt(StrCat(path, ": conflicting value and typed_value"));
    if (typed.type_id() == TypeId::kList) return List(typed, i, typed_path);
    FLOE_ASSIGN_OR_RETURN(VariantValue v, Primitive(typed, i, typed_path));
    return std::optional<VariantValue>(std::move(v));
  }

 private:
  Result<std::optional<VariantValue>> Decode(const Array& value, int64_t i, const std::string& path) {
    auto decoded = DecodeVariant(metadata_, value.GetString(i));
    if (!decoded.ok()) return Status(decoded.status().code(), StrCat(path, ": ", decoded.status().message()));
    return std::optional<VariantValue>(std::move(*decoded));
  }

  // A shredded object: the fields present in typed_value, and those of a
  // partially shredded object's `value`.
  Result<std::optional<VariantValue>> Object(const Slot& slot, int64_t i, const std::string& path) {
    const Array& typed = *slot.typed_value;
    VariantValue object;
    object.kind = VariantKind::kObject;
    for (int k = 0; k < typed.num_fields(); ++k) {
      const std::string& name = typed.type()->field(k).name;
      const std::string field_path = Child(Child(path, "typed_value"), name);
      const Array group = typed.field(k);
      if (group.IsNull(i)) continue;
      FLOE_ASSIGN_OR_RETURN(std::optional<VariantValue> field, Build(SlotOf(group), i, field_path));
      if (field) object.fields.push_back(VariantField{name, std::move(*field)});
    }
    if (slot.value && slot.value->IsValid(i)) {
      FLOE_ASSIGN_OR_RETURN(std::optional<VariantValue> rest, Decode(*slot.value, i, path));
      if (rest->kind != VariantKind::kObject) {
        return Status::Corrupt(StrCat(path, ": non-object value with shredded fields"));
      }
      for (auto& [name, value] : rest->fields) {
        // spec: "The value column of a partially shredded object must never
        // contain fields represented by the Parquet columns in typed_value."
        if (FieldIndex(*typed.type(), name)) {
          return Status::Corrupt(StrCat(path, ": field ", Quote(name), " is both shredded and in value"));
        }
        object.fields.push_back(VariantField{std::move(name), std::move(value)});
      }
    }
    std::sort(object.fields.begin(), object.fields.end(),
              [](const VariantField& a, const VariantField& b) { return a.name < b.name; });
    return std::optional<VariantValue>(std::move(object));
  }

  Result<std::optional<VariantValue>> List(const Array& typed, int64_t i, const std::string& path) {
    const std::string element_path = Child(Child(path, "list"), "element");
    const Array elements = typed.list_values();
    const Slot element_slot = SlotOf(elements);
    const int32_t* offsets = typed.ValueOffsets();
    VariantValue array;
    array.kind = VariantKind::kArray;
    for (int64_t j = offsets[i]; j < offsets[i + 1]; ++j) {
      FLOE_ASSIGN_OR_RETURN(std::optional<VariantValue> element, Build(element_slot, j, element_path));
      // spec: "If a Variant is missing in a context where a value is
      // required, readers must return a Variant null" — an array element is
      // one (writers must not leave it missing, but readers read it so).
      array.elements.push_back(element ? std::move(*element) : VariantValue{});
    }
    return std::optional<VariantValue>(std::move(array));
  }

  // spec: "Shredded Value Types" table, read through floe's column types.
  static Result<VariantValue> Primitive(const Array& typed, int64_t i, const std::string& path) {
    VariantValue v;
    const DataType& type = *typed.type();
    auto integer = [&](VariantKind kind, __int128 value) {
      v.kind = kind;
      v.integer = value;
    };
    switch (type.id()) {
      case TypeId::kBool:
        v.kind = VariantKind::kBoolean;
        v.boolean = typed.GetBool(i);
        return v;
      case TypeId::kInt8: integer(VariantKind::kInt8, typed.Values<int8_t>()[i]); return v;
      case TypeId::kInt16: integer(VariantKind::kInt16, typed.Values<int16_t>()[i]); return v;
      case TypeId::kInt32: integer(VariantKind::kInt32, typed.Values<int32_t>()[i]); return v;
      case TypeId::kInt64: integer(VariantKind::kInt64, typed.Values<int64_t>()[i]); return v;
      case TypeId::kFloat32:
        v.kind = VariantKind::kFloat;
        v.number = typed.Values<float>()[i];
        return v;
      case TypeId::kFloat64:
        v.kind = VariantKind::kDouble;
        v.number = typed.Values<double>()[i];
        return v;
      case TypeId::kDecimal128: {
        // spec: decimal4 on INT32, decimal8 on INT64, decimal16 on binary:
        // the physical types a writer picks by precision (Decimal table).
        const int32_t p = type.precision();
        integer(p <= 9 ? VariantKind::kDecimal4 : p <= 18 ? VariantKind::kDecimal8 : VariantKind::kDecimal16,
                typed.GetDecimal128(i));
        v.scale = type.scale();
        return v;
      }
      case TypeId::kDate32: integer(VariantKind::kDate, typed.Values<int32_t>()[i]); return v;
      case TypeId::kTime64:
        if (type.unit() != TimeUnit::kMicro) break;
        integer(VariantKind::kTimeNtz, typed.Values<int64_t>()[i]);
        return v;
      case TypeId::kTimestamp: {
        const bool utc = !type.timezone().empty();
        const bool micros = type.unit() == TimeUnit::kMicro;
        integer(micros ? (utc ? VariantKind::kTimestamp : VariantKind::kTimestampNtz)
                       : (utc ? VariantKind::kTimestampNanos : VariantKind::kTimestampNtzNanos),
                typed.Values<int64_t>()[i]);
        return v;
      }
      case TypeId::kString:
        v.kind = VariantKind::kString;
        v.bytes.assign(typed.GetString(i));
        return v;
      case TypeId::kBinary:
        v.kind = VariantKind::kBinary;
        v.bytes.assign(typed.GetString(i));
        return v;
      case TypeId::kUuid:
        v.kind = VariantKind::kUuid;
        v.bytes.assign(typed.GetFixedSizeBinary(i));
        return v;
      default: break;
    }
    return Status::Unsupported(
        StrCat(path, ": ", type.ToString(), " is not a shredded variant type"));
  }

  const VariantMetadata& metadata_;
};

}  // namespace

Result<std::optional<VariantValue>> UnshredVariant(const Array& column, int64_t row) {
  const std::string path = "variant";
  if (column.type_id() != TypeId::kStruct) {
    return Status::InvalidArgument(StrCat("variant: a ", column.type()->ToString(), ", not a group"));
  }
  const std::optional<int> metadata_index = FieldIndex(*column.type(), "metadata");
  if (!metadata_index || column.type()->field(*metadata_index).type->id() != TypeId::kBinary) {
    return Status::InvalidArgument("variant: no binary metadata field");
  }
  FLOE_RETURN_IF_ERROR(CheckShape(*column.type(), path, 0));
  const Slot slot = SlotOf(column);
  if (column.IsNull(row)) return std::optional<VariantValue>();
  const Array metadata_column = column.field(*metadata_index);
  if (metadata_column.IsNull(row)) return Status::Corrupt("variant: metadata is null in a non-null variant");
  FLOE_ASSIGN_OR_RETURN(const VariantMetadata metadata, VariantMetadata::Parse(metadata_column.GetString(row)));
  Rebuilder rebuilder(metadata);
  FLOE_ASSIGN_OR_RETURN(std::optional<VariantValue> value, rebuilder.Build(slot, row, path));
  // spec: a missing value where one is required reads as the Variant null.
  if (!value) return std::optional<VariantValue>(VariantValue{});
  return value;
}

}  // namespace floe::parquet
