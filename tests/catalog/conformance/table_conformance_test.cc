// Tables on every catalog: create, load, list (paged), exists, rename, drop
// (with and without purge), register.

#include <gtest/gtest.h>

#include <filesystem>

#include "catalog/conformance/conformance_test.h"
#include "floe/base/strings.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/metadata_location.h"

namespace floe::catalog::testing {
namespace {

size_t RegularFilesUnder(const std::string& folder) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(folder, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file()) ++n;
  }
  return n;
}

class TableConformanceTest : public CatalogConformanceTest {
 protected:
  void SetUp() override {
    CatalogConformanceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop"), {}).ok());
  }
};

TEST_P(TableConformanceTest, CreateWritesVersionZeroAtTheDefaultLocation) {
  iceberg::TableState created = catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).value();
  const std::string location = warehouse() + "/shop/orders";
  EXPECT_EQ(created.metadata->location, location);
  EXPECT_TRUE(StartsWith(created.metadata_location, location + "/metadata/00000-")) << created.metadata_location;
  EXPECT_TRUE(EndsWith(created.metadata_location, ".metadata.json"));
  EXPECT_EQ(created.metadata->format_version, 2);
  EXPECT_EQ(created.metadata->last_column_id, 2);
  EXPECT_EQ(created.metadata->default_spec()->fields[0].field_id, 1000);

  // The file on disk is what the catalog points at.
  iceberg::TableMetadata on_disk = iceberg::ReadTableMetadata(*NewLocalFileIO(), created.metadata_location).value();
  EXPECT_EQ(on_disk, *created.metadata);
  iceberg::TableState loaded = catalog_->LoadTable(Ident("shop.orders")).value();
  EXPECT_EQ(loaded.metadata_location, created.metadata_location);
  EXPECT_EQ(*loaded.metadata, *created.metadata);
  EXPECT_TRUE(catalog_->TableExists(Ident("shop.orders")).value());
  EXPECT_FALSE(catalog_->TableExists(Ident("shop.items")).value());
}

TEST_P(TableConformanceTest, CreateHonoursLocationAndNamespaceLocation) {
  CreateTableRequest request = OrdersRequest();
  request.location = dir_.Join("elsewhere/orders/");
  request.format_version = 3;
  iceberg::TableState explicit_location = catalog_->CreateTable(Ident("shop.orders"), request).value();
  EXPECT_EQ(explicit_location.metadata->location, dir_.Join("elsewhere/orders"));
  EXPECT_EQ(explicit_location.metadata->format_version, 3);

  ASSERT_TRUE(catalog_->CreateNamespace(Ns("toys.eu"), {{"location", dir_.Join("toys-eu")}}).ok());
  iceberg::TableState in_ns = catalog_->CreateTable(Ident("toys.eu.cars"), OrdersRequest()).value();
  EXPECT_EQ(in_ns.metadata->location, dir_.Join("toys-eu/cars"));
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("toys.us"), {}).ok());
  EXPECT_EQ(catalog_->CreateTable(Ident("toys.us.cars"), OrdersRequest()).value().metadata->location,
            warehouse() + "/toys/us/cars");
}

TEST_P(TableConformanceTest, CreateFailsCleanly) {
  auto no_ns = catalog_->CreateTable(Ident("nope.orders"), OrdersRequest());
  EXPECT_EQ(no_ns.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(no_ns.status().message(), "namespace nope does not exist");

  ASSERT_TRUE(catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).ok());
  auto again = catalog_->CreateTable(Ident("shop.orders"), OrdersRequest());
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(again.status().message(), "table shop.orders already exists");

  CreateTableRequest bad = OrdersRequest();
  bad.partition_spec.fields[0].source_ids = {42};
  EXPECT_EQ(catalog_->CreateTable(Ident("shop.bad"), bad).status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(catalog_->TableExists(Ident("shop.bad")).value());
  EXPECT_EQ(catalog_->CreateTable(Ident("orders"), OrdersRequest()).status().code(), StatusCode::kInvalidArgument);
  // Only the one good table's file was written.
  EXPECT_EQ(RegularFilesUnder(warehouse()), 1u);
}

TEST_P(TableConformanceTest, ListsTablesOfOneNamespace) {
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop.eu"), {}).ok());
  for (const char* name : {"shop.orders", "shop.items", "shop.eu.orders"}) {
    ASSERT_TRUE(catalog_->CreateTable(Ident(name), OrdersRequest()).ok()) << name;
  }
  EXPECT_EQ(catalog_->ListTables(Ns("shop")).value(),
            (std::vector<TableIdentifier>{Ident("shop.items"), Ident("shop.orders")}));
  EXPECT_EQ(catalog_->ListTables(Ns("shop.eu")).value(), (std::vector<TableIdentifier>{Ident("shop.eu.orders")}));
  EXPECT_EQ(catalog_->ListTables(Ns("nope")).status().code(), StatusCode::kNotFound);
}

TEST_P(TableConformanceTest, LoadOfAMissingTable) {
  auto missing = catalog_->LoadTable(Ident("shop.orders"));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "table shop.orders does not exist");
}

