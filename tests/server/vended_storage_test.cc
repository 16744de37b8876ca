// The REST client's FileIO per table: the storage settings a server vends
// with a table (LoadTableResult.config) and the table's own properties are
// weighed against the client's, in PyIceberg's order, and the table's files
// go through the FileIO made for the result.

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "floe/catalog/rest_catalog.h"
#include "server/rest_server_test_util.h"

namespace floe::server {
namespace {

using catalog::testing::Ident;
using testing::CreateTableBody;
using testing::ServerFixture;

// A resolver that records what it was asked for and hands out local FileIOs.
struct RecordingResolver {
  std::mutex mutex;
  std::vector<FileIOProperties> asked;
  std::vector<std::shared_ptr<FileIO>> made;

  catalog::TableFileIOResolver Resolver() {
    return [this](const std::string&, const FileIOProperties& properties) -> Result<std::shared_ptr<FileIO>> {
      std::lock_guard lock(mutex);
      asked.push_back(properties);
      made.push_back(NewLocalFileIO());
      return made.back();
    };
  }
};

// The operations of shop.t through a client with storage settings of its
// own (an endpoint and a key), `io` its FileIO; loaded once.
std::shared_ptr<iceberg::TableOperations> LoadThroughClient(ServerFixture& f, RecordingResolver& resolver,
                                                            std::shared_ptr<FileIO> io) {
  catalog::RestCatalogOptions options;
  options.uri = "http://127.0.0.1:" + std::to_string(f.server().port());
  options.properties = {{"s3.endpoint", "http://client:1"}, {"s3.access-key-id", "client-key"}};
  options.table_io = resolver.Resolver();
  auto catalog = catalog::RestCatalog::Open(options, std::move(io));
  EXPECT_TRUE(catalog.ok()) << catalog.status().ToString();
  if (!catalog.ok()) return nullptr;
  auto ops = (*catalog)->NewTableOps(Ident("shop.t"));
  auto loaded = ops->Refresh();
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  return ops;
}

TEST(VendedStorage, TableConfigWinsOverTablePropertiesOverTheClient) {
  RestServerOptions options = ServerFixture::Insecure();
  options.table_config = {{"s3.endpoint", "http://vended:1"}, {"client.region", "eu-west-1"}};
  ServerFixture f(options);
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})")->status, 200);
  ASSERT_EQ(f.Post("/v1/namespaces/shop/tables",
                   CreateTableBody("t", R"(,"properties":{"s3.path-style-access":"true","client.region":"us-east-2"})"))
                ->status,
            200);
  RecordingResolver resolver;
  auto client_io = NewLocalFileIO();
  auto ops = LoadThroughClient(f, resolver, client_io);
  ASSERT_NE(ops, nullptr);
  ASSERT_EQ(resolver.asked.size(), 1u);
  EXPECT_EQ(resolver.asked[0], (FileIOProperties{{"s3.endpoint", "http://vended:1"},
                                                 {"s3.access-key-id", "client-key"},
                                                 {"s3.path-style-access", "true"},
                                                 {"client.region", "eu-west-1"}}));
  EXPECT_EQ(&ops->io(), resolver.made[0].get());
  // The same settings on the next load: the same FileIO, no new one.
  ASSERT_TRUE(ops->Refresh().ok());
  EXPECT_EQ(resolver.asked.size(), 1u);
  EXPECT_EQ(&ops->io(), resolver.made[0].get());
}

TEST(VendedStorage, TablesWithoutStorageSettingsUseTheClientsFileIO) {
  ServerFixture f;
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})")->status, 200);
  ASSERT_EQ(f.Post("/v1/namespaces/shop/tables", CreateTableBody("t"))->status, 200);
  RecordingResolver resolver;
  auto client_io = NewLocalFileIO();
  auto ops = LoadThroughClient(f, resolver, client_io);
  ASSERT_NE(ops, nullptr);
  EXPECT_TRUE(resolver.asked.empty());
  EXPECT_EQ(&ops->io(), client_io.get());
}

}  // namespace
}  // namespace floe::server
