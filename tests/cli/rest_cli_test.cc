// The floe CLI against a REST catalog: `--catalog http://127.0.0.1:PORT` to
// the real `floe serve`, a table's life from create to snapshots.

#include <gtest/gtest.h>

#include <fstream>

#include "catalog/rest_server_util.h"
#include "testing/run_process.h"
#include "testing/temp_dir.h"

namespace floe {
namespace {

using testing::RunFloe;

const std::vector<std::string> kEnv = {"FLOE_WAREHOUSE=", "FLOE_CATALOG=", "FLOE_LOG=", "FLOE_REST_CREDENTIAL=",
                                       "FLOE_REST_TOKEN="};

TEST(RestCliTest, TableCommandsWorkThroughARestCatalog) {
  testing::TempDir server_dir;
  catalog::testing::FloeServer server(server_dir);
  ASSERT_TRUE(server.ok());
  testing::TempDir dir;
  auto floe = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--catalog", server.url()});
    return RunFloe(args, kEnv, dir.path());
  };
  auto ok = [&](std::vector<std::string> args) {
    auto r = floe(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  ok({"namespace", "create", "shop"});
  EXPECT_NE(ok({"namespace", "list"}).find("shop"), std::string::npos);
  ok({"table", "create", "shop.orders", "--schema", "order_id long not null, city string, amount decimal(18,2)",
      "--partition", "city"});
  EXPECT_NE(ok({"table", "list", "shop"}).find("orders"), std::string::npos);
  std::ofstream(dir.Join("a.csv")) << "order_id,city,amount\n1,Lisbon,12.50\n2,Porto,3.00\n3,Lisbon,7.25\n";
  std::ofstream(dir.Join("b.csv")) << "order_id,city,amount\n4,Porto,9.99\n";
  EXPECT_NE(ok({"table", "append", "shop.orders", "a.csv"}).find("3 rows written"), std::string::npos);
  EXPECT_EQ(ok({"table", "scan", "shop.orders", "--count"}), "3\n");
  EXPECT_EQ(ok({"table", "scan", "shop.orders", "--count", "--where", "city = 'Lisbon'"}), "2\n");
  ok({"table", "overwrite", "shop.orders", "--where", "city = 'Porto'", "b.csv"});
  EXPECT_EQ(ok({"--format", "csv", "table", "scan", "shop.orders", "--select", "order_id", "--where", "city = 'Porto'"}),
            "order_id\n4\n");
  EXPECT_EQ(ok({"table", "scan", "shop.orders", "--count"}), "3\n");
  const std::string snapshots = ok({"--format", "csv", "table", "snapshots", "shop.orders"});
  EXPECT_EQ(std::count(snapshots.begin(), snapshots.end(), '\n'), 3) << snapshots;  // header + 2 snapshots
  EXPECT_NE(snapshots.find("append"), std::string::npos) << snapshots;
  EXPECT_NE(snapshots.find("overwrite"), std::string::npos) << snapshots;
  ok({"table", "evolve", "shop.orders", "--add-column", "channel string"});
  EXPECT_EQ(ok({"--format", "csv", "table", "scan", "shop.orders", "--select", "order_id,channel", "--where",
                "order_id = 4"}),
            "order_id,channel\n4,\n");

  // Errors stay one line, with the catalog's wording.
  auto missing = floe({"table", "scan", "shop.nope", "--count"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("table shop.nope does not exist"), std::string::npos) << missing.err;
  ok({"table", "drop", "shop.orders"});
  EXPECT_EQ(ok({"table", "list", "shop"}).find("orders"), std::string::npos);
}

}  // namespace
}  // namespace floe
