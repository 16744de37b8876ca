// Every commit path makes the files its new snapshot references durable
// before the catalog's pointer swap: a recording FileIO logs, in order, each
// published object, each FileIO::MakeDurable call and each swap (a
// HookedPointerStore on a real SqlCatalog). For append, overwrite and delete
// (copy-on-write), merge-on-read deletes (position deletes, deletion
// vectors), a row delta, replace partitions, compaction, a transaction and
// a multi-table transaction: every manifest list, manifest and data or
// delete file the new snapshot adds was synced before the swap that
// published it, each exactly once; everything floe published but the
// metadata JSON (written durable itself) was synced. A retry after a lost
// race syncs only its new metadata files.

#include <gtest/gtest.h>

#include <mutex>

#include "catalog/table_test_util.h"
#include "floe/catalog/table_transactions.h"
#include "floe/iceberg/position_delete_file.h"
#include "floe/iceberg/transaction.h"
#include "floe/iceberg/update/row_delta.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

struct Event {
  enum Kind { kPut, kSync, kSwap } kind;
  std::vector<std::string> paths;
};

// Logs published objects and MakeDurable calls, in order, and forwards.
class RecordingFileIO final : public FileIO {
 public:
  explicit RecordingFileIO(std::shared_ptr<FileIO> base) : base_(std::move(base)) {}

  void Note(Event event) {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
  }
  std::vector<Event> events() const {
    std::lock_guard lock(mutex_);
    return events_;
  }
  void Clear() {
    std::lock_guard lock(mutex_);
    events_.clear();
  }

  std::string_view scheme() const override { return base_->scheme(); }
  Result<FileInfo> Stat(const std::string& path) override { return base_->Stat(path); }
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path,
                                                     const OpenReadOptions& options) override {
    return base_->OpenRead(path, options);
  }
  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options) override {
    FLOE_ASSIGN_OR_RETURN(auto out, base_->OpenWrite(path, options));
    return std::unique_ptr<OutputStream>(std::make_unique<Stream>(this, std::move(out)));
  }
  Status Delete(const std::string& path) override { return base_->Delete(path); }
  Result<ListPage> List(const std::string& prefix, const ListOptions& options) override {
    return base_->List(prefix, options);
  }
  Status MakeDurable(std::span<const std::string> paths) override {
    FLOE_RETURN_IF_ERROR(base_->MakeDurable(paths));
    Note(Event{Event::kSync, std::vector<std::string>(paths.begin(), paths.end())});
    return Status::OK();
  }

 private:
  class Stream final : public OutputStream {
   public:
    Stream(RecordingFileIO* io, std::unique_ptr<OutputStream> base) : io_(io), base_(std::move(base)) {}
    const std::string& path() const override { return base_->path(); }
    Status Append(std::span<const uint8_t> data) override { return base_->Append(data); }
    Status Close() override {
      FLOE_RETURN_IF_ERROR(base_->Close());
      io_->Note(Event{Event::kPut, {path()}});
      return Status::OK();
    }
    void Abort() override { base_->Abort(); }
    int64_t bytes_written() const override { return base_->bytes_written(); }

   private:
    RecordingFileIO* io_;
    std::unique_ptr<OutputStream> base_;
  };

  std::shared_ptr<FileIO> base_;
  mutable std::mutex mutex_;
  std::vector<Event> events_;  // guarded by mutex_
};

int64_t SyncCalls(const std::vector<Event>& events) {
  return std::count_if(events.begin(), events.end(), [](const Event& e) { return e.kind == Event::kSync; });
}

bool IsMetadataJson(const std::string& path) { return EndsWith(path, ".metadata.json"); }

