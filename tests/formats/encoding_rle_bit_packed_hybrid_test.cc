#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "floe/formats/parquet/encoding/bit_util.h"
#include "floe/formats/parquet/encoding/rle_bit_packed_hybrid.h"
#include "formats/encoding_test_util.h"

namespace floe::parquet::encoding {
namespace {

using testing::kCounts;

std::vector<uint32_t> DecodeAll(const std::vector<uint8_t>& bytes, int bit_width, int64_t n) {
  RleBitPackedHybridDecoder decoder;
  EXPECT_TRUE(decoder.Init(bytes, bit_width).ok());
  std::vector<uint32_t> out(static_cast<size_t>(n));
  const Status status = decoder.Decode(n, out.data());
  EXPECT_TRUE(status.ok()) << status.ToString();
  return out;
}

TEST(RleBitPackedHybridTest, DecodesTheSpecBitPackedExample) {
  // One bit-packed group (header (1 << 1) | 1) of 0..7 in 3 bits.
  const std::vector<uint8_t> bytes = {0x03, 0b10001000, 0b11000110, 0b11111010};
  EXPECT_EQ(DecodeAll(bytes, 3, 8), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(RleBitPackedHybridTest, EncodesTheSpecBitPackedExampleByteForByte) {
  const std::vector<uint32_t> values = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<uint8_t> out;
  ASSERT_TRUE(EncodeRleBitPackedHybrid<uint32_t>(values, 3, &out).ok());
  EXPECT_EQ(out, (std::vector<uint8_t>{0x03, 0b10001000, 0b11000110, 0b11111010}));
}

TEST(RleBitPackedHybridTest, DecodesRleRunsWithValuesInWholeBytes) {
  // Five 7s in 3 bits (one value byte), 300 copies of 0x0abc in 12 bits (two
  // bytes), then 2 copies of 0xdeadbeef in 32 bits (four bytes).
  EXPECT_EQ(DecodeAll({0x0a, 0x07}, 3, 5), std::vector<uint32_t>(5, 7));
  EXPECT_EQ(DecodeAll({0xd8, 0x04, 0xbc, 0x0a}, 12, 300), std::vector<uint32_t>(300, 0x0abc));
  EXPECT_EQ(DecodeAll({0x04, 0xef, 0xbe, 0xad, 0xde}, 32, 2), std::vector<uint32_t>(2, 0xdeadbeef));
}

TEST(RleBitPackedHybridTest, EncodesLongRepeatsAsOneRleRun) {
  const std::vector<uint16_t> levels(1000, 1);
  std::vector<uint8_t> out;
  ASSERT_TRUE(EncodeRleBitPackedHybrid<uint16_t>(levels, 1, &out).ok());
  // varint(1000 << 1) is two bytes, the value one.
  EXPECT_EQ(out, (std::vector<uint8_t>{0xd0, 0x0f, 0x01}));
}

TEST(RleBitPackedHybridTest, BitWidthZeroHoldsOnlyZeros) {
  // An RLE run of 10 (no value bytes) then a bit-packed group (no data bytes).
  EXPECT_EQ(DecodeAll({0x14, 0x03}, 0, 18), std::vector<uint32_t>(18, 0));
  const std::vector<uint32_t> zeros(77, 0);
  std::vector<uint8_t> out;
  ASSERT_TRUE(EncodeRleBitPackedHybrid<uint32_t>(zeros, 0, &out).ok());
  EXPECT_EQ(out, (std::vector<uint8_t>{0x9a, 0x01}));
  EXPECT_EQ(DecodeAll(out, 0, 77), zeros);
}

TEST(RleBitPackedHybridTest, LengthPrefixedLevelsReportWhereTheValuesBegin) {
  // Data page v1: 4-byte length, the runs, then the page's values.
  const std::vector<uint8_t> page = {0x02, 0x00, 0x00, 0x00, 0x08, 0x01, 0xaa, 0xbb};
  RleBitPackedHybridDecoder decoder;
  const Result<int64_t> consumed = decoder.InitWithLengthPrefix(page, 1);
  ASSERT_TRUE(consumed.ok()) << consumed.status().ToString();
  EXPECT_EQ(*consumed, 6);
  int16_t levels[4];
  ASSERT_TRUE(decoder.Decode(4, levels).ok());
  EXPECT_EQ(std::vector<int16_t>(levels, levels + 4), std::vector<int16_t>(4, 1));
  EXPECT_TRUE(decoder.Decode(1, levels).IsCorrupt());  // the prefix bounds the runs
}

TEST(RleBitPackedHybridTest, LengthPrefixedEncodingRoundTripsBooleans) {
  std::mt19937_64 rng(3);
  std::vector<uint8_t> bits(1001);
  for (auto& b : bits) b = rng() % 3 == 0;
  std::vector<bool> expected(bits.begin(), bits.end());
  std::vector<uint8_t> out = {0xee};  // encoders append
  ASSERT_TRUE(EncodeRleBitPackedHybridWithLengthPrefix<uint8_t>(bits, 1, &out).ok());
  RleBitPackedHybridDecoder decoder;
  const std::span<const uint8_t> stream(out.data() + 1, out.size() - 1);
  ASSERT_EQ(decoder.InitWithLengthPrefix(stream, 1).value(), static_cast<int64_t>(stream.size()));
  auto values = std::make_unique<bool[]>(bits.size());
  ASSERT_TRUE(decoder.Decode(static_cast<int64_t>(bits.size()), values.get()).ok());
  EXPECT_EQ(std::vector<bool>(values.get(), values.get() + bits.size()), expected);
}

TEST(RleBitPackedHybridTest, RejectsLengthPrefixThatIsTruncatedOrTooLong) {
  RleBitPackedHybridDecoder decoder;
  EXPECT_TRUE(decoder.InitWithLengthPrefix(std::vector<uint8_t>{0x01, 0x00}, 1).status().IsCorrupt());
  const Result<int64_t> too_long = decoder.InitWithLengthPrefix(std::vector<uint8_t>{0x09, 0, 0, 0, 0x02, 0x01}, 1);
  ASSERT_TRUE(too_long.status().IsCorrupt());
  EXPECT_EQ(too_long.status().message(), "RLE: length prefix is 9 bytes but only 2 follow");
}

// Every bit width, every count around the group boundaries, every pattern:
// encode, then decode in uneven batches and compare.
TEST(RleBitPackedHybridTest, RoundTripsEveryBitWidthCountAndPattern) {
  std::mt19937_64 rng(42);
  for (int width = 0; width <= 32; ++width) {
    const uint64_t mask = LowBitsMask(width);
    for (int64_t n : kCounts) {
      for (testing::Pattern pattern : testing::kAllPatterns) {
        std::vector<uint32_t> values = testing::MakeIntegers<uint32_t>(rng, pattern, n);
        for (auto& v : values) v &= static_cast<uint32_t>(mask);
        std::vector<uint8_t> encoded;
        ASSERT_TRUE(EncodeRleBitPackedHybrid<uint32_t>(values, width, &encoded).ok());

        RleBitPackedHybridDecoder decoder;
        ASSERT_TRUE(decoder.Init(encoded, width).ok());
        std::vector<uint32_t> decoded(static_cast<size_t>(n));
        for (int64_t done = 0; done < n;) {
          const int64_t k = std::min<int64_t>(n - done, 1 + static_cast<int64_t>(rng() % 70));
          ASSERT_TRUE(decoder.Decode(k, decoded.data() + done).ok());
          done += k;
        }
        ASSERT_EQ(decoded, values) << "width " << width << " n " << n << " " << testing::PatternName(pattern);
        // The stream has no count: only the last group's padding (at most 7
        // values) may follow.
        EXPECT_TRUE(decoder.Skip(8).IsCorrupt());
      }
    }
  }
}

TEST(RleBitPackedHybridTest, DecodesIntoNarrowTypesWhenTheWidthFits) {
  std::mt19937_64 rng(5);
  std::vector<int16_t> levels(3000);
  for (auto& l : levels) l = static_cast<int16_t>(rng() % 4 == 0 ? 0 : rng() % 6);
  std::vector<uint8_t> encoded;
  ASSERT_TRUE(EncodeRleBitPackedHybrid<int16_t>(levels, 3, &encoded).ok());
  RleBitPackedHybridDecoder decoder;
  ASSERT_TRUE(decoder.Init(encoded, 3).ok());
  std::vector<uint8_t> narrow(levels.size());
  ASSERT_TRUE(decoder.Decode(static_cast<int64_t>(narrow.size()), narrow.data()).ok());
  EXPECT_EQ(std::vector<int16_t>(narrow.begin(), narrow.end()), levels);
}

TEST(RleBitPackedHybridTest, RejectsBitWidthThatDoesNotFitTheOutputType) {
  const std::vector<uint8_t> bytes = {0x02, 0x00, 0x01};
  RleBitPackedHybridDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes, 9).ok());
  uint8_t out;
  EXPECT_TRUE(decoder.Decode(1, &out).IsInvalidArgument());
  EXPECT_TRUE(decoder.Init({}, 33).IsInvalidArgument());
  EXPECT_TRUE(decoder.Init({}, -1).IsInvalidArgument());
}

TEST(RleBitPackedHybridTest, SkipLandsWhereDecodeWould) {
  std::mt19937_64 rng(9);
  for (int width : {0, 1, 5, 17, 32}) {
    std::vector<uint32_t> values = testing::MakeIntegers<uint32_t>(rng, testing::Pattern::kRuns, 5000);
    for (auto& v : values) v &= static_cast<uint32_t>(LowBitsMask(width));
    for (size_t i = 0; i < values.size(); i += 97) values[i] = 0;  // break runs into literals too
    std::vector<uint8_t> encoded;
    ASSERT_TRUE(EncodeRleBitPackedHybrid<uint32_t>(values, width, &encoded).ok());
    RleBitPackedHybridDecoder decoder;
    ASSERT_TRUE(decoder.Init(encoded, width).ok());
    int64_t pos = 0;
    while (pos < static_cast<int64_t>(values.size())) {
      const int64_t skip = std::min<int64_t>(static_cast<int64_t>(rng() % 40), 5000 - pos);
      ASSERT_TRUE(decoder.Skip(skip).ok());
      pos += skip;
      const int64_t take = std::min<int64_t>(static_cast<int64_t>(rng() % 40), 5000 - pos);
      std::vector<uint32_t> got(static_cast<size_t>(take));
      ASSERT_TRUE(decoder.Decode(take, got.data()).ok());
      ASSERT_EQ(got, std::vector<uint32_t>(values.begin() + pos, values.begin() + pos + take)) << "width " << width;
      pos += take;
    }
  }
}

TEST(RleBitPackedHybridTest, VisitHandsOutEachRleRunOnce) {
  // 100 x 3, then one bit-packed group 0..7, in 3 bits.
  const std::vector<uint8_t> bytes = {0xc8, 0x01, 0x03, 0x03, 0b10001000, 0b11000110, 0b11111010};
  RleBitPackedHybridDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes, 3).ok());
  std::vector<std::pair<uint32_t, int64_t>> repeats;
  std::vector<uint32_t> literals;
  ASSERT_TRUE(decoder
                  .Visit(
                      108,
                      [&](uint32_t value, int64_t count) {
                        repeats.emplace_back(value, count);
                        return Status::OK();
                      },
                      [&](const uint32_t* values, int64_t count) {
                        literals.insert(literals.end(), values, values + count);
                        return Status::OK();
                      })
                  .ok());
  EXPECT_EQ(repeats, (std::vector<std::pair<uint32_t, int64_t>>{{3, 100}}));
  EXPECT_EQ(literals, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(RleBitPackedHybridTest, ReadsTheWholeValuesOfABitPackedRunCutShortByTheInput) {
  // The header promises 8 values of 3 bits (3 bytes); 2 bytes hold 5 values.
  const std::vector<uint8_t> bytes = {0x03, 0b10001000, 0b11000110};
  RleBitPackedHybridDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes, 3).ok());
  uint32_t out[6];
  ASSERT_TRUE(decoder.Decode(5, out).ok());
  EXPECT_EQ(std::vector<uint32_t>(out, out + 5), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
  const Status more = decoder.Decode(1, out);
  ASSERT_TRUE(more.IsCorrupt());
  EXPECT_EQ(more.message(), "RLE: the runs end after 3 bytes, before the requested values");
}

// The status of decoding one value from `bytes`, which this keeps alive.
Status DecodeOne(const std::vector<uint8_t>& bytes, int bit_width) {
  RleBitPackedHybridDecoder decoder;
  FLOE_RETURN_IF_ERROR(decoder.Init(bytes, bit_width));
  uint32_t out;
  return decoder.Decode(1, &out);
}

TEST(RleBitPackedHybridTest, RejectsMalformedRuns) {
  // A repeated value wider than the bit width.
  Status status = DecodeOne({0x02, 0x09}, 3);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "RLE: run at byte 0 repeats 9, which exceeds bit width 3");
  // A repeated value cut off.
  EXPECT_TRUE(DecodeOne({0x02, 0x09}, 9).IsCorrupt());
  // A header varint that never ends, or runs past 64 bits.
  EXPECT_TRUE(DecodeOne({0x80, 0x80}, 1).IsCorrupt());
  EXPECT_TRUE(DecodeOne(std::vector<uint8_t>(11, 0xff), 1).IsCorrupt());
  // An RLE run of 2^31 values (header 2^32 = varint 80 80 80 80 10).
  status = DecodeOne({0x80, 0x80, 0x80, 0x80, 0x10, 0x01}, 1);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "RLE: run at byte 0 of 2147483648 values exceeds 2^31-1");
  // A bit-packed run of 2^28 groups (2^31 values).
  EXPECT_TRUE(DecodeOne({0x81, 0x80, 0x80, 0x80, 0x02}, 1).IsCorrupt());
  // No runs at all.
  EXPECT_TRUE(DecodeOne({}, 1).IsCorrupt());
  RleBitPackedHybridDecoder decoder;
  ASSERT_TRUE(decoder.Init({}, 1).ok());
  uint32_t out;
  EXPECT_TRUE(decoder.Decode(-1, &out).IsInvalidArgument());
}

