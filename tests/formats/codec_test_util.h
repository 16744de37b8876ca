// Helpers shared by the tests of floe's own block decoders (snappy, LZ4).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
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

// `size` bytes in every shape a block decoder must handle, each named:
// random bytes (one long literal run); periodic bytes whose period puts
// copies below 8, between 8 and 16 and above, overlapping their own output;
// and what Parquet pages hold: sequential int64s, doubles, and 32-byte
// strings after their 4-byte lengths.
inline std::vector<std::pair<std::string, std::vector<uint8_t>>> BlockShapes(size_t size, std::mt19937_64& rng) {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> shapes;
  const std::string at = " size " + std::to_string(size);
  std::vector<uint8_t> random(size);
  for (auto& b : random) b = static_cast<uint8_t>(rng());
  shapes.emplace_back("random" + at, std::move(random));
  for (const size_t period : {size_t{1}, size_t{2}, size_t{3}, size_t{4}, size_t{5}, size_t{6}, size_t{7}, size_t{8},
                              size_t{9}, size_t{15}, size_t{16}, size_t{17}, size_t{40}, size_t{100}}) {
    std::vector<uint8_t> periodic(size);
    for (size_t i = 0; i < size; ++i) periodic[i] = static_cast<uint8_t>((i % period) * 37 + 1);
    shapes.emplace_back("period " + std::to_string(period) + at, std::move(periodic));
  }
  std::vector<uint8_t> sequential(size);
  for (size_t i = 0; i + 8 <= size; i += 8) {
    const int64_t v = static_cast<int64_t>(i / 8) + 1000;
    std::memcpy(&sequential[i], &v, 8);
  }
  shapes.emplace_back("sequential" + at, std::move(sequential));
  std::vector<uint8_t> doubles(size);
  for (size_t i = 0; i + 8 <= size; i += 8) {
    const double v = static_cast<double>(rng() % 1000000007) / 1024.0;
    std::memcpy(&doubles[i], &v, 8);
  }
  shapes.emplace_back("doubles" + at, std::move(doubles));
  std::vector<uint8_t> strings;
  while (strings.size() < size) {
    const uint8_t length[4] = {32, 0, 0, 0};
    strings.insert(strings.end(), length, length + 4);
    for (int k = 0; k < 32; ++k) strings.push_back(static_cast<uint8_t>("0123456789abcdef"[rng() % 16]));
  }
  strings.resize(size);
  shapes.emplace_back("strings" + at, std::move(strings));
  return shapes;
}

}  // namespace floe::compression::codec_testing
