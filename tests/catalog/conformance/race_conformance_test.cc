// Racing commits on one table of every catalog: two threads on two catalog
// handles, and two processes. Every commit either lands or gets
// CommitConflict; the metadata log, the file versions, the properties and
// the files on disk all count exactly the commits that landed.

#include <gtest/gtest.h>

#include <cstdio>
#include <thread>

#include "catalog/conformance/conformance_test.h"
#include "floe/base/strings.h"
#include "floe/iceberg/metadata_location.h"
#include "testing/child_processes.h"

namespace floe::catalog::testing {
namespace {

constexpr int kCommitsPerWriter = 20;

struct Tally {
  int landed = 0;
  int conflicts = 0;
  int other = 0;
  std::string first_error;
};

// Each attempt refreshes, adds the property writer-<w>-<i> and commits once;
// a conflict is counted, not retried.
Tally CommitLoop(Catalog& catalog, int writer) {
  Tally tally;
  auto ops = catalog.NewTableOps(Ident("shop.orders"));
  for (int i = 0; i < kCommitsPerWriter; ++i) {
    auto base = ops->Refresh();
    if (!base.ok()) {
      ++tally.other;
      if (tally.first_error.empty()) tally.first_error = base.status().ToString();
      continue;
    }
    auto result = ops->Commit(*base, WithProperty(*base->metadata, StrCat("writer-", writer, "-", i), "x"));
    if (result.ok()) {
      ++tally.landed;
    } else if (result.status().IsCommitConflict()) {
      ++tally.conflicts;
    } else {
      ++tally.other;
      if (tally.first_error.empty()) tally.first_error = result.status().ToString();
    }
  }
  return tally;
}

// The table after `landed` commits from the create: checked from every side.
void ExpectTableAfter(Catalog& catalog, int landed) {
  iceberg::TableState state = catalog.LoadTable(Ident("shop.orders")).value();
  EXPECT_EQ(state.metadata->metadata_log.size(), static_cast<size_t>(landed));
  EXPECT_EQ(iceberg::ParseMetadataFileVersion(state.metadata_location), landed);
  int writer_properties = 0;
  for (const auto& [key, value] : state.metadata->properties) {
    if (StartsWith(key, "writer-")) ++writer_properties;
  }
  EXPECT_EQ(writer_properties, landed);
  // Each log entry is one earlier version, in order, no duplicates.
  for (size_t i = 0; i < state.metadata->metadata_log.size(); ++i) {
    EXPECT_EQ(iceberg::ParseMetadataFileVersion(state.metadata->metadata_log[i].metadata_file), static_cast<int>(i));
  }
  // Conflicting commits deleted their files: the create's plus one per landed commit.
  EXPECT_EQ(ListPaths(*NewLocalFileIO(), state.metadata->location + "/metadata/").size(),
            static_cast<size_t>(landed + 1));
}

class RaceConformanceTest : public CatalogConformanceTest {
 protected:
  void SetUp() override {
    CatalogConformanceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop"), {}).ok());
    ASSERT_TRUE(catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).ok());
  }
};

TEST_P(RaceConformanceTest, TwoThreadsRaceOnOneTable) {
  // One thread on the shared catalog, one on a second catalog handle (as
  // two catalogs in one process would be).
  auto second = OpenAgain();
  ASSERT_NE(second, nullptr);
  Tally a, b;
  std::thread ta([&] { a = CommitLoop(*catalog_, 0); });
  std::thread tb([&] { b = CommitLoop(*second, 1); });
  ta.join();
  tb.join();
  EXPECT_EQ(a.other + b.other, 0) << a.first_error << b.first_error;
  EXPECT_EQ(a.landed + a.conflicts, kCommitsPerWriter);
  EXPECT_EQ(b.landed + b.conflicts, kCommitsPerWriter);
  // Every conflict means the other writer landed one; so some landed.
  EXPECT_GT(a.landed + b.landed, 0);
  ExpectTableAfter(*catalog_, a.landed + b.landed);
}

TEST_P(RaceConformanceTest, TwoProcessesRaceOnOneTable) {
  if (!GetParam()->two_processes()) GTEST_SKIP() << GetParam()->name() << " cannot be opened in a child process";
  catalog_.reset();  // closed: the children open their own connections, none inherited

  const auto reports = floe::testing::RunInChildProcesses(2, [&](int writer) {
    auto catalog = instance_->Open();
    if (!catalog.ok()) return "open failed: " + catalog.status().ToString();
    Tally t = CommitLoop(**catalog, writer);
    return StrCat(t.landed, " ", t.conflicts, " ", t.other, " ", t.first_error);
  });
  int landed = 0;
  for (const std::string& report : reports) {
    int child_landed = -1, child_conflicts = -1, child_other = -1;
    ASSERT_EQ(std::sscanf(report.c_str(), "%d %d %d", &child_landed, &child_conflicts, &child_other), 3) << report;
    EXPECT_EQ(child_other, 0) << report;
    EXPECT_EQ(child_landed + child_conflicts, kCommitsPerWriter) << report;
    landed += child_landed;
  }
  EXPECT_GT(landed, 0);
  auto catalog = OpenAgain();
  ASSERT_NE(catalog, nullptr);
  ExpectTableAfter(*catalog, landed);
}

TEST_P(RaceConformanceTest, RacingCreatesOfOneNameLetOneWin) {
  // Check-then-insert is atomic: of two handles creating the same namespace
  // and table at once, exactly one succeeds each time.
  auto second = OpenAgain();
  ASSERT_NE(second, nullptr);
  for (int round = 0; round < 10; ++round) {
    const Namespace ns = Ns(StrCat("race", round));
    Status a, b;
    std::thread ta([&] { a = catalog_->CreateNamespace(ns, {{"by", "a"}}); });
    std::thread tb([&] { b = second->CreateNamespace(ns, {{"by", "b"}}); });
    ta.join();
    tb.join();
    EXPECT_EQ(a.ok() + b.ok(), 1) << a.ToString() << " / " << b.ToString();
    EXPECT_TRUE(a.IsAlreadyExists() || b.IsAlreadyExists());
    const std::string winner = catalog_->LoadNamespaceMetadata(ns).value().at("by");
    EXPECT_EQ(winner, a.ok() ? "a" : "b");

    const TableIdentifier ident{ns, "t"};
    Result<iceberg::TableState> ca = Status::Internal("not run"), cb = Status::Internal("not run");
    std::thread tc([&] { ca = catalog_->CreateTable(ident, OrdersRequest()); });
    std::thread td([&] { cb = second->CreateTable(ident, OrdersRequest()); });
    tc.join();
    td.join();
    EXPECT_EQ(ca.ok() + cb.ok(), 1) << ca.status().ToString() << " / " << cb.status().ToString();
    EXPECT_TRUE(ca.status().IsAlreadyExists() || cb.status().IsAlreadyExists());
    const std::string& location = ca.ok() ? ca->metadata_location : cb->metadata_location;
    EXPECT_EQ(catalog_->LoadTable(ident).value().metadata_location, location);
  }
}

FLOE_CATALOG_CONFORMANCE(RaceConformanceTest);

}  // namespace
}  // namespace floe::catalog::testing
