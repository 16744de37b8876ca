// The SQL catalog's database is the Iceberg JDBC catalog's: the exact
// columns Java's JdbcUtil creates, rows PyIceberg's SqlCatalog reads, and a
// catalog PyIceberg wrote (a duckdb-iceberg fixture) opened and committed to.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <tuple>

#include "catalog/catalog_test_util.h"
#include "floe/base/strings.h"
#include "floe/iceberg/metadata_location.h"
#include "testing/required_tools.h"
#include "testing/run_process.h"

namespace floe::catalog {
namespace {

using testing::Ident;
using testing::Ns;
using testing::OpenSqlCatalog;
using testing::OrdersRequest;
using testing::WithProperty;

// (name, declared type, not null, primary key position)
using Column = std::tuple<std::string, std::string, int, int>;

std::vector<Column> TableInfo(const std::string& db_path, const std::string& table) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  const std::string sql = "PRAGMA table_info(" + table + ")";
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK);
  std::vector<Column> columns;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    columns.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1)),
                         reinterpret_cast<const char*>(sqlite3_column_text(stmt, 2)), sqlite3_column_int(stmt, 3),
                         sqlite3_column_int(stmt, 5));
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return columns;
}

std::vector<std::vector<std::string>> Rows(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  std::vector<std::vector<std::string>> rows;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
      const unsigned char* text = sqlite3_column_text(stmt, i);
      row.push_back(text == nullptr ? "NULL" : reinterpret_cast<const char*>(text));
    }
    rows.push_back(std::move(row));
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rows;
}

TEST(SqlCatalogCompatTest, CreatesTheJdbcCatalogTablesExactly) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  EXPECT_TRUE(catalog->has_record_type());
  // Java JdbcUtil.V0_CREATE_CATALOG_SQL + V1_UPDATE_CATALOG_SQL.
  EXPECT_EQ(TableInfo(dir.Join("catalog.db"), "iceberg_tables"),
            (std::vector<Column>{{"catalog_name", "VARCHAR(255)", 1, 1},
                                 {"table_namespace", "VARCHAR(255)", 1, 2},
                                 {"table_name", "VARCHAR(255)", 1, 3},
                                 {"metadata_location", "VARCHAR(1000)", 0, 0},
                                 {"previous_metadata_location", "VARCHAR(1000)", 0, 0},
                                 {"iceberg_type", "VARCHAR(5)", 0, 0}}));
  // Java JdbcUtil.CREATE_NAMESPACE_PROPERTIES_TABLE_SQL.
  EXPECT_EQ(TableInfo(dir.Join("catalog.db"), "iceberg_namespace_properties"),
            (std::vector<Column>{{"catalog_name", "VARCHAR(255)", 1, 1},
                                 {"namespace", "VARCHAR(255)", 1, 2},
                                 {"property_key", "VARCHAR(255)", 0, 3},
                                 {"property_value", "VARCHAR(1000)", 0, 0}}));
  EXPECT_EQ(Rows(dir.Join("catalog.db"), "PRAGMA journal_mode"), (std::vector<std::vector<std::string>>{{"wal"}}));
}

TEST(SqlCatalogCompatTest, WritesRowsAsJdbcCatalogDoes) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace(Ns("shop.eu"), {{"owner", "ana"}}).ok());
  iceberg::TableState created = catalog->CreateTable(Ident("shop.eu.orders"), OrdersRequest()).value();
  const std::string db = dir.Join("catalog.db");
  EXPECT_EQ(Rows(db, "SELECT * FROM iceberg_tables"),
            (std::vector<std::vector<std::string>>{
                {"floe", "shop.eu", "orders", created.metadata_location, "NULL", "TABLE"}}));
  EXPECT_EQ(Rows(db, "SELECT * FROM iceberg_namespace_properties ORDER BY property_key"),
            (std::vector<std::vector<std::string>>{{"floe", "shop.eu", "exists", "true"},
                                                   {"floe", "shop.eu", "owner", "ana"}}));
  auto ops = catalog->NewTableOps(Ident("shop.eu.orders"));
  iceberg::TableState next = ops->Commit(created, WithProperty(*created.metadata, "k", "v")).value();
  EXPECT_EQ(Rows(db, "SELECT metadata_location, previous_metadata_location FROM iceberg_tables"),
            (std::vector<std::vector<std::string>>{{next.metadata_location, created.metadata_location}}));
}

// Resolves the relative locations a fixture's catalog holds against a root
// folder, the way the tool that wrote them resolved them against its cwd.
class RootedFileIO : public FileIO {
 public:
  explicit RootedFileIO(std::string root) : root_(std::move(root)), local_(NewLocalFileIO()) {}
  std::string_view scheme() const override { return "file"; }
  Result<FileInfo> Stat(const std::string& path) override { return local_->Stat(Map(path)); }
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path, const OpenReadOptions& options) override {
    return local_->OpenRead(Map(path), options);
  }
  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options) override {
    return local_->OpenWrite(Map(path), options);
  }
  Status Delete(const std::string& path) override { return local_->Delete(Map(path)); }
  Result<ListPage> List(const std::string& prefix, const ListOptions& options) override {
    return local_->List(Map(prefix), options);
  }

 private:
  std::string Map(const std::string& path) const { return path.starts_with("/") ? path : root_ + "/" + path; }
  std::string root_;
  std::shared_ptr<FileIO> local_;
};

const char kFixtureTable[] = "data/persistent/partition_timestamp";

