// `floe namespace` and `floe table` as a user runs them: a table's life from
// create to expire on the default SQLite catalog, and the one-line errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "testing/table_cli.h"

namespace floe {
namespace {

using testing::SortedRows;
using TableCliTest = testing::TableCliTest;

TEST_F(TableCliTest, TableLifecycleFromCreateToExpire) {
  Ok({"namespace", "create", "shop"});
  EXPECT_NE(Ok({"namespace", "list"}).find("shop"), std::string::npos);
  Ok({"table", "create", "shop.orders", "--schema",
      "order_id long not null, order_ts timestamp, city string, amount decimal(18,2)", "--partition", "day(order_ts)"});
  Write("a.csv",
        "order_id,order_ts,city,amount\n1,2026-10-21T20:15:00,Lisbon,12.50\n2,2026-10-21T21:00:00,Porto,3.00\n"
        "3,2026-10-22T09:00:00,Lisbon,7.25\n");
  Write("b.jsonl", "{\"order_id\": 4, \"order_ts\": \"2026-10-22T10:00:00\", \"city\": \"Faro\", \"amount\": 1.5}\n");
  EXPECT_NE(Ok({"table", "append", "shop.orders", "a.csv"}).find("3 rows written, 2 files added"), std::string::npos);
  Ok({"table", "append", "shop.orders", "b.jsonl"});
  EXPECT_EQ(Ok({"table", "scan", "shop.orders", "--count"}), "4\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.orders", "--count", "--where", "city = 'Lisbon'"}), "2\n");
  EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "scan", "shop.orders", "--select", "order_id,amount", "--where",
                           "order_ts >= '2026-10-21T20:00:00' and order_ts < '2026-10-21T22:00:00'"})),
            "1,12.50\n2,3.00\n");
  // The planning report: the 2026-10-22 partition is pruned.
  auto explain = Floe({"table", "scan", "shop.orders", "--count", "--explain", "--where", "order_ts < '2026-10-22T00:00:00'"});
  EXPECT_EQ(explain.out, "2\n");
  // Every count of the report: the second append's manifest holds only
  // 2026-10-22; the day's one file is read in full by the footer's tail read
  // (it is under 8 KiB), which then also serves its row group's columns.
  for (const char* line : {"manifests: 2 total, 1 skipped\n", "data files: 3 total, 2 skipped\n",
                           "delete files applied: 0\n", "row groups: 1 total, 0 skipped\n",
                           "pages: 0 total, 0 skipped\n", "rows: 2 read, 0 deleted, 2 returned\n",
                           "requests: 4 (manifests 3, data files 1, delete files 0)\n"}) {
    EXPECT_NE(explain.err.find(line), std::string::npos) << line << explain.err;
  }
  std::smatch bytes;
  ASSERT_TRUE(std::regex_search(explain.err, bytes,
                                std::regex(R"(bytes read: (\d+) \(manifests (\d+), data files (\d+), delete files 0\))")))
      << explain.err;
  EXPECT_EQ(std::stoll(bytes[1]), std::stoll(bytes[2]) + std::stoll(bytes[3])) << explain.err;
  int64_t day_file_bytes = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(dir_.Join("warehouse/shop/orders/data/order_ts_day=2026-10-21"))) {
    day_file_bytes += static_cast<int64_t>(entry.file_size());
  }
  EXPECT_EQ(std::stoll(bytes[3]), day_file_bytes) << explain.err;

  const std::string first = Ok({"--format", "csv", "table", "snapshots", "shop.orders"});
  const std::string s1 = first.substr(first.find('\n') + 1, first.find(',', first.find('\n')) - first.find('\n') - 1);

  EXPECT_NE(Ok({"table", "delete", "shop.orders", "--where", "city = 'Porto'"}).find("1 files rewritten"),
            std::string::npos);
  EXPECT_EQ(Ok({"table", "scan", "shop.orders", "--count"}), "3\n");
  Write("c.csv", "order_id,order_ts,city,amount\n5,2026-10-22T11:00:00,Braga,9.99\n");
  Ok({"table", "overwrite", "shop.orders", "--where", "order_ts >= '2026-10-22T00:00:00'", "c.csv"});
  EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "scan", "shop.orders", "--select", "order_id"})), "1\n5\n");
  Ok({"table", "evolve", "shop.orders", "--add-column", "channel string"});
  Ok({"table", "evolve", "shop.orders", "--rename-column", "city=town"});
  EXPECT_EQ(Ok({"--format", "csv", "table", "scan", "shop.orders", "--select", "order_id,town,channel", "--where",
                "town = 'Braga'"}),
            "order_id,town,channel\n5,Braga,\n");
  // Time travel to the first snapshot: its three rows, under the schema of the time.
  EXPECT_EQ(Ok({"table", "scan", "shop.orders", "--count", "--as-of", s1}), "3\n");
  Ok({"table", "tag", "shop.orders", "before-expire"});
  EXPECT_NE(Ok({"table", "refs", "shop.orders"}).find("before-expire"), std::string::npos);
  EXPECT_NE(Ok({"table", "expire", "shop.orders", "--older-than", "2100-01-01T00:00:00", "--retain-last", "1"})
                .find("expired"),
            std::string::npos);
  EXPECT_EQ(Ok({"table", "scan", "shop.orders", "--count"}), "2\n");
  EXPECT_NE(Ok({"table", "files", "shop.orders"}).find("order_ts_day=2026-10-22"), std::string::npos);
  EXPECT_NE(Ok({"table", "partitions", "shop.orders"}).find("order_ts_day=2026-10-21"), std::string::npos);
  EXPECT_NE(Ok({"table", "describe", "shop.orders"}).find("town"), std::string::npos);
}

