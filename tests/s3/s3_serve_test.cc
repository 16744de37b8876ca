// An Iceberg warehouse at s3://bucket/wh served by `floe serve` over a
// SQLite catalog: floe commands through `--catalog http://...` create,
// append, scan, overwrite, delete, compact and expire, and the bucket holds
// exactly what the live snapshots reference. The server writes the metadata
// files to the bucket; the clients write the data files.

#include <gtest/gtest.h>

#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog_test_util.h"
#include "catalog/rest_server_util.h"
#include "floe/base/strings.h"
#include "s3_fixture.h"
#include "testing/run_process.h"
#include "testing/temp_dir.h"

namespace floe::testing {
namespace {

// The test account and the S3 server, as the standard AWS variables.
std::vector<std::string> AwsEnvironment() {
  return {"AWS_ENDPOINT_URL_S3=" + S3TestServer::endpoint(), "AWS_ACCESS_KEY_ID=floe-test",
          "AWS_SECRET_ACCESS_KEY=floe-test-secret", "AWS_REGION=us-east-1"};
}

// Sets the variables for the lifetime of the object (the server child
// inherits them when it forks) and restores what was there.
class ScopedEnvironment {
 public:
  explicit ScopedEnvironment(const std::vector<std::string>& assignments) {
    for (const auto& a : assignments) {
      const std::string name = a.substr(0, a.find('='));
      const char* old = getenv(name.c_str());
      saved_.push_back({name, old != nullptr, old != nullptr ? old : ""});
      setenv(name.c_str(), a.substr(a.find('=') + 1).c_str(), 1);
    }
  }
  ~ScopedEnvironment() {
    for (const auto& s : saved_) {
      if (s.was_set) {
        setenv(s.name.c_str(), s.value.c_str(), 1);
      } else {
        unsetenv(s.name.c_str());
      }
    }
  }

 private:
  struct Saved {
    std::string name;
    bool was_set;
    std::string value;
  };
  std::vector<Saved> saved_;
};

class S3ServeTest : public S3Test {
 protected:
  void SetUp() override {
    S3Test::SetUp();
    ScopedEnvironment aws(AwsEnvironment());
    server_ = std::make_unique<catalog::testing::FloeServer>(dir_, std::vector<std::string>{"--warehouse", At("wh")});
    ASSERT_TRUE(server_->ok());
  }

  // A client that knows the catalog's URL and the storage's account, and
  // nothing of the warehouse or a local catalog.
  static std::vector<std::string> ClientEnv() {
    std::vector<std::string> env = {"FLOE_WAREHOUSE=", "FLOE_CATALOG=", "FLOE_LOG=", "AWS_PROFILE=",
                                    "HOME=/nonexistent", "AWS_ENDPOINT_URL=", "AWS_SESSION_TOKEN="};
    for (auto& a : AwsEnvironment()) env.push_back(a);
    return env;
  }
  ProcessResult Floe(std::vector<std::string> args) {
    args.insert(args.begin(), {"--catalog", server_->url()});
    return RunFloe(args, ClientEnv(), dir_.path());
  }
  std::string Ok(std::vector<std::string> args) {
    const std::string shown = Join(args);
    auto r = Floe(std::move(args));
    EXPECT_EQ(r.exit_code, 0) << shown << ": " << r.err;
    return r.out;
  }
  static std::string Join(const std::vector<std::string>& args) {
    std::string joined;
    for (const auto& a : args) joined += (joined.empty() ? "" : " ") + a;
    return joined;
  }
  std::string Ids() { return SortedRows(Ok({"--format", "csv", "table", "scan", "shop.orders", "--select", "order_id"})); }
  std::set<std::string> ObjectsEndingWith(const std::string& prefix, const std::string& suffix) {
    std::set<std::string> matching;
    for (const auto& p : Objects(prefix)) {
      if (p.ends_with(suffix)) matching.insert(p);
    }
    return matching;
  }
  std::set<std::string> LiveDataFiles() { return ParquetPathsIn(Ok({"--format", "csv", "table", "files", "shop.orders"})); }
  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_.Join(name)) << text; }

