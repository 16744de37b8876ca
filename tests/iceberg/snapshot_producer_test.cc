#include "floe/iceberg/update/snapshot_producer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <thread>

#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/table_update.h"
#include "floe/iceberg/update/merging_snapshot_producer.h"
#include "floe/iceberg/update/row_delta.h"
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

TEST(SnapshotProducerTest, DeleteManifestsMergeApartFromDataManifests) {
  // As Java's delete merge manager: the same properties, delete manifests
  // merged only with delete manifests, listed after the data manifests,
  // each delete file keeping the sequence number of the commit that added it.
  auto io = NewMemoryFileIO();
  TableMetadata table = NewTable();
  table.properties["commit.manifest.min-count-to-merge"] = "3";
  auto ops = std::make_shared<MemoryTableOperations>(io, table);
  ASSERT_TRUE(Append(ops, {File("data.parquet", 100)}).ok());
  std::map<std::string, int64_t> added_at;  // delete file -> its commit's sequence number
  for (int i = 0; i < 4; ++i) {
    RowDelta delta(ops);
    delta.set_merge_manifests(true);
    DataFile deletes = File("deletes-" + std::to_string(i) + ".parquet", 1);
    deletes.content = DataFileContent::kPositionDeletes;
    const std::string path = deletes.file_path;
    delta.AddDeletes(std::move(deletes));
    auto committed = delta.Commit();
    ASSERT_TRUE(committed.ok()) << committed.status().ToString();
    added_at[path] = committed->metadata->current_snapshot()->sequence_number;
  }
  auto state = ops->Refresh().value();
  const auto manifests = ReadManifestList(*io, state.metadata->current_snapshot()->manifest_list).value();
  size_t data_manifests = 0;
  std::map<std::string, int64_t> live_deletes;
  for (size_t i = 0; i < manifests.size(); ++i) {
    const ManifestFile& m = manifests[i];
    if (m.content == ManifestContent::kData) {
      EXPECT_EQ(i, data_manifests) << "data manifests come first";
      ++data_manifests;
    }
    // Range-for over `.value()` of a temporary Result: safe only because
    // Result::value()&& returns by value (ASan caught the T&& version here).
    for (const auto& e : ManifestReader::Open(*io, m).value()->ReadAll().value()) {
      if (!e.is_live()) continue;
      EXPECT_EQ(e.data_file.content == DataFileContent::kData, m.content == ManifestContent::kData)
          << e.data_file.file_path;
      if (m.content == ManifestContent::kDeletes) live_deletes[e.data_file.file_path] = e.sequence_number.value_or(-1);
    }
  }
  EXPECT_EQ(data_manifests, 1u);
  EXPECT_LT(manifests.size() - data_manifests, 3u) << "the four delete manifests were merged";
  EXPECT_EQ(live_deletes, added_at);
}

TEST(SnapshotProducerTest, MergedManifestsListTheHighestSpecIdFirst) {
  // Java groups manifests by spec id in descending order before merging.
  auto io = NewMemoryFileIO();
  TableMetadata table = NewTable();
  table.partition_specs.push_back(PartitionSpec{1, {}});
  auto ops = std::make_shared<MemoryTableOperations>(io, table);
  ASSERT_TRUE(Append(ops, {File("a.parquet", 1)}).ok());
  DataFile b = File("b.parquet", 2);
  b.spec_id = 1;
  ASSERT_TRUE(Append(ops, {b}).ok());
  MergingSnapshotProducer append(ops, "append");
  append.set_merge_manifests(true);  // min-count-to-merge 100: nothing merges, only the order changes
  append.AddFile(File("c.parquet", 3));
  ASSERT_TRUE(append.Commit().ok());
  const auto state = ops->Refresh().value();
  const auto manifests = ReadManifestList(*io, state.metadata->current_snapshot()->manifest_list).value();
  std::vector<int32_t> specs;
  for (const auto& m : manifests) specs.push_back(m.partition_spec_id);
  EXPECT_EQ(specs, (std::vector<int32_t>{1, 0, 0}));
  EXPECT_EQ(LiveFiles(*io, *state.metadata).size(), 3u);
}

