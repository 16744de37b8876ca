// The writer's statistics (truncation, NaN and signed-zero rules, sort
// orders, page index entries) and the split-block bloom filter.

#include "floe/formats/parquet/statistics_writer.h"

#include <gtest/gtest.h>
#include <xxhash.h>

#include <cmath>
#include <cstring>
#include <random>

#include "floe/formats/parquet/bloom_filter.h"
#include "floe/formats/parquet/column_chunk_writer.h"
#include "parquet_writer_test_util.h"

namespace floe::parquet {
namespace {

TEST(ParquetStatisticsWriterTest, LowerBoundsAreCutPrefixes) {
  EXPECT_EQ(TruncateLowerBound("abc", 5, false).value, "abc");
  EXPECT_TRUE(TruncateLowerBound("abc", 5, false).exact);
  EXPECT_EQ(TruncateLowerBound("abcdef", 3, false).value, "abc");
  EXPECT_FALSE(TruncateLowerBound("abcdef", 3, false).exact);
  // UTF-8: never cut inside a code point ("é" is 2 bytes).
  EXPECT_EQ(TruncateLowerBound("aéb", 2, true).value, "a");
  EXPECT_EQ(TruncateLowerBound("aéb", 2, false).value, "a\xc3");
  EXPECT_EQ(TruncateLowerBound("abc", 0, false).value, "abc");  // 0: never truncate
}

TEST(ParquetStatisticsWriterTest, UpperBoundsAreIncrementedPrefixes) {
  auto b = TruncateUpperBound("abcdef", 3, false);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->value, "abd");
  EXPECT_FALSE(b->exact);
  // Trailing 0xff bytes cannot be incremented: they are dropped.
  b = TruncateUpperBound("a\xff\xff\xff", 3, false);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->value, "b");
  EXPECT_FALSE(TruncateUpperBound("\xff\xff\xff\xff", 2, false).has_value());
  // UTF-8: the last code point is incremented, and the result stays UTF-8.
  b = TruncateUpperBound("aéz", 3, true);  // "aé" fits 3 bytes
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->value, "a\xc3\xaa");  // é (U+00E9) + 1 = ê (U+00EA)
  b = TruncateUpperBound("a\xf4\x8f\xbf\xbf" "z", 5, true);  // U+10FFFF has no successor
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->value, "b");
  b = TruncateUpperBound("\xed\x9f\xbfzz", 3, true);  // U+D7FF + 1 skips the surrogates
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->value, "\xee\x80\x80");  // U+E000
  EXPECT_TRUE(TruncateUpperBound("short", 64, true)->exact);
}

TEST(ParquetStatisticsWriterTest, SortOrdersFollowTheLogicalType) {
  EXPECT_LT(CompareStatisticsValues(Type::INT32, ColumnSortOrder::kSigned, std::string("\xff\xff\xff\xff", 4),
                                    std::string("\x01\x00\x00\x00", 4)),
            0);  // -1 < 1
  EXPECT_GT(CompareStatisticsValues(Type::INT32, ColumnSortOrder::kUnsigned, std::string("\xff\xff\xff\xff", 4),
                                    std::string("\x01\x00\x00\x00", 4)),
            0);  // 0xffffffff > 1
  EXPECT_LT(CompareStatisticsValues(Type::BYTE_ARRAY, ColumnSortOrder::kBytes, "a", "\xc3\xa9"), 0);
  EXPECT_LT(CompareStatisticsValues(Type::FIXED_LEN_BYTE_ARRAY, ColumnSortOrder::kSignedBytes,
                                    std::string("\xff\xfe", 2), std::string("\x00\x01", 2)),
            0);  // -2 < 1 as big-endian two's complement
}

