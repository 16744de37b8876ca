// LeafBatch: what a ColumnReader hands the record assembler for one leaf
// column — the levels of whole records and their non-null values, already in
// floe's value layout.
//
// Thread safety: a plain value; one thread at a time.

#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "floe/base/buffer.h"
#include "floe/base/result.h"
#include "floe/columnar/array.h"
#include "floe/columnar/buffer_builder.h"
#include "floe/formats/parquet/encoding/byte_array.h"

namespace floe::parquet {

struct LeafBatch {
  int64_t num_records = 0;
  int64_t num_levels = 0;
  // One entry per level; empty when the column's max level is 0, and empty
  // too when every level of the batch is the column's maximum definition
  // level (a batch without nulls: the reader then leaves them out).
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;
  // Values of the levels whose definition level is the column's maximum, in order.
  int64_t num_values = 0;
  // Fixed-width types: num_values values of the floe type's byte width;
  // bool: one byte (0 or 1) per value. Either in `values`, or, when the
  // batch's values are one run of PLAIN bytes already in floe's layout and
  // aligned to their width, in `borrowed_values`: a slice of the page's
  // buffer (chunk or decompression buffer) that shares its ownership, so the
  // values are never copied. At most one of the two is non-empty.
  BufferBuilder values;
  Buffer borrowed_values;
  // The bytes of values the batch may reach (set by the reader when it knows
  // the record count): the first copy into `values` reserves that much at
  // once instead of growing page by page.
  int64_t values_capacity_hint = 0;
  // string and binary: num_values + 1 int32 offsets from 0, and the bytes.
  // Dictionary columns: `values` holds num_values int32 indices into
  // `dictionary` (the chunk's dictionary page; null when it has none)
  // followed by the values here, which pages without the dictionary added.
  BufferBuilder offsets;
  BufferBuilder data;
  std::shared_ptr<const ArrayData> dictionary;
  // string and binary: the most bytes `data` may hold (set by the scan, at
  // most what int32 offsets address). A decoder that would pass it sets
  // `data_full` and fails; the scan then reads the batch again, shorter.
  int64_t max_data_bytes = encoding::kMaxByteArrayDataSize;
  bool data_full = false;
  // Where `data_full` was set: how many values in `offsets` would have fit
  // (set by the decoder), and how many of the batch's records they complete
  // (set by the column reader; -1 where it cannot tell, as in a repeated
  // column). The scan reads the batch again with that many rows.
  int64_t values_fit = -1;
  int64_t records_fit = -1;

  // The fixed-width values as a Buffer of num_values values; both forms are
  // empty afterwards.
  Buffer TakeValues() {
    if (!borrowed_values.empty()) return std::move(borrowed_values);
    return values.Finish();
  }
  // Room for `bytes` more bytes in `values`, and for the hinted total.
  Status ReserveValues(int64_t bytes) {
    const int64_t hinted = values_capacity_hint - values.size();
    return values.Reserve(bytes > hinted ? bytes : hinted);
  }
  // Turns borrowed values into owned ones, so more can be appended.
  Status OwnBorrowedValues() {
    if (borrowed_values.empty()) return Status::OK();
    FLOE_RETURN_IF_ERROR(ReserveValues(borrowed_values.size()));
    values.UnsafeAppend(borrowed_values.data(), borrowed_values.size());
    borrowed_values = Buffer();
    return Status::OK();
  }

  void Clear() {
    num_records = num_levels = num_values = 0;
    values_capacity_hint = 0;
    data_full = false;
    values_fit = records_fit = -1;
    def_levels.clear();
    rep_levels.clear();
    borrowed_values = Buffer();  // releases the page it shared
    dictionary.reset();
    // Finish() empties a builder; what it returns is dropped.
    (void)values.Finish();
    (void)offsets.Finish();
    (void)data.Finish();
  }
};

}  // namespace floe::parquet
