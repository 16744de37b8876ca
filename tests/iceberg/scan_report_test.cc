// The planning report of a table scan, counter by counter, on a table built
// for it: partitioned by day(ts), sorted by ts by floe's writer, row groups
// of 1,000 rows and pages of 100 with the page index, and a position delete
// file. The scan's own I/O counts are checked against a TracingFileIO the
// scan runs on, request for request.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "floe/base/strings.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/new_table_metadata.h"
#include "floe/iceberg/scan/table_scan.h"
#include "floe/iceberg/table.h"
#include "floe/io/tracing_file_io.h"
#include "memory_table_operations.h"
#include "schema_test_util.h"

namespace floe::iceberg {
namespace {

constexpr int64_t kMicrosPerDay = 86'400'000'000LL;
constexpr int64_t kMicrosPerRow = 20'000'000;  // a row every 20 s: 4,000 rows span 22 h 13 min
constexpr int32_t kOct1 = 20727;               // 2026-10-01
constexpr int64_t kRowsPerDay = 4000;
constexpr int64_t kRowsPerAppend = 2000;  // each day in two appends: morning and evening

using testing::Column;

uint64_t Mix(uint64_t x) {  // splitmix64: values that do not compress
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Four days of `id long, ts timestamp, amount long, note string`, row i of
// day d with id d * 4000 + i at d's midnight + 20 s * i; each day appended
// as two files (rows 0-1999 and 2000-3999), written from shuffled rows so
// that the sort order puts them back; then the rows with ids 8000-8004 and
// 9500 (day 2's morning file) deleted by one position delete file.
class ScanReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TableDefinition def;
    def.schema = Schema::Make(0, {Column(1, "id", Type::Long(), true), Column(2, "ts", Type::Timestamp()),
                                  Column(3, "amount", Type::Long()), Column(4, "note", Type::String())})
                     .value();
    def.partition_spec.fields.push_back({{2}, 1000, "ts_day", Transform::Day()});
    def.sort_order.fields.push_back({Transform::Identity(), {2}, SortDirection::kAsc, NullOrder::kNullsFirst});
    def.location = "mem://wh/db/events";
    def.properties = {{"write.parquet.row-group-limit", "1000"},
                      {"write.parquet.page-row-limit", "100"},
                      {"write.delete.mode", "merge-on-read"}};
    ops_ = std::make_shared<testing::MemoryTableOperations>(io_, NewTableMetadata(def).value());
    table_ = std::make_unique<Table>(ops_);
    for (int32_t day = 0; day < 4; ++day) {
      for (int64_t first = 0; first < kRowsPerDay; first += kRowsPerAppend) ASSERT_NO_FATAL_FAILURE(Append(day, first));
    }
    auto deleted = table_->Delete(ParseExpression("id in (8000, 8001, 8002, 8003, 8004, 9500)").value());
    ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
    ASSERT_EQ(deleted->delete_files_added, 1);
    metadata_ = table_->Refresh().value().metadata;
  }

  void Append(int32_t day, int64_t first) {
    auto schema = table_->WriteSchema().value();
    std::vector<int64_t> rows;
    for (int64_t i = first; i < first + kRowsPerAppend; ++i) rows.push_back(i);
    std::shuffle(rows.begin(), rows.end(), std::mt19937_64(static_cast<uint64_t>(day * kRowsPerDay + first)));
    Int64Builder ids;
    Int64Builder ts(DataType::Timestamp(TimeUnit::kMicro));
    Int64Builder amounts;
    StringBuilder notes;
    for (const int64_t i : rows) {
      const int64_t id = day * kRowsPerDay + i;
      ASSERT_TRUE(ids.Append(id).ok());
      ASSERT_TRUE(ts.Append((kOct1 + day) * kMicrosPerDay + i * kMicrosPerRow).ok());
      ASSERT_TRUE(amounts.Append(static_cast<int64_t>(Mix(static_cast<uint64_t>(id)) >> 1)).ok());
      ASSERT_TRUE(notes.Append(StrCat("note ", Mix(static_cast<uint64_t>(id) + 1), Mix(static_cast<uint64_t>(id) + 2)))
                      .ok());
    }
    auto batch = RecordBatch::Make(schema, {ids.Finish().value(), ts.Finish().value(), amounts.Finish().value(),
                                            notes.Finish().value()},
                                   kRowsPerAppend)
                     .value();
    bool given = false;
    auto appended = table_->Append([&]() -> Result<std::optional<RecordBatch>> {
      if (given) return std::optional<RecordBatch>();
      given = true;
      return std::optional<RecordBatch>(batch);
    });
    ASSERT_TRUE(appended.ok()) << appended.status().ToString();
    ASSERT_EQ(appended->data_files_added, 1);
  }

