#include "floe/iceberg/scan/split_planner.h"

#include <gtest/gtest.h>

#include "floe/iceberg/deletion_vector.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/update/merging_snapshot_producer.h"
#include "scan_test_table.h"

namespace floe::iceberg {
namespace {

using testing::Range;
using testing::ReadIds;
using testing::ScanTestTable;

std::shared_ptr<const FileScanTask> Task(int64_t size, std::vector<int64_t> offsets = {},
                                         std::string format = std::string(kFileFormatParquet)) {
  DataFile file;
  file.file_path = "mem://t/data/f.parquet";
  file.file_format = std::move(format);
  file.file_size_in_bytes = size;
  file.split_offsets = std::move(offsets);
  auto task = std::make_shared<FileScanTask>();
  task->file = PlannedDataFile::Of(std::move(file));
  return task;
}

std::vector<std::pair<int64_t, int64_t>> Ranges(const std::vector<FileScanSplit>& splits) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& s : splits) out.emplace_back(s.start, s.length);
  return out;
}

TEST(SplitPlannerTest, SplitOffsetsCutAtEveryRowGroupAndCoverTheFile) {
  using R = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(Ranges(SplitFile(Task(1000, {4, 300, 650}), 128)), (R{{0, 300}, {300, 350}, {650, 350}}));
  // Unusable offsets (unsorted, past the end, negative) fall back to fixed pieces.
  EXPECT_EQ(Ranges(SplitFile(Task(1000, {4, 650, 300}), 400)), (R{{0, 400}, {400, 400}, {800, 200}}));
  EXPECT_EQ(Ranges(SplitFile(Task(1000, {4, 1000}), 600)), (R{{0, 600}, {600, 400}}));
  EXPECT_TRUE(UsableSplitOffsets(Task(1000, {-1, 5})->file.split_offsets(), 1000).empty());
  EXPECT_EQ(UsableSplitOffsets(Task(1000, {4, 5})->file.split_offsets(), 1000), (std::vector<int64_t>{4, 5}));
  // A file no bigger than the target is one split; other formats are not split.
  EXPECT_EQ(Ranges(SplitFile(Task(100), 128)), (R{{0, 100}}));
  EXPECT_EQ(Ranges(SplitFile(Task(1000, {4, 500}, "AVRO"), 128)), (R{{0, 1000}}));
  // Every split shares the one task.
  auto task = Task(1000, {4, 500});
  for (const auto& s : SplitFile(task, 10)) EXPECT_EQ(s.task, task);
  // A row group belongs to the split holding its first byte.
  const FileScanSplit split{task, 300, 350};
  EXPECT_FALSE(SplitContains(split, 299));
  EXPECT_TRUE(SplitContains(split, 300));
  EXPECT_TRUE(SplitContains(split, 649));
  EXPECT_FALSE(SplitContains(split, 650));
}

TEST(SplitPlannerTest, WeightsCountDeleteFilesAndTheOpenFileCost) {
  auto task = std::make_shared<FileScanTask>(*Task(1000));
  EXPECT_EQ(SplitWeight({task, 0, 10}, 4), 10);
  EXPECT_EQ(SplitWeight({task, 0, 2}, 4), 4);
  DataFile deletes;
  deletes.content = DataFileContent::kPositionDeletes;
  deletes.file_size_in_bytes = 50;
  task->position_deletes.push_back(std::make_shared<const DataFile>(deletes));
  task->equality_deletes.push_back(std::make_shared<const DataFile>(deletes));
  EXPECT_EQ(SplitWeight({task, 0, 10}, 4), 110);  // 10 + 2 x 50
  EXPECT_EQ(SplitWeight({task, 0, 10}, 40), 120);  // 3 files x 40
}

