#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "floe/formats/parquet/encoding/delta_length_byte_array.h"
#include "formats/encoding_test_util.h"

namespace floe::parquet::encoding {
namespace {

using testing::OwnedByteArrays;
using testing::ToStrings;

// Encodings.md: "Hello", "World", "Foobar", "ABCDEF" is DeltaEncoding(5, 5, 6, 6)
// then "HelloWorldFoobarABCDEF".
std::vector<uint8_t> DeltaLengthSpecExample() {
  std::vector<uint8_t> bytes = {
      0x80, 0x01, 0x04, 0x04, 0x0a,  // 128-value blocks, 4 miniblocks, 4 values, first 5
      0x00,                          // min delta 0
      0x01, 0x00, 0x00, 0x00,        // bit widths: deltas 0, 1, 0 in 1 bit
      0x02, 0x00, 0x00, 0x00,        // the miniblock, padded to 32 values
  };
  const std::string data = "HelloWorldFoobarABCDEF";
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

const std::vector<std::string> kDeltaLengthSpecValues = {"Hello", "World", "Foobar", "ABCDEF"};

TEST(DeltaLengthByteArrayTest, DecodesTheSpecExample) {
  const std::vector<uint8_t> bytes = DeltaLengthSpecExample();
  DeltaLengthByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes).ok());
  EXPECT_EQ(decoder.num_values(), 4);
  const Result<ByteArrayBatch> batch = decoder.Decode(4);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(ToStrings(*batch), kDeltaLengthSpecValues);
}

TEST(DeltaLengthByteArrayTest, EncodesTheSpecExampleByteForByte) {
  std::vector<uint8_t> out;
  EncodeDeltaLengthByteArray(OwnedByteArrays(kDeltaLengthSpecValues).view(), &out);
  EXPECT_EQ(out, DeltaLengthSpecExample());
}

TEST(DeltaLengthByteArrayTest, BatchesShareThePageBufferInsteadOfCopying) {
  const Buffer page = Buffer::CopyOf(std::span<const uint8_t>(DeltaLengthSpecExample()));
  DeltaLengthByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(page).ok());
  const Result<ByteArrayBatch> first = decoder.Decode(1);
  const Result<ByteArrayBatch> rest = decoder.Decode(3);
  ASSERT_TRUE(first.ok() && rest.ok());
  EXPECT_EQ(first->data.data(), page.data() + 14);  // right after the 14-byte lengths stream
  EXPECT_EQ(rest->data.data(), page.data() + 19);
  EXPECT_EQ(ToStrings(*rest), (std::vector<std::string>{"World", "Foobar", "ABCDEF"}));
}

TEST(DeltaLengthByteArrayTest, RoundTripsInBatchesWithSkips) {
  std::mt19937_64 rng(67);
  for (int64_t n : testing::kCounts) {
    for (int max_length : {0, 3, 100}) {
      const std::vector<std::string> values = testing::RandomStrings(rng, n, max_length);
      std::vector<uint8_t> encoded;
      EncodeDeltaLengthByteArray(OwnedByteArrays(values).view(), &encoded);
      DeltaLengthByteArrayDecoder decoder;
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
      EXPECT_TRUE(decoder.Decode(1).status().IsCorrupt());
    }
  }
}

TEST(DeltaLengthByteArrayTest, EncodesSlicedArrowOffsets) {
  // A sliced Arrow array: offsets start at 3 into the data.
  const int32_t offsets[] = {3, 5, 5, 8};
  const std::string data = "xxxabcde";
  std::vector<uint8_t> out;
  EncodeDeltaLengthByteArray({offsets, reinterpret_cast<const uint8_t*>(data.data()), 3}, &out);
  DeltaLengthByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(out).ok());
  EXPECT_EQ(ToStrings(decoder.Decode(3).value()), (std::vector<std::string>{"ab", "", "cde"}));
}

TEST(DeltaLengthByteArrayTest, RejectsNegativeLengths) {
  std::vector<uint8_t> bytes;
  EncodeDeltaBinaryPacked<int32_t>(std::vector<int32_t>{2, -1}, &bytes);
  bytes.insert(bytes.end(), {'a', 'b', 'c'});
  DeltaLengthByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes).ok());
  const Result<ByteArrayBatch> batch = decoder.Decode(2);
  ASSERT_TRUE(batch.status().IsCorrupt());
  EXPECT_EQ(batch.status().message(), "DELTA_LENGTH_BYTE_ARRAY: value 1 has negative length -1");
}

TEST(DeltaLengthByteArrayTest, RejectsLengthsThatRunPastTheData) {
  std::vector<uint8_t> bytes;
  EncodeDeltaBinaryPacked<int32_t>(std::vector<int32_t>{2, 2, std::numeric_limits<int32_t>::max()}, &bytes);
  bytes.insert(bytes.end(), {'a', 'b', 'c', 'd', 'e'});
  DeltaLengthByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(bytes).ok());
  ASSERT_TRUE(decoder.Decode(2).ok());
  const Result<ByteArrayBatch> batch = decoder.Decode(1);
  ASSERT_TRUE(batch.status().IsCorrupt());
  EXPECT_EQ(batch.status().message(), "DELTA_LENGTH_BYTE_ARRAY: values 2..2 need 2147483647 bytes but only 1 remain");
  ASSERT_TRUE(decoder.Init(bytes).ok());
  EXPECT_TRUE(decoder.Skip(3).IsCorrupt());
}

TEST(DeltaLengthByteArrayTest, RejectsMalformedLengthStreams) {
  DeltaLengthByteArrayDecoder decoder;
  const Status empty = decoder.Init(std::span<const uint8_t>());
  ASSERT_TRUE(empty.IsCorrupt());
  EXPECT_EQ(
      empty.message(),
      "DELTA_LENGTH_BYTE_ARRAY lengths: DELTA_BINARY_PACKED: header block size is truncated or overflows 64 bits");
  // The lengths' last miniblock is cut: the data cannot be located.
  std::vector<uint8_t> bytes = DeltaLengthSpecExample();
  bytes.resize(12);
  EXPECT_TRUE(decoder.Init(bytes).IsCorrupt());
  const std::vector<uint8_t> whole = DeltaLengthSpecExample();
  ASSERT_TRUE(decoder.Init(whole).ok());
  EXPECT_TRUE(decoder.Decode(-1).status().IsInvalidArgument());
  EXPECT_TRUE(decoder.Decode(5).status().IsCorrupt());
}

TEST(DeltaLengthByteArrayTest, EmptyStreamRoundTrips) {
  std::vector<uint8_t> encoded;
  EncodeDeltaLengthByteArray(OwnedByteArrays({}).view(), &encoded);
  DeltaLengthByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(encoded).ok());
  EXPECT_EQ(decoder.num_values(), 0);
  const Result<ByteArrayBatch> batch = decoder.Decode(0);
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(batch->num_values, 0);
  EXPECT_EQ(batch->offsets_data()[0], 0);
}

TEST(DeltaLengthByteArrayTest, GarbageInputFailsCleanly) {
  std::mt19937_64 rng(71);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    std::vector<uint8_t> bytes = DeltaLengthSpecExample();
    for (int flips = 0; flips < 3; ++flips) bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
    bytes.resize(rng() % (bytes.size() + 1));
    DeltaLengthByteArrayDecoder decoder;
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
