// Record assembly: the Dremel levels and values of a field's leaf columns
// become one floe Array, following the field's FieldPlan (schema.h).
//
// Each node of the plan reads the levels of its first leaf column. A level
// is a *slot* of a node when its repetition level is at most the node's
// enclosing list's (it starts a new element there) and its definition level
// reaches that list's element (the element exists); the node's value in a
// slot is non-null when the definition level reaches the node's own.
// Top-level nodes have one slot per record.
//
// Thread safety: pure function over its inputs.

#pragma once

#include <cstdint>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/array.h"
#include "floe/formats/parquet/reader/leaf_batch.h"
#include "floe/formats/parquet/schema.h"

namespace floe::parquet {

// Builds the Array of the top-level field `plan` from `leaves`, indexed by
// column number (entries for the field's columns must be set), each holding
// the same `num_records` records. Takes the leaves' value buffers (the
// batches are left cleared). Corrupt when the columns disagree about the
// records' shape, or a map key is null.
Result<Array> AssembleField(const FieldPlan& plan, const std::vector<LeafBatch*>& leaves,
                            const std::vector<ColumnDescriptor>& columns, int64_t num_records);

}  // namespace floe::parquet
