// Bit-level helpers for the Parquet value encodings: little-endian loads and
// stores, bit widths, and the packing and unpacking of bit-packed values.
//
// Bit packing follows Encodings.md's RLE/bit-packing hybrid (also used by
// DELTA_BINARY_PACKED miniblocks): "values are packed from the least
// significant bit of each byte to the most significant bit". Eight values of
// width w fill exactly w bytes, 32 values exactly 4*w bytes, so the kernels
// below work on groups of 8 and 32 and never touch a byte outside the group.
//
// Thread safety: pure functions over caller-owned memory.

#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace floe::parquet::encoding {

// Parquet stores every number little-endian; decoding copies bytes straight
// into native values, which is only right on a little-endian host.
static_assert(std::endian::native == std::endian::little, "floe's Parquet encodings assume a little-endian host");

// The value of type T stored little-endian at `p` (any alignment).
template <typename T>
inline T LoadLittleEndian(const uint8_t* p) {
  static_assert(std::is_trivially_copyable_v<T>);
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// Stores `value` little-endian at `p` (any alignment).
template <typename T>
inline void StoreLittleEndian(T value, uint8_t* p) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(p, &value, sizeof(T));
}

// Bits needed to represent `max_value`: 0 for 0, 64 for values >= 2^63.
constexpr int BitWidth(uint64_t max_value) { return 64 - std::countl_zero(max_value); }

// Bytes needed for `bits` bits (bits >= 0).
constexpr int64_t BytesForBits(int64_t bits) { return (bits >> 3) + ((bits & 7) != 0); }

// The low `bit_width` bits set (bit_width in 0..64).
constexpr uint64_t LowBitsMask(int bit_width) {
  return bit_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
}

// Unpacks `num_values` (a multiple of 8) values of `bit_width` bits from `in`,
// which must hold num_values * bit_width / 8 bytes, into `out`. bit_width is
// 0..32 for uint32_t output and 0..64 for uint64_t output (caller-checked).
// Groups of 32 values and then of 8 go through kernels generated per width.
void Unpack(const uint8_t* in, int64_t num_values, int bit_width, uint32_t* out);
void Unpack(const uint8_t* in, int64_t num_values, int bit_width, uint64_t* out);

// Packs `num_values` (a multiple of 8) values into num_values * bit_width / 8
// bytes at `out`. Bits of a value above `bit_width` are ignored.
void Pack(const uint32_t* in, int64_t num_values, int bit_width, uint8_t* out);
void Pack(const uint64_t* in, int64_t num_values, int bit_width, uint8_t* out);

}  // namespace floe::parquet::encoding