  std::shared_ptr<FileIO> io_ = NewMemoryFileIO();
  std::shared_ptr<testing::MemoryTableOperations> ops_;
  std::unique_ptr<Table> table_;
  std::shared_ptr<const TableMetadata> metadata_;
};

// Every live file of the table by path: data and delete files, with sizes.
std::map<std::string, DataFile> LiveFiles(const std::shared_ptr<FileIO>& io,
                                          std::shared_ptr<const TableMetadata> metadata) {
  std::map<std::string, DataFile> files;
  auto scan = TableScan::Make(io, std::move(metadata), {}).value();
  const std::vector<FileScanTask> tasks = scan->PlanFiles().value();
  for (const FileScanTask& task : tasks) {
    files.emplace(task.file.file_path(), task.file.ToDataFile());
    for (const auto& d : task.position_deletes) files.emplace(d->file_path, *d);
  }
  return files;
}

TEST_F(ScanReportTest, CountsEveryStageOfTheScanAndItsIo) {
  // 2026-10-02 21:00 to 2026-10-03 01:00: the evening file of day 1 (rows
  // 3780-3999) and the morning file of day 2 (rows 0-179, five deleted).
  const std::map<std::string, DataFile> files = LiveFiles(io_, metadata_);
  ASSERT_EQ(files.size(), 9u);  // eight data files, one delete file
  auto trace = std::make_shared<IoTrace>();
  auto traced = std::make_shared<TracingFileIO>(io_, trace);
  TableScanOptions options;
  options.filter = ParseExpression("ts >= '2026-10-02T21:00:00' and ts < '2026-10-03T01:00:00'").value();
  options.select = std::vector<std::string>{"id", "amount"};
  auto scan = TableScan::Make(traced, metadata_, options).value();
  auto reader = scan->Open();
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  std::vector<int64_t> ids;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch->has_value()) break;
    for (int64_t i = 0; i < (*batch)->num_rows(); ++i) ids.push_back((*batch)->column(0).Values<int64_t>()[i]);
  }
  std::sort(ids.begin(), ids.end());
  std::vector<int64_t> expected;
  for (int64_t i = 3780; i < 4000; ++i) expected.push_back(kRowsPerDay + i);
  for (int64_t i = 5; i < 180; ++i) expected.push_back(2 * kRowsPerDay + i);
  EXPECT_EQ(ids, expected);

  const ScanReport& report = scan->report();
  // Eight data manifests (one per append) and the delete's: the four of
  // days 0 and 3 are skipped by their partition summaries.
  EXPECT_EQ(report.manifests_total, 9);
  EXPECT_EQ(report.manifests_skipped, 4);
  // Those four files, and by their ts bounds day 1's morning and day 2's evening.
  EXPECT_EQ(report.data_files_total, 8);
  EXPECT_EQ(report.data_files_skipped, 6);
  EXPECT_EQ(report.delete_files_applied, 1);
  // Two row groups a file; day 1's evening rows 2000-2999 end before 21:00.
  // Day 2's morning file has position deletes: read whole, unpruned.
  EXPECT_EQ(report.row_groups_total, 4);
  EXPECT_EQ(report.row_groups_skipped, 1);
  // In day 1's last row group (rows 3000-3999) the page index keeps pages
  // 7-9 (rows 3700-3999) of each column read (id, ts, amount): 21 of 30
  // pages skipped.
  EXPECT_EQ(report.pages_total, 30);
  EXPECT_EQ(report.pages_skipped, 21);
  EXPECT_EQ(report.rows_scanned, 300 + 2000);
  EXPECT_EQ(report.rows_deleted, 5);  // id 9500 is deleted too, but outside the filter
  EXPECT_EQ(report.rows_returned, static_cast<int64_t>(expected.size()));

  // The I/O counts equal what the FileIO under the scan saw, file by file.
  ScanIoCounts manifests, data, deletes;
  std::string manifest_list = metadata_->current_snapshot()->manifest_list;
  for (const IoRequest& r : trace->requests()) {
    ScanIoCounts* counts = &manifests;
    if (auto it = files.find(r.path); it != files.end()) {
      counts = it->second.content == DataFileContent::kData ? &data : &deletes;
    } else {
      EXPECT_TRUE(r.path == manifest_list || r.path.ends_with(".avro")) << r.path;
    }
    ++counts->requests;
    counts->bytes_read += r.bytes;
  }
  EXPECT_EQ(report.manifest_io.requests, manifests.requests);
  EXPECT_EQ(report.manifest_io.bytes_read, manifests.bytes_read);
  EXPECT_EQ(report.data_file_io.requests, data.requests);
  EXPECT_EQ(report.data_file_io.bytes_read, data.bytes_read);
  EXPECT_EQ(report.delete_file_io.requests, deletes.requests);
  EXPECT_EQ(report.delete_file_io.bytes_read, deletes.bytes_read);
  EXPECT_EQ(report.requests(), trace->totals().requests);
  EXPECT_EQ(report.bytes_read(), trace->totals().bytes_read);

  // Requests: the manifest list's HEAD (a snapshot does not record its
  // size) and GET, and one GET per manifest read; per data file opened its
  // footer read (8 KiB, holding these small files' page index too) and one
  // coalesced read per row group read. The delete file (under 8 KiB) is
  // read whole by its footer read, and by nothing more.
  EXPECT_EQ(report.manifest_io.requests, 2 + 5);
  EXPECT_EQ(report.data_file_io.requests, 2 + 3);
  EXPECT_EQ(report.delete_file_io.requests, 1);

  std::set<std::string> opened;
  for (const IoRequest& r : trace->requests()) opened.insert(r.path);
  int64_t all_data_bytes = 0, opened_data_bytes = 0, delete_file_bytes = 0;
  for (const auto& [path, file] : files) {
    if (file.content != DataFileContent::kData) {
      delete_file_bytes += file.file_size_in_bytes;
    } else {
      all_data_bytes += file.file_size_in_bytes;
      if (opened.count(path) > 0) opened_data_bytes += file.file_size_in_bytes;
    }
  }
  // Two of eight files are opened, and of those not the column `note`, nor
  // day 1's rows before 21:00 but for a page a column.
  EXPECT_GT(report.data_file_io.bytes_read, 0);
  EXPECT_LT(report.data_file_io.bytes_read * 8, all_data_bytes);
  EXPECT_LT(report.data_file_io.bytes_read * 2, opened_data_bytes);
  EXPECT_GT(report.delete_file_io.bytes_read, 0);
  EXPECT_EQ(report.delete_file_io.bytes_read, delete_file_bytes);
  const std::string text = report.ToString();
  EXPECT_NE(text.find(StrCat("bytes read: ", report.bytes_read(), " (manifests ", manifests.bytes_read, ", data files ",
                             data.bytes_read, ", delete files ", deletes.bytes_read, ")")),
            std::string::npos)
      << text;
}

