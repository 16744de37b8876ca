// SqlCatalog: a Catalog kept in a SQLite database with the tables of the
// Iceberg JDBC catalog, so Java's JdbcCatalog, PyIceberg's SqlCatalog and
// floe open the same tables (docs/decisions/0021-sql-catalog-on-sqlite.md):
//
//   iceberg_tables(catalog_name, table_namespace, table_name,
//                  metadata_location, previous_metadata_location, iceberg_type)
//   iceberg_namespace_properties(catalog_name, namespace, property_key,
//                                property_value)
//
// Rows are keyed by the catalog name; namespaces are stored dotted ("a.b").
// A namespace exists when it has a property row (created namespaces get
// `exists`=`true`, as Java writes), a table, or a nested namespace. A
// database made by an older Java or by PyIceberg, without `iceberg_type`, is
// used as it is (every row is then a table).
//
// A commit is one transaction: UPDATE iceberg_tables SET metadata_location
// = new, previous_metadata_location = old WHERE <the table> AND
// metadata_location = old. No row changed: CommitConflict. A COMMIT whose
// outcome SQLite cannot tell: CommitStateUnknown. Write transactions are
// BEGIN IMMEDIATE with a busy timeout, in WAL mode, so several processes may
// use one database file at once.
//
// Thread safety: thread-safe (a pool of connections); safe across processes.

#pragma once

#include <memory>
#include <string>

#include "floe/catalog/catalog.h"
#include "floe/catalog/catalog_table_operations.h"
#include "floe/catalog/sqlite.h"
#include "floe/io/file_io.h"

namespace floe::catalog {

struct SqlCatalogOptions {
  std::string database_path;  // the SQLite file; ":memory:" for a private one
  // The root of default table locations: <warehouse>/<ns levels joined by
  // '/'>/<table>, unless the namespace has a "location" property (then
  // <that>/<table>). A trailing '/' is dropped.
  std::string warehouse;
  std::string catalog_name = "floe";
  int busy_timeout_ms = 30'000;
  size_t max_connections = 4;
};

class SqlCatalog final : public Catalog, public MetadataPointerStore, public std::enable_shared_from_this<SqlCatalog> {
 public:
  // Opens the database (creating it and the catalog tables when missing).
  // InvalidArgument for an empty path, warehouse or catalog name; Corrupt
  // when the database's tables lack the JDBC columns; IOError /
  // PermissionDenied from SQLite. `io` reads and writes the metadata files.
  static Result<std::shared_ptr<SqlCatalog>> Open(SqlCatalogOptions options, std::shared_ptr<FileIO> io);

  const std::string& name() const override { return options_.catalog_name; }
  const SqlCatalogOptions& options() const { return options_; }
  // Whether iceberg_tables has the iceberg_type column (JDBC schema V1).
  bool has_record_type() const { return has_record_type_; }

  // Catalog (contracts in catalog.h). The property "exists" is reserved.
  Status CreateNamespace(const Namespace& ns, const Properties& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<Properties> LoadNamespaceMetadata(const Namespace& ns) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Status DropNamespace(const Namespace& ns) override;
  Result<NamespacePropertiesUpdate> UpdateNamespaceProperties(const Namespace& ns,
                                                              const std::vector<std::string>& removals,
                                                              const Properties& updates) override;
  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Result<iceberg::TableState> CreateTable(const TableIdentifier& ident, const CreateTableRequest& request) override;
  Result<iceberg::TableState> LoadTable(const TableIdentifier& ident) override;
  Result<bool> TableExists(const TableIdentifier& ident) override;
  Status DropTable(const TableIdentifier& ident, bool purge) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<iceberg::TableState> RegisterTable(const TableIdentifier& ident,
                                            const std::string& metadata_location) override;
  Result<iceberg::TableState> CommitTable(const TableIdentifier& ident,
                                          const std::vector<iceberg::TableRequirement>& requirements,
                                          const std::vector<iceberg::TableUpdate>& updates) override;
  // Writes every table's new metadata file, then swaps all pointers in one
  // SQL transaction (sql_catalog_transaction.cc).
  Result<std::vector<iceberg::TableState>> CommitTransaction(const std::vector<TableCommit>& commits) override;
  std::shared_ptr<iceberg::TableOperations> NewTableOps(const TableIdentifier& ident) override;

  // MetadataPointerStore (contracts in catalog_table_operations.h).
  Result<std::string> LoadMetadataLocation(const TableIdentifier& ident) override;
  Status CreateMetadataLocation(const TableIdentifier& ident, const std::string& metadata_location) override;
  Status SwapMetadataLocation(const TableIdentifier& ident, const std::string& expected,
                              const std::string& metadata_location) override;

  // Where CreateTable puts `ident` when the request names no location.
  // NotFound when the namespace does not exist.
  Result<std::string> DefaultTableLocation(const TableIdentifier& ident);

  // Use Open.
  SqlCatalog(SqlCatalogOptions options, std::shared_ptr<FileIO> io);

 private:
  Status InitializeTables();
  // " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)", or "" on a V0 database.
  std::string TableRowFilter() const;

  SqlCatalogOptions options_;
  std::shared_ptr<FileIO> io_;
  sqlite::ConnectionPool pool_;
  bool has_record_type_ = false;
};

}  // namespace floe::catalog
