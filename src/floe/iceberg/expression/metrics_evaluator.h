// Pruning data files by their column metrics (spec: "Scan Planning"; Java's
// InclusiveMetricsEvaluator and StrictMetricsEvaluator).
//
// The inclusive evaluator answers "might some row of this file match?" — a
// file is skipped only when it is false. The strict one answers "does every
// row match?" — used to drop or keep whole files without reading them. Both
// read DataFile's value/null/NaN counts and lower/upper bounds (Appendix D
// bytes, possibly truncated: a truncated string lower bound is a prefix of
// the true minimum, a truncated upper bound has been incremented, so both
// still bound the values; `starts with` compares the bounds cut to the
// prefix's length, as Java does). Bounds written before a type promotion
// read as the new type (see bounds.h).
//
// Both are sound against the row semantics of evaluator.h (comparisons with
// null or NaN are unknown) — which makes the strict evaluator stricter than
// Java's where Java treats `x != 5` as true on nulls: here a file with
// nulls (or NaNs) never "all matches" `!=` or `not in`. Missing statistics
// mean "might match" / "not all match"; so does a missing NaN count on a
// float or double column (Java assumes none). A file with record_count 0
// cannot match and vacuously all-matches; a negative (unknown) count might
// match and does not all-match. The strict evaluator decides only for
// top-level columns, as Java does.
//
// `bound` must be bound to `schema` (binder.h); NOT is rewritten inside.
// Thread safety: the evaluator objects are immutable; Eval may run on many
// threads at once.

#pragma once

#include "floe/base/result.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/schema.h"

namespace floe::iceberg {

class InclusiveMetricsEvaluator {
 public:
  InclusiveMetricsEvaluator(const Schema& schema, const ExpressionPtr& bound);
  // Whether rows of `file` might match.
  bool Eval(const DataFile& file) const;

 private:
  ExpressionPtr expr_;
};

class StrictMetricsEvaluator {
 public:
  StrictMetricsEvaluator(const Schema& schema, const ExpressionPtr& bound);
  // Whether every row of `file` matches.
  bool Eval(const DataFile& file) const;

 private:
  Schema schema_;
  ExpressionPtr expr_;
};

// One-off forms of the evaluators above.
bool InclusiveMetricsMightMatch(const Schema& schema, const ExpressionPtr& bound, const DataFile& file);
bool StrictMetricsAllMatch(const Schema& schema, const ExpressionPtr& bound, const DataFile& file);

}  // namespace floe::iceberg
