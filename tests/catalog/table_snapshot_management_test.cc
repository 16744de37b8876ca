// Cherry-pick, set-current and fast-forward (Java's ManageSnapshots
// semantics) and row deltas with their validations, on a real SqlCatalog:
// rows checked against a model at every snapshot.

#include <gtest/gtest.h>

#include "catalog/table_test_util.h"
#include "floe/iceberg/data_file_writer.h"
#include "floe/iceberg/position_delete_file.h"
#include "floe/iceberg/row_operations.h"
#include "floe/iceberg/update/row_delta.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

class TableSnapshotManagementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = OpenSqlCatalog(dir_);
    ASSERT_NE(catalog_, nullptr);
    CreateRowsTable(*catalog_);
    checker_ = OpenSqlCatalog(dir_);
    ops_ = catalog_->NewTableOps(Ident(kTableName));
    table_ = std::make_unique<iceberg::Table>(ops_);
  }

  iceberg::BatchSource Source(const Rows& rows) { return SourceFor(*table_, rows).value(); }
  iceberg::ExpressionPtr Where(const std::string& text) { return iceberg::ParseExpression(text).value(); }
  std::string Check() { return CheckTable(*checker_, models_, /*allow_orphans=*/false, *io_); }
  int64_t Head() { return table_->Refresh().value().metadata->current_snapshot()->snapshot_id; }

  int64_t AppendMain(const Rows& rows) {
    auto r = table_->Append(Source(rows));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    main_ = ModelAppend(main_, rows);
    const int64_t id = r->state.metadata->current_snapshot()->snapshot_id;
    models_[id] = main_;
    return id;
  }
  // An append staged on branch `branch` (created at main's head), as a
  // write-audit-publish writer stages one, with `wap.id`.
  int64_t AppendStaged(const std::string& branch, const Rows& rows, const std::string& wap_id, const Rows& base) {
    EXPECT_TRUE(table_->SetRef(branch, iceberg::SnapshotRefType::kBranch, Head()).ok());
    auto state = table_->Refresh().value();
    auto prepared = iceberg::PrepareAppend(ops_, state, Source(rows), {{"wap.id", wap_id}}).value();
    prepared.producer->set_branch(branch);
    auto committed = iceberg::CommitPrepared(std::move(prepared), *ops_, state);
    EXPECT_TRUE(committed.ok()) << committed.status().ToString();
    const int64_t id = committed->state.metadata->SnapshotByRef(branch)->snapshot_id;
    models_[id] = ModelAppend(base, rows);
    return id;
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<FileIO> io_ = NewLocalFileIO();
  std::shared_ptr<SqlCatalog> catalog_;
  std::shared_ptr<SqlCatalog> checker_;
  std::shared_ptr<iceberg::TableOperations> ops_;
  std::unique_ptr<iceberg::Table> table_;
  Rows main_;
  std::map<int64_t, Rows> models_;
};

TEST_F(TableSnapshotManagementTest, CherryPickFastForwardsWhenMainDidNotMove) {
  AppendMain(MakeRows(0, 6, {"a", "b"}));
  const int64_t staged = AppendStaged("audit", MakeRows(100, 3, {"c"}), "w1", main_);
  EXPECT_EQ(ScanRows(*table_).value(), main_);  // staged: not on main
  auto picked = table_->CherryPick(staged);
  ASSERT_TRUE(picked.ok()) << picked.status().ToString();
  EXPECT_EQ(picked->metadata->current_snapshot()->snapshot_id, staged);
  main_ = models_[staged];
  EXPECT_EQ(ScanRows(*table_).value(), main_);
  EXPECT_EQ(Check(), "");
  // Now an ancestor of main: picking it again conflicts.
  EXPECT_EQ(table_->CherryPick(staged).status().code(), StatusCode::kCommitConflict);
}

