// Racing writers on one table through one catalog.db — threads sharing a
// SqlCatalog, and separate processes each with their own — in the scenario
// of table_race_util.h, checked against its serial model.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "catalog/table_race_util.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

TEST(TableConcurrencyTest, ThreadsRaceAppendsAndOverwrites) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  CreateRowsTable(*catalog, kRaceProperties);
  std::vector<std::vector<Done>> results(RaceScale().appenders + 2);
  std::vector<std::thread> threads;
  for (int w = 0; w < RaceScale().appenders + 2; ++w) {
    threads.emplace_back([&, w] { results[static_cast<size_t>(w)] = RunWriter(*catalog, w); });
  }
  for (auto& t : threads) t.join();
  std::vector<Done> all;
  for (auto& r : results) all.insert(all.end(), r.begin(), r.end());
  ExpectSerialModel(*catalog, all);
}

// Each child reports its steps as lines "writer step snapshot_id code".
TEST(TableConcurrencyTest, ProcessesRaceAppendsAndOverwrites) {
  floe::testing::TempDir dir;
  {
    auto catalog = OpenSqlCatalog(dir);
    ASSERT_NE(catalog, nullptr);
    CreateRowsTable(*catalog, kRaceProperties);
  }  // closed: the children open their own connections, none inherited
  struct Child {
    pid_t pid = -1;
    int read_fd = -1;
  };
  std::vector<Child> children;
  for (int w = 0; w < RaceScale().appenders + 2; ++w) {
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
      const std::string report =
          catalog.ok() ? ReportLines(RunWriter(**catalog, w)) : "open failed: " + catalog.status().ToString();
      (void)!write(fds[1], report.data(), report.size());
      close(fds[1]);
      _exit(0);  // no atexit handlers or gtest teardown in the child
    }
    close(fds[1]);
    children.push_back(Child{pid, fds[0]});
  }
  std::vector<Done> all;
  for (const Child& child : children) {
    std::string report;
    char buf[4096];
    ssize_t n;
    while ((n = read(child.read_fd, buf, sizeof(buf))) > 0) report.append(buf, static_cast<size_t>(n));
    close(child.read_fd);
    int wstatus = 0;
    ASSERT_EQ(waitpid(child.pid, &wstatus, 0), child.pid);
    ASSERT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) << "child status " << wstatus;
    ASSERT_TRUE(ParseReport(report, &all));
  }
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  ExpectSerialModel(*catalog, all);
}

}  // namespace
}  // namespace floe::catalog
