#include "floe/catalog/catalog.h"

#include <gtest/gtest.h>

namespace floe::catalog {
namespace {

TEST(NamespaceTest, ParsesAndFormatsDottedNames) {
  Namespace ns = Namespace::Parse("shop.eu").value();
  EXPECT_EQ(ns.levels, (std::vector<std::string>{"shop", "eu"}));
  EXPECT_EQ(ns.ToString(), "shop.eu");
  EXPECT_TRUE(Namespace::Parse("").value().empty());
  EXPECT_EQ(Namespace::Parse("").value().ToString(), "");
  for (const char* bad : {"a..b", ".a", "a."}) {
    auto parsed = Namespace::Parse(bad);
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(Namespace::Parse("a..b").status().message(), "namespace 'a..b' has an empty level");
}

TEST(NamespaceTest, ValidatesLevelsBuiltInCode) {
  EXPECT_TRUE((Namespace{{"a", "b"}}).Validate().ok());
  EXPECT_EQ((Namespace{{"a.b"}}).Validate().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ((Namespace{{""}}).Validate().code(), StatusCode::kInvalidArgument);
  EXPECT_LT(Namespace::Parse("a").value(), Namespace::Parse("a.b").value());
}

TEST(TableIdentifierTest, SplitsTheNameFromTheNamespace) {
  TableIdentifier ident = TableIdentifier::Parse("shop.eu.orders").value();
  EXPECT_EQ(ident.ns.ToString(), "shop.eu");
  EXPECT_EQ(ident.name, "orders");
  EXPECT_EQ(ident.ToString(), "shop.eu.orders");
  EXPECT_TRUE(ident.Validate().ok());

  TableIdentifier bare = TableIdentifier::Parse("orders").value();
  EXPECT_TRUE(bare.ns.empty());
  EXPECT_EQ(bare.Validate().code(), StatusCode::kInvalidArgument);  // catalogs need a namespace
  EXPECT_EQ(bare.Validate().message(), "table identifier 'orders' has no namespace");

  for (const char* bad : {"", "shop.", ".orders", "a..b"}) {
    EXPECT_EQ(TableIdentifier::Parse(bad).status().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ((TableIdentifier{Namespace{{"shop"}}, "a.b"}).Validate().code(), StatusCode::kInvalidArgument);
}

TEST(CatalogMessagesTest, NameTheObject) {
  EXPECT_EQ(NamespaceNotFoundMessage(Namespace::Parse("shop").value()), "namespace shop does not exist");
  EXPECT_EQ(TableNotFoundMessage(TableIdentifier::Parse("shop.orders").value()), "table shop.orders does not exist");
}

}  // namespace
}  // namespace floe::catalog
