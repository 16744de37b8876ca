// Fault injection at every FileIO call of each table operation, on a real
// SqlCatalog in a temporary folder. Each operation runs once to count its
// calls by kind; then once per call with that call failing — with an
// IOError before it reaches storage; for calls that change storage
// (open_write, close, delete) and for the sync before the swap also after
// it took effect (the response was lost); and for each publish (close) and
// sync also with every delete failing, so nothing can be cleaned up. Every
// operation syncs the files it wrote before its swap, so a failed sync must
// leave the table at the old version with the attempt's files deleted. Every run starts from the same table: the
// catalog's pointer and the table's folder are restored in between.
//
// After each run, loaded afresh through a second catalog object: the table
// is at the old version or at exactly the version the fault-free run
// produced, never anything else; the operation's status says which (OK
// exactly when it landed); the current scan equals the model of that
// version; every file any snapshot reaches exists; and nothing the failed
// operation wrote is left behind, unless a delete failed (the injected
// one, or an expiry's cleanup reporting it in ExpireResult::cleanup).

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "catalog/table_test_util.h"
#include "floe/iceberg/transaction.h"
#include "floe/io/fault_injecting_file_io.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

// What an operation did to the table, independent of the new snapshots' random ids.
struct Outcome {
  std::string metadata_location;
  std::set<int64_t> old_snapshots;  // the starting snapshots still there
  std::vector<int64_t> new_snapshots;
  std::optional<int64_t> head;  // an old snapshot's id, or -1 for a new one
  bool operator==(const Outcome& o) const {
    return old_snapshots == o.old_snapshots && new_snapshots.size() == o.new_snapshots.size() && head == o.head;
  }
};

std::string Describe(const Outcome& o) {
  std::string text = StrCat("old snapshots kept ", o.old_snapshots.size(), ", new ", o.new_snapshots.size(), ", head ");
  return text + (o.head ? StrCat(*o.head) : std::string("none"));
}

class TableFaultInjectionTest : public ::testing::Test {
 protected:
  using Operation = std::function<Status(iceberg::Table&)>;
  using ModelChange = std::function<Rows(const Rows&)>;

  void SetUp() override {
    fault_io_ = std::make_shared<FaultInjectingFileIO>(NewLocalFileIO());
    SqlCatalogOptions options;
    options.database_path = dir_.Join("catalog.db");
    options.warehouse = dir_.Join("warehouse");
    catalog_ = SqlCatalog::Open(options, fault_io_).value();
    CreateRowsTable(*catalog_);
    checker_ = OpenSqlCatalog(dir_);
    ASSERT_NE(checker_, nullptr);
    table_ = std::make_unique<iceberg::Table>(catalog_->NewTableOps(Ident(kTableName)));
    schema_ = table_->WriteSchema().value();  // before any fault: the operations' row sources use it
  }

  // History before the operation under test (no faults).
  void Append(const Rows& rows) {
    auto result = table_->Append(SourceFor(*table_, rows).value());
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    model_ = ModelAppend(model_, rows);
    models_[result->state.metadata->current_snapshot()->snapshot_id] = model_;
  }
  void Delete(const RowFilter& filter) {
    auto result = table_->Delete(iceberg::ParseExpression(filter.text).value());
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    model_ = ModelOverwrite(model_, filter, {});
    models_[result->state.metadata->current_snapshot()->snapshot_id] = model_;
  }

  // Metadata changes before the operation under test (no faults).
  void Change(std::vector<iceberg::TableUpdate> updates) {
    auto result = table_->CommitChanges([&](const iceberg::TableMetadata&)
                                            -> Result<std::pair<std::vector<iceberg::TableRequirement>,
                                                                std::vector<iceberg::TableUpdate>>> {
      return std::make_pair(std::vector<iceberg::TableRequirement>{}, updates);
    });
    ASSERT_TRUE(result.ok()) << result.status().ToString();
  }
  void MergeOnRead() {
    Change({iceberg::SetProperties{{{"write.delete.mode", "merge-on-read"}, {"write.update.mode", "merge-on-read"}}}});
  }

  // Remembers the table as it is now: every run starts from here.
  void Freeze() {
    start_ = catalog_->LoadTable(Ident(kTableName)).value();
    for (const auto& s : start_.metadata->snapshots) start_ids_.insert(s.snapshot_id);
    std::filesystem::copy(dir_.Join("warehouse"), dir_.Join("frozen"), std::filesystem::copy_options::recursive);
  }

  void Restore() {
    const std::string current = catalog_->LoadMetadataLocation(Ident(kTableName)).value();
    if (current != start_.metadata_location) {
      ASSERT_TRUE(catalog_->SwapMetadataLocation(Ident(kTableName), current, start_.metadata_location).ok());
    }
    std::filesystem::remove_all(dir_.Join("warehouse"));
    std::filesystem::copy(dir_.Join("frozen"), dir_.Join("warehouse"), std::filesystem::copy_options::recursive);
  }

