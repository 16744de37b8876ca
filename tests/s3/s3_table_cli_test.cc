// `floe namespace` and `floe table` on a warehouse at s3://bucket/wh with
// the SQLite catalog, as a user runs them: the life cycle with the rows
// checked after every step and the bucket listed after expiry and purge,
// --trace-io, storage settings from catalog properties and table properties,
// and the one-line errors that leave the table as it was.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "floe/base/strings.h"
#include "s3_fixture.h"
#include "testing/run_process.h"
#include "testing/tcp_proxy.h"
#include "testing/temp_dir.h"

namespace floe::testing {
namespace {

size_t Lines(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

std::string Join(const std::vector<std::string>& args) {
  std::string joined;
  for (const auto& a : args) joined += (joined.empty() ? "" : " ") + a;
  return joined;
}

class S3TableCliTest : public S3Test {
 protected:
  // The environment of the S3 CLI tests: the server and the test account
  // through the standard AWS variables, no ~/.aws profile.
  static std::vector<std::string> Env(const std::string& secret = "floe-test-secret") {
    return {"FLOE_WAREHOUSE=", "FLOE_CATALOG=", "FLOE_LOG=", "AWS_PROFILE=", "HOME=/nonexistent",
            "AWS_ENDPOINT_URL_S3=" + S3TestServer::endpoint(), "AWS_ENDPOINT_URL=",
            "AWS_ACCESS_KEY_ID=floe-test", "AWS_SECRET_ACCESS_KEY=" + secret, "AWS_SESSION_TOKEN=",
            "AWS_REGION=us-east-1"};
  }
  std::vector<std::string> Args(std::vector<std::string> args, const std::string& warehouse = "") {
    std::vector<std::string> all = {"--warehouse", warehouse.empty() ? At("wh") : warehouse, "--catalog",
                                    "sqlite:" + dir_.Join("catalog.db")};
    all.insert(all.end(), args.begin(), args.end());
    return all;
  }
  ProcessResult Floe(std::vector<std::string> args, const std::vector<std::string>& env = Env()) {
    return RunFloe(Args(std::move(args)), env, dir_.path());
  }
  std::string Ok(std::vector<std::string> args) {
    auto r = Floe(args);
    EXPECT_EQ(r.exit_code, 0) << Join(args) << ": " << r.err;
    return r.out;
  }
  std::string Ids() { return SortedRows(Ok({"--format", "csv", "table", "scan", "shop.orders", "--select", "order_id"})); }
  std::set<std::string> LiveDataFiles() { return ParquetPathsIn(Ok({"--format", "csv", "table", "files", "shop.orders"})); }
  std::set<std::string> DataObjects() {
    std::set<std::string> data;
    for (const auto& p : Objects(At("wh/shop/orders/"))) {
      if (p.ends_with(".parquet")) data.insert(p);
    }
    return data;
  }
  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_.Join(name)) << text; }
  void CreateOrders() {
    Ok({"namespace", "create", "shop"});
    Ok({"table", "create", "shop.orders", "--schema",
        "order_id long not null, order_ts timestamp, city string, amount decimal(18,2)", "--partition",
        "day(order_ts)"});
    Write("a.csv",
          "order_id,order_ts,city,amount\n1,2026-10-21T20:15:00,Lisbon,12.50\n2,2026-10-21T21:00:00,Porto,3.00\n"
          "3,2026-10-22T09:00:00,Lisbon,7.25\n");
    Ok({"table", "append", "shop.orders", "a.csv"});
  }

