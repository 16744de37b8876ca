// ULEB128 and zigzag integers, as the RLE/bit-packed hybrid run headers and
// the DELTA_BINARY_PACKED headers store them (Encodings.md: "varint-encode()
// is ULEB-128 encoding"; signed values are zigzag-mapped first).
//
// Thread safety: pure functions over caller-owned memory.

#pragma once

#include <cstdint>
#include <vector>

namespace floe::parquet::encoding {

// Reads one ULEB128 value from [*pos, end) into *value and advances *pos.
// Returns false, leaving *pos unchanged, when the bytes end inside the value
// or it does not fit 64 bits; callers turn that into a Corrupt status that
// names what they were reading.
inline bool ReadUleb128(const uint8_t** pos, const uint8_t* end, uint64_t* value) {
  const uint8_t* p = *pos;
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == end) return false;
    const uint8_t byte = *p++;
    // The tenth byte holds bit 63 only; anything above it would be lost.
    if (shift == 63 && byte > 1) return false;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      *pos = p;
      return true;
    }
  }
  return false;
}

// Appends `value` as ULEB128 (1 to 10 bytes).
inline void WriteUleb128(uint64_t value, std::vector<uint8_t>* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<uint8_t>(value));
}

// Zigzag maps 0, -1, 1, -2, ... to 0, 1, 2, 3, ... so small magnitudes of
// either sign become small unsigned numbers.
constexpr uint64_t ZigZagEncode(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}
constexpr int64_t ZigZagDecode(uint64_t value) { return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1)); }

}  // namespace floe::parquet::encoding