TEST_F(TableSnapshotManagementTest, CherryPickReappliesAnAppendOnTopOfMain) {
  AppendMain(MakeRows(0, 6, {"a", "b"}));
  const Rows staged_rows = MakeRows(100, 3, {"c"});
  const int64_t staged = AppendStaged("audit", staged_rows, "w1", main_);
  const int64_t s2 = AppendMain(MakeRows(200, 2, {"a"}));
  auto picked = table_->CherryPick(staged);
  ASSERT_TRUE(picked.ok()) << picked.status().ToString();
  const iceberg::Snapshot* head = picked->metadata->current_snapshot();
  EXPECT_NE(head->snapshot_id, staged);
  EXPECT_EQ(head->parent_snapshot_id, s2);
  EXPECT_EQ(head->operation, "append");
  EXPECT_EQ(head->summary.at("source-snapshot-id"), StrCat(staged));
  EXPECT_EQ(head->summary.at("published-wap-id"), "w1");
  EXPECT_EQ(head->summary.at("added-records"), "3");
  main_ = ModelAppend(main_, staged_rows);
  models_[head->snapshot_id] = main_;
  EXPECT_EQ(Check(), "");

  // Picked already; an ancestor; another snapshot with the published wap id.
  auto again = table_->CherryPick(staged);
  EXPECT_EQ(again.status().code(), StatusCode::kCommitConflict);
  // Java checks the WAP id first: "published already".
  EXPECT_NE(again.status().message().find("already published"), std::string::npos) << again.status().ToString();
  EXPECT_EQ(table_->CherryPick(s2).status().code(), StatusCode::kCommitConflict);
  const int64_t same_wap = AppendStaged("audit2", MakeRows(300, 1, {"a"}), "w1", main_);
  AppendMain(MakeRows(400, 1, {"b"}));
  auto duplicate = table_->CherryPick(same_wap);
  EXPECT_EQ(duplicate.status().code(), StatusCode::kCommitConflict);
  EXPECT_NE(duplicate.status().message().find("already published"), std::string::npos) << duplicate.status().ToString();
  EXPECT_EQ(table_->CherryPick(123456789).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(Check(), "");
}

TEST_F(TableSnapshotManagementTest, CherryPickOfADeleteOnlyFastForwards) {
  AppendMain(MakeRows(0, 6, {"a", "b"}));
  ASSERT_TRUE(table_->SetRef("dev", iceberg::SnapshotRefType::kBranch, Head()).ok());
  auto state = table_->Refresh().value();
  auto prepared = iceberg::PrepareRewriteMatching(ops_, state, Where("region = 'b'"), nullptr).value();
  prepared.producer->set_branch("dev");
  auto deleted = iceberg::CommitPrepared(std::move(prepared), *ops_, state);
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  const int64_t delete_id = deleted->state.metadata->SnapshotByRef("dev")->snapshot_id;
  models_[delete_id] = ModelOverwrite(main_, RowFilter{"", [](const Row& r) { return r.region == "b"; }}, {});
  AppendMain(MakeRows(100, 2, {"c"}));
  auto refused = table_->CherryPick(delete_id);
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument) << refused.status().ToString();
  EXPECT_EQ(Check(), "");
}

TEST_F(TableSnapshotManagementTest, CherryPickOfADynamicOverwrite) {
  AppendMain(MakeRows(0, 6, {"a", "b"}));
  ASSERT_TRUE(table_->SetRef("dev", iceberg::SnapshotRefType::kBranch, Head()).ok());
  const Rows new_a = MakeRows(500, 2, {"a"});
  auto state = table_->Refresh().value();
  auto prepared = iceberg::PrepareReplacePartitions(ops_, state, Source(new_a)).value();
  prepared.producer->set_branch("dev");
  auto replaced = iceberg::CommitPrepared(std::move(prepared), *ops_, state);
  ASSERT_TRUE(replaced.ok()) << replaced.status().ToString();
  const int64_t overwrite_id = replaced->state.metadata->SnapshotByRef("dev")->snapshot_id;
  models_[overwrite_id] = ModelReplacePartitions(main_, new_a);
  AppendMain(MakeRows(100, 2, {"c"}));  // another partition: the pick still applies
  auto picked = table_->CherryPick(overwrite_id);
  ASSERT_TRUE(picked.ok()) << picked.status().ToString();
  const iceberg::Snapshot* head = picked->metadata->current_snapshot();
  EXPECT_EQ(head->operation, "overwrite");
  EXPECT_EQ(head->summary.at("source-snapshot-id"), StrCat(overwrite_id));
  main_ = ModelReplacePartitions(main_, new_a);
  models_[head->snapshot_id] = main_;
  EXPECT_EQ(Check(), "");
}

TEST_F(TableSnapshotManagementTest, CherryPickOfADynamicOverwriteWhosePartitionChangedConflicts) {
  AppendMain(MakeRows(0, 6, {"a", "b"}));
  ASSERT_TRUE(table_->SetRef("dev", iceberg::SnapshotRefType::kBranch, Head()).ok());
  auto state = table_->Refresh().value();
  auto prepared = iceberg::PrepareReplacePartitions(ops_, state, Source(MakeRows(500, 2, {"a"}))).value();
  prepared.producer->set_branch("dev");
  auto replaced = iceberg::CommitPrepared(std::move(prepared), *ops_, state);
  ASSERT_TRUE(replaced.ok()) << replaced.status().ToString();
  const int64_t overwrite_id = replaced->state.metadata->SnapshotByRef("dev")->snapshot_id;
  models_[overwrite_id] = ModelReplacePartitions(main_, MakeRows(500, 2, {"a"}));
  AppendMain(MakeRows(100, 2, {"a"}));  // the replaced partition changed on main
  auto picked = table_->CherryPick(overwrite_id);
  EXPECT_EQ(picked.status().code(), StatusCode::kCommitConflict) << picked.status().ToString();
  EXPECT_EQ(Check(), "");
}

