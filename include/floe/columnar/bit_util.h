// Bitmap helpers for the Arrow layout: bit i of a bitmap is bit (i % 8) of
// byte (i / 8), least significant bit first (Arrow's "LSB numbering").
//
// Thread safety: pure functions over caller-owned memory.

#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace floe::bit_util {

// Bytes needed for `bits` bits (bits >= 0).
constexpr int64_t BytesForBits(int64_t bits) { return (bits >> 3) + ((bits & 7) != 0); }

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }

inline void SetBitTo(uint8_t* bits, int64_t i, bool value) {
  const auto mask = static_cast<uint8_t>(1u << (i & 7));
  uint8_t& byte = bits[i >> 3];
  byte = value ? static_cast<uint8_t>(byte | mask) : static_cast<uint8_t>(byte & ~mask);
}

// Sets bits [start, start + length) to `value`.
void SetBitsTo(uint8_t* bits, int64_t start, int64_t length, bool value);

// The number of set bits in [start, start + length).
int64_t CountSetBits(const uint8_t* bits, int64_t start, int64_t length);

}  // namespace floe::bit_util
