#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "floe/formats/parquet/encoding/delta_byte_array.h"
#include "formats/encoding_test_util.h"

namespace floe::parquet::encoding {
namespace {

using testing::OwnedByteArrays;
using testing::ToStrings;

// Encodings.md: "axis", "axle", "babble", "babyhood" is DeltaEncoding(0, 2, 0, 3)
// (prefix lengths), DeltaEncoding(4, 2, 6, 5) (suffix lengths), then
// "axislebabbleyhood".
std::vector<uint8_t> DeltaByteArraySpecExample() {
  // Each stream: 128-value blocks of 4 miniblocks, 4 values, the first value,
  // min delta -2 (zigzag 3), bit widths 3, 0, 0, 0, then the 12-byte miniblock.
  // Prefix lengths 0, 2, 0, 3: deltas less the min delta are 4, 0, 5.
  const uint8_t prefix_lengths[] = {0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00, 0x44, 0x01};
  // Suffix lengths 4, 2, 6, 5: deltas less the min delta are 0, 6, 1.
  const uint8_t suffix_lengths[] = {0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0x00, 0x00, 0x00, 0x70, 0x00};
  const std::string suffixes = "axislebabbleyhood";
  std::vector<uint8_t> bytes(std::begin(prefix_lengths), std::end(prefix_lengths));
  bytes.insert(bytes.end(), 10, 0x00);
  bytes.insert(bytes.end(), std::begin(suffix_lengths), std::end(suffix_lengths));
  bytes.insert(bytes.end(), 10, 0x00);
  bytes.insert(bytes.end(), suffixes.begin(), suffixes.end());
  return bytes;
}

const std::vector<std::string> kDeltaByteArraySpecValues = {"axis", "axle", "babble", "babyhood"};

TEST(DeltaByteArrayTest, DecodesTheSpecExample) {
  const std::vector<uint8_t> bytes = DeltaByteArraySpecExample();
  DeltaByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes).ok());
  const Result<ByteArrayBatch> batch = decoder.Decode(4);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(ToStrings(*batch), kDeltaByteArraySpecValues);
}

TEST(DeltaByteArrayTest, EncodesTheSpecExampleByteForByte) {
  std::vector<uint8_t> out;
  EncodeDeltaByteArray(OwnedByteArrays(kDeltaByteArraySpecValues).view(), &out);
  EXPECT_EQ(out, DeltaByteArraySpecExample());
}

TEST(DeltaByteArrayTest, CarriesThePreviousValueAcrossBatchesAndSkips) {
  const std::vector<uint8_t> bytes = DeltaByteArraySpecExample();
  DeltaByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes).ok());
  ASSERT_TRUE(decoder.Skip(1).ok());  // "axis" is kept as the prefix source
  EXPECT_EQ(ToStrings(decoder.Decode(1).value()), (std::vector<std::string>{"axle"}));
  ASSERT_TRUE(decoder.Skip(1).ok());
  EXPECT_EQ(ToStrings(decoder.Decode(1).value()), (std::vector<std::string>{"babyhood"}));
  EXPECT_TRUE(decoder.Decode(1).status().IsCorrupt());
}

TEST(DeltaByteArrayTest, RoundTripsSharedPrefixesInBatchesWithSkips) {
  std::mt19937_64 rng(73);
  for (int64_t n : testing::kCounts) {
    for (int max_length : {0, 4, 60}) {
      std::vector<std::string> values = testing::RandomStrings(rng, n, max_length);
      if (rng() % 2) std::sort(values.begin(), values.end());
      std::vector<uint8_t> encoded;
      EncodeDeltaByteArray(OwnedByteArrays(values).view(), &encoded);
      DeltaByteArrayDecoder decoder;
      ASSERT_TRUE(decoder.Init(encoded).ok());
      ASSERT_EQ(decoder.num_values(), n);
      std::vector<std::string> decoded;
      while (static_cast<int64_t>(decoded.size()) < n) {
        const auto done = static_cast<int64_t>(decoded.size());
        const int64_t k = std::min<int64_t>(n - done, 1 + static_cast<int64_t>(rng() % 150));
        if (rng() % 4 == 0) {
          ASSERT_TRUE(decoder.Skip(k).ok());
          decoded.insert(decoded.end(), values.begin() + done, values.begin() + done + k);
        } else {
          const Result<ByteArrayBatch> batch = decoder.Decode(k);
          ASSERT_TRUE(batch.ok()) << batch.status().ToString();
          for (const std::string& s : ToStrings(*batch)) decoded.push_back(s);
        }
      }
      EXPECT_EQ(decoded, values);
    }
  }
}

TEST(DeltaByteArrayTest, RoundTripsFixedLenByteArrays) {
  std::mt19937_64 rng(79);
  std::string values;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t v = i / 7;  // sorted keys share long prefixes
    for (int b = 15; b >= 0; --b) values.push_back(static_cast<char>(b < 8 ? v >> (8 * b) : 0xab));
  }
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(values.data()), values.size());
  std::vector<uint8_t> encoded;
  ASSERT_TRUE(EncodeDeltaByteArray(bytes, 16, &encoded).ok());
  EXPECT_LT(encoded.size(), values.size() / 4);
  DeltaByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(encoded).ok());
  std::vector<uint8_t> decoded(values.size());
  ASSERT_TRUE(decoder.DecodeFixedLenByteArray(400, 16, decoded.data()).ok());
  ASSERT_TRUE(decoder.Skip(100).ok());
  std::copy(bytes.begin() + 400 * 16, bytes.begin() + 500 * 16, decoded.begin() + 400 * 16);
  ASSERT_TRUE(decoder.DecodeFixedLenByteArray(500, 16, decoded.data() + 500 * 16).ok());
  EXPECT_TRUE(std::equal(decoded.begin(), decoded.end(), bytes.begin()));
  EXPECT_TRUE(EncodeDeltaByteArray(bytes.first(15), 16, &encoded).IsInvalidArgument());
}

