// Merge-on-read deletes and overwrites (write.delete.mode /
// write.update.mode = merge-on-read) on a real SqlCatalog, format v2
// (position delete files) and v3 (deletion vectors): the rows left equal a
// model at every snapshot; the delete files are the spec's (Parquet
// file_path/pos with the reserved field ids; one DV per data file, the old
// one removed in the same commit); whole-file matches stay metadata only;
// compaction applies and drops the deletes of the files it rewrites; a
// concurrent delete of the same data file conflicts.

#include <gtest/gtest.h>

#include "catalog/table_test_util.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/iceberg/deletion_vector.h"
#include "floe/iceberg/position_delete_file.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

// The live delete files of a table state's current snapshot.
std::vector<iceberg::DataFile> LiveDeleteFiles(FileIO& io, const iceberg::TableState& state) {
  std::vector<iceberg::DataFile> files;
  const iceberg::Snapshot* head = state.metadata->current_snapshot();
  if (head == nullptr) return files;
  auto manifests = iceberg::ReadManifestList(io, head->manifest_list).value();
  for (const auto& m : manifests) {
    if (m.content != iceberg::ManifestContent::kDeletes) continue;
    auto reader = iceberg::ManifestReader::Open(io, m);
    auto entries = reader.ok() ? (*reader)->ReadAll() : Result<std::vector<iceberg::ManifestEntry>>(reader.status());
    EXPECT_TRUE(entries.ok()) << entries.status().ToString();
    if (!entries.ok()) continue;
    for (auto& e : *entries) {
      if (e.is_live()) files.push_back(e.data_file);
    }
  }
  return files;
}

class TableMergeOnReadTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    catalog_ = OpenSqlCatalog(dir_);
    ASSERT_NE(catalog_, nullptr);
    ASSERT_TRUE(catalog_->CreateNamespace(Ns("db"), {}).ok());
    auto request = RowsTableRequest({{"write.delete.mode", "merge-on-read"}, {"write.update.mode", "merge-on-read"}});
    request.format_version = GetParam();
    auto created = catalog_->CreateTable(Ident(kTableName), request);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    checker_ = OpenSqlCatalog(dir_);
    table_ = std::make_unique<iceberg::Table>(catalog_->NewTableOps(Ident(kTableName)));
  }

  iceberg::BatchSource Source(const Rows& rows) { return SourceFor(*table_, rows).value(); }
  iceberg::ExpressionPtr Where(const std::string& text) { return iceberg::ParseExpression(text).value(); }

  const iceberg::Snapshot& Landed(const iceberg::TableState& state, Rows model) {
    const iceberg::Snapshot* head = state.metadata->current_snapshot();
    EXPECT_NE(head, nullptr);
    model_ = Sorted(std::move(model));
    models_[head->snapshot_id] = model_;
    EXPECT_EQ(CheckTable(*checker_, models_, /*allow_orphans=*/false, *io_), "");
    return *head;
  }

  bool v3() const { return GetParam() >= 3; }

  floe::testing::TempDir dir_;
  std::shared_ptr<FileIO> io_ = NewLocalFileIO();
  std::shared_ptr<SqlCatalog> catalog_;
  std::shared_ptr<SqlCatalog> checker_;
  std::unique_ptr<iceberg::Table> table_;
  Rows model_;
  std::map<int64_t, Rows> models_;
};

