#include "floe/iceberg/scan/incremental_append_scan.h"

#include <gtest/gtest.h>

#include <set>

#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/io/tracing_file_io.h"
#include "scan_test_table.h"

namespace floe::iceberg {
namespace {

using testing::Range;
using testing::ReadIds;
using testing::ScanTestTable;

// s1 appends ids 0-9, s2 10-19, s3 deletes ids < 5 (rewriting s1's file),
// s4 appends 20-29.
class IncrementalAppendScanTest : public ::testing::Test {
 protected:
  explicit IncrementalAppendScanTest(int format_version = 2) : t_{{}, format_version} {}

  void SetUp() override {
    s1_ = t_.Append(0, 10);
    s2_ = t_.Append(10, 10);
    auto deleted = t_.table->Delete(ParseExpression("id < 5").value());
    ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
    s3_ = deleted->state.metadata->current_snapshot()->snapshot_id;
    s4_ = t_.Append(20, 10);
  }

  // The metadata the scans read.
  virtual std::shared_ptr<const TableMetadata> Scanned() { return t_.metadata(); }

  Result<std::unique_ptr<IncrementalAppendScan>> Scan(AppendRange range, TableScanOptions options = {}) {
    return IncrementalAppendScan::Make(t_.io, Scanned(), range, std::move(options));
  }
  std::vector<int64_t> Ids(AppendRange range, TableScanOptions options = {}) {
    auto scan = Scan(range, std::move(options));
    EXPECT_TRUE(scan.ok()) << scan.status().ToString();
    if (!scan.ok()) return {};
    auto reader = (*scan)->Open();
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return {};
    auto ids = ReadIds(**reader);
    EXPECT_TRUE(ids.ok()) << ids.status().ToString();
    return ids.ok() ? *ids : std::vector<int64_t>{};
  }

  ScanTestTable t_;
  int64_t s1_ = 0, s2_ = 0, s3_ = 0, s4_ = 0;
};

TEST_F(IncrementalAppendScanTest, ReadsOnlyWhatAppendsAddedAfterTheStart) {
  // s3's rewrite of s1's file is not an append: its rows are not read.
  EXPECT_EQ(Ids({s1_, false, s4_}), (Range(10, 20)));
  EXPECT_EQ((*Scan({s1_, false, s4_}))->snapshot_ids(), (std::vector<int64_t>{s2_, s4_}));
  EXPECT_EQ(Ids({s2_, false, std::nullopt}), Range(20, 10));  // to: the current snapshot
  EXPECT_EQ(Ids({s3_, false, s4_}), Range(20, 10));
  EXPECT_TRUE(Ids({s4_, false, s4_}).empty());
}

TEST_F(IncrementalAppendScanTest, AnInclusiveStartReadsItsOwnAppend) {
  EXPECT_EQ(Ids({s1_, true, s2_}), Range(0, 20));
  // Appended rows are read even where a later snapshot deleted them.
  EXPECT_EQ(Ids({s1_, true, s1_}), Range(0, 10));
  EXPECT_EQ(Ids({s3_, true, s4_}), Range(20, 10));  // s3 is no append
}

TEST_F(IncrementalAppendScanTest, WithoutAStartEveryAppendOfTheAncestryIsRead) {
  EXPECT_EQ(Ids({}), Range(0, 30));
  EXPECT_EQ(Ids({std::nullopt, false, s2_}), Range(0, 20));
  EXPECT_EQ((*Scan({}))->snapshot_ids(), (std::vector<int64_t>{s1_, s2_, s4_}));
}

TEST_F(IncrementalAppendScanTest, FiltersProjectionsAndPlansApply) {
  TableScanOptions options;
  options.filter = ParseExpression("id >= 15 and id < 25").value();
  options.select = std::vector<std::string>{"id"};
  EXPECT_EQ(Ids({s1_, false, s4_}, options), Range(15, 10));
  auto scan = Scan({s1_, false, s4_});
  ASSERT_TRUE(scan.ok());
  auto files = (*scan)->PlanFiles();
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 2u);
  int64_t rows = 0;
  for (const auto& f : *files) {
    rows += f.file.record_count();
    EXPECT_TRUE(f.position_deletes.empty() && f.equality_deletes.empty());
  }
  EXPECT_EQ(rows, 20);
  EXPECT_EQ((*scan)->report().data_files_total, 2);
}

TEST_F(IncrementalAppendScanTest, TheReportCountsTheRangesManifestListReads) {
  auto trace = std::make_shared<IoTrace>();
  auto traced = std::make_shared<TracingFileIO>(t_.io, trace);
  auto scan = IncrementalAppendScan::Make(traced, Scanned(), {s1_, false, s4_}, {});
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  EXPECT_EQ(trace->totals().requests, 0);  // the lists are read by planning, not by Make
  ASSERT_TRUE((*scan)->PlanFiles().ok());
  std::set<std::string> read;
  for (const IoRequest& r : trace->requests()) read.insert(r.path);
  const std::shared_ptr<const TableMetadata> m = Scanned();
  EXPECT_EQ(read.count(m->SnapshotById(s2_)->manifest_list), 1u);
  EXPECT_EQ(read.count(m->SnapshotById(s4_)->manifest_list), 1u);
  EXPECT_EQ(read.count(m->SnapshotById(s3_)->manifest_list), 0u);  // no append
  // Planning reads only metadata: every request is a manifest request.
  EXPECT_EQ((*scan)->report().manifest_io.requests, trace->totals().requests);
  EXPECT_EQ((*scan)->report().manifest_io.bytes_read, trace->totals().bytes_read);
}

TEST_F(IncrementalAppendScanTest, RangesThatAreNotAncestryAreRefused) {
  auto backwards = Scan({s4_, false, s2_});
  ASSERT_TRUE(backwards.status().IsInvalidArgument()) << backwards.status().ToString();
  EXPECT_NE(backwards.status().message().find("is not an ancestor"), std::string::npos);
  EXPECT_TRUE(Scan({s4_, true, s2_}).status().IsInvalidArgument());
  EXPECT_TRUE(Scan({12345, false, s4_}).status().IsNotFound());
  EXPECT_TRUE(Scan({s1_, false, 12345}).status().IsNotFound());
  TableScanOptions travel;
  travel.snapshot_id = s2_;
  EXPECT_TRUE(Scan({s1_, false, s4_}, travel).status().IsInvalidArgument());
}

// The same history on a v1 table whose snapshots list their manifests
// inline (spec v1: "manifests", no manifest list), as v1 writers before the
// manifest list did: each snapshot's manifest list is replaced by the
// locations it names.
class IncrementalAppendScanV1InlineTest : public IncrementalAppendScanTest {
 protected:
  IncrementalAppendScanV1InlineTest() : IncrementalAppendScanTest(/*format_version=*/1) {}

