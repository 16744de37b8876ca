#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "floe/formats/parquet/encoding/bit_util.h"
#include "floe/formats/parquet/encoding/varint.h"

namespace floe::parquet::encoding {
namespace {

// Bit-by-bit reference for the hybrid's packing order: value bits fill each
// byte from its least significant bit.
uint64_t ReferenceGet(const std::vector<uint8_t>& bytes, int64_t index, int bit_width) {
  uint64_t v = 0;
  for (int b = 0; b < bit_width; ++b) {
    const int64_t bit = index * bit_width + b;
    v |= static_cast<uint64_t>((bytes[static_cast<size_t>(bit / 8)] >> (bit % 8)) & 1) << b;
  }
  return v;
}

std::vector<uint8_t> ReferencePack(const std::vector<uint64_t>& values, int bit_width) {
  std::vector<uint8_t> bytes(static_cast<size_t>(BytesForBits(static_cast<int64_t>(values.size()) * bit_width)));
  for (size_t i = 0; i < values.size(); ++i) {
    for (int b = 0; b < bit_width; ++b) {
      const int64_t bit = static_cast<int64_t>(i) * bit_width + b;
      if ((values[i] >> b) & 1) bytes[static_cast<size_t>(bit / 8)] |= static_cast<uint8_t>(1 << (bit % 8));
    }
  }
  return bytes;
}

TEST(EncodingBitUtilTest, BitWidthIsTheBitsOfTheMaxValue) {
  EXPECT_EQ(BitWidth(0), 0);
  EXPECT_EQ(BitWidth(1), 1);
  EXPECT_EQ(BitWidth(2), 2);
  EXPECT_EQ(BitWidth(255), 8);
  EXPECT_EQ(BitWidth(256), 9);
  EXPECT_EQ(BitWidth(uint64_t{1} << 63), 64);
  EXPECT_EQ(BitWidth(~uint64_t{0}), 64);
  EXPECT_EQ(LowBitsMask(0), 0u);
  EXPECT_EQ(LowBitsMask(3), 7u);
  EXPECT_EQ(LowBitsMask(64), ~uint64_t{0});
  EXPECT_EQ(BytesForBits(0), 0);
  EXPECT_EQ(BytesForBits(1), 1);
  EXPECT_EQ(BytesForBits(8), 1);
  EXPECT_EQ(BytesForBits(9), 2);
}

TEST(EncodingBitUtilTest, LoadsAndStoresLittleEndianAtAnyAlignment) {
  const uint8_t bytes[] = {0xff, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  EXPECT_EQ(LoadLittleEndian<uint32_t>(bytes + 1), 0x04030201u);
  EXPECT_EQ(LoadLittleEndian<uint64_t>(bytes + 1), 0x0807060504030201u);
  uint8_t out[5] = {};
  StoreLittleEndian<uint32_t>(0xa1b2c3d4, out + 1);
  EXPECT_EQ(out[1], 0xd4);
  EXPECT_EQ(out[4], 0xa1);
}

TEST(EncodingBitUtilTest, PacksTheSpecExampleOfZeroToSevenInThreeBits) {
  // Encodings.md: 0..7 with bit width 3 is "10001000 11000110 11111010".
  const uint32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  uint8_t packed[3];
  Pack(values, 8, 3, packed);
  EXPECT_EQ(packed[0], 0b10001000);
  EXPECT_EQ(packed[1], 0b11000110);
  EXPECT_EQ(packed[2], 0b11111010);
  uint32_t unpacked[8];
  Unpack(packed, 8, 3, unpacked);
  EXPECT_EQ(std::vector<uint32_t>(unpacked, unpacked + 8), std::vector<uint32_t>(values, values + 8));
}

// Every width, for counts mixing 32-value and 8-value groups, against the
// bit-by-bit reference; the input is exactly sized so ASan catches any read
// past a group.
TEST(EncodingBitUtilTest, UnpackMatchesTheReferenceForEveryWidth) {
  std::mt19937_64 rng(7);
  for (int width = 0; width <= 64; ++width) {
    for (int64_t count : {8, 16, 24, 32, 40, 64, 96, 104, 256}) {
      std::vector<uint64_t> values(static_cast<size_t>(count));
      for (auto& v : values) v = rng() & LowBitsMask(width);
      const std::vector<uint8_t> packed = ReferencePack(values, width);
      ASSERT_EQ(static_cast<int64_t>(packed.size()), count * width / 8);
      auto exact = std::make_unique<uint8_t[]>(packed.size() + (packed.empty() ? 1 : 0));
      std::copy(packed.begin(), packed.end(), exact.get());

      std::vector<uint64_t> out64(static_cast<size_t>(count), 99);
      Unpack(exact.get(), count, width, out64.data());
      ASSERT_EQ(out64, values) << "width " << width << " count " << count;
      for (int64_t i = 0; i < count; ++i) ASSERT_EQ(ReferenceGet(packed, i, width), values[static_cast<size_t>(i)]);

      if (width <= 32) {
        std::vector<uint32_t> out32(static_cast<size_t>(count), 99);
        Unpack(exact.get(), count, width, out32.data());
        ASSERT_EQ(std::vector<uint64_t>(out32.begin(), out32.end()), values) << "width " << width;
      }
    }
  }
}

TEST(EncodingBitUtilTest, PackMatchesTheReferenceForEveryWidthAndIgnoresHighBits) {
  std::mt19937_64 rng(11);
  for (int width = 0; width <= 64; ++width) {
    for (int64_t count : {8, 32, 40, 136}) {
      std::vector<uint64_t> raw(static_cast<size_t>(count));
      for (auto& v : raw) v = rng();
      std::vector<uint64_t> masked(raw);
      for (auto& v : masked) v &= LowBitsMask(width);
      const std::vector<uint8_t> expected = ReferencePack(masked, width);

      std::vector<uint8_t> packed(expected.size());
      Pack(raw.data(), count, width, packed.data());
      ASSERT_EQ(packed, expected) << "width " << width << " count " << count;
      if (width <= 32) {
        std::vector<uint32_t> raw32(raw.begin(), raw.end());
        std::vector<uint8_t> packed32(expected.size());
        Pack(raw32.data(), count, width, packed32.data());
        ASSERT_EQ(packed32, expected) << "width " << width;
      }
    }
  }
}

TEST(EncodingBitUtilTest, Uleb128RoundTripsAndRejectsTruncatedOrOverlongInput) {
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{127}, uint64_t{128}, uint64_t{300}, ~uint64_t{0}}) {
    std::vector<uint8_t> bytes;
    WriteUleb128(v, &bytes);
    const uint8_t* pos = bytes.data();
    uint64_t decoded = 0;
    ASSERT_TRUE(ReadUleb128(&pos, bytes.data() + bytes.size(), &decoded));
    EXPECT_EQ(decoded, v);
    EXPECT_EQ(pos, bytes.data() + bytes.size());
    const uint8_t* start = bytes.data();
    EXPECT_FALSE(ReadUleb128(&start, bytes.data() + bytes.size() - 1, &decoded));
    EXPECT_EQ(start, bytes.data());
  }
  const std::vector<uint8_t> eleven(11, 0xff);
  const uint8_t* pos = eleven.data();
  uint64_t v;
  EXPECT_FALSE(ReadUleb128(&pos, eleven.data() + eleven.size(), &v));
  // A tenth byte above 1 would set bits past 63.
  std::vector<uint8_t> tenth(9, 0x80);
  tenth.push_back(0x02);
  pos = tenth.data();
  EXPECT_FALSE(ReadUleb128(&pos, tenth.data() + tenth.size(), &v));
}

TEST(EncodingBitUtilTest, ZigZagMapsSmallMagnitudesToSmallNumbers) {
  EXPECT_EQ(ZigZagEncode(0), 0u);
  EXPECT_EQ(ZigZagEncode(-1), 1u);
  EXPECT_EQ(ZigZagEncode(1), 2u);
  EXPECT_EQ(ZigZagEncode(-2), 3u);
  EXPECT_EQ(ZigZagEncode(std::numeric_limits<int64_t>::max()), ~uint64_t{0} - 1);
  EXPECT_EQ(ZigZagEncode(std::numeric_limits<int64_t>::min()), ~uint64_t{0});
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{5}, std::numeric_limits<int64_t>::min(),
                    std::numeric_limits<int64_t>::max()}) {
    EXPECT_EQ(ZigZagDecode(ZigZagEncode(v)), v);
  }
}

}  // namespace
}  // namespace floe::parquet::encoding
