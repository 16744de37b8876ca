#include "floe/formats/parquet/reader/value_conversion.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "floe/base/strings.h"
#include "floe/columnar/data_type.h"
#include "floe/formats/parquet/encoding/float16.h"

namespace floe::parquet {
namespace {

using encoding::Int96;

// spec (Int96 timestamps, as Impala and Spark write them): Julian day of
// 1970-01-01 is 2440588.
constexpr int64_t kJulianEpochDay = 2440588;
constexpr uint64_t kMicrosPerDay = 86400ULL * 1000 * 1000;

template <typename Out>
void Store(uint8_t* out, int64_t i, Out value) {
  std::memcpy(out + i * static_cast<int64_t>(sizeof(Out)), &value, sizeof(Out));
}

Status OutOfRange(const ColumnDescriptor& column, int64_t value) {
  return Status::Corrupt(StrCat("column ", Quote(column.dotted_path()), ": value ", value,
                                " does not fit its type ", column.type->ToString()));
}

template <typename Narrow>
Status Narrow32(const ColumnDescriptor& column, const int32_t* in, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    if (in[i] < std::numeric_limits<Narrow>::min() || in[i] > std::numeric_limits<Narrow>::max()) {
      return OutOfRange(column, in[i]);
    }
    Store(out, i, static_cast<Narrow>(in[i]));
  }
  return Status::OK();
}

using encoding::HalfToFloat;

// A big-endian two's-complement integer of 1..16 bytes, sign-extended.
Decimal128Value BigEndianToInt128(const uint8_t* bytes, int32_t size) {
  unsigned __int128 value = (bytes[0] & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (int32_t i = 0; i < size; ++i) value = (value << 8) | bytes[i];
  return static_cast<Decimal128Value>(value);
}

}  // namespace

int32_t OutputValueWidth(const ColumnDescriptor& column) {
  if (column.type->id() == TypeId::kBool) return 1;
  if (column.type->id() == TypeId::kDictionary) return 4;  // the int32 indices
  return column.type->byte_width();
}

template <typename T>
Status ConvertValues(const ColumnDescriptor& column, const T* in, int64_t n, uint8_t* out) {
  const ValueConversion conversion = column.conversion;
  if constexpr (std::is_same_v<T, int32_t>) {
    switch (conversion) {
      case ValueConversion::kNarrowInt32:
        switch (column.type->id()) {
          case TypeId::kInt8: return Narrow32<int8_t>(column, in, n, out);
          case TypeId::kUInt8: return Narrow32<uint8_t>(column, in, n, out);
          case TypeId::kInt16: return Narrow32<int16_t>(column, in, n, out);
          default: return Narrow32<uint16_t>(column, in, n, out);
        }
      case ValueConversion::kMillisToMicros32:
        for (int64_t i = 0; i < n; ++i) Store(out, i, int64_t{in[i]} * 1000);
        return Status::OK();
      case ValueConversion::kDecimalFromInt32:
        for (int64_t i = 0; i < n; ++i) Store(out, i, static_cast<Decimal128Value>(in[i]));
        return Status::OK();
      default: break;
    }
  } else if constexpr (std::is_same_v<T, int64_t>) {
    switch (conversion) {
      case ValueConversion::kMillisToMicros64:
        // Wrapping multiply: an out-of-range millisecond value must not be UB.
        for (int64_t i = 0; i < n; ++i) Store(out, i, static_cast<int64_t>(static_cast<uint64_t>(in[i]) * 1000u));
        return Status::OK();
      case ValueConversion::kDecimalFromInt64:
        for (int64_t i = 0; i < n; ++i) Store(out, i, static_cast<Decimal128Value>(in[i]));
        return Status::OK();
      default: break;
    }
  } else if constexpr (std::is_same_v<T, Int96>) {
    for (int64_t i = 0; i < n; ++i) {
      // Both fields are signed, and the sum wraps as in Spark, whose writer
      // wraps for instants near the int64-microsecond limit (year 290000 in
      // int96_from_spark.parquet): wrapping back recovers the instant.
      const auto nanos_of_day = static_cast<int64_t>(uint64_t{in[i].value[0]} | (uint64_t{in[i].value[1]} << 32));
      const int64_t days = int64_t{static_cast<int32_t>(in[i].value[2])} - kJulianEpochDay;
      Store(out, i,
            static_cast<int64_t>(static_cast<uint64_t>(days) * kMicrosPerDay + static_cast<uint64_t>(nanos_of_day / 1000)));
    }
    return Status::OK();
  }
  if (n > 0) std::memcpy(out, in, static_cast<size_t>(n) * sizeof(T));
  return Status::OK();
}

template Status ConvertValues<int32_t>(const ColumnDescriptor&, const int32_t*, int64_t, uint8_t*);
template Status ConvertValues<int64_t>(const ColumnDescriptor&, const int64_t*, int64_t, uint8_t*);
template Status ConvertValues<Int96>(const ColumnDescriptor&, const Int96*, int64_t, uint8_t*);
template Status ConvertValues<float>(const ColumnDescriptor&, const float*, int64_t, uint8_t*);
template Status ConvertValues<double>(const ColumnDescriptor&, const double*, int64_t, uint8_t*);

Status ConvertFixedLenByteArrays(const ColumnDescriptor& column, const uint8_t* in, int64_t n, uint8_t* out) {
  const int32_t width = column.type_length;
  switch (column.conversion) {
    case ValueConversion::kDecimalFromBytes:
      for (int64_t i = 0; i < n; ++i) Store(out, i, BigEndianToInt128(in + i * width, width));
      return Status::OK();
    case ValueConversion::kFloat16ToFloat32:
      for (int64_t i = 0; i < n; ++i) {
        // spec: FLOAT16 is "stored in little-endian byte order".
        Store(out, i, HalfToFloat(static_cast<uint16_t>(in[2 * i] | (in[2 * i + 1] << 8))));
      }
      return Status::OK();
    case ValueConversion::kIntervalFromFixed:
      for (int64_t i = 0; i < n; ++i) {
        // spec (INTERVAL): three little-endian unsigned integers: months, days, milliseconds.
        uint32_t parts[3];
        std::memcpy(parts, in + i * 12, 12);
        if (parts[0] > uint32_t{INT32_MAX} || parts[1] > uint32_t{INT32_MAX}) {
          return Status::Unsupported(StrCat("column ", Quote(column.dotted_path()), ": interval of ", parts[0],
                                            " months and ", parts[1], " days exceeds floe's interval (int32 parts)"));
        }
        Store(out, i, MonthDayNano{static_cast<int32_t>(parts[0]), static_cast<int32_t>(parts[1]),
                                   int64_t{parts[2]} * 1'000'000});
      }
      return Status::OK();
    default:
      if (n > 0) std::memcpy(out, in, static_cast<size_t>(n * width));
      return Status::OK();
  }
}

Status ConvertByteArrayDecimals(const ColumnDescriptor& column, const encoding::ByteArrayView& in, uint8_t* out) {
  for (int64_t i = 0; i < in.num_values; ++i) {
    const int32_t size = in.length(i);
    if (size < 1 || size > 16) {
      return Status::Corrupt(StrCat("column ", Quote(column.dotted_path()), ": decimal value ", i, " has ", size,
                                    " bytes; 1 to 16 expected"));
    }
    Store(out, i, BigEndianToInt128(in.data + in.offsets[i], size));
  }
  return Status::OK();
}

}  // namespace floe::parquet
