// Transactions (iceberg/transaction.h) on a real SqlCatalog: several
// operations land in one swap of the pointer; a lost race re-applies them on
// the fresh table (appends hold, a filter touched concurrently fails with
// CommitConflict); a failed or abandoned transaction leaves no file behind.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "catalog/table_test_util.h"
#include "floe/iceberg/transaction.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

class TableTransactionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = OpenSqlCatalog(dir_);
    ASSERT_NE(catalog_, nullptr);
    CreateRowsTable(*catalog_);
    checker_ = OpenSqlCatalog(dir_);
    table_ = std::make_unique<iceberg::Table>(catalog_->NewTableOps(Ident(kTableName)));
    store_ = std::make_shared<HookedPointerStore>(catalog_);
    hooked_ = TableThrough(store_, io_);
    auto appended = table_->Append(Source(MakeRows(0, 12, {"a", "b"})));
    ASSERT_TRUE(appended.ok()) << appended.status().ToString();
    model_ = MakeRows(0, 12, {"a", "b"});
    start_id_ = appended->state.metadata->current_snapshot()->snapshot_id;
    models_[start_id_] = Sorted(model_);
  }

  iceberg::BatchSource Source(const Rows& rows) { return SourceFor(*table_, rows).value(); }
  iceberg::ExpressionPtr Where(const std::string& text) { return iceberg::ParseExpression(text).value(); }
  std::string Check() { return CheckTable(*checker_, models_, /*allow_orphans=*/false, *io_); }

  floe::testing::TempDir dir_;
  std::shared_ptr<FileIO> io_ = NewLocalFileIO();
  std::shared_ptr<SqlCatalog> catalog_;
  std::shared_ptr<SqlCatalog> checker_;
  std::unique_ptr<iceberg::Table> table_;
  std::shared_ptr<HookedPointerStore> store_;
  std::unique_ptr<iceberg::Table> hooked_;
  Rows model_;
  int64_t start_id_ = 0;
  std::map<int64_t, Rows> models_;
};

TEST_F(TableTransactionTest, CommitsSeveralOperationsWithOneSwap) {
  auto txn = hooked_->NewTransaction().value();
  const Rows added = MakeRows(100, 4, {"a", "c"});
  auto appended = txn->Append(Source(added));
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  const RowFilter filter{"v < 3 or id = 102", [](const Row& r) { return r.v < 3 || r.id == 102; }};
  auto deleted = txn->Delete(Where(filter.text));
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  ASSERT_TRUE(txn->SetProperties({{"owner", "mor"}}).ok());
  const int64_t delete_id = deleted->commit.snapshot_id;
  ASSERT_TRUE(txn->SetRef("after-cleanup", iceberg::SnapshotRefType::kTag, delete_id).ok());
  EXPECT_EQ(txn->operations(), 4);
  // Nothing is visible before the commit.
  EXPECT_EQ(ScanRows(*table_).value(), Sorted(model_));
  EXPECT_EQ(store_->swaps(), 0);

  auto committed = txn->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(store_->swaps(), 1);
  EXPECT_EQ(txn->report().attempts, 1);
  const auto& m = *committed->metadata;
  ASSERT_EQ(m.snapshots.size(), 3u);
  const iceberg::Snapshot* head = m.current_snapshot();
  ASSERT_NE(head, nullptr);
  EXPECT_EQ(head->snapshot_id, delete_id);
  const iceberg::Snapshot* append = m.SnapshotById(*head->parent_snapshot_id);
  ASSERT_NE(append, nullptr);
  EXPECT_EQ(append->operation, "append");
  EXPECT_EQ(append->parent_snapshot_id, start_id_);
  EXPECT_EQ(m.properties.at("owner"), "mor");
  EXPECT_EQ(m.refs.at("after-cleanup").snapshot_id, delete_id);
  EXPECT_GT(head->sequence_number, append->sequence_number);
  const Rows after_append = ModelAppend(model_, added);
  models_[append->snapshot_id] = after_append;
  models_[delete_id] = ModelOverwrite(after_append, filter, {});
  EXPECT_EQ(Check(), "");
  EXPECT_THAT(txn->Commit().status().message(), ::testing::HasSubstr("already committed"));
}

