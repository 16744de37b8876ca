// Helpers shared by the tests of floe's own block decoders (snappy, LZ4).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "floe/formats/compression/codec.h"

namespace floe::compression::codec_testing {

// Decodes `block` with `codec` into a span of exactly `size` bytes inside a
// larger, guarded allocation, so a write past either end shows as changed
// guard bytes (ASan would not see it inside one allocation).
inline Status DecodeGuarded(Codec codec, const std::vector<uint8_t>& block, size_t size, std::vector<uint8_t>* out) {
  constexpr size_t kGuard = 128;
  std::vector<uint8_t> memory(size + 2 * kGuard, 0xA5);
  const Status status = Decompress(codec, block, std::span<uint8_t>(memory.data() + kGuard, size));
  for (size_t i = 0; i < kGuard; ++i) {
    EXPECT_EQ(memory[i], 0xA5) << "write before the output at " << i;
    EXPECT_EQ(memory[kGuard + size + i], 0xA5) << "write past the output at " << i;
  }
  out->assign(memory.begin() + kGuard, memory.begin() + static_cast<ptrdiff_t>(kGuard + size));
  return status;
}

// `block` decodes, inside guards, to exactly `raw`.
inline void ExpectDecodesTo(Codec codec, const std::vector<uint8_t>& block, const std::vector<uint8_t>& raw,
                            const std::string& what) {
  std::vector<uint8_t> back;
  const Status status = DecodeGuarded(codec, block, raw.size(), &back);
  ASSERT_TRUE(status.ok()) << what << ": " << status.ToString();
  ASSERT_EQ(back, raw) << what;
}

}  // namespace floe::compression::codec_testing
