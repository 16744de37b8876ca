// LeafBatch: what a ColumnReader hands the record assembler for one leaf
// column — the levels of whole records and their non-null values, already in
// floe's value layout.
//
// Thread safety: a plain value; one thread at a time.

#pragma once

#include <cstdint>
#include <vector>

#include "floe/columnar/buffer_builder.h"

namespace floe::parquet {

struct LeafBatch {
  int64_t num_records = 0;
  int64_t num_levels = 0;
  // One entry per level; empty when the column's max level is 0.
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;
  // Values of the levels whose definition level is the column's maximum, in order.
  int64_t num_values = 0;
  // Fixed-width types: num_values values of the floe type's byte width;
  // bool: one byte (0 or 1) per value.
  BufferBuilder values;
  // string and binary: num_values + 1 int32 offsets from 0, and the bytes.
  BufferBuilder offsets;
  BufferBuilder data;

  void Clear() {
    num_records = num_levels = num_values = 0;
    def_levels.clear();
    rep_levels.clear();
    // Finish() empties a builder; what it returns is dropped.
    (void)values.Finish();
    (void)offsets.Finish();
    (void)data.Finish();
  }
};

}  // namespace floe::parquet