TEST_F(TableTransactionTest, ReappliesOnTheFreshTableAfterALostRace) {
  const Rows concurrent = MakeRows(200, 4, {"c"});
  store_->before_swap = [&](int swap) {
    if (swap != 0) return;
    auto other = table_->Append(Source(concurrent));
    ASSERT_TRUE(other.ok()) << other.status().ToString();
    models_[other->state.metadata->current_snapshot()->snapshot_id] = ModelAppend(model_, concurrent);
  };
  auto txn = hooked_->NewTransaction().value();
  const Rows added = MakeRows(100, 2, {"a"});
  ASSERT_TRUE(txn->Append(Source(added)).ok());
  const RowFilter filter{"region = 'b' and v > 6", [](const Row& r) { return r.region == "b" && r.v > 6; }};
  auto deleted = txn->Delete(Where(filter.text));
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  auto committed = txn->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(txn->report().attempts, 2);
  EXPECT_EQ(txn->report().conflicts, 1);
  const auto& m = *committed->metadata;
  const iceberg::Snapshot* head = m.current_snapshot();
  const iceberg::Snapshot* append = m.SnapshotById(*head->parent_snapshot_id);
  const iceberg::Snapshot* other = m.SnapshotById(*append->parent_snapshot_id);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->parent_snapshot_id, start_id_);
  const Rows with_other = ModelAppend(model_, concurrent);
  models_[append->snapshot_id] = ModelAppend(with_other, added);
  models_[head->snapshot_id] = ModelOverwrite(models_[append->snapshot_id], filter, {});
  EXPECT_EQ(Check(), "");
}

TEST_F(TableTransactionTest, FailsWhenAConcurrentCommitAddsRowsItsDeleteMatches) {
  const Rows concurrent = MakeRows(300, 2, {"b"});
  store_->before_swap = [&](int swap) {
    if (swap != 0) return;
    auto other = table_->Append(Source(concurrent));
    ASSERT_TRUE(other.ok()) << other.status().ToString();
    models_[other->state.metadata->current_snapshot()->snapshot_id] = ModelAppend(model_, concurrent);
  };
  auto txn = hooked_->NewTransaction().value();
  ASSERT_TRUE(txn->Append(Source(MakeRows(100, 2, {"a"}))).ok());
  ASSERT_TRUE(txn->Delete(Where("region = 'b'")).ok());
  auto committed = txn->Commit();
  ASSERT_FALSE(committed.ok());
  EXPECT_EQ(committed.status().code(), StatusCode::kCommitConflict) << committed.status().ToString();
  EXPECT_EQ(store_->swaps(), 1);
  EXPECT_EQ(Check(), "");  // no orphans: the transaction's files are gone
}

TEST_F(TableTransactionTest, AnAbandonedTransactionLeavesNothing) {
  {
    auto txn = table_->NewTransaction().value();
    ASSERT_TRUE(txn->Append(Source(MakeRows(100, 3, {"a", "d"}))).ok());
    ASSERT_TRUE(txn->Delete(Where("v = 4")).ok());
  }
  EXPECT_EQ(Check(), "");
  auto txn = table_->NewTransaction().value();
  ASSERT_TRUE(txn->Append(Source(MakeRows(100, 3, {"a"}))).ok());
  txn->Abort();
  EXPECT_FALSE(txn->Append(Source(MakeRows(100, 3, {"a"}))).ok());
  EXPECT_EQ(Check(), "");
}

TEST_F(TableTransactionTest, AFailedOperationLeavesTheTransactionUsable) {
  auto txn = table_->NewTransaction().value();
  ASSERT_TRUE(txn->Append(Source(MakeRows(100, 2, {"a"}))).ok());
  auto bad = txn->Delete(Where("no_such_column = 1"));
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(txn->SetRef("t", iceberg::SnapshotRefType::kTag, 42).code(), StatusCode::kNotFound);
  EXPECT_EQ(txn->operations(), 1);
  auto committed = txn->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  models_[committed->metadata->current_snapshot()->snapshot_id] = ModelAppend(model_, MakeRows(100, 2, {"a"}));
  EXPECT_EQ(Check(), "");
}

}  // namespace
}  // namespace floe::catalog
