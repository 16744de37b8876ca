// Races with a deterministic interleaving, on a real SqlCatalog: the
// operation under test commits through a HookedPointerStore that lets
// another writer commit right before the operation's first swap, so the
// swap loses and the operation reloads, re-validates and retries or fails.
// Each case checks the status (and that a conflict is CommitConflict), the
// table against the model at every snapshot, and that a failed operation
// left nothing behind.

#include <gtest/gtest.h>

#include <chrono>

#include "catalog/table_test_util.h"
#include "floe/iceberg/data_file_writer.h"
#include "floe/io/fault_injecting_file_io.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

class TableConflictTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = OpenSqlCatalog(dir_);
    ASSERT_NE(catalog_, nullptr);
    CreateRowsTable(*catalog_);
    store_ = std::make_shared<HookedPointerStore>(catalog_);
    table_ = TableThrough(store_, io_);
    other_ = std::make_unique<iceberg::Table>(catalog_->NewTableOps(Ident(kTableName)));
  }

  iceberg::BatchSource Source(const Rows& rows) { return SourceFor(*other_, rows).value(); }

  void Record(const Result<iceberg::WriteResult>& result, Rows model) {
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    model_ = std::move(model);
    models_[result->state.metadata->current_snapshot()->snapshot_id] = model_;
  }
  // The other writer's operations, recorded in the model.
  void OtherAppend(const Rows& rows) { Record(other_->Append(Source(rows)), ModelAppend(model_, rows)); }
  void OtherDelete(const RowFilter& filter) {
    Record(other_->Delete(Where(filter)), ModelOverwrite(model_, filter, {}));
  }
  void SetProperty(const std::string& key, const std::string& value) {
    auto set = other_->CommitChanges([&](const iceberg::TableMetadata&)
                                         -> Result<std::pair<std::vector<iceberg::TableRequirement>,
                                                             std::vector<iceberg::TableUpdate>>> {
      return std::make_pair(std::vector<iceberg::TableRequirement>{},
                            std::vector<iceberg::TableUpdate>{iceberg::SetProperties{{{key, value}}}});
    });
    ASSERT_TRUE(set.ok()) << set.status().ToString();
  }
  int64_t Head() { return other_->Refresh().value().metadata->current_snapshot()->snapshot_id; }

  // Runs `concurrent` once, right before the first swap of the writer under test.
  void BeforeFirstSwap(std::function<void()> concurrent) {
    store_->before_swap = [concurrent = std::move(concurrent)](int swap) {
      if (swap == 0) concurrent();
    };
  }

  void Check() { EXPECT_EQ(CheckTable(*catalog_, models_, /*allow_orphans=*/false, *io_), ""); }

  floe::testing::TempDir dir_;
  std::shared_ptr<FileIO> io_ = NewLocalFileIO();
  std::shared_ptr<SqlCatalog> catalog_;
  std::shared_ptr<HookedPointerStore> store_;
  std::unique_ptr<iceberg::Table> table_;  // commits through store_
  std::unique_ptr<iceberg::Table> other_;  // commits straight through the catalog
  Rows model_;
  std::map<int64_t, Rows> models_;
};

TEST_F(TableConflictTest, OverwriteFailsWhenAConcurrentAppendAddsRowsItsFilterMatches) {
  OtherAppend(MakeRows(0, 6, {"a", "b"}));
  BeforeFirstSwap([&] { OtherAppend(MakeRows(100, 2, {"b"})); });
  auto result = table_->Overwrite(Where(kRegionB), Source(MakeRows(200, 2, {"b"})));
  ASSERT_EQ(result.status().code(), StatusCode::kCommitConflict) << result.status().ToString();
  EXPECT_NE(result.status().message().find("conflicting file"), std::string::npos) << result.status().ToString();
  EXPECT_EQ(store_->swaps(), 1);  // validation failed before a second swap
  Check();                        // the concurrent append only; the overwrite's files are gone
}

