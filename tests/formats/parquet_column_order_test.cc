// Statistics under FileMetaData.column_orders (spec: parquet.thrift
// ColumnOrder): which order each column's min/max follow, min/max ignored
// under an unknown order or one the column's type may not use, NaN bounds
// under TYPE_ORDER and IEEE_754_TOTAL_ORDER, INT96 in chronological order;
// on hand-built footers, through the reader's pruning, and on the
// parquet-testing file written in both float orders.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>

#include "floe/base/strings.h"
#include "floe/formats/parquet/encoding/float16.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/parquet/statistics.h"
#include "floe/formats/parquet/statistics_filter.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace {

using Op = ColumnPredicate::Op;

SchemaElement OptionalLeaf(std::string name, Type type, std::optional<LogicalType> logical = std::nullopt,
                   int32_t type_length = 0) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = FieldRepetitionType::OPTIONAL;
  e.logicalType = std::move(logical);
  if (type_length > 0) e.type_length = type_length;
  return e;
}

// Leaves: i64, f (FLOAT), d (DOUBLE), h (FLOAT16), t96 (INT96), s (STRING),
// iv (INTERVAL), g (GEOMETRY).
std::vector<SchemaElement> EveryOrderKindSchema() {
  SchemaElement root;
  root.name = "schema";
  root.num_children = 8;
  SchemaElement interval = OptionalLeaf("iv", Type::FIXED_LEN_BYTE_ARRAY, std::nullopt, 12);
  interval.converted_type = ConvertedType::INTERVAL;
  return {root,
          OptionalLeaf("i64", Type::INT64),
          OptionalLeaf("f", Type::FLOAT),
          OptionalLeaf("d", Type::DOUBLE),
          OptionalLeaf("h", Type::FIXED_LEN_BYTE_ARRAY, Float16Type{}, 2),
          OptionalLeaf("t96", Type::INT96),
          OptionalLeaf("s", Type::BYTE_ARRAY, StringType{}),
          interval,
          OptionalLeaf("g", Type::BYTE_ARRAY, GeometryType{})};
}

std::vector<StatisticsOrder> OrdersOf(const std::optional<std::vector<ColumnOrder>>& column_orders) {
  auto schema = ParquetSchema::Make(EveryOrderKindSchema(), column_orders);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  std::vector<StatisticsOrder> out;
  if (schema.ok()) {
    for (const auto& c : schema->columns()) out.push_back(c.statistics_order);
  }
  return out;
}

std::vector<ColumnOrder> All(ColumnOrder order) { return std::vector<ColumnOrder>(8, order); }

TEST(ColumnOrderTest, EachColumnTakesItsOrderOnlyWhereTheSpecAllowsIt) {
  using O = StatisticsOrder;
  constexpr O T = O::kTypeDefined, I = O::kIeee754Total, C = O::kInt96Timestamp, N = O::kNone;
  // Columns: i64 f d h t96 s iv g. INT96 under TYPE_ORDER, INTERVAL and
  // GEOMETRY under any order: no usable order.
  EXPECT_EQ(OrdersOf(All(ColumnOrder::TYPE_ORDER)), (std::vector<O>{T, T, T, T, N, T, N, N}));
  EXPECT_EQ(OrdersOf(std::nullopt), (std::vector<O>{T, T, T, T, N, T, N, N}));
  EXPECT_EQ(OrdersOf(All(ColumnOrder::IEEE_754_TOTAL_ORDER)), (std::vector<O>{N, I, I, I, N, N, N, N}));
  EXPECT_EQ(OrdersOf(All(ColumnOrder::INT96_TIMESTAMP_ORDER)), (std::vector<O>{N, N, N, N, C, N, N, N}));
  EXPECT_EQ(OrdersOf(All(static_cast<ColumnOrder>(7))), (std::vector<O>(8, N)));  // an order from a newer spec
  // A list shorter than the columns leaves the rest without an order.
  EXPECT_EQ(OrdersOf(std::vector<ColumnOrder>{ColumnOrder::TYPE_ORDER, ColumnOrder::IEEE_754_TOTAL_ORDER}),
            (std::vector<O>{T, I, N, N, N, N, N, N}));
}

