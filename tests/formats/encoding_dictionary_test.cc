#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "floe/formats/parquet/encoding/dictionary.h"
#include "floe/formats/parquet/encoding/dictionary_builder.h"
#include "floe/formats/parquet/encoding/plain.h"
#include "formats/encoding_test_util.h"

namespace floe::parquet::encoding {
namespace {

using testing::OwnedByteArrays;
using testing::ToStrings;

// Bit width 3, then one bit-packed group of the indices 0..7.
const std::vector<uint8_t> kZeroToSeven = {0x03, 0x03, 0b10001000, 0b11000110, 0b11111010};
// Bit width 2, then an RLE run of 5 x index 3.
const std::vector<uint8_t> kFiveThrees = {0x02, 0x0a, 0x03};

TEST(DictionaryEncodingTest, DecodesIndicesAfterTheBitWidthByte) {
  DictionaryIndexDecoder decoder;
  ASSERT_TRUE(decoder.Init(kZeroToSeven, 8).ok());
  EXPECT_EQ(decoder.bit_width(), 3);
  uint32_t indices[8];
  ASSERT_TRUE(decoder.DecodeIndices(8, indices).ok());
  EXPECT_EQ(std::vector<uint32_t>(indices, indices + 8), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(DictionaryEncodingTest, GathersFixedWidthValuesFromLiteralAndRleRuns) {
  const int64_t dictionary[8] = {10, 11, 12, 13, 14, 15, 16, std::numeric_limits<int64_t>::min()};
  DictionaryIndexDecoder decoder;
  ASSERT_TRUE(decoder.Init(kZeroToSeven, 8).ok());
  int64_t out[8];
  ASSERT_TRUE(decoder.Decode(3, dictionary, out).ok());
  ASSERT_TRUE(decoder.Decode(5, dictionary, out + 3).ok());
  EXPECT_EQ(std::vector<int64_t>(out, out + 8), std::vector<int64_t>(dictionary, dictionary + 8));

  const Int96 int96s[4] = {{{1, 2, 3}}, {{4, 5, 6}}, {{7, 8, 9}}, {{10, 11, 12}}};
  ASSERT_TRUE(decoder.Init(kFiveThrees, 4).ok());
  Int96 gathered[5];
  ASSERT_TRUE(decoder.Decode(5, int96s, gathered).ok());
  for (const Int96& v : gathered) EXPECT_EQ(v, int96s[3]);
}

TEST(DictionaryEncodingTest, GathersFixedLenAndVariableLengthByteArrays) {
  const std::string fixed = "aabbccddeeffgghh";
  DictionaryIndexDecoder decoder;
  ASSERT_TRUE(decoder.Init(kZeroToSeven, 8).ok());
  uint8_t out[16];
  ASSERT_TRUE(decoder.DecodeFixedLenByteArray(8, reinterpret_cast<const uint8_t*>(fixed.data()), 2, out).ok());
  EXPECT_EQ(std::string(out, out + 16), fixed);
  EXPECT_TRUE(decoder.DecodeFixedLenByteArray(1, nullptr, 0, out).IsInvalidArgument());

  const OwnedByteArrays dictionary({"", "one", "two", "three", "four", "five", "six", "seven"});
  ASSERT_TRUE(decoder.Init(kZeroToSeven, 8).ok());
  Result<ByteArrayBatch> batch = decoder.DecodeByteArrays(2, dictionary.view());
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(ToStrings(*batch), (std::vector<std::string>{"", "one"}));
  batch = decoder.DecodeByteArrays(6, dictionary.view());
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(ToStrings(*batch), (std::vector<std::string>{"two", "three", "four", "five", "six", "seven"}));

  ASSERT_TRUE(decoder.Init(kFiveThrees, 8).ok());
  batch = decoder.DecodeByteArrays(5, dictionary.view());
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(ToStrings(*batch), std::vector<std::string>(5, "three"));
  EXPECT_TRUE(decoder.DecodeByteArrays(1, OwnedByteArrays({"x"}).view()).status().IsInvalidArgument());

  // A dictionary of empty values may have no data at all.
  const int32_t empty_offsets[] = {0, 0, 0, 0, 0};
  ASSERT_TRUE(decoder.Init(kFiveThrees, 4).ok());
  batch = decoder.DecodeByteArrays(5, ByteArrayView{empty_offsets, nullptr, 4});
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(ToStrings(*batch), std::vector<std::string>(5, ""));
}

TEST(DictionaryEncodingTest, RejectsIndicesOutsideTheDictionary) {
  DictionaryIndexDecoder decoder;
  // Literal run: index 7 of a 7-entry dictionary.
  ASSERT_TRUE(decoder.Init(kZeroToSeven, 7).ok());
  uint32_t indices[8];
  Status status = decoder.DecodeIndices(8, indices);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "RLE_DICTIONARY: index 7 is out of range for a dictionary of 7 entries");
  // RLE run: index 3 of a 3-entry dictionary, for every gather.
  const int32_t ints[3] = {1, 2, 3};
  int32_t out[5];
  ASSERT_TRUE(decoder.Init(kFiveThrees, 3).ok());
  status = decoder.Decode(5, ints, out);
  ASSERT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "RLE_DICTIONARY: index 3 is out of range for a dictionary of 3 entries");
  ASSERT_TRUE(decoder.Init(kFiveThrees, 3).ok());
  EXPECT_TRUE(decoder.DecodeByteArrays(5, OwnedByteArrays({"a", "b", "c"}).view()).status().IsCorrupt());
  uint8_t bytes[5];
  ASSERT_TRUE(decoder.Init(kFiveThrees, 3).ok());
  EXPECT_TRUE(decoder.DecodeFixedLenByteArray(5, reinterpret_cast<const uint8_t*>("abc"), 1, bytes).IsCorrupt());
  // An empty dictionary admits no index at all.
  ASSERT_TRUE(decoder.Init(kFiveThrees, 0).ok());
  EXPECT_TRUE(decoder.DecodeIndices(1, indices).IsCorrupt());
}

TEST(DictionaryEncodingTest, RejectsMalformedDataPages) {
  DictionaryIndexDecoder decoder;
  EXPECT_TRUE(decoder.Init({}, 4).IsCorrupt());
  const Status wide = decoder.Init(std::vector<uint8_t>{33, 0x02, 0x00}, 4);
  ASSERT_TRUE(wide.IsCorrupt());
  EXPECT_EQ(wide.message(), "RLE_DICTIONARY: index bit width 33 exceeds 32");
  EXPECT_TRUE(decoder.Init(kFiveThrees, -1).IsInvalidArgument());
  ASSERT_TRUE(decoder.Init(kFiveThrees, 4).ok());
  uint32_t indices[6];
  EXPECT_TRUE(decoder.DecodeIndices(6, indices).IsCorrupt());  // the runs hold 5
}

TEST(DictionaryEncodingTest, SkipMovesPastIndices) {
  DictionaryIndexDecoder decoder;
  ASSERT_TRUE(decoder.Init(kZeroToSeven, 8).ok());
  ASSERT_TRUE(decoder.Skip(5).ok());
  uint32_t indices[3];
  ASSERT_TRUE(decoder.DecodeIndices(3, indices).ok());
  EXPECT_EQ(std::vector<uint32_t>(indices, indices + 3), (std::vector<uint32_t>{5, 6, 7}));
  EXPECT_TRUE(decoder.Skip(1).IsCorrupt());
}

TEST(DictionaryBuilderTest, AssignsIndicesInFirstSeenOrder) {
  DictionaryBuilder<int32_t> builder;
  const std::vector<int32_t> values = {7, 3, 7, 7, -1, 3, std::numeric_limits<int32_t>::min()};
  std::vector<uint32_t> indices(values.size());
  ASSERT_TRUE(builder.Put(values, indices.data()).ok());
  EXPECT_EQ(indices, (std::vector<uint32_t>{0, 1, 0, 0, 2, 1, 3}));
  EXPECT_EQ(builder.size(), 4);
  EXPECT_EQ(std::vector<int32_t>(builder.values().begin(), builder.values().end()),
            (std::vector<int32_t>{7, 3, -1, std::numeric_limits<int32_t>::min()}));
  EXPECT_EQ(builder.index_bit_width(), 2);
  EXPECT_EQ(builder.dictionary_bytes(), 16);
  std::vector<uint8_t> page;
  builder.WriteDictionaryPage(&page);
  EXPECT_EQ(page.size(), 16u);
  EXPECT_EQ(page[0], 7);
}

TEST(DictionaryBuilderTest, KeepsFloatBitPatternsApart) {
  DictionaryBuilder<double> builder;
  const double quiet_nan = std::numeric_limits<double>::quiet_NaN();
  const double other_nan = std::bit_cast<double>(std::bit_cast<uint64_t>(quiet_nan) | 1);
  const std::vector<double> values = {0.0, -0.0, quiet_nan, other_nan, quiet_nan, 0.0};
  std::vector<uint32_t> indices(values.size());
  ASSERT_TRUE(builder.Put(values, indices.data()).ok());
  EXPECT_EQ(indices, (std::vector<uint32_t>{0, 1, 2, 3, 2, 0}));
  EXPECT_TRUE(std::signbit(builder.values()[1]));
}

TEST(DictionaryBuilderTest, SignalsFallbackOncePastTheByteLimit) {
  ByteArrayDictionaryBuilder builder(/*max_dictionary_bytes=*/20);
  uint32_t indices[2];
  ASSERT_TRUE(builder.Put(OwnedByteArrays({"abc", "abc"}).view(), indices).ok());
  EXPECT_EQ(builder.dictionary_bytes(), 7);  // a 4-byte length and 3 bytes
  EXPECT_FALSE(builder.ShouldFallBack());
  ASSERT_TRUE(builder.Put(OwnedByteArrays({"defghijklmnop", "abc"}).view(), indices).ok());
  EXPECT_EQ(std::vector<uint32_t>(indices, indices + 2), (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(builder.dictionary_bytes(), 24);
  EXPECT_TRUE(builder.ShouldFallBack());

  DictionaryBuilder<int64_t> ints(/*max_dictionary_bytes=*/16);
  std::vector<uint32_t> many(3);
  ASSERT_TRUE(ints.Put(std::vector<int64_t>{1, 2}, many.data()).ok());
  EXPECT_FALSE(ints.ShouldFallBack());
  ASSERT_TRUE(ints.Put(std::vector<int64_t>{3}, many.data()).ok());
  EXPECT_TRUE(ints.ShouldFallBack());
}

// Many Put() calls of random sizes, through every growth of the table, then
// Clear() and a second chunk: the indices are those of a reference map.
template <typename T>
void CheckAgainstReferenceMap(std::function<T(uint64_t)> make) {
  std::mt19937_64 rng(46);
  DictionaryBuilder<T> builder;
  for (int chunk = 0; chunk < 2; ++chunk) {
    std::unordered_map<uint64_t, uint32_t> reference;  // value bits -> index
    std::vector<T> order;
    const uint64_t distinct = chunk == 0 ? 50'000 : 300;
    for (int call = 0; call < 200; ++call) {
      std::vector<T> values(rng() % 700);
      for (auto& v : values) v = make(rng() % distinct);
      std::vector<uint32_t> indices(values.size());
      ASSERT_TRUE(builder.Put(values, indices.data()).ok());
      for (size_t i = 0; i < values.size(); ++i) {
        using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
        const auto [it, added] =
            reference.try_emplace(std::bit_cast<Bits>(values[i]), static_cast<uint32_t>(reference.size()));
        if (added) order.push_back(values[i]);
        ASSERT_EQ(indices[i], it->second) << "chunk " << chunk << " call " << call << " value " << i;
      }
    }
    ASSERT_EQ(builder.size(), static_cast<int64_t>(order.size()));
    for (size_t k = 0; k < order.size(); ++k) {
      ASSERT_EQ(std::memcmp(&builder.values()[k], &order[k], sizeof(T)), 0) << k;
    }
    builder.Clear();
    EXPECT_EQ(builder.size(), 0);
    EXPECT_EQ(builder.dictionary_bytes(), 0);
  }
}

TEST(DictionaryBuilderTest, MatchesAReferenceMapThroughGrowthAndClear) {
  CheckAgainstReferenceMap<int32_t>([](uint64_t x) { return static_cast<int32_t>(x * 2654435761u); });
  CheckAgainstReferenceMap<int64_t>([](uint64_t x) { return static_cast<int64_t>(x << 40 | x); });
  CheckAgainstReferenceMap<float>([](uint64_t x) { return static_cast<float>(x) * 0.5f; });
  CheckAgainstReferenceMap<double>([](uint64_t x) { return static_cast<double>(x) / 3.0; });
  // Sequential integers, the layout a multiplicative hash must still spread.
  CheckAgainstReferenceMap<int64_t>([](uint64_t x) { return static_cast<int64_t>(x); });
}

TEST(DictionaryBuilderTest, ByteArrayBuilderStartsOverAfterClear) {
  ByteArrayDictionaryBuilder builder;
  uint32_t indices[3];
  ASSERT_TRUE(builder.Put(OwnedByteArrays({"b", "a", "b"}).view(), indices).ok());
  builder.Clear();
  EXPECT_EQ(builder.size(), 0);
  ASSERT_TRUE(builder.Put(OwnedByteArrays({"a", "c", "a"}).view(), indices).ok());
  EXPECT_EQ(std::vector<uint32_t>(indices, indices + 3), (std::vector<uint32_t>{0, 1, 0}));
  EXPECT_EQ(builder.values().Value(0), "a");
  EXPECT_EQ(builder.dictionary_bytes(), 10);

  FixedLenByteArrayDictionaryBuilder fixed(2);
  ASSERT_TRUE(fixed.Put(std::vector<uint8_t>{1, 2, 3, 4}, indices).ok());
  fixed.Clear();
  ASSERT_TRUE(fixed.Put(std::vector<uint8_t>{3, 4, 3, 4}, indices).ok());
  EXPECT_EQ(std::vector<uint32_t>(indices, indices + 2), (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(fixed.size(), 1);
}

TEST(DictionaryBuilderTest, IndexBitWidthCoversTheLargestIndex) {
  DictionaryBuilder<int32_t> builder;
  EXPECT_EQ(builder.index_bit_width(), 0);
  std::vector<uint32_t> indices(1024);
  std::vector<int32_t> values(1);
  ASSERT_TRUE(builder.Put(values, indices.data()).ok());
  EXPECT_EQ(builder.index_bit_width(), 0);  // one entry: index 0 only
  values = {1};
  ASSERT_TRUE(builder.Put(values, indices.data()).ok());
  EXPECT_EQ(builder.index_bit_width(), 1);
  values.resize(1024);
  for (int i = 0; i < 1024; ++i) values[static_cast<size_t>(i)] = i;
  ASSERT_TRUE(builder.Put(values, indices.data()).ok());
  EXPECT_EQ(builder.size(), 1024);
  EXPECT_EQ(builder.index_bit_width(), 10);
}

TEST(DictionaryBuilderTest, FixedLenBuilderDeduplicatesWholeValues) {
  FixedLenByteArrayDictionaryBuilder builder(3);
  const std::string values = "abcxyzabcabd";
  uint32_t indices[4];
  ASSERT_TRUE(builder.Put(std::span(reinterpret_cast<const uint8_t*>(values.data()), values.size()), indices).ok());
  EXPECT_EQ(std::vector<uint32_t>(indices, indices + 4), (std::vector<uint32_t>{0, 1, 0, 2}));
  EXPECT_EQ(builder.size(), 3);
  std::vector<uint8_t> page;
  builder.WriteDictionaryPage(&page);
  EXPECT_EQ(std::string(page.begin(), page.end()), "abcxyzabd");
  EXPECT_TRUE(builder.Put(std::vector<uint8_t>{1, 2}, indices).IsInvalidArgument());
  FixedLenByteArrayDictionaryBuilder bad(0);
  EXPECT_TRUE(bad.Put(std::vector<uint8_t>{1}, indices).IsInvalidArgument());
}

// The writer's path and the reader's path meet: build, write the dictionary
// page and index pages, read both back, gather, compare.
TEST(DictionaryBuilderTest, WriterAndReaderRoundTripManyDistinctValues) {
  std::mt19937_64 rng(37);
  for (int64_t distinct : {1, 2, 100, 5000}) {
    std::vector<std::string> strings(3 * static_cast<size_t>(distinct) + 7);
    std::vector<int64_t> longs(strings.size());
    for (size_t i = 0; i < strings.size(); ++i) {
      const int64_t pick = static_cast<int64_t>(rng() % static_cast<uint64_t>(distinct));
      strings[i] = "value-" + std::to_string(pick * 7919);
      longs[i] = pick * 1000003 - 5;
    }
    ByteArrayDictionaryBuilder string_builder;
    DictionaryBuilder<int64_t> long_builder;
    std::vector<uint32_t> string_indices(strings.size());
    std::vector<uint32_t> long_indices(strings.size());
    const OwnedByteArrays owned(strings);
    ASSERT_TRUE(string_builder.Put(owned.view(), string_indices.data()).ok());
    ASSERT_TRUE(long_builder.Put(longs, long_indices.data()).ok());
    EXPECT_LE(string_builder.size(), distinct);

    std::vector<uint8_t> dictionary_page;
    string_builder.WriteDictionaryPage(&dictionary_page);
    PlainByteArrayDecoder plain;
    plain.Init(dictionary_page);
    const Result<ByteArrayBatch> dictionary = plain.Decode(string_builder.size());
    ASSERT_TRUE(dictionary.ok());

    std::vector<uint8_t> data_page;
    ASSERT_TRUE(EncodeDictionaryIndices(string_indices, string_builder.index_bit_width(), &data_page).ok());
    DictionaryIndexDecoder decoder;
    ASSERT_TRUE(decoder.Init(data_page, string_builder.size()).ok());
    const Result<ByteArrayBatch> decoded =
        decoder.DecodeByteArrays(static_cast<int64_t>(strings.size()), dictionary->view());
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_EQ(ToStrings(*decoded), strings);

    std::vector<uint8_t> long_page;
    ASSERT_TRUE(EncodeDictionaryIndices(long_indices, long_builder.index_bit_width(), &long_page).ok());
    ASSERT_TRUE(decoder.Init(long_page, long_builder.size()).ok());
    std::vector<int64_t> gathered(longs.size());
    ASSERT_TRUE(decoder.Decode(static_cast<int64_t>(longs.size()), long_builder.values().data(), gathered.data()).ok());
    EXPECT_EQ(gathered, longs);
  }
}

TEST(DictionaryEncodingTest, EncoderRejectsIndicesWiderThanTheBitWidth) {
  std::vector<uint8_t> out;
  EXPECT_TRUE(EncodeDictionaryIndices(std::vector<uint32_t>{0, 4}, 2, &out).IsInvalidArgument());
  EXPECT_TRUE(EncodeDictionaryIndices(std::vector<uint32_t>{0}, 33, &out).IsInvalidArgument());
  EXPECT_TRUE(out.empty());
}

TEST(DictionaryEncodingTest, GarbageDataPagesFailCleanly) {
  std::mt19937_64 rng(41);
  const int64_t dictionary[16] = {};
  int64_t out[300];
  for (int iteration = 0; iteration < 2000; ++iteration) {
    std::vector<uint8_t> bytes(rng() % 24);
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
    if (!bytes.empty()) bytes[0] %= 34;
    DictionaryIndexDecoder decoder;
    const Status init = decoder.Init(bytes, 16);
    if (!init.ok()) {
      EXPECT_TRUE(init.IsCorrupt());
      continue;
    }
    const Status status = decoder.Decode(static_cast<int64_t>(rng() % 300), dictionary, out);
    EXPECT_TRUE(status.ok() || status.IsCorrupt()) << status.ToString();
  }
}

}  // namespace
}  // namespace floe::parquet::encoding