TEST(SqlCatalogCompatTest, OpensAndCommitsToACatalogPyIcebergWrote) {
  const std::filesystem::path fixture_root = std::filesystem::path(FLOE_SHARED_DIR) / "fixtures/iceberg/duckdb-iceberg";
  if (!std::filesystem::exists(fixture_root / kFixtureTable)) GTEST_SKIP() << "fixture missing";
  // A private copy (the fixture is read-only and the test commits), keeping
  // the relative paths the catalog's rows use.
  floe::testing::TempDir dir;
  std::filesystem::create_directories(dir.Join(kFixtureTable));
  std::filesystem::copy(fixture_root / kFixtureTable, dir.Join(kFixtureTable),
                        std::filesystem::copy_options::recursive);
  const std::string db = dir.Join(std::string(kFixtureTable) + "/pyiceberg_catalog.db");

  SqlCatalogOptions options;
  options.database_path = db;
  options.warehouse = dir.Join("warehouse");
  options.catalog_name = "default";  // the name PyIceberg's user gave it
  auto catalog = SqlCatalog::Open(options, std::make_shared<RootedFileIO>(dir.path())).value();
  EXPECT_FALSE(catalog->has_record_type());  // PyIceberg's schema has no iceberg_type
  EXPECT_EQ(catalog->ListNamespaces(Ns("")).value(), (std::vector<Namespace>{Ns("default")}));
  EXPECT_TRUE(catalog->LoadNamespaceMetadata(Ns("default")).value().empty());
  EXPECT_EQ(catalog->ListTables(Ns("default")).value(),
            (std::vector<TableIdentifier>{Ident("default.partition_timestamp")}));
  iceberg::TableState base = catalog->LoadTable(Ident("default.partition_timestamp")).value();
  EXPECT_EQ(iceberg::ParseMetadataFileVersion(base.metadata_location), 1);
  EXPECT_EQ(base.metadata->current_snapshot_id, 2508913168551256223);

  auto ops = catalog->NewTableOps(Ident("default.partition_timestamp"));
  iceberg::TableState next = ops->Commit(base, WithProperty(*base.metadata, "committed-by", "floe")).value();
  EXPECT_TRUE(StartsWith(next.metadata_location,
                         std::string(kFixtureTable) + "/default.db/partition_timestamp/metadata/00002-"))
      << next.metadata_location;
  EXPECT_EQ(Rows(db, "SELECT * FROM iceberg_tables"),
            (std::vector<std::vector<std::string>>{
                {"default", "default", "partition_timestamp", next.metadata_location, base.metadata_location}}));
  // The schema stays PyIceberg's: floe adds no column to a database it did not create.
  EXPECT_EQ(TableInfo(db, "iceberg_tables").size(), 5u);

  // And PyIceberg's reading of it sees floe's commit.
  const std::string script = std::string(FLOE_SOURCE_DIR) + "/tests/catalog/pyiceberg_sql_read.py";
  auto python = floe::testing::RunProcess({"/usr/bin/python3", script, db, "default", dir.path()});
  FLOE_REQUIRE_TOOL(python.exit_code != 127, "/usr/bin/python3 is missing");
  ASSERT_EQ(python.exit_code, 0) << python.err;
  EXPECT_NE(python.out.find("namespace default exists=True props=exists=true"), std::string::npos) << python.out;
  EXPECT_NE(python.out.find(StrCat("table default.partition_timestamp location=", next.metadata_location,
                                   " previous=", base.metadata_location, " format=2")),
            std::string::npos)
      << python.out;
  EXPECT_NE(python.out.find("committed-by=floe"), std::string::npos) << python.out;
}

TEST(SqlCatalogCompatTest, PyIcebergReadsWhatFloeWrote) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->CreateNamespace(Ns("shop"), {{"owner", "ana"}}).ok());
  ASSERT_TRUE(catalog->CreateNamespace(Ns("shop.eu"), {}).ok());
  iceberg::TableState created = catalog->CreateTable(Ident("shop.orders"), OrdersRequest()).value();
  auto ops = catalog->NewTableOps(Ident("shop.orders"));
  iceberg::TableState next = ops->Commit(created, WithProperty(*created.metadata, "k", "v")).value();

  const std::string script = std::string(FLOE_SOURCE_DIR) + "/tests/catalog/pyiceberg_sql_read.py";
  auto python = floe::testing::RunProcess({"/usr/bin/python3", script, dir.Join("catalog.db"), "floe"});
  FLOE_REQUIRE_TOOL(python.exit_code != 127, "/usr/bin/python3 is missing");
  ASSERT_EQ(python.exit_code, 0) << python.err;
  EXPECT_NE(python.out.find("namespace shop exists=True props=exists=true,owner=ana\n"), std::string::npos)
      << python.out;
  EXPECT_NE(python.out.find("namespace shop.eu exists=True props=exists=true\n"), std::string::npos) << python.out;
  EXPECT_NE(python.out.find(StrCat("table shop.orders location=", next.metadata_location, " previous=",
                                   created.metadata_location, " format=2 uuid=", created.metadata->table_uuid,
                                   " log=1 props=k=v,write.parquet.compression-codec=zstd\n")),
            std::string::npos)
      << python.out;
  // Another catalog's rows are not PyIceberg's "floe" catalog's.
  auto other = floe::testing::RunProcess({"/usr/bin/python3", script, dir.Join("catalog.db"), "elsewhere"});
  EXPECT_EQ(other.out, "");
}

}  // namespace
}  // namespace floe::catalog
