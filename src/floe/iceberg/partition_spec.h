// PartitionSpec and PartitionField (spec: "Partitioning").
//
// A partition field derives one partition value from one or more source
// columns (v3: multi-argument transforms take several `source-ids`) through a
// Transform. Field ids of partition fields start at 1000 (spec: "partition
// field IDs ... start at 1000").
//
// Thread safety: plain values.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/schema.h"
#include "floe/iceberg/transform.h"

namespace floe::iceberg {

struct PartitionField {
  std::vector<int32_t> source_ids;  // at least one; one unless the transform takes several
  int32_t field_id = 0;
  std::string name;
  Transform transform = Transform::Identity();

  // The first (for single-argument transforms the only) source column.
  int32_t source_id() const { return source_ids.empty() ? -1 : source_ids[0]; }
  bool operator==(const PartitionField&) const = default;
};

struct PartitionSpec {
  static constexpr int32_t kInitialSpecId = 0;
  // spec: v1 partition field ids were assigned from 1000 in order.
  static constexpr int32_t kFirstFieldId = 1000;
  // last-partition-id of a table that never had a partition field.
  static constexpr int32_t kUnpartitionedLastAssignedId = 999;

  int32_t spec_id = kInitialSpecId;
  std::vector<PartitionField> fields;

  // True when no field partitions the data (none, or only void transforms).
  bool is_unpartitioned() const;
  // The largest field id, or kUnpartitionedLastAssignedId when there are none.
  int32_t LastAssignedFieldId() const;
  // The partition tuple type for `schema`: a struct of the fields' result
  // types, all optional, with the partition field ids. InvalidArgument
  // naming the field when a source column is missing or the transform does
  // not apply to it (unknown transforms yield an optional "unknown" value).
  Result<TypePtr> PartitionType(const Schema& schema) const;

  bool operator==(const PartitionSpec&) const = default;
};

// Checks that every field's sources exist in `schema` with types the
// transform accepts, and that field ids and names are unique. InvalidArgument
// naming the field otherwise. Unknown transforms are accepted.
Status ValidatePartitionSpec(const PartitionSpec& spec, const Schema& schema);

}  // namespace floe::iceberg
