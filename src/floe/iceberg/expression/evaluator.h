// Evaluating a bound expression on one row or partition tuple (Java's
// Evaluator), and on every row of a record batch at once.
//
// Truth follows SQL's three values, so that NOT and RewriteNot agree: a
// comparison (=, !=, <, <=, >, >=, in, not in, starts with, not starts with)
// with a null value is unknown, and so is one with a NaN value (NaN is
// unordered and equal to nothing, so `x != 1` is unknown for NaN as `not (x =
// 1)` is); `is null`, `is not null`, `is nan` and `is not nan` are always true
// or false (`is nan` is false for null, `is not nan` true). Float comparisons
// are IEEE's otherwise: -0 = 0. A row is selected when the whole expression is
// true; unknown selects nothing. The pruning evaluators (metrics, manifests,
// projections, Parquet) are sound against exactly these rules.
//
// Values of another type than the predicate's (an int value for a long
// column) are cast with Literal::CastTo; a value that does not cast makes its
// comparison unknown. Unbound predicates evaluate to unknown.
//
// Thread safety: pure functions; the callbacks are called on the calling
// thread only.

#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/literal.h"

namespace floe::iceberg {

// The value of a field (by field id) in the row or tuple being evaluated;
// nullopt is null.
using ValueGetter = std::function<std::optional<Literal>(int32_t field_id)>;

// Whether `bound` is true for the row `value` describes.
bool Evaluate(const Expression& bound, const ValueGetter& value);

// One byte per row of `batch`, 1 where `bound` is true and 0 elsewhere.
// `column_of` maps a field id to a top-level column of `batch` (-1: none);
// a field it does not map is looked up among the struct children of the
// batch's columns by their Field::field_id, and a field found nowhere is
// null in every row. InvalidArgument when `column_of` returns an index out
// of range. Comparisons on int32, int64, float, double, decimal128, date32,
// time64, timestamp and string columns of the predicate's own type run as
// typed loops; the rest go through LiteralAt (columnar_value.h) per row.
Result<std::vector<uint8_t>> EvaluateBatch(const Expression& bound, const RecordBatch& batch,
                                           const std::function<int(int32_t field_id)>& column_of);

}  // namespace floe::iceberg