// The files the snapshots of `after` that `before` lacks added themselves:
// their manifest lists, the manifests they wrote, the files those add. With
// `ours`, only snapshots whose manifest list it holds (not a racing
// writer's).
std::set<std::string> FilesAdded(FileIO& io, const iceberg::TableMetadata& before, const iceberg::TableMetadata& after,
                                 const std::set<std::string>* ours = nullptr) {
  std::set<std::string> files;
  for (const iceberg::Snapshot& s : after.snapshots) {
    if (before.SnapshotById(s.snapshot_id) != nullptr) continue;
    if (ours != nullptr && ours->count(s.manifest_list) == 0) continue;
    files.insert(s.manifest_list);
    auto manifests = iceberg::ReadManifestList(io, s.manifest_list);
    EXPECT_TRUE(manifests.ok()) << manifests.status().ToString();
    if (!manifests.ok()) continue;
    for (const iceberg::ManifestFile& m : *manifests) {
      if (m.added_snapshot_id != s.snapshot_id) continue;
      files.insert(m.manifest_path);
      auto entries = iceberg::ManifestReader::Open(io, m).value()->ReadAll();
      EXPECT_TRUE(entries.ok()) << entries.status().ToString();
      if (!entries.ok()) continue;
      for (const auto& e : *entries) {
        if (e.status == iceberg::ManifestEntryStatus::kAdded) files.insert(e.data_file.file_path);
      }
    }
  }
  return files;
}

class DurableCommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    io_ = std::make_shared<RecordingFileIO>(NewLocalFileIO());
    SqlCatalogOptions options;
    options.database_path = dir_.Join("catalog.db");
    options.warehouse = dir_.Join("warehouse");
    catalog_ = SqlCatalog::Open(options, io_).value();
    CreateRowsTable(*catalog_);
    store_ = std::make_shared<HookedPointerStore>(catalog_);
    store_->before_swap = [this](int index) {
      if (index == race_at_swap_) {
        // Another writer wins the race just before this swap.
        auto other = OpenSqlCatalog(dir_);
        iceberg::Table table(other->NewTableOps(Ident(kTableName)));
        auto won = table.Append(SourceFor(table, MakeRows(900, 2, {"z"})).value());
        EXPECT_TRUE(won.ok()) << won.status().ToString();
      }
      io_->Note(Event{Event::kSwap, {}});
    };
    table_ = TableThrough(store_, io_);
    Append(MakeRows(0, 8, {"a", "b"}));
    Append(MakeRows(100, 4, {"a"}));
  }

  void Append(const Rows& rows) {
    auto r = table_->Append(SourceFor(*table_, rows).value());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  // Runs `operation` and checks the order of what it published, synced and
  // swapped. Returns the syncs of each attempt (those before its swap).
  std::vector<std::vector<std::string>> Check(const std::function<Status()>& operation) {
    const iceberg::TableState before = table_->Refresh().value();
    io_->Clear();
    const Status status = operation();
    EXPECT_TRUE(status.ok()) << status.ToString();
    const iceberg::TableState after = table_->Refresh().value();
    EXPECT_NE(after.metadata_location, before.metadata_location);
    const std::vector<Event> events = io_->events();

    std::vector<std::vector<std::string>> attempts(1);
    std::set<std::string> synced;
    std::set<std::string> published;
    for (const Event& e : events) {
      if (e.kind == Event::kSwap) {
        attempts.emplace_back();
        continue;
      }
      for (const auto& p : e.paths) {
        if (e.kind == Event::kPut) {
          published.insert(p);
          continue;
        }
        EXPECT_TRUE(synced.insert(p).second) << p << " synced twice";
        EXPECT_TRUE(published.count(p)) << p << " synced before it was published";
        attempts.back().push_back(p);
      }
    }
    attempts.pop_back();  // after the last swap: nothing may be synced
    EXPECT_FALSE(attempts.empty()) << "no swap";
    if (!events.empty()) {
      EXPECT_EQ(events.back().kind, Event::kSwap) << "I/O after the landed swap";
    }
    // Every file the new snapshot adds reached the disk before the swap.
    const std::set<std::string> added = FilesAdded(*io_, *before.metadata, *after.metadata, &published);
    EXPECT_GE(added.size(), 3u);  // a list, a manifest, a file
    for (const auto& path : added) EXPECT_TRUE(synced.count(path)) << path << " was not synced before the swap";
    // And nothing floe published but the metadata JSON was left unsynced.
    for (const auto& path : published) {
      if (!IsMetadataJson(path)) {
        EXPECT_TRUE(synced.count(path)) << path << " published but never synced";
      }
    }
    return attempts;
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<RecordingFileIO> io_;
  std::shared_ptr<SqlCatalog> catalog_;
  std::shared_ptr<HookedPointerStore> store_;
  std::unique_ptr<iceberg::Table> table_;
  int race_at_swap_ = -1;
};

iceberg::ExpressionPtr Filter(const std::string& text) { return iceberg::ParseExpression(text).value(); }

void MergeOnRead(iceberg::Table& table, int format_version) {
  auto r = table.CommitChanges([&](const iceberg::TableMetadata&)
                                   -> Result<std::pair<std::vector<iceberg::TableRequirement>,
                                                       std::vector<iceberg::TableUpdate>>> {
    std::vector<iceberg::TableUpdate> updates = {
        iceberg::SetProperties{{{"write.delete.mode", "merge-on-read"}, {"write.update.mode", "merge-on-read"}}}};
    if (format_version > 2) updates.push_back(iceberg::UpgradeFormatVersion{format_version});
    return std::make_pair(std::vector<iceberg::TableRequirement>{}, std::move(updates));
  });
  ASSERT_TRUE(r.ok()) << r.status().ToString();
}

TEST_F(DurableCommitTest, AppendSyncsItsDataFilesManifestAndListInOneCallBeforeTheSwap) {
  auto attempts = Check([&] { return table_->Append(SourceFor(*table_, MakeRows(200, 6, {"a", "c"})).value()).status(); });
  ASSERT_EQ(attempts.size(), 1u);
  // Two data files (two partitions), one manifest, one list.
  EXPECT_EQ(attempts[0].size(), 4u);
  EXPECT_EQ(SyncCalls(io_->events()), 1);
}

TEST_F(DurableCommitTest, OverwriteAndDeleteCopyOnWrite) {
  Check([&] { return table_->Overwrite(Filter("v < 3"), SourceFor(*table_, MakeRows(300, 3, {"c"})).value()).status(); });
  // Rewrites the region-a file holding v 4 and 6 without the 6.
  Check([&] { return table_->Delete(Filter("region = 'a' and v > 4")).status(); });
}

TEST_F(DurableCommitTest, MergeOnReadPositionDeletesAndDeletionVectors) {
  MergeOnRead(*table_, 2);
  Check([&] { return table_->Delete(Filter("v > 4")).status(); });
  MergeOnRead(*table_, 3);
  Check([&] { return table_->Delete(Filter("v = 1")).status(); });
}

TEST_F(DurableCommitTest, RowDeltaOfAPositionDeleteFile) {
  const iceberg::TableState state = table_->Refresh().value();
  auto manifests = iceberg::ReadManifestList(*io_, state.metadata->current_snapshot()->manifest_list).value();
  auto entries = iceberg::ManifestReader::Open(*io_, manifests.front()).value()->ReadAll().value();
  const iceberg::DataFile& target = entries.front().data_file;
  Check([&]() -> Status {
    const std::string path = state.metadata->location + "/data/row-delta-deletes.parquet";
    FLOE_ASSIGN_OR_RETURN(auto deletes, iceberg::WritePositionDeleteFile(io_, path, target, {0}));
    auto delta = table_->NewRowDelta();
    delta->AddDeletes(std::move(deletes));
    delta->ValidateDataFilesExist({target.file_path});
    return delta->Commit().status();
  });
}

TEST_F(DurableCommitTest, ReplacePartitionsAndCompaction) {
  Check([&] { return table_->ReplacePartitions(SourceFor(*table_, MakeRows(400, 2, {"b"})).value()).status(); });
  Check([&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto compacted, table_->Compact());
    return compacted.has_value() ? Status::OK() : Status::Internal("nothing to compact");
  });
}

