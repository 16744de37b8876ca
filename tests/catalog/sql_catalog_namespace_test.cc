// Namespaces in the SQL catalog beyond the conformance suite
// (tests/catalog/conformance/): catalog names sharing one database.

#include <gtest/gtest.h>

#include "catalog/catalog_test_util.h"

namespace floe::catalog {
namespace {

using testing::Ns;
using testing::OpenSqlCatalog;

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
