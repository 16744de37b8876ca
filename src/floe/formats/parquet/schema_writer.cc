#include "floe/formats/parquet/schema_writer.h"

#include <variant>

#include "floe/base/strings.h"
#include "floe/formats/parquet/field_annotation.h"
#include "floe/formats/parquet/geospatial_statistics.h"

namespace floe::parquet {
namespace {

// spec (LogicalTypes.md, DECIMAL): "int32: for 1 <= precision <= 9; int64:
// for 1 <= precision <= 18"; wider ones go to the smallest fixed array.
constexpr int32_t kMaxInt32DecimalPrecision = 9;
constexpr int32_t kMaxInt64DecimalPrecision = 18;

FieldRepetitionType RepetitionOf(bool nullable) {
  return nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED;
}

TimeUnit ParquetUnit(floe::TimeUnit unit) { return unit == floe::TimeUnit::kNano ? TimeUnit::NANOS : TimeUnit::MICROS; }

class Builder {
 public:
  Builder(WriterSchema* out, const WriterSchemaOptions& options) : out_(out), options_(options) {}

  Status AddField(const Field& field, int top, std::vector<std::string> path, std::vector<ShredStep> steps,
                  int16_t def, int16_t rep, bool force_required = false) {
    if (field.name.empty()) return Status::InvalidArgument(StrCat("field under ", Quote(Join(path)), " has no name"));
    const DataType& type = *field.type;
    const bool nullable = type.id() == TypeId::kNull || (field.nullable && !force_required);
    path.push_back(field.name);
    if (nullable) ++def;

    SchemaElement el;
    el.name = field.name;
    el.repetition_type = RepetitionOf(nullable);
    el.field_id = field.field_id;

    switch (type.id()) {
      case TypeId::kStruct: {
        if (type.num_fields() == 0) {
          return Status::Unsupported(StrCat("field ", Quote(Join(path)), ": Parquet cannot store a struct without fields"));
        }
        el.num_children = type.num_fields();
        FLOE_RETURN_IF_ERROR(AnnotateGroup(field, Join(path), &el));
        out_->elements.push_back(std::move(el));
        for (int i = 0; i < type.num_fields(); ++i) {
          std::vector<ShredStep> s = steps;
          s.push_back({ShredStep::Kind::kStruct, nullable, i, 0});
          FLOE_RETURN_IF_ERROR(AddField(type.field(i), top, path, std::move(s), def, rep));
        }
        return Status::OK();
      }
      case TypeId::kList: {
        el.num_children = 1;
        el.converted_type = ConvertedType::LIST;
        el.logicalType = ListType{};
        out_->elements.push_back(std::move(el));
        SchemaElement repeated;
        repeated.name = "list";
        repeated.repetition_type = FieldRepetitionType::REPEATED;
        repeated.num_children = 1;
        out_->elements.push_back(std::move(repeated));
        ++rep;
        steps.push_back({ShredStep::Kind::kList, nullable, 0, rep});
        path.push_back("list");
        Field element = type.item_field();
        element.name = "element";
        return AddField(element, top, std::move(path), std::move(steps), static_cast<int16_t>(def + 1), rep);
      }
      case TypeId::kMap: {
        if (type.key_field().nullable) {
          return Status::Unsupported(StrCat("map ", Quote(Join(path)), ": Parquet map keys are required"));
        }
        el.num_children = 1;
        el.converted_type = ConvertedType::MAP;
        el.logicalType = MapType{};
        out_->elements.push_back(std::move(el));
        SchemaElement key_value;
        key_value.name = "key_value";
        key_value.repetition_type = FieldRepetitionType::REPEATED;
        key_value.num_children = 2;
        out_->elements.push_back(std::move(key_value));
        ++rep;
        steps.push_back({ShredStep::Kind::kList, nullable, 0, rep});
        path.push_back("key_value");
        // The entries struct is never null: a step that adds no level.
        Field key = type.key_field();
        key.name = "key";
        Field value = type.value_field();
        value.name = "value";
        std::vector<ShredStep> key_steps = steps;
        key_steps.push_back({ShredStep::Kind::kStruct, false, 0, 0});
        FLOE_RETURN_IF_ERROR(AddField(key, top, path, std::move(key_steps), static_cast<int16_t>(def + 1), rep,
                                      /*force_required=*/true));
        steps.push_back({ShredStep::Kind::kStruct, false, 1, 0});
        return AddField(value, top, std::move(path), std::move(steps), static_cast<int16_t>(def + 1), rep);
      }
      default: break;
    }

    FLOE_RETURN_IF_ERROR(AnnotateLeaf(type, Join(path), &el));
    WriterColumn column;
    FLOE_RETURN_IF_ERROR(ApplyAnnotation(field, Join(path), &el, &column));
    if (auto it = options_.storage.find(Join(path)); it != options_.storage.end()) {
      column.storage = it->second;
      if (it->second == LeafStorage::kInt96) column.unit_divisor = 1;  // INT96 takes the floe unit's values
      FLOE_RETURN_IF_ERROR(ApplyStorage(type, Join(path), it->second, &el));
    }
    column.path = std::move(path);
    column.top_level_field = top;
    column.physical_type = *el.type;
    column.type_length = el.type_length.value_or(0);
    column.max_definition_level = def;
    column.max_repetition_level = rep;
    column.type = field.type;
    column.logical_type = el.logicalType;
    steps.push_back({ShredStep::Kind::kLeaf, nullable, 0, 0});
    column.steps = std::move(steps);
    out_->elements.push_back(std::move(el));
    out_->columns.push_back(std::move(column));
    return Status::OK();
  }

