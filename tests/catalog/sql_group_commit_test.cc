// The SQL catalog's group commit (catalog/sql_group_commit.h) on SQLite: many
// threads swapping pointers of one SqlCatalog at once, on distinct tables and
// on one table, with and without faults in the batch's statements and COMMIT.
// The invariant checked everywhere: a swap answered OK is in the database, a
// swap answered with an error is not (except CommitStateUnknown, which says
// it cannot tell), and a lost race is a kSwapLost conflict.

#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "catalog_test_util.h"
#include "floe/base/strings.h"
#include "floe/catalog/sqlite.h"

namespace floe::catalog {
namespace {

using testing::Ident;
using testing::Ns;

// Faults shared by every connection of a FaultySqliteBackend.
struct Faults {
  std::atomic<int> commit_delay_ms{0};  // before each COMMIT: lets writers queue behind it
  std::atomic<bool> fail_commit{false};  // COMMIT rolled back, reported as a known failure
  std::atomic<bool> lose_commit{false};  // COMMIT applied, reported as unknown
  // An UPDATE binding this text fails and takes the transaction with it (as
  // SQLite's I/O errors do).
  std::string poison;
  std::atomic<int> commits{0};  // COMMITs sent to SQLite
};

class FaultyConnection final : public SqlConnection {
 public:
  FaultyConnection(std::unique_ptr<SqlConnection> inner, Faults* faults)
      : inner_(std::move(inner)), faults_(faults) {}

  Result<SqlRows> Query(std::string_view sql, const SqlParams& params) override { return inner_->Query(sql, params); }
  Result<int64_t> Execute(std::string_view sql, const SqlParams& params) override {
    for (const SqlParam& param : params) {
      if (!faults_->poison.empty() && param && *param == faults_->poison) {
        inner_->Rollback();
        return Status::IOError("injected: disk I/O error");
      }
    }
    return inner_->Execute(sql, params);
  }
  Status ExecScript(std::string_view sql) override { return inner_->ExecScript(sql); }
  Status Begin(SqlLock lock) override { return inner_->Begin(lock); }
  Status Commit(bool* outcome_unknown) override {
    if (const int ms = faults_->commit_delay_ms.load(); ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    }
    faults_->commits.fetch_add(1);
    if (faults_->fail_commit.load()) {
      inner_->Rollback();
      *outcome_unknown = false;
      return Status::IOError("injected: COMMIT failed and was rolled back");
    }
    Status committed = inner_->Commit(outcome_unknown);
    if (committed.ok() && faults_->lose_commit.load()) {
      *outcome_unknown = true;
      broken_ = true;
      return Status::IOError("injected: the COMMIT's answer was lost");
    }
    return committed;
  }
  void Rollback() override { inner_->Rollback(); }
  bool in_transaction() const override { return inner_->in_transaction(); }
  bool broken() const override { return broken_ || inner_->broken(); }
  Result<std::vector<std::string>> ColumnsOf(std::string_view table) override { return inner_->ColumnsOf(table); }

 private:
  std::unique_ptr<SqlConnection> inner_;
  Faults* faults_;
  bool broken_ = false;
};

class FaultySqliteBackend final : public SqlBackend {
 public:
  FaultySqliteBackend(std::string path, Faults* faults) : inner_(std::move(path), 30'000, 4), faults_(faults) {}
  Result<std::unique_ptr<SqlConnection>> Connect() override {
    FLOE_ASSIGN_OR_RETURN(std::unique_ptr<SqlConnection> inner, inner_.Connect());
    return std::unique_ptr<SqlConnection>(std::make_unique<FaultyConnection>(std::move(inner), faults_));
  }
  const std::string& description() const override { return inner_.description(); }
  size_t max_connections() const override { return inner_.max_connections(); }
  bool serializes_writers() const override { return inner_.serializes_writers(); }

 private:
  SqliteBackend inner_;
  Faults* faults_;
};

class SqlGroupCommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SqlCatalogOptions options;
    options.warehouse = dir_.Join("warehouse");
    auto opened = SqlCatalog::Open(std::make_shared<FaultySqliteBackend>(dir_.Join("catalog.db"), &faults_),
                                   std::move(options), NewLocalFileIO());
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    catalog_ = *opened;
    ASSERT_TRUE(catalog_->CreateNamespace(Ns("db"), {}).ok());
  }