  TempDir dir_;
};

TEST_F(S3TableCliTest, TableLifeCycleOnAnS3Warehouse) {
  CreateOrders();
  EXPECT_EQ(Ids(), "1\n2\n3\n");
  EXPECT_FALSE(Objects(At("wh/shop/orders/metadata/")).empty());
  EXPECT_EQ(DataObjects().size(), 2u);  // one file per day

  Write("b.jsonl", "{\"order_id\": 4, \"order_ts\": \"2026-10-22T10:00:00\", \"city\": \"Faro\", \"amount\": 1.5}\n");
  Ok({"table", "append", "shop.orders", "b.jsonl"});
  EXPECT_EQ(Ids(), "1\n2\n3\n4\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.orders", "--count", "--where", "city = 'Lisbon'"}), "2\n");

  Write("c.csv", "order_id,order_ts,city,amount\n5,2026-10-22T11:00:00,Braga,9.99\n");
  Ok({"table", "overwrite", "shop.orders", "--where", "order_ts >= '2026-10-22T00:00:00'", "c.csv"});
  EXPECT_EQ(Ids(), "1\n2\n5\n");

  Ok({"table", "delete", "shop.orders", "--where", "city = 'Porto'"});
  EXPECT_EQ(Ids(), "1\n5\n");

  Write("d.csv", "order_id,order_ts,city,amount\n6,2026-10-21T23:00:00,Faro,1.00\n");
  Ok({"table", "append", "shop.orders", "d.csv"});
  EXPECT_NE(Ok({"table", "compact", "shop.orders"}).find("compacted"), std::string::npos);
  EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "scan", "shop.orders", "--select", "order_id,city,amount"})),
            "1,Lisbon,12.50\n5,Braga,9.99\n6,Faro,1.00\n");

  // Files of the old snapshots are in the bucket until expiry deletes them.
  EXPECT_GT(DataObjects().size(), LiveDataFiles().size());
  const std::string expired =
      Ok({"table", "expire", "shop.orders", "--older-than", "2100-01-01T00:00:00", "--retain-last", "1"});
  EXPECT_NE(expired.find("expired 5 snapshots"), std::string::npos) << expired;
  EXPECT_EQ(DataObjects(), LiveDataFiles());
  EXPECT_EQ(Ids(), "1\n5\n6\n");

  Ok({"table", "drop", "shop.orders", "--purge"});
  EXPECT_EQ(Objects(At("wh/shop/orders/")), std::set<std::string>{});
  EXPECT_EQ(Floe({"table", "scan", "shop.orders"}).exit_code, 1);
}

TEST_F(S3TableCliTest, TraceIoShowsTheS3RequestsOfACommitAndAScan) {
  CreateOrders();
  Write("b.csv", "order_id,order_ts,city,amount\n4,2026-10-21T22:00:00,Faro,1.50\n");
  auto append = Floe({"--trace-io", "table", "append", "shop.orders", "b.csv"});
  ASSERT_EQ(append.exit_code, 0) << append.err;
  // Paths are shown relative to the warehouse; the new metadata file is put-if-absent.
  EXPECT_NE(append.err.find("PUT shop/orders/data/"), std::string::npos) << append.err;
  EXPECT_NE(append.err.find("-m0.avro"), std::string::npos) << append.err;
  const size_t metadata_put = append.err.find("PUT shop/orders/metadata/00002-");
  ASSERT_NE(metadata_put, std::string::npos) << append.err;
  const std::string line = append.err.substr(metadata_put, append.err.find('\n', metadata_put) - metadata_put);
  EXPECT_NE(line.find("if-none-match=*"), std::string::npos) << line;
  EXPECT_NE(append.err.find("totals: "), std::string::npos) << append.err;

  auto scan = Floe({"--trace-io", "table", "scan", "shop.orders", "--count", "--where", "city = 'Faro'"});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_EQ(scan.out, "1\n");
  EXPECT_NE(scan.err.find("GET shop/orders/metadata/00002-"), std::string::npos) << scan.err;
  EXPECT_NE(scan.err.find("GET shop/orders/data/"), std::string::npos) << scan.err;
  EXPECT_NE(scan.err.find("totals: "), std::string::npos) << scan.err;
}

TEST_F(S3TableCliTest, CatalogPropertiesConfigureS3WithoutTheEnvironment) {
  CreateOrders();
  const std::vector<std::string> bare = {"FLOE_WAREHOUSE=", "FLOE_CATALOG=", "FLOE_LOG=", "AWS_PROFILE=",
                                         "HOME=/nonexistent", "AWS_ENDPOINT_URL_S3=", "AWS_ENDPOINT_URL=",
                                         "AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY=", "AWS_SESSION_TOKEN=",
                                         "AWS_REGION=", "AWS_DEFAULT_REGION="};
  const std::vector<std::string> properties = {
      "--catalog-property", "s3.endpoint=" + S3TestServer::endpoint(),
      "--catalog-property", "s3.access-key-id=floe-test",
      "--catalog-property", "s3.secret-access-key=floe-test-secret",
      "--catalog-property", "s3.path-style-access=true",
      "--catalog-property", "client.region=us-east-1"};
  std::vector<std::string> scan = properties;
  for (const char* a : {"--format", "csv", "table", "scan", "shop.orders", "--select", "order_id"}) scan.push_back(a);
  auto r = Floe(scan, bare);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(SortedRows(r.out), "1\n2\n3\n");
  std::vector<std::string> append = properties;
  Write("b.csv", "order_id,order_ts,city,amount\n4,2026-10-21T22:00:00,Faro,1.50\n");
  for (const char* a : {"table", "append", "shop.orders", "b.csv"}) append.push_back(a);
  r = Floe(append, bare);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Ids(), "1\n2\n3\n4\n");

  // A malformed one is an error naming it, before any request.
  auto bad = Floe({"--catalog-property", "s3.path-style-access=maybe", "table", "scan", "shop.orders"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("s3.path-style-access"), std::string::npos) << bad.err;
  EXPECT_EQ(Lines(bad.err), 1u) << bad.err;
  auto malformed = Floe({"--catalog-property", "s3.endpoint", "table", "scan", "shop.orders"});
  EXPECT_EQ(malformed.exit_code, 1);
  EXPECT_NE(malformed.err.find("expected k=v"), std::string::npos) << malformed.err;
}