// The splits of each combined task, as their lengths.
std::vector<std::vector<int64_t>> Packed(const std::vector<int64_t>& lengths, int32_t lookback) {
  auto task = Task(1 << 20);
  std::vector<FileScanSplit> splits;
  int64_t start = 0;
  for (const int64_t length : lengths) {
    splits.push_back({task, start, length});
    start += length;
  }
  SplitPlanningOptions options;
  options.target_size = 100;
  options.open_file_cost = 1;
  options.lookback = lookback;
  std::vector<std::vector<int64_t>> out;
  for (const auto& combined : PackSplits(splits, options)) {
    std::vector<int64_t> bin;
    int64_t weight = 0;
    for (const auto& s : combined.splits) {
      bin.push_back(s.length);
      weight += s.length;
    }
    EXPECT_EQ(combined.weight, weight);
    out.push_back(bin);
  }
  return out;
}

TEST(SplitPlannerTest, PackingFillsTheFirstBinThatFitsAndEmitsTheHeaviestPastTheLookback) {
  using P = std::vector<std::vector<int64_t>>;
  // Lookback 10: 30 goes back into the first bin.
  EXPECT_EQ(Packed({60, 60, 30, 50}, 10), (P{{60, 30}, {60}, {50}}));
  // Lookback 1: the first bin is emitted when the second opens.
  EXPECT_EQ(Packed({60, 60, 30, 50}, 1), (P{{60}, {60, 30}, {50}}));
  // A split heavier than the target gets a task of its own.
  EXPECT_EQ(Packed({250, 10, 10}, 10), (P{{250}, {10, 10}}));
  EXPECT_TRUE(Packed({}, 10).empty());
}

TEST(SplitPlannerTest, OptionsComeFromTheTablesProperties) {
  auto defaults = SplitPlanningOptions::FromProperties({});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->target_size, 128 * 1024 * 1024);
  EXPECT_EQ(defaults->open_file_cost, 4 * 1024 * 1024);
  EXPECT_EQ(defaults->lookback, 10);
  auto set = SplitPlanningOptions::FromProperties(
      {{"read.split.target-size", "1000"}, {"read.split.open-file-cost", "7"}, {"read.split.planning-lookback", "3"}});
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set->target_size, 1000);
  EXPECT_EQ(set->open_file_cost, 7);
  EXPECT_EQ(set->lookback, 3);
  auto bad = SplitPlanningOptions::FromProperties({{"read.split.target-size", "0"}});
  ASSERT_TRUE(bad.status().IsInvalidArgument());
  EXPECT_NE(bad.status().message().find("read.split.target-size"), std::string::npos) << bad.status().ToString();
  EXPECT_TRUE(SplitPlanningOptions::FromProperties({{"read.split.planning-lookback", "x"}}).status().IsInvalidArgument());
}

// A table whose one data file has ten row groups of 100 rows.
class SplitScanTest : public ::testing::Test {
 protected:
  SplitScanTest() : t_({{"write.parquet.row-group-limit", "100"}}, 3) {}

  // Ids read with splits of `target` bytes (one row group per combined task when tiny).
  std::vector<int64_t> Read(int64_t target, ExpressionPtr filter = nullptr, ScanReport* report = nullptr,
                            size_t* tasks = nullptr) {
    TableScanOptions options;
    options.split_target_size = target;
    options.split_open_file_cost = 1;
    options.filter = std::move(filter);
    auto scan = TableScan::Make(t_.io, t_.metadata(), options).value();
    if (tasks != nullptr) *tasks = scan->PlanTasks().value().size();
    auto reader = scan->Open();
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return {};
    auto ids = ReadIds(**reader);
    EXPECT_TRUE(ids.ok()) << ids.status().ToString();
    if (report != nullptr) *report = scan->report();
    return ids.ok() ? *ids : std::vector<int64_t>{};
  }

