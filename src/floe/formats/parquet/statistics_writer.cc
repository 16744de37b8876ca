#include "floe/formats/parquet/statistics_writer.h"

#include <cstring>
#include <variant>

#include "floe/base/utf8.h"
#include "floe/formats/parquet/encoding/float16.h"
#include "floe/formats/parquet/geospatial_statistics.h"

namespace floe::parquet {
namespace {

template <typename T>
T Load(std::string_view v) {
  T out;
  std::memcpy(&out, v.data(), sizeof(T));
  return out;
}

template <typename T>
int Compare3(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// The longest prefix of `v` of at most `length` bytes that ends at a code point boundary.
size_t CutPoint(std::string_view v, size_t length, bool utf8) {
  return utf8 ? Utf8PrefixWithinBytes(v, length) : std::min(v.size(), length);
}

bool IsUtf8(const WriterColumn& column) { return column.type->id() == TypeId::kString; }

}  // namespace

ColumnSortOrder SortOrderFor(const WriterColumn& column) {
  // spec (ColumnOrder, TYPE_ORDER): "GEOMETRY - undefined", "GEOGRAPHY - undefined".
  if (column.logical_type && IsGeospatial(*column.logical_type)) {
    return ColumnSortOrder::kUndefined;
  }
  return SortOrderFor(column.physical_type, *column.type);
}

bool IsFloatingPoint(const WriterColumn& column) {
  return column.physical_type == Type::FLOAT || column.physical_type == Type::DOUBLE ||
         column.storage == LeafStorage::kFloat16;
}

ColumnSortOrder SortOrderFor(Type physical, const DataType& type) {
  // spec (ColumnOrder, TYPE_ORDER): "INTERVAL - undefined".
  if (type.id() == TypeId::kInterval) return ColumnSortOrder::kUndefined;
  switch (physical) {
    case Type::BYTE_ARRAY: return type.id() == TypeId::kDecimal128 ? ColumnSortOrder::kSignedBytes : ColumnSortOrder::kBytes;
    case Type::FIXED_LEN_BYTE_ARRAY:
      // A float32 in a fixed array is a FLOAT16 (schema_writer.h, LeafStorage).
      if (type.id() == TypeId::kFloat32) return ColumnSortOrder::kFloat16;
      return type.id() == TypeId::kDecimal128 ? ColumnSortOrder::kSignedBytes : ColumnSortOrder::kBytes;
    case Type::INT96: return ColumnSortOrder::kUndefined;
    default: break;
  }
  switch (type.id()) {
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64: return ColumnSortOrder::kUnsigned;
    default: return ColumnSortOrder::kSigned;
  }
}

int CompareStatisticsValues(Type physical, ColumnSortOrder order, std::string_view a, std::string_view b) {
  const bool is_unsigned = order == ColumnSortOrder::kUnsigned;
  switch (physical) {
    case Type::BOOLEAN: return Compare3(Load<uint8_t>(a), Load<uint8_t>(b));
    case Type::INT32:
      return is_unsigned ? Compare3(Load<uint32_t>(a), Load<uint32_t>(b)) : Compare3(Load<int32_t>(a), Load<int32_t>(b));
    case Type::INT64:
      return is_unsigned ? Compare3(Load<uint64_t>(a), Load<uint64_t>(b)) : Compare3(Load<int64_t>(a), Load<int64_t>(b));
    case Type::FLOAT: return Compare3(Load<float>(a), Load<float>(b));
    case Type::DOUBLE: return Compare3(Load<double>(a), Load<double>(b));
    default: break;
  }
  if (order == ColumnSortOrder::kFloat16 && a.size() == 2 && b.size() == 2) {
    return Compare3(encoding::HalfToFloat(Load<uint16_t>(a)), encoding::HalfToFloat(Load<uint16_t>(b)));
  }
  if (order == ColumnSortOrder::kSignedBytes && !a.empty() && !b.empty() && a.size() == b.size()) {
    const int first = Compare3(static_cast<int8_t>(a[0]), static_cast<int8_t>(b[0]));
    if (first != 0) return first;
    return a.substr(1).compare(b.substr(1));
  }
  return a.compare(b);  // char_traits<char>::compare orders bytes as unsigned char
}

StatisticsBound TruncateLowerBound(std::string_view min, int32_t length, bool utf8) {
  if (length <= 0 || min.size() <= static_cast<size_t>(length)) return {std::string(min), true};
  return {std::string(min.substr(0, CutPoint(min, static_cast<size_t>(length), utf8))), false};
}

std::optional<StatisticsBound> TruncateUpperBound(std::string_view max, int32_t length, bool utf8) {
  if (length <= 0 || max.size() <= static_cast<size_t>(length)) return StatisticsBound{std::string(max), true};
  const std::string_view prefix = max.substr(0, CutPoint(max, static_cast<size_t>(length), utf8));
  std::optional<std::string> bound = utf8 ? IncrementUtf8(prefix) : std::nullopt;
  if (!bound) bound = IncrementBytes(prefix);  // also for bytes that are not valid UTF-8
  if (!bound) return std::nullopt;
  return StatisticsBound{std::move(*bound), false};
}

void StatisticsAccumulator::Merge(const StatisticsAccumulator& other, Type physical, ColumnSortOrder order) {
  null_count += other.null_count;
  nan_count += other.nan_count;
  if (!other.has_bounds) return;
  if (!has_bounds) {
    has_bounds = true;
    min = other.min;
    max = other.max;
    return;
  }
  if (CompareStatisticsValues(physical, order, other.min, min) < 0) min = other.min;
  if (CompareStatisticsValues(physical, order, other.max, max) > 0) max = other.max;
}

Statistics MakeStatistics(const WriterColumn& column, const StatisticsAccumulator& stats, int32_t truncate_length) {
  Statistics out;
  out.null_count = stats.null_count;
  // spec (Statistics.nan_count): for FLOAT, DOUBLE and FLOAT16 columns.
  if (IsFloatingPoint(column)) out.nan_count = stats.nan_count;
  if (!stats.has_bounds) return out;
  if (column.physical_type == Type::BYTE_ARRAY) {
    const bool utf8 = IsUtf8(column);
    StatisticsBound min = TruncateLowerBound(stats.min, truncate_length, utf8);
    out.min_value = std::move(min.value);
    out.is_min_value_exact = min.exact;
    if (auto max = TruncateUpperBound(stats.max, truncate_length, utf8)) {
      out.max_value = std::move(max->value);
      out.is_max_value_exact = max->exact;
    }
    return out;
  }
  out.min_value = stats.min;
  out.max_value = stats.max;
  out.is_min_value_exact = true;
  out.is_max_value_exact = true;
  if (SortOrderFor(column) == ColumnSortOrder::kSigned) {
    // spec: the deprecated fields "may be set when the column order is signed".
    out.min = stats.min;
    out.max = stats.max;
  }
  return out;
}

}  // namespace floe::parquet