  static Status DefaultLeafElement(const DataType& type, SchemaElement* el) { return AnnotateLeaf(type, "", el); }

 private:
  static std::string Join(const std::vector<std::string>& path) {
    std::string s;
    for (const auto& p : path) s += (s.empty() ? "" : ".") + p;
    return s;
  }

  static void Integer(SchemaElement* el, Type physical, int8_t bits, bool is_signed) {
    el->type = physical;
    el->logicalType = IntType{bits, is_signed};
    static constexpr ConvertedType kSigned[] = {ConvertedType::INT_8, ConvertedType::INT_16, ConvertedType::INT_32,
                                                ConvertedType::INT_64};
    static constexpr ConvertedType kUnsigned[] = {ConvertedType::UINT_8, ConvertedType::UINT_16,
                                                  ConvertedType::UINT_32, ConvertedType::UINT_64};
    const int i = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
    el->converted_type = is_signed ? kSigned[i] : kUnsigned[i];
  }

  static Status ApplyStorage(const DataType& type, const std::string& path, LeafStorage storage, SchemaElement* el) {
    switch (storage) {
      case LeafStorage::kDefault: return Status::OK();
      case LeafStorage::kInt96:
        if (type.id() != TypeId::kTimestamp) {
          return Status::InvalidArgument(StrCat("field ", Quote(path), ": INT96 holds timestamps, not ", type.ToString()));
        }
        // Spark's form: no logical or converted type (INT96 has none in the spec).
        el->type = Type::INT96;
        el->logicalType.reset();
        el->converted_type.reset();
        return Status::OK();
      case LeafStorage::kFloat16:
        if (type.id() != TypeId::kFloat32) {
          return Status::InvalidArgument(StrCat("field ", Quote(path), ": FLOAT16 holds float32 values, not ", type.ToString()));
        }
        // spec (LogicalTypes.md, FLOAT16): "used to annotate a FIXED_LEN_BYTE_ARRAY(2)".
        el->type = Type::FIXED_LEN_BYTE_ARRAY;
        el->type_length = 2;
        el->logicalType = Float16Type{};
        return Status::OK();
    }
    return Status::OK();
  }

