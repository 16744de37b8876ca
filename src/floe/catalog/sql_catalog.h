// SqlCatalog: a Catalog kept in a SQL database (SQLite or PostgreSQL, through
// sql_connection.h) with the tables of the Iceberg JDBC catalog, so Java's
// JdbcCatalog, PyIceberg's SqlCatalog and floe open the same tables
// (docs/decisions/0021-sql-catalog-on-sqlite.md,
// docs/decisions/0029-sql-catalog-backends.md):
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
// A commit is one compare-and-swap: UPDATE iceberg_tables SET
// metadata_location = new, previous_metadata_location = old WHERE <the
// table> AND metadata_location = old. No row changed: CommitConflict. On
// SQLite, swaps that arrive together from this process's threads share one
// transaction and one COMMIT (group commit, sql_group_commit.h), each with
// its own outcome; PostgreSQL runs each in its own. A COMMIT whose
// outcome the database cannot tell (SQLite's I/O error in COMMIT, a
// PostgreSQL connection lost after COMMIT was sent): CommitStateUnknown.
// Check-then-write operations hold the backend's catalog lock (SQLite BEGIN
// IMMEDIATE, a PostgreSQL advisory lock), so several processes may use one
// database at once.
//
// Thread safety: thread-safe (a pool of connections, one per thread at a
// time); safe across processes.

#pragma once

#include <memory>
#include <string>

#include "floe/catalog/catalog.h"
#include "floe/catalog/catalog_table_operations.h"
#include "floe/catalog/sql_connection.h"
#include "floe/catalog/sql_group_commit.h"
#include "floe/io/file_io.h"

namespace floe::catalog {

struct SqlCatalogOptions {
  // The SQLite file; ":memory:" for a private one. Unused by Open(backend, ...).
  std::string database_path;
  // The root of default table locations: <warehouse>/<ns levels joined by
  // '/'>/<table>, unless the namespace has a "location" property (then
  // <that>/<table>). A trailing '/' is dropped.
  std::string warehouse;
  std::string catalog_name = "floe";
  // The FileIO of tables whose properties configure storage (see
  // CatalogTableOperations); unset: every table uses the catalog's FileIO.
  TableFileIOResolver table_io{};
  int busy_timeout_ms = 30'000;  // SQLite's busy timeout (PostgreSQL: lock_timeout)
  size_t max_connections = 4;
  // Parsed metadata files kept in memory (catalog/metadata_cache.h), so
  // loads and commits do not re-read the file the pointer names when it was
  // read or written before; 0 turns the cache off.
  size_t metadata_cache_entries = 256;
  // Concurrent pointer swaps (commits) of this process batched into one
  // transaction and one COMMIT when the backend lets one writer in at a time
  // (SQLite; sql_group_commit.h, docs/decisions/0043-group-commit.md). Every
  // swap is still its own compare-and-swap with its own outcome.
  bool group_commit = true;
};

class SqlCatalog final : public Catalog, public MetadataPointerStore, public std::enable_shared_from_this<SqlCatalog> {
 public:
  // Opens the database (creating it and the catalog tables when missing).
  // InvalidArgument for an empty path, warehouse or catalog name; Corrupt
  // when the database's tables lack the JDBC columns; IOError /
  // PermissionDenied from SQLite. `io` reads and writes the metadata files.
  static Result<std::shared_ptr<SqlCatalog>> Open(SqlCatalogOptions options, std::shared_ptr<FileIO> io);
  // The same on another backend (PostgresBackend); options.database_path is
  // not used. Corrupt when the tables lack the JDBC columns; the backend's
  // connection errors.
  static Result<std::shared_ptr<SqlCatalog>> Open(std::shared_ptr<SqlBackend> backend, SqlCatalogOptions options,
                                                  std::shared_ptr<FileIO> io);

  const std::string& name() const override { return options_.catalog_name; }
  const SqlCatalogOptions& options() const { return options_; }
  // Whether iceberg_tables has the iceberg_type column (JDBC schema V1).
  bool has_record_type() const { return has_record_type_; }
  // How messages name the database ("catalog database '...'", no password).
  const std::string& description() const;
  // The group commit's counters (all zero when it is off or the backend
  // does not use it).
  SqlGroupCommitStats group_commit_stats() const;