// Java's ManifestMergeManager on commit.manifest.target-size-bytes: seven
// one-file manifests, then an eighth commit that merges. The manifests are
// packed from the oldest into bins of at most the target; every bin of two
// or more merges, except the one holding the new manifest while it has
// fewer than commit.manifest.min-count-to-merge.
class ManifestMergeTargetSizeTest : public ::testing::Test {
 protected:
  // Seven unmerged appends; returns the manifest lengths, newest first.
  std::vector<int64_t> SevenManifests() {
    for (int i = 1; i <= 7; ++i) {
      MergingSnapshotProducer append(ops_, "append");
      append.AddFile(File("f" + std::to_string(i) + ".parquet", i));
      EXPECT_TRUE(append.Commit().ok());
    }
    std::vector<int64_t> lengths;
    for (const auto& m : Listed()) lengths.push_back(m.manifest_length);
    return lengths;
  }
  void SetTableProperties(std::map<std::string, std::string> properties) {
    auto state = ops_->Refresh().value();
    auto updated = ApplyTableChanges(state.metadata.get(), {}, {SetProperties{std::move(properties)}});
    ASSERT_TRUE(updated.ok()) << updated.status().ToString();
    ASSERT_TRUE(ops_->Commit(state, *updated).ok());
  }
  // The eighth append, merging; the head's manifests.
  std::vector<ManifestFile> MergingAppend() {
    MergingSnapshotProducer append(ops_, "append");
    append.set_merge_manifests(true);
    append.AddFile(File("f8.parquet", 8));
    auto committed = append.Commit();
    EXPECT_TRUE(committed.ok()) << committed.status().ToString();
    new_snapshot_ = committed.ok() ? committed->metadata->current_snapshot()->snapshot_id : 0;
    EXPECT_EQ(LiveFiles(*io_, *ops_->Refresh()->metadata).size(), 8u);
    return Listed();
  }
  std::vector<ManifestFile> Listed() {
    return ReadManifestList(*io_, ops_->Refresh()->metadata->current_snapshot()->manifest_list).value();
  }
  // The files a manifest lists, by record count (f<n> has n rows).
  std::vector<int64_t> Files(const ManifestFile& m) {
    std::vector<int64_t> files;
    const auto entries = ManifestReader::Open(*io_, m).value()->ReadAll().value();
    for (const auto& e : entries) {
      files.push_back(e.data_file.record_count);
    }
    return files;
  }

  std::shared_ptr<FileIO> io_ = NewMemoryFileIO();
  std::shared_ptr<MemoryTableOperations> ops_ = std::make_shared<MemoryTableOperations>(io_, NewTable());
  int64_t new_snapshot_ = 0;
};

TEST_F(ManifestMergeTargetSizeTest, OldManifestsMergeInBinsOfTheTargetSize) {
  const std::vector<int64_t> lengths = SevenManifests();
  ASSERT_EQ(lengths.size(), 7u);
  // Lengths differ by a few bytes (snapshot ids): a target of 2.5 of them
  // holds any two and no three.
  const int64_t shortest = *std::min_element(lengths.begin(), lengths.end());
  const int64_t longest = *std::max_element(lengths.begin(), lengths.end());
  const int64_t target = shortest * 5 / 2;
  ASSERT_LE(2 * longest, target);
  ASSERT_GT(3 * shortest, target + longest / 10);
  SetTableProperties({{"commit.manifest.target-size-bytes", std::to_string(target)}});
  // From the oldest: [f1 f2] [f3 f4] [f5 f6] [f7 f8]; the last holds the
  // new manifest and 2 < 100 manifests: it stays as it is.
  const auto listed = MergingAppend();
  ASSERT_EQ(listed.size(), 5u);
  EXPECT_EQ(Files(listed[0]), (std::vector<int64_t>{8}));
  EXPECT_EQ(Files(listed[1]), (std::vector<int64_t>{7}));
  EXPECT_EQ(Files(listed[2]), (std::vector<int64_t>{6, 5}));
  EXPECT_EQ(Files(listed[3]), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(Files(listed[4]), (std::vector<int64_t>{2, 1}));
  for (size_t i = 2; i < 5; ++i) {
    EXPECT_EQ(listed[i].added_snapshot_id, new_snapshot_);
    EXPECT_EQ(listed[i].existing_files_count, 2);
    EXPECT_EQ(listed[i].added_files_count, 0);
  }
  EXPECT_EQ(listed[0].added_files_count, 1);
}

TEST_F(ManifestMergeTargetSizeTest, TheNewManifestsBinMergesFromTheMinimumCount) {
  const std::vector<int64_t> lengths = SevenManifests();
  const int64_t total = std::accumulate(lengths.begin(), lengths.end(), int64_t{0});
  // One bin holds everything: with fewer than 100 manifests nothing merges ...
  SetTableProperties({{"commit.manifest.target-size-bytes", std::to_string(total * 2)}});
  EXPECT_EQ(MergingAppend().size(), 8u);
  // ... and from min-count-to-merge on, all of it merges into one.
  SetTableProperties({{"commit.manifest.min-count-to-merge", "9"}});
  MergingSnapshotProducer append(ops_, "append");
  append.set_merge_manifests(true);
  append.AddFile(File("f9.parquet", 9));
  ASSERT_TRUE(append.Commit().ok());
  const auto listed = Listed();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(Files(listed[0]), (std::vector<int64_t>{9, 8, 7, 6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(listed[0].added_files_count, 1);
  EXPECT_EQ(listed[0].existing_files_count, 8);
}

TEST_F(ManifestMergeTargetSizeTest, ATargetBelowEveryManifestMergesNothing) {
  SevenManifests();
  SetTableProperties({{"commit.manifest.target-size-bytes", "1"}, {"commit.manifest.min-count-to-merge", "2"}});
  EXPECT_EQ(MergingAppend().size(), 8u);
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
