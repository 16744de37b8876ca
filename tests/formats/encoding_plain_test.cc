#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "floe/formats/parquet/encoding/plain.h"
#include "formats/encoding_test_util.h"

namespace floe::parquet::encoding {
namespace {

using testing::OwnedByteArrays;
using testing::ToStrings;

TEST(PlainEncodingTest, DecodesLittleEndianNumbers) {
  const std::vector<uint8_t> bytes = {0x01, 0x00, 0x00, 0x80, 0xff, 0xff, 0xff, 0x7f};
  PlainDecoder<int32_t> ints;
  ints.Init(bytes);
  int32_t i32[2];
  ASSERT_TRUE(ints.Decode(2, i32).ok());
  EXPECT_EQ(i32[0], std::numeric_limits<int32_t>::min() + 1);
  EXPECT_EQ(i32[1], std::numeric_limits<int32_t>::max());

  PlainDecoder<int64_t> longs;
  longs.Init(bytes);
  int64_t i64;
  ASSERT_TRUE(longs.Decode(1, &i64).ok());
  EXPECT_EQ(i64, 0x7fffffff80000001);

  const std::vector<uint8_t> one_and_a_half = {0x00, 0x00, 0xc0, 0x3f, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f};
  PlainDecoder<float> floats;
  floats.Init(std::span(one_and_a_half).first(4));
  float f;
  ASSERT_TRUE(floats.Decode(1, &f).ok());
  EXPECT_EQ(f, 1.5f);
  PlainDecoder<double> doubles;
  doubles.Init(std::span(one_and_a_half).subspan(4));
  double d;
  ASSERT_TRUE(doubles.Decode(1, &d).ok());
  EXPECT_EQ(d, 1.5);
}

TEST(PlainEncodingTest, DecodesInt96AsTwelveBytes) {
  // Nanoseconds 1 in the first 8 bytes, Julian day 2440588 (1970-01-01) last.
  const std::vector<uint8_t> bytes = {1, 0, 0, 0, 0, 0, 0, 0, 0x8c, 0x3d, 0x25, 0x00};
  PlainDecoder<Int96> decoder;
  decoder.Init(bytes);
  EXPECT_EQ(decoder.values_left(), 1);
  Int96 v;
  ASSERT_TRUE(decoder.Decode(1, &v).ok());
  EXPECT_EQ(v.value[0], 1u);
  EXPECT_EQ(v.value[1], 0u);
  EXPECT_EQ(v.value[2], 2440588u);
}

template <typename T>
void ExpectFixedWidthRoundTrip(const std::vector<T>& values) {
  std::vector<uint8_t> encoded;
  EncodePlain<T>(values, &encoded);
  ASSERT_EQ(encoded.size(), values.size() * sizeof(T));
  PlainDecoder<T> decoder;
  decoder.Init(encoded);
  std::vector<T> decoded(values.size());
  std::mt19937_64 rng(values.size());
  for (size_t done = 0; done < values.size();) {
    const size_t k = std::min<size_t>(values.size() - done, 1 + rng() % 50);
    if (rng() % 4 == 0) {
      ASSERT_TRUE(decoder.Skip(static_cast<int64_t>(k)).ok());
      std::copy(values.begin() + done, values.begin() + done + k, decoded.begin() + done);
    } else {
      ASSERT_TRUE(decoder.Decode(static_cast<int64_t>(k), decoded.data() + done).ok());
    }
    done += k;
  }
  if (!values.empty()) {
    ASSERT_EQ(std::memcmp(decoded.data(), values.data(), values.size() * sizeof(T)), 0);
  }
  T extra;
  EXPECT_TRUE(decoder.Decode(1, &extra).IsCorrupt());
}

TEST(PlainEncodingTest, RoundTripsEveryFixedWidthTypeBitExactly) {
  std::mt19937_64 rng(17);
  for (int64_t n : testing::kCounts) {
    for (testing::Pattern pattern : testing::kAllPatterns) {
      ExpectFixedWidthRoundTrip(testing::MakeIntegers<int32_t>(rng, pattern, n));
      ExpectFixedWidthRoundTrip(testing::MakeIntegers<int64_t>(rng, pattern, n));
    }
    std::vector<float> floats(static_cast<size_t>(n));
    std::vector<double> doubles(static_cast<size_t>(n));
    std::vector<Int96> int96s(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      floats[static_cast<size_t>(i)] = std::bit_cast<float>(static_cast<uint32_t>(rng()));  // NaNs, -0.0, denormals
      doubles[static_cast<size_t>(i)] = std::bit_cast<double>(rng());
      int96s[static_cast<size_t>(i)] = {{static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()), 2440588}};
    }
    ExpectFixedWidthRoundTrip(floats);
    ExpectFixedWidthRoundTrip(doubles);
    ExpectFixedWidthRoundTrip(int96s);
  }
}

TEST(PlainEncodingTest, IgnoresTrailingBytesShortOfAValueAndRejectsOverreads) {
  const std::vector<uint8_t> bytes(15, 0);
  PlainDecoder<int64_t> decoder;
  decoder.Init(bytes);
  EXPECT_EQ(decoder.values_left(), 1);
  int64_t out[2];
  const Status status = decoder.Decode(2, out);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "PLAIN: 2 INT64 values requested but 1 remain");
  EXPECT_TRUE(decoder.Skip(2).IsCorrupt());
  EXPECT_TRUE(decoder.Decode(-1, out).IsInvalidArgument());
}

