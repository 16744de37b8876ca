// Compaction (a rewrite) keeps data sequence numbers right, as Java's
// RewriteFiles with a data sequence number: the rewritten files carry the
// sequence number of the snapshot the rewrite started from, so an equality
// delete committed during the rewrite still applies to the rewritten rows
// (and validation lets it pass), while a position delete committed during
// the rewrite names positions in a file the rewrite removes and fails it.
// An overwrite that keeps no sequence number fails on either. v2, on a
// real SqlCatalog; rows checked against the model at every snapshot.

#include <gtest/gtest.h>

#include "catalog/table_test_util.h"
#include "floe/iceberg/data_file_writer.h"
#include "floe/iceberg/position_delete_file.h"
#include "floe/iceberg/row_operations.h"
#include "floe/iceberg/update/row_delta.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

class TableRewriteSequenceNumberTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = OpenSqlCatalog(dir_);
    ASSERT_NE(catalog_, nullptr);
    CreateRowsTable(*catalog_);
    checker_ = OpenSqlCatalog(dir_);
    ops_ = catalog_->NewTableOps(Ident(kTableName));
    table_ = std::make_unique<iceberg::Table>(ops_);
    // Two small files in region a: ids 0..3 (seq 1), 4..7 (seq 2).
    Append(MakeRows(0, 4, {"a"}));
    Append(MakeRows(4, 4, {"a"}));
  }

  void Landed(const iceberg::TableState& state, Rows model) {
    model_ = std::move(model);
    models_[state.metadata->current_snapshot()->snapshot_id] = model_;
  }
  void Append(const Rows& rows) {
    auto r = table_->Append(SourceFor(*table_, rows).value());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    Landed(r->state, ModelAppend(model_, rows));
  }
  static RowFilter Id(int64_t id) {
    return RowFilter{"", [id](const Row& r) { return r.id == id; }};
  }

  // An equality delete file on `id` for the row `row` (written as a whole
  // row: spec, extra columns are allowed), committed as a row delta.
  void CommitEqualityDelete(const Row& row) {
    auto state = table_->Refresh().value();
    auto options = iceberg::DataWriterOptions::FromTable(*state.metadata).value();
    auto writer = iceberg::DataFileWriter::Make(io_, *state.metadata, options).value();
    ASSERT_TRUE(writer->Write(MakeBatch(table_->WriteSchema().value(), {row}).value()).ok());
    auto files = writer->Close().value();
    ASSERT_EQ(files.size(), 1u);
    iceberg::DataFile deletes = files[0];
    deletes.content = iceberg::DataFileContent::kEqualityDeletes;
    deletes.equality_ids = {1};
    deletes.sort_order_id.reset();
    auto delta = table_->NewRowDelta();
    delta->AddDeletes(deletes);
    auto committed = delta->Commit();
    ASSERT_TRUE(committed.ok()) << committed.status().ToString();
    Landed(*committed, ModelOverwrite(model_, Id(row.id), {}));
  }

  // The live data files of the head with their data and file sequence numbers.
  struct Live {
    std::string path;
    int64_t sequence_number;
    int64_t file_sequence_number;
  };
  std::vector<Live> LiveDataFiles() {
    std::vector<Live> live;
    auto state = table_->Refresh().value();
    const auto manifests = iceberg::ReadManifestList(*io_, state.metadata->current_snapshot()->manifest_list).value();
    for (const auto& m : manifests) {
      if (m.content != iceberg::ManifestContent::kData) continue;
      const auto entries = iceberg::ManifestReader::Open(*io_, m).value()->ReadAll().value();
      for (const auto& e : entries) {
        if (e.is_live()) {
          live.push_back({e.data_file.file_path, e.sequence_number.value_or(-1), e.file_sequence_number.value_or(-1)});
        }
      }
    }
    return live;
  }

  std::string Check() { return CheckTable(*checker_, models_, /*allow_orphans=*/false, *io_); }

  floe::testing::TempDir dir_;
  std::shared_ptr<FileIO> io_ = NewLocalFileIO();
  std::shared_ptr<SqlCatalog> catalog_;
  std::shared_ptr<SqlCatalog> checker_;
  std::shared_ptr<iceberg::TableOperations> ops_;
  std::unique_ptr<iceberg::Table> table_;
  Rows model_;
  std::map<int64_t, Rows> models_;
};

TEST_F(TableRewriteSequenceNumberTest, RewrittenFilesKeepTheStartingSnapshotsSequenceNumber) {
  CommitEqualityDelete(Row{1, "a", 1});  // sequence number 3
  auto compacted = table_->Compact();
  ASSERT_TRUE(compacted.ok()) << compacted.status().ToString();
  ASSERT_TRUE(compacted->has_value());
  EXPECT_EQ((*compacted)->data_files_rewritten, 2);
  const iceberg::Snapshot* head = (*compacted)->state.metadata->current_snapshot();
  EXPECT_EQ(head->sequence_number, 4);
  EXPECT_EQ(head->operation, "replace");
  Landed((*compacted)->state, model_);
  // The rows were read with the delete applied and keep sequence number 3:
  // the delete (3) does not apply to them again, and a row with id 1
  // appended later (4 and up) is not deleted either.
  const auto live = LiveDataFiles();
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0].sequence_number, 3);
  EXPECT_EQ(live[0].file_sequence_number, 4);
  Append({Row{1, "a", 99}});
  EXPECT_EQ(ScanRows(*table_).value(), model_);
  EXPECT_EQ(Check(), "");
}

