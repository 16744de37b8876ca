#include "floe/iceberg/columnar_value.h"

#include <string>

#include "floe/iceberg/type.h"

namespace floe::iceberg {

std::optional<Literal> LiteralAt(const Array& array, int64_t row) {
  if (array.data() == nullptr || array.IsNull(row)) return std::nullopt;
  const floe::DataType& type = *array.type();
  switch (type.id()) {
    case floe::TypeId::kBool: return Literal::Boolean(array.GetBool(row));
    case floe::TypeId::kInt8: return Literal::Int(array.Values<int8_t>()[row]);
    case floe::TypeId::kInt16: return Literal::Int(array.Values<int16_t>()[row]);
    case floe::TypeId::kInt32: return Literal::Int(array.Values<int32_t>()[row]);
    case floe::TypeId::kInt64: return Literal::Long(array.Values<int64_t>()[row]);
    case floe::TypeId::kFloat32: return Literal::Float(array.Values<float>()[row]);
    case floe::TypeId::kFloat64: return Literal::Double(array.Values<double>()[row]);
    case floe::TypeId::kDate32: return Literal::Date(array.Values<int32_t>()[row]);
    case floe::TypeId::kTime64: {
      const int64_t v = array.Values<int64_t>()[row];
      // Iceberg's time is in micros; nanos floor to the micro.
      return Literal::Time(type.unit() == floe::TimeUnit::kMicro ? v : v / 1000 - (v % 1000 < 0 ? 1 : 0));
    }
    case floe::TypeId::kTimestamp: {
      const int64_t v = array.Values<int64_t>()[row];
      const bool zoned = !type.timezone().empty();
      if (type.unit() == floe::TimeUnit::kMicro) return zoned ? Literal::TimestampTz(v) : Literal::Timestamp(v);
      return zoned ? Literal::TimestampTzNs(v) : Literal::TimestampNs(v);
    }
    case floe::TypeId::kDecimal128: {
      Result<TypePtr> decimal = Type::Decimal(type.precision(), type.scale());
      if (!decimal.ok()) return std::nullopt;
      Result<Literal> literal = Literal::Make(*decimal, array.GetDecimal128(row));
      if (!literal.ok()) return std::nullopt;
      return std::move(literal).value();
    }
    case floe::TypeId::kString: return Literal::String(std::string(array.GetString(row)));
    case floe::TypeId::kBinary: return Literal::Binary(std::string(array.GetString(row)));
    case floe::TypeId::kFixedSizeBinary:
    case floe::TypeId::kUuid: {
      Result<TypePtr> fixed = type.id() == floe::TypeId::kUuid ? Result<TypePtr>(Type::Uuid())
                                                               : Type::Fixed(type.byte_width());
      if (!fixed.ok()) return std::nullopt;
      Result<Literal> literal = Literal::Make(*fixed, std::string(array.GetFixedSizeBinary(row)));
      if (!literal.ok()) return std::nullopt;
      return std::move(literal).value();
    }
    case floe::TypeId::kDictionary:  // the value the index refers to (null when it is)
      return LiteralAt(array.dictionary(), array.DictionaryIndices()[row]);
    default: return std::nullopt;
  }
}

std::optional<std::string_view> BytesAt(const Array& array, int64_t row) {
  if (array.data() == nullptr || array.IsNull(row)) return std::nullopt;
  switch (array.type_id()) {
    case floe::TypeId::kString:
    case floe::TypeId::kBinary: return array.GetString(row);
    case floe::TypeId::kDictionary: return BytesAt(array.dictionary(), array.DictionaryIndices()[row]);
    default: return std::nullopt;
  }
}

}  // namespace floe::iceberg
