// Namespaces on every catalog: create, list (nested, paged), properties,
// drop.

#include <gtest/gtest.h>

#include "catalog/conformance/conformance_test.h"

namespace floe::catalog::testing {
namespace {

TEST_P(CatalogConformanceTest, CreateLoadAndExist) {
  EXPECT_FALSE(catalog_->NamespaceExists(Ns("shop")).value());
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop"), {{"owner", "ana"}, {"location", "/x/shop"}}).ok());
  EXPECT_TRUE(catalog_->NamespaceExists(Ns("shop")).value());
  EXPECT_TRUE(catalog_->NamespaceExists(Ns("")).value());  // the root always exists
  // The reserved "exists" row is not a property a client sees.
  EXPECT_EQ(catalog_->LoadNamespaceMetadata(Ns("shop")).value(),
            (Properties{{"location", "/x/shop"}, {"owner", "ana"}}));

  Status again = catalog_->CreateNamespace(Ns("shop"), {});
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(again.message(), "namespace shop already exists");

  auto missing = catalog_->LoadNamespaceMetadata(Ns("toys"));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "namespace toys does not exist");
  EXPECT_EQ(catalog_->CreateNamespace(Ns("toys"), {{"exists", "no"}}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(catalog_->CreateNamespace(Ns(""), {}).code(), StatusCode::kInvalidArgument);
}

TEST_P(CatalogConformanceTest, NestedNamespacesListOneLevelAtATime) {
  for (const char* ns : {"shop", "shop.eu", "shop.eu.de", "shop.us", "toys", "shopping"}) {
    ASSERT_TRUE(catalog_->CreateNamespace(Ns(ns), {}).ok()) << ns;
  }
  EXPECT_EQ(catalog_->ListNamespaces(Ns("")).value(), (std::vector<Namespace>{Ns("shop"), Ns("shopping"), Ns("toys")}));
  // "shopping" shares a prefix with "shop" but is not inside it.
  EXPECT_EQ(catalog_->ListNamespaces(Ns("shop")).value(), (std::vector<Namespace>{Ns("shop.eu"), Ns("shop.us")}));
  EXPECT_EQ(catalog_->ListNamespaces(Ns("shop.eu")).value(), (std::vector<Namespace>{Ns("shop.eu.de")}));
  EXPECT_TRUE(catalog_->ListNamespaces(Ns("shop.eu.de")).value().empty());
  EXPECT_EQ(catalog_->ListNamespaces(Ns("nope")).status().code(), StatusCode::kNotFound);
}

TEST_P(CatalogConformanceTest, ParentsExistThroughWhatTheyContain) {
  // As in Java's JdbcCatalog: a nested namespace needs no created parent, and
  // makes its parents exist.
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("a.b.c"), {}).ok());
  EXPECT_TRUE(catalog_->NamespaceExists(Ns("a")).value());
  EXPECT_TRUE(catalog_->NamespaceExists(Ns("a.b")).value());
  EXPECT_FALSE(catalog_->NamespaceExists(Ns("a.b.c.d")).value());
  EXPECT_FALSE(catalog_->NamespaceExists(Ns("a.bb")).value());
  EXPECT_TRUE(catalog_->LoadNamespaceMetadata(Ns("a")).value().empty());
  EXPECT_EQ(catalog_->CreateNamespace(Ns("a"), {}).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(catalog_->ListNamespaces(Ns("")).value(), (std::vector<Namespace>{Ns("a")}));
}

TEST_P(CatalogConformanceTest, MatchesNamesExactly) {
  // SQL LIKE would treat '_' and '%' as wildcards and ignore ASCII case.
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("a_b.c"), {}).ok());
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("Shop"), {}).ok());
  EXPECT_FALSE(catalog_->NamespaceExists(Ns("axb")).value());
  EXPECT_TRUE(catalog_->NamespaceExists(Ns("a_b")).value());
  EXPECT_FALSE(catalog_->NamespaceExists(Ns("shop")).value());
  EXPECT_TRUE(catalog_->ListNamespaces(Ns("Shop")).value().empty());
}