TEST_F(TableSnapshotManagementTest, SetCurrentAcceptsAnySnapshotAndFastForwardNeedsAnAncestor) {
  const int64_t s1 = AppendMain(MakeRows(0, 2, {"a"}));
  const int64_t s2 = AppendMain(MakeRows(10, 2, {"b"}));
  ASSERT_TRUE(table_->Rollback(s1).ok());
  main_ = models_[s1];
  const int64_t s3 = AppendMain(MakeRows(20, 2, {"c"}));  // s2 is no ancestor of main now
  auto set = table_->SetCurrent(s2);
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  EXPECT_EQ(set->metadata->current_snapshot()->snapshot_id, s2);
  EXPECT_EQ(ScanRows(*table_).value(), models_[s2]);
  EXPECT_EQ(table_->SetCurrent(987654321).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(table_->Rollback(s3).status().code(), StatusCode::kInvalidArgument);  // rollback: ancestors only

  // Fast-forward: a branch at s1 moves to main's head s2 (s1 is its ancestor).
  ASSERT_TRUE(table_->SetRef("b1", iceberg::SnapshotRefType::kBranch, s1).ok());
  auto forwarded = table_->FastForward("b1", "main");
  ASSERT_TRUE(forwarded.ok()) << forwarded.status().ToString();
  EXPECT_EQ(forwarded->metadata->refs.at("b1").snapshot_id, s2);
  // s3 is not a descendant of s2.
  ASSERT_TRUE(table_->SetRef("t3", iceberg::SnapshotRefType::kTag, s3).ok());
  EXPECT_EQ(table_->FastForward("b1", "t3").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(table_->FastForward("t3", "main").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(table_->FastForward("nope", "main").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(Check(), "");
}

TEST_F(TableSnapshotManagementTest, RemoveRefRemovesTagsAndBranchesButNotMain) {
  const int64_t s1 = AppendMain(MakeRows(0, 2, {"a"}));
  const int64_t s2 = AppendMain(MakeRows(10, 2, {"b"}));
  ASSERT_TRUE(table_->SetRef("v1", iceberg::SnapshotRefType::kTag, s1).ok());
  const int64_t staged = AppendStaged("dev", MakeRows(20, 1, {"c"}), "w1", main_);

  auto untagged = table_->RemoveRef("v1");
  ASSERT_TRUE(untagged.ok()) << untagged.status().ToString();
  EXPECT_EQ(untagged->metadata->refs.count("v1"), 0u);
  EXPECT_NE(untagged->metadata->SnapshotById(s1), nullptr);  // the snapshot stays until expiry
  iceberg::TableScanOptions by_tag;
  by_tag.ref = "v1";
  EXPECT_EQ(ScanRows(*table_, by_tag).status().code(), StatusCode::kNotFound);

  auto unbranched = table_->RemoveRef("dev");
  ASSERT_TRUE(unbranched.ok()) << unbranched.status().ToString();
  EXPECT_EQ(unbranched->metadata->refs.count("dev"), 0u);
  EXPECT_NE(unbranched->metadata->SnapshotById(staged), nullptr);
  EXPECT_EQ(unbranched->metadata->current_snapshot_id, s2);  // main untouched
  EXPECT_EQ(ScanRows(*table_).value(), main_);

  auto main = table_->RemoveRef("main");
  ASSERT_EQ(main.status().code(), StatusCode::kInvalidArgument) << main.status().ToString();
  EXPECT_EQ(main.status().message(), "the main branch cannot be removed");
  auto missing = table_->RemoveRef("v1");
  ASSERT_EQ(missing.status().code(), StatusCode::kNotFound) << missing.status().ToString();
  EXPECT_EQ(missing.status().message(), "branch or tag 'v1' does not exist");
  EXPECT_EQ(table_->Refresh().value().metadata->refs.size(), 1u);  // main only
  EXPECT_EQ(Check(), "");
}

// A position delete file for the rows of `file` at `positions`.
iceberg::DataFile PositionDeletes(std::shared_ptr<FileIO> io, const iceberg::TableState& state,
                                  const iceberg::DataFile& file, std::vector<int64_t> positions) {
  const std::string path = JoinLocation(state.metadata->location, StrCat("data/manual-", positions[0], "-deletes.parquet"));
  return iceberg::WritePositionDeleteFile(io, path, file, positions).value();
}

iceberg::DataFile OnlyDataFile(FileIO& io, const iceberg::TableState& state, const std::string& region) {
  auto manifests = iceberg::ReadManifestList(io, state.metadata->current_snapshot()->manifest_list);
  EXPECT_TRUE(manifests.ok()) << manifests.status().ToString();
  if (!manifests.ok()) return {};
  for (const auto& m : *manifests) {
    if (m.content != iceberg::ManifestContent::kData) continue;
    auto reader = iceberg::ManifestReader::Open(io, m);
    auto entries = reader.ok() ? (*reader)->ReadAll() : Result<std::vector<iceberg::ManifestEntry>>(reader.status());
    EXPECT_TRUE(entries.ok()) << entries.status().ToString();
    if (!entries.ok()) continue;
    for (auto& e : *entries) {
      e.data_file.spec_id = m.partition_spec_id;
      if (e.is_live() && e.data_file.file_path.find("region=" + region) != std::string::npos) return e.data_file;
    }
  }
  ADD_FAILURE() << "no data file of region " << region;
  return {};
}

TEST_F(TableSnapshotManagementTest, RowDeltaCommitsDeletesAndValidatesReferencedFiles) {
  const int64_t s1 = AppendMain(MakeRows(0, 8, {"a", "b"}));  // a: ids 0,2,4,6; b: 1,3,5,7
  auto state = table_->Refresh().value();
  const iceberg::DataFile a = OnlyDataFile(*io_, state, "a");
  auto delta = table_->NewRowDelta();
  delta->AddDeletes(PositionDeletes(io_, state, a, {1, 3}));  // ids 2 and 6
  delta->ValidateFromSnapshot(s1);
  delta->ValidateDataFilesExist({a.file_path});
  delta->ValidateDeletedFiles();
  delta->ConflictDetectionFilter(Where("region = 'a'"));
  delta->ValidateNoConflictingDataFiles();
  delta->ValidateNoConflictingDeleteFiles();
  auto committed = delta->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  const iceberg::Snapshot* head = committed->metadata->current_snapshot();
  EXPECT_EQ(head->operation, "delete");  // deletes only
  main_ = ModelOverwrite(main_, RowFilter{"", [](const Row& r) { return r.id == 2 || r.id == 6; }}, {});
  models_[head->snapshot_id] = main_;
  EXPECT_EQ(Check(), "");

  // Rows and deletes together: "overwrite".
  state = table_->Refresh().value();
  const iceberg::DataFile b = OnlyDataFile(*io_, state, "b");
  auto options = iceberg::DataWriterOptions::FromTable(*state.metadata).value();
  auto writer = iceberg::DataFileWriter::Make(io_, *state.metadata, options).value();
  ASSERT_TRUE(writer->Write(MakeBatch(table_->WriteSchema().value(), MakeRows(50, 1, {"b"})).value()).ok());
  auto new_files = writer->Close().value();
  ASSERT_EQ(new_files.size(), 1u);
  auto both = table_->NewRowDelta();
  both->AddRows(new_files[0]);
  both->AddDeletes(PositionDeletes(io_, state, b, {0}));  // id 1
  auto committed2 = both->Commit();
  ASSERT_TRUE(committed2.ok()) << committed2.status().ToString();
  EXPECT_EQ(committed2->metadata->current_snapshot()->operation, "overwrite");
  main_ = ModelOverwrite(ModelAppend(main_, MakeRows(50, 1, {"b"})),
                         RowFilter{"", [](const Row& r) { return r.id == 1; }}, {});
  models_[committed2->metadata->current_snapshot()->snapshot_id] = main_;
  EXPECT_EQ(Check(), "");
}

TEST_F(TableSnapshotManagementTest, RowDeltaFailsWhenItsDataFileWasRemovedConcurrently) {
  const int64_t s1 = AppendMain(MakeRows(0, 8, {"a", "b"}));
  auto state = table_->Refresh().value();
  const iceberg::DataFile a = OnlyDataFile(*io_, state, "a");
  const iceberg::DataFile deletes = PositionDeletes(io_, state, a, {0});
  // Concurrently: the whole partition a goes (an overwrite removing the file).
  auto removed = table_->Overwrite(Where("region = 'a'"), Source(MakeRows(90, 1, {"a"})));
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  main_ = ModelOverwrite(main_, RowFilter{"", [](const Row& r) { return r.region == "a"; }}, MakeRows(90, 1, {"a"}));
  models_[removed->state.metadata->current_snapshot()->snapshot_id] = main_;
  auto delta = table_->NewRowDelta();
  delta->AddDeletes(deletes);
  delta->ValidateFromSnapshot(s1);
  delta->ValidateDataFilesExist({a.file_path});
  auto committed = delta->Commit();
  ASSERT_FALSE(committed.ok());
  EXPECT_EQ(committed.status().code(), StatusCode::kCommitConflict) << committed.status().ToString();
  EXPECT_NE(committed.status().message().find("missing data file"), std::string::npos);
  (void)io_->Delete(deletes.file_path);  // the caller's file
  EXPECT_EQ(Check(), "");
}

}  // namespace
}  // namespace floe::catalog