TEST_F(TableConflictTest, UnderSnapshotIsolationAConcurrentAppendUnderTheFilterStands) {
  SetProperty("write.update.isolation-level", "snapshot");
  SetProperty("write.delete.isolation-level", "Snapshot");
  OtherAppend(MakeRows(0, 6, {"a", "b"}));
  const Rows base = model_;
  const Rows concurrent = MakeRows(100, 2, {"b"});
  BeforeFirstSwap([&] { OtherAppend(concurrent); });
  const Rows added = MakeRows(200, 2, {"b"});
  auto overwritten = table_->Overwrite(Where(kRegionB), Source(added));
  // The overwrite replaced what it read; the rows it never saw stay.
  Record(overwritten, ModelAppend(ModelOverwrite(base, kRegionB, added), concurrent));
  EXPECT_EQ(overwritten->commit.attempts, 2);
  EXPECT_EQ(store_->swaps(), 2);

  const Rows before_delete = model_;
  const Rows late = MakeRows(300, 2, {"b"});
  const int next_swap = store_->swaps();
  store_->before_swap = [&, next_swap](int swap) {
    if (swap == next_swap) OtherAppend(late);
  };
  auto deleted = table_->Delete(Where(kRegionB));
  Record(deleted, ModelAppend(ModelOverwrite(before_delete, kRegionB, {}), late));
  EXPECT_EQ(deleted->commit.attempts, 2);
  Check();
}

TEST_F(TableConflictTest, AnUnknownIsolationLevelIsRefusedBeforeWriting) {
  OtherAppend(MakeRows(0, 6, {"a", "b"}));
  SetProperty("write.delete.isolation-level", "repeatable-read");
  auto deleted = table_->Delete(Where(kRegionB));
  ASSERT_EQ(deleted.status().code(), StatusCode::kInvalidArgument) << deleted.status().ToString();
  EXPECT_EQ(deleted.status().message(),
            "table property 'write.delete.isolation-level' is 'repeatable-read', expected 'serializable' or "
            "'snapshot'");
  // Serializable stays the default for overwrites.
  BeforeFirstSwap([&] { OtherAppend(MakeRows(100, 2, {"b"})); });
  auto overwritten = table_->Overwrite(Where(kRegionB), Source(MakeRows(200, 2, {"b"})));
  EXPECT_EQ(overwritten.status().code(), StatusCode::kCommitConflict) << overwritten.status().ToString();
  Check();
}

TEST_F(TableConflictTest, OverwriteRetriesPastAConcurrentAppendElsewhere) {
  OtherAppend(MakeRows(0, 6, {"a", "b"}));
  BeforeFirstSwap([&] { OtherAppend(MakeRows(100, 2, {"c"})); });
  const Rows rows = MakeRows(200, 2, {"b"});
  auto result = table_->Overwrite(Where(kRegionB), Source(rows));
  Record(result, ModelOverwrite(model_, kRegionB, rows));
  EXPECT_EQ(result->commit.attempts, 2);
  EXPECT_EQ(result->commit.conflicts, 1);
  Check();
}

TEST_F(TableConflictTest, ReplacePartitionsFailsWhenAConcurrentAppendAddsToAReplacedPartition) {
  OtherAppend(MakeRows(0, 6, {"a", "b"}));
  BeforeFirstSwap([&] { OtherAppend(MakeRows(100, 2, {"b"})); });
  auto result = table_->ReplacePartitions(Source(MakeRows(200, 2, {"b"})));
  EXPECT_EQ(result.status().code(), StatusCode::kCommitConflict) << result.status().ToString();
  Check();
}

TEST_F(TableConflictTest, CopyOnWriteDeleteFailsWhenAConcurrentDeleteRemovedItsFile) {
  OtherAppend(MakeRows(0, 10, {"a"}));
  BeforeFirstSwap([&] { OtherDelete(RowFilter{"region = 'a'", [](const Row& r) { return r.region == "a"; }}); });
  auto result = table_->Delete(Where(RowFilter{"v > 5", nullptr}));
  EXPECT_EQ(result.status().code(), StatusCode::kCommitConflict) << result.status().ToString();
  EXPECT_NE(result.status().message().find("not a live file"), std::string::npos) << result.status().ToString();
  Check();
}

