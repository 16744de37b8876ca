// PartitionSummaryBuilder: the manifest list's `field_summary` per partition
// field (spec: "Manifest Lists"), accumulated over a manifest's entries.
//
// contains_null: some tuple has a null value for the field; contains_nan:
// some float/double value is NaN (written false for other types, as Java
// does); lower/upper bound: the least and greatest non-null, non-NaN value in
// the spec's bound order (so -0.0 precedes +0.0, as the spec's note asks),
// as Appendix D bytes.
//
// Thread safety: a builder belongs to one thread.

#pragma once

#include <optional>
#include <vector>

#include "floe/iceberg/literal.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/manifest_file.h"

namespace floe::iceberg {

class PartitionSummaryBuilder {
 public:
  // `partition_type`: the struct of the partition fields.
  explicit PartitionSummaryBuilder(const Type& partition_type);

  // Adds one tuple; it must have one value per field, of the field's type
  // (the manifest writer checks this before).
  void Update(const PartitionValues& partition);

  // One summary per field, in field order.
  std::vector<PartitionFieldSummary> Summaries() const;

 private:
  struct Field {
    bool floating = false;
    bool contains_null = false;
    bool contains_nan = false;
    std::optional<Literal> lower;
    std::optional<Literal> upper;
  };
  std::vector<Field> fields_;
};

}  // namespace floe::iceberg
