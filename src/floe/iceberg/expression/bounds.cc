#include "floe/iceberg/expression/bounds.h"

#include <cmath>

namespace floe::iceberg {

std::optional<Literal> ReadBound(const TypePtr& type, std::string_view bytes, BoundKind kind) {
  if (type == nullptr) return std::nullopt;
  Result<Literal> read = Literal::FromBytes(type, bytes);
  if (!read.ok()) {
    const TypeId id = type->id();
    const bool timestamp = id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
                           id == TypeId::kTimestampTzNs;
    // spec (v3 type promotion): a date column may become a timestamp; its
    // old bounds are 4-byte days.
    if (!timestamp || bytes.size() != 4) return std::nullopt;
    Result<Literal> date = Literal::FromBytes(Type::Date(), bytes);
    if (!date.ok()) return std::nullopt;
    read = date->CastTo(type);
    if (!read.ok()) return std::nullopt;
  }
  Literal bound = std::move(read).value();
  if (type->id() == TypeId::kFloat) {
    const float v = bound.float_value();
    if (std::isnan(v)) return std::nullopt;
    if (v == 0.0f) return Literal::Float(kind == BoundKind::kLower ? -0.0f : 0.0f);
  } else if (type->id() == TypeId::kDouble) {
    const double v = bound.double_value();
    if (std::isnan(v)) return std::nullopt;
    if (v == 0.0) return Literal::Double(kind == BoundKind::kLower ? -0.0 : 0.0);
  }
  return bound;
}

}  // namespace floe::iceberg