  TempDir dir_;
  std::unique_ptr<catalog::testing::FloeServer> server_;
};

TEST_F(S3ServeTest, TableLifeCycleThroughTheRestServer) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.orders", "--schema",
      "order_id long not null, order_ts timestamp, city string, amount decimal(18,2)", "--partition", "day(order_ts)"});
  // The server chose the location inside its warehouse and wrote the first
  // metadata file there.
  EXPECT_EQ(ObjectsEndingWith(At("wh/shop/orders/metadata/"), ".metadata.json").size(), 1u);

  Write("a.csv",
        "order_id,order_ts,city,amount\n1,2026-10-21T20:15:00,Lisbon,12.50\n2,2026-10-21T21:00:00,Porto,3.00\n"
        "3,2026-10-22T09:00:00,Lisbon,7.25\n");
  Ok({"table", "append", "shop.orders", "a.csv"});
  EXPECT_EQ(Ids(), "1\n2\n3\n");
  EXPECT_EQ(ObjectsEndingWith(At("wh/shop/orders/data/"), ".parquet").size(), 2u);  // one file per day
  EXPECT_EQ(Ok({"table", "scan", "shop.orders", "--count", "--where", "city = 'Lisbon'"}), "2\n");

  Write("b.csv", "order_id,order_ts,city,amount\n4,2026-10-22T11:00:00,Braga,9.99\n");
  Ok({"table", "overwrite", "shop.orders", "--where", "order_ts >= '2026-10-22T00:00:00'", "b.csv"});
  EXPECT_EQ(Ids(), "1\n2\n4\n");
  Ok({"table", "delete", "shop.orders", "--where", "city = 'Porto'"});
  EXPECT_EQ(Ids(), "1\n4\n");
  Write("c.csv", "order_id,order_ts,city,amount\n5,2026-10-21T23:00:00,Faro,1.00\n");
  Ok({"table", "append", "shop.orders", "c.csv"});
  EXPECT_NE(Ok({"table", "compact", "shop.orders"}).find("compacted"), std::string::npos);
  EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "scan", "shop.orders", "--select", "order_id,city,amount"})),
            "1,Lisbon,12.50\n4,Braga,9.99\n5,Faro,1.00\n");

  // Every commit went through the server: one metadata file per version.
  const auto snapshots = Ok({"--format", "csv", "table", "snapshots", "shop.orders"});
  EXPECT_EQ(std::count(snapshots.begin(), snapshots.end(), '\n'), 6) << snapshots;  // header + 5 snapshots
  EXPECT_EQ(ObjectsEndingWith(At("wh/shop/orders/metadata/"), ".metadata.json").size(), 6u);

  // Expiry deletes exactly the files no remaining snapshot references.
  EXPECT_GT(ObjectsEndingWith(At("wh/shop/orders/data/"), ".parquet").size(), LiveDataFiles().size());
  const std::string expired =
      Ok({"table", "expire", "shop.orders", "--older-than", "2100-01-01T00:00:00", "--retain-last", "1"});
  EXPECT_NE(expired.find("expired 4 snapshots"), std::string::npos) << expired;
  EXPECT_EQ(ObjectsEndingWith(At("wh/shop/orders/data/"), ".parquet"), LiveDataFiles());
  EXPECT_EQ(Ids(), "1\n4\n5\n");

  Ok({"table", "drop", "shop.orders", "--purge"});
  EXPECT_EQ(Objects(At("wh/shop/orders/")), std::set<std::string>{});
  auto gone = Floe({"table", "scan", "shop.orders"});
  EXPECT_EQ(gone.exit_code, 1);
  EXPECT_NE(gone.err.find("shop.orders"), std::string::npos) << gone.err;
}