TEST_F(TableConflictTest, CopyOnWriteDeleteFailsWhenAConcurrentDeleteRewroteItsFile) {
  OtherAppend(MakeRows(0, 10, {"a"}));
  // The rewrite adds a file with rows v > 5 again: a conflicting file, and
  // the file the delete would rewrite is no longer live.
  BeforeFirstSwap([&] { OtherDelete(RowFilter{"v < 2", [](const Row& r) { return r.v < 2; }}); });
  auto result = table_->Delete(Where(RowFilter{"v > 5", nullptr}));
  EXPECT_EQ(result.status().code(), StatusCode::kCommitConflict) << result.status().ToString();
  Check();
}

TEST_F(TableConflictTest, CompactionFailsWhenAConcurrentDeleteRemovedAnInput) {
  OtherAppend(MakeRows(0, 4, {"a"}));
  OtherAppend(MakeRows(100, 4, {"a"}));
  BeforeFirstSwap([&] { OtherDelete(RowFilter{"id = 101", [](const Row& r) { return r.id == 101; }}); });
  auto result = table_->Compact();
  EXPECT_EQ(result.status().code(), StatusCode::kCommitConflict) << result.status().ToString();
  Check();
}

TEST_F(TableConflictTest, CompactionKeepsAConcurrentAppend) {
  OtherAppend(MakeRows(0, 4, {"a"}));
  OtherAppend(MakeRows(100, 4, {"a"}));
  BeforeFirstSwap([&] { OtherAppend(MakeRows(200, 4, {"a"})); });
  auto result = table_->Compact();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_TRUE(result->has_value());
  EXPECT_EQ((*result)->commit.attempts, 2);
  EXPECT_EQ((*result)->data_files_rewritten, 2);  // the appended file was not an input
  Record(**result, model_);
  Check();
}

TEST_F(TableConflictTest, AppendRetriesOnTopOfAConcurrentRollback) {
  OtherAppend(MakeRows(0, 4, {"a"}));
  const int64_t first = Head();
  const Rows first_model = model_;
  OtherAppend(MakeRows(100, 4, {"b"}));
  BeforeFirstSwap([&] { ASSERT_TRUE(other_->Rollback(first).ok()); });
  const Rows rows = MakeRows(200, 2, {"c"});
  auto result = table_->Append(Source(rows));
  Record(result, ModelAppend(first_model, rows));
  EXPECT_EQ(result->state.metadata->current_snapshot()->parent_snapshot_id, first);
  Check();
}

TEST_F(TableConflictTest, OverwriteFailsWhenItsStartingSnapshotWasRolledBack) {
  OtherAppend(MakeRows(0, 4, {"a"}));
  const int64_t first = Head();
  OtherAppend(MakeRows(100, 4, {"b"}));
  BeforeFirstSwap([&] { ASSERT_TRUE(other_->Rollback(first).ok()); });
  auto result = table_->Overwrite(Where(kRegionB), Source(MakeRows(200, 2, {"b"})));
  EXPECT_EQ(result.status().code(), StatusCode::kCommitConflict) << result.status().ToString();
  Check();
}

// The snapshots committed since the overwrite started, the conflicting
// append among them, are expired before it retries: without that history
// the overwrite cannot prove nothing conflicting was added, so it must
// fail rather than silently keep the concurrent rows.
TEST_F(TableConflictTest, OverwriteFailsWhenTheHistorySinceItStartedWasExpired) {
  OtherAppend(MakeRows(0, 6, {"a", "b"}));
  BeforeFirstSwap([&] {
    OtherAppend(MakeRows(100, 2, {"b"}));  // conflicts with the overwrite
    OtherAppend(MakeRows(200, 2, {"c"}));
    iceberg::ExpireOptions expire;
    expire.older_than_ms = NowMs() + 60'000;
    expire.retain_last = 1;
    auto expired = other_->ExpireSnapshots(expire);
    ASSERT_TRUE(expired.ok()) << expired.status().ToString();
    ASSERT_EQ(expired->expired_snapshot_ids.size(), 2u);
    for (int64_t id : expired->expired_snapshot_ids) models_.erase(id);
  });
  auto result = table_->Overwrite(Where(kRegionB), Source(MakeRows(300, 2, {"b"})));
  EXPECT_EQ(result.status().code(), StatusCode::kCommitConflict) << result.status().ToString();
  Check();
}

