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

TEST(CatalogUriTest, RedactsPasswords) {
  EXPECT_EQ(RedactCatalogUri("postgresql://ana:s3cret@db:5432/cat?sslmode=require"),
            "postgresql://ana@db:5432/cat?sslmode=require");
  EXPECT_EQ(RedactCatalogUri("postgres://ana:p%40ss@db/cat"), "postgres://ana@db/cat");
  EXPECT_EQ(RedactCatalogUri("jdbc:postgresql://db/cat?user=ana&password=s3cret&ssl=true"),
            "jdbc:postgresql://db/cat?user=ana&ssl=true");
  EXPECT_EQ(RedactCatalogUri("postgresql://db/cat?password=s3cret"), "postgresql://db/cat");
  EXPECT_EQ(RedactCatalogUri("postgresql://ana@db/cat"), "postgresql://ana@db/cat");
  EXPECT_EQ(RedactCatalogUri("sqlite:/tmp/c.db"), "sqlite:/tmp/c.db");
  EXPECT_EQ(RedactCatalogUri("sqlite:////tmp/c.db"), "sqlite:////tmp/c.db");
}

TEST(CatalogUriTest, PostgresUnreachableIsAnIOErrorWithoutThePassword) {
  // Port 1 on the loopback: nothing listens, the connection is refused at once.
  auto result = OpenCatalog("postgresql://ana:s3cret@127.0.0.1:1/cat", "/tmp/wh", NewLocalFileIO());
  EXPECT_EQ(result.status().code(), StatusCode::kIOError) << result.status().ToString();
  EXPECT_EQ(result.status().message().find("s3cret"), std::string::npos) << result.status().message();
  EXPECT_NE(result.status().message().find("catalog database 'postgresql://ana@127.0.0.1:1/cat'"), std::string::npos)
      << result.status().message();
  EXPECT_EQ(OpenCatalog("postgresql://ana:s3cret@127.0.0.1:1/cat", "", NewLocalFileIO()).status().code(),
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