TEST_P(CatalogConformanceTest, UpdatePropertiesReportsWhatChanged) {
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop"), {{"a", "1"}, {"b", "2"}}).ok());
  NamespacePropertiesUpdate update =
      catalog_->UpdateNamespaceProperties(Ns("shop"), {"b", "zz"}, {{"a", "10"}, {"c", "3"}}).value();
  EXPECT_EQ(update.updated, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(update.removed, (std::vector<std::string>{"b"}));
  EXPECT_EQ(update.missing, (std::vector<std::string>{"zz"}));
  EXPECT_EQ(catalog_->LoadNamespaceMetadata(Ns("shop")).value(), (Properties{{"a", "10"}, {"c", "3"}}));

  EXPECT_EQ(catalog_->UpdateNamespaceProperties(Ns("shop"), {"a"}, {{"a", "1"}}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(catalog_->UpdateNamespaceProperties(Ns("shop"), {"exists"}, {}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(catalog_->UpdateNamespaceProperties(Ns("nope"), {}, {{"a", "1"}}).status().code(), StatusCode::kNotFound);

  // Removing every property leaves the namespace in place.
  ASSERT_TRUE(catalog_->UpdateNamespaceProperties(Ns("shop"), {"a", "c"}, {}).ok());
  EXPECT_TRUE(catalog_->NamespaceExists(Ns("shop")).value());
  EXPECT_TRUE(catalog_->LoadNamespaceMetadata(Ns("shop")).value().empty());
}

TEST_P(CatalogConformanceTest, DropRefusesNonEmptyNamespaces) {
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop"), {}).ok());
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop.eu"), {}).ok());
  ASSERT_TRUE(catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).ok());

  Status with_table = catalog_->DropNamespace(Ns("shop"));
  EXPECT_EQ(with_table.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(with_table.message(), "namespace shop is not empty: it has 1 table(s) or view(s)");
  ASSERT_TRUE(catalog_->DropTable(Ident("shop.orders"), /*purge=*/true).ok());
  Status with_child = catalog_->DropNamespace(Ns("shop"));
  EXPECT_EQ(with_child.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(with_child.message(), "namespace shop is not empty: it has namespace shop.eu");

  ASSERT_TRUE(catalog_->DropNamespace(Ns("shop.eu")).ok());
  ASSERT_TRUE(catalog_->DropNamespace(Ns("shop")).ok());
  EXPECT_FALSE(catalog_->NamespaceExists(Ns("shop")).value());
  EXPECT_EQ(catalog_->DropNamespace(Ns("shop")).code(), StatusCode::kNotFound);
  EXPECT_TRUE(catalog_->ListNamespaces(Ns("")).value().empty());
}

TEST_P(CatalogConformanceTest, ListsNamespacesInPages) {
  for (const char* ns : {"a", "b", "c", "d", "e", "a.x", "a.y"}) ASSERT_TRUE(catalog_->CreateNamespace(Ns(ns), {}).ok());
  Page<Namespace> first = catalog_->ListNamespaces(Ns(""), PageRequest{"", 2}).value();
  EXPECT_EQ(first.items, (std::vector<Namespace>{Ns("a"), Ns("b")}));
  ASSERT_FALSE(first.next_page_token.empty());
  // A namespace created between pages, before the token, is not listed again
  // nor does it shift the next page.
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("aa"), {}).ok());
  Page<Namespace> second = catalog_->ListNamespaces(Ns(""), PageRequest{first.next_page_token, 2}).value();
  EXPECT_EQ(second.items, (std::vector<Namespace>{Ns("c"), Ns("d")}));
  Page<Namespace> last = catalog_->ListNamespaces(Ns(""), PageRequest{second.next_page_token, 2}).value();
  EXPECT_EQ(last.items, (std::vector<Namespace>{Ns("e")}));
  EXPECT_TRUE(last.next_page_token.empty());
  // Page size 0: everything; nested parents page their own children.
  EXPECT_EQ(catalog_->ListNamespaces(Ns(""), PageRequest{}).value().items.size(), 6u);
  Page<Namespace> nested = catalog_->ListNamespaces(Ns("a"), PageRequest{"", 1}).value();
  EXPECT_EQ(nested.items, (std::vector<Namespace>{Ns("a.x")}));
  EXPECT_EQ(catalog_->ListNamespaces(Ns("a"), PageRequest{nested.next_page_token, 1}).value().items,
            (std::vector<Namespace>{Ns("a.y")}));
  EXPECT_EQ(catalog_->ListNamespaces(Ns("nope"), PageRequest{"", 1}).status().code(), StatusCode::kNotFound);
}

TEST_P(CatalogConformanceTest, NamespacePropertiesKeepTextExactly) {
  // Quotes, placeholders and non-ASCII text pass through bound parameters
  // untouched on every backend.
  const Properties properties = {{"comment", "it's a \"shop\" ? $1 ; --"}, {"ünï", "çødé ✓"}, {"empty", ""}};
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop"), properties).ok());
  EXPECT_EQ(OpenAgain()->LoadNamespaceMetadata(Ns("shop")).value(), properties);
}

FLOE_CATALOG_CONFORMANCE(CatalogConformanceTest);

}  // namespace
}  // namespace floe::catalog::testing