// Writes one chunk of `values` (a column of `field`) and returns it.
FinishedColumnChunk WriteChunk(const Field& field, const Array& values, ColumnChunkOptions options = {}) {
  auto ws = MakeWriterSchema(Schema({field}));
  EXPECT_TRUE(ws.ok()) << ws.status().ToString();
  static WriterSchema keep;  // the writer borrows its column
  keep = std::move(*ws);
  auto writer = ColumnChunkWriter::Make(keep.columns[0], options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  ShreddedLeaf leaf;
  EXPECT_TRUE(ShredLeaf(keep.columns[0], values, &leaf).ok());
  EXPECT_TRUE((*writer)->Write(leaf).ok());
  FinishedColumnChunk chunk;
  Status s = (*writer)->Finish(&chunk);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return chunk;
}

template <typename T>
T Load(const std::string& s) {
  T v;
  EXPECT_EQ(s.size(), sizeof(T));
  std::memcpy(&v, s.data(), sizeof(T));
  return v;
}

TEST(ParquetStatisticsWriterTest, NaNIsCountedAndNeverABound) {
  const double nan = std::nan("");
  auto chunk = WriteChunk(Field("x", DataType::Float64()),
                          testing::Primitive<double>(DataType::Float64(), {nan, 3.0, std::nullopt, -7.5, nan}));
  const Statistics& s = *chunk.meta_data.statistics;
  EXPECT_EQ(s.nan_count, 2);
  EXPECT_EQ(s.null_count, 1);
  EXPECT_EQ(Load<double>(*s.min_value), -7.5);
  EXPECT_EQ(Load<double>(*s.max_value), 3.0);
  EXPECT_EQ(Load<double>(*s.min), -7.5);  // signed order: the deprecated fields too
  ASSERT_TRUE(chunk.column_index.has_value());
  EXPECT_EQ(chunk.column_index->nan_counts, (std::vector<int64_t>{2}));

  // Only NaN: no bounds, and (TYPE_ORDER) no column index for the chunk.
  auto all_nan = WriteChunk(Field("x", DataType::Float32()), testing::Primitive<float>(DataType::Float32(), {NAN, NAN}));
  EXPECT_FALSE(all_nan.meta_data.statistics->min_value.has_value());
  EXPECT_FALSE(all_nan.meta_data.statistics->max_value.has_value());
  EXPECT_EQ(all_nan.meta_data.statistics->nan_count, 2);
  EXPECT_FALSE(all_nan.column_index.has_value());
}

TEST(ParquetStatisticsWriterTest, ZeroBoundsAreNegativeMinAndPositiveMax) {
  auto chunk = WriteChunk(Field("x", DataType::Float64()), testing::Primitive<double>(DataType::Float64(), {0.0, 0.0}));
  const Statistics& s = *chunk.meta_data.statistics;
  EXPECT_TRUE(std::signbit(Load<double>(*s.min_value)));
  EXPECT_FALSE(std::signbit(Load<double>(*s.max_value)));
  auto neg = WriteChunk(Field("x", DataType::Float32()), testing::Primitive<float>(DataType::Float32(), {-0.0f, -2.0f}));
  EXPECT_EQ(Load<float>(*neg.meta_data.statistics->min_value), -2.0f);
  EXPECT_FALSE(std::signbit(Load<float>(*neg.meta_data.statistics->max_value)));
}

TEST(ParquetStatisticsWriterTest, UnsignedAndDecimalColumnsUseTheirOrder) {
  auto u = WriteChunk(Field("u", DataType::UInt32()),
                      testing::Primitive<uint32_t>(DataType::UInt32(), {7u, 0xffffffffu, 1u}));
  EXPECT_EQ(Load<uint32_t>(*u.meta_data.statistics->min_value), 1u);
  EXPECT_EQ(Load<uint32_t>(*u.meta_data.statistics->max_value), 0xffffffffu);
  EXPECT_FALSE(u.meta_data.statistics->min.has_value());  // the deprecated fields are signed: not written

  auto d = WriteChunk(Field("d", *DataType::Decimal128(20, 0)),
                      testing::Primitive<Decimal128Value>(*DataType::Decimal128(20, 0), {5, -300, 2}));
  // FIXED_LEN_BYTE_ARRAY(9), big-endian two's complement.
  EXPECT_EQ(*d.meta_data.statistics->min_value, std::string("\xff\xff\xff\xff\xff\xff\xff\xfe\xd4", 9));
  EXPECT_EQ(*d.meta_data.statistics->max_value, std::string("\x00\x00\x00\x00\x00\x00\x00\x00\x05", 9));
  EXPECT_FALSE(d.meta_data.statistics->min.has_value());
}

TEST(ParquetStatisticsWriterTest, LongStringsAreTruncatedInStatisticsAndColumnIndex) {
  const std::string low = std::string(80, 'b');
  const std::string high = std::string(70, 'y') + "\xff";
  ColumnChunkOptions o;
  o.statistics_truncate_length = 16;
  auto chunk = WriteChunk(Field("s", DataType::Binary()), testing::Binaries(DataType::Binary(), {high, low, "c"}), o);
  const Statistics& s = *chunk.meta_data.statistics;
  EXPECT_EQ(*s.min_value, std::string(16, 'b'));
  EXPECT_EQ(s.is_min_value_exact, false);
  EXPECT_EQ(*s.max_value, std::string(15, 'y') + "z");
  EXPECT_EQ(s.is_max_value_exact, false);
  ASSERT_TRUE(chunk.column_index.has_value());
  EXPECT_EQ(chunk.column_index->min_values[0], std::string(16, 'b'));
  EXPECT_EQ(chunk.column_index->max_values[0], std::string(15, 'y') + "z");
  EXPECT_EQ(chunk.column_index->null_counts, (std::vector<int64_t>{0}));
}

TEST(ParquetStatisticsWriterTest, ColumnIndexRecordsNullPagesAndBoundaryOrder) {
  std::vector<std::optional<int32_t>> v;
  for (int i = 0; i < 40; ++i) v.push_back(i < 10 || i >= 20 ? std::optional<int32_t>(i) : std::nullopt);
  ColumnChunkOptions o;
  o.page_rows = 10;
  auto chunk = WriteChunk(Field("x", DataType::Int32()), testing::Int32s(v), o);
  ASSERT_TRUE(chunk.column_index.has_value());
  const ColumnIndex& ci = *chunk.column_index;
  EXPECT_EQ(ci.null_pages, (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(ci.null_counts, (std::vector<int64_t>{0, 10, 0, 0}));
  EXPECT_EQ(ci.boundary_order, BoundaryOrder::ASCENDING);
  EXPECT_EQ(ci.min_values[1], "");
  EXPECT_EQ(Load<int32_t>(ci.min_values[2]), 20);
  EXPECT_EQ(Load<int32_t>(ci.max_values[3]), 39);
  ASSERT_EQ(chunk.offset_index.page_locations.size(), 4u);
  EXPECT_EQ(chunk.offset_index.page_locations[3].first_row_index, 30);
}

TEST(BloomFilterTest, InsertedValuesAreFoundAndOthersMostlyNot) {
  SplitBlockBloomFilter filter(SplitBlockBloomFilter::OptimalNumBytes(1000, 0.01));
  for (int64_t i = 0; i < 1000; ++i) filter.Insert(BloomHash(i * 3));
  for (int64_t i = 0; i < 1000; ++i) EXPECT_TRUE(filter.Check(BloomHash(i * 3)));
  int false_positives = 0;
  for (int64_t i = 0; i < 10000; ++i) false_positives += filter.Check(BloomHash(i * 3 + 1));
  EXPECT_LT(false_positives, 300);  // 1 % expected; 3 % leaves room for chance
}

TEST(BloomFilterTest, SizingFollowsTheSpecFormula) {
  // -8 * 1e6 / ln(1 - 0.01^(1/8)) bits = ~1.2 MB, rounded up to 2 MiB.
  EXPECT_EQ(SplitBlockBloomFilter::OptimalNumBytes(1000000, 0.01), 2 << 20);
  EXPECT_EQ(SplitBlockBloomFilter::OptimalNumBytes(1, 0.01), 32);
  EXPECT_EQ(SplitBlockBloomFilter::OptimalNumBytes(int64_t{1} << 40, 0.01), SplitBlockBloomFilter::kMaxBytes);
  EXPECT_EQ(SplitBlockBloomFilter(100).num_bytes(), 128);  // whole blocks
}

TEST(BloomFilterTest, HashesThePlainEncodingWithXxh64) {
  EXPECT_EQ(BloomHash(std::string_view()), 0xEF46DB3751D8E999ULL);  // XXH64 of no bytes, seed 0
  const int32_t v = 0x01020304;
  EXPECT_EQ(BloomHash(v), XXH64("\x04\x03\x02\x01", 4, 0));
  const double d = 1.5;
  EXPECT_EQ(BloomHash(d), XXH64(&d, 8, 0));
}

TEST(BloomFilterTest, ReadsBackItsBytes) {
  SplitBlockBloomFilter filter(64);
  filter.Insert(BloomHash(int64_t{42}));
  auto copy = SplitBlockBloomFilter::FromBytes(filter.bytes());
  ASSERT_TRUE(copy.ok());
  EXPECT_TRUE(copy->Check(BloomHash(int64_t{42})));
  EXPECT_TRUE(SplitBlockBloomFilter::FromBytes(std::span<const uint8_t>()).status().IsCorrupt());
  const uint8_t odd[33] = {};
  EXPECT_TRUE(SplitBlockBloomFilter::FromBytes(odd).status().IsCorrupt());
}

}  // namespace
}  // namespace floe::parquet
