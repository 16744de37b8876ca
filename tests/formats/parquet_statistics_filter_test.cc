// Pruning by statistics and the page index: the predicate logic on its own,
// then through ParquetRecordBatchReader on other engines' files.

#include "floe/formats/parquet/statistics_filter.h"

#include <gtest/gtest.h>

#include <cmath>

#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"

namespace floe::parquet {
namespace {

using Op = ColumnPredicate::Op;

ColumnDescriptor Column(Type physical, TypePtr type) {
  ColumnDescriptor c;
  c.physical_type = physical;
  c.type = std::move(type);
  return c;
}

ColumnStatistics Bounds(std::string min, std::string max, std::optional<int64_t> nulls = 0) {
  ColumnStatistics s;
  s.min = std::move(min);
  s.max = std::move(max);
  s.null_count = nulls;
  return s;
}

ColumnPredicate Pred(Op op, std::vector<std::string> values, int column = 0) {
  return ColumnPredicate{column, op, std::move(values)};
}

TEST(StatisticsFilterTest, ComparesUnderEachColumnsSortOrder) {
  const ColumnDescriptor i32 = Column(Type::INT32, DataType::Int32());
  EXPECT_EQ(CompareStatisticsValues(i32, PlainInt32(-1), PlainInt32(1)), -1);
  const ColumnDescriptor u32 = Column(Type::INT32, DataType::UInt32());
  EXPECT_EQ(CompareStatisticsValues(u32, PlainInt32(-1), PlainInt32(1)), 1);  // 0xffffffff is the largest
  const ColumnDescriptor bytes = Column(Type::BYTE_ARRAY, DataType::Utf8());
  EXPECT_EQ(CompareStatisticsValues(bytes, "ab", "abc"), -1);
  EXPECT_EQ(CompareStatisticsValues(bytes, "\xff", "a"), 1);  // unsigned bytes
  auto decimal = DataType::Decimal128(20, 2);
  ASSERT_TRUE(decimal.ok());
  // BYTE_ARRAY decimals vary in width; FIXED_LEN_BYTE_ARRAY ones do not.
  const ColumnDescriptor dec = Column(Type::BYTE_ARRAY, *decimal);
  EXPECT_EQ(CompareStatisticsValues(dec, std::string("\xff\xfe", 2), std::string("\x01", 1)), -1);  // -2 < 1
  EXPECT_EQ(CompareStatisticsValues(dec, std::string("\x00\x05", 2), std::string("\x05", 1)), 0);
  ColumnDescriptor fixed = Column(Type::FIXED_LEN_BYTE_ARRAY, *decimal);
  fixed.type_length = 2;
  EXPECT_EQ(CompareStatisticsValues(fixed, std::string("\xff\xfe", 2), std::string("\x00\x01", 2)), -1);
  EXPECT_EQ(CompareStatisticsValues(fixed, std::string("\x7f\x00", 2), std::string("\x00\xff", 2)), 1);
  EXPECT_EQ(CompareStatisticsValues(fixed, std::string("\x01", 1), std::string("\x00\x01", 2)), std::nullopt);
  const ColumnDescriptor f64 = Column(Type::DOUBLE, DataType::Float64());
  EXPECT_EQ(CompareStatisticsValues(f64, PlainDouble(std::nan("")), PlainDouble(1)), std::nullopt);
  EXPECT_EQ(CompareStatisticsValues(i32, "abc", PlainInt32(1)), std::nullopt);  // wrong size
}

TEST(StatisticsFilterTest, BoundsWithMinAboveMaxAreNotUsed) {
  // arrow-rs before 2023 compared FIXED_LEN_BYTE_ARRAY decimals as unsigned
  // bytes: of 2.11, 3.22, 4.33 and -5.44 it wrote min 2.11 and max -5.44.
  auto decimal = DataType::Decimal128(4, 2);
  ASSERT_TRUE(decimal.ok());
  ColumnDescriptor fixed = Column(Type::FIXED_LEN_BYTE_ARRAY, *decimal);
  fixed.type_length = 2;
  fixed.conversion = ValueConversion::kDecimalFromBytes;
  const auto be16 = [](int16_t v) {
    return std::string{static_cast<char>(static_cast<uint16_t>(v) >> 8), static_cast<char>(v & 0xff)};
  };
  const ColumnStatistics inverted = Bounds(be16(211), be16(-544));
  EXPECT_TRUE(MayMatch(fixed, Pred(Op::kEq, {be16(322)}), inverted, 4));
  EXPECT_TRUE(MayMatch(fixed, Pred(Op::kLt, {be16(0)}), inverted, 4));
  EXPECT_TRUE(MayMatch(fixed, Pred(Op::kIn, {be16(433), be16(9999)}), inverted, 4));
  // The same values bounded right prune what lies outside them.
  const ColumnStatistics sound = Bounds(be16(-544), be16(433));
  EXPECT_TRUE(MayMatch(fixed, Pred(Op::kEq, {be16(322)}), sound, 4));
  EXPECT_FALSE(MayMatch(fixed, Pred(Op::kEq, {be16(500)}), sound, 4));
  // The counts of inverted statistics still count: a column of nulls has no match.
  const ColumnDescriptor i32 = Column(Type::INT32, DataType::Int32());
  EXPECT_TRUE(MayMatch(i32, Pred(Op::kEq, {PlainInt32(4)}), Bounds(PlainInt32(5), PlainInt32(3)), 10));
  EXPECT_FALSE(MayMatch(i32, Pred(Op::kEq, {PlainInt32(4)}), Bounds(PlainInt32(5), PlainInt32(3), 10), 10));
  // Equal bounds are sound.
  EXPECT_FALSE(MayMatch(i32, Pred(Op::kEq, {PlainInt32(4)}), Bounds(PlainInt32(5), PlainInt32(5)), 10));
}

TEST(StatisticsFilterTest, BloomFilterProbesCoverEveryEncodingOfAValue) {
  using Probes = std::optional<std::vector<std::string>>;
  const ColumnDescriptor i32 = Column(Type::INT32, DataType::Int32());
  EXPECT_EQ(BloomFilterProbes(i32, PlainInt32(7)), Probes({PlainInt32(7)}));
  EXPECT_EQ(BloomFilterProbes(i32, PlainInt64(7)), std::nullopt);  // not the column's size
  const ColumnDescriptor f64 = Column(Type::DOUBLE, DataType::Float64());
  EXPECT_EQ(BloomFilterProbes(f64, PlainDouble(1.5)), Probes({PlainDouble(1.5)}));
  EXPECT_EQ(BloomFilterProbes(f64, PlainDouble(0.0)), Probes({PlainDouble(0.0), PlainDouble(-0.0)}));
  EXPECT_EQ(BloomFilterProbes(f64, PlainDouble(-0.0)), Probes({PlainDouble(-0.0), PlainDouble(0.0)}));
  EXPECT_EQ(BloomFilterProbes(f64, PlainDouble(std::nan(""))), std::nullopt);
  const ColumnDescriptor f32 = Column(Type::FLOAT, DataType::Float32());
  EXPECT_EQ(BloomFilterProbes(f32, PlainFloat(-0.0f)), Probes({PlainFloat(-0.0f), PlainFloat(0.0f)}));
  ColumnDescriptor f16 = Column(Type::FIXED_LEN_BYTE_ARRAY, DataType::Float32());
  f16.type_length = 2;
  f16.conversion = ValueConversion::kFloat16ToFloat32;
  const std::string half_zero("\x00\x00", 2), half_negative_zero("\x00\x80", 2), half_nan("\x01\x7e", 2);
  EXPECT_EQ(BloomFilterProbes(f16, half_negative_zero), Probes({half_negative_zero, half_zero}));
  EXPECT_EQ(BloomFilterProbes(f16, std::string("\x00\x3c", 2)), Probes({std::string("\x00\x3c", 2)}));  // 1.0
  EXPECT_EQ(BloomFilterProbes(f16, half_nan), std::nullopt);
  const ColumnDescriptor text = Column(Type::BYTE_ARRAY, DataType::Utf8());
  EXPECT_EQ(BloomFilterProbes(text, "Lisbon"), Probes({"Lisbon"}));
  auto decimal = DataType::Decimal128(10, 2);
  ASSERT_TRUE(decimal.ok());
  // BYTE_ARRAY decimals: writers store 1.00 as 0x64 or 0x0000000064.
  ColumnDescriptor byte_decimal = Column(Type::BYTE_ARRAY, *decimal);
  byte_decimal.conversion = ValueConversion::kDecimalFromBytes;
  EXPECT_EQ(BloomFilterProbes(byte_decimal, "\x64"), std::nullopt);
  ColumnDescriptor fixed_decimal = Column(Type::FIXED_LEN_BYTE_ARRAY, *decimal);
  fixed_decimal.type_length = 5;
  fixed_decimal.conversion = ValueConversion::kDecimalFromBytes;
  EXPECT_EQ(BloomFilterProbes(fixed_decimal, std::string("\0\0\0\0\x64", 5)), Probes({std::string("\0\0\0\0\x64", 5)}));
  EXPECT_EQ(BloomFilterProbes(fixed_decimal, "\x64"), std::nullopt);
  EXPECT_EQ(BloomFilterProbes(Column(Type::BOOLEAN, DataType::Bool()), std::string(1, '\1')), std::nullopt);
}

TEST(StatisticsFilterTest, ComparisonsAgainstBounds) {
  const ColumnDescriptor c = Column(Type::INT64, DataType::Int64());
  const ColumnStatistics s = Bounds(PlainInt64(10), PlainInt64(20));
  EXPECT_TRUE(MayMatch(c, Pred(Op::kEq, {PlainInt64(10)}), s, 100));
  EXPECT_FALSE(MayMatch(c, Pred(Op::kEq, {PlainInt64(9)}), s, 100));
  EXPECT_FALSE(MayMatch(c, Pred(Op::kEq, {PlainInt64(21)}), s, 100));
  EXPECT_FALSE(MayMatch(c, Pred(Op::kLt, {PlainInt64(10)}), s, 100));
  EXPECT_TRUE(MayMatch(c, Pred(Op::kLtEq, {PlainInt64(10)}), s, 100));
  EXPECT_FALSE(MayMatch(c, Pred(Op::kGt, {PlainInt64(20)}), s, 100));
  EXPECT_TRUE(MayMatch(c, Pred(Op::kGtEq, {PlainInt64(20)}), s, 100));
  EXPECT_FALSE(MayMatch(c, Pred(Op::kIn, {PlainInt64(1), PlainInt64(30)}), s, 100));
  EXPECT_TRUE(MayMatch(c, Pred(Op::kIn, {PlainInt64(1), PlainInt64(15)}), s, 100));
  EXPECT_FALSE(MayMatch(c, Pred(Op::kIsNull, {}), s, 100));
  EXPECT_TRUE(MayMatch(c, Pred(Op::kIsNotNull, {}), s, 100));
  // Unknown bounds never exclude.
  EXPECT_TRUE(MayMatch(c, Pred(Op::kEq, {PlainInt64(99)}), ColumnStatistics{}, 100));
}

TEST(StatisticsFilterTest, NullCounts) {
  const ColumnDescriptor c = Column(Type::INT32, DataType::Int32());
  ColumnStatistics all_null;
  all_null.null_count = 5;
  EXPECT_FALSE(MayMatch(c, Pred(Op::kEq, {PlainInt32(1)}), all_null, 5));
  EXPECT_FALSE(MayMatch(c, Pred(Op::kIsNotNull, {}), all_null, 5));
  EXPECT_TRUE(MayMatch(c, Pred(Op::kIsNull, {}), all_null, 5));
  EXPECT_TRUE(MayMatch(c, Pred(Op::kEq, {PlainInt32(1)}), all_null, -1));  // value count unknown
}

TEST(StatisticsFilterTest, TruncatedBinaryBoundsStayConservative) {
  // A writer truncated "abcdef".."abczzz" to min "abc", max "abd" (inexact).
  const ColumnDescriptor c = Column(Type::BYTE_ARRAY, DataType::Utf8());
  ColumnStatistics s = Bounds("abc", "abd");
  s.min_exact = s.max_exact = false;
  EXPECT_TRUE(MayMatch(c, Pred(Op::kEq, {"abcdef"}), s, 10));
  EXPECT_TRUE(MayMatch(c, Pred(Op::kGtEq, {"abd"}), s, 10));
  EXPECT_FALSE(MayMatch(c, Pred(Op::kGt, {"abd"}), s, 10));  // every value <= the bound
  EXPECT_FALSE(MayMatch(c, Pred(Op::kEq, {"abe"}), s, 10));
}

std::shared_ptr<const ParquetFileReader> Open(const std::string& name) {
  auto reader = ParquetFileReader::Open(NewLocalFileIO(), testing::ParquetTestingDir() + "/data/" + name);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::shared_ptr<const ParquetFileReader>(std::move(*reader)) : nullptr;
}

TEST(StatisticsFilterTest, PageIndexNarrowsTheScanToTheMatchingPages) {
  auto file = Open("alltypes_tiny_pages.parquet");
  ASSERT_NE(file, nullptr);
  ScanOptions options;
  options.columns = std::vector<std::string>{"id", "int_col"};
  options.filter = {Pred(Op::kEq, {PlainInt32(4000)}, /*column=*/0)};
  ASSERT_EQ(file->schema().column(0).dotted_path(), "id");
  auto reader = ParquetRecordBatchReader::Make(file, options);
  ASSERT_TRUE(reader.ok());
  int64_t rows = 0;
  bool found = false;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (!*batch) break;
    const int32_t* ids = (*batch)->column(0).Values<int32_t>();
    for (int64_t i = 0; i < (*batch)->num_rows(); ++i) found |= ids[i] == 4000;
    rows += (*batch)->num_rows();
  }
  EXPECT_TRUE(found);
  EXPECT_GT(rows, 0);
  EXPECT_LT(rows, 7300 / 10);
  const ScanMetrics& m = (*reader)->metrics();
  EXPECT_EQ(m.row_groups, 1);
  EXPECT_EQ(m.row_groups_pruned, 0);
  EXPECT_GT(m.pages_skipped, m.pages / 2) << m.pages_skipped << " of " << m.pages;
  EXPECT_EQ(m.rows, rows);
}

TEST(StatisticsFilterTest, RowGroupStatisticsPruneWholeGroups) {
  auto file = Open("alltypes_tiny_pages.parquet");
  ASSERT_NE(file, nullptr);
  ScanOptions options;
  options.filter = {Pred(Op::kGt, {PlainInt32(7299)}, 0)};  // max id is 7299
  auto reader = ParquetRecordBatchReader::Make(file, options);
  ASSERT_TRUE(reader.ok());
  auto batch = (*reader)->Next();
  ASSERT_TRUE(batch.ok());
  EXPECT_FALSE(batch->has_value());
  EXPECT_EQ((*reader)->metrics().row_groups_pruned, 1);

  // floating_orders_nan_count: five row groups; row group 1's double_ieee754
  // tops at 3.0, so "> 4.0" skips it.
  auto floats = Open("floating_orders_nan_count.parquet");
  ASSERT_NE(floats, nullptr);
  ScanOptions by_double;
  by_double.filter = {Pred(Op::kGt, {PlainDouble(4.0)}, 2)};
  ASSERT_EQ(floats->schema().column(2).dotted_path(), "double_ieee754");
  auto scan = ParquetRecordBatchReader::Make(floats, by_double);
  ASSERT_TRUE(scan.ok());
  int64_t rows = 0;
  while (true) {
    auto b = (*scan)->Next();
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    if (!*b) break;
    rows += (*b)->num_rows();
  }
  EXPECT_GE((*scan)->metrics().row_groups_pruned, 1);
  EXPECT_LT(rows, floats->num_rows());
}

}  // namespace
}  // namespace floe::parquet
