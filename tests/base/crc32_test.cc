#include "floe/base/crc32.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <vector>

namespace floe {
namespace {

uint32_t ZlibCrc32(const std::vector<uint8_t>& data, size_t begin, size_t end) {
  return static_cast<uint32_t>(crc32(0L, data.data() + begin, static_cast<uInt>(end - begin)));
}

TEST(Crc32Test, MatchesTheCheckValue) {
  // The CRC-32/ISO-HDLC check value: the CRC of "123456789".
  const std::string check = "123456789";
  EXPECT_EQ(Crc32(0, std::span(reinterpret_cast<const uint8_t*>(check.data()), check.size())), 0xCBF43926u);
  EXPECT_EQ(Crc32(0, {}), 0u);
  EXPECT_EQ(Crc32(0x12345678u, {}), 0x12345678u);
}

TEST(Crc32Test, MatchesZlibOnRandomBuffersOfEveryAlignmentAndLength) {
  std::mt19937_64 rng(46);
  std::vector<uint8_t> data(300'000);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  // Short lengths one by one (the vector loops' heads and tails), then
  // random lengths up to past a page, at random offsets.
  for (size_t n = 0; n < 300; ++n) {
    const size_t begin = n % 64;
    ASSERT_EQ(Crc32(0, std::span(data.data() + begin, n)), ZlibCrc32(data, begin, begin + n)) << "length " << n;
  }
  for (int i = 0; i < 200; ++i) {
    const size_t begin = rng() % 1000;
    const size_t n = rng() % (data.size() - begin);
    ASSERT_EQ(Crc32(0, std::span(data.data() + begin, n)), ZlibCrc32(data, begin, begin + n))
        << "offset " << begin << " length " << n;
  }
}

TEST(Crc32Test, ContinuesARunningCrc) {
  std::mt19937_64 rng(7);
  std::vector<uint8_t> data(100'000);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  for (int i = 0; i < 50; ++i) {
    const size_t cut = rng() % data.size();
    const uint32_t first = Crc32(0, std::span(data.data(), cut));
    EXPECT_EQ(Crc32(first, std::span(data.data() + cut, data.size() - cut)), ZlibCrc32(data, 0, data.size()));
  }
}

}  // namespace
}  // namespace floe
