// Column chunk and page statistics as a reader may trust them.
//
// spec: parquet.thrift Statistics and ColumnOrder. min_value/max_value follow
// the column's order (ColumnDescriptor::statistics_order) and are ignored
// where that order is unknown or undefined; a NaN is never a bound (TYPE_ORDER
// ignores NaN bounds, IEEE_754_TOTAL_ORDER writes them only when every value
// is NaN). The deprecated min/max were written under signed byte-wise order
// by old writers (PARQUET-686), which is wrong for strings, decimals in bytes,
// unsigned integers and INT96, so they are used only for types whose signed
// order is the right one.
//
// Thread safety: pure functions.

#pragma once

#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "floe/formats/parquet/metadata.h"
#include "floe/formats/parquet/schema.h"

namespace floe::parquet {

struct ColumnStatistics {
  std::optional<std::string> min;  // PLAIN-encoded value, without a length prefix
  std::optional<std::string> max;
  bool min_exact = true;  // false: a truncated lower bound
  bool max_exact = true;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<int64_t> nan_count;
  bool from_deprecated_fields = false;
};

// A fixed-width value (int32_t, int64_t, float, double) as Parquet
// statistics encode it: PLAIN, little-endian.
template <typename T>
std::string PlainValue(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

// The bounds and counts of `stats` that are valid for `column`.
ColumnStatistics EffectiveStatistics(const ColumnDescriptor& column, const Statistics& stats);

// The same for page `page` of a column index: its bounds (none for a null
// page), null and NaN counts. The page index has no exactness flags; its
// bounds may be truncated, which keeps them bounds.
ColumnStatistics PageStatistics(const ColumnDescriptor& column, const ColumnIndex& index, size_t page);

// A statistics value as text in the column's logical type ("2026-10-21",
// "12.50", "'Lisbon'"); "<n bytes: invalid>" when its size does not fit.
std::string FormatStatisticsValue(const ColumnDescriptor& column, std::string_view value);

}  // namespace floe::parquet
