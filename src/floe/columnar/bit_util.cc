#include "floe/columnar/bit_util.h"

namespace floe::bit_util {

void SetBitsTo(uint8_t* bits, int64_t start, int64_t length, bool value) {
  int64_t i = start;
  const int64_t end = start + length;
  // Bit by bit up to a byte boundary, whole bytes with memset, then the tail.
  for (; i < end && (i & 7) != 0; ++i) SetBitTo(bits, i, value);
  const int64_t whole_bytes = (end - i) >> 3;
  if (whole_bytes > 0) {
    std::memset(bits + (i >> 3), value ? 0xff : 0x00, static_cast<size_t>(whole_bytes));
    i += whole_bytes << 3;
  }
  for (; i < end; ++i) SetBitTo(bits, i, value);
}

int64_t CountSetBits(const uint8_t* bits, int64_t start, int64_t length) {
  int64_t count = 0;
  int64_t i = start;
  const int64_t end = start + length;
  for (; i < end && (i & 7) != 0; ++i) count += GetBit(bits, i);
  // Eight bytes at a time; memcpy keeps unaligned loads defined.
  for (; i + 64 <= end; i += 64) {
    uint64_t word;
    std::memcpy(&word, bits + (i >> 3), sizeof word);
    count += std::popcount(word);
  }
  for (; i + 8 <= end; i += 8) count += std::popcount(static_cast<unsigned>(bits[i >> 3]));
  for (; i < end; ++i) count += GetBit(bits, i);
  return count;
}

}  // namespace floe::bit_util