  Outcome Observe() {
    Outcome outcome;
    auto state = checker_->LoadTable(Ident(kTableName));
    EXPECT_TRUE(state.ok()) << state.status().ToString();
    if (!state.ok()) return outcome;
    outcome.metadata_location = state->metadata_location;
    for (const auto& s : state->metadata->snapshots) {
      if (start_ids_.count(s.snapshot_id)) {
        outcome.old_snapshots.insert(s.snapshot_id);
      } else {
        outcome.new_snapshots.push_back(s.snapshot_id);
      }
    }
    if (const iceberg::Snapshot* head = state->metadata->current_snapshot()) {
      outcome.head = start_ids_.count(head->snapshot_id) ? head->snapshot_id : -1;
    }
    return outcome;
  }

  // How a run fails the chosen call.
  enum class Mode {
    kFailed,           // IOError before the call reaches storage
    kResponseLost,     // the call takes effect, then IOError
    kFailedNoCleanup,  // as kFailed, and every delete fails too: cleanup cannot happen
  };

  // Runs `operation` from the frozen table, failing the `nth` call of kind
  // `op` (none when nth is 0), and checks what it left. Returns false once a
  // check failed (to stop early).
  bool RunOnce(const Operation& operation, IoOp op, int64_t nth, Mode mode, const std::string& label) {
    Restore();
    fault_io_->ClearRules();
    fault_io_->ResetCounters();
    cleanup_incomplete_ = false;
    const bool faulted = nth > 0;
    if (faulted) {
      FaultRule rule;
      rule.ops = op;
      rule.nth = nth;
      rule.kind = mode == Mode::kResponseLost ? FaultKind::kFailAfter : FaultKind::kFailBefore;
      fault_io_->AddRule(rule);
      if (mode == Mode::kFailedNoCleanup) {
        FaultRule deletes;
        deletes.ops = kIoDelete;
        fault_io_->AddRule(deletes);
      }
    }
    const Status status = operation(*table_);
    const int64_t faults = fault_io_->faults_injected();
    fault_io_->ClearRules();
    const Outcome outcome = Observe();
    const bool landed = outcome.metadata_location != start_.metadata_location;
    bool good = true;
    if (faulted && (mode == Mode::kFailedNoCleanup ? faults < 1 : faults != 1)) {
      ADD_FAILURE() << label << ": " << faults << " faults fired";
      return false;
    }
    if (landed != status.ok()) {
      ADD_FAILURE() << label << ": status " << status.ToString() << " but the commit "
                    << (landed ? "landed" : "did not land");
      good = false;
    }
    if (!status.ok() && status.code() != StatusCode::kIOError) {
      ADD_FAILURE() << label << ": an injected IOError came back as " << status.ToString();
      good = false;
    }
    std::map<int64_t, Rows> models = models_;
    if (landed) {
      if (faulted && !(outcome == expected_)) {
        ADD_FAILURE() << label << ": landed as " << Describe(outcome) << ", the fault-free run as "
                      << Describe(expected_);
        return false;
      }
      for (auto it = models.begin(); it != models.end();) {
        it = outcome.old_snapshots.count(it->first) ? std::next(it) : models.erase(it);
      }
      for (int64_t id : outcome.new_snapshots) models[id] = new_model_;
    }
    // A failed delete may leave the file it was to remove.
    const bool allow_orphans =
        cleanup_incomplete_ || mode == Mode::kFailedNoCleanup || (faulted && op == kIoDelete && mode == Mode::kFailed);
    const std::string problems = CheckTable(*checker_, models, allow_orphans, *local_io_, /*all_snapshots=*/false);
    if (!problems.empty()) {
      ADD_FAILURE() << label << " (status " << status.ToString() << "):" << problems;
      good = false;
    }
    return good;
  }

