// What the writer records as statistics: bounds under the column order,
// their truncation, and the per-page values the column index lists.
//
// spec: parquet.thrift Statistics, ColumnOrder (TYPE_ORDER is what floe
// writes: signed integers signed, unsigned integers unsigned, decimals by
// value, strings and other bytes unsigned byte-wise) and ColumnIndex. Floating
// point follows the TYPE_ORDER writing rules: nan_count always set, NaN never
// a bound, no bounds when every value is NaN, a zero minimum written -0.0 and
// a zero maximum +0.0.
//
// Long BYTE_ARRAY bounds are truncated: a minimum to its first `length` bytes
// (still a lower bound), a maximum to a prefix whose last byte, or for UTF-8
// strings its last code point, is incremented (still an upper bound, and a
// valid string); is_*_value_exact is then false. A maximum that cannot be
// incremented (all 0xff) is left out.
//
// Thread safety: pure functions and plain values.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "floe/formats/parquet/metadata.h"
#include "floe/formats/parquet/schema_writer.h"

namespace floe::parquet {

enum class ColumnSortOrder : uint8_t {
  kSigned,       // BOOLEAN (false < true), signed INT32/INT64, FLOAT, DOUBLE
  kUnsigned,     // INT32/INT64 holding unsigned integers
  kBytes,        // BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY: unsigned byte-wise
  kSignedBytes,  // decimals in FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY: big-endian two's complement
  kFloat16,      // FLOAT16 in FIXED_LEN_BYTE_ARRAY(2): by the half's value
  // No bounds: INT96 (spec: "The sort order used for INT96 ... is undefined"),
  // and the types TYPE_ORDER leaves undefined: INTERVAL, GEOMETRY, GEOGRAPHY.
  kUndefined,
};

// Whether the leaf holds floating point (FLOAT, DOUBLE, FLOAT16): NaN counts
// and the TYPE_ORDER rules for NaN and zeros apply.
bool IsFloatingPoint(const WriterColumn& column);

// The order of a leaf of `physical` type holding floe values of `type`.
ColumnSortOrder SortOrderFor(Type physical, const DataType& type);
ColumnSortOrder SortOrderFor(const WriterColumn& column);

// <0, 0, >0 as a is below, equal to or above b; both PLAIN-encoded values of
// `physical` (without a length prefix), of the right size (unchecked; the
// writer's BYTE_ARRAY decimals all have the precision's width).
int CompareStatisticsValues(Type physical, ColumnSortOrder order, std::string_view a, std::string_view b);

// A bound as written: the value and whether it is the exact extreme.
struct StatisticsBound {
  std::string value;
  bool exact = true;
};

// `min` cut to at most `length` bytes (at a code point boundary when utf8).
StatisticsBound TruncateLowerBound(std::string_view min, int32_t length, bool utf8);
// The shortest bound >= max of at most `length` bytes; std::nullopt when no
// such prefix can be incremented.
std::optional<StatisticsBound> TruncateUpperBound(std::string_view max, int32_t length, bool utf8);

// One page's or one chunk's statistics while they are gathered.
struct StatisticsAccumulator {
  int64_t null_count = 0;
  int64_t nan_count = 0;  // FLOAT and DOUBLE only
  bool has_bounds = false;
  std::string min;  // PLAIN, exact
  std::string max;

  // Folds `other` into this one.
  void Merge(const StatisticsAccumulator& other, Type physical, ColumnSortOrder order);
};

// The Statistics struct for `stats` of `column`: min_value/max_value (also
// the deprecated min/max where the sort order is signed, for old readers),
// null_count, nan_count for floating point, exactness flags. BYTE_ARRAY
// bounds are truncated to `truncate_length` bytes (<= 0: never).
Statistics MakeStatistics(const WriterColumn& column, const StatisticsAccumulator& stats, int32_t truncate_length);

}  // namespace floe::parquet