TEST(DeltaByteArrayTest, RejectsFixedLenValuesOfTheWrongWidth) {
  const std::vector<uint8_t> bytes = DeltaByteArraySpecExample();
  DeltaByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes).ok());
  uint8_t out[16];
  const Status status = decoder.DecodeFixedLenByteArray(4, 4, out);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "DELTA_BYTE_ARRAY: FIXED_LEN_BYTE_ARRAY(4) value 2 is 6 bytes long");
  EXPECT_TRUE(decoder.DecodeFixedLenByteArray(1, 0, out).IsInvalidArgument());
}

std::vector<uint8_t> Stream(const std::vector<int32_t>& prefixes, const std::vector<int32_t>& suffix_lengths,
                            const std::string& suffixes) {
  std::vector<uint8_t> bytes;
  EncodeDeltaBinaryPacked<int32_t>(prefixes, &bytes);
  EncodeDeltaBinaryPacked<int32_t>(suffix_lengths, &bytes);
  bytes.insert(bytes.end(), suffixes.begin(), suffixes.end());
  return bytes;
}

TEST(DeltaByteArrayTest, RejectsPrefixesLongerThanThePreviousValue) {
  DeltaByteArrayDecoder decoder;
  const std::vector<uint8_t> first_has_prefix = Stream({1}, {1}, "a");
  ASSERT_TRUE(decoder.Init(first_has_prefix).ok());
  Result<ByteArrayBatch> batch = decoder.Decode(1);
  ASSERT_TRUE(batch.status().IsCorrupt());
  EXPECT_EQ(batch.status().message(),
            "DELTA_BYTE_ARRAY: value 0 has prefix length 1 but the previous value has 0 bytes");
  const std::vector<uint8_t> too_long = Stream({0, 3}, {2, 0}, "ab");
  ASSERT_TRUE(decoder.Init(too_long).ok());
  EXPECT_TRUE(decoder.Decode(2).status().IsCorrupt());
  ASSERT_TRUE(decoder.Init(too_long).ok());
  EXPECT_TRUE(decoder.Skip(2).IsCorrupt());
  const std::vector<uint8_t> negative = Stream({0, -1}, {2, 0}, "ab");
  ASSERT_TRUE(decoder.Init(negative).ok());
  EXPECT_TRUE(decoder.Decode(2).status().IsCorrupt());
}

TEST(DeltaByteArrayTest, RejectsStreamsThatDisagreeOnTheCount) {
  DeltaByteArrayDecoder decoder;
  const std::vector<uint8_t> mismatched = Stream({0, 1}, {1}, "a");
  const Status status = decoder.Init(mismatched);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "DELTA_BYTE_ARRAY: 2 prefix lengths but 1 suffixes");
  const std::vector<uint8_t> truncated = {0x80, 0x01};
  EXPECT_TRUE(decoder.Init(truncated).IsCorrupt());
}

TEST(DeltaByteArrayTest, BoundsExpansionByInt32OffsetsBeforeAllocating) {
  // One 1 MiB value, then 2100 values that repeat it whole: 2.2 GB decoded
  // from about 1 MiB of input. Rejected before the data is allocated.
  const int32_t big = 1 << 20;
  std::vector<int32_t> prefixes(2101, big);
  prefixes[0] = 0;
  std::vector<int32_t> suffix_lengths(2101, 0);
  suffix_lengths[0] = big;
  const std::vector<uint8_t> bytes = Stream(prefixes, suffix_lengths, std::string(static_cast<size_t>(big), 'x'));
  DeltaByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes).ok());
  const Result<ByteArrayBatch> batch = decoder.Decode(2101);
  ASSERT_TRUE(batch.status().IsInvalidArgument());
  EXPECT_EQ(batch.status().message(),
            "DELTA_BYTE_ARRAY: 2101 values decode to at least 2147483648 bytes, more than int32 offsets address; "
            "decode fewer values per call");
  // Fewer values per call decode fine.
  ASSERT_TRUE(decoder.Init(bytes).ok());
  const Result<ByteArrayBatch> few = decoder.Decode(3);
  ASSERT_TRUE(few.ok());
  EXPECT_EQ(few->Value(2), std::string(static_cast<size_t>(big), 'x'));
}

TEST(DeltaByteArrayTest, GarbageInputFailsCleanly) {
  std::mt19937_64 rng(83);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    std::vector<uint8_t> bytes = DeltaByteArraySpecExample();
    for (int flips = 0; flips < 3; ++flips) bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
    bytes.resize(rng() % (bytes.size() + 1));
    DeltaByteArrayDecoder decoder;
    const Status init = decoder.Init(bytes);
    if (!init.ok()) {
      EXPECT_TRUE(init.IsCorrupt()) << init.ToString();
      continue;
    }
    const int64_t n = std::min<int64_t>(decoder.num_values(), 6);
    const Status status = rng() % 2 ? decoder.Decode(n).status() : decoder.Skip(n);
    EXPECT_TRUE(status.ok() || status.IsCorrupt()) << status.ToString();
  }
}

}  // namespace
}  // namespace floe::parquet::encoding
