#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "floe/formats/parquet/encoding/bit_util.h"
#include "floe/formats/parquet/encoding/delta_binary_packed.h"
#include "floe/formats/parquet/encoding/varint.h"
#include "formats/encoding_test_util.h"

namespace floe::parquet::encoding {
namespace {

template <typename T>
std::vector<T> DecodeAll(const std::vector<uint8_t>& bytes) {
  DeltaBinaryPackedDecoder<T> decoder;
  const Status init = decoder.Init(bytes);
  EXPECT_TRUE(init.ok()) << init.ToString();
  std::vector<T> out(static_cast<size_t>(decoder.num_values()));
  const Status status = decoder.Decode(decoder.num_values(), out.data());
  EXPECT_TRUE(status.ok()) << status.ToString();
  return out;
}

template <typename T>
Status DecodeStatus(const std::vector<uint8_t>& bytes, int64_t n) {
  DeltaBinaryPackedDecoder<T> decoder;
  FLOE_RETURN_IF_ERROR(decoder.Init(bytes));
  std::vector<T> out(static_cast<size_t>(n));
  return decoder.Decode(n, out.data());
}

// Encodings.md's two examples use "8 as the block size to keep the examples
// short, but in real cases it would be invalid"; here they are with the
// smallest valid layout, one miniblock of 128 values.
const std::vector<uint8_t> kSpecExample1 = {
    0x80, 0x01,  // block size 128
    0x01,        // 1 miniblock
    0x05,        // 5 values
    0x02,        // first value 1 (zigzag)
    0x02,        // min delta 1 (zigzag)
    0x00,        // bit width 0: no data
};

std::vector<uint8_t> SpecExample2() {
  const uint8_t head[] = {
      0x80, 0x01, 0x01, 0x08, 0x0e,  // 128-value blocks, 1 miniblock, 8 values, first value 7
      0x03, 0x02,                    // min delta -2 (zigzag), bit width 2
      0xc0, 0x3f,                    // 0, 0, 0, 3, 3, 3, 3 in 2 bits: 11000000 00111111
  };
  std::vector<uint8_t> bytes(sizeof(head) + 30, 0);  // zero padding to 128 values
  std::copy(std::begin(head), std::end(head), bytes.begin());
  return bytes;
}

TEST(DeltaBinaryPackedTest, DecodesTheSpecExamples) {
  EXPECT_EQ(DecodeAll<int32_t>(kSpecExample1), (std::vector<int32_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(DecodeAll<int64_t>(kSpecExample1), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(DecodeAll<int32_t>(SpecExample2()), (std::vector<int32_t>{7, 5, 3, 1, 2, 3, 4, 5}));
}

TEST(DeltaBinaryPackedTest, EncodesTheSpecExamplesByteForByte) {
  const DeltaBinaryPackedOptions one_miniblock{.block_size = 128, .miniblocks_per_block = 1};
  std::vector<uint8_t> out;
  ASSERT_TRUE(EncodeDeltaBinaryPacked<int32_t>(std::vector<int32_t>{1, 2, 3, 4, 5}, one_miniblock, &out).ok());
  EXPECT_EQ(out, kSpecExample1);
  out.clear();
  ASSERT_TRUE(EncodeDeltaBinaryPacked<int64_t>(std::vector<int64_t>{7, 5, 3, 1, 2, 3, 4, 5}, one_miniblock, &out).ok());
  EXPECT_EQ(out, SpecExample2());
}

TEST(DeltaBinaryPackedTest, RejectsTheSpecExamplesLiteralBlockSizeOfEight) {
  const std::vector<uint8_t> bytes = {0x08, 0x01, 0x05, 0x02, 0x02, 0x00};
  DeltaBinaryPackedDecoder<int32_t> decoder;
  const Status status = decoder.Init(bytes);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "DELTA_BINARY_PACKED: block size 8 is not a positive multiple of 128 below 2^31");
}

// A stream of one block of 4 miniblocks whose first miniblock has exactly
// `bit_width` bits, built by hand with the packing kernels so the decoder is
// checked independently of the encoder.
template <typename T>
void ExpectDecodesHandBuiltMiniblock(int bit_width, std::mt19937_64& rng) {
  using U = std::make_unsigned_t<T>;
  const int64_t n = 1 + 32 + 5;  // first value, a full miniblock, part of the next
  const T first = static_cast<T>(rng());
  const T min_delta = static_cast<T>(rng());
  std::vector<uint64_t> deltas(64, 0);
  for (int i = 0; i < 37; ++i) deltas[static_cast<size_t>(i)] = rng() & LowBitsMask(bit_width);
  deltas[3] = LowBitsMask(bit_width);  // use the full width
  std::vector<uint8_t> bytes = {0x80, 0x01, 0x04, static_cast<uint8_t>(n)};
  WriteUleb128(ZigZagEncode(first), &bytes);
  WriteUleb128(ZigZagEncode(min_delta), &bytes);
  const int second_width = 7;
  for (uint64_t& d : std::span(deltas).subspan(32)) d &= LowBitsMask(second_width);
  bytes.insert(bytes.end(), {static_cast<uint8_t>(bit_width), second_width, 0xee, 0xff});  // unused widths: any value
  const size_t body = bytes.size();
  bytes.resize(body + 4 * bit_width + 4 * second_width);
  Pack(deltas.data(), 32, bit_width, bytes.data() + body);
  Pack(deltas.data() + 32, 32, second_width, bytes.data() + body + 4 * bit_width);

  std::vector<T> expected = {first};
  U value = static_cast<U>(first);
  for (int i = 0; i < 37; ++i) {
    value += static_cast<U>(min_delta) + static_cast<U>(deltas[static_cast<size_t>(i)]);
    expected.push_back(static_cast<T>(value));
  }
  ASSERT_EQ(DecodeAll<T>(bytes), expected) << "bit width " << bit_width;
  DeltaBinaryPackedDecoder<T> decoder;
  ASSERT_TRUE(decoder.Init(bytes).ok());
  EXPECT_EQ(decoder.EncodedSize().value(), static_cast<int64_t>(bytes.size()));
}

TEST(DeltaBinaryPackedTest, DecodesEveryMiniblockBitWidth) {
  std::mt19937_64 rng(43);
  for (int width = 0; width <= 32; ++width) ExpectDecodesHandBuiltMiniblock<int32_t>(width, rng);
  for (int width = 0; width <= 64; ++width) ExpectDecodesHandBuiltMiniblock<int64_t>(width, rng);
}

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values, const DeltaBinaryPackedOptions& options, std::mt19937_64& rng) {
  std::vector<uint8_t> encoded;
  ASSERT_TRUE(EncodeDeltaBinaryPacked<T>(values, options, &encoded).ok());
  DeltaBinaryPackedDecoder<T> decoder;
  ASSERT_TRUE(decoder.Init(encoded).ok());
  ASSERT_EQ(decoder.num_values(), static_cast<int64_t>(values.size()));
  EXPECT_EQ(decoder.EncodedSize().value(), static_cast<int64_t>(encoded.size()));
  std::vector<T> decoded(values.size());
  for (size_t done = 0; done < values.size();) {
    const size_t k = std::min<size_t>(values.size() - done, 1 + rng() % 200);
    if (rng() % 4 == 0) {
      ASSERT_TRUE(decoder.Skip(static_cast<int64_t>(k)).ok());
      std::copy(values.begin() + done, values.begin() + done + k, decoded.begin() + done);
    } else {
      ASSERT_TRUE(decoder.Decode(static_cast<int64_t>(k), decoded.data() + done).ok());
    }
    done += k;
  }
  ASSERT_EQ(decoded, values);
  EXPECT_EQ(decoder.values_left(), 0);
  T extra;
  EXPECT_TRUE(decoder.Decode(1, &extra).IsCorrupt());
}

TEST(DeltaBinaryPackedTest, RoundTripsEveryPatternCountAndLayout) {
  std::mt19937_64 rng(47);
  const DeltaBinaryPackedOptions layouts[] = {{128, 4}, {128, 1}, {256, 8}, {512, 4}};
  for (const DeltaBinaryPackedOptions& layout : layouts) {
    for (int64_t n : testing::kCounts) {
      for (testing::Pattern pattern : testing::kAllPatterns) {
        SCOPED_TRACE(testing::PatternName(pattern));
        ExpectRoundTrip(testing::MakeIntegers<int32_t>(rng, pattern, n), layout, rng);
        ExpectRoundTrip(testing::MakeIntegers<int64_t>(rng, pattern, n), layout, rng);
      }
    }
  }
}

// Deltas drawn below 2^width force miniblocks of up to every bit width
// through the encoder and back.
template <typename T>
void ExpectRoundTripsDeltasOfEveryWidth(std::mt19937_64& rng) {
  using U = std::make_unsigned_t<T>;
  for (int width = 0; width <= static_cast<int>(8 * sizeof(T)); ++width) {
    std::vector<T> values(300);
    U value = static_cast<U>(rng());
    for (T& v : values) {
      value += static_cast<U>(rng() & LowBitsMask(width));
      v = static_cast<T>(value);
    }
    std::vector<uint8_t> encoded;
    EncodeDeltaBinaryPacked<T>(values, &encoded);
    ASSERT_EQ(DecodeAll<T>(encoded), values) << "width " << width;
  }
}

TEST(DeltaBinaryPackedTest, RoundTripsDeltasOfEveryBitWidth) {
  std::mt19937_64 rng(101);
  ExpectRoundTripsDeltasOfEveryWidth<int32_t>(rng);
  ExpectRoundTripsDeltasOfEveryWidth<int64_t>(rng);
}

TEST(DeltaBinaryPackedTest, WrapsAroundAtTheExtremes) {
  std::mt19937_64 rng(53);
  constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();
  constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
  ExpectRoundTrip(std::vector<int32_t>{kMax32, kMin32, kMax32, kMin32, 0, kMax32, -1, kMin32}, {}, rng);
  ExpectRoundTrip(std::vector<int64_t>{kMax64, kMin64, kMax64, kMin64, 0, kMax64, -1, kMin64}, {}, rng);
  // Deltas INT64_MAX and INT64_MIN are 2^64 - 1 apart: all 64 bits.
  const std::vector<int64_t> widest = {0, kMax64, -1};
  std::vector<uint8_t> encoded;
  EncodeDeltaBinaryPacked<int64_t>(widest, &encoded);
  EXPECT_EQ(encoded[15], 64);  // after the 5 header bytes and the 10-byte min delta
  EXPECT_EQ(DecodeAll<int64_t>(encoded), widest);
}

TEST(DeltaBinaryPackedTest, Int32StreamsWithSixtyFourBitDeltasWrapInThirtyTwoBits) {
  // A writer that took INT32 deltas in 64 bits: INT32_MAX then INT32_MIN is a
  // delta of -(2^32 - 1), which in 32-bit arithmetic is +1.
  std::vector<uint8_t> bytes = {0x80, 0x01, 0x04, 0x02};
  WriteUleb128(ZigZagEncode(std::numeric_limits<int32_t>::max()), &bytes);
  WriteUleb128(ZigZagEncode(-int64_t{0xffffffff}), &bytes);
  bytes.insert(bytes.end(), {0, 0, 0, 0});
  EXPECT_EQ(DecodeAll<int32_t>(bytes),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min()}));
}

TEST(DeltaBinaryPackedTest, AcceptsArbitraryPaddingAndUnneededBitWidths) {
  // spec: "readers must accept paddings consisting of arbitrary bits" and
  // arbitrary bit widths for unneeded miniblocks.
  std::vector<uint8_t> bytes = {0x80, 0x01, 0x04, 0x03, 0x00, 0x00, 0x01, 0xff, 0xff, 0xff};
  bytes.insert(bytes.end(), {0b11111110, 0xff, 0xff, 0xff});  // deltas 0, 1, then padding of ones
  EXPECT_EQ(DecodeAll<int64_t>(bytes), (std::vector<int64_t>{0, 0, 1}));
}

TEST(DeltaBinaryPackedTest, AcceptsALastMiniblockWithoutItsPadding) {
  std::vector<uint8_t> encoded;
  const std::vector<int64_t> values = {5, 1000, -3, 77, 123456789};
  EncodeDeltaBinaryPacked<int64_t>(values, &encoded);
  // The padded miniblock is 32 values of `width` bits (4 * width bytes); the
  // 4 real deltas need only 4 * width bits.
  DeltaBinaryPackedDecoder<int64_t> decoder;
  ASSERT_TRUE(decoder.Init(encoded).ok());
  const int width = encoded[7];  // after the 5 header bytes and the 2-byte min delta
  const size_t padded_bytes = static_cast<size_t>(4 * width);
  const size_t unpadded = encoded.size() - padded_bytes + static_cast<size_t>(BytesForBits(4 * width));
  encoded.resize(unpadded);
  EXPECT_EQ(DecodeAll<int64_t>(encoded), values);
  ASSERT_TRUE(decoder.Init(encoded).ok());
  EXPECT_TRUE(decoder.EncodedSize().status().IsCorrupt());  // something following would be misplaced
  encoded.pop_back();
  EXPECT_TRUE(DecodeStatus<int64_t>(encoded, 5).IsCorrupt());
}

TEST(DeltaBinaryPackedTest, EncodedSizeFindsTheEndOfTheStream) {
  std::mt19937_64 rng(59);
  for (int64_t n : testing::kCounts) {
    std::vector<uint8_t> encoded;
    EncodeDeltaBinaryPacked<int32_t>(testing::MakeIntegers<int32_t>(rng, testing::Pattern::kRandom, n), &encoded);
    const auto size = static_cast<int64_t>(encoded.size());
    encoded.insert(encoded.end(), {1, 2, 3, 4, 5});  // what follows, e.g. DELTA_LENGTH_BYTE_ARRAY data
    DeltaBinaryPackedDecoder<int32_t> decoder;
    ASSERT_TRUE(decoder.Init(encoded).ok());
    EXPECT_EQ(decoder.EncodedSize().value(), size) << n;
  }
}

TEST(DeltaBinaryPackedTest, RejectsMalformedHeaders) {
  DeltaBinaryPackedDecoder<int64_t> decoder;
  auto message = [&](std::vector<uint8_t> bytes) {
    const Status status = decoder.Init(bytes);
    EXPECT_TRUE(status.IsCorrupt()) << status.ToString();
    return status.message();
  };
  EXPECT_EQ(message({0x00, 0x04, 0x00, 0x00}),
            "DELTA_BINARY_PACKED: block size 0 is not a positive multiple of 128 below 2^31");
  EXPECT_EQ(message({0x81, 0x01, 0x04, 0x00, 0x00}),
            "DELTA_BINARY_PACKED: block size 129 is not a positive multiple of 128 below 2^31");
  EXPECT_EQ(message({0x80, 0x01, 0x00, 0x00, 0x00}),
            "DELTA_BINARY_PACKED: 0 miniblocks do not split a block of 128 values into multiples of 32");
  EXPECT_EQ(message({0x80, 0x01, 0x03, 0x00, 0x00}),
            "DELTA_BINARY_PACKED: 3 miniblocks do not split a block of 128 values into multiples of 32");
  EXPECT_EQ(message({0x80, 0x01, 0x08, 0x00, 0x00}),
            "DELTA_BINARY_PACKED: 8 miniblocks do not split a block of 128 values into multiples of 32");
  EXPECT_EQ(message({0x80, 0x01, 0x04, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00}),
            "DELTA_BINARY_PACKED: value count 2147483648 exceeds 2^31-1");
  EXPECT_EQ(message({0x80, 0x01, 0x04, 0x82, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}),
            "DELTA_BINARY_PACKED: 130 values need at least 10 bytes of blocks but only 5 remain");
  EXPECT_EQ(message({0x80, 0x01, 0x04, 0x02}),
            "DELTA_BINARY_PACKED: header first value is truncated or overflows 64 bits");
  EXPECT_EQ(message({}), "DELTA_BINARY_PACKED: header block size is truncated or overflows 64 bits");
}

TEST(DeltaBinaryPackedTest, RejectsBitWidthsWiderThanTheType) {
  std::vector<uint8_t> bytes = {0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 70, 0, 0, 0};
  bytes.resize(bytes.size() + 4 * 70, 0);
  Status status = DecodeStatus<int64_t>(bytes, 2);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "DELTA_BINARY_PACKED: miniblock bit width 70 exceeds 64 (block 0, miniblock 0)");
  bytes[6] = 33;
  status = DecodeStatus<int32_t>(bytes, 2);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "DELTA_BINARY_PACKED: miniblock bit width 33 exceeds 32 (block 0, miniblock 0)");
  EXPECT_TRUE(DecodeStatus<int64_t>(bytes, 2).ok());
  DeltaBinaryPackedDecoder<int32_t> decoder;
  ASSERT_TRUE(decoder.Init(bytes).ok());
  EXPECT_TRUE(decoder.EncodedSize().status().IsCorrupt());
}

