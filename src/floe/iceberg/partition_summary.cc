#include "floe/iceberg/partition_summary.h"

#include <algorithm>
#include <cmath>

namespace floe::iceberg {

PartitionSummaryBuilder::PartitionSummaryBuilder(const Type& partition_type) {
  fields_.resize(partition_type.fields().size());
  for (size_t i = 0; i < fields_.size(); ++i) {
    const TypeId t = partition_type.fields()[i].type->id();
    fields_[i].floating = t == TypeId::kFloat || t == TypeId::kDouble;
  }
}

void PartitionSummaryBuilder::Update(const PartitionValues& partition) {
  const size_t n = std::min(partition.size(), fields_.size());
  for (size_t i = 0; i < n; ++i) {
    Field& f = fields_[i];
    const std::optional<Literal>& value = partition[i];
    if (!value.has_value()) {
      f.contains_null = true;
      continue;
    }
    if (f.floating) {
      const bool nan =
          value->type()->id() == TypeId::kFloat ? std::isnan(value->float_value()) : std::isnan(value->double_value());
      if (nan) {
        // spec: bounds are over "non-null, non-NaN values".
        f.contains_nan = true;
        continue;
      }
    }
    if (!f.lower.has_value() || value->Compare(*f.lower) < 0) f.lower = *value;
    if (!f.upper.has_value() || value->Compare(*f.upper) > 0) f.upper = *value;
  }
}

std::vector<PartitionFieldSummary> PartitionSummaryBuilder::Summaries() const {
  std::vector<PartitionFieldSummary> out(fields_.size());
  for (size_t i = 0; i < fields_.size(); ++i) {
    const Field& f = fields_[i];
    out[i].contains_null = f.contains_null;
    out[i].contains_nan = f.contains_nan;
    if (f.lower.has_value()) out[i].lower_bound = f.lower->ToBytes();
    if (f.upper.has_value()) out[i].upper_bound = f.upper->ToBytes();
  }
  return out;
}

}  // namespace floe::iceberg
