// The page index of column chunks (spec: parquet-format PageIndex.md): per
// data page its min/max, null count and null-page flag (ColumnIndex) and its
// location and first row (OffsetIndex), written by the writer between the
// row groups and the footer. A reader uses it to skip pages a predicate
// excludes without reading them.
//
// Thread safety: pure functions over a shared ParquetFileReader.

#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/metadata.h"

namespace floe::parquet {

struct ColumnPageIndex {
  // Absent when the writer wrote none, or wrote one that contradicts what
  // its column can hold (a column without nulls with a page of only nulls, a
  // negative null count): such an index would prune pages with matching
  // rows, so it is not used, and `column_index_unused` says why.
  std::optional<ColumnIndex> column_index;
  std::optional<OffsetIndex> offset_index;
  std::string column_index_unused;
};

// The row after the last of page `page` of `index`, in a row group of
// `row_group_rows` rows: the next page's first row, or the row group's end.
// Requires page < index.page_locations.size().
inline int64_t PageEndRow(const OffsetIndex& index, size_t page, int64_t row_group_rows) {
  return page + 1 < index.page_locations.size() ? index.page_locations[page + 1].first_row_index : row_group_rows;
}

// Reads the page indexes of `columns` in `row_group`, with one coalesced
// request, in the order of `columns`. InvalidArgument for a bad row group or
// column; Corrupt (naming file, column and row group) when an index lies
// outside the file, does not decode, or does not match the chunk (page
// counts differ, a column index list with another count than its pages,
// rows not increasing from 0). A column index that decodes but contradicts
// its column is dropped, not an error (ColumnPageIndex::column_index_unused).
Result<std::vector<ColumnPageIndex>> ReadPageIndex(const ParquetFileReader& file, int row_group,
                                                   std::span<const int> columns);

// As above, but the column index only of the columns for which
// `want_column_index[i]` is true (a predicate's columns): a projected column
// needs only its offset index to skip pages, and its column index (min/max
// per page) is the larger part. `want_column_index` has one entry per column.
Result<std::vector<ColumnPageIndex>> ReadPageIndex(const ParquetFileReader& file, int row_group,
                                                   std::span<const int> columns,
                                                   const std::vector<bool>& want_column_index);

}  // namespace floe::parquet
