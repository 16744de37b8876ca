// Three-valued truth and the evaluation of one bound predicate on one value,
// shared by the row and batch evaluators (evaluator.h states the rules).
// Internal to iceberg/expression/.

#pragma once

#include <cstdint>
#include <optional>

#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/literal.h"

namespace floe::iceberg {

enum class Truth : uint8_t { kFalse = 0, kTrue = 1, kUnknown = 2 };

inline Truth AndTruth(Truth a, Truth b) {
  if (a == Truth::kFalse || b == Truth::kFalse) return Truth::kFalse;
  if (a == Truth::kUnknown || b == Truth::kUnknown) return Truth::kUnknown;
  return Truth::kTrue;
}

inline Truth OrTruth(Truth a, Truth b) {
  if (a == Truth::kTrue || b == Truth::kTrue) return Truth::kTrue;
  if (a == Truth::kUnknown || b == Truth::kUnknown) return Truth::kUnknown;
  return Truth::kFalse;
}

inline Truth NotTruth(Truth a) {
  return a == Truth::kUnknown ? Truth::kUnknown : (a == Truth::kTrue ? Truth::kFalse : Truth::kTrue);
}

inline Truth ToTruth(bool b) { return b ? Truth::kTrue : Truth::kFalse; }

// Row order of two values of one type: <0, 0, >0, or kUnordered when either
// is NaN. Floats compare as IEEE numbers (-0 = 0), the rest as
// Literal::Compare.
inline constexpr int kUnordered = 2;
int CompareForRow(const Literal& a, const Literal& b);

// Whether a float or double literal is NaN (false for other types).
bool IsNaNLiteral(const Literal& literal);

// `pred` (a bound predicate) on `value` (nullopt: null), cast to the
// predicate's type first when it has another.
Truth EvaluatePredicate(const Expression& pred, const std::optional<Literal>& value);

}  // namespace floe::iceberg
