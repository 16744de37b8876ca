// Leaf type mapping: physical type + logical (or legacy converted) type ->
// floe type, and the order of a leaf's statistics. spec: parquet-format LogicalTypes.md; where a file carries only
// a ConvertedType, its documented LogicalType equivalent applies
// (TIMESTAMP_MILLIS/MICROS and TIME_* are adjusted to UTC).

#include <variant>

#include "floe/base/strings.h"
#include "floe/formats/parquet/geospatial_statistics.h"
#include "floe/formats/parquet/schema.h"

namespace floe::parquet {
namespace {

constexpr int32_t kMaxDecimalPrecision = 38;

Status Mismatch(const SchemaNode& node, std::string_view annotation) {
  return Status::Corrupt(StrCat("column ", Quote(node.name), ": ", annotation, " annotation on physical type ",
                                TypeName(*node.physical_type)));
}

Status Decimal(const SchemaNode& node, int32_t precision, int32_t scale, ValueConversion conversion,
               TypePtr* type, ValueConversion* out_conversion) {
  if (precision > kMaxDecimalPrecision) {
    return Status::Unsupported(StrCat("column ", Quote(node.name), ": decimal precision ", precision,
                                      " exceeds the ", kMaxDecimalPrecision, " digits floe reads"));
  }
  if (node.physical_type == Type::FIXED_LEN_BYTE_ARRAY && (node.type_length < 1 || node.type_length > 16)) {
    return Status::Unsupported(StrCat("column ", Quote(node.name), ": decimal stored in ", node.type_length,
                                      " bytes; floe reads 1 to 16"));
  }
  auto decimal = DataType::Decimal128(precision, scale);
  if (!decimal.ok()) return Status::Corrupt(StrCat("column ", Quote(node.name), ": ", decimal.status().message()));
  *type = *decimal;
  *out_conversion = conversion;
  return Status::OK();
}

ValueConversion DecimalConversionFor(Type physical) {
  switch (physical) {
    case Type::INT32: return ValueConversion::kDecimalFromInt32;
    case Type::INT64: return ValueConversion::kDecimalFromInt64;
    default: return ValueConversion::kDecimalFromBytes;
  }
}

Status IntegerType(const SchemaNode& node, const IntType& t, TypePtr* type, ValueConversion* conversion) {
  const bool is32 = node.physical_type == Type::INT32;
  if (!is32 && node.physical_type != Type::INT64) return Mismatch(node, "INTEGER");
  if ((is32 && t.bitWidth == 64) || (!is32 && t.bitWidth != 64)) {
    return Status::Corrupt(StrCat("column ", Quote(node.name), ": INTEGER(", static_cast<int>(t.bitWidth), ") on ",
                                  TypeName(*node.physical_type)));
  }
  *conversion = ValueConversion::kNone;
  switch (t.bitWidth) {
    case 8:
      *type = t.isSigned ? DataType::Int8() : DataType::UInt8();
      *conversion = ValueConversion::kNarrowInt32;
      return Status::OK();
    case 16:
      *type = t.isSigned ? DataType::Int16() : DataType::UInt16();
      *conversion = ValueConversion::kNarrowInt32;
      return Status::OK();
    case 32: *type = t.isSigned ? DataType::Int32() : DataType::UInt32(); return Status::OK();
    case 64: *type = t.isSigned ? DataType::Int64() : DataType::UInt64(); return Status::OK();
    default:
      return Status::Corrupt(
          StrCat("column ", Quote(node.name), ": INTEGER bit width ", static_cast<int>(t.bitWidth)));
  }
}

Status TimeOrTimestamp(const SchemaNode& node, bool timestamp, bool utc, TimeUnit unit, TypePtr* type,
                       ValueConversion* conversion) {
  const floe::TimeUnit floe_unit = unit == TimeUnit::NANOS ? floe::TimeUnit::kNano : floe::TimeUnit::kMicro;
  const bool millis = unit == TimeUnit::MILLIS;
  if (!timestamp) {
    const Type expect = millis ? Type::INT32 : Type::INT64;
    if (node.physical_type != expect) return Mismatch(node, millis ? "TIME(MILLIS)" : "TIME");
    *type = DataType::Time64(floe_unit);
    *conversion = millis ? ValueConversion::kMillisToMicros32 : ValueConversion::kNone;
    return Status::OK();
  }
  if (node.physical_type != Type::INT64) return Mismatch(node, "TIMESTAMP");
  *type = DataType::Timestamp(floe_unit, utc ? "UTC" : "");
  *conversion = millis ? ValueConversion::kMillisToMicros64 : ValueConversion::kNone;
  return Status::OK();
}

bool IsFloatingPoint(const ColumnDescriptor& c) {
  return c.physical_type == Type::FLOAT || c.physical_type == Type::DOUBLE ||
         c.conversion == ValueConversion::kFloat16ToFloat32;
}

}  // namespace

std::optional<LogicalType> EffectiveLogicalType(const SchemaNode& node) {
  // A LogicalType member from a newer spec falls back to the ConvertedType.
  if (node.logical_type && !std::holds_alternative<UnknownUnionMember>(*node.logical_type)) return node.logical_type;
  if (!node.converted_type) return std::nullopt;
  switch (*node.converted_type) {
    case ConvertedType::UTF8: return StringType{};
    case ConvertedType::MAP: return MapType{};
    case ConvertedType::LIST: return ListType{};
    case ConvertedType::ENUM: return EnumType{};
    case ConvertedType::JSON: return JsonType{};
    case ConvertedType::BSON: return BsonType{};
    case ConvertedType::DATE: return DateType{};
    case ConvertedType::DECIMAL: return DecimalType{node.scale, node.precision};
    case ConvertedType::TIME_MILLIS: return TimeType{true, TimeUnit::MILLIS};
    case ConvertedType::TIME_MICROS: return TimeType{true, TimeUnit::MICROS};
    case ConvertedType::TIMESTAMP_MILLIS: return TimestampType{true, TimeUnit::MILLIS};
    case ConvertedType::TIMESTAMP_MICROS: return TimestampType{true, TimeUnit::MICROS};
    case ConvertedType::UINT_8: return IntType{8, false};
    case ConvertedType::UINT_16: return IntType{16, false};
    case ConvertedType::UINT_32: return IntType{32, false};
    case ConvertedType::UINT_64: return IntType{64, false};
    case ConvertedType::INT_8: return IntType{8, true};
    case ConvertedType::INT_16: return IntType{16, true};
    case ConvertedType::INT_32: return IntType{32, true};
    case ConvertedType::INT_64: return IntType{64, true};
    default: return std::nullopt;  // INTERVAL (no LogicalType member), MAP_KEY_VALUE
  }
}

StatisticsOrder StatisticsOrderOf(const SchemaNode& node, const ColumnDescriptor& column,
                                  std::optional<ColumnOrder> order) {
  // spec (ColumnOrder, TYPE_ORDER): "INTERVAL - undefined", "GEOMETRY -
  // undefined", "GEOGRAPHY - undefined".
  const std::optional<LogicalType> logical = EffectiveLogicalType(node);
  if (column.type->id() == TypeId::kInterval || (logical && IsGeospatial(*logical))) {
    return StatisticsOrder::kNone;
  }
  const bool int96 = column.physical_type == Type::INT96;
  switch (order.value_or(ColumnOrder::TYPE_ORDER)) {
    case ColumnOrder::TYPE_ORDER:
      // spec: "If TYPE_ORDER is used for an INT96 column, readers should ignore all statistics".
      return int96 ? StatisticsOrder::kNone : StatisticsOrder::kTypeDefined;
    case ColumnOrder::IEEE_754_TOTAL_ORDER:
      // spec: "Only columns of physical type FLOAT or DOUBLE, or logical type FLOAT16 may use this ordering."
      return IsFloatingPoint(column) ? StatisticsOrder::kIeee754Total : StatisticsOrder::kNone;
    case ColumnOrder::INT96_TIMESTAMP_ORDER:
      // spec: "Only columns of physical type INT96 may use this ordering."
      return int96 ? StatisticsOrder::kInt96Timestamp : StatisticsOrder::kNone;
  }
  return StatisticsOrder::kNone;  // an order from a newer spec
}

Status LeafType(const SchemaNode& node, TypePtr* type, ValueConversion* conversion) {
  *conversion = ValueConversion::kNone;
  const Type physical = *node.physical_type;
  const std::optional<LogicalType> effective = EffectiveLogicalType(node);
  const LogicalType* logical = effective ? &*effective : nullptr;

  if (logical) {
    if (const auto* d = std::get_if<DecimalType>(logical)) {
      if (physical != Type::INT32 && physical != Type::INT64 && physical != Type::BYTE_ARRAY &&
          physical != Type::FIXED_LEN_BYTE_ARRAY) {
        return Mismatch(node, "DECIMAL");
      }
      return Decimal(node, d->precision, d->scale, DecimalConversionFor(physical), type, conversion);
    }
    if (const auto* i = std::get_if<IntType>(logical)) return IntegerType(node, *i, type, conversion);
    if (std::holds_alternative<DateType>(*logical)) {
      if (physical != Type::INT32) return Mismatch(node, "DATE");
      *type = DataType::Date32();
      return Status::OK();
    }
    if (const auto* t = std::get_if<TimeType>(logical)) {
      return TimeOrTimestamp(node, false, t->isAdjustedToUTC, t->unit, type, conversion);
    }
    if (const auto* t = std::get_if<TimestampType>(logical)) {
      return TimeOrTimestamp(node, true, t->isAdjustedToUTC, t->unit, type, conversion);
    }
    if (std::holds_alternative<StringType>(*logical) || std::holds_alternative<EnumType>(*logical) ||
        std::holds_alternative<JsonType>(*logical)) {
      if (physical != Type::BYTE_ARRAY) return Mismatch(node, LogicalTypeName(*logical));
      *type = DataType::Utf8();
      return Status::OK();
    }
    if (std::holds_alternative<UUIDType>(*logical)) {
      if (physical != Type::FIXED_LEN_BYTE_ARRAY || node.type_length != 16) return Mismatch(node, "UUID");
      *type = DataType::Uuid();
      return Status::OK();
    }
    if (std::holds_alternative<Float16Type>(*logical)) {
      if (physical != Type::FIXED_LEN_BYTE_ARRAY || node.type_length != 2) return Mismatch(node, "FLOAT16");
      // floe has no half-float column; float32 holds every float16 exactly.
      *type = DataType::Float32();
      *conversion = ValueConversion::kFloat16ToFloat32;
      return Status::OK();
    }
    if (std::holds_alternative<NullType>(*logical)) {
      *type = DataType::Null();
      return Status::OK();
    }
    // BSON, VARIANT, GEOMETRY, GEOGRAPHY: annotated binary, read as bytes.
  }
  if (node.converted_type == ConvertedType::INTERVAL) {
    // spec (ConvertedType INTERVAL): "a FIXED_LEN_BYTE_ARRAY of length 12".
    if (physical != Type::FIXED_LEN_BYTE_ARRAY || node.type_length != 12) {
      return Status::Corrupt(StrCat("column ", Quote(node.name), ": INTERVAL annotation on ", TypeName(physical),
                                    physical == Type::FIXED_LEN_BYTE_ARRAY ? StrCat("(", node.type_length, ")") : ""));
    }
    *type = DataType::Interval();
    *conversion = ValueConversion::kIntervalFromFixed;
    return Status::OK();
  }

  switch (physical) {
    case Type::BOOLEAN: *type = DataType::Bool(); return Status::OK();
    case Type::INT32: *type = DataType::Int32(); return Status::OK();
    case Type::INT64: *type = DataType::Int64(); return Status::OK();
    case Type::INT96:
      // Microseconds, as Spark (the main INT96 writer) and DuckDB read it:
      // Spark writes dates far outside the int64-nanosecond range
      // (docs/decisions/0017-int96-as-microseconds.md).
      *type = DataType::Timestamp(floe::TimeUnit::kMicro);
      *conversion = ValueConversion::kInt96ToMicros;
      return Status::OK();
    case Type::FLOAT: *type = DataType::Float32(); return Status::OK();
    case Type::DOUBLE: *type = DataType::Float64(); return Status::OK();
    case Type::BYTE_ARRAY: *type = DataType::Binary(); return Status::OK();
    case Type::FIXED_LEN_BYTE_ARRAY: {
      FLOE_ASSIGN_OR_RETURN(*type, DataType::FixedSizeBinary(node.type_length));
      return Status::OK();
    }
  }
  return Status::Corrupt(
      StrCat("column ", Quote(node.name), ": unknown physical type ", static_cast<int>(physical)));
}

}  // namespace floe::parquet