const ColumnDescriptor& ColumnNamed(const ParquetSchema& schema, const std::string& name) {
  for (const auto& c : schema.columns()) {
    if (c.dotted_path() == name) return c;
  }
  ADD_FAILURE() << "no column " << name;
  return schema.column(0);
}

TEST(ColumnOrderTest, MinMaxValuesAreIgnoredWithoutAUsableOrder) {
  auto unknown = ParquetSchema::Make(EveryOrderKindSchema(), All(static_cast<ColumnOrder>(7)));
  ASSERT_TRUE(unknown.ok());
  Statistics stats;
  stats.min_value = PlainInt64(10);
  stats.max_value = PlainInt64(20);
  stats.null_count = 3;
  ColumnStatistics effective = EffectiveStatistics(ColumnNamed(*unknown, "i64"), stats);
  EXPECT_FALSE(effective.min.has_value());
  EXPECT_FALSE(effective.max.has_value());
  EXPECT_EQ(effective.null_count, 3);  // counts do not depend on the order
  // spec: the deprecated min/max are "always sorted by signed comparison
  // regardless of column_orders": still usable for an INT64.
  stats.min = PlainInt64(11);
  stats.max = PlainInt64(19);
  effective = EffectiveStatistics(ColumnNamed(*unknown, "i64"), stats);
  EXPECT_EQ(effective.min, PlainInt64(11));
  EXPECT_TRUE(effective.from_deprecated_fields);
  // ... but not for strings, whose signed byte order is wrong.
  Statistics strings;
  strings.min_value = "a";
  strings.max_value = "z";
  strings.min = "a";
  strings.max = "z";
  effective = EffectiveStatistics(ColumnNamed(*unknown, "s"), strings);
  EXPECT_FALSE(effective.min.has_value());
  // Under TYPE_ORDER the same statistics count; an INTERVAL's and a
  // GEOMETRY's never do (their order is undefined).
  auto typed = ParquetSchema::Make(EveryOrderKindSchema(), All(ColumnOrder::TYPE_ORDER));
  ASSERT_TRUE(typed.ok());
  EXPECT_EQ(EffectiveStatistics(ColumnNamed(*typed, "s"), strings).min, "a");
  EXPECT_FALSE(EffectiveStatistics(ColumnNamed(*typed, "g"), strings).min.has_value());
  Statistics intervals;
  intervals.min_value = std::string(12, '\0');
  intervals.max_value = std::string(12, '\1');
  EXPECT_FALSE(EffectiveStatistics(ColumnNamed(*typed, "iv"), intervals).min.has_value());
  // A predicate cannot prune on min_value/max_value where the order is unknown.
  Statistics only_values;
  only_values.min_value = PlainInt64(10);
  only_values.max_value = PlainInt64(20);
  only_values.null_count = 0;
  const ColumnPredicate outside{0, Op::kEq, {PlainInt64(99)}};
  EXPECT_FALSE(MayMatch(ColumnNamed(*typed, "i64"), outside, EffectiveStatistics(ColumnNamed(*typed, "i64"), only_values), 10));
  EXPECT_TRUE(
      MayMatch(ColumnNamed(*unknown, "i64"), outside, EffectiveStatistics(ColumnNamed(*unknown, "i64"), only_values), 10));
}

std::string Half(float v) {
  const uint16_t h = encoding::FloatToHalf(v);
  return std::string(reinterpret_cast<const char*>(&h), 2);
}