TEST_F(TableRewriteSequenceNumberTest, AnEqualityDeleteCommittedDuringTheRewriteStillApplies) {
  auto start = table_->Refresh().value();
  auto prepared = iceberg::PrepareCompact(ops_, start, 2);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  ASSERT_NE(prepared->producer, nullptr);
  CommitEqualityDelete(Row{2, "a", 2});  // sequence number 3, while the rewrite runs
  auto committed = iceberg::CommitPrepared(std::move(*prepared), *ops_, start);
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->commit.attempts, 2);  // lost the race, revalidated, landed
  Landed(committed->state, model_);          // row 2 stays deleted
  const auto live = LiveDataFiles();
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0].sequence_number, 2);  // the starting snapshot's: below the delete's 3
  EXPECT_EQ(live[0].file_sequence_number, 4);
  EXPECT_EQ(ScanRows(*table_).value(), model_);
  EXPECT_EQ(model_.size(), 7u);
  EXPECT_EQ(Check(), "");
}

TEST_F(TableRewriteSequenceNumberTest, APositionDeleteCommittedDuringTheRewriteFailsIt) {
  auto start = table_->Refresh().value();
  auto prepared = iceberg::PrepareCompact(ops_, start, 2);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  // A position delete of the first append's file at row 0 (id 0), committed meanwhile.
  const int64_t first_append = start.metadata->snapshots.front().snapshot_id;
  iceberg::DataFile data;
  const auto manifests = iceberg::ReadManifestList(*io_, start.metadata->current_snapshot()->manifest_list).value();
  for (const auto& m : manifests) {
    const auto entries = iceberg::ManifestReader::Open(*io_, m).value()->ReadAll().value();
    for (const auto& e : entries) {
      if (e.snapshot_id == first_append) data = e.data_file;
    }
  }
  ASSERT_EQ(data.record_count, 4);
  const std::string path = JoinLocation(start.metadata->location, "data/manual-deletes.parquet");
  auto deletes = iceberg::WritePositionDeleteFile(io_, path, data, {0});
  ASSERT_TRUE(deletes.ok()) << deletes.status().ToString();
  auto delta = table_->NewRowDelta();
  delta->AddDeletes(*deletes);
  auto deleted = delta->Commit();
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  Landed(*deleted, ModelOverwrite(model_, Id(0), {}));

  auto committed = iceberg::CommitPrepared(std::move(*prepared), *ops_, start);
  ASSERT_EQ(committed.status().code(), StatusCode::kCommitConflict) << committed.status().ToString();
  EXPECT_NE(committed.status().message().find("found new delete file"), std::string::npos)
      << committed.status().ToString();
  EXPECT_EQ(ScanRows(*table_).value(), model_);
  EXPECT_EQ(Check(), "");  // the rewrite's files are gone
}

TEST_F(TableRewriteSequenceNumberTest, AnOverwriteOfTheFilesFailsOnAConcurrentEqualityDelete) {
  // Replacing the files without keeping their sequence number would make
  // the delete miss the new file's rows: Java's OverwriteFiles fails.
  auto start = table_->Refresh().value();
  const auto live = LiveDataFiles();
  ASSERT_EQ(live.size(), 2u);
  auto options = iceberg::DataWriterOptions::FromTable(*start.metadata).value();
  auto writer = iceberg::DataFileWriter::Make(io_, *start.metadata, options).value();
  ASSERT_TRUE(writer->Write(MakeBatch(table_->WriteSchema().value(), model_).value()).ok());
  auto files = writer->Close().value();
  iceberg::OverwriteFilesRequest request;
  for (const auto& f : live) request.delete_files.push_back(f.path);
  request.add_files = files;
  request.validate_from_snapshot_id = start.metadata->current_snapshot()->snapshot_id;
  CommitEqualityDelete(Row{3, "a", 3});
  auto overwritten = table_->OverwriteFiles(request);
  ASSERT_EQ(overwritten.status().code(), StatusCode::kCommitConflict) << overwritten.status().ToString();
  EXPECT_NE(overwritten.status().message().find("found new delete file"), std::string::npos)
      << overwritten.status().ToString();
  for (const auto& f : files) ASSERT_TRUE(io_->Delete(f.file_path).ok());  // the caller's files
  EXPECT_EQ(Check(), "");
}

}  // namespace
}  // namespace floe::catalog
