// Take: the rows of an array or batch at given positions, in that order, as
// new arrays; and Concatenate, batches end to end (the selection kernel behind filtering rows, sorting a batch and
// splitting it by partition).
//
// Thread safety: pure functions over immutable inputs.

#pragma once

#include <cstdint>
#include <span>

#include "floe/base/result.h"
#include "floe/columnar/array.h"
#include "floe/columnar/record_batch.h"

namespace floe {

// Element `indices[k]` of `array` becomes element k (nulls stay null), for
// every type, nested ones included; a dictionary array's result shares its
// dictionary. InvalidArgument for an index outside [0, length); Internal
// when memory runs out.
Result<Array> TakeArray(const Array& array, std::span<const int64_t> indices);

// TakeArray on every column; the schema is shared.
Result<RecordBatch> TakeRows(const RecordBatch& batch, std::span<const int64_t> indices);

// The rows where `keep[i]` is nonzero (keep.size() == num_rows, else
// InvalidArgument); a batch whose rows are all kept is returned as is.
Result<RecordBatch> FilterRows(const RecordBatch& batch, std::span<const uint8_t> keep);

// The rows of `batches` one after another, as one batch of their (shared)
// schema. InvalidArgument when there are none or the schemas differ; a
// single batch is returned as is. Dictionary columns stay encoded: with one
// dictionary (the same ArrayData) in every batch it is shared; otherwise the
// result's dictionary holds every batch's dictionary values one after
// another and the indices are shifted to them (DictionaryBuilder);
// InvalidArgument when those pass 2^31 - 1 values or bytes.
Result<RecordBatch> ConcatenateRows(std::span<const RecordBatch> batches);

}  // namespace floe
