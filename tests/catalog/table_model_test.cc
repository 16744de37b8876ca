// Every table operation on a real SqlCatalog in a temporary folder, checked
// step by step against an in-memory model of the rows: append, overwrite
// --where (metadata only and copy-on-write), delete --where (both ways),
// replace partitions, compaction, tags, rollback and snapshot expiry. After
// each step the table is loaded again through a second catalog object and
// every snapshot it has is scanned by time travel and compared with the
// model at that snapshot; every file its metadata reaches must exist and
// nothing it does not reach may be left under its location.

#include <gtest/gtest.h>

#include <chrono>

#include "catalog/table_test_util.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

class TableModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = OpenSqlCatalog(dir_);
    ASSERT_NE(catalog_, nullptr);
    CreateRowsTable(*catalog_);
    checker_ = OpenSqlCatalog(dir_);  // a second catalog object: what another process would see
    ASSERT_NE(checker_, nullptr);
    table_ = std::make_unique<iceberg::Table>(catalog_->NewTableOps(Ident(kTableName)));
  }

  iceberg::BatchSource Source(const Rows& rows) { return SourceFor(*table_, rows).value(); }

  // Records the model of the snapshot `result` committed and checks the table.
  const iceberg::Snapshot& Landed(const iceberg::TableState& state, Rows model) {
    const iceberg::Snapshot* head = state.metadata->current_snapshot();
    EXPECT_NE(head, nullptr);
    model_ = Sorted(std::move(model));
    models_[head->snapshot_id] = model_;
    EXPECT_EQ(head->summary.at("total-records"), StrCat(model_.size()));
    Check();
    return *head;
  }

  void Check() {
    const std::string problems = CheckTable(*checker_, models_, /*allow_orphans=*/false, *io_);
    EXPECT_EQ(problems, "");
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<FileIO> io_ = NewLocalFileIO();
  std::shared_ptr<SqlCatalog> catalog_;
  std::shared_ptr<SqlCatalog> checker_;
  std::unique_ptr<iceberg::Table> table_;
  Rows model_;
  std::map<int64_t, Rows> models_;
};

