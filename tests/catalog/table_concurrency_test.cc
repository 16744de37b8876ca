// Racing writers on one table through one catalog.db — threads sharing a
// SqlCatalog, and separate processes each with their own — in the scenario
// of table_race_util.h, checked against its serial model.

#include <gtest/gtest.h>

#include <thread>

#include "catalog/table_race_util.h"
#include "testing/child_processes.h"

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

// Each child reports its steps as lines "writer step snapshot_id code base".
TEST(TableConcurrencyTest, ProcessesRaceAppendsAndOverwrites) {
  floe::testing::TempDir dir;
  {
    auto catalog = OpenSqlCatalog(dir);
    ASSERT_NE(catalog, nullptr);
    CreateRowsTable(*catalog, kRaceProperties);
  }  // closed: the children open their own connections, none inherited
  const auto reports = floe::testing::RunInChildProcesses(RaceScale().appenders + 2, [&](int w) {
    SqlCatalogOptions options;
    options.database_path = dir.Join("catalog.db");
    options.warehouse = dir.Join("warehouse");
    auto catalog = SqlCatalog::Open(options, NewLocalFileIO());
    return catalog.ok() ? ReportLines(RunWriter(**catalog, w)) : "open failed: " + catalog.status().ToString();
  });
  std::vector<Done> all;
  for (const std::string& report : reports) ASSERT_TRUE(ParseReport(report, &all)) << report;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  ExpectSerialModel(*catalog, all);
}

}  // namespace
}  // namespace floe::catalog
