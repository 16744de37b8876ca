// Reading a column chunk's split-block bloom filter (spec: BloomFilter.md):
// a BloomFilterHeader, then the bitset, at ColumnMetaData.bloom_filter_offset.
//
// Thread safety: pure functions over a shared ParquetFileReader.

#pragma once

#include <optional>

#include "floe/base/result.h"
#include "floe/formats/parquet/bloom_filter.h"
#include "floe/formats/parquet/file_reader.h"

namespace floe::parquet {

// The filter of (row_group, column), or nullopt when the chunk has none.
// One request (two when the writer did not record the filter's length and
// the bitset is larger than the first guess). Corrupt when the header does
// not decode, the algorithm, hash or compression is not the spec's, or the
// bitset runs past the file; InvalidArgument for a bad row group or column.
Result<std::optional<SplitBlockBloomFilter>> ReadBloomFilter(const ParquetFileReader& file, int row_group,
                                                              int column);

}  // namespace floe::parquet
