// PLAIN (Encoding 0): "values are encoded back to back". BOOLEAN is
// bit-packed LSB first; INT32, INT64, INT96 (12 bytes), FLOAT and DOUBLE are
// little-endian; BYTE_ARRAY is a 4-byte little-endian length then the bytes;
// FIXED_LEN_BYTE_ARRAY(n) is the n bytes. Dictionary pages are PLAIN too.
//
// Decoders read a caller-owned span that must outlive them; Init() checks
// only its arguments, Decode(n) writes exactly n values or returns Corrupt
// when fewer remain, Skip(n) moves past n values, and a negative n is
// InvalidArgument. After an error a decoder must not be used again. Encoders
// append one complete encoded stream to `out`, which an error leaves
// unchanged.
//
// Thread safety: a decoder is used by one thread at a time; encoders are pure.

#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "floe/base/result.h"
#include "floe/base/status.h"
#include "floe/formats/parquet/encoding/byte_array.h"

namespace floe::parquet::encoding {

// An INT96 as stored (deprecated, used for Spark/Impala timestamps): three
// little-endian 32-bit words, nanoseconds of the day in the first two and the
// Julian day in the third.
struct Int96 {
  uint32_t value[3];
  bool operator==(const Int96&) const = default;
};
static_assert(sizeof(Int96) == 12);

// The Parquet physical type name of a fixed-width value type, for messages.
template <typename T>
constexpr std::string_view PhysicalTypeName() {
  if constexpr (std::is_same_v<T, int32_t>) return "INT32";
  if constexpr (std::is_same_v<T, int64_t>) return "INT64";
  if constexpr (std::is_same_v<T, Int96>) return "INT96";
  if constexpr (std::is_same_v<T, float>) return "FLOAT";
  if constexpr (std::is_same_v<T, double>) return "DOUBLE";
  if constexpr (std::is_same_v<T, bool>) return "BOOLEAN";
  return "FIXED_LEN_BYTE_ARRAY";
}

// PLAIN INT32, INT64, INT96, FLOAT or DOUBLE (T = int32_t, int64_t, Int96,
// float, double). Trailing bytes short of a whole value are ignored.
template <typename T>
class PlainDecoder {
 public:
  void Init(std::span<const uint8_t> data);
  int64_t values_left() const { return values_left_; }
  // Where the next value starts (for callers that take the bytes in place).
  const uint8_t* position() const { return pos_; }
  // Copies the next n values to `out`. Corrupt when fewer than n remain.
  Status Decode(int64_t n, T* out);
  // Corrupt when fewer than n values remain.
  Status Skip(int64_t n);

 private:
  Status CheckAvailable(int64_t n) const;

  const uint8_t* pos_ = nullptr;
  int64_t values_left_ = 0;
};

// PLAIN BOOLEAN: one bit per value, least significant bit first.
class PlainBooleanDecoder {
 public:
  void Init(std::span<const uint8_t> data);
  int64_t values_left() const { return num_bits_ - bit_pos_; }
  // Writes the next n values to `out`. Corrupt when fewer than n remain.
  Status Decode(int64_t n, bool* out);
  Status Skip(int64_t n);

 private:
  Status CheckAvailable(int64_t n) const;

  const uint8_t* data_ = nullptr;
  int64_t num_bits_ = 0;
  int64_t bit_pos_ = 0;
};

// PLAIN BYTE_ARRAY. Lengths interleave with the bytes, so decoded batches
// always copy the bytes (one memcpy per value).
class PlainByteArrayDecoder {
 public:
  void Init(std::span<const uint8_t> data);
  int64_t bytes_left() const { return end_ - pos_; }
  // The next n values. Corrupt when the input ends first or a length runs past
  // it; Internal when memory runs out. Allocates at most the input size.
  Result<ByteArrayBatch> Decode(int64_t n);
  // Corrupt as for Decode.
  Status Skip(int64_t n);

 private:
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
};

// PLAIN FIXED_LEN_BYTE_ARRAY(width). The bytes already are the Arrow
// fixed-size-binary layout, so DecodeView() hands them out without a copy.
class PlainFixedLenByteArrayDecoder {
 public:
  // InvalidArgument when width <= 0.
  Status Init(std::span<const uint8_t> data, int32_t width);
  int64_t values_left() const { return values_left_; }
  // Copies the next n values (n * width bytes) to `out`. Corrupt when fewer remain.
  Status Decode(int64_t n, uint8_t* out);
  // The next n values as a view of the input. Corrupt when fewer remain.
  Result<std::span<const uint8_t>> DecodeView(int64_t n);
  Status Skip(int64_t n);

 private:
  Status CheckAvailable(int64_t n) const;

  const uint8_t* pos_ = nullptr;
  int32_t width_ = 0;
  int64_t values_left_ = 0;
};

// Appends the PLAIN encoding of `values` (T as for PlainDecoder).
template <typename T>
void EncodePlain(std::span<const T> values, std::vector<uint8_t>* out);

// Appends `values` as bits, LSB first, the last byte padded with zero bits.
void EncodePlainBoolean(std::span<const bool> values, std::vector<uint8_t>* out);

// Appends each value as its 4-byte length and its bytes.
void EncodePlainByteArray(const ByteArrayView& values, std::vector<uint8_t>* out);

// Appends `values`, a run of values of `width` bytes each. InvalidArgument
// when width <= 0 or values.size() is not a multiple of width.
Status EncodePlainFixedLenByteArray(std::span<const uint8_t> values, int32_t width, std::vector<uint8_t>* out);

}  // namespace floe::parquet::encoding