TEST_P(TableConformanceTest, RenameMovesTheNameNotTheFiles) {
  iceberg::TableState created = catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).value();
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("archive"), {}).ok());
  ASSERT_TRUE(catalog_->RenameTable(Ident("shop.orders"), Ident("archive.orders_2024")).ok());
  EXPECT_FALSE(catalog_->TableExists(Ident("shop.orders")).value());
  iceberg::TableState renamed = catalog_->LoadTable(Ident("archive.orders_2024")).value();
  EXPECT_EQ(renamed.metadata_location, created.metadata_location);

  EXPECT_EQ(catalog_->RenameTable(Ident("shop.orders"), Ident("shop.x")).code(), StatusCode::kNotFound);
  Status no_ns = catalog_->RenameTable(Ident("archive.orders_2024"), Ident("nope.orders"));
  EXPECT_EQ(no_ns.code(), StatusCode::kNotFound);
  EXPECT_EQ(no_ns.message(), "namespace nope does not exist");
  ASSERT_TRUE(catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).ok());
  Status taken = catalog_->RenameTable(Ident("archive.orders_2024"), Ident("shop.orders"));
  EXPECT_EQ(taken.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(taken.message(), "table shop.orders already exists");
  EXPECT_TRUE(catalog_->RenameTable(Ident("shop.orders"), Ident("shop.orders")).ok());
}

TEST_P(TableConformanceTest, DropWithoutPurgeKeepsFiles) {
  iceberg::TableState created = catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).value();
  ASSERT_TRUE(catalog_->DropTable(Ident("shop.orders"), /*purge=*/false).ok());
  EXPECT_FALSE(catalog_->TableExists(Ident("shop.orders")).value());
  EXPECT_TRUE(NewLocalFileIO()->Exists(created.metadata_location).value());
  EXPECT_EQ(catalog_->DropTable(Ident("shop.orders"), false).code(), StatusCode::kNotFound);
  EXPECT_EQ(catalog_->DropTable(Ident("shop.orders"), true).code(), StatusCode::kNotFound);
}

TEST_P(TableConformanceTest, DropWithPurgeDeletesTheTablesFiles) {
  iceberg::TableState created = catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).value();
  auto ops = catalog_->NewTableOps(Ident("shop.orders"));
  iceberg::TableState second = ops->Commit(created, WithProperty(*created.metadata, "k", "1")).value();
  // Files a writer would have left: data, a manifest, outside-of-log leftovers.
  auto io = NewLocalFileIO();
  const std::string location = created.metadata->location;
  ASSERT_TRUE(io->WriteAll(location + "/data/part-0.parquet", std::string_view("PAR1")).ok());
  ASSERT_TRUE(io->WriteAll(location + "/metadata/snap-1-m0.avro", std::string_view("Obj")).ok());
  // A neighbour whose name starts the same must survive.
  ASSERT_TRUE(io->WriteAll(location + "_old/data/keep.parquet", std::string_view("PAR1")).ok());
  EXPECT_EQ(RegularFilesUnder(location), 4u);

  ASSERT_TRUE(catalog_->DropTable(Ident("shop.orders"), /*purge=*/true).ok());
  EXPECT_FALSE(catalog_->TableExists(Ident("shop.orders")).value());
  EXPECT_EQ(RegularFilesUnder(location), 0u);
  EXPECT_FALSE(io->Exists(created.metadata_location).value());
  EXPECT_FALSE(io->Exists(second.metadata_location).value());
  EXPECT_TRUE(io->Exists(location + "_old/data/keep.parquet").value());
}