TEST(PlainEncodingTest, DecodesBooleansLeastSignificantBitFirstAtAnyOffset) {
  // 0b00000101 0b10000000: true, false, true, then false x 12, then true.
  const std::vector<uint8_t> bytes = {0x05, 0x80};
  PlainBooleanDecoder decoder;
  decoder.Init(bytes);
  EXPECT_EQ(decoder.values_left(), 16);
  bool out[16];
  ASSERT_TRUE(decoder.Decode(3, out).ok());
  ASSERT_TRUE(decoder.Decode(13, out + 3).ok());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i == 0 || i == 2 || i == 15) << i;
  EXPECT_TRUE(decoder.Decode(1, out).IsCorrupt());
}

TEST(PlainEncodingTest, RoundTripsBooleansThroughUnalignedBatchesAndSkips) {
  std::mt19937_64 rng(23);
  for (int64_t n : testing::kCounts) {
    std::unique_ptr<bool[]> values(new bool[static_cast<size_t>(n) + 1]);
    for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = rng() % 3 == 0;
    std::vector<uint8_t> encoded;
    EncodePlainBoolean(std::span<const bool>(values.get(), static_cast<size_t>(n)), &encoded);
    ASSERT_EQ(static_cast<int64_t>(encoded.size()), (n + 7) / 8);
    PlainBooleanDecoder decoder;
    decoder.Init(encoded);
    std::unique_ptr<bool[]> decoded(new bool[static_cast<size_t>(n) + 1]);
    for (int64_t done = 0; done < n;) {
      const int64_t k = std::min<int64_t>(n - done, 1 + static_cast<int64_t>(rng() % 21));
      if (rng() % 3 == 0) {
        ASSERT_TRUE(decoder.Skip(k).ok());
        std::copy(values.get() + done, values.get() + done + k, decoded.get() + done);
      } else {
        ASSERT_TRUE(decoder.Decode(k, decoded.get() + done).ok());
      }
      done += k;
    }
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(decoded[static_cast<size_t>(i)], values[static_cast<size_t>(i)]) << i;
  }
}

TEST(PlainEncodingTest, DecodesByteArraysFromLengthPrefixedBytes) {
  const std::vector<uint8_t> bytes = {5, 0, 0, 0, 'h', 'e', 'l', 'l', 'o', 0, 0, 0, 0, 2, 0, 0, 0, 'h', 'i'};
  PlainByteArrayDecoder decoder;
  decoder.Init(bytes);
  const Result<ByteArrayBatch> batch = decoder.Decode(3);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(ToStrings(*batch), (std::vector<std::string>{"hello", "", "hi"}));
  EXPECT_EQ(decoder.bytes_left(), 0);
}

TEST(PlainEncodingTest, RoundTripsByteArraysInBatchesWithSkips) {
  std::mt19937_64 rng(29);
  for (int64_t n : testing::kCounts) {
    const std::vector<std::string> values = testing::RandomStrings(rng, n, 40);
    const OwnedByteArrays owned(values);
    std::vector<uint8_t> encoded;
    EncodePlainByteArray(owned.view(), &encoded);
    PlainByteArrayDecoder decoder;
    decoder.Init(encoded);
    std::vector<std::string> decoded;
    while (static_cast<int64_t>(decoded.size()) < n) {
      const int64_t k =
          std::min<int64_t>(n - static_cast<int64_t>(decoded.size()), 1 + static_cast<int64_t>(rng() % 30));
      if (rng() % 4 == 0) {
        ASSERT_TRUE(decoder.Skip(k).ok());
        decoded.insert(decoded.end(), values.begin() + static_cast<int64_t>(decoded.size()),
                       values.begin() + static_cast<int64_t>(decoded.size()) + k);
      } else {
        const Result<ByteArrayBatch> batch = decoder.Decode(k);
        ASSERT_TRUE(batch.ok()) << batch.status().ToString();
        for (const std::string& s : ToStrings(*batch)) decoded.push_back(s);
      }
    }
    EXPECT_EQ(decoded, values);
    EXPECT_EQ(decoder.bytes_left(), 0);
  }
}