  // A group's annotation metadata: VARIANT is the one a struct may take.
  static Status AnnotateGroup(const Field& field, const std::string& path, SchemaElement* el) {
    if (FindMetadata(field.metadata, kPhysicalTypeKey)) {
      return Status::InvalidArgument(StrCat("field ", Quote(path), ": a group has no physical type"));
    }
    const std::optional<std::string_view> text = FindMetadata(field.metadata, kLogicalTypeKey);
    if (!text) return Status::OK();
    auto logical = ParseLogicalType(*text);
    if (!logical.ok()) return logical.status().WithContext(StrCat("field ", Quote(path)));
    if (!std::holds_alternative<VariantType>(*logical)) {
      return Status::InvalidArgument(StrCat("field ", Quote(path), ": ", kLogicalTypeKey, " ", *text,
                                            " does not fit a struct (VARIANT does)"));
    }
    el->logicalType = *logical;
    return Status::OK();
  }

  // A leaf's annotation metadata (field_annotation.h), over the default
  // annotation in *el: accepted when the leaf reads back as the same floe type.
  static Status ApplyAnnotation(const Field& field, const std::string& path, SchemaElement* el,
                                WriterColumn* column) {
    const DataType& type = *field.type;
    if (const std::optional<std::string_view> text = FindMetadata(field.metadata, kLogicalTypeKey)) {
      auto logical = ParseLogicalType(*text);
      if (!logical.ok()) return logical.status().WithContext(StrCat("field ", Quote(path)));
      if (*logical != el->logicalType && !ApplyLogicalType(type, *logical, el, column)) {
        return Status::InvalidArgument(
            StrCat("field ", Quote(path), ": ", kLogicalTypeKey, " ", *text, " does not fit ", type.ToString()));
      }
    }
    if (const std::optional<std::string_view> text = FindMetadata(field.metadata, kPhysicalTypeKey)) {
      auto physical = ParsePhysicalType(*text);
      if (!physical.ok()) return physical.status().WithContext(StrCat("field ", Quote(path)));
      const bool same = physical->type == el->type &&
                        (physical->type != Type::FIXED_LEN_BYTE_ARRAY || physical->type_length == el->type_length);
      if (!same && !ApplyPhysicalType(type, *physical, el, column)) {
        return Status::InvalidArgument(
            StrCat("field ", Quote(path), ": ", kPhysicalTypeKey, " ", *text, " does not fit ", type.ToString()));
      }
    }
    return Status::OK();
  }

  // Sets `logical` on a leaf of `type`; false when the leaf would not read
  // back as `type` (schema_types.cc is the reading side).
  static bool ApplyLogicalType(const DataType& type, const LogicalType& logical, SchemaElement* el,
                               WriterColumn* column) {
    const TypeId id = type.id();
    const auto set = [&](std::optional<ConvertedType> converted) {
      el->logicalType = logical;
      el->converted_type = converted;
      return true;
    };
    if (std::holds_alternative<EnumType>(logical) && id == TypeId::kString) return set(ConvertedType::ENUM);
    if (std::holds_alternative<JsonType>(logical) && id == TypeId::kString) return set(ConvertedType::JSON);
    if (std::holds_alternative<BsonType>(logical) && id == TypeId::kBinary) return set(ConvertedType::BSON);
    if (IsGeospatial(logical) && id == TypeId::kBinary) {
      return set(std::nullopt);  // spec: "no compatible ConvertedType"
    }
    if (const auto* i = std::get_if<IntType>(&logical); i && i->isSigned) {
      if (i->bitWidth == 32 && id == TypeId::kInt32) return set(ConvertedType::INT_32);
      if (i->bitWidth == 64 && id == TypeId::kInt64) return set(ConvertedType::INT_64);
      return false;
    }
    if (std::holds_alternative<Float16Type>(logical) && id == TypeId::kFloat32) {
      column->storage = LeafStorage::kFloat16;
      return ApplyStorage(type, "", LeafStorage::kFloat16, el).ok();
    }
    // TIME and TIMESTAMP in MILLIS read back in micros; MICROS and NANOS as they are.
    const auto unit_fits = [&](TimeUnit unit) {
      return unit == TimeUnit::NANOS ? type.unit() == floe::TimeUnit::kNano : type.unit() == floe::TimeUnit::kMicro;
    };
    if (const auto* t = std::get_if<TimeType>(&logical); t && id == TypeId::kTime64 && unit_fits(t->unit)) {
      // The legacy TIME_* types mean adjusted to UTC (LogicalTypes.md).
      const bool millis = t->unit == TimeUnit::MILLIS;
      el->type = millis ? Type::INT32 : Type::INT64;
      column->unit_divisor = millis ? 1000 : 1;
      if (!t->isAdjustedToUTC || t->unit == TimeUnit::NANOS) return set(std::nullopt);
      return set(millis ? ConvertedType::TIME_MILLIS : ConvertedType::TIME_MICROS);
    }
    if (const auto* t = std::get_if<TimestampType>(&logical);
        t && id == TypeId::kTimestamp && unit_fits(t->unit) && t->isAdjustedToUTC == !type.timezone().empty()) {
      const bool millis = t->unit == TimeUnit::MILLIS;
      column->unit_divisor = millis ? 1000 : 1;
      if (!t->isAdjustedToUTC || t->unit == TimeUnit::NANOS) return set(std::nullopt);
      return set(millis ? ConvertedType::TIMESTAMP_MILLIS : ConvertedType::TIMESTAMP_MICROS);
    }
    return false;
  }