TEST_P(TableConformanceTest, RegisterAdoptsAnExistingMetadataFile) {
  iceberg::TableState created = catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).value();
  iceberg::TableState registered =
      catalog_->RegisterTable(Ident("shop.orders_copy"), created.metadata_location).value();
  EXPECT_EQ(registered.metadata_location, created.metadata_location);
  EXPECT_EQ(*registered.metadata, *created.metadata);
  EXPECT_EQ(catalog_->LoadTable(Ident("shop.orders_copy")).value().metadata_location, created.metadata_location);

  EXPECT_EQ(catalog_->RegisterTable(Ident("shop.orders"), created.metadata_location).status().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(catalog_->RegisterTable(Ident("nope.t"), created.metadata_location).status().code(), StatusCode::kNotFound);
  auto missing_file = catalog_->RegisterTable(Ident("shop.ghost"), dir_.Join("nothing.metadata.json"));
  EXPECT_EQ(missing_file.status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(catalog_->TableExists(Ident("shop.ghost")).value());
}

TEST_P(TableConformanceTest, RegistersATableJavaWrote) {
  // A v2 table written by Java's reference implementation, read in place.
  const std::string fixture = std::string(FLOE_SHARED_DIR) +
                              "/fixtures/iceberg/duckdb-iceberg/data/persistent/is_null_is_not_null/metadata/"
                              "00001-43ceeb9a-cd0d-4556-b1e2-513b5bf88ff8.metadata.json";
  if (!std::filesystem::exists(fixture)) GTEST_SKIP() << "fixture missing: " << fixture;
  iceberg::TableState registered = catalog_->RegisterTable(Ident("shop.from_java"), fixture).value();
  EXPECT_FALSE(registered.metadata->table_uuid.empty());
  EXPECT_EQ(iceberg::ParseMetadataFileVersion(registered.metadata_location), 1);
  EXPECT_EQ(catalog_->ListTables(Ns("shop")).value(), (std::vector<TableIdentifier>{Ident("shop.from_java")}));
  ASSERT_TRUE(catalog_->DropTable(Ident("shop.from_java"), /*purge=*/false).ok());
  EXPECT_TRUE(std::filesystem::exists(fixture));
}

TEST_P(TableConformanceTest, ListsTablesInPages) {
  for (const char* name : {"shop.e", "shop.a", "shop.c", "shop.b", "shop.d"}) {
    ASSERT_TRUE(catalog_->CreateTable(Ident(name), OrdersRequest()).ok()) << name;
  }
  std::vector<std::string> names;
  PageRequest page{"", 2};
  int pages = 0;
  while (true) {
    Page<TableIdentifier> listed = catalog_->ListTables(Ns("shop"), page).value();
    ++pages;
    EXPECT_LE(listed.items.size(), 2u);
    for (const TableIdentifier& ident : listed.items) names.push_back(ident.name);
    if (listed.next_page_token.empty()) break;
    page.page_token = listed.next_page_token;
    ASSERT_LT(pages, 10);
  }
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(catalog_->ListTables(Ns("shop"), PageRequest{"c", 0}).value().items,
            (std::vector<TableIdentifier>{Ident("shop.d"), Ident("shop.e")}));
  EXPECT_EQ(catalog_->ListTables(Ns("nope"), PageRequest{"", 1}).status().code(), StatusCode::kNotFound);
}

TEST_P(TableConformanceTest, ListsTablesByBytesNotByCollation) {
  // PostgreSQL's collation may sort "B" after "a"; listings and page tokens
  // follow byte order on every backend.
  for (const char* name : {"shop.b", "shop.B", "shop.a", "shop.A_1"}) {
    ASSERT_TRUE(catalog_->CreateTable(Ident(name), OrdersRequest()).ok()) << name;
  }
  EXPECT_EQ(catalog_->ListTables(Ns("shop")).value(),
            (std::vector<TableIdentifier>{Ident("shop.A_1"), Ident("shop.B"), Ident("shop.a"), Ident("shop.b")}));
}

TEST_P(TableConformanceTest, AnotherHandleSeesTheSameTables) {
  iceberg::TableState created = catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).value();
  auto other = OpenAgain();
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->LoadTable(Ident("shop.orders")).value().metadata_location, created.metadata_location);
  EXPECT_EQ(other->CreateTable(Ident("shop.orders"), OrdersRequest()).status().code(), StatusCode::kAlreadyExists);
  ASSERT_TRUE(other->DropTable(Ident("shop.orders"), false).ok());
  EXPECT_FALSE(catalog_->TableExists(Ident("shop.orders")).value());
}

FLOE_CATALOG_CONFORMANCE(TableConformanceTest);

}  // namespace
}  // namespace floe::catalog::testing