  void SetUp() override {
    IncrementalAppendScanTest::SetUp();
    if (HasFatalFailure()) return;
    TableMetadata m = *t_.metadata();
    ASSERT_EQ(m.format_version, 1);
    for (Snapshot& s : m.snapshots) {
      auto list = ReadManifestList(*t_.io, s.manifest_list);
      ASSERT_TRUE(list.ok()) << list.status().ToString();
      for (const ManifestFile& manifest : *list) s.manifests.push_back(manifest.manifest_path);
      s.manifest_list.clear();
    }
    // s2 lists s1's manifest and its own; s3 rewrote s1's file.
    ASSERT_EQ(m.SnapshotById(s2_)->manifests.size(), 2u);
    inline_ = std::make_shared<const TableMetadata>(std::move(m));
  }

  std::shared_ptr<const TableMetadata> Scanned() override { return inline_; }

  std::shared_ptr<const TableMetadata> inline_;
};

TEST_F(IncrementalAppendScanV1InlineTest, ReadsWhatTheRangesAppendsAdded) {
  // Every inline manifest of s4 names s1's, s2's, s3's and s4's files: only
  // the entries the range's appends added are read, each once.
  EXPECT_EQ(Ids({s1_, false, s4_}), Range(10, 20));
  EXPECT_EQ(Ids({s2_, false, std::nullopt}), Range(20, 10));
  EXPECT_EQ(Ids({s3_, false, s4_}), Range(20, 10));
  EXPECT_TRUE(Ids({s4_, false, s4_}).empty());
  EXPECT_EQ(Ids({s1_, true, s2_}), Range(0, 20));
  EXPECT_EQ(Ids({s1_, true, s1_}), Range(0, 10));  // rows s3 deleted still were appended
  EXPECT_EQ(Ids({}), Range(0, 30));
  TableScanOptions options;
  options.filter = ParseExpression("id >= 15 and id < 25").value();
  EXPECT_EQ(Ids({s1_, false, s4_}, options), Range(15, 10));
  // The plain scan of the same inline metadata reads the live rows.
  auto scan = TableScan::Make(t_.io, inline_, {});
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  auto reader = (*scan)->Open();
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(ReadIds(**reader).value(), Range(5, 25));
}

TEST(IncrementalAppendScanEmptyTest, ATableWithoutSnapshotsScansEmpty) {
  ScanTestTable t;
  auto scan = IncrementalAppendScan::Make(t.io, t.metadata(), {}, {});
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  auto reader = (*scan)->Open();
  ASSERT_TRUE(reader.ok());
  EXPECT_TRUE(ReadIds(**reader)->empty());
}

}  // namespace
}  // namespace floe::iceberg