TEST_F(TableModelTest, EveryOperationMatchesTheModelAtEverySnapshot) {
  // Appends: one file per region each.
  auto a1 = table_->Append(Source(MakeRows(0, 30, {"a", "b", "c"})));
  ASSERT_TRUE(a1.ok()) << a1.status().ToString();
  EXPECT_EQ(a1->rows_written, 30);
  EXPECT_EQ(a1->data_files_added, 3);
  const int64_t s1 = Landed(a1->state, MakeRows(0, 30, {"a", "b", "c"})).snapshot_id;
  auto a2 = table_->Append(Source(MakeRows(100, 30, {"a", "b", "c"})));
  ASSERT_TRUE(a2.ok()) << a2.status().ToString();
  Landed(a2->state, ModelAppend(model_, MakeRows(100, 30, {"a", "b", "c"})));
  auto a3 = table_->Append(Source(MakeRows(200, 12, {"a", "b"})));
  ASSERT_TRUE(a3.ok()) << a3.status().ToString();
  const iceberg::Snapshot& s3 = Landed(a3->state, ModelAppend(model_, MakeRows(200, 12, {"a", "b"})));
  EXPECT_EQ(s3.operation, "append");

  // Overwrite a whole partition: the partition decides, so files are only dropped.
  const RowFilter region_b{"region = 'b'", [](const Row& r) { return r.region == "b"; }};
  const Rows new_b = MakeRows(300, 6, {"b"});
  auto o1 = table_->Overwrite(iceberg::ParseExpression(region_b.text).value(), Source(new_b));
  ASSERT_TRUE(o1.ok()) << o1.status().ToString();
  EXPECT_EQ(o1->data_files_removed, 3);
  EXPECT_EQ(o1->data_files_rewritten, 0);
  EXPECT_EQ(o1->rows_written, 6);
  const iceberg::Snapshot& s4 = Landed(o1->state, ModelOverwrite(model_, region_b, new_b));
  EXPECT_EQ(s4.operation, "overwrite");
  EXPECT_EQ(s4.summary.at("deleted-data-files"), "3");

  // Overwrite rows by value: every file holds some, so each is rewritten.
  const RowFilter small_v{"v < 10", [](const Row& r) { return r.v < 10; }};
  const Rows new_c = MakeRows(400, 5, {"c"});
  auto o2 = table_->Overwrite(iceberg::ParseExpression(small_v.text).value(), Source(new_c));
  ASSERT_TRUE(o2.ok()) << o2.status().ToString();
  EXPECT_GT(o2->data_files_rewritten, 0);
  EXPECT_EQ(o2->rows_written, 5);
  const int64_t s5 = Landed(o2->state, ModelOverwrite(model_, small_v, new_c)).snapshot_id;

  // Delete a partition (metadata only), then rows by value (copy-on-write).
  const RowFilter region_c{"region = 'c'", [](const Row& r) { return r.region == "c"; }};
  auto d1 = table_->Delete(iceberg::ParseExpression(region_c.text).value());
  ASSERT_TRUE(d1.ok()) << d1.status().ToString();
  EXPECT_GT(d1->data_files_removed, 0);
  EXPECT_EQ(d1->data_files_rewritten, 0);
  EXPECT_EQ(d1->data_files_added, 0);
  const iceberg::Snapshot& s6 = Landed(d1->state, ModelOverwrite(model_, region_c, {}));
  EXPECT_EQ(s6.operation, "delete");
  const RowFilter big_a{"v >= 25 and region = 'a'", [](const Row& r) { return r.v >= 25 && r.region == "a"; }};
  auto d2 = table_->Delete(iceberg::ParseExpression(big_a.text).value());
  ASSERT_TRUE(d2.ok()) << d2.status().ToString();
  EXPECT_GT(d2->data_files_rewritten, 0);
  EXPECT_EQ(d2->rows_written, 0);
  const iceberg::Snapshot& s7 = Landed(d2->state, ModelOverwrite(model_, big_a, {}));
  EXPECT_EQ(s7.operation, "overwrite");  // a delete that wrote the surviving rows
  const int64_t s7_id = s7.snapshot_id;
  const Rows model_s7 = model_;

  // A delete that matches nothing commits nothing.
  auto none = table_->Delete(iceberg::ParseExpression("id > 100000").value());
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(none->state.metadata->current_snapshot()->snapshot_id, s7_id);

  // Replace partitions: a is replaced whole, d is new.
  const Rows replacing = MakeRows(500, 8, {"a", "d"});
  auto r1 = table_->ReplacePartitions(Source(replacing));
  ASSERT_TRUE(r1.ok()) << r1.status().ToString();
  Landed(r1->state, ModelReplacePartitions(model_, replacing));
  auto a4 = table_->Append(Source(MakeRows(600, 8, {"d"})));
  ASSERT_TRUE(a4.ok()) << a4.status().ToString();
  Landed(a4->state, ModelAppend(model_, MakeRows(600, 8, {"d"})));

  // Compaction: d's two small files become one; the rows stay.
  auto c1 = table_->Compact();
  ASSERT_TRUE(c1.ok()) << c1.status().ToString();
  ASSERT_TRUE(c1->has_value());
  EXPECT_GE((*c1)->data_files_rewritten, 2);
  EXPECT_LT((*c1)->data_files_added, (*c1)->data_files_rewritten);
  const iceberg::Snapshot& s10 = Landed((*c1)->state, model_);
  EXPECT_EQ(s10.operation, "replace");
  const int64_t s10_id = s10.snapshot_id;
  auto c2 = table_->Compact();  // nothing left to do
  ASSERT_TRUE(c2.ok()) << c2.status().ToString();
  EXPECT_FALSE(c2->has_value());

  // Tags, then main back to s7.
  ASSERT_TRUE(table_->SetRef("before-rollback", iceberg::SnapshotRefType::kTag, s10_id).ok());
  ASSERT_TRUE(table_->SetRef("t5", iceberg::SnapshotRefType::kTag, s5).ok());
  EXPECT_EQ(table_->Rollback(s1 + 1).status().code(), StatusCode::kInvalidArgument);  // not an ancestor
  auto rolled = table_->Rollback(s7_id);
  ASSERT_TRUE(rolled.ok()) << rolled.status().ToString();
  EXPECT_EQ(rolled->metadata->current_snapshot()->snapshot_id, s7_id);
  model_ = model_s7;
  Check();
  iceberg::TableScanOptions by_tag;
  by_tag.ref = "t5";
  EXPECT_EQ(ScanRows(*table_, by_tag).value(), models_.at(s5));

  // An append after the rollback builds on s7.
  auto a5 = table_->Append(Source(MakeRows(700, 6, {"a", "e"})));
  ASSERT_TRUE(a5.ok()) << a5.status().ToString();
  const iceberg::Snapshot& s11 = Landed(a5->state, ModelAppend(model_, MakeRows(700, 6, {"a", "e"})));
  EXPECT_EQ(s11.parent_snapshot_id, s7_id);
  const int64_t s11_id = s11.snapshot_id;

  // Expire everything but main's head and the tagged snapshots.
  iceberg::ExpireOptions expire;
  expire.older_than_ms = NowMs() + 1000;
  expire.retain_last = 1;
  auto expired = table_->ExpireSnapshots(expire);
  ASSERT_TRUE(expired.ok()) << expired.status().ToString();
  std::set<int64_t> kept_ids;
  for (const auto& s : expired->state.metadata->snapshots) kept_ids.insert(s.snapshot_id);
  EXPECT_EQ(kept_ids, (std::set<int64_t>{s5, s10_id, s11_id}));
  EXPECT_EQ(expired->expired_snapshot_ids.size(), models_.size() - 3);
  EXPECT_GT(expired->deleted_data_files, 0);
  EXPECT_GT(expired->deleted_manifest_lists, 0);
  for (auto it = models_.begin(); it != models_.end();) {
    it = kept_ids.count(it->first) ? std::next(it) : models_.erase(it);
  }
  // The files only expired snapshots reached are gone (no orphans), and
  // time travel to an expired snapshot fails.
  Check();
  EXPECT_EQ(ScanSnapshot(*table_, s7_id).status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace floe::catalog