TEST_P(TableMergeOnReadTest, DeletesMarkRowsAndKeepDataFiles) {
  const Rows rows = MakeRows(0, 60, {"a", "b", "c"});
  auto appended = table_->Append(Source(rows));
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  Landed(appended->state, rows);

  // Part of every file matches: no data file is rewritten or removed.
  const RowFilter low{"v < 10", [](const Row& r) { return r.v < 10; }};
  auto d1 = table_->Delete(Where(low.text));
  ASSERT_TRUE(d1.ok()) << d1.status().ToString();
  EXPECT_EQ(d1->data_files_removed, 0);
  EXPECT_EQ(d1->data_files_rewritten, 0);
  EXPECT_EQ(d1->data_files_added, 0);
  EXPECT_EQ(d1->rows_deleted, 10);
  EXPECT_EQ(d1->delete_files_added, 3);
  const iceberg::Snapshot& s1 = Landed(d1->state, ModelOverwrite(model_, low, {}));
  EXPECT_EQ(s1.operation, "delete");
  EXPECT_EQ(s1.summary.at("added-delete-files"), "3");
  EXPECT_EQ(s1.summary.at("added-position-deletes"), "10");
  EXPECT_EQ(s1.summary.at(v3() ? "added-dvs" : "added-position-delete-files"), "3");
  EXPECT_EQ(s1.summary.at("total-records"), "60");  // data files unchanged
  EXPECT_EQ(s1.summary.at("total-position-deletes"), "10");

  auto live = LiveDeleteFiles(*io_, d1->state);
  ASSERT_EQ(live.size(), 3u);
  std::set<std::string> referenced;
  for (const auto& f : live) {
    EXPECT_EQ(f.content, iceberg::DataFileContent::kPositionDeletes);
    EXPECT_EQ(f.file_format, v3() ? "PUFFIN" : "PARQUET");
    ASSERT_TRUE(f.referenced_data_file.has_value());
    referenced.insert(*f.referenced_data_file);
    if (!v3()) {
      // spec: file_path and pos with the reserved field ids.
      auto file = parquet::ParquetFileReader::Open(io_, f.file_path).value();
      const auto& nodes = file->schema().nodes();
      ASSERT_EQ(nodes.size(), 3u);
      EXPECT_EQ(nodes[1].name, "file_path");
      EXPECT_EQ(nodes[1].field_id, iceberg::kPositionDeleteFilePathId);
      EXPECT_EQ(nodes[2].name, "pos");
      EXPECT_EQ(nodes[2].field_id, iceberg::kPositionDeletePosId);
      auto positions = iceberg::ReadPositionDeletes(io_, f, *f.referenced_data_file).value();
      EXPECT_EQ(positions.cardinality(), f.record_count);
    } else {
      auto dv = iceberg::ReadDeletionVector(*io_, f).value();
      EXPECT_EQ(dv.cardinality(), f.record_count);
    }
  }
  EXPECT_EQ(referenced.size(), 3u);

  // More rows of the same files: v3 merges into one DV per file and removes the old DVs.
  const RowFilter high{"v >= 55", [](const Row& r) { return r.v >= 55; }};
  auto d2 = table_->Delete(Where(high.text));
  ASSERT_TRUE(d2.ok()) << d2.status().ToString();
  EXPECT_EQ(d2->rows_deleted, 5);
  const iceberg::Snapshot& s2 = Landed(d2->state, ModelOverwrite(model_, high, {}));
  live = LiveDeleteFiles(*io_, d2->state);
  if (v3()) {
    EXPECT_EQ(live.size(), 3u);
    EXPECT_EQ(s2.summary.at("removed-dvs"), "3");
    int64_t deleted = 0;
    for (const auto& f : live) deleted += iceberg::ReadDeletionVector(*io_, f).value().cardinality();
    EXPECT_EQ(deleted, 15);
    EXPECT_EQ(s2.summary.at("total-position-deletes"), "15");
  } else {
    EXPECT_EQ(live.size(), 6u);
    EXPECT_EQ(s2.summary.at("total-position-deletes"), "15");
  }

  // A whole partition: metadata only; the partition's deletes go with its file.
  const RowFilter region_a{"region = 'a'", [](const Row& r) { return r.region == "a"; }};
  auto d3 = table_->Delete(Where(region_a.text));
  ASSERT_TRUE(d3.ok()) << d3.status().ToString();
  EXPECT_EQ(d3->data_files_removed, 1);
  EXPECT_EQ(d3->delete_files_added, 0);
  Landed(d3->state, ModelOverwrite(model_, region_a, {}));
  live = LiveDeleteFiles(*io_, d3->state);
  EXPECT_EQ(live.size(), v3() ? 2u : 4u);
  for (const auto& f : live) EXPECT_EQ(f.referenced_data_file->find("region=a"), std::string::npos);

  // Every remaining row of a file matching drops the file too.
  const RowFilter region_b_rest{"region = 'b' and v >= 10", [](const Row& r) { return r.region == "b" && r.v >= 10; }};
  auto d4 = table_->Delete(Where(region_b_rest.text));
  ASSERT_TRUE(d4.ok()) << d4.status().ToString();
  EXPECT_EQ(d4->data_files_removed, 1);
  Landed(d4->state, ModelOverwrite(model_, region_b_rest, {}));
  EXPECT_EQ(LiveDeleteFiles(*io_, d4->state).size(), v3() ? 1u : 2u);

  // Compaction applies the deletes of the files it rewrites and drops them.
  auto more = table_->Append(Source(MakeRows(1000, 10, {"c"})));
  ASSERT_TRUE(more.ok()) << more.status().ToString();
  Landed(more->state, ModelAppend(model_, MakeRows(1000, 10, {"c"})));
  auto compacted = table_->Compact();
  ASSERT_TRUE(compacted.ok()) << compacted.status().ToString();
  ASSERT_TRUE(compacted->has_value());
  EXPECT_EQ((*compacted)->data_files_rewritten, 2);
  const iceberg::Snapshot& sc = Landed((*compacted)->state, model_);
  EXPECT_EQ(sc.operation, "replace");
  EXPECT_EQ(LiveDeleteFiles(*io_, (*compacted)->state).size(), 0u);
  EXPECT_EQ(sc.summary.at("total-records"), StrCat(model_.size()));
  EXPECT_EQ(sc.summary.at("total-position-deletes"), "0");
}

