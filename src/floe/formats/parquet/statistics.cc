#include "floe/formats/parquet/statistics.h"

#include <cmath>
#include <cstring>

#include "floe/base/hex.h"
#include "floe/base/strings.h"
#include "floe/columnar/value_format.h"
#include "floe/formats/parquet/encoding/float16.h"

namespace floe::parquet {
namespace {

using namespace floe::value_format;  // NOLINT: the Append* formatters

template <typename T>
T Load(std::string_view v) {
  T out;
  std::memcpy(&out, v.data(), sizeof(T));
  return out;
}

// Deprecated min/max use signed order: right for signed numbers and booleans.
bool SignedOrderIsRight(const ColumnDescriptor& c) {
  switch (c.physical_type) {
    case Type::BOOLEAN:
    case Type::FLOAT:
    case Type::DOUBLE: return true;
    case Type::INT32:
    case Type::INT64: {
      const TypeId id = c.type->id();
      return id != TypeId::kUInt8 && id != TypeId::kUInt16 && id != TypeId::kUInt32 && id != TypeId::kUInt64;
    }
    default: return false;
  }
}

Decimal128Value DecimalFromBigEndian(std::string_view v) {
  // Sign-extend from the first byte, then shift in the rest.
  __int128 x = static_cast<int8_t>(v[0]) < 0 ? -1 : 0;
  for (char c : v) x = (x << 8) | static_cast<uint8_t>(c);
  return Decimal128Value{x};
}

std::string Invalid(std::string_view v) { return StrCat("<", v.size(), " bytes: invalid>"); }

// Whether `v` is a NaN of a floating-point column (FLOAT, DOUBLE, FLOAT16).
bool IsNaN(const ColumnDescriptor& c, std::string_view v) {
  if (c.physical_type == Type::FLOAT && v.size() == 4) return std::isnan(Load<float>(v));
  if (c.physical_type == Type::DOUBLE && v.size() == 8) return std::isnan(Load<double>(v));
  if (c.conversion == ValueConversion::kFloat16ToFloat32 && v.size() == 2) {
    return std::isnan(encoding::HalfToFloat(Load<uint16_t>(v)));
  }
  return false;
}

// spec (ColumnOrder): under TYPE_ORDER "If the min is a NaN, it should be
// ignored. If the max is a NaN, it should be ignored."; under
// IEEE_754_TOTAL_ORDER a NaN bound means every non-null value is NaN, so no
// number bounds them. Either way a NaN is no bound for a comparison.
void DropNaNBounds(const ColumnDescriptor& column, ColumnStatistics* stats) {
  if (stats->min && IsNaN(column, *stats->min)) stats->min.reset();
  if (stats->max && IsNaN(column, *stats->max)) stats->max.reset();
}

}  // namespace

ColumnStatistics EffectiveStatistics(const ColumnDescriptor& column, const Statistics& stats) {
  ColumnStatistics out;
  out.null_count = stats.null_count;
  out.distinct_count = stats.distinct_count;
  out.nan_count = stats.nan_count;
  if ((stats.min_value || stats.max_value) && column.statistics_order != StatisticsOrder::kNone) {
    out.min = stats.min_value;
    out.max = stats.max_value;
    out.min_exact = stats.is_min_value_exact.value_or(true);
    out.max_exact = stats.is_max_value_exact.value_or(true);
  } else if ((stats.min || stats.max) && SignedOrderIsRight(column)) {
    // spec: "The obsolete min and max fields ... are always sorted by signed
    // comparison regardless of column_orders."
    out.min = stats.min;
    out.max = stats.max;
    out.from_deprecated_fields = true;
  }
  DropNaNBounds(column, &out);
  return out;
}

ColumnStatistics PageStatistics(const ColumnDescriptor& column, const ColumnIndex& index, size_t page) {
  ColumnStatistics out;
  if (index.null_counts && page < index.null_counts->size()) out.null_count = (*index.null_counts)[page];
  if (index.nan_counts && page < index.nan_counts->size()) out.nan_count = (*index.nan_counts)[page];
  const bool null_page = page < index.null_pages.size() && index.null_pages[page];
  if (!null_page && column.statistics_order != StatisticsOrder::kNone && page < index.min_values.size() &&
      page < index.max_values.size()) {
    out.min = index.min_values[page];
    out.max = index.max_values[page];
    DropNaNBounds(column, &out);
  }
  return out;
}

std::string FormatStatisticsValue(const ColumnDescriptor& column, std::string_view v) {
  std::string out;
  const DataType& type = *column.type;
  switch (column.physical_type) {
    case Type::BOOLEAN:
      if (v.size() != 1) return Invalid(v);
      return v[0] ? "true" : "false";
    case Type::INT32: {
      if (v.size() != 4) return Invalid(v);
      const int32_t x = Load<int32_t>(v);
      switch (type.id()) {
        case TypeId::kDate32: AppendDate(x, &out); return out;
        case TypeId::kDecimal128: AppendDecimal(Decimal128Value{x}, type.scale(), &out); return out;
        case TypeId::kTime64: AppendTime(int64_t{x} * 1000, floe::TimeUnit::kMicro, &out); return out;
        case TypeId::kUInt8:
        case TypeId::kUInt16:
        case TypeId::kUInt32: return std::to_string(static_cast<uint32_t>(x));
        default: return std::to_string(x);
      }
    }
    case Type::INT64: {
      if (v.size() != 8) return Invalid(v);
      const int64_t x = Load<int64_t>(v);
      switch (type.id()) {
        case TypeId::kDecimal128: AppendDecimal(Decimal128Value{x}, type.scale(), &out); return out;
        case TypeId::kTime64: AppendTime(x, type.unit(), &out); return out;
        case TypeId::kTimestamp: {
          const bool millis = column.conversion == ValueConversion::kMillisToMicros64;
          AppendTimestamp(millis ? x * 1000 : x, type.unit(), !type.timezone().empty(), &out);
          return out;
        }
        case TypeId::kUInt64: return std::to_string(static_cast<uint64_t>(x));
        default: return std::to_string(x);
      }
    }
    case Type::FLOAT:
      if (v.size() != 4) return Invalid(v);
      AppendFloat(Load<float>(v), &out);
      return out;
    case Type::DOUBLE:
      if (v.size() != 8) return Invalid(v);
      AppendFloat(Load<double>(v), &out);
      return out;
    case Type::INT96:
      if (v.size() != 12) return Invalid(v);
      AppendHex(v, &out);
      return out;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (type.id() == TypeId::kString) return Quote(v.substr(0, 64)) + (v.size() > 64 ? "..." : "");
      if (type.id() == TypeId::kDecimal128) {
        if (v.empty() || v.size() > 16) return Invalid(v);
        AppendDecimal(DecimalFromBigEndian(v), type.scale(), &out);
        return out;
      }
      if (type.id() == TypeId::kUuid && v.size() == 16) {
        AppendUuid(v, &out);
        return out;
      }
      if (column.conversion == ValueConversion::kFloat16ToFloat32) {
        if (v.size() != 2) return Invalid(v);
        AppendFloat(encoding::HalfToFloat(Load<uint16_t>(v)), &out);
        return out;
      }
      AppendHex(v.substr(0, 64), &out);
      if (v.size() > 64) out += "...";
      return out;
  }
  return Invalid(v);
}

}  // namespace floe::parquet
