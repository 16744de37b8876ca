#include "floe/formats/parquet/statistics_filter.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "floe/formats/parquet/encoding/float16.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/parquet/statistics_writer.h"

namespace floe::parquet {
namespace {

template <typename T>
T Load(std::string_view v) {
  T x;
  std::memcpy(&x, v.data(), sizeof(T));
  return x;
}

template <typename T>
bool IsNaN(std::string_view v) {
  return std::isnan(Load<T>(v));
}

// Big-endian two's complement of any widths (BYTE_ARRAY decimals vary in
// size): sign first, then the bytes after sign extension to a common width.
int CompareSignedBigEndian(std::string_view a, std::string_view b) {
  const bool a_negative = static_cast<int8_t>(a[0]) < 0;
  const bool b_negative = static_cast<int8_t>(b[0]) < 0;
  if (a_negative != b_negative) return a_negative ? -1 : 1;
  const size_t width = std::max(a.size(), b.size());
  const char fill = a_negative ? '\xff' : '\0';
  for (size_t i = 0; i < width; ++i) {
    const auto x = static_cast<uint8_t>(i + a.size() < width ? fill : a[i + a.size() - width]);
    const auto y = static_cast<uint8_t>(i + b.size() < width ? fill : b[i + b.size() - width]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

// Whether [min, max] may contain a value v with `op` against `value`.
bool RangeMayMatch(const ColumnDescriptor& column, ColumnPredicate::Op op, const std::string& value,
                   const ColumnStatistics& stats) {
  using Op = ColumnPredicate::Op;
  // value against the bounds: <0, 0, >0, or kUnknown (no bound, no order).
  // Plain ints rather than optionals: GCC 12 misreports those as uninitialised.
  constexpr int kUnknown = 2;
  const int vs_min = stats.min ? CompareStatisticsValues(column, value, *stats.min).value_or(kUnknown) : kUnknown;
  const int vs_max = stats.max ? CompareStatisticsValues(column, value, *stats.max).value_or(kUnknown) : kUnknown;
  const bool has_min = vs_min != kUnknown;
  const bool has_max = vs_max != kUnknown;
  switch (op) {
    case Op::kEq:
    case Op::kIn:
      if (has_min && vs_min < 0) return false;  // value < min
      if (has_max && vs_max > 0) return false;  // value > max
      return true;
    case Op::kLt: return !(has_min && vs_min <= 0);   // some v < value needs min < value
    case Op::kLtEq: return !(has_min && vs_min < 0);  // min <= value
    case Op::kGt: return !(has_max && vs_max >= 0);   // max > value (a truncated max still bounds)
    case Op::kGtEq: return !(has_max && vs_max > 0);  // max >= value
    default: return true;
  }
}

}  // namespace

std::string PlainInt32(int32_t value) { return PlainValue(value); }
std::string PlainInt64(int64_t value) { return PlainValue(value); }
std::string PlainFloat(float value) { return PlainValue(value); }
std::string PlainDouble(double value) { return PlainValue(value); }

std::optional<int> CompareStatisticsValues(const ColumnDescriptor& column, std::string_view a, std::string_view b) {
  // Statistics come from the file: check sizes and orderless values before
  // the writer's comparison, which trusts them.
  // The values compared are bounds EffectiveStatistics() or PageStatistics()
  // kept: min_value/max_value under the column's order, or the deprecated
  // min/max, which are signed and kept only where that is the type's order.
  if (column.type->id() == TypeId::kInterval) return std::nullopt;  // spec: "INTERVAL - undefined"
  size_t size = 0;
  switch (column.physical_type) {
    case Type::BOOLEAN: size = 1; break;
    case Type::INT32:
    case Type::FLOAT: size = 4; break;
    case Type::INT64:
    case Type::DOUBLE: size = 8; break;
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (column.conversion == ValueConversion::kFloat16ToFloat32) {
        if (a.size() != 2 || b.size() != 2) return std::nullopt;
        const float x = encoding::HalfToFloat(Load<uint16_t>(a));
        const float y = encoding::HalfToFloat(Load<uint16_t>(b));
        if (std::isnan(x) || std::isnan(y)) return std::nullopt;
        return x < y ? -1 : (y < x ? 1 : 0);  // by value: -0 and +0 are equal, as a predicate sees them
      }
      size = static_cast<size_t>(column.type_length);
      break;
    case Type::BYTE_ARRAY:
      if (column.type->id() == TypeId::kDecimal128) {
        if (a.empty() || b.empty()) return std::nullopt;
        return CompareSignedBigEndian(a, b);
      }
      break;
    case Type::INT96: {
      // spec (INT96_TIMESTAMP_ORDER; under any other order INT96 has none):
      // "compare the last 4 bytes (days) as a little-endian 32-bit
      // signed integer; if equal ..., compare the first 8 bytes as a
      // little-endian 64-bit signed integer (nanos)".
      if (column.statistics_order != StatisticsOrder::kInt96Timestamp || a.size() != 12 || b.size() != 12) {
        return std::nullopt;
      }
      const int32_t day_a = Load<int32_t>(a.substr(8));
      const int32_t day_b = Load<int32_t>(b.substr(8));
      if (day_a != day_b) return day_a < day_b ? -1 : 1;
      const int64_t nanos_a = Load<int64_t>(a);
      const int64_t nanos_b = Load<int64_t>(b);
      return nanos_a < nanos_b ? -1 : (nanos_b < nanos_a ? 1 : 0);
    }
  }
  if (size != 0 && (a.size() != size || b.size() != size)) return std::nullopt;
  if (column.physical_type == Type::FLOAT && (IsNaN<float>(a) || IsNaN<float>(b))) return std::nullopt;
  if (column.physical_type == Type::DOUBLE && (IsNaN<double>(a) || IsNaN<double>(b))) return std::nullopt;
  // Floats by value (IEEE_754_TOTAL_ORDER only adds -0 < +0 and NaN order):
  // a predicate compares by value, where -0 == +0.
  const int c = CompareStatisticsValues(column.physical_type, SortOrderFor(column.physical_type, *column.type), a, b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

bool MayMatch(const ColumnDescriptor& column, const ColumnPredicate& predicate, const ColumnStatistics& given,
              int64_t num_values) {
  using Op = ColumnPredicate::Op;
  const bool inverted =
      given.min && given.max && CompareStatisticsValues(column, *given.min, *given.max).value_or(0) > 0;
  ColumnStatistics without_bounds;
  if (inverted) {
    without_bounds = given;
    without_bounds.min.reset();
    without_bounds.max.reset();
  }
  const ColumnStatistics& stats = inverted ? without_bounds : given;
  const bool all_null = stats.null_count && num_values >= 0 && *stats.null_count == num_values;
  switch (predicate.op) {
    case Op::kIsNull: return !(stats.null_count && *stats.null_count == 0);
    case Op::kIsNotNull: return !all_null;
    case Op::kIn:
      if (all_null) return false;
      return std::any_of(predicate.values.begin(), predicate.values.end(), [&](const std::string& v) {
        return RangeMayMatch(column, Op::kIn, v, stats);
      });
    default:
      if (all_null) return false;  // comparisons never match null
      if (predicate.values.size() != 1) return true;
      return RangeMayMatch(column, predicate.op, predicate.values[0], stats);
  }
}

std::optional<std::vector<std::string>> BloomFilterProbes(const ColumnDescriptor& column, std::string_view value) {
  using Probes = std::vector<std::string>;
  // The value itself, when it has the physical type's size.
  const auto exactly = [&](size_t size) {
    return value.size() == size ? std::optional<Probes>(Probes{std::string(value)}) : std::nullopt;
  };
  // A float of the right size: a zero under both signs (little-endian, the
  // sign is the last byte's top bit); a NaN not at all.
  const auto float_value = [&](bool is_nan, bool is_zero) -> std::optional<Probes> {
    if (is_nan) return std::nullopt;
    if (!is_zero) return Probes{std::string(value)};
    std::string other(value);
    other.back() = static_cast<char>(other.back() ^ 0x80);
    return Probes{std::string(value), std::move(other)};
  };
  switch (column.physical_type) {
    case Type::BOOLEAN: return std::nullopt;
    case Type::INT32: return exactly(4);
    case Type::INT64: return exactly(8);
    case Type::INT96: return exactly(12);
    case Type::FLOAT: {
      if (value.size() != 4) return std::nullopt;
      const float f = Load<float>(value);
      return float_value(std::isnan(f), f == 0.0f);
    }
    case Type::DOUBLE: {
      if (value.size() != 8) return std::nullopt;
      const double d = Load<double>(value);
      return float_value(std::isnan(d), d == 0.0);
    }
    case Type::FIXED_LEN_BYTE_ARRAY: {
      if (column.conversion == ValueConversion::kFloat16ToFloat32) {
        if (value.size() != 2) return std::nullopt;
        const float f = encoding::HalfToFloat(Load<uint16_t>(value));
        return float_value(std::isnan(f), f == 0.0f);
      }
      return column.type_length > 0 ? exactly(static_cast<size_t>(column.type_length)) : std::nullopt;
    }
    case Type::BYTE_ARRAY:
      if (column.conversion == ValueConversion::kDecimalFromBytes) return std::nullopt;
      return Probes{std::string(value)};
  }
  return std::nullopt;
}

bool RowGroupMayMatch(const ParquetSchema& schema, const RowGroup& row_group,
                      const std::vector<ColumnPredicate>& predicates) {
  for (const ColumnPredicate& p : predicates) {
    if (p.column < 0 || p.column >= schema.num_columns() ||
        p.column >= static_cast<int>(row_group.columns.size())) {
      continue;
    }
    const ColumnChunk& chunk = row_group.columns[static_cast<size_t>(p.column)];
    if (!chunk.meta_data || !chunk.meta_data->statistics) continue;
    const ColumnDescriptor& column = schema.column(p.column);
    const ColumnStatistics stats = EffectiveStatistics(column, *chunk.meta_data->statistics);
    // num_values counts levels; for a flat column that is values, nulls included.
    const int64_t num_values = column.max_repetition_level == 0 ? chunk.meta_data->num_values : -1;
    if (!MayMatch(column, p, stats, num_values)) return false;
  }
  return true;
}

std::vector<RowRange> MatchingRowRanges(const ParquetSchema& schema, int64_t num_rows,
                                        const std::vector<ColumnPredicate>& predicates,
                                        const std::vector<ColumnPageIndex>& page_index) {
  std::vector<RowRange> result;
  if (num_rows > 0) result.push_back(RowRange{0, num_rows});
  for (size_t i = 0; i < predicates.size() && i < page_index.size(); ++i) {
    const ColumnPredicate& p = predicates[i];
    const ColumnPageIndex& index = page_index[i];
    if (!index.column_index || !index.offset_index || index.offset_index->page_locations.empty() || p.column < 0 ||
        p.column >= schema.num_columns()) {
      continue;
    }
    const ColumnDescriptor& column = schema.column(p.column);
    const ColumnIndex& ci = *index.column_index;
    const std::vector<PageLocation>& pages = index.offset_index->page_locations;
    std::vector<RowRange> kept;
    for (size_t page = 0; page < pages.size(); ++page) {
      const ColumnStatistics stats = PageStatistics(column, ci, page);
      const bool null_page = page < ci.null_pages.size() && ci.null_pages[page];
      const int64_t begin = pages[page].first_row_index;
      const int64_t end = PageEndRow(*index.offset_index, page, num_rows);
      bool may = MayMatch(column, p, stats, -1);
      if (null_page && p.op != ColumnPredicate::Op::kIsNull) may = false;  // only nulls on the page
      if (!may || end <= begin) continue;
      if (!kept.empty() && kept.back().end == begin) {
        kept.back().end = end;
      } else {
        kept.push_back(RowRange{begin, end});
      }
    }
    // Intersect with what the other predicates kept.
    std::vector<RowRange> both;
    size_t a = 0, b = 0;
    while (a < result.size() && b < kept.size()) {
      const int64_t begin = std::max(result[a].begin, kept[b].begin);
      const int64_t end = std::min(result[a].end, kept[b].end);
      if (begin < end) both.push_back(RowRange{begin, end});
      (result[a].end < kept[b].end) ? ++a : ++b;
    }
    result = std::move(both);
  }
  return result;
}

}  // namespace floe::parquet
