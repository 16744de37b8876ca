// Namespaces in the SQL catalog: create, list (nested), properties, drop.

#include <gtest/gtest.h>

#include "catalog/catalog_test_util.h"

namespace floe::catalog {
namespace {

using testing::Ident;
using testing::Ns;
using testing::OpenSqlCatalog;
using testing::OrdersRequest;

TEST(SqlCatalogNamespaceTest, CreateLoadAndExist) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  EXPECT_FALSE(catalog->NamespaceExists(Ns("shop")).value());
  ASSERT_TRUE(catalog->CreateNamespace(Ns("shop"), {{"owner", "ana"}, {"location", "/x/shop"}}).ok());
  EXPECT_TRUE(catalog->NamespaceExists(Ns("shop")).value());
  EXPECT_TRUE(catalog->NamespaceExists(Ns("")).value());  // the root always exists
  // The reserved "exists" row is not a property a client sees.
  EXPECT_EQ(catalog->LoadNamespaceMetadata(Ns("shop")).value(),
            (Properties{{"location", "/x/shop"}, {"owner", "ana"}}));

  Status again = catalog->CreateNamespace(Ns("shop"), {});
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(again.message(), "namespace shop already exists");

  auto missing = catalog->LoadNamespaceMetadata(Ns("toys"));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "namespace toys does not exist");
  EXPECT_EQ(catalog->CreateNamespace(Ns("toys"), {{"exists", "no"}}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(catalog->CreateNamespace(Ns(""), {}).code(), StatusCode::kInvalidArgument);
}

TEST(SqlCatalogNamespaceTest, NestedNamespacesListOneLevelAtATime) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  for (const char* ns : {"shop", "shop.eu", "shop.eu.de", "shop.us", "toys", "shopping"}) {
    ASSERT_TRUE(catalog->CreateNamespace(Ns(ns), {}).ok()) << ns;
  }
  EXPECT_EQ(catalog->ListNamespaces(Ns("")).value(), (std::vector<Namespace>{Ns("shop"), Ns("shopping"), Ns("toys")}));
  // "shopping" shares a prefix with "shop" but is not inside it.
  EXPECT_EQ(catalog->ListNamespaces(Ns("shop")).value(), (std::vector<Namespace>{Ns("shop.eu"), Ns("shop.us")}));
  EXPECT_EQ(catalog->ListNamespaces(Ns("shop.eu")).value(), (std::vector<Namespace>{Ns("shop.eu.de")}));
  EXPECT_TRUE(catalog->ListNamespaces(Ns("shop.eu.de")).value().empty());
  EXPECT_EQ(catalog->ListNamespaces(Ns("nope")).status().code(), StatusCode::kNotFound);
}

TEST(SqlCatalogNamespaceTest, ParentsExistThroughWhatTheyContain) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  // As in Java's JdbcCatalog: a nested namespace needs no created parent, and
  // makes its parents exist.
  ASSERT_TRUE(catalog->CreateNamespace(Ns("a.b.c"), {}).ok());
  EXPECT_TRUE(catalog->NamespaceExists(Ns("a")).value());
  EXPECT_TRUE(catalog->NamespaceExists(Ns("a.b")).value());
  EXPECT_FALSE(catalog->NamespaceExists(Ns("a.b.c.d")).value());
  EXPECT_FALSE(catalog->NamespaceExists(Ns("a.bb")).value());
  EXPECT_TRUE(catalog->LoadNamespaceMetadata(Ns("a")).value().empty());
  EXPECT_EQ(catalog->CreateNamespace(Ns("a"), {}).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(catalog->ListNamespaces(Ns("")).value(), (std::vector<Namespace>{Ns("a")}));
}

TEST(SqlCatalogNamespaceTest, MatchesNamesExactly) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  // SQL LIKE would treat '_' and '%' as wildcards and ignore ASCII case.
  ASSERT_TRUE(catalog->CreateNamespace(Ns("a_b.c"), {}).ok());
  ASSERT_TRUE(catalog->CreateNamespace(Ns("Shop"), {}).ok());
  EXPECT_FALSE(catalog->NamespaceExists(Ns("axb")).value());
  EXPECT_TRUE(catalog->NamespaceExists(Ns("a_b")).value());
  EXPECT_FALSE(catalog->NamespaceExists(Ns("shop")).value());
  EXPECT_TRUE(catalog->ListNamespaces(Ns("Shop")).value().empty());
}

