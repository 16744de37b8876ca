// Physical Parquet values -> floe's value layout, per ValueConversion
// (schema.h): narrowing of INT32 to 8/16 bits, TIME/TIMESTAMP millis to
// micros, INT96 to microseconds, decimals to 128-bit unscaled values,
// FLOAT16 to float32 and INTERVAL to months, days and nanoseconds.
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>

#include "floe/base/status.h"
#include "floe/formats/parquet/encoding/byte_array.h"
#include "floe/formats/parquet/encoding/plain.h"
#include "floe/formats/parquet/schema.h"

namespace floe::parquet {

// Bytes one value of `column` takes in floe's layout (bool: 1, one byte per
// value in a LeafBatch; dictionary: 4, its int32 indices; string/binary: -1).
int32_t OutputValueWidth(const ColumnDescriptor& column);

// Converts n values of physical type T (int32_t, int64_t, encoding::Int96,
// float, double) into OutputValueWidth(column) bytes each at `out`.
// Corrupt naming the column and value when one does not fit (an INT(8)
// outside -128..127).
template <typename T>
Status ConvertValues(const ColumnDescriptor& column, const T* in, int64_t n, uint8_t* out);

// The same for FIXED_LEN_BYTE_ARRAY values (`column.type_length` bytes each).
// Unsupported for an INTERVAL whose months or days pass 2^31 - 1.
Status ConvertFixedLenByteArrays(const ColumnDescriptor& column, const uint8_t* in, int64_t n, uint8_t* out);

// BYTE_ARRAY decimals: each value is a big-endian two's-complement integer
// of 1..16 bytes. Corrupt for an empty or longer value.
Status ConvertByteArrayDecimals(const ColumnDescriptor& column, const encoding::ByteArrayView& in, uint8_t* out);

}  // namespace floe::parquet