TEST_F(TableConflictTest, TagRetriesPastAConcurrentAppend) {
  OtherAppend(MakeRows(0, 4, {"a"}));
  const int64_t first = Head();
  BeforeFirstSwap([&] { OtherAppend(MakeRows(100, 4, {"b"})); });
  auto tagged = table_->SetRef("v1", iceberg::SnapshotRefType::kTag, first);
  ASSERT_TRUE(tagged.ok()) << tagged.status().ToString();
  EXPECT_EQ(store_->swaps(), 2);
  EXPECT_EQ(tagged->metadata->refs.at("v1").snapshot_id, first);
  EXPECT_EQ(tagged->metadata->snapshots.size(), 2u);  // the concurrent append is kept
  Check();
}

// Overwrite by files (Java's OverwriteFiles): the data files of region
// `region` of the head, and new files written for `rows` (not committed).
std::vector<std::string> RegionFiles(FileIO& io, const iceberg::TableState& state, const std::string& region) {
  std::vector<std::string> paths;
  const auto manifests = iceberg::ReadManifestList(io, state.metadata->current_snapshot()->manifest_list).value();
  for (const auto& m : manifests) {
    const auto entries = iceberg::ManifestReader::Open(io, m).value()->ReadAll().value();
    for (const auto& e : entries) {
      if (e.is_live() && e.data_file.file_path.find("/region=" + region + "/") != std::string::npos) {
        paths.push_back(e.data_file.file_path);
      }
    }
  }
  return paths;
}

std::vector<iceberg::DataFile> WriteFiles(std::shared_ptr<FileIO> io, iceberg::Table& table, const Rows& rows) {
  auto state = table.Refresh().value();
  auto options = iceberg::DataWriterOptions::FromTable(*state.metadata).value();
  auto writer = iceberg::DataFileWriter::Make(std::move(io), *state.metadata, options).value();
  EXPECT_TRUE(writer->Write(MakeBatch(table.WriteSchema().value(), rows).value()).ok());
  return writer->Close().value();
}

TEST_F(TableConflictTest, OverwriteFilesReplacesFilesAndNamesItsOperationAsJava) {
  OtherAppend(MakeRows(0, 6, {"a", "b"}));
  const auto start = other_->Refresh().value();
  const RowFilter region_a{"region = 'a'", [](const Row& r) { return r.region == "a"; }};
  const Rows new_a = MakeRows(100, 2, {"a"});
  iceberg::OverwriteFilesRequest replace;
  replace.delete_files = RegionFiles(*io_, start, "a");
  ASSERT_EQ(replace.delete_files.size(), 1u);
  replace.add_files = WriteFiles(io_, *other_, new_a);
  auto replaced = table_->OverwriteFiles(replace);
  Record(replaced, ModelOverwrite(model_, region_a, new_a));
  EXPECT_EQ(replaced->state.metadata->current_snapshot()->operation, "overwrite");
  EXPECT_EQ(replaced->data_files_removed, 1);
  EXPECT_EQ(replaced->data_files_added, 1);

  iceberg::OverwriteFilesRequest only_delete;
  only_delete.delete_files = RegionFiles(*io_, other_->Refresh().value(), "b");
  auto deleted = table_->OverwriteFiles(only_delete);
  Record(deleted, ModelOverwrite(model_, kRegionB, {}));
  EXPECT_EQ(deleted->state.metadata->current_snapshot()->operation, "delete");

  iceberg::OverwriteFilesRequest only_add;
  const Rows new_c = MakeRows(200, 2, {"c"});
  only_add.add_files = WriteFiles(io_, *other_, new_c);
  auto added = table_->OverwriteFiles(only_add);
  Record(added, ModelAppend(model_, new_c));
  EXPECT_EQ(added->state.metadata->current_snapshot()->operation, "append");

  EXPECT_EQ(table_->OverwriteFiles({}).status().code(), StatusCode::kInvalidArgument);
  Check();
}

