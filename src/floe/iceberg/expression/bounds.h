// Reading a column or partition bound (Appendix D bytes) for comparison with
// a bound predicate's literal, shared by the metrics and manifest
// evaluators. Internal to iceberg/expression/.

#pragma once

#include <optional>
#include <string_view>

#include "floe/iceberg/literal.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg {

enum class BoundKind { kLower, kUpper };

// The bound as a literal of `type`, or nullopt when it gives no usable
// information: bytes that do not decode (treated as a missing bound, never
// as an error: pruning must stay conservative) and NaN bounds (unreliable:
// some writers put NaN there when a file holds NaN). Accepts bounds written
// before a type promotion (int as long, float as double, a narrower decimal,
// a date as a timestamp). Float zeros widen so that -0 = 0 stays sound: a
// lower bound of 0 reads as -0, an upper bound of -0 as +0.
std::optional<Literal> ReadBound(const TypePtr& type, std::string_view bytes, BoundKind kind);

}  // namespace floe::iceberg