TEST_F(DurableCommitTest, TransactionSyncsEveryOperationsFilesInOneCall) {
  auto attempts = Check([&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto txn, table_->NewTransaction());
    FLOE_RETURN_IF_ERROR(txn->Append(SourceFor(*table_, MakeRows(500, 4, {"a", "d"})).value()).status());
    FLOE_RETURN_IF_ERROR(txn->Overwrite(Filter("v = 2"), SourceFor(*table_, MakeRows(600, 1, {"a"})).value()).status());
    FLOE_RETURN_IF_ERROR(txn->SetProperties({{"owner", "durable"}}));
    return txn->Commit().status();
  });
  ASSERT_EQ(attempts.size(), 1u);
  EXPECT_EQ(SyncCalls(io_->events()), 1);
}

// A retry re-syncs nothing of the first attempt: only its own manifest list
// (and manifests it had to rewrite), never the data files.
void ExpectRetrySyncsOnlyNewMetadata(const std::vector<std::vector<std::string>>& attempts) {
  ASSERT_EQ(attempts.size(), 2u);
  bool first_has_data = false;
  for (const auto& p : attempts[0]) first_has_data |= p.find("/data/") != std::string::npos;
  EXPECT_TRUE(first_has_data);
  ASSERT_FALSE(attempts[1].empty());
  bool has_list = false;
  for (const auto& p : attempts[1]) {
    EXPECT_NE(p.find("/metadata/"), std::string::npos) << p;
    EXPECT_TRUE(EndsWith(p, ".avro")) << p;
    has_list |= p.find("/metadata/snap-") != std::string::npos && p.find("-2-") != std::string::npos;
  }
  EXPECT_TRUE(has_list) << "the retry's manifest list was not synced";
}