TEST_F(TableConflictTest, OverwriteFilesValidatesNoConflictingDataFromItsBaseSnapshot) {
  OtherAppend(MakeRows(0, 6, {"a", "b"}));
  const auto start = other_->Refresh().value();
  const int64_t base = start.metadata->current_snapshot()->snapshot_id;
  const std::vector<std::string> files_a = RegionFiles(*io_, start, "a");
  const Rows new_a = MakeRows(100, 2, {"a"});
  const auto written = WriteFiles(io_, *other_, new_a);
  auto request = [&](iceberg::ExpressionPtr filter, bool validate) {
    iceberg::OverwriteFilesRequest r;
    r.delete_files = files_a;
    r.add_files = written;
    r.validate_from_snapshot_id = base;
    r.conflict_detection_filter = std::move(filter);
    r.validate_no_conflicting_data = validate;
    return r;
  };
  OtherAppend(MakeRows(300, 2, {"c"}));  // after the base: data in region c
  // No filter: any data added since the base conflicts (Java's alwaysTrue).
  auto any = table_->OverwriteFiles(request(nullptr, true));
  ASSERT_EQ(any.status().code(), StatusCode::kCommitConflict) << any.status().ToString();
  EXPECT_NE(any.status().message().find("conflicting file"), std::string::npos) << any.status().ToString();
  // A filter: only data it may match conflicts.
  OtherAppend(MakeRows(400, 2, {"a"}));
  auto filtered = table_->OverwriteFiles(request(Where(RowFilter{"region = 'a'", nullptr}), true));
  ASSERT_EQ(filtered.status().code(), StatusCode::kCommitConflict) << filtered.status().ToString();
  EXPECT_NE(filtered.status().message().find("region=a"), std::string::npos) << filtered.status().ToString();
  const RowFilter first_a{"", [](const Row& r) { return r.region == "a" && r.id < 100; }};
  Record(table_->OverwriteFiles(request(Where(RowFilter{"region = 'b'", nullptr}), true)),
         ModelOverwrite(model_, first_a, new_a));
  Check();
}

TEST_F(TableConflictTest, OverwriteFilesWithoutDataValidationLetsConcurrentRowsStand) {
  OtherAppend(MakeRows(0, 6, {"a", "b"}));
  const auto start = other_->Refresh().value();
  iceberg::OverwriteFilesRequest request;
  request.delete_files = RegionFiles(*io_, start, "a");
  const Rows new_a = MakeRows(100, 2, {"a"});
  request.add_files = WriteFiles(io_, *other_, new_a);
  request.validate_from_snapshot_id = start.metadata->current_snapshot()->snapshot_id;
  request.validate_no_conflicting_data = false;
  OtherAppend(MakeRows(400, 2, {"a"}));
  const RowFilter first_a{"", [](const Row& r) { return r.region == "a" && r.id < 100; }};
  Record(table_->OverwriteFiles(request), ModelOverwrite(model_, first_a, new_a));
  Check();
}

TEST_F(TableConflictTest, OverwriteFilesFailsWhenAFileToDeleteIsNoLongerLive) {
  OtherAppend(MakeRows(0, 6, {"a", "b"}));
  iceberg::OverwriteFilesRequest request;
  request.delete_files = RegionFiles(*io_, other_->Refresh().value(), "b");
  BeforeFirstSwap([&] { OtherDelete(kRegionB); });
  auto result = table_->OverwriteFiles(request);
  ASSERT_EQ(result.status().code(), StatusCode::kCommitConflict) << result.status().ToString();
  EXPECT_NE(result.status().message().find("not a live file"), std::string::npos) << result.status().ToString();
  Check();
}