TEST_F(TableCliTest, BadInputGetsOneLineErrorsAndLeavesTheTableAlone) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.t", "--schema", "id long not null, ts timestamp"});
  Write("bad.csv", "id,ts\n1,2026-10-21T20:15:00\nx,2026-10-21T20:15:00\n");
  auto r = Floe({"table", "append", "shop.t", "bad.csv"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bad.csv row 2, column 'id'"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(Ok({"table", "scan", "shop.t", "--count"}), "0\n");  // nothing half-written became visible

  Write("extra.csv", "id,nope\n1,2\n");
  r = Floe({"table", "append", "shop.t", "extra.csv"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("column 'nope' is not in the table"), std::string::npos) << r.err;

  r = Floe({"table", "scan", "shop.nosuch"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("table shop.nosuch does not exist"), std::string::npos) << r.err;
  r = Floe({"table", "scan", "shop.t", "--where", "id >"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("offset"), std::string::npos) << r.err;
  r = Floe({"table", "scan", "shop.t", "--as-of", "no-such-ref"});
  EXPECT_EQ(r.exit_code, 1);
  r = Floe({"table", "create", "shop.t", "--schema", "id long"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("AlreadyExists"), std::string::npos) << r.err;
}

TEST_F(TableCliTest, ScanFromSnapshotReadsOnlyTheRowsAppendedSince) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.t", "--schema", "id long not null"});
  Write("a.csv", "id\n1\n2\n");
  Write("b.csv", "id\n3\n");
  Write("c.csv", "id\n4\n5\n");
  Ok({"table", "append", "shop.t", "a.csv"});
  Ok({"table", "append", "shop.t", "b.csv"});
  Ok({"table", "append", "shop.t", "c.csv"});
  // The snapshots, oldest first: one line each after the header.
  const std::string listed = Ok({"--format", "csv", "table", "snapshots", "shop.t"});
  std::vector<std::string> ids;
  for (size_t start = listed.find('\n') + 1; start < listed.size();) {
    ids.push_back(listed.substr(start, listed.find(',', start) - start));
    const size_t end = listed.find('\n', start);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  ASSERT_EQ(ids.size(), 3u) << listed;
  EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "scan", "shop.t", "--from-snapshot", ids[0]})), "3\n4\n5\n");
  EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "scan", "shop.t", "--from-snapshot", ids[0], "--to-snapshot",
                           ids[1]})),
            "3\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.t", "--count", "--from-snapshot", ids[1], "--from-inclusive"}), "3\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.t", "--count", "--to-snapshot", ids[1]}), "3\n");
  auto r = Floe({"table", "scan", "shop.t", "--from-snapshot", ids[2], "--to-snapshot", ids[0]});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is not an ancestor"), std::string::npos) << r.err;
  r = Floe({"table", "scan", "shop.t", "--from-snapshot", ids[0], "--as-of", ids[1]});
  EXPECT_EQ(r.exit_code, 1);
}

}  // namespace
}  // namespace floe
