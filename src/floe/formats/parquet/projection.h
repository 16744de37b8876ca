// Projection: the parts of a Parquet file's fields a scan reads, as pruned
// FieldPlans — whole top-level fields, or nested fields by dotted path or
// field id with their ancestors (structs keep only the selected children; a
// list or map whose element holds a selected field keeps the pruned element;
// map keys always stay).
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/parquet/schema.h"

namespace floe::parquet {

// Fields by dotted path of field names ("id", "address.city",
// "tags.element", "attrs.value.x"), output in the order their top-level
// fields are first named. InvalidArgument naming a path that matches no
// field (the message lists the file's top-level fields).
Result<std::vector<FieldPlan>> ProjectByPaths(const ParquetSchema& schema, const std::vector<std::string>& paths);

// Fields by field id at any depth, output in the order their top-level
// fields are first selected. Ids the file lacks select nothing (a table
// reader fills such columns from its own schema).
std::vector<FieldPlan> ProjectByFieldIds(const ParquetSchema& schema, const std::vector<int32_t>& ids);

}  // namespace floe::parquet