// A writer that loses every race: commit.retry.num-retries 3 makes four
// attempts, then CommitConflict; the table is unchanged and everything the
// append wrote — manifests, manifest lists, metadata files and its own data
// files (Table::Append wrote them: it cleans up as Spark's aborted write
// does) — is gone.
TEST_F(TableConflictTest, AWriterThatKeepsLosingGivesUpAfterNumRetriesPlusOneAttempts) {
  OtherAppend(MakeRows(0, 4, {"a"}));
  SetProperty("commit.retry.num-retries", "3");
  const std::string before = other_->Refresh().value().metadata_location;
  store_->later = HookedPointerStore::Swap::kConflict;
  auto result = table_->Append(Source(MakeRows(100, 2, {"b"})));
  ASSERT_EQ(result.status().code(), StatusCode::kCommitConflict) << result.status().ToString();
  EXPECT_EQ(result.status().message(),
            "table db.t: commit failed after 4 attempts: injected: another writer moved the pointer");
  EXPECT_EQ(store_->swaps(), 4);
  EXPECT_EQ(other_->Refresh().value().metadata_location, before);
  Check();  // no orphans
}

// commit.retry.total-timeout-ms 0 stops after the second attempt: Java's
// Tasks always retries the first failure. AppendFiles leaves the caller's
// data files (Java: the files an AppendFiles was given are the caller's to
// retry with or delete); the caller's retry with them then lands.
TEST_F(TableConflictTest, OutOfTimeTheCallersFilesStayForItsRetry) {
  OtherAppend(MakeRows(0, 4, {"a"}));
  SetProperty("commit.retry.num-retries", "1000");
  SetProperty("commit.retry.total-timeout-ms", "0");
  auto state = other_->Refresh().value();
  auto options = iceberg::DataWriterOptions::FromTable(*state.metadata).value();
  auto writer = iceberg::DataFileWriter::Make(io_, *state.metadata, options).value();
  const Rows rows = MakeRows(100, 2, {"b"});
  ASSERT_TRUE(writer->Write(MakeBatch(other_->WriteSchema().value(), rows).value()).ok());
  auto files = writer->Close().value();
  ASSERT_EQ(files.size(), 1u);
  store_->later = HookedPointerStore::Swap::kConflict;
  auto failed = table_->AppendFiles(files);
  ASSERT_EQ(failed.status().code(), StatusCode::kCommitConflict) << failed.status().ToString();
  EXPECT_NE(failed.status().message().find("after 2 attempts"), std::string::npos) << failed.status().ToString();
  EXPECT_EQ(store_->swaps(), 2);
  EXPECT_EQ(other_->Refresh().value().metadata_location, state.metadata_location);
  // Only the caller's data file is left beside the table's own files.
  const TableFiles reachable = WalkTable(*io_, other_->Refresh().value());
  EXPECT_EQ(Orphans(*io_, other_->Refresh().value(), reachable), (std::vector<std::string>{files[0].file_path}));

  store_->later = HookedPointerStore::Swap::kNormal;
  Record(table_->AppendFiles(files), ModelAppend(model_, rows));
  Check();
}

// The reload after a lost race fails: the operation ends with that error
// and removes everything its attempts wrote.
TEST_F(TableConflictTest, AFailedReloadAfterALostRaceLeavesNothingBehind) {
  OtherAppend(MakeRows(0, 4, {"a"}));
  auto faults = std::make_shared<FaultInjectingFileIO>(io_);
  auto table = TableThrough(store_, faults);
  BeforeFirstSwap([&] {
    OtherAppend(MakeRows(100, 2, {"b"}));
    FaultRule reload;  // the next metadata file read: the producer's reload
    reload.ops = kIoOpenRead;
    reload.path_glob = "*.metadata.json";
    reload.nth = 1;
    faults->AddRule(reload);
  });
  auto result = table->Append(SourceFor(*other_, MakeRows(200, 2, {"c"})).value());
  EXPECT_EQ(result.status().code(), StatusCode::kIOError) << result.status().ToString();
  EXPECT_EQ(faults->faults_injected(), 1);
  Check();
}

}  // namespace
}  // namespace floe::catalog
