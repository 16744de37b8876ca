#include "floe/iceberg/data_file_writer.h"

#include <gtest/gtest.h>

#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_dictionary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/iceberg/table_update.h"
#include "schema_test_util.h"

namespace floe::iceberg {
namespace {

constexpr int64_t kMicrosPerDay = 86'400'000'000LL;
constexpr int32_t kOct21 = 20747;

using testing::Column;

Schema OrdersSchema() {
  return Schema::Make(0, {Column(1, "order_id", Type::Long(), true), Column(2, "order_ts", Type::Timestamp()),
                          Column(3, "city", Type::String())})
      .value();
}

TableMetadata OrdersTable(const std::string& location, std::map<std::string, std::string> properties = {},
                          bool sorted = false) {
  PartitionSpec spec;
  spec.fields.push_back({{2}, 1000, "order_ts_day", Transform::Day()});
  SortOrder order;
  if (sorted) order.fields.push_back({Transform::Identity(), {2}, SortDirection::kAsc, NullOrder::kNullsFirst});
  std::vector<TableUpdate> updates = {AssignUuid{"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
                                      UpgradeFormatVersion{2},
                                      AddSchema{OrdersSchema()},
                                      SetCurrentSchema{kLastAdded},
                                      AddPartitionSpec{spec},
                                      SetDefaultSpec{kLastAdded},
                                      AddSortOrder{order},
                                      SetDefaultSortOrder{kLastAdded},
                                      SetLocation{location},
                                      SetProperties{std::move(properties)}};
  return ApplyTableChanges(nullptr, {AssertCreate{}}, updates).value();
}

// Rows alternating between two days, timestamps descending within each day.
RecordBatch Orders(const floe::Schema& schema, int64_t rows) {
  Int64Builder ids;
  Int64Builder ts(DataType::Timestamp(TimeUnit::kMicro));
  StringBuilder cities;
  for (int64_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(ids.Append(i).ok());
    const int64_t day = kOct21 + (i % 2);
    EXPECT_TRUE(ts.Append(day * kMicrosPerDay + (rows - i) * 1'000'000).ok());
    if (i % 5 == 0) {
      EXPECT_TRUE(cities.AppendNull().ok());
    } else {
      EXPECT_TRUE(cities.Append(i % 3 == 0 ? "Lisbon" : "Zagreb-with-a-very-long-suffix-for-truncation").ok());
    }
  }
  auto shared = std::make_shared<const floe::Schema>(schema);
  return RecordBatch::Make(shared, {ids.Finish().value(), ts.Finish().value(), cities.Finish().value()}).value();
}

TEST(DataFileWriterTest, FansOutByPartitionWithMetrics) {
  auto io = NewMemoryFileIO();
  const TableMetadata table = OrdersTable("mem://wh/shop/orders");
  auto writer = DataFileWriter::Make(io, table, DataWriterOptions::FromTable(table).value()).value();
  ASSERT_TRUE(writer->Write(Orders(*writer->schema(), 1000)).ok());
  auto files = writer->Close();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 2u);
  int64_t total = 0;
  for (const DataFile& file : *files) {
    total += file.record_count;
    EXPECT_EQ(file.record_count, 500);
    ASSERT_EQ(file.partition.size(), 1u);
    const int32_t day = file.partition[0]->int_value();
    EXPECT_TRUE(day == kOct21 || day == kOct21 + 1);
    EXPECT_NE(file.file_path.find(day == kOct21 ? "/data/order_ts_day=2026-10-21/" : "/data/order_ts_day=2026-10-22/"),
              std::string::npos)
        << file.file_path;
    EXPECT_TRUE(file.file_path.ends_with(".parquet"));
    EXPECT_EQ(file.file_size_in_bytes, io->Stat(file.file_path)->size);
    EXPECT_EQ(file.value_counts.at(1), 500);
    EXPECT_EQ(file.null_value_counts.at(1), 0);
    EXPECT_EQ(file.null_value_counts.at(3), 100);  // every 5th row
    EXPECT_GT(file.column_sizes.at(2), 0);
    // Bounds: the day's timestamps, as Appendix D longs.
    const auto lower = Literal::FromBytes(Type::Timestamp(), file.lower_bounds.at(2)).value();
    const auto upper = Literal::FromBytes(Type::Timestamp(), file.upper_bounds.at(2)).value();
    EXPECT_EQ(lower.long_value() / kMicrosPerDay, day);
    EXPECT_EQ(upper.long_value() / kMicrosPerDay, day);
    // Strings are truncated to 16 characters: the upper bound incremented.
    EXPECT_EQ(file.lower_bounds.at(3), "Lisbon");
    EXPECT_EQ(file.upper_bounds.at(3), "Zagreb-with-a-vf");
    EXPECT_FALSE(file.split_offsets.empty());
  }
  EXPECT_EQ(total, 1000);
}

TEST(DataFileWriterTest, SortsRowGroupsByTheSortOrderAndRollsFiles) {
  auto io = NewMemoryFileIO();
  const TableMetadata table = OrdersTable("mem://wh/shop/sorted",
                                          {{"write.parquet.row-group-limit", "100"},
                                           {"write.target-file-size-bytes", "1"},
                                           {"write.metadata.metrics.column.city", "none"}},
                                          /*sorted=*/true);
  auto writer = DataFileWriter::Make(io, table, DataWriterOptions::FromTable(table).value()).value();
  ASSERT_TRUE(writer->Write(Orders(*writer->schema(), 400)).ok());
  auto files = writer->Close();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  // 200 rows per day in row groups of 100, and every row group closes its file.
  ASSERT_EQ(files->size(), 4u);
  for (const DataFile& file : *files) {
    EXPECT_EQ(file.record_count, 100);
    EXPECT_EQ(file.sort_order_id, 1);
    EXPECT_EQ(file.value_counts.count(3), 0u);  // metrics mode none
    auto reader = parquet::ParquetFileReader::Open(io, file.file_path).value();
    auto batches = parquet::ReadAllBatches(std::move(reader)).value();
    int64_t previous = std::numeric_limits<int64_t>::min();
    for (const auto& batch : batches) {
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        const int64_t ts = batch.column(1).Values<int64_t>()[i];
        EXPECT_LE(previous, ts);
        previous = ts;
      }
    }
  }
}

TEST(DataFileWriterTest, AbortDeletesEveryFileAndBadInputIsRefused) {
  auto io = NewMemoryFileIO();
  const TableMetadata table = OrdersTable("mem://wh/shop/aborted", {{"write.parquet.row-group-limit", "10"}, {"write.target-file-size-bytes", "1"}});
  auto writer = DataFileWriter::Make(io, table, DataWriterOptions::FromTable(table).value()).value();
  ASSERT_TRUE(writer->Write(Orders(*writer->schema(), 100)).ok());
  EXPECT_FALSE(io->ListAll("mem://wh/shop/aborted/data/")->empty());
  writer->Abort();
  EXPECT_TRUE(io->ListAll("mem://wh/shop/aborted/data/")->empty());

  auto other = DataFileWriter::Make(io, table, DataWriterOptions::FromTable(table).value()).value();
  Int64Builder ids;
  ASSERT_TRUE(ids.Append(1).ok());
  auto wrong_schema = std::make_shared<const floe::Schema>(floe::Schema({Field("x", DataType::Int64())}));
  auto batch = RecordBatch::Make(wrong_schema, {ids.Finish().value()}).value();
  EXPECT_EQ(other->Write(batch).code(), StatusCode::kInvalidArgument);

  TableMetadata bad = OrdersTable("mem://wh/shop/bad", {{"write.target-file-size-bytes", "-5"}});
  auto options = DataWriterOptions::FromTable(bad);
  ASSERT_FALSE(options.ok());
  EXPECT_NE(options.status().message().find("write.target-file-size-bytes"), std::string::npos);
}

TEST(DataFileWriterTest, WritesDictionaryEncodedColumnsAsTheirValues) {
  auto io = NewMemoryFileIO();
  const TableMetadata table = OrdersTable("mem://wh/shop/encoded");
  auto plain_writer = DataFileWriter::Make(io, table, DataWriterOptions::FromTable(table).value()).value();
  const RecordBatch plain = Orders(*plain_writer->schema(), 100);

  // The same rows with city dictionary-encoded (field id kept).
  const floe::TypePtr dictionary = DataType::Dictionary(DataType::Utf8()).value();
  DictionaryBuilder cities(dictionary);
  const Array& city = plain.column(2);
  for (int64_t i = 0; i < city.length(); ++i) {
    ASSERT_TRUE((city.IsNull(i) ? cities.AppendNull() : cities.Append(city.GetString(i))).ok());
  }
  std::vector<floe::Field> fields = plain.schema().fields;
  fields[2].type = dictionary;
  const RecordBatch encoded = RecordBatch::Make(std::make_shared<const floe::Schema>(fields),
                                                {plain.column(0), plain.column(1), cities.Finish().value()})
                                  .value();
  ASSERT_EQ(encoded.column(2).dictionary().length(), 2);

  ASSERT_TRUE(plain_writer->Write(plain).ok());
  auto plain_files = plain_writer->Close().value();
  auto encoded_writer = DataFileWriter::Make(io, table, DataWriterOptions::FromTable(table).value()).value();
  const Status written = encoded_writer->Write(encoded);
  ASSERT_TRUE(written.ok()) << written.ToString();
  auto encoded_files = encoded_writer->Close().value();
  ASSERT_EQ(encoded_files.size(), plain_files.size());
  for (size_t f = 0; f < plain_files.size(); ++f) {
    EXPECT_EQ(encoded_files[f].record_count, plain_files[f].record_count);
    EXPECT_EQ(encoded_files[f].value_counts.at(3), plain_files[f].value_counts.at(3));
    EXPECT_EQ(encoded_files[f].null_value_counts.at(3), 10);
    EXPECT_EQ(encoded_files[f].lower_bounds.at(3), "Lisbon");
    EXPECT_EQ(encoded_files[f].upper_bounds.at(3), plain_files[f].upper_bounds.at(3));
  }
}

TEST(ParquetMetricsTest, TruncatedUpperBoundsIncrementTheLastCharacter) {
  EXPECT_EQ(TruncateLowerBound(Literal::String("abcdef"), 3), "abc");
  EXPECT_EQ(TruncateUpperBound(Literal::String("abcdef"), 3), "abd");
  EXPECT_EQ(TruncateUpperBound(Literal::String("ab"), 3), "ab");
  // A code point, not a byte, is the unit: é (2 bytes) stays whole.
  EXPECT_EQ(TruncateLowerBound(Literal::String("\xC3\xA9tude"), 1), "\xC3\xA9");
  EXPECT_EQ(TruncateUpperBound(Literal::String("\xC3\xA9tude"), 1), "\xC3\xAA");
  EXPECT_EQ(TruncateUpperBound(Literal::Binary("\x01\xff\xff\x02"), 3), "\x02");
  EXPECT_EQ(TruncateUpperBound(Literal::Binary("\xff\xff\xff\x02"), 3), std::nullopt);
  EXPECT_EQ(MetricsMode::Parse("truncate(8)")->length, 8);
  EXPECT_FALSE(MetricsMode::Parse("truncate(x)").ok());
  EXPECT_FALSE(MetricsConfig::FromProperties({{"write.metadata.metrics.default", "some"}}).ok());
}

}  // namespace
}  // namespace floe::iceberg
