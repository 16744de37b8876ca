// Record shredding (Dremel; spec: parquet-format's definition and repetition
// levels): one leaf column's share of a floe array of any nesting becomes a
// definition level and a repetition level per leaf slot plus the non-null leaf
// values, in order.
//
// A leaf slot is a null at some level, an empty list, or a value. Its
// definition level counts the OPTIONAL and REPEATED nodes above it that are
// defined; its repetition level says at which repeated node it starts a new
// list (0: a new record). Values are not copied here: the result names which
// elements of the leaf array are present, and the column writer gathers them
// a page at a time.
//
// Flat columns take a fast path: a required top-level column yields no
// levels at all, an optional one its definition levels straight from the
// validity bitmap, and neither builds an index list.
//
// Thread safety: a ShreddedLeaf is used by one thread at a time.

#pragma once

#include <cstdint>
#include <vector>

#include "floe/base/status.h"
#include "floe/columnar/array.h"
#include "floe/formats/parquet/schema_writer.h"

namespace floe::parquet {

// One leaf column's levels and values for a batch. Reused across batches:
// ShredLeaf() clears it but keeps the vectors' memory.
struct ShreddedLeaf {
  std::vector<int16_t> def_levels;  // num_levels entries; empty when max_definition_level == 0
  std::vector<int16_t> rep_levels;  // num_levels entries; empty when max_repetition_level == 0
  int64_t num_levels = 0;
  int64_t num_values = 0;  // slots at the maximum definition level

  // The leaf array the values come from (borrowed from the shredded column,
  // which must outlive this). Indices below are absolute: ArrayData::offset
  // included.
  const ArrayData* values = nullptr;
  // true: the values are values[indices[k]]. false: they are the elements of
  // [begin, end) whose validity bit is set (every one when `values` has no
  // validity bitmap).
  bool has_indices = false;
  std::vector<int64_t> indices;
  int64_t begin = 0;
  int64_t end = 0;
};

// Shreds `column`, the array of the top-level field `leaf.top_level_field`,
// into `out` for `leaf`. InvalidArgument, naming the column, when the array
// does not fit the leaf's path (wrong type or children) or holds a null where
// the schema says REQUIRED; `out` is then unspecified.
Status ShredLeaf(const WriterColumn& leaf, const Array& column, ShreddedLeaf* out);

}  // namespace floe::parquet
