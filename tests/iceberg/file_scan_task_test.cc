#include "floe/iceberg/scan/file_scan_task.h"

#include <gtest/gtest.h>

#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/scan/table_scan.h"
#include "scan_test_table.h"

namespace floe::iceberg {
namespace {

using testing::ScanTestTable;

DataFile File(std::string path, int32_t day, std::vector<int64_t> offsets = {}) {
  DataFile f;
  f.file_path = std::move(path);
  f.spec_id = 3;
  f.partition = {Literal::Date(day)};
  f.record_count = 10;
  f.file_size_in_bytes = 1000;
  f.split_offsets = std::move(offsets);
  f.column_sizes[1] = 77;
  return f;
}

TEST(PlannedFileBlockTest, ViewsReadBackWhatWasAppendedAndShareTheirBlock) {
  auto block = std::make_shared<PlannedFileBlock>(2, false);
  std::vector<PlannedDataFile> views(4);
  DataFile avro = File("mem://t/data/c.avro", 1);
  avro.file_format = std::string(kFileFormatAvro);
  avro.first_row_id = 40;
  ASSERT_TRUE(PlannedDataFile::Append(block, File("mem://t/data/a.parquet", 1, {4, 500}), &views[0]).ok());
  ASSERT_TRUE(PlannedDataFile::Append(block, File("mem://t/data/b.parquet", 1), &views[1]).ok());
  ASSERT_TRUE(PlannedDataFile::Append(block, avro, &views[2]).ok());
  ASSERT_TRUE(PlannedDataFile::Append(block, File("mem://t/data/d.parquet", 2, {4}), &views[3]).ok());
  EXPECT_EQ(block->size(), 4u);
  block.reset();  // the views keep it alive

  EXPECT_EQ(views[0].file_path(), "mem://t/data/a.parquet");
  EXPECT_EQ(views[1].file_path(), "mem://t/data/b.parquet");
  EXPECT_EQ(views[3].file_path(), "mem://t/data/d.parquet");
  EXPECT_EQ(views[0].file_format(), kFileFormatParquet);
  EXPECT_EQ(views[2].file_format(), kFileFormatAvro);
  EXPECT_EQ(views[3].file_format(), kFileFormatParquet);
  EXPECT_EQ(views[0].spec_id(), 3);
  EXPECT_EQ(views[0].record_count(), 10);
  EXPECT_EQ(views[0].file_size_in_bytes(), 1000);
  EXPECT_EQ(std::vector<int64_t>(views[0].split_offsets().begin(), views[0].split_offsets().end()),
            (std::vector<int64_t>{4, 500}));
  EXPECT_TRUE(views[1].split_offsets().empty());
  EXPECT_EQ(views[3].split_offsets().size(), 1u);
  EXPECT_EQ(views[0].first_row_id(), std::nullopt);
  EXPECT_EQ(views[2].first_row_id(), 40);
  // Consecutive equal partition tuples are stored once.
  EXPECT_EQ(&views[0].partition(), &views[1].partition());
  EXPECT_EQ(&views[1].partition(), &views[2].partition());
  EXPECT_NE(&views[2].partition(), &views[3].partition());
  EXPECT_EQ(views[3].partition(), (PartitionValues{Literal::Date(2)}));
  // The DataFile was not kept: no metrics, and ToDataFile rebuilds the rest.
  EXPECT_EQ(views[0].data_file(), nullptr);
  const DataFile rebuilt = views[0].ToDataFile();
  EXPECT_EQ(rebuilt.file_path, "mem://t/data/a.parquet");
  EXPECT_EQ(rebuilt.partition, (PartitionValues{Literal::Date(1)}));
  EXPECT_EQ(rebuilt.split_offsets, (std::vector<int64_t>{4, 500}));
  EXPECT_TRUE(rebuilt.column_sizes.empty());
  // A copy is another view of the same storage.
  const PlannedDataFile copy = views[0];
  EXPECT_EQ(copy.file_path().data(), views[0].file_path().data());
}

TEST(PlannedFileBlockTest, KeptDataFilesComeBackWhole) {
  auto block = std::make_shared<PlannedFileBlock>(0, true);
  PlannedDataFile view;
  ASSERT_TRUE(PlannedDataFile::Append(block, File("mem://t/data/a.parquet", 1), &view).ok());
  ASSERT_NE(view.data_file(), nullptr);
  EXPECT_EQ(view.data_file()->column_sizes.at(1), 77);
  EXPECT_EQ(view.ToDataFile(), File("mem://t/data/a.parquet", 1));
  const PlannedDataFile of = PlannedDataFile::Of(File("mem://t/data/e.parquet", 5));
  EXPECT_EQ(of.file_path(), "mem://t/data/e.parquet");
  ASSERT_NE(of.data_file(), nullptr);
  EXPECT_EQ(*of.data_file(), File("mem://t/data/e.parquet", 5));
  EXPECT_TRUE(PlannedDataFile().empty());
  EXPECT_FALSE(of.empty());
}

TEST(PlannedFileBlockTest, PlannedTasksOutliveTheirScanAndKeepStatsOnlyWhenAsked) {
  ScanTestTable t;
  t.Append(0, 100);
  t.Append(100, 50);
  std::vector<FileScanTask> tasks;
  {
    auto scan = TableScan::Make(t.io, t.metadata(), {}).value();
    tasks = scan->PlanFiles().value();
  }
  ASSERT_EQ(tasks.size(), 2u);
  int64_t rows = 0;
  for (const auto& task : tasks) {
    rows += task.file.record_count();
    EXPECT_NE(task.file.file_path().find("mem://wh/db/t/data/"), std::string_view::npos);
    EXPECT_EQ(task.file.file_format(), kFileFormatParquet);
    EXPECT_GT(task.file.file_size_in_bytes(), 0);
    EXPECT_FALSE(task.file.split_offsets().empty());
    EXPECT_EQ(task.file.data_file(), nullptr);
  }
  EXPECT_EQ(rows, 150);

  TableScanOptions with_stats;
  with_stats.include_column_stats = true;
  with_stats.filter = ParseExpression("id >= 120").value();
  auto stats = TableScan::Make(t.io, t.metadata(), with_stats).value()->PlanFiles().value();
  ASSERT_EQ(stats.size(), 1u);  // the first file's bounds exclude it
  ASSERT_NE(stats[0].file.data_file(), nullptr);
  const DataFile& whole = *stats[0].file.data_file();
  EXPECT_EQ(whole.file_path, stats[0].file.file_path());
  EXPECT_EQ(whole.record_count, 50);
  EXPECT_EQ(whole.value_counts.at(1), 50);
  EXPECT_FALSE(whole.lower_bounds.empty());
}

}  // namespace
}  // namespace floe::iceberg
