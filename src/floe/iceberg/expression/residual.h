// What remains of a row filter for the rows of one partition (Java's
// ResidualEvaluator), and whether a partition can hold matches at all.
//
// For each predicate of the filter (NOT rewritten away first) on a column
// that partition fields derive from: when a strict projection through one of
// them holds for the partition tuple, every row of the partition satisfies
// the predicate and it becomes true; when an inclusive projection does not
// hold, no row does and it becomes false; otherwise it stays. The residual
// is then simplified, so a partition entirely inside the filter gets `true`
// (no row filtering needed) and one outside gets `false`. An unpartitioned
// spec leaves the filter itself.
//
// Thread safety: immutable after Make; the methods may run on many threads
// at once.

#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"

namespace floe::iceberg {

class ResidualEvaluator {
 public:
  // `bound` is bound to `schema`. The projections of every predicate are
  // made here, once. InvalidArgument when `spec` does not apply to `schema`.
  static Result<ResidualEvaluator> Make(const PartitionSpec& spec, const Schema& schema, const ExpressionPtr& bound);

  // The residual for the partition tuple `partition` (one value per spec
  // field, in order; missing trailing values count as null).
  ExpressionPtr ResidualFor(const PartitionValues& partition) const;

 private:
  struct Projections {
    std::vector<ExpressionPtr> strict;
    std::vector<ExpressionPtr> inclusive;
  };

  ResidualEvaluator() = default;
  ExpressionPtr Residual(const ExpressionPtr& e, const PartitionValues& partition) const;

  ExpressionPtr filter_;     // as given
  ExpressionPtr rewritten_;  // without NOT; owns the nodes keyed below
  bool unpartitioned_ = true;
  std::vector<int32_t> field_ids_;
  std::unordered_map<const Expression*, Projections> projections_;
};

// The inclusive projection of a row filter evaluated on data files'
// partition tuples: false when the file cannot hold a matching row.
class PartitionEvaluator {
 public:
  // InvalidArgument as ProjectInclusive.
  static Result<PartitionEvaluator> Make(const PartitionSpec& spec, const Schema& schema, const ExpressionPtr& bound);

  bool MightMatch(const PartitionValues& partition) const;
  const ExpressionPtr& partition_filter() const { return projected_; }

 private:
  PartitionEvaluator(ExpressionPtr projected, std::vector<int32_t> field_ids)
      : projected_(std::move(projected)), field_ids_(std::move(field_ids)) {}

  ExpressionPtr projected_;
  std::vector<int32_t> field_ids_;
};

}  // namespace floe::iceberg