TEST_F(S3TableCliTest, TablePropertiesConfigureTheTablesStorage) {
  CreateOrders();
  // A storage property of the table overrides the environment for its requests.
  auto evolve = Floe({"table", "evolve", "shop.orders", "--property", "s3.endpoint=http://127.0.0.1:9", "--property",
                      "s3.max-attempts=1"});
  EXPECT_NE(evolve.exit_code, 0);
  EXPECT_NE(evolve.err.find("floe: IOError: "), std::string::npos) << evolve.err;
  EXPECT_NE(evolve.err.find(At("wh/shop/orders/metadata/")), std::string::npos) << evolve.err;
  EXPECT_EQ(Ids(), "1\n2\n3\n");  // unchanged

  auto created = Floe({"table", "create", "shop.elsewhere", "--schema", "id long", "--property",
                       "s3.endpoint=http://127.0.0.1:9", "--property", "s3.max-attempts=1"});
  EXPECT_NE(created.exit_code, 0);
  EXPECT_NE(created.err.find(At("wh/shop/elsewhere/metadata/00000-")), std::string::npos) << created.err;
  EXPECT_EQ(Floe({"table", "scan", "shop.elsewhere"}).exit_code, 1);

  // A working endpoint given as a table property (a proxy of the server):
  // the table's requests go there.
  TcpProxy proxy(S3TestServer::port());
  const std::string proxied = "http://127.0.0.1:" + std::to_string(proxy.port());
  auto good = Floe({"table", "create", "shop.props", "--schema", "id long", "--property", "s3.endpoint=" + proxied});
  ASSERT_EQ(good.exit_code, 0) << good.err;
  EXPECT_GT(proxy.connections(), 0);
  const int before = proxy.connections();
  Write("ids.csv", "id\n7\n8\n");
  auto r = Floe({"table", "append", "shop.props", "ids.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(proxy.connections(), before);
  EXPECT_EQ(Ok({"table", "scan", "shop.props", "--count"}), "2\n");
  EXPECT_EQ(Objects(At("wh/shop/props/data/")).size(), 1u);
}

TEST_F(S3TableCliTest, WrongCredentialsAreOneLineErrorsAndLeaveTheTableAlone) {
  if (!S3TestServer::checks_signatures()) GTEST_SKIP() << "moto does not check signatures";
  CreateOrders();
  const auto before = Objects(At("wh/"));
  Write("b.csv", "order_id,order_ts,city,amount\n4,2026-10-21T22:00:00,Faro,1.50\n");
  for (const auto& args : std::vector<std::vector<std::string>>{{"table", "append", "shop.orders", "b.csv"},
                                                                {"table", "scan", "shop.orders"},
                                                                {"table", "delete", "shop.orders", "--where", "true"}}) {
    auto r = Floe(args, Env("wrong-secret"));
    EXPECT_EQ(r.exit_code, 1) << Join(args) << ": " << r.err;
    EXPECT_EQ(Lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("PermissionDenied"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("secret access key"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("s3://" + bucket_ + "/wh/shop/orders/"), std::string::npos) << r.err;
  }
  EXPECT_EQ(Objects(At("wh/")), before);
  EXPECT_EQ(Ids(), "1\n2\n3\n");
}

TEST_F(S3TableCliTest, MissingBucketIsAOneLineErrorNamingIt) {
  const std::string bucket = "floe-no-such-bucket-" + std::to_string(getpid());
  const std::string warehouse = "s3://" + bucket + "/wh";
  auto run = [&](std::vector<std::string> args) { return RunFloe(Args(std::move(args), warehouse), Env(), dir_.path()); };
  ASSERT_EQ(run({"namespace", "create", "shop"}).exit_code, 0);  // only the catalog's database
  auto r = run({"table", "create", "shop.t", "--schema", "id long"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("NotFound"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bucket '" + bucket + "'"), std::string::npos) << r.err;
  auto list = run({"--format", "csv", "table", "list", "shop"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(list.out.find("shop.t"), std::string::npos) << list.out;
  EXPECT_EQ(run({"table", "scan", "shop.t"}).exit_code, 1);
}

TEST_F(S3TableCliTest, DefaultCatalogOfAnS3WarehouseIsRefusedWithAHint) {
  auto r = RunFloe({"--warehouse", At("wh"), "namespace", "create", "shop"}, Env(), dir_.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("'" + At("wh") + "/catalog.db' is not on the local disk"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--catalog sqlite:"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace floe::testing