  // Stores a leaf of `type` as `physical`; false when that form does not hold it.
  static bool ApplyPhysicalType(const DataType& type, const PhysicalTypeSpec& physical, SchemaElement* el,
                                WriterColumn* column) {
    const auto set = [&] {
      el->type = physical.type;
      if (physical.type == Type::FIXED_LEN_BYTE_ARRAY) {
        el->type_length = physical.type_length;
      } else {
        el->type_length.reset();
      }
      return true;
    };
    switch (type.id()) {
      case TypeId::kTimestamp:
        if (physical.type != Type::INT96) return false;
        column->storage = LeafStorage::kInt96;
        column->unit_divisor = 1;
        return ApplyStorage(type, "", LeafStorage::kInt96, el).ok();
      case TypeId::kDecimal128: {
        // spec (DECIMAL): INT32 for precision <= 9, INT64 for <= 18, a
        // FIXED_LEN_BYTE_ARRAY wide enough, or BYTE_ARRAY; floe reads fixed
        // widths up to 16 bytes.
        const int32_t p = type.precision();
        switch (physical.type) {
          case Type::INT32: return p <= kMaxInt32DecimalPrecision && set();
          case Type::INT64: return p <= kMaxInt64DecimalPrecision && set();
          case Type::BYTE_ARRAY: return set();
          case Type::FIXED_LEN_BYTE_ARRAY:
            return physical.type_length >= DecimalByteWidth(p) && physical.type_length <= 16 && set();
          default: return false;
        }
      }
      case TypeId::kNull: return set();  // spec (UNKNOWN): "allowed for any physical type"
      default: return false;
    }
  }