  // Tables db.t0 .. db.t<n-1>, each pointing at "<table>/v0".
  void CreateTables(int n) {
    for (int i = 0; i < n; ++i) {
      const auto ident = Ident(StrCat("db.t", i));
      ASSERT_TRUE(catalog_->CreateMetadataLocation(ident, StrCat("t", i, "/v0")).ok());
    }
  }

  std::string Pointer(const TableIdentifier& ident) {
    auto location = catalog_->LoadMetadataLocation(ident);
    EXPECT_TRUE(location.ok()) << location.status().ToString();
    return location.ok() ? *location : "";
  }

  // Each of `threads` threads swaps table t<i> once from v0 to v1, all
  // starting together; returns their statuses.
  std::vector<Status> SwapDistinctOnce(int threads) {
    std::vector<Status> statuses(static_cast<size_t>(threads));
    std::barrier start(threads);
    std::vector<std::thread> workers;
    for (int i = 0; i < threads; ++i) {
      workers.emplace_back([&, i] {
        start.arrive_and_wait();
        statuses[static_cast<size_t>(i)] =
            catalog_->SwapMetadataLocation(Ident(StrCat("db.t", i)), StrCat("t", i, "/v0"), StrCat("t", i, "/v1"));
      });
    }
    for (auto& worker : workers) worker.join();
    return statuses;
  }

  floe::testing::TempDir dir_;
  Faults faults_;
  std::shared_ptr<SqlCatalog> catalog_;
};

TEST_F(SqlGroupCommitTest, DistinctTablesEveryCommitLandsInSharedTransactions) {
  constexpr int kThreads = 16;
  constexpr int kCommits = 25;
  CreateTables(kThreads);
  faults_.commit_delay_ms = 2;  // a COMMIT as slow as a disk's sync: writers queue behind it
  const int commits_before = faults_.commits.load();
  std::vector<int> failures(kThreads, 0);
  std::barrier start(kThreads);
  std::vector<std::thread> workers;
  for (int i = 0; i < kThreads; ++i) {
    workers.emplace_back([&, i] {
      start.arrive_and_wait();
      const auto ident = Ident(StrCat("db.t", i));
      for (int v = 0; v < kCommits; ++v) {
        Status swapped = catalog_->SwapMetadataLocation(ident, StrCat("t", i, "/v", v), StrCat("t", i, "/v", v + 1));
        if (!swapped.ok()) ++failures[static_cast<size_t>(i)];
      }
    });
  }
  for (auto& worker : workers) worker.join();
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(failures[static_cast<size_t>(i)], 0) << "table t" << i;
    EXPECT_EQ(Pointer(Ident(StrCat("db.t", i))), StrCat("t", i, "/v", kCommits));
  }
  const SqlGroupCommitStats stats = catalog_->group_commit_stats();
  EXPECT_EQ(stats.members, kThreads * kCommits);
  EXPECT_EQ(faults_.commits.load() - commits_before, stats.batches);
  // 400 swaps arriving 16 at a time behind 2 ms COMMITs share transactions.
  EXPECT_LT(stats.batches, stats.members);
  EXPECT_GE(stats.largest_batch, 2);
}

