// PartitionSpecUpdate: partition evolution (spec: "Partition Evolution";
// Java's UpdatePartitionSpec). Produces a new spec for the metadata builder's
// add-spec; old data keeps its old spec id, so no file is rewritten.
//
// Removing a field in a v1 table replaces its transform with void (spec: v1
// specs must keep their fields, in order); in v2+ the field is dropped. A
// field added with the same source and transform as one in an earlier spec
// gets that field's id back, so partition values stay comparable.
//
// Thread safety: not thread-safe; one writer builds one update.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"

namespace floe::iceberg {

// The name Java gives a partition field: "ts_day", "id_bucket" ("id_bucket_16"
// is not used), "name_trunc", "city" for identity, "x_null" for void.
std::string DefaultPartitionFieldName(const std::string& source_name, const Transform& transform);

class PartitionSpecUpdate {
 public:
  // `specs`: every spec of the table (for id reuse); `base`: the default
  // spec being changed; `schema`: the current schema.
  PartitionSpecUpdate(std::vector<PartitionSpec> specs, PartitionSpec base, Schema schema, int32_t last_partition_id,
                      int format_version);

  // Adds `transform(source column)`, named `name` or by default as above.
  // InvalidArgument when the column does not exist, the transform does not
  // apply to its type, or the spec already has that field or name.
  PartitionSpecUpdate& AddField(const std::string& source_name, const Transform& transform, std::string name = "");
  // Removes the field named `name` (InvalidArgument when there is none).
  PartitionSpecUpdate& RemoveField(const std::string& name);
  PartitionSpecUpdate& RenameField(const std::string& name, const std::string& new_name);

  // The new spec (spec id: a placeholder, the builder assigns it) and the
  // new last-partition-id; the first error any change met.
  struct Applied {
    PartitionSpec spec;
    int32_t last_partition_id = 0;
  };
  Result<Applied> Apply() const;

 private:
  void Fail(std::string message);

  std::vector<PartitionSpec> specs_;
  PartitionSpec spec_;
  Schema schema_;
  int32_t last_partition_id_;
  int format_version_;
  Status error_;
};

}  // namespace floe::iceberg
