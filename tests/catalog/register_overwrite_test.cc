// RegisterTable with overwrite (spec RegisterTableRequest.overwrite) on the
// SQL catalog, and through `floe serve` with the REST client: the pointer of
// an existing table swapped by compare-and-swap, a missing table created,
// nothing changed on a bad file.

#include <gtest/gtest.h>

#include "catalog/catalog_test_util.h"
#include "catalog/rest_server_util.h"
#include "floe/catalog/rest_catalog.h"

namespace floe::catalog {
namespace {

using testing::Ident;
using testing::Ns;
using testing::OrdersRequest;
using testing::WithProperty;

// A table with two metadata files: the created one and one with k=v.
struct TwoVersions {
  iceberg::TableState first;
  iceberg::TableState second;
};

TwoVersions MakeTwoVersions(Catalog& catalog) {
  EXPECT_TRUE(catalog.CreateNamespace(Ns("shop"), {}).ok());
  auto first = catalog.CreateTable(Ident("shop.orders"), OrdersRequest());
  EXPECT_TRUE(first.ok()) << first.status().ToString();
  auto second = catalog.CommitTable(Ident("shop.orders"), {}, {iceberg::SetProperties{{{"k", "v"}}}});
  EXPECT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_NE(first->metadata_location, second->metadata_location);
  return {*first, *second};
}

TEST(RegisterOverwrite, SwapsTheExistingTablesPointer) {
  floe::testing::TempDir dir;
  auto catalog = testing::OpenSqlCatalog(dir);
  const TwoVersions v = MakeTwoVersions(*catalog);

  EXPECT_EQ(catalog->RegisterTable(Ident("shop.orders"), v.first.metadata_location).status().code(),
            StatusCode::kAlreadyExists);
  auto registered = catalog->RegisterTable(Ident("shop.orders"), v.first.metadata_location, /*overwrite=*/true);
  ASSERT_TRUE(registered.ok()) << registered.status().ToString();
  EXPECT_EQ(registered->metadata_location, v.first.metadata_location);
  EXPECT_FALSE(registered->metadata->properties.contains("k"));
  EXPECT_EQ(catalog->LoadTable(Ident("shop.orders")).value().metadata_location, v.first.metadata_location);

  // A writer still holding the overwritten version loses its swap: the
  // overwrite is a compare-and-swap like any commit, never a blind write.
  auto stale = catalog->NewTableOps(Ident("shop.orders"))->Commit(v.second, WithProperty(*v.second.metadata, "x", "1"));
  EXPECT_EQ(stale.status().code(), StatusCode::kCommitConflict) << stale.status().ToString();
  EXPECT_EQ(catalog->LoadTable(Ident("shop.orders")).value().metadata_location, v.first.metadata_location);
  // And commits go on from the registered file.
  auto next = catalog->CommitTable(Ident("shop.orders"), {}, {iceberg::SetProperties{{{"after", "1"}}}});
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_FALSE(next->metadata->properties.contains("k"));
  EXPECT_EQ(next->metadata->properties.at("after"), "1");
}

TEST(RegisterOverwrite, CreatesAMissingTable) {
  floe::testing::TempDir dir;
  auto catalog = testing::OpenSqlCatalog(dir);
  const TwoVersions v = MakeTwoVersions(*catalog);
  auto copy = catalog->RegisterTable(Ident("shop.copy"), v.second.metadata_location, /*overwrite=*/true);
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  EXPECT_EQ(catalog->LoadTable(Ident("shop.copy")).value().metadata_location, v.second.metadata_location);
  EXPECT_EQ(catalog->RegisterTable(Ident("nope.t"), v.second.metadata_location, true).status().code(),
            StatusCode::kNotFound);
}

TEST(RegisterOverwrite, LeavesThePointerOnABadFile) {
  floe::testing::TempDir dir;
  auto catalog = testing::OpenSqlCatalog(dir);
  const TwoVersions v = MakeTwoVersions(*catalog);
  auto missing = catalog->RegisterTable(Ident("shop.orders"), dir.Join("nothing.metadata.json"), true);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound) << missing.status().ToString();
  EXPECT_EQ(catalog->LoadTable(Ident("shop.orders")).value().metadata_location, v.second.metadata_location);
}

TEST(RegisterOverwrite, ThroughFloeServe) {
  floe::testing::TempDir dir;
  testing::FloeServer server(dir);
  ASSERT_TRUE(server.ok());
  auto rest = testing::OpenRest(server.url());
  ASSERT_NE(rest, nullptr);
  const TwoVersions v = MakeTwoVersions(*rest);
  EXPECT_EQ(rest->RegisterTable(Ident("shop.orders"), v.first.metadata_location).status().code(),
            StatusCode::kAlreadyExists);
  auto registered = rest->RegisterTable(Ident("shop.orders"), v.first.metadata_location, /*overwrite=*/true);
  ASSERT_TRUE(registered.ok()) << registered.status().ToString();
  EXPECT_EQ(registered->metadata_location, v.first.metadata_location);
  EXPECT_EQ(rest->LoadTable(Ident("shop.orders")).value().metadata_location, v.first.metadata_location);
}

}  // namespace
}  // namespace floe::catalog