TEST(ColumnOrderTest, NaNIsNeverABoundInEitherFloatOrder) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (ColumnOrder order : {ColumnOrder::TYPE_ORDER, ColumnOrder::IEEE_754_TOTAL_ORDER}) {
    SCOPED_TRACE(ColumnOrderName(order));
    auto schema = ParquetSchema::Make(EveryOrderKindSchema(), All(order));
    ASSERT_TRUE(schema.ok());
    const ColumnDescriptor& d = ColumnNamed(*schema, "d");
    // TYPE_ORDER: a NaN bound is ignored, the other stays. (A TOTAL_ORDER
    // writer never mixes them, but a reader must not trust such a file more.)
    Statistics mixed;
    mixed.min_value = PlainDouble(-1.5);
    mixed.max_value = PlainDouble(nan);
    mixed.nan_count = 2;
    ColumnStatistics effective = EffectiveStatistics(d, mixed);
    EXPECT_EQ(effective.min, PlainDouble(-1.5));
    EXPECT_FALSE(effective.max.has_value());
    EXPECT_EQ(effective.nan_count, 2);
    // IEEE_754_TOTAL_ORDER writes NaN bounds when every value is NaN: no
    // number is bounded by them.
    Statistics all_nan;
    all_nan.min_value = PlainDouble(-nan);
    all_nan.max_value = PlainDouble(nan);
    effective = EffectiveStatistics(d, all_nan);
    EXPECT_FALSE(effective.min.has_value());
    EXPECT_FALSE(effective.max.has_value());
    // FLOAT16 likewise, and its bounds compare by value.
    const ColumnDescriptor& h = ColumnNamed(*schema, "h");
    Statistics halves;
    halves.min_value = Half(-0.0f);
    halves.max_value = Half(std::nanf(""));
    effective = EffectiveStatistics(h, halves);
    EXPECT_EQ(effective.min, Half(-0.0f));
    EXPECT_FALSE(effective.max.has_value());
    EXPECT_EQ(CompareStatisticsValues(h, Half(1.5f), Half(2.0f)), -1);
    EXPECT_EQ(CompareStatisticsValues(h, Half(-2.0f), Half(1.0f)), -1);  // a sign-magnitude byte order would say 1
    // -0 and +0 are one value to a predicate, whichever order wrote them
    // (TOTAL_ORDER puts -0 below +0; a predicate's 0.0 matches both).
    EXPECT_EQ(CompareStatisticsValues(h, Half(0.0f), Half(-0.0f)), 0);
    EXPECT_EQ(CompareStatisticsValues(d, PlainDouble(0.0), PlainDouble(-0.0)), 0);
    ColumnStatistics zero;
    zero.min = PlainDouble(0.0);  // TOTAL_ORDER: no -0 in the chunk
    zero.max = PlainDouble(1.0);
    EXPECT_TRUE(MayMatch(d, ColumnPredicate{0, Op::kEq, {PlainDouble(-0.0)}}, zero, -1));
    EXPECT_FALSE(MayMatch(d, ColumnPredicate{0, Op::kLt, {PlainDouble(-0.0)}}, zero, -1));
  }
}

std::string Int96(int32_t julian_day, int64_t nanos_of_day) {
  std::string v(12, '\0');
  std::memcpy(v.data(), &nanos_of_day, 8);
  std::memcpy(v.data() + 8, &julian_day, 4);
  return v;
}

TEST(ColumnOrderTest, Int96IsOrderedChronologicallyOnlyUnderItsOwnOrder) {
  auto chronological = ParquetSchema::Make(EveryOrderKindSchema(), All(ColumnOrder::INT96_TIMESTAMP_ORDER));
  ASSERT_TRUE(chronological.ok());
  const ColumnDescriptor& t = ColumnNamed(*chronological, "t96");
  // Days first (signed), then nanoseconds (signed): byte order would get both wrong.
  EXPECT_EQ(CompareStatisticsValues(t, Int96(2440588, 5), Int96(2440589, 0)), -1);
  EXPECT_EQ(CompareStatisticsValues(t, Int96(2440588, 256), Int96(2440588, 1)), 1);
  EXPECT_EQ(CompareStatisticsValues(t, Int96(-1, 0), Int96(1, 0)), -1);
  EXPECT_EQ(CompareStatisticsValues(t, Int96(7, 7), Int96(7, 7)), 0);
  Statistics stats;
  stats.min_value = Int96(2440588, 0);
  stats.max_value = Int96(2440590, 0);
  const ColumnStatistics effective = EffectiveStatistics(t, stats);
  ASSERT_TRUE(effective.min.has_value());
  EXPECT_FALSE(MayMatch(t, ColumnPredicate{0, Op::kGt, {Int96(2440591, 0)}}, effective, -1));
  EXPECT_TRUE(MayMatch(t, ColumnPredicate{0, Op::kGt, {Int96(2440589, 0)}}, effective, -1));
  // spec: "If TYPE_ORDER is used for an INT96 column, readers should ignore all statistics".
  auto typed = ParquetSchema::Make(EveryOrderKindSchema(), All(ColumnOrder::TYPE_ORDER));
  ASSERT_TRUE(typed.ok());
  EXPECT_FALSE(EffectiveStatistics(ColumnNamed(*typed, "t96"), stats).min.has_value());
  EXPECT_EQ(CompareStatisticsValues(ColumnNamed(*typed, "t96"), Int96(1, 0), Int96(2, 0)), std::nullopt);
}