TEST_F(ScanReportTest, IoCountsStartAfreshWithEachPlan) {
  auto trace = std::make_shared<IoTrace>();
  auto scan = TableScan::Make(std::make_shared<TracingFileIO>(io_, trace), metadata_, {}).value();
  ASSERT_TRUE(scan->PlanFiles().ok());
  const ScanIoCounts first = scan->report().manifest_io;
  EXPECT_GT(first.requests, 0);
  EXPECT_EQ(scan->report().data_file_io.requests, 0);  // planning opens no data file
  ASSERT_TRUE(scan->PlanFiles().ok());
  EXPECT_EQ(scan->report().manifest_io.requests, first.requests);
  EXPECT_EQ(scan->report().manifest_io.bytes_read, first.bytes_read);
  EXPECT_EQ(trace->totals().requests, 2 * first.requests);
}

// One file of three row groups of 1,000 rows, whose regions are AF and NA,
// AS and EU, EU and SA: the bounds of each but the last hold "EU" and every
// prefix from A to N, so only the dictionaries tell which row groups lack them.
TEST(ScanReportDictionaryTest, RowGroupsWithoutTheValueInTheirDictionaryAreSkipped) {
  std::shared_ptr<FileIO> io = NewMemoryFileIO();
  TableDefinition def;
  def.schema = Schema::Make(0, {Column(1, "id", Type::Long(), true), Column(2, "region", Type::String())}).value();
  def.location = "mem://wh/db/regions";
  def.properties = {{"write.parquet.row-group-limit", "1000"}};
  auto ops = std::make_shared<testing::MemoryTableOperations>(io, NewTableMetadata(def).value());
  Table table(ops);
  auto schema = table.WriteSchema().value();
  const std::vector<std::vector<std::string>> regions = {{"AF", "NA"}, {"AS", "EU"}, {"EU", "SA"}};
  Int64Builder ids;
  StringBuilder names;
  for (int64_t id = 0; id < 3000; ++id) {
    ASSERT_TRUE(ids.Append(id).ok());
    ASSERT_TRUE(names.Append(regions[static_cast<size_t>(id / 1000)][static_cast<size_t>(id % 2)]).ok());
  }
  auto batch = RecordBatch::Make(schema, {ids.Finish().value(), names.Finish().value()}, 3000).value();
  bool given = false;
  auto appended = table.Append([&]() -> Result<std::optional<RecordBatch>> {
    if (given) return std::optional<RecordBatch>();
    given = true;
    return std::optional<RecordBatch>(batch);
  });
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  auto metadata = table.Refresh().value().metadata;

  const auto scan = [&](const std::string& filter) {
    TableScanOptions options;
    options.filter = ParseExpression(filter).value();
    auto table_scan = TableScan::Make(io, metadata, options).value();
    auto reader = table_scan->Open();
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    while (reader.ok()) {
      auto next = (*reader)->Next();
      EXPECT_TRUE(next.ok()) << next.status().ToString();
      if (!next.ok() || !next->has_value()) break;
    }
    return table_scan->report();
  };
  ScanReport eu = scan("region = 'EU'");
  EXPECT_EQ(eu.row_groups_total, 3);
  EXPECT_EQ(eu.row_groups_skipped, 1);
  EXPECT_EQ(eu.rows_returned, 1000);
  ScanReport e = scan("region starts with 'E'");  // two bounds, which one value must meet
  EXPECT_EQ(e.row_groups_skipped, 1);
  EXPECT_EQ(e.rows_returned, 1000);
  ScanReport b_to_d = scan("region > 'B' and region < 'E'");
  EXPECT_EQ(b_to_d.row_groups_skipped, 3);
  EXPECT_EQ(b_to_d.rows_returned, 0);
  // 'AT' lies inside row group 1's bounds, AS..EU, and not in its dictionary.
  ScanReport in = scan("region in ('AT', 'NA') and id < 1500");
  EXPECT_EQ(in.row_groups_skipped, 2);  // row group 1 by its dictionary, row group 2 by its ids
  EXPECT_EQ(in.rows_returned, 500);
}

}  // namespace
}  // namespace floe::iceberg