TEST(DeltaBinaryPackedTest, RejectsTruncatedBlocks) {
  // 1 + 2 * 128 values fill both blocks, so the last miniblock has no
  // padding and every cut loses real values.
  std::vector<uint8_t> encoded;
  std::vector<int64_t> values(257);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i * i * 31);
  EncodeDeltaBinaryPacked<int64_t>(values, &encoded);
  for (size_t cut = 5; cut < encoded.size(); ++cut) {
    const std::vector<uint8_t> truncated(encoded.begin(), encoded.begin() + static_cast<int64_t>(cut));
    DeltaBinaryPackedDecoder<int64_t> decoder;
    const Status init = decoder.Init(truncated);
    if (!init.ok()) {
      EXPECT_TRUE(init.IsCorrupt());
      continue;
    }
    std::vector<int64_t> out(values.size());
    const Status status = decoder.Decode(257, out.data());
    EXPECT_TRUE(status.IsCorrupt()) << "cut at " << cut;
  }
}

TEST(DeltaBinaryPackedTest, RejectsRequestsBeyondTheDeclaredCount) {
  DeltaBinaryPackedDecoder<int32_t> decoder;
  ASSERT_TRUE(decoder.Init(kSpecExample1).ok());
  int32_t out[6];
  const Status status = decoder.Decode(6, out);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "DELTA_BINARY_PACKED: 6 values requested but only 5 of 5 remain");
  EXPECT_TRUE(decoder.Decode(-1, out).IsInvalidArgument());
  EXPECT_TRUE(decoder.Skip(-1).IsInvalidArgument());
}

