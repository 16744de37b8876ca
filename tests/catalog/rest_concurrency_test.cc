// Racing writers on one table through `floe serve`: separate processes, each
// with its own RestCatalog, in the scenario of table_race_util.h (8
// appenders × 50 appends and 2 overwriters; smaller under ASan unless
// FLOE_TEST_FULL_RACE=1). Every append lands exactly once, the hot
// overwriter fails only with CommitConflict, and the table replays on the
// serial model.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog/rest_server_util.h"
#include "catalog/table_race_util.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

TEST(RestConcurrencyTest, ProcessesRaceAppendsAndOverwritesThroughFloeServe) {
  floe::testing::TempDir dir;
  FloeServer server(dir);
  ASSERT_TRUE(server.ok());
  {
    auto catalog = OpenRest(server.url());
    ASSERT_NE(catalog, nullptr);
    CreateRowsTable(*catalog, kRaceProperties);
  }
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
      RestCatalogOptions options;
      options.uri = server.url();
      auto catalog = RestCatalog::Open(std::move(options), NewLocalFileIO());
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
  auto catalog = OpenRest(server.url());
  ASSERT_NE(catalog, nullptr);
  ExpectSerialModel(*catalog, all);
  // Every append's snapshot is in the table: 400 at full scale.
  auto state = catalog->LoadTable(Ident(kTableName)).value();
  int appends = 0;
  for (const Done& d : all) {
    if (d.writer < RaceScale().appenders && state.metadata->SnapshotById(d.snapshot_id) != nullptr) ++appends;
  }
  EXPECT_EQ(appends, RaceScale().appenders * RaceScale().appends_each);
}

}  // namespace
}  // namespace floe::catalog