  static Status AnnotateLeaf(const DataType& type, const std::string& path, SchemaElement* el) {
    switch (type.id()) {
      case TypeId::kNull:
        el->type = Type::INT32;
        el->logicalType = NullType{};
        return Status::OK();
      case TypeId::kBool: el->type = Type::BOOLEAN; return Status::OK();
      case TypeId::kInt8: Integer(el, Type::INT32, 8, true); return Status::OK();
      case TypeId::kInt16: Integer(el, Type::INT32, 16, true); return Status::OK();
      // Plain INT32/INT64 need no annotation; the reader maps them back as is.
      case TypeId::kInt32: el->type = Type::INT32; return Status::OK();
      case TypeId::kInt64: el->type = Type::INT64; return Status::OK();
      case TypeId::kUInt8: Integer(el, Type::INT32, 8, false); return Status::OK();
      case TypeId::kUInt16: Integer(el, Type::INT32, 16, false); return Status::OK();
      case TypeId::kUInt32: Integer(el, Type::INT32, 32, false); return Status::OK();
      case TypeId::kUInt64: Integer(el, Type::INT64, 64, false); return Status::OK();
      case TypeId::kFloat32: el->type = Type::FLOAT; return Status::OK();
      case TypeId::kFloat64: el->type = Type::DOUBLE; return Status::OK();
      case TypeId::kDecimal128: {
        const int32_t p = type.precision();
        if (p <= kMaxInt32DecimalPrecision) {
          el->type = Type::INT32;
        } else if (p <= kMaxInt64DecimalPrecision) {
          el->type = Type::INT64;
        } else {
          el->type = Type::FIXED_LEN_BYTE_ARRAY;
          el->type_length = DecimalByteWidth(p);
        }
        el->logicalType = DecimalType{type.scale(), p};
        el->converted_type = ConvertedType::DECIMAL;
        el->scale = type.scale();
        el->precision = p;
        return Status::OK();
      }
      case TypeId::kDate32:
        el->type = Type::INT32;
        el->logicalType = DateType{};
        el->converted_type = ConvertedType::DATE;
        return Status::OK();
      case TypeId::kTime64:
        // floe's time64 is a local time of day (Iceberg `time`). The legacy
        // TIME_MICROS means adjusted to UTC, so only the logical type is set.
        el->type = Type::INT64;
        el->logicalType = TimeType{false, ParquetUnit(type.unit())};
        return Status::OK();
      case TypeId::kTimestamp: {
        const bool utc = !type.timezone().empty();
        el->type = Type::INT64;
        el->logicalType = TimestampType{utc, ParquetUnit(type.unit())};
        // TIMESTAMP_MICROS is defined as adjusted to UTC; nanos have no legacy type.
        if (utc && type.unit() == floe::TimeUnit::kMicro) el->converted_type = ConvertedType::TIMESTAMP_MICROS;
        return Status::OK();
      }
      case TypeId::kString:
        el->type = Type::BYTE_ARRAY;
        el->logicalType = StringType{};
        el->converted_type = ConvertedType::UTF8;
        return Status::OK();
      case TypeId::kBinary: el->type = Type::BYTE_ARRAY; return Status::OK();
      case TypeId::kFixedSizeBinary:
        if (type.byte_width() <= 0) {
          return Status::Unsupported(StrCat("field ", Quote(path), ": Parquet cannot store fixed_size_binary(0)"));
        }
        el->type = Type::FIXED_LEN_BYTE_ARRAY;
        el->type_length = type.byte_width();
        return Status::OK();
      case TypeId::kUuid:
        el->type = Type::FIXED_LEN_BYTE_ARRAY;
        el->type_length = 16;
        el->logicalType = UUIDType{};
        return Status::OK();
      case TypeId::kInterval:
        // spec (ConvertedType INTERVAL): FIXED_LEN_BYTE_ARRAY(12); LogicalType has no member for it.
        el->type = Type::FIXED_LEN_BYTE_ARRAY;
        el->type_length = 12;
        el->converted_type = ConvertedType::INTERVAL;
        return Status::OK();
      default: break;
    }
    return Status::Unsupported(StrCat("field ", Quote(path), ": type ", type.ToString(), " has no Parquet mapping"));
  }

  WriterSchema* out_;
  const WriterSchemaOptions& options_;
};

}  // namespace

std::string WriterColumn::dotted_path() const {
  std::string s;
  for (const auto& p : path) s += (s.empty() ? "" : ".") + p;
  return s;
}

Status DefaultLeafElement(const DataType& type, SchemaElement* element) {
  return Builder::DefaultLeafElement(type, element);
}

int32_t DecimalByteWidth(int32_t precision) {
  unsigned __int128 max_unscaled = 1;
  for (int32_t i = 0; i < precision; ++i) max_unscaled *= 10;
  max_unscaled -= 1;
  for (int32_t n = 1; n < 16; ++n) {
    // n bytes of two's complement hold magnitudes up to 2^(8n-1) - 1.
    if (max_unscaled < (static_cast<unsigned __int128>(1) << (8 * n - 1))) return n;
  }
  return 16;
}

Result<WriterSchema> MakeWriterSchema(const Schema& schema, const WriterSchemaOptions& options) {
  WriterSchema out;
  SchemaElement root;
  root.name = "schema";
  root.num_children = schema.num_fields();
  out.elements.push_back(std::move(root));
  Builder builder(&out, options);
  for (int i = 0; i < schema.num_fields(); ++i) {
    FLOE_RETURN_IF_ERROR(builder.AddField(schema.field(i), i, {}, {}, 0, 0));
  }
  return out;
}

}  // namespace floe::parquet