TEST_F(SqlGroupCommitTest, OneTableWinnersFormOneChainLosersAreSwapLost) {
  constexpr int kThreads = 16;
  constexpr int kWinsPerThread = 10;
  CreateTables(1);
  faults_.commit_delay_ms = 1;
  const auto ident = Ident("db.t0");
  std::vector<std::map<std::string, std::string>> wins(kThreads);  // expected -> new, per thread
  std::vector<int> conflicts(kThreads, 0);
  std::vector<int> other_errors(kThreads, 0);
  std::barrier start(kThreads);
  std::vector<std::thread> workers;
  for (int i = 0; i < kThreads; ++i) {
    workers.emplace_back([&, i] {
      start.arrive_and_wait();
      int attempt = 0;
      while (static_cast<int>(wins[static_cast<size_t>(i)].size()) < kWinsPerThread) {
        auto current = catalog_->LoadMetadataLocation(ident);
        if (!current.ok()) {
          ++other_errors[static_cast<size_t>(i)];
          return;
        }
        const std::string next = StrCat("w", i, "/a", attempt++);
        Status swapped = catalog_->SwapMetadataLocation(ident, *current, next);
        if (swapped.ok()) {
          wins[static_cast<size_t>(i)].emplace(*current, next);
        } else if (swapped.IsSwapLost()) {
          ++conflicts[static_cast<size_t>(i)];
        } else {
          ++other_errors[static_cast<size_t>(i)];
          return;
        }
      }
    });
  }
  for (auto& worker : workers) worker.join();
  // Every winner swapped from a distinct base, and following the swaps from
  // v0 visits every one of them and ends at the table's pointer.
  std::map<std::string, std::string> chain;
  int total_conflicts = 0;
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(other_errors[static_cast<size_t>(i)], 0);
    total_conflicts += conflicts[static_cast<size_t>(i)];
    for (const auto& [from, to] : wins[static_cast<size_t>(i)]) {
      EXPECT_TRUE(chain.emplace(from, to).second) << "two winners swapped from " << from;
    }
  }
  ASSERT_EQ(chain.size(), static_cast<size_t>(kThreads * kWinsPerThread));
  std::string at = "t0/v0";
  size_t steps = 0;
  while (chain.contains(at)) {
    at = chain.at(at);
    ++steps;
  }
  EXPECT_EQ(steps, chain.size());
  EXPECT_EQ(Pointer(ident), at);
  const SqlGroupCommitStats stats = catalog_->group_commit_stats();
  EXPECT_EQ(stats.members, kThreads * kWinsPerThread + total_conflicts);
}

TEST_F(SqlGroupCommitTest, ConflictInABatchDoesNotStopTheOthers) {
  constexpr int kThreads = 8;
  CreateTables(kThreads);
  // t3's pointer moves before the batch: its swap from v0 loses, the rest land.
  ASSERT_TRUE(catalog_->SwapMetadataLocation(Ident("db.t3"), "t3/v0", "t3/other").ok());
  faults_.commit_delay_ms = 20;
  std::vector<Status> statuses = SwapDistinctOnce(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    const Status& status = statuses[static_cast<size_t>(i)];
    if (i == 3) {
      EXPECT_TRUE(status.IsSwapLost()) << status.ToString();
      EXPECT_NE(status.message().find("'t3/other'"), std::string::npos) << status.ToString();
      EXPECT_EQ(Pointer(Ident("db.t3")), "t3/other");
    } else {
      EXPECT_TRUE(status.ok()) << "t" << i << ": " << status.ToString();
      EXPECT_EQ(Pointer(Ident(StrCat("db.t", i))), StrCat("t", i, "/v1"));
    }
  }
}

