// Pruning manifests by their partition field summaries (spec: "Manifest
// Lists", field_summary; Java's ManifestEvaluator.forRowFilter).
//
// The row filter is projected inclusively onto the manifest's partition
// spec once (projection.h), then checked against each manifest's
// PartitionFieldSummary list: contains_null, contains_nan and the lower and
// upper bounds of the partition values. Eval is false only when no data file
// in the manifest can hold a matching row. A manifest without summaries, or
// with fewer than the spec has fields, might match; so does a summary whose
// bounds do not decode, and one with no bounds that claims neither nulls nor
// NaNs (Java reads that as all-null; floe does not trust it). Otherwise as
// Java: no lower bound with nulls or NaNs present means every value is null
// or NaN, in-lists beyond 200 values are not checked, `starts with` compares
// the bounds cut to the prefix's length.
//
// Thread safety: immutable after Make; Eval may run on many threads at once.

#pragma once

#include <cstdint>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/manifest_file.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"

namespace floe::iceberg {

class ManifestEvaluator {
 public:
  // `bound_row_filter` is bound to `schema`. InvalidArgument as
  // ProjectInclusive.
  static Result<ManifestEvaluator> Make(const PartitionSpec& spec, const Schema& schema,
                                        const ExpressionPtr& bound_row_filter);

  // Whether `manifest` (written with this spec) might hold matching rows.
  bool Eval(const ManifestFile& manifest) const;

  // The filter on the partition tuple that Eval checks.
  const ExpressionPtr& partition_filter() const { return projected_; }

 private:
  ManifestEvaluator(ExpressionPtr projected, std::vector<int32_t> field_ids)
      : projected_(std::move(projected)), field_ids_(std::move(field_ids)) {}

  ExpressionPtr projected_;
  std::vector<int32_t> field_ids_;  // the spec's partition field ids, in order
};

// The one-off form; true (might match) when the projection fails.
bool ManifestMightMatch(const PartitionSpec& spec, const Schema& schema, const ExpressionPtr& bound_row_filter,
                        const ManifestFile& manifest);

}  // namespace floe::iceberg
