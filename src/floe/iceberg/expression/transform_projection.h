// One bound predicate through one partition transform: the predicate on the
// partition value implied by it (inclusive) or implying it (strict), after
// Java's Transform.project / projectStrict and ProjectionUtil, including its
// fix-ups of time projections for files written with the pre-0.10 bug that
// put negative times one partition too high. Internal to
// iceberg/expression/; projection.h documents the cases.

#pragma once

#include "floe/base/result.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/partition_spec.h"

namespace floe::iceberg {

// The projection of `pred` (bound to the field's source column) onto
// `field`, bound to the partition field (its id and name, of
// `result_type`); nullptr when the transform yields none for the predicate.
// Errors from applying the transform (InvalidArgument) pass through.
Result<ExpressionPtr> ProjectPredicate(const PartitionField& field, const TypePtr& result_type,
                                       const Expression& pred, bool strict);

}  // namespace floe::iceberg