TEST(DeltaBinaryPackedTest, EncoderRejectsLayoutsTheSpecForbids) {
  std::vector<uint8_t> out;
  const std::vector<int32_t> values = {1, 2, 3};
  EXPECT_TRUE(EncodeDeltaBinaryPacked<int32_t>(values, {.block_size = 100, .miniblocks_per_block = 1}, &out)
                  .IsInvalidArgument());
  EXPECT_TRUE(EncodeDeltaBinaryPacked<int32_t>(values, {.block_size = 128, .miniblocks_per_block = 8}, &out)
                  .IsInvalidArgument());
  EXPECT_TRUE(
      EncodeDeltaBinaryPacked<int32_t>(values, {.block_size = 0, .miniblocks_per_block = 0}, &out).IsInvalidArgument());
  EXPECT_TRUE(out.empty());
}

TEST(DeltaBinaryPackedTest, GarbageInputFailsCleanly) {
  std::mt19937_64 rng(61);
  std::vector<int64_t> out(2048);
  for (int iteration = 0; iteration < 3000; ++iteration) {
    // A plausible header, then random blocks.
    std::vector<uint8_t> bytes = {0x80, 0x01, static_cast<uint8_t>(1 << (rng() % 3)),
                                  static_cast<uint8_t>(rng() & 0x7f)};
    const size_t extra = rng() % 80;
    for (size_t i = 0; i < extra; ++i) bytes.push_back(static_cast<uint8_t>(rng() % 3 == 0 ? rng() % 70 : rng()));
    if (rng() % 8 == 0) bytes[static_cast<size_t>(rng() % bytes.size())] = static_cast<uint8_t>(rng());
    DeltaBinaryPackedDecoder<int64_t> decoder;
    const Status init = decoder.Init(bytes);
    if (!init.ok()) {
      EXPECT_TRUE(init.IsCorrupt());
      continue;
    }
    static_cast<void>(decoder.EncodedSize());
    const int64_t n = std::min<int64_t>(decoder.num_values(), static_cast<int64_t>(rng() % out.size()));
    const Status status = rng() % 2 ? decoder.Decode(n, out.data()) : decoder.Skip(n);
    EXPECT_TRUE(status.ok() || status.IsCorrupt()) << status.ToString();
  }
}

}  // namespace
}  // namespace floe::parquet::encoding