  using Catalog::ListNamespaces;
  using Catalog::ListTables;
  using Catalog::ListViews;

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
  using Catalog::RegisterTable;
  Result<iceberg::TableState> RegisterTable(const TableIdentifier& ident, const std::string& metadata_location,
                                            bool overwrite) override;
  Result<iceberg::TableState> CommitTable(const TableIdentifier& ident,
                                          const std::vector<iceberg::TableRequirement>& requirements,
                                          const std::vector<iceberg::TableUpdate>& updates) override;
  // Writes every table's new metadata file, then swaps all pointers in one
  // SQL transaction (sql_catalog_transaction.cc).
  Result<std::vector<iceberg::TableState>> CommitTransaction(const std::vector<TableCommit>& commits) override;
  std::shared_ptr<iceberg::TableOperations> NewTableOps(const TableIdentifier& ident) override;

  // Views (sql_catalog_views.cc): rows with iceberg_type = 'VIEW'. On a V0
  // database (no iceberg_type column) there are none, and CreateView is
  // Unsupported.
  Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) override;
  Result<iceberg::ViewState> CreateView(const TableIdentifier& ident, const CreateViewRequest& request) override;
  Result<iceberg::ViewState> LoadView(const TableIdentifier& ident) override;
  Result<bool> ViewExists(const TableIdentifier& ident) override;
  Status DropView(const TableIdentifier& ident) override;
  Status RenameView(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<iceberg::ViewState> ReplaceView(const TableIdentifier& ident,
                                         const std::vector<iceberg::ViewRequirement>& requirements,
                                         const std::vector<iceberg::ViewUpdate>& updates) override;

  // MetadataPointerStore (contracts in catalog_table_operations.h).
  Result<std::string> LoadMetadataLocation(const TableIdentifier& ident) override;
  Status CreateMetadataLocation(const TableIdentifier& ident, const std::string& metadata_location) override;
  Status SwapMetadataLocation(const TableIdentifier& ident, const std::string& expected,
                              const std::string& metadata_location) override;

  // Where CreateTable puts `ident` when the request names no location.
  // NotFound when the namespace does not exist.
  Result<std::string> DefaultTableLocation(const TableIdentifier& ident);

  // Use Open.
  SqlCatalog(std::shared_ptr<SqlBackend> backend, SqlCatalogOptions options, std::shared_ptr<FileIO> io);

 private:
  Status InitializeTables();
  // " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)", or "" on a V0 database.
  std::string TableRowFilter() const;

  Result<bool> NamespaceExistsOn(SqlConnection& db, const Namespace& ns);
  Status RequireNamespace(SqlConnection& db, const Namespace& ns);
  Status InsertProperty(SqlConnection& db, const Namespace& ns, std::string_view key, std::string_view value);
  // Row operations shared by tables and views (`what` names the kind in
  // messages; `row_filter` selects it).
  Status InsertRow(const TableIdentifier& ident, const std::string& metadata_location, std::string_view record_type);
  Status SwapRow(const TableIdentifier& ident, const std::string& expected, const std::string& metadata_location,
                 const std::string& row_filter, std::string_view what);
  Result<std::vector<TableIdentifier>> ListRows(const Namespace& ns, const std::string& row_filter);
  // NotFound (without a message) when no row matched.
  Status DeleteRow(const TableIdentifier& ident, const std::string& row_filter);
  Status RenameRow(const TableIdentifier& from, const TableIdentifier& to, const std::string& row_filter,
                   std::string_view what);

  Status RequireViews() const;
  Result<std::string> LoadViewLocation(const TableIdentifier& ident);
  // Writes `updated` as the view's next metadata file and registers it
  // (base nullptr: a new view) or swaps the pointer from base's file.
  Result<iceberg::ViewState> CommitView(const TableIdentifier& ident, const iceberg::ViewState* base,
                                        const iceberg::ViewMetadata& updated);

  SqlCatalogOptions options_;
  std::shared_ptr<FileIO> io_;
  SqlConnectionPool pool_;
  std::shared_ptr<TableMetadataCache> metadata_cache_;
  std::unique_ptr<SqlGroupCommit> swap_batches_;  // null: every swap its own transaction
  bool has_record_type_ = false;
};

}  // namespace floe::catalog
