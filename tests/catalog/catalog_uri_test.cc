#include "floe/catalog/catalog_uri.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "floe/catalog/sql_catalog.h"
#include "testing/temp_dir.h"

namespace floe::catalog {
namespace {

TEST(CatalogUriTest, SchemeWords) {
  EXPECT_EQ(CatalogUriScheme("sqlite:/tmp/c.db"), "sqlite");
  EXPECT_EQ(CatalogUriScheme("jdbc:sqlite:c.db"), "sqlite");
  EXPECT_EQ(CatalogUriScheme("postgresql://h/db"), "postgresql");
  EXPECT_EQ(CatalogUriScheme("HTTPS://h"), "https");
  EXPECT_EQ(CatalogUriScheme("/tmp/c.db"), "");
}

TEST(CatalogUriTest, OpensSqliteCatalogsAndCreatesTheirFolder) {
  floe::testing::TempDir dir;
  const std::string db = dir.Join("new/folder/catalog.db");
  auto catalog = OpenCatalog("sqlite:" + db, dir.Join("warehouse"), NewLocalFileIO()).value();
  EXPECT_EQ(catalog->name(), "floe");
  EXPECT_TRUE(std::filesystem::exists(db));
  ASSERT_TRUE(catalog->CreateNamespace(Namespace::Parse("shop").value(), {}).ok());

  // The same file by Java's and SQLAlchemy's spellings.
  auto jdbc = OpenCatalog("jdbc:sqlite:" + db, dir.Join("warehouse"), NewLocalFileIO()).value();
  EXPECT_TRUE(jdbc->NamespaceExists(Namespace::Parse("shop").value()).value());
  auto alchemy = OpenCatalog("sqlite:///" + db, dir.Join("warehouse"), NewLocalFileIO(), "floe").value();
  EXPECT_TRUE(alchemy->NamespaceExists(Namespace::Parse("shop").value()).value());
  auto memory = OpenCatalog("sqlite://", dir.Join("warehouse"), NewLocalFileIO(), "mine").value();
  EXPECT_EQ(memory->name(), "mine");
  EXPECT_FALSE(memory->NamespaceExists(Namespace::Parse("shop").value()).value());
}

TEST(CatalogUriTest, MakesARelativeWarehouseAbsolute) {
  floe::testing::TempDir dir;
  auto catalog = OpenCatalog("sqlite:" + dir.Join("c.db"), "./warehouse", NewLocalFileIO()).value();
  auto* sql = dynamic_cast<SqlCatalog*>(catalog.get());
  ASSERT_NE(sql, nullptr);
  EXPECT_EQ(sql->options().warehouse, (std::filesystem::current_path() / "warehouse").string());
  auto s3 = OpenCatalog("sqlite:" + dir.Join("c.db"), "s3://bucket/wh/", NewLocalFileIO()).value();
  EXPECT_EQ(dynamic_cast<SqlCatalog*>(s3.get())->options().warehouse, "s3://bucket/wh");
}

TEST(CatalogUriTest, RefusesOtherSchemes) {
  for (const char* uri : {"postgresql://localhost/floe", "jdbc:postgresql://localhost/floe"}) {
    auto result = OpenCatalog(uri, "/tmp/wh", NewLocalFileIO());
    EXPECT_EQ(result.status().code(), StatusCode::kUnsupported) << uri;
  }
  EXPECT_EQ(OpenCatalog("postgresql://localhost/floe", "/tmp/wh", NewLocalFileIO()).status().message(),
            "catalog scheme postgresql is not supported yet");
  EXPECT_EQ(OpenCatalog("mysql://x", "/tmp/wh", NewLocalFileIO()).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(OpenCatalog("/tmp/c.db", "/tmp/wh", NewLocalFileIO()).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(OpenCatalog("sqlite:", "/tmp/wh", NewLocalFileIO()).status().code(), StatusCode::kInvalidArgument);
  floe::testing::TempDir dir;
  EXPECT_EQ(OpenCatalog("sqlite:" + dir.Join("c.db"), "", NewLocalFileIO()).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(CatalogUriTest, RestUrisKeepSecretsOutAndReportAnUnreachableServer) {
  auto secret = OpenCatalog("http://127.0.0.1:1?credential=id:s3cret", "/tmp/wh", NewLocalFileIO());
  EXPECT_EQ(secret.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(secret.status().message().find("s3cret"), std::string::npos);
  // Port 1 on loopback: refused at once, retried (never reached), then IOError.
  auto refused = OpenCatalog("http://127.0.0.1:1", "/tmp/wh", NewLocalFileIO());
  EXPECT_EQ(refused.status().code(), StatusCode::kIOError);
  EXPECT_NE(refused.status().message().find("GET http://127.0.0.1:1/v1/config"), std::string::npos)
      << refused.status().message();
}

}  // namespace
}  // namespace floe::catalog