TEST(SqlCatalogNamespaceTest, UpdatePropertiesReportsWhatChanged) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace(Ns("shop"), {{"a", "1"}, {"b", "2"}}).ok());
  NamespacePropertiesUpdate update =
      catalog->UpdateNamespaceProperties(Ns("shop"), {"b", "zz"}, {{"a", "10"}, {"c", "3"}}).value();
  EXPECT_EQ(update.updated, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(update.removed, (std::vector<std::string>{"b"}));
  EXPECT_EQ(update.missing, (std::vector<std::string>{"zz"}));
  EXPECT_EQ(catalog->LoadNamespaceMetadata(Ns("shop")).value(), (Properties{{"a", "10"}, {"c", "3"}}));

  EXPECT_EQ(catalog->UpdateNamespaceProperties(Ns("shop"), {"a"}, {{"a", "1"}}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(catalog->UpdateNamespaceProperties(Ns("shop"), {"exists"}, {}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(catalog->UpdateNamespaceProperties(Ns("nope"), {}, {{"a", "1"}}).status().code(), StatusCode::kNotFound);

  // Removing every property leaves the namespace in place.
  ASSERT_TRUE(catalog->UpdateNamespaceProperties(Ns("shop"), {"a", "c"}, {}).ok());
  EXPECT_TRUE(catalog->NamespaceExists(Ns("shop")).value());
  EXPECT_TRUE(catalog->LoadNamespaceMetadata(Ns("shop")).value().empty());
}

TEST(SqlCatalogNamespaceTest, DropRefusesNonEmptyNamespaces) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace(Ns("shop"), {}).ok());
  ASSERT_TRUE(catalog->CreateNamespace(Ns("shop.eu"), {}).ok());
  ASSERT_TRUE(catalog->CreateTable(Ident("shop.orders"), OrdersRequest()).ok());

  Status with_table = catalog->DropNamespace(Ns("shop"));
  EXPECT_EQ(with_table.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(with_table.message(), "namespace shop is not empty: it has 1 table(s)");
  ASSERT_TRUE(catalog->DropTable(Ident("shop.orders"), /*purge=*/true).ok());
  Status with_child = catalog->DropNamespace(Ns("shop"));
  EXPECT_EQ(with_child.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(with_child.message(), "namespace shop is not empty: it has namespace shop.eu");

  ASSERT_TRUE(catalog->DropNamespace(Ns("shop.eu")).ok());
  ASSERT_TRUE(catalog->DropNamespace(Ns("shop")).ok());
  EXPECT_FALSE(catalog->NamespaceExists(Ns("shop")).value());
  EXPECT_EQ(catalog->DropNamespace(Ns("shop")).code(), StatusCode::kNotFound);
  EXPECT_TRUE(catalog->ListNamespaces(Ns("")).value().empty());
}

TEST(SqlCatalogNamespaceTest, CatalogNamesKeepCatalogsApartInOneDatabase) {
  floe::testing::TempDir dir;
  auto floe_catalog = OpenSqlCatalog(dir, "floe");
  auto other = OpenSqlCatalog(dir, "other");
  ASSERT_NE(floe_catalog, nullptr);
  ASSERT_NE(other, nullptr);
  ASSERT_TRUE(floe_catalog->CreateNamespace(Ns("shop"), {}).ok());
  EXPECT_FALSE(other->NamespaceExists(Ns("shop")).value());
  ASSERT_TRUE(other->CreateNamespace(Ns("shop"), {{"k", "v"}}).ok());
  EXPECT_TRUE(floe_catalog->LoadNamespaceMetadata(Ns("shop")).value().empty());
  EXPECT_EQ(other->LoadNamespaceMetadata(Ns("shop")).value(), (Properties{{"k", "v"}}));
}

}  // namespace
}  // namespace floe::catalog
