// Pruning by statistics: which row groups, and which rows of a row group by
// its page index, may hold rows matching a conjunction of simple column
// predicates. The answers are conservative — "may match" whenever the
// statistics cannot exclude — so a scan returns a superset of the matching
// rows and the engine filters rows itself.
//
// Values are given as Parquet statistics encode them (PLAIN, no length
// prefix: 4-byte little-endian INT32, 8-byte INT64/DOUBLE, the bytes of a
// BYTE_ARRAY, big-endian two's complement for FIXED_LEN_BYTE_ARRAY
// decimals), so engines with richer expression languages (Iceberg) map
// their literals once, with the Plain* helpers below, and keep their own
// expression trees.
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/formats/parquet/metadata.h"
#include "floe/formats/parquet/page_index.h"
#include "floe/formats/parquet/schema.h"
#include "floe/formats/parquet/statistics.h"

namespace floe::parquet {

struct RowRange;

struct ColumnPredicate {
  enum class Op : uint8_t { kEq, kLt, kLtEq, kGt, kGtEq, kIn, kIsNull, kIsNotNull };
  int column = -1;  // leaf column index (ParquetSchema::columns())
  Op op = Op::kEq;
  std::vector<std::string> values;  // one for comparisons, any number for kIn, none for null tests
};

// Statistics-encoded values of common types.
std::string PlainInt32(int32_t value);
std::string PlainInt64(int64_t value);
std::string PlainFloat(float value);
std::string PlainDouble(double value);

// Orders two statistics values of `column` under its sort order (signed or
// unsigned integers, floats and FLOAT16 by value, unsigned bytes; decimals in
// bytes as signed big-endian; INT96 chronologically under
// INT96_TIMESTAMP_ORDER): <0, 0, >0. nullopt for an INTERVAL and for INT96
// under any other order (no order), for a NaN and a value of the wrong size.
// The values are bounds as EffectiveStatistics() / PageStatistics() keep
// them, which already leave out those of columns without a usable order.
std::optional<int> CompareStatisticsValues(const ColumnDescriptor& column, std::string_view a, std::string_view b);

// Whether values summarised by `stats` (with `num_values` values, nulls
// included, when known; -1 otherwise) may satisfy `predicate`. Bounds with
// min above max are not used: no valid file has them, and writers that
// compared in the wrong order (unsigned bytes for signed decimals) wrote
// them.
bool MayMatch(const ColumnDescriptor& column, const ColumnPredicate& predicate, const ColumnStatistics& stats,
              int64_t num_values);

// The byte strings to look up in the column's bloom filter for predicate
// value `value` (statistics encoding), any of which a row holding it was
// hashed as: writers hash a value's PLAIN bytes, and a predicate compares
// floats by value, so a float zero is looked up as both -0 and +0. nullopt
// when the bloom filter cannot rule the value out: a NaN (whose bits vary),
// a value whose size is not the physical type's, a BYTE_ARRAY decimal
// (writers store them in different widths), a boolean.
std::optional<std::vector<std::string>> BloomFilterProbes(const ColumnDescriptor& column, std::string_view value);

// Whether row group `row_group` may hold matching rows: every predicate is
// checked against its column chunk's statistics.
bool RowGroupMayMatch(const ParquetSchema& schema, const RowGroup& row_group,
                      const std::vector<ColumnPredicate>& predicates);

// The rows of a row group of `num_rows` rows that may match, from the page
// indexes of the predicates' columns (`page_index[i]` for `predicates[i]`):
// the pages each predicate keeps, intersected. A predicate whose column has
// no page index keeps every row. Sorted, disjoint, non-empty ranges.
std::vector<RowRange> MatchingRowRanges(const ParquetSchema& schema, int64_t num_rows,
                                        const std::vector<ColumnPredicate>& predicates,
                                        const std::vector<ColumnPageIndex>& page_index);

}  // namespace floe::parquet