  // Deletes `positions` of the one data file with a deletion vector.
  void DeletePositions(const std::vector<int64_t>& positions) {
    auto files = t_.table->NewScan({}).value()->PlanFiles().value();
    ASSERT_EQ(files.size(), 1u);
    DeletionVectorToWrite dv;
    dv.referenced_data_file = std::string(files[0].file.file_path());
    for (const int64_t p : positions) ASSERT_TRUE(dv.positions.Add(p).ok());
    auto written = WriteDeletionVectorFile(*t_.io, "mem://wh/db/t/data/dv-1.puffin", {&dv, 1});
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    MergingSnapshotProducer producer(t_.ops, std::string(kOperationDelete));
    for (auto& f : *written) producer.AddFile(std::move(f));
    auto committed = producer.Commit();
    ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  }

  ScanTestTable t_;
};

TEST_F(SplitScanTest, RowsReadBySplitsAreTheRowsOfTheWholeFiles) {
  t_.Append(0, 1000);
  auto files = t_.table->NewScan({}).value()->PlanFiles().value();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].file.split_offsets().size(), 10u);
  size_t tasks = 0;
  ScanReport report;
  EXPECT_EQ(Read(1, nullptr, &report, &tasks), Range(0, 1000));
  EXPECT_EQ(tasks, 10u);                   // one row group each
  EXPECT_EQ(report.row_groups_total, 10);  // each split read only its own
  EXPECT_EQ(Read(int64_t{1} << 40, nullptr, &report, &tasks), Range(0, 1000));
  EXPECT_EQ(tasks, 1u);
  EXPECT_EQ(report.row_groups_total, 10);
  // Splits of several row groups, and a filter that prunes row groups.
  const int64_t third = files[0].file.file_size_in_bytes() / 3;
  EXPECT_EQ(Read(third), Range(0, 1000));
  const auto filter = ParseExpression("id >= 250 and id < 420").value();
  EXPECT_EQ(Read(1, filter, &report), Range(250, 170));
  EXPECT_EQ(report.row_groups_total - report.row_groups_skipped, 3);  // ids 200-499
  EXPECT_EQ(Read(int64_t{1} << 40, filter), Range(250, 170));
}

TEST_F(SplitScanTest, DeletesApplyToEverySplitAtTheirFilePositions) {
  t_.Append(0, 1000);
  std::vector<int64_t> deleted;
  for (int64_t p = 3; p < 1000; p += 7) deleted.push_back(p);
  deleted.push_back(999);
  DeletePositions(deleted);
  std::vector<int64_t> expected;
  for (int64_t id = 0; id < 1000; ++id) {
    if (!std::binary_search(deleted.begin(), deleted.end(), id)) expected.push_back(id);
  }
  TableScanOptions tiny;
  tiny.split_target_size = 1;
  auto tasks = TableScan::Make(t_.io, t_.metadata(), tiny).value()->PlanTasks();
  ASSERT_TRUE(tasks.ok()) << tasks.status().ToString();
  ASSERT_EQ(tasks->size(), 10u);
  for (const auto& combined : *tasks) {
    ASSERT_EQ(combined.splits.size(), 1u);
    EXPECT_EQ(combined.splits[0].task->position_deletes.size(), 1u);  // the DV rides with every split
  }
  ScanReport report;
  EXPECT_EQ(Read(1, nullptr, &report), expected);
  EXPECT_EQ(report.rows_deleted, static_cast<int64_t>(deleted.size()));
  EXPECT_EQ(Read(int64_t{1} << 40), expected);
  EXPECT_EQ(Read(1, ParseExpression("id < 200").value()),
            std::vector<int64_t>(expected.begin(), std::lower_bound(expected.begin(), expected.end(), 200)));
}

TEST_F(SplitScanTest, ManyFilesPackIntoFewTasks) {
  for (int i = 0; i < 6; ++i) t_.Append(i * 100, 100);
  size_t tasks = 0;
  EXPECT_EQ(Read(int64_t{1} << 40, nullptr, nullptr, &tasks), Range(0, 600));
  EXPECT_EQ(tasks, 1u);  // six small files in one combined task
  EXPECT_EQ(Read(1, nullptr, nullptr, &tasks), Range(0, 600));
  EXPECT_EQ(tasks, 6u);
}

}  // namespace
}  // namespace floe::iceberg