TEST_P(TableMergeOnReadTest, OverwriteMarksOldRowsAndAddsNewOnes) {
  const Rows rows = MakeRows(0, 30, {"a", "b"});
  auto appended = table_->Append(Source(rows));
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  Landed(appended->state, rows);
  const RowFilter filter{"v < 6", [](const Row& r) { return r.v < 6; }};
  const Rows added = MakeRows(500, 4, {"a", "b"});
  auto o = table_->Overwrite(Where(filter.text), Source(added));
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->data_files_added, 2);
  EXPECT_EQ(o->delete_files_added, 2);
  EXPECT_EQ(o->data_files_rewritten, 0);
  const iceberg::Snapshot& s = Landed(o->state, ModelOverwrite(model_, filter, added));
  EXPECT_EQ(s.operation, "overwrite");
}

TEST_P(TableMergeOnReadTest, ConcurrentDeletesOfOneFileConflict) {
  const Rows rows = MakeRows(0, 20, {"a"});
  auto appended = table_->Append(Source(rows));
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  Landed(appended->state, rows);
  // A second writer deletes from the same file right before this one's swap.
  auto store = std::make_shared<HookedPointerStore>(catalog_);
  auto racing = TableThrough(store, io_);
  bool raced = false;
  store->before_swap = [&](int) {
    if (raced) return;
    raced = true;
    auto other = table_->Delete(Where("v = 3"));
    ASSERT_TRUE(other.ok()) << other.status().ToString();
    models_[other->state.metadata->current_snapshot()->snapshot_id] =
        ModelOverwrite(model_, RowFilter{"", [](const Row& r) { return r.v == 3; }}, {});
  };
  auto mine = racing->Delete(Where("v = 7"));
  ASSERT_FALSE(mine.ok());
  EXPECT_EQ(mine.status().code(), StatusCode::kCommitConflict) << mine.status().ToString();
  EXPECT_EQ(CheckTable(*checker_, models_, /*allow_orphans=*/false, *io_), "");
}

TEST_P(TableMergeOnReadTest, CopyOnWriteOfAFileWithDeletesConflictsWithAConcurrentDelete) {
  const Rows rows = MakeRows(0, 20, {"a"});
  auto appended = table_->Append(Source(rows));
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  Landed(appended->state, rows);
  // Compaction (a rewrite of the file) loses the race against a MoR delete.
  auto small = table_->Append(Source(MakeRows(100, 5, {"a"})));
  ASSERT_TRUE(small.ok());
  Landed(small->state, ModelAppend(model_, MakeRows(100, 5, {"a"})));
  auto store = std::make_shared<HookedPointerStore>(catalog_);
  auto racing = TableThrough(store, io_);
  bool raced = false;
  store->before_swap = [&](int) {
    if (raced) return;
    raced = true;
    auto other = table_->Delete(Where("v = 3"));
    ASSERT_TRUE(other.ok()) << other.status().ToString();
    models_[other->state.metadata->current_snapshot()->snapshot_id] =
        ModelOverwrite(model_, RowFilter{"", [](const Row& r) { return r.v == 3; }}, {});
  };
  auto compacted = racing->Compact();
  ASSERT_FALSE(compacted.ok());
  EXPECT_EQ(compacted.status().code(), StatusCode::kCommitConflict) << compacted.status().ToString();
  EXPECT_EQ(CheckTable(*checker_, models_, /*allow_orphans=*/false, *io_), "");
}

TEST(TableMergeOnReadModeTest, RejectsMergeOnReadOnV1AndUnknownModes) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_TRUE(catalog->CreateNamespace(Ns("db"), {}).ok());
  auto request = RowsTableRequest({{"write.delete.mode", "merge-on-read"}, {"write.update.mode", "sometimes"}});
  request.format_version = 1;
  ASSERT_TRUE(catalog->CreateTable(Ident(kTableName), request).ok());
  iceberg::Table table(catalog->NewTableOps(Ident(kTableName)));
  ASSERT_TRUE(table.Append(SourceFor(table, MakeRows(0, 4, {"a"})).value()).ok());
  auto deleted = table.Delete(iceberg::ParseExpression("v = 1").value());
  ASSERT_FALSE(deleted.ok());
  EXPECT_EQ(deleted.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(deleted.status().message().find("format version 2"), std::string::npos) << deleted.status().ToString();
  auto overwritten = table.Overwrite(iceberg::ParseExpression("v = 1").value(), SourceFor(table, {}).value());
  ASSERT_FALSE(overwritten.ok());
  EXPECT_NE(overwritten.status().message().find("'sometimes'"), std::string::npos) << overwritten.status().ToString();
}

INSTANTIATE_TEST_SUITE_P(FormatVersions, TableMergeOnReadTest, ::testing::Values(2, 3),
                         [](const ::testing::TestParamInfo<int>& info) { return StrCat("v", info.param); });

}  // namespace
}  // namespace floe::catalog
