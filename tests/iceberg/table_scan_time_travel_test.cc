// Time travel (TableScanOptions): by snapshot id, by timestamp through the
// snapshot log (spec: "snapshot-log ... records changes to current-snapshot-id";
// Java's SnapshotUtil.snapshotIdAsOfTime takes the last entry at or before
// the time), by tag and by branch; and what a combination or an unknown
// target is.

#include <gtest/gtest.h>

#include <cstdint>

#include "floe/iceberg/scan/table_scan.h"
#include "scan_test_table.h"

namespace floe::iceberg {
namespace {

using testing::Range;
using testing::ReadIds;
using testing::ScanTestTable;

// s1 appends 0-9, s2 10-19, s3 20-29; then main is rolled back to s1. The
// snapshot log is set to known times: s1 at 1000, s2 at 2000, s3 at 3000,
// s1 again at 4000 (the rollback).
class TableScanTimeTravelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    s1_ = t_.Append(0, 10);
    s2_ = t_.Append(10, 10);
    s3_ = t_.Append(20, 10);
    ASSERT_TRUE(t_.table->SetRef("v2", SnapshotRefType::kTag, s2_).ok());
    ASSERT_TRUE(t_.table->SetRef("audit", SnapshotRefType::kBranch, s3_).ok());
    auto rolled = t_.table->Rollback(s1_);
    ASSERT_TRUE(rolled.ok()) << rolled.status().ToString();
    TableMetadata m = *rolled->metadata;
    ASSERT_EQ(m.snapshot_log.size(), 4u);
    EXPECT_EQ(m.snapshot_log[3].snapshot_id, s1_);  // the rollback is logged
    const int64_t times[] = {1000, 2000, 3000, 4000};
    for (size_t i = 0; i < 4; ++i) m.snapshot_log[i].timestamp_ms = times[i];
    metadata_ = std::make_shared<const TableMetadata>(std::move(m));
  }

  Result<std::vector<int64_t>> Ids(TableScanOptions options) {
    FLOE_ASSIGN_OR_RETURN(auto scan, TableScan::Make(t_.io, metadata_, std::move(options)));
    FLOE_ASSIGN_OR_RETURN(auto reader, scan->Open());
    return ReadIds(*reader);
  }
  std::vector<int64_t> AsOf(int64_t ms) {
    TableScanOptions options;
    options.as_of_timestamp_ms = ms;
    auto ids = Ids(options);
    EXPECT_TRUE(ids.ok()) << ms << ": " << ids.status().ToString();
    return ids.ok() ? *ids : std::vector<int64_t>{};
  }

  ScanTestTable t_;
  std::shared_ptr<const TableMetadata> metadata_;
  int64_t s1_ = 0, s2_ = 0, s3_ = 0;
};

TEST_F(TableScanTimeTravelTest, ATimestampReadsTheSnapshotCurrentThen) {
  EXPECT_EQ(AsOf(1000), Range(0, 10));  // at the entry's own time
  EXPECT_EQ(AsOf(1999), Range(0, 10));
  EXPECT_EQ(AsOf(2000), Range(0, 20));
  EXPECT_EQ(AsOf(3500), Range(0, 30));
  // After the rollback s1 was current again, though s3 is the newest snapshot.
  EXPECT_EQ(AsOf(4000), Range(0, 10));
  EXPECT_EQ(AsOf(INT64_MAX), Range(0, 10));
  TableScanOptions before;
  before.as_of_timestamp_ms = 999;
  auto none = Ids(before);
  ASSERT_TRUE(none.status().IsNotFound()) << none.status().ToString();
  EXPECT_EQ(none.status().message(), "no snapshot was current at 999 ms");
}

TEST_F(TableScanTimeTravelTest, SnapshotIdsTagsAndBranchesReadTheirSnapshot) {
  TableScanOptions by_id;
  by_id.snapshot_id = s2_;
  EXPECT_EQ(Ids(by_id).value(), Range(0, 20));
  TableScanOptions by_tag;
  by_tag.ref = "v2";
  EXPECT_EQ(Ids(by_tag).value(), Range(0, 20));
  TableScanOptions by_branch;
  by_branch.ref = "audit";
  EXPECT_EQ(Ids(by_branch).value(), Range(0, 30));
  EXPECT_EQ(Ids({}).value(), Range(0, 10));  // main, rolled back
}

TEST_F(TableScanTimeTravelTest, UnknownTargetsAndCombinationsAreRefused) {
  TableScanOptions unknown_id;
  unknown_id.snapshot_id = 42;
  EXPECT_EQ(Ids(unknown_id).status().message(), "snapshot 42 does not exist");
  TableScanOptions unknown_ref;
  unknown_ref.ref = "nope";
  EXPECT_TRUE(Ids(unknown_ref).status().IsNotFound());
  TableScanOptions both;
  both.snapshot_id = s1_;
  both.ref = "v2";
  EXPECT_TRUE(Ids(both).status().IsInvalidArgument()) << Ids(both).status().ToString();
}

}  // namespace
}  // namespace floe::iceberg