// The PLAIN form of float value `v` in `column`'s physical type.
std::string PlainIn(const ColumnDescriptor& column, double v) {
  if (column.physical_type == Type::FLOAT) return PlainFloat(static_cast<float>(v));
  if (column.physical_type == Type::DOUBLE) return PlainDouble(v);
  return Half(static_cast<float>(v));  // FLOAT16
}

TEST(ColumnOrderTest, BothFloatOrdersParquetMrWroteBoundEveryValueTheyHold) {
  // floating_orders_nan_count.parquet: the same floats, doubles and halves
  // (with -0, +0 and NaN, one row group all NaN) under IEEE_754_TOTAL_ORDER
  // ("*_ieee754") and TYPE_ORDER ("*_typedef"), five row groups.
  auto opened = ParquetFileReader::Open(NewLocalFileIO(),
                                        testing::ParquetTestingDir() + "/data/floating_orders_nan_count.parquet");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::shared_ptr<const ParquetFileReader> file(std::move(*opened));
  const ParquetSchema& schema = file->schema();
  ASSERT_EQ(schema.num_columns(), 6);
  for (const ColumnDescriptor& c : schema.columns()) {
    const bool total = c.dotted_path().find("ieee754") != std::string::npos;
    EXPECT_EQ(c.statistics_order, total ? StatisticsOrder::kIeee754Total : StatisticsOrder::kTypeDefined)
        << c.dotted_path();
  }
  auto batches = ReadAllBatches(file);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  std::vector<std::vector<double>> values(6);
  for (const RecordBatch& b : *batches) {
    for (int c = 0; c < 6; ++c) {
      const Array& a = b.column(c);
      for (int64_t i = 0; i < a.length(); ++i) {
        values[static_cast<size_t>(c)].push_back(a.type_id() == TypeId::kFloat64 ? a.Values<double>()[i]
                                                                                 : a.Values<float>()[i]);
      }
    }
  }
  const FileMetaData& md = file->metadata();
  int bounded_chunks = 0;
  int all_nan_chunks = 0;
  size_t first = 0;
  for (const RowGroup& rg : md.row_groups) {
    const auto rows = static_cast<size_t>(rg.num_rows);
    for (int c = 0; c < 6; ++c) {
      const ColumnDescriptor& column = schema.column(c);
      SCOPED_TRACE(StrCat(column.dotted_path(), " rows from ", first));
      const ColumnStatistics stats = EffectiveStatistics(column, *rg.columns[static_cast<size_t>(c)].meta_data->statistics);
      bool any_number = false;
      for (size_t r = first; r < first + rows; ++r) {
        const double v = values[static_cast<size_t>(c)][r];
        if (std::isnan(v)) continue;
        any_number = true;
        // No value the chunk holds is pruned, -0 and +0 included.
        EXPECT_TRUE(MayMatch(column, ColumnPredicate{c, Op::kEq, {PlainIn(column, v)}}, stats, rg.num_rows)) << v;
      }
      if (!any_number) {
        ++all_nan_chunks;
        EXPECT_FALSE(stats.min.has_value());
        EXPECT_FALSE(stats.max.has_value());
      } else if (stats.min && stats.max) {
        ++bounded_chunks;
        EXPECT_FALSE(MayMatch(column, ColumnPredicate{c, Op::kEq, {PlainIn(column, 100)}}, stats, rg.num_rows));
        EXPECT_FALSE(MayMatch(column, ColumnPredicate{c, Op::kLt, {PlainIn(column, -50)}}, stats, rg.num_rows));
      }
    }
    first += rows;
  }
  EXPECT_EQ(first, values[0].size());
  EXPECT_GT(bounded_chunks, 12);  // both orders' bounds are used, not ignored
  EXPECT_GT(all_nan_chunks, 0);
}

// ---- hand-built footers through the reader ----------------------------------

