#include "floe/iceberg/columnar_value.h"

#include <string>

namespace floe::iceberg {

std::optional<Literal> LiteralAt(const Array& array, int64_t row, const TypePtr& type) {
  if (array.IsNull(row)) return std::nullopt;
  switch (type->id()) {
    case TypeId::kBoolean: return Literal::Boolean(array.GetBool(row));
    case TypeId::kInt: return Literal::Int(array.Values<int32_t>()[row]);
    case TypeId::kDate: return Literal::Date(array.Values<int32_t>()[row]);
    case TypeId::kLong: return Literal::Long(array.Values<int64_t>()[row]);
    case TypeId::kFloat: return Literal::Float(array.Values<float>()[row]);
    case TypeId::kDouble: return Literal::Double(array.Values<double>()[row]);
    case TypeId::kTime: return Literal::Time(array.Values<int64_t>()[row]);
    case TypeId::kTimestamp: return Literal::Timestamp(array.Values<int64_t>()[row]);
    case TypeId::kTimestampTz: return Literal::TimestampTz(array.Values<int64_t>()[row]);
    case TypeId::kTimestampNs: return Literal::TimestampNs(array.Values<int64_t>()[row]);
    case TypeId::kTimestampTzNs: return Literal::TimestampTzNs(array.Values<int64_t>()[row]);
    case TypeId::kString: return Literal::String(std::string(array.GetString(row)));
    case TypeId::kBinary: return Literal::Binary(std::string(array.GetString(row)));
    case TypeId::kDecimal: {
      auto literal = Literal::Make(type, array.GetDecimal128(row));
      if (!literal.ok()) return std::nullopt;  // out of the column's precision: no usable value
      return std::move(*literal);
    }
    case TypeId::kFixed:
    case TypeId::kUuid: {
      auto literal = Literal::Make(type, std::string(array.GetFixedSizeBinary(row)));
      if (!literal.ok()) return std::nullopt;
      return std::move(*literal);
    }
    default: return std::nullopt;
  }
}

}  // namespace floe::iceberg