TEST(RleBitPackedHybridTest, GarbageInputFailsCleanly) {
  std::mt19937_64 rng(1234);
  std::vector<uint32_t> out(4096);
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::vector<uint8_t> bytes(rng() % 64);
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
    RleBitPackedHybridDecoder decoder;
    ASSERT_TRUE(decoder.Init(bytes, static_cast<int>(rng() % 33)).ok());
    for (int step = 0; step < 4; ++step) {
      const int64_t n = static_cast<int64_t>(rng() % out.size());
      const Status status = rng() % 2 ? decoder.Decode(n, out.data()) : decoder.Skip(n);
      if (!status.ok()) {
        ASSERT_TRUE(status.IsCorrupt()) << status.ToString();
        break;
      }
    }
  }
}

TEST(RleBitPackedHybridTest, EncoderRejectsValuesOutsideTheBitWidth) {
  std::vector<uint8_t> out = {0x55};
  EXPECT_TRUE(EncodeRleBitPackedHybrid<uint32_t>(std::vector<uint32_t>{1, 8}, 3, &out).IsInvalidArgument());
  EXPECT_TRUE(EncodeRleBitPackedHybrid<int16_t>(std::vector<int16_t>{-1}, 3, &out).IsInvalidArgument());
  EXPECT_TRUE(EncodeRleBitPackedHybrid<uint32_t>(std::vector<uint32_t>{1}, 33, &out).IsInvalidArgument());
  EXPECT_TRUE(
      EncodeRleBitPackedHybridWithLengthPrefix<uint32_t>(std::vector<uint32_t>{9}, 3, &out).IsInvalidArgument());
  EXPECT_EQ(out, std::vector<uint8_t>{0x55});  // nothing appended on failure
}

}  // namespace
}  // namespace floe::parquet::encoding
