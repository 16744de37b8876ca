// Racing writers on one table through `floe serve`: separate processes, each
// with its own RestCatalog, in the scenario of table_race_util.h (8
// appenders × 50 appends and 2 overwriters; smaller under ASan unless
// FLOE_TEST_FULL_RACE=1). Every append lands exactly once, the hot
// overwriter fails only with CommitConflict, and the table replays on the
// serial model.

#include <gtest/gtest.h>

#include "catalog/rest_server_util.h"
#include "catalog/table_race_util.h"
#include "testing/child_processes.h"

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
  const auto reports = floe::testing::RunInChildProcesses(RaceScale().appenders + 2, [&](int w) {
    RestCatalogOptions options;
    options.uri = server.url();
    auto catalog = RestCatalog::Open(std::move(options), NewLocalFileIO());
    return catalog.ok() ? ReportLines(RunWriter(**catalog, w)) : "open failed: " + catalog.status().ToString();
  });
  std::vector<Done> all;
  for (const std::string& report : reports) ASSERT_TRUE(ParseReport(report, &all)) << report;
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
