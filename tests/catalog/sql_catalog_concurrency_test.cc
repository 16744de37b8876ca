// Racing commits on one table through one catalog.db: two threads, and two
// processes. Every commit either lands or gets CommitConflict; the metadata
// log, the file versions, the properties and the files on disk all count
// exactly the commits that landed.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

#include "catalog/catalog_test_util.h"
#include "floe/base/strings.h"
#include "floe/iceberg/metadata_location.h"

namespace floe::catalog {
namespace {

using testing::Ident;
using testing::ListPaths;
using testing::Ns;
using testing::OpenSqlCatalog;
using testing::OrdersRequest;
using testing::WithProperty;

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
void ExpectTableAfter(SqlCatalog& catalog, int landed) {
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

TEST(SqlCatalogConcurrencyTest, TwoThreadsRaceOnOneTable) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace(Ns("shop"), {}).ok());
  ASSERT_TRUE(catalog->CreateTable(Ident("shop.orders"), OrdersRequest()).ok());
  // One thread on the shared catalog, one on a second catalog object over
  // the same file (as two catalogs in one process would be).
  auto second = OpenSqlCatalog(dir);
  ASSERT_NE(second, nullptr);
  Tally a, b;
  std::thread ta([&] { a = CommitLoop(*catalog, 0); });
  std::thread tb([&] { b = CommitLoop(*second, 1); });
  ta.join();
  tb.join();
  EXPECT_EQ(a.other + b.other, 0) << a.first_error << b.first_error;
  EXPECT_EQ(a.landed + a.conflicts, kCommitsPerWriter);
  EXPECT_EQ(b.landed + b.conflicts, kCommitsPerWriter);
  // Every conflict means the other writer landed one; so some landed.
  EXPECT_GT(a.landed + b.landed, 0);
  ExpectTableAfter(*catalog, a.landed + b.landed);
}

TEST(SqlCatalogConcurrencyTest, TwoProcessesRaceOnOneCatalogFile) {
  floe::testing::TempDir dir;
  {
    auto catalog = OpenSqlCatalog(dir);
    ASSERT_NE(catalog, nullptr);
    ASSERT_TRUE(catalog->CreateNamespace(Ns("shop"), {}).ok());
    ASSERT_TRUE(catalog->CreateTable(Ident("shop.orders"), OrdersRequest()).ok());
  }  // closed: the children open their own connections, none inherited

  struct Child {
    pid_t pid = -1;
    int read_fd = -1;
  };
  std::vector<Child> children;
  for (int writer = 0; writer < 2; ++writer) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      SqlCatalogOptions options;
      options.database_path = dir.Join("catalog.db");
      options.warehouse = dir.Join("warehouse");
      auto catalog = SqlCatalog::Open(options, NewLocalFileIO());
      std::string report;
      if (!catalog.ok()) {
        report = "open failed: " + catalog.status().ToString();
      } else {
        Tally t = CommitLoop(**catalog, writer);
        report = StrCat(t.landed, " ", t.conflicts, " ", t.other, " ", t.first_error);
      }
      (void)!write(fds[1], report.data(), report.size());
      close(fds[1]);
      _exit(0);  // no atexit handlers or gtest teardown in the child
    }
    close(fds[1]);
    children.push_back(Child{pid, fds[0]});
  }

  int landed = 0;
  for (const Child& child : children) {
    std::string report;
    char buf[512];
    ssize_t n;
    while ((n = read(child.read_fd, buf, sizeof(buf))) > 0) report.append(buf, static_cast<size_t>(n));
    close(child.read_fd);
    int wstatus = 0;
    ASSERT_EQ(waitpid(child.pid, &wstatus, 0), child.pid);
    ASSERT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) << "child status " << wstatus;
    int child_landed = -1, child_conflicts = -1, child_other = -1;
    ASSERT_EQ(std::sscanf(report.c_str(), "%d %d %d", &child_landed, &child_conflicts, &child_other), 3) << report;
    EXPECT_EQ(child_other, 0) << report;
    EXPECT_EQ(child_landed + child_conflicts, kCommitsPerWriter) << report;
    landed += child_landed;
  }
  EXPECT_GT(landed, 0);
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  ExpectTableAfter(*catalog, landed);
}

}  // namespace
}  // namespace floe::catalog