TEST(PlainEncodingTest, RejectsByteArraysThatRunPastTheInput) {
  PlainByteArrayDecoder decoder;
  // A length that promises more bytes than follow.
  const std::vector<uint8_t> short_value = {6, 0, 0, 0, 'a', 'b', 'c', 'd', 'e'};
  decoder.Init(short_value);
  Result<ByteArrayBatch> batch = decoder.Decode(1);
  ASSERT_TRUE(batch.status().IsCorrupt());
  EXPECT_EQ(batch.status().message(), "PLAIN: BYTE_ARRAY value 0 has length 6 but only 5 bytes remain");
  // A length of 2^32 - 1.
  const std::vector<uint8_t> huge_length = {0xff, 0xff, 0xff, 0xff, 'a', 0, 0, 0};
  decoder.Init(huge_length);
  EXPECT_TRUE(decoder.Decode(1).status().IsCorrupt());
  decoder.Init(huge_length);
  EXPECT_TRUE(decoder.Skip(1).IsCorrupt());
  // A length cut off.
  const std::vector<uint8_t> cut_length = {1, 0, 0, 0, 'a', 1, 0};
  decoder.Init(cut_length);
  EXPECT_TRUE(decoder.Decode(1).ok());
  EXPECT_TRUE(decoder.Skip(1).IsCorrupt());
}

TEST(PlainEncodingTest, ChecksTheRequestedCountAgainstTheInputBeforeAllocating) {
  // Each value needs at least its 4-byte length, so 2^40 values cannot come
  // from 8 bytes: rejected without allocating 2^42 bytes of offsets.
  const std::vector<uint8_t> bytes(8, 0);
  PlainByteArrayDecoder decoder;
  decoder.Init(bytes);
  const Result<ByteArrayBatch> batch = decoder.Decode(int64_t{1} << 40);
  ASSERT_TRUE(batch.status().IsCorrupt());
  EXPECT_EQ(batch.status().message(), "PLAIN: 1099511627776 BYTE_ARRAY values requested but only 8 bytes remain");
  EXPECT_TRUE(decoder.Decode(-1).status().IsInvalidArgument());
}

TEST(PlainEncodingTest, DecodesFixedLenByteArraysByCopyOrInPlace) {
  const std::vector<uint8_t> bytes = {'a', 'b', 'c', 'd', 'e', 'f', 'g'};
  PlainFixedLenByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes, 3).ok());
  EXPECT_EQ(decoder.values_left(), 2);
  const Result<std::span<const uint8_t>> view = decoder.DecodeView(1);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->data(), bytes.data());  // no copy
  EXPECT_EQ(view->size(), 3u);
  uint8_t out[3];
  ASSERT_TRUE(decoder.Decode(1, out).ok());
  EXPECT_EQ(std::string(out, out + 3), "def");
  EXPECT_TRUE(decoder.Decode(1, out).IsCorrupt());
  EXPECT_TRUE(decoder.Init(bytes, 0).IsInvalidArgument());
}

TEST(PlainEncodingTest, EncodesFixedLenByteArraysAsTheirBytes) {
  std::vector<uint8_t> out;
  ASSERT_TRUE(EncodePlainFixedLenByteArray(std::vector<uint8_t>{1, 2, 3, 4}, 2, &out).ok());
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 2, 3, 4}));
  EXPECT_TRUE(EncodePlainFixedLenByteArray(std::vector<uint8_t>{1, 2, 3}, 2, &out).IsInvalidArgument());
  EXPECT_TRUE(EncodePlainFixedLenByteArray(std::vector<uint8_t>{}, 0, &out).IsInvalidArgument());
}

TEST(PlainEncodingTest, GarbageByteArraysFailCleanly) {
  std::mt19937_64 rng(31);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    std::vector<uint8_t> bytes(rng() % 40);
    for (auto& b : bytes) b = static_cast<uint8_t>(rng() % 4 == 0 ? rng() : rng() % 6);
    PlainByteArrayDecoder decoder;
    decoder.Init(bytes);
    const int64_t n = static_cast<int64_t>(rng() % 12);
    const Status status = rng() % 2 ? decoder.Decode(n).status() : decoder.Skip(n);
    EXPECT_TRUE(status.ok() || status.IsCorrupt()) << status.ToString();
  }
}

}  // namespace
}  // namespace floe::parquet::encoding