// A location outside the server's warehouse — another bucket, or a path
// that climbs out of it — is refused before anything is written, and the
// bucket stays as it was.
TEST_F(S3ServeTest, LocationOutsideTheWarehouseIsRefused) {
  Ok({"namespace", "create", "shop"});
  catalog::RestCatalogOptions options;
  options.uri = server_->url();
  auto catalog = catalog::RestCatalog::Open(options, io_);
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  const auto before = Objects(root_);
  for (const std::string& location : {std::string("s3://another-bucket/wh/shop/t"), At("wh/../elsewhere/t"), At("other/t")}) {
    catalog::CreateTableRequest request = catalog::testing::OrdersRequest();
    request.location = location;
    auto created = (*catalog)->CreateTable(catalog::testing::Ident("shop.t"), request);
    ASSERT_FALSE(created.ok()) << location;
    EXPECT_TRUE(created.status().IsInvalidArgument() || created.status().IsPermissionDenied())
        << created.status().ToString();
    EXPECT_NE(created.status().message().find("warehouse"), std::string::npos) << created.status().ToString();
  }
  EXPECT_EQ(Objects(root_), before);
  EXPECT_EQ(Floe({"table", "scan", "shop.t"}).exit_code, 1);
}

// A client that knows only the account, with a storage endpoint that
// leads nowhere: the server's --table-config hands it the endpoint with
// each table (LoadTableResult.config), and that wins over the client's own.
// The same client against a server that vends nothing cannot reach the
// files, so it is the vended config that made the difference.
TEST_F(S3ServeTest, ClientUsesTheStorageConfigTheServerVends) {
  TempDir vending_dir;
  std::unique_ptr<catalog::testing::FloeServer> vending;
  {
    ScopedEnvironment aws(AwsEnvironment());
    vending = std::make_unique<catalog::testing::FloeServer>(
        vending_dir, std::vector<std::string>{"--warehouse", At("vended"), "--table-config",
                                              "s3.endpoint=" + S3TestServer::endpoint(), "--table-config",
                                              "client.region=us-east-1"});
  }
  ASSERT_TRUE(vending->ok());
  std::vector<std::string> env = ClientEnv();
  env.push_back("AWS_ENDPOINT_URL_S3=http://127.0.0.1:9");  // later assignments win: nothing listens there
  auto run = [&](const catalog::testing::FloeServer& server, std::vector<std::string> args) {
    args.insert(args.begin(), {"--catalog", server.url()});
    return RunFloe(args, env, dir_.path());
  };
  auto ok = [&](std::vector<std::string> args) {
    const std::string shown = Join(args);
    auto r = run(*vending, std::move(args));
    EXPECT_EQ(r.exit_code, 0) << shown << ": " << r.err;
    return r.out;
  };
  ok({"namespace", "create", "shop"});
  ok({"table", "create", "shop.t", "--schema", "id long not null, city string"});
  Write("t.csv", "id,city\n1,Lisbon\n2,Porto\n");
  ok({"table", "append", "shop.t", "t.csv"});
  EXPECT_EQ(SortedRows(ok({"--format", "csv", "table", "scan", "shop.t"})), "1,Lisbon\n2,Porto\n");
  EXPECT_EQ(ObjectsEndingWith(At("vended/shop/t/data/"), ".parquet").size(), 1u);

  Ok({"namespace", "create", "shop"});  // on the server that vends nothing
  Ok({"table", "create", "shop.t", "--schema", "id long not null, city string"});
  auto unreachable = run(*server_, {"table", "append", "shop.t", "t.csv"});
  EXPECT_EQ(unreachable.exit_code, 2) << unreachable.out;  // an IOError
  EXPECT_NE(unreachable.err.find("127.0.0.1 port 9"), std::string::npos) << unreachable.err;
  EXPECT_EQ(ObjectsEndingWith(At("wh/shop/t/data/"), ".parquet").size(), 0u);
}

}  // namespace
}  // namespace floe::testing
