#include "floe/iceberg/update/snapshot_producer.h"

#include <gtest/gtest.h>

#include <thread>

#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/update/merging_snapshot_producer.h"
#include "memory_table_operations.h"

namespace floe::iceberg {
namespace {

using testing::MemoryTableOperations;

TableMetadata NewTable(int format_version = 2) {
  NestedField id;
  id.field_id = 1;
  id.name = "id";
  id.type = Type::Long();
  TableDefinition def;
  def.schema = Schema::Make(0, {id}).value();
  def.location = "mem://wh/db/t";
  def.format_version = format_version;
  def.properties["commit.retry.min-wait-ms"] = "1";
  return NewTableMetadata(def).value();
}

DataFile File(const std::string& name, int64_t rows) {
  DataFile f;
  f.file_path = "mem://wh/db/t/data/" + name;
  f.record_count = rows;
  f.file_size_in_bytes = rows * 10;
  return f;
}

std::vector<std::string> LiveFiles(FileIO& io, const TableMetadata& m) {
  std::vector<std::string> paths;
  const Snapshot* s = m.current_snapshot();
  if (s == nullptr) return paths;
  auto manifests = ReadManifestList(io, s->manifest_list);
  EXPECT_TRUE(manifests.ok());
  if (!manifests.ok()) return paths;
  for (const auto& manifest : *manifests) {
    auto entries = ManifestReader::Open(io, manifest).value()->ReadAll();
    EXPECT_TRUE(entries.ok());
    if (!entries.ok()) continue;
    for (const auto& e : *entries) {
      if (e.is_live()) paths.push_back(e.data_file.file_path);
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

Result<TableState> Append(std::shared_ptr<MemoryTableOperations> ops, std::vector<DataFile> files) {
  MergingSnapshotProducer append(ops, "append");
  for (auto& f : files) append.AddFile(std::move(f));
  return append.Commit();
}

TEST(SnapshotProducerTest, AppendsAssignSequenceNumbersAndTotals) {
  auto io = NewMemoryFileIO();
  auto ops = std::make_shared<MemoryTableOperations>(io, NewTable());
  auto first = Append(ops, {File("a.parquet", 10), File("b.parquet", 5)});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto second = Append(ops, {File("c.parquet", 7)});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  const TableMetadata& m = *second->metadata;
  ASSERT_EQ(m.snapshots.size(), 2u);
  const Snapshot* head = m.current_snapshot();
  EXPECT_EQ(head->sequence_number, 2);
  EXPECT_EQ(head->parent_snapshot_id, m.snapshots[0].snapshot_id);
  EXPECT_EQ(head->operation, "append");
  EXPECT_EQ(head->summary.at("added-data-files"), "1");
  EXPECT_EQ(head->summary.at("total-records"), "22");
  EXPECT_EQ(head->summary.at("total-data-files"), "3");
  EXPECT_EQ(m.last_sequence_number, 2);
  auto manifests = ReadManifestList(*io, head->manifest_list).value();
  ASSERT_EQ(manifests.size(), 2u);  // the new manifest first, then the parent's
  EXPECT_EQ(manifests[0].sequence_number, 2);
  EXPECT_EQ(manifests[1].sequence_number, 1);
  auto entries = ManifestReader::Open(*io, manifests[1]).value()->ReadAll().value();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].sequence_number, 1);  // inherited from the manifest list
  EXPECT_EQ(entries[0].snapshot_id, m.snapshots[0].snapshot_id);
  EXPECT_EQ(LiveFiles(*io, m), (std::vector<std::string>{"mem://wh/db/t/data/a.parquet",
                                                         "mem://wh/db/t/data/b.parquet",
                                                         "mem://wh/db/t/data/c.parquet"}));
}

TEST(SnapshotProducerTest, LostRaceRetriesAndBothAppendsLand) {
  auto io = NewMemoryFileIO();
  auto ops = std::make_shared<MemoryTableOperations>(io, NewTable());
  ASSERT_TRUE(Append(ops, {File("base.parquet", 1)}).ok());
  // Writer A starts from the same base as B; B commits first.
  MergingSnapshotProducer a(ops, "append");
  a.set_starting_state(ops->Refresh().value());
  a.AddFile(File("a.parquet", 2));
  ASSERT_TRUE(Append(ops, {File("b.parquet", 3)}).ok());
  // A's first attempt is made on the stale base it was given.
  auto landed = a.Commit();
  ASSERT_TRUE(landed.ok()) << landed.status().ToString();
  EXPECT_EQ(LiveFiles(*io, *landed->metadata).size(), 3u);
  EXPECT_EQ(landed->metadata->current_snapshot()->summary.at("total-records"), "6");
}

TEST(SnapshotProducerTest, ConcurrentThreadsNeverLoseAnAppend) {
  auto io = NewMemoryFileIO();
  TableMetadata table = NewTable();
  table.properties["commit.retry.num-retries"] = "100";
  auto ops = std::make_shared<MemoryTableOperations>(io, table);
  constexpr int kThreads = 4;
  constexpr int kAppends = 10;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kAppends; ++i) {
        if (!Append(ops, {File("t" + std::to_string(t) + "-" + std::to_string(i) + ".parquet", 1)}).ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  auto state = ops->Refresh().value();
  EXPECT_EQ(state.metadata->snapshots.size(), static_cast<size_t>(kThreads * kAppends));
  EXPECT_EQ(LiveFiles(*io, *state.metadata).size(), static_cast<size_t>(kThreads * kAppends));
  EXPECT_EQ(state.metadata->current_snapshot()->summary.at("total-records"), std::to_string(kThreads * kAppends));
}

TEST(SnapshotProducerTest, DeleteRemovesFilesAndRefusesFilesThatAreNotLive) {
  auto io = NewMemoryFileIO();
  auto ops = std::make_shared<MemoryTableOperations>(io, NewTable());
  ASSERT_TRUE(Append(ops, {File("a.parquet", 10), File("b.parquet", 5)}).ok());
  MergingSnapshotProducer del(ops, "overwrite");
  del.DeleteFile("mem://wh/db/t/data/a.parquet");
  auto deleted = del.Commit();
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  const Snapshot* head = deleted->metadata->current_snapshot();
  EXPECT_EQ(head->operation, "delete");
  EXPECT_EQ(head->summary.at("deleted-data-files"), "1");
  EXPECT_EQ(head->summary.at("deleted-records"), "10");
  EXPECT_EQ(head->summary.at("total-records"), "5");
  EXPECT_EQ(LiveFiles(*io, *deleted->metadata), std::vector<std::string>{"mem://wh/db/t/data/b.parquet"});

  const size_t files_before = io->ListAll("mem://wh/db/t/metadata/")->size();
  MergingSnapshotProducer again(ops, "overwrite");
  again.DeleteFile("mem://wh/db/t/data/a.parquet");
  auto refused = again.Commit();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kCommitConflict);
  EXPECT_NE(refused.status().message().find("a.parquet"), std::string::npos);
  // Nothing the failed commit wrote is left behind.
  EXPECT_EQ(io->ListAll("mem://wh/db/t/metadata/")->size(), files_before);
}

TEST(SnapshotProducerTest, OverwriteFailsWhenAConflictingFileWasAppended) {
  auto io = NewMemoryFileIO();
  auto ops = std::make_shared<MemoryTableOperations>(io, NewTable());
  ASSERT_TRUE(Append(ops, {File("a.parquet", 10)}).ok());
  MergingSnapshotProducer overwrite(ops, "overwrite");
  overwrite.set_starting_state(ops->Refresh().value());
  overwrite.DeleteFile("mem://wh/db/t/data/a.parquet");
  overwrite.AddFile(File("a2.parquet", 9));
  overwrite.ValidateNoConflictingAppends(
      [](const DataFile& file, const PartitionSpec&) -> Result<bool> { return file.file_path.ends_with("c.parquet"); });
  ASSERT_TRUE(Append(ops, {File("c.parquet", 1)}).ok());  // lands first
  auto result = overwrite.Commit();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kCommitConflict);
  EXPECT_NE(result.status().message().find("c.parquet"), std::string::npos);
  EXPECT_EQ(ops->Refresh()->metadata->snapshots.size(), 2u);
}

TEST(SnapshotProducerTest, MergeAppendCombinesSmallManifests) {
  auto io = NewMemoryFileIO();
  TableMetadata table = NewTable();
  table.properties["commit.manifest.min-count-to-merge"] = "3";
  auto ops = std::make_shared<MemoryTableOperations>(io, table);
  for (int i = 0; i < 4; ++i) {
    MergingSnapshotProducer append(ops, "append");
    append.set_merge_manifests(true);
    append.AddFile(File("f" + std::to_string(i) + ".parquet", 1));
    ASSERT_TRUE(append.Commit().ok());
  }
  auto state = ops->Refresh().value();
  auto manifests = ReadManifestList(*io, state.metadata->current_snapshot()->manifest_list).value();
  EXPECT_LT(manifests.size(), 3u);
  EXPECT_EQ(LiveFiles(*io, *state.metadata).size(), 4u);
}

TEST(SnapshotProducerTest, Version1And3Tables) {
  for (int version : {1, 3}) {
    auto io = NewMemoryFileIO();
    auto ops = std::make_shared<MemoryTableOperations>(io, NewTable(version));
    ASSERT_TRUE(Append(ops, {File("a.parquet", 10)}).ok()) << version;
    auto state = Append(ops, {File("b.parquet", 5)});
    ASSERT_TRUE(state.ok()) << state.status().ToString();
    const Snapshot* head = state->metadata->current_snapshot();
    if (version == 1) {
      EXPECT_EQ(head->sequence_number, 0);
    } else {
      EXPECT_EQ(head->first_row_id, 10);
      EXPECT_EQ(head->added_rows, 5);
      EXPECT_EQ(state->metadata->next_row_id, 15);
    }
    EXPECT_EQ(LiveFiles(*io, *state->metadata).size(), 2u);
  }
}

}  // namespace
}  // namespace floe::iceberg