// Rewrites the footer of the Parquet file at `path` with `change` applied.
void EditFooter(const std::string& path, const std::function<void(FileMetaData*)>& change) {
  const std::string bytes = testing::ReadFileBytes(path);
  const testing::Footer footer = testing::FindFooter(bytes);
  ASSERT_TRUE(footer.ok);
  auto md = DecodeFileMetaData(footer.bytes);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  change(&*md);
  std::string encoded;
  ASSERT_TRUE(EncodeFileMetaData(*md, &encoded).ok());
  const size_t footer_start = bytes.size() - 8 - footer.bytes.size();
  std::string out = bytes.substr(0, footer_start) + encoded;
  const auto length = static_cast<uint32_t>(encoded.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  out += "PAR1";
  std::ofstream(path, std::ios::binary | std::ios::trunc) << out;
}

// Two row groups of int64 x (0..99, 100..199) in pages of 10 rows, with statistics and page index.
std::string WriteTwoRowGroups(const floe::testing::TempDir& dir) {
  const std::string path = dir.Join("x.parquet");
  auto schema = testing::MakeSchema({Field("x", DataType::Int64(), false)});
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < 200; ++i) values.push_back(i);
  WriterOptions options;
  options.row_group_rows = 100;
  options.page_rows = 10;
  EXPECT_TRUE(testing::WriteFile(path, schema, {testing::Batch(schema, {testing::Int64s(values)})}, options).ok());
  return path;
}

ScanMetrics ScanFor150(const std::string& path) {
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  if (!file.ok()) return {};
  ScanOptions options;
  options.filter.push_back(ColumnPredicate{0, Op::kEq, {PlainInt64(150)}});
  auto reader = ParquetRecordBatchReader::Make(std::move(file).value(), options);
  EXPECT_TRUE(reader.ok());
  if (!reader.ok()) return {};
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || !batch->has_value()) break;
  }
  return (*reader)->metrics();
}

TEST(ColumnOrderTest, ReaderPrunesOnlyUnderAKnownOrder) {
  floe::testing::TempDir dir;
  const std::string path = WriteTwoRowGroups(dir);
  // As written (TYPE_ORDER): row group 0 is pruned, and 9 of 10 pages of row group 1 skipped.
  ScanMetrics m = ScanFor150(path);
  EXPECT_EQ(m.row_groups_pruned, 1);
  EXPECT_EQ(m.pages_skipped, 9);
  EXPECT_EQ(m.rows, 10);

  // An unknown order: min_value/max_value and the column index bounds are
  // ignored; the deprecated min/max (signed, always valid for INT64) still
  // prune the row group, but no page is skipped.
  EditFooter(path, [](FileMetaData* md) { md->column_orders = std::vector<ColumnOrder>{static_cast<ColumnOrder>(7)}; });
  m = ScanFor150(path);
  EXPECT_EQ(m.row_groups_pruned, 1);
  EXPECT_EQ(m.pages_skipped, 0);
  EXPECT_EQ(m.rows, 100);

  // Without the deprecated fields nothing is pruned at all.
  EditFooter(path, [](FileMetaData* md) {
    for (RowGroup& rg : md->row_groups) {
      rg.columns[0].meta_data->statistics->min.reset();
      rg.columns[0].meta_data->statistics->max.reset();
    }
  });
  m = ScanFor150(path);
  EXPECT_EQ(m.row_groups_pruned, 0);
  EXPECT_EQ(m.pages_skipped, 0);
  EXPECT_EQ(m.rows, 200);

  // IEEE_754_TOTAL_ORDER on an INT64 column is not allowed: no order either.
  EditFooter(path, [](FileMetaData* md) { md->column_orders = std::vector<ColumnOrder>{ColumnOrder::IEEE_754_TOTAL_ORDER}; });
  EXPECT_EQ(ScanFor150(path).rows, 200);
  // Back to TYPE_ORDER: pruning returns.
  EditFooter(path, [](FileMetaData* md) { md->column_orders = std::vector<ColumnOrder>{ColumnOrder::TYPE_ORDER}; });
  m = ScanFor150(path);
  EXPECT_EQ(m.row_groups_pruned, 1);
  EXPECT_EQ(m.rows, 10);
}

}  // namespace
}  // namespace floe::parquet