TEST_F(SqlGroupCommitTest, FailedBatchCommitFailsEveryMemberCleanly) {
  constexpr int kThreads = 12;
  CreateTables(kThreads);
  faults_.commit_delay_ms = 20;
  faults_.fail_commit = true;
  std::vector<Status> statuses = SwapDistinctOnce(kThreads);
  faults_.fail_commit = false;
  for (int i = 0; i < kThreads; ++i) {
    const Status& status = statuses[static_cast<size_t>(i)];
    EXPECT_TRUE(status.IsIOError()) << "t" << i << ": " << status.ToString();
    EXPECT_NE(status.message().find("rolled back"), std::string::npos) << status.ToString();
    // Nothing of the batch applied.
    EXPECT_EQ(Pointer(Ident(StrCat("db.t", i))), StrCat("t", i, "/v0"));
  }
  EXPECT_GE(catalog_->group_commit_stats().largest_batch, 2);
  // The catalog works on afterwards.
  EXPECT_TRUE(catalog_->SwapMetadataLocation(Ident("db.t0"), "t0/v0", "t0/v1").ok());
  EXPECT_EQ(Pointer(Ident("db.t0")), "t0/v1");
}

TEST_F(SqlGroupCommitTest, LostCommitAnswerIsUnknownForEveryMember) {
  constexpr int kThreads = 12;
  CreateTables(kThreads);
  faults_.commit_delay_ms = 20;
  faults_.lose_commit = true;
  std::vector<Status> statuses = SwapDistinctOnce(kThreads);
  faults_.lose_commit = false;
  for (int i = 0; i < kThreads; ++i) {
    const Status& status = statuses[static_cast<size_t>(i)];
    EXPECT_TRUE(status.IsCommitStateUnknown()) << "t" << i << ": " << status.ToString();
    EXPECT_NE(status.message().find(StrCat("db.t", i)), std::string::npos) << status.ToString();
    // This fault lets the COMMIT land: unknown meant "may have happened".
    EXPECT_EQ(Pointer(Ident(StrCat("db.t", i))), StrCat("t", i, "/v1"));
  }
}

TEST_F(SqlGroupCommitTest, StatementThatEndsTheTransactionFailsItsBatchCleanly) {
  constexpr int kThreads = 12;
  CreateTables(kThreads);
  faults_.poison = "t5/v1";  // t5's UPDATE fails and SQLite's transaction is gone
  faults_.commit_delay_ms = 20;
  std::vector<Status> statuses = SwapDistinctOnce(kThreads);
  faults_.commit_delay_ms = 0;
  for (int i = 0; i < kThreads; ++i) {
    const Status& status = statuses[static_cast<size_t>(i)];
    const std::string pointer = Pointer(Ident(StrCat("db.t", i)));
    if (i == 5) {
      EXPECT_TRUE(status.IsIOError()) << status.ToString();
      EXPECT_EQ(pointer, "t5/v0");
      continue;
    }
    // Members of t5's batch fail, rolled back; the others commit. Either
    // way the answer matches the database.
    if (status.ok()) {
      EXPECT_EQ(pointer, StrCat("t", i, "/v1"));
    } else {
      EXPECT_TRUE(status.IsIOError()) << status.ToString();
      EXPECT_NE(status.message().find("rolled back with the batch"), std::string::npos) << status.ToString();
      EXPECT_EQ(pointer, StrCat("t", i, "/v0"));
    }
  }
  EXPECT_EQ(catalog_->group_commit_stats().members, kThreads);
}

TEST_F(SqlGroupCommitTest, OffRunsEverySwapInItsOwnTransaction) {
  SqlCatalogOptions options;
  options.warehouse = dir_.Join("warehouse2");
  options.group_commit = false;
  auto opened = SqlCatalog::Open(std::make_shared<FaultySqliteBackend>(dir_.Join("catalog2.db"), &faults_),
                                 std::move(options), NewLocalFileIO());
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  catalog_ = *opened;
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("db"), {}).ok());
  CreateTables(4);
  const int commits_before = faults_.commits.load();
  std::vector<Status> statuses = SwapDistinctOnce(4);
  for (const Status& status : statuses) EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(faults_.commits.load() - commits_before, 4);
  EXPECT_EQ(catalog_->group_commit_stats().members, 0);
}

}  // namespace
}  // namespace floe::catalog
