#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "floe/formats/parquet/encoding/byte_stream_split.h"
#include "formats/encoding_test_util.h"

namespace floe::parquet::encoding {
namespace {

// Encodings.md: three 32-bit floats AA BB CC DD, 00 11 22 33, A3 B4 C5 D6.
const std::vector<uint8_t> kByteStreamSplitSpecValues = {0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x11, 0x22, 0x33, 0xa3, 0xb4, 0xc5, 0xd6};
const std::vector<uint8_t> kSpecStreams = {0xaa, 0x00, 0xa3, 0xbb, 0x11, 0xb4, 0xcc, 0x22, 0xc5, 0xdd, 0x33, 0xd6};

TEST(ByteStreamSplitTest, DecodesTheSpecExample) {
  ByteStreamSplitDecoder decoder;
  ASSERT_TRUE(decoder.Init(kSpecStreams, 4).ok());
  EXPECT_EQ(decoder.num_values(), 3);
  float floats[3];
  ASSERT_TRUE(decoder.Decode(3, floats).ok());
  EXPECT_EQ(std::memcmp(floats, kByteStreamSplitSpecValues.data(), 12), 0);
}

TEST(ByteStreamSplitTest, EncodesTheSpecExampleByteForByte) {
  std::vector<uint8_t> out;
  ASSERT_TRUE(EncodeByteStreamSplit(kByteStreamSplitSpecValues, 4, &out).ok());
  EXPECT_EQ(out, kSpecStreams);
}

// Counts around the 16-value vector step, for the typed widths and odd ones.
TEST(ByteStreamSplitTest, RoundTripsEveryWidthInBatchesWithSkips) {
  std::mt19937_64 rng(89);
  for (int32_t width : {1, 2, 3, 4, 5, 8, 12, 16}) {
    for (int64_t n : {0, 1, 15, 16, 17, 31, 33, 100, 1000}) {
      std::vector<uint8_t> values(static_cast<size_t>(n * width));
      for (auto& b : values) b = static_cast<uint8_t>(rng());
      std::vector<uint8_t> encoded;
      ASSERT_TRUE(EncodeByteStreamSplit(values, width, &encoded).ok());
      ASSERT_EQ(encoded.size(), values.size());
      for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(encoded[static_cast<size_t>(i)], values[static_cast<size_t>(i * width)]);
      ByteStreamSplitDecoder decoder;
      ASSERT_TRUE(decoder.Init(encoded, width).ok());
      std::vector<uint8_t> decoded(values.size());
      for (int64_t done = 0; done < n;) {
        const int64_t k = std::min<int64_t>(n - done, 1 + static_cast<int64_t>(rng() % 40));
        if (rng() % 4 == 0) {
          ASSERT_TRUE(decoder.Skip(k).ok());
          std::copy(values.begin() + done * width, values.begin() + (done + k) * width, decoded.begin() + done * width);
        } else {
          ASSERT_TRUE(decoder.Decode(k, decoded.data() + done * width).ok());
        }
        done += k;
      }
      ASSERT_EQ(decoded, values) << "width " << width << " n " << n;
      uint8_t extra[16];
      EXPECT_TRUE(decoder.Decode(1, extra).IsCorrupt());
    }
  }
}

TEST(ByteStreamSplitTest, RoundTripsTypedValues) {
  std::mt19937_64 rng(97);
  std::vector<double> doubles(1003);
  for (auto& d : doubles) d = std::bit_cast<double>(rng());
  std::vector<int32_t> ints = testing::MakeIntegers<int32_t>(rng, testing::Pattern::kExtremes, 1003);
  std::vector<uint8_t> encoded;
  EncodeByteStreamSplit<double>(doubles, &encoded);
  ByteStreamSplitDecoder decoder;
  ASSERT_TRUE(decoder.Init(encoded, 8).ok());
  std::vector<double> decoded_doubles(doubles.size());
  ASSERT_TRUE(decoder.Decode(static_cast<int64_t>(doubles.size()), decoded_doubles.data()).ok());
  EXPECT_EQ(std::memcmp(decoded_doubles.data(), doubles.data(), doubles.size() * 8), 0);

  encoded.clear();
  EncodeByteStreamSplit<int32_t>(ints, &encoded);
  ASSERT_TRUE(decoder.Init(encoded, 4).ok());
  std::vector<int32_t> decoded_ints(ints.size());
  ASSERT_TRUE(decoder.Decode(static_cast<int64_t>(ints.size()), decoded_ints.data()).ok());
  EXPECT_EQ(decoded_ints, ints);
}

TEST(ByteStreamSplitTest, RejectsDataThatIsNotWholeValues) {
  ByteStreamSplitDecoder decoder;
  const Status status = decoder.Init(std::vector<uint8_t>(10), 4);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "BYTE_STREAM_SPLIT: 10 bytes are not a whole number of 4-byte values");
  EXPECT_TRUE(decoder.Init(std::vector<uint8_t>(10), 0).IsInvalidArgument());
  std::vector<uint8_t> out;
  EXPECT_TRUE(EncodeByteStreamSplit(std::vector<uint8_t>(10), 4, &out).IsInvalidArgument());
  EXPECT_TRUE(out.empty());
}

TEST(ByteStreamSplitTest, TypedDecodeRejectsAMismatchedWidth) {
  const std::vector<uint8_t> bytes(16);
  ByteStreamSplitDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes, 8).ok());
  float floats[4];
  EXPECT_TRUE(decoder.Decode(2, floats).IsInvalidArgument());
  double doubles[3];
  EXPECT_TRUE(decoder.Decode(3, doubles).IsCorrupt());
  EXPECT_TRUE(decoder.Decode(-1, doubles).IsInvalidArgument());
}

}  // namespace
}  // namespace floe::parquet::encoding