  // The fault-free run, then one run per call and failure mode.
  void RunEveryFault(const Operation& operation, const ModelChange& change) {
    Freeze();
    new_model_ = change(model_);
    ASSERT_TRUE(RunOnce(operation, kIoAllOps, 0, Mode::kFailed, "fault-free run"));
    expected_ = Observe();
    ASSERT_NE(expected_.metadata_location, start_.metadata_location) << "the fault-free run changed nothing";
    int64_t counts[kIoOpCount];
    for (int i = 0; i < kIoOpCount; ++i) counts[i] = fault_io_->calls(1u << i);
    // Every object the operation published but its metadata JSON (written
    // durable) was synced before the swap, each once.
    EXPECT_EQ(fault_io_->calls(kIoSync), fault_io_->calls(kIoClose) - 1);
    int runs = 0;
    for (int i = 0; i < kIoOpCount; ++i) {
      const auto op = static_cast<IoOp>(1u << i);
      std::vector<Mode> modes = {Mode::kFailed};
      // Calls that change storage may also take effect and lose the answer;
      // a failed publish must also leave a consistent table when nothing
      // can be cleaned up.
      if (op == kIoOpenWrite || op == kIoClose || op == kIoDelete || op == kIoSync) {
        modes.push_back(Mode::kResponseLost);
      }
      if (op == kIoClose || op == kIoSync) modes.push_back(Mode::kFailedNoCleanup);
      for (int64_t k = 1; k <= counts[i]; ++k) {
        for (Mode mode : modes) {
          const char* how = mode == Mode::kFailed         ? " (failed)"
                            : mode == Mode::kResponseLost ? " (done, response lost)"
                                                          : " (failed, and every delete fails)";
          if (!RunOnce(operation, op, k, mode, StrCat(IoOpName(op), " #", k, " of ", counts[i], how))) return;
          ++runs;
        }
      }
    }
    EXPECT_GE(runs, 5);
    std::string summary = StrCat(runs, " faulted runs:");
    for (int i = 0; i < kIoOpCount; ++i) summary += StrCat(" ", IoOpName(static_cast<IoOp>(1u << i)), "=", counts[i]);
    RecordProperty("faults", summary);
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<FaultInjectingFileIO> fault_io_;
  std::shared_ptr<FileIO> local_io_ = NewLocalFileIO();
  std::shared_ptr<SqlCatalog> catalog_;
  std::shared_ptr<SqlCatalog> checker_;
  std::unique_ptr<iceberg::Table> table_;
  std::shared_ptr<const floe::Schema> schema_;
  Rows model_;
  std::map<int64_t, Rows> models_;
  iceberg::TableState start_;
  std::set<int64_t> start_ids_;
  Outcome expected_;
  Rows new_model_;
  bool cleanup_incomplete_ = false;  // an expiry reported files it left behind
};

TEST_F(TableFaultInjectionTest, Append) {
  Append(MakeRows(0, 8, {"a", "b"}));
  const Rows rows = MakeRows(100, 6, {"a", "c"});
  RunEveryFault([&](iceberg::Table& t) { return StatusOf(t.Append(SourceOf(schema_, rows))); },
                [&](const Rows& m) { return ModelAppend(m, rows); });
}

TEST_F(TableFaultInjectionTest, OverwriteCopyOnWrite) {
  Append(MakeRows(0, 8, {"a", "b"}));
  Append(MakeRows(100, 4, {"a"}));
  const RowFilter filter{"v < 3", [](const Row& r) { return r.v < 3; }};
  const Rows rows = MakeRows(200, 3, {"c"});
  RunEveryFault(
      [&](iceberg::Table& t) {
        return StatusOf(t.Overwrite(iceberg::ParseExpression(filter.text).value(), SourceOf(schema_, rows)));
      },
      [&](const Rows& m) { return ModelOverwrite(m, filter, rows); });
}

TEST_F(TableFaultInjectionTest, OverwriteMetadataOnly) {
  Append(MakeRows(0, 8, {"a", "b"}));
  const RowFilter filter{"region = 'b'", [](const Row& r) { return r.region == "b"; }};
  const Rows rows = MakeRows(200, 3, {"b"});
  RunEveryFault(
      [&](iceberg::Table& t) {
        return StatusOf(t.Overwrite(iceberg::ParseExpression(filter.text).value(), SourceOf(schema_, rows)));
      },
      [&](const Rows& m) { return ModelOverwrite(m, filter, rows); });
}

TEST_F(TableFaultInjectionTest, DeleteCopyOnWriteAndMetadataOnly) {
  Append(MakeRows(0, 8, {"a", "b", "c"}));
  // One filter, both ways: partition c goes whole, rows of a are rewritten.
  const RowFilter filter{"region = 'c' or (region = 'a' and v > 2)",
                         [](const Row& r) { return r.region == "c" || (r.region == "a" && r.v > 2); }};
  RunEveryFault([&](iceberg::Table& t) { return StatusOf(t.Delete(iceberg::ParseExpression(filter.text).value())); },
                [&](const Rows& m) { return ModelOverwrite(m, filter, {}); });
}

TEST_F(TableFaultInjectionTest, DeleteMergeOnReadPositionDeletes) {
  MergeOnRead();
  Append(MakeRows(0, 8, {"a", "b"}));
  Delete(RowFilter{"v < 2", [](const Row& r) { return r.v < 2; }});
  // Rows of both files: a position delete file per data file (v2).
  const RowFilter filter{"v > 4", [](const Row& r) { return r.v > 4; }};
  RunEveryFault([&](iceberg::Table& t) { return StatusOf(t.Delete(iceberg::ParseExpression(filter.text).value())); },
                [&](const Rows& m) { return ModelOverwrite(m, filter, {}); });
}

TEST_F(TableFaultInjectionTest, DeleteMergeOnReadDeletionVectors) {
  Change({iceberg::UpgradeFormatVersion{3}});
  MergeOnRead();
  Append(MakeRows(0, 8, {"a", "b"}));
  Delete(RowFilter{"v < 2", [](const Row& r) { return r.v < 2; }});
  // Merges into one DV per data file and removes the old DV in the same commit.
  const RowFilter filter{"v > 4 or region = 'b'", [](const Row& r) { return r.v > 4 || r.region == "b"; }};
  RunEveryFault([&](iceberg::Table& t) { return StatusOf(t.Delete(iceberg::ParseExpression(filter.text).value())); },
                [&](const Rows& m) { return ModelOverwrite(m, filter, {}); });
}

TEST_F(TableFaultInjectionTest, CompactMergeOnReadDeletes) {
  Change({iceberg::UpgradeFormatVersion{3}});
  MergeOnRead();
  Append(MakeRows(0, 4, {"a", "b"}));
  Append(MakeRows(100, 4, {"a", "b"}));
  Delete(RowFilter{"v = 1", [](const Row& r) { return r.v == 1; }});
  RunEveryFault(
      [&](iceberg::Table& t) {
        auto r = t.Compact();
        if (r.ok() && !r->has_value()) return Status::Internal("nothing to compact");
        return r.status();
      },
      [&](const Rows& m) { return m; });
}

TEST_F(TableFaultInjectionTest, TransactionOfSeveralOperations) {
  MergeOnRead();
  Append(MakeRows(0, 6, {"a", "b"}));
  const Rows rows = MakeRows(100, 4, {"a", "c"});
  const RowFilter filter{"v = 2 or id = 101", [](const Row& r) { return r.v == 2 || r.id == 101; }};
  RunEveryFault(
      [&](iceberg::Table& t) -> Status {
        FLOE_ASSIGN_OR_RETURN(auto txn, t.NewTransaction());
        FLOE_RETURN_IF_ERROR(txn->Append(SourceOf(schema_, rows)).status());
        FLOE_RETURN_IF_ERROR(txn->Delete(iceberg::ParseExpression(filter.text).value()).status());
        FLOE_RETURN_IF_ERROR(txn->SetProperties({{"owner", "mor"}}));
        return txn->Commit().status();
      },
      [&](const Rows& m) { return ModelOverwrite(ModelAppend(m, rows), filter, {}); });
}

TEST_F(TableFaultInjectionTest, ReplacePartitions) {
  Append(MakeRows(0, 6, {"a", "b"}));
  const Rows rows = MakeRows(100, 4, {"a", "d"});
  RunEveryFault([&](iceberg::Table& t) { return StatusOf(t.ReplacePartitions(SourceOf(schema_, rows))); },
                [&](const Rows& m) { return ModelReplacePartitions(m, rows); });
}

TEST_F(TableFaultInjectionTest, Compact) {
  Append(MakeRows(0, 4, {"a", "b"}));
  Append(MakeRows(100, 4, {"a", "b"}));
  RunEveryFault(
      [&](iceberg::Table& t) {
        auto r = t.Compact();
        if (r.ok() && !r->has_value()) return Status::Internal("nothing to compact");
        return r.status();
      },
      [&](const Rows& m) { return m; });
}

TEST_F(TableFaultInjectionTest, ExpireSnapshots) {
  Append(MakeRows(0, 4, {"a", "b"}));
  Delete(RowFilter{"region = 'b'", [](const Row& r) { return r.region == "b"; }});
  Append(MakeRows(100, 4, {"a", "c"}));
  const int64_t cutoff = NowMs() + 60'000;
  RunEveryFault(
      [&](iceberg::Table& t) {
        iceberg::ExpireOptions options;
        options.older_than_ms = cutoff;
        options.retain_last = 1;
        auto result = t.ExpireSnapshots(options);
        if (result.ok() && !result->cleanup.ok()) {
          // Committed, but files stayed behind: only for the injected fault.
          EXPECT_EQ(result->cleanup.code(), StatusCode::kIOError) << result->cleanup.ToString();
          cleanup_incomplete_ = true;
        }
        return result.status();
      },
      [&](const Rows& m) { return m; });
}

TEST_F(TableFaultInjectionTest, Rollback) {
  Append(MakeRows(0, 4, {"a"}));
  const int64_t first = table_->Refresh().value().metadata->current_snapshot()->snapshot_id;
  Append(MakeRows(100, 4, {"b"}));
  RunEveryFault([&](iceberg::Table& t) { return t.Rollback(first).status(); }, [&](const Rows& m) { return m; });
}

}  // namespace
}  // namespace floe::catalog
