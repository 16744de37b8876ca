// Projecting a row filter onto a partition spec (spec: "Scan Planning";
// Java's Projections.inclusive / strict).
//
// The inclusive projection holds for the partition tuple of every row the
// filter selects, so a partition (or manifest summary) where it does not
// hold cannot contain a match. The strict projection holds only for
// partitions all of whose rows the filter selects. The filter is rewritten
// without NOT first; each predicate projects through every partition field
// of its column (inclusive: the projections and-ed, none means true; strict:
// or-ed, none means false). The results are bound to the partition tuple:
// field ids are partition field ids, types the partition field types
// (PartitionSpec::PartitionType), columns the partition field names.
//
// Per transform (as Java's Transform.project / projectStrict):
//   identity   every predicate, as is;
//   bucket[N]  inclusive =, in; strict !=, not in (on the bucket numbers);
//   truncate[W] on int, long, decimal, and year/month/day/hour on dates and
//              timestamps: inclusive <, <=, >, >=, =, in; strict <, <=, >,
//              >=, !=, not in — with the bounds moved by one unit where the
//              comparison is strict (x < v as f(x) <= f(v - 1)), and for the
//              time transforms Java's fix-ups for the negative values that
//              writers before Iceberg 0.10 put one partition too high;
//   truncate[W] on strings and binary: inclusive <, <=, >, >=, =, in,
//              starts with, and not starts with for prefixes of at most W
//              characters; strict <, <=, >, >=, !=, not in, starts with
//              (prefixes up to W), not starts with;
//   void, unknown transforms, multi-argument transforms: nothing.
// Null tests project through every transform but void and unknown.
//
// Errors: InvalidArgument when `spec` does not apply to `schema` or `bound`
// is not bound. Thread safety: pure functions.

#pragma once

#include "floe/base/result.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"

namespace floe::iceberg {

Result<ExpressionPtr> ProjectInclusive(const PartitionSpec& spec, const Schema& schema, const ExpressionPtr& bound);
Result<ExpressionPtr> ProjectStrict(const PartitionSpec& spec, const Schema& schema, const ExpressionPtr& bound);

}  // namespace floe::iceberg