TEST_F(DurableCommitTest, ARetryAfterALostRaceSyncsOnlyItsNewMetadataFiles) {
  race_at_swap_ = store_->swaps();
  auto attempts =
      Check([&] { return table_->Append(SourceFor(*table_, MakeRows(700, 4, {"a", "e"})).value()).status(); });
  ExpectRetrySyncsOnlyNewMetadata(attempts);
  ASSERT_EQ(attempts[1].size(), 1u);  // an append reuses its manifests: only the new list
}

TEST_F(DurableCommitTest, AnOverwriteRetrySyncsOnlyItsNewMetadataFiles) {
  race_at_swap_ = store_->swaps();
  auto attempts = Check([&] {
    return table_->Overwrite(Filter("region = 'b'"), SourceFor(*table_, MakeRows(800, 2, {"b"})).value()).status();
  });
  ExpectRetrySyncsOnlyNewMetadata(attempts);
}

TEST_F(DurableCommitTest, ATransactionRetrySyncsOnlyItsNewMetadataFiles) {
  race_at_swap_ = store_->swaps();
  auto attempts = Check([&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto txn, table_->NewTransaction());
    FLOE_RETURN_IF_ERROR(txn->Append(SourceFor(*table_, MakeRows(500, 4, {"a", "d"})).value()).status());
    FLOE_RETURN_IF_ERROR(txn->Delete(Filter("v = 3")).status());
    return txn->Commit().status();
  });
  ExpectRetrySyncsOnlyNewMetadata(attempts);
}

TEST_F(DurableCommitTest, MultiTableTransactionSyncsBothTablesBeforeTheirMetadata) {
  auto created = catalog_->CreateTable(Ident("db.u"), RowsTableRequest());
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  iceberg::Table u(catalog_->NewTableOps(Ident("db.u")));
  iceberg::Table t(catalog_->NewTableOps(Ident(kTableName)));
  const auto t_before = t.Refresh().value().metadata;
  auto t_txn = t.NewTransaction().value();
  auto u_txn = u.NewTransaction().value();
  ASSERT_TRUE(t_txn->Append(SourceFor(t, MakeRows(100, 3, {"a"})).value()).ok());
  ASSERT_TRUE(u_txn->Append(SourceFor(u, MakeRows(100, 2, {"y"})).value()).ok());
  io_->Clear();
  auto committed = CommitTableTransactions(
      *catalog_, {TableTransaction{Ident(kTableName), t_txn.get()}, TableTransaction{Ident("db.u"), u_txn.get()}});
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  // The SQL transaction swaps both pointers after writing both metadata
  // files: every sync comes before the first of them.
  std::set<std::string> synced;
  bool metadata_written = false;
  for (const Event& e : io_->events()) {
    if (e.kind == Event::kSync) {
      EXPECT_FALSE(metadata_written) << "a sync after a metadata file";
      synced.insert(e.paths.begin(), e.paths.end());
    } else if (e.kind == Event::kPut) {
      metadata_written |= IsMetadataJson(e.paths[0]);
    }
  }
  EXPECT_TRUE(metadata_written);
  const iceberg::TableMetadata* bases[] = {t_before.get(), created->metadata.get()};
  for (size_t i = 0; i < 2; ++i) {
    const std::set<std::string> added = FilesAdded(*io_, *bases[i], *(*committed)[i].metadata);
    EXPECT_GE(added.size(), 3u);
    for (const auto& path : added) EXPECT_TRUE(synced.count(path)) << path << " was not synced";
  }
}

}  // namespace
}  // namespace floe::catalog
