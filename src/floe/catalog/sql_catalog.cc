#include "floe/catalog/sql_catalog.h"

#include <algorithm>
#include <optional>
#include <set>

#include "floe/base/logging.h"
#include "floe/base/strings.h"
#include "floe/catalog/sqlite.h"
#include "floe/catalog/table_purge.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/new_table_metadata.h"

namespace floe::catalog {
namespace {

// The JDBC catalog's tables, column for column (Java JdbcUtil: the V0 table
// plus the V1 iceberg_type column, which Java adds with ALTER TABLE and so
// sits last; PyIceberg's SqlCatalog declares the same names).
constexpr std::string_view kCreateTablesSql =
    "CREATE TABLE IF NOT EXISTS iceberg_tables("
    "catalog_name VARCHAR(255) NOT NULL,"
    "table_namespace VARCHAR(255) NOT NULL,"
    "table_name VARCHAR(255) NOT NULL,"
    "metadata_location VARCHAR(1000),"
    "previous_metadata_location VARCHAR(1000),"
    "iceberg_type VARCHAR(5),"
    "PRIMARY KEY (catalog_name, table_namespace, table_name));"
    "CREATE TABLE IF NOT EXISTS iceberg_namespace_properties("
    "catalog_name VARCHAR(255) NOT NULL,"
    "namespace VARCHAR(255) NOT NULL,"
    "property_key VARCHAR(255),"
    "property_value VARCHAR(1000),"
    "PRIMARY KEY (catalog_name, namespace, property_key));";

// Java's reserved namespace property marking a namespace created empty.
constexpr std::string_view kExistsProperty = "exists";

// Nested namespaces of "a.b" are the rows starting "a.b.". substr compares
// exactly (LIKE would need escaping and ignores ASCII case in SQLite).
constexpr std::string_view kNamespaceExistsSql =
    "SELECT CASE WHEN EXISTS(SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND "
    "(table_namespace = ? OR substr(table_namespace, 1, length(?)) = ?)) OR "
    "EXISTS(SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? AND "
    "(namespace = ? OR substr(namespace, 1, length(?)) = ?)) THEN 1 ELSE 0 END";

std::string ChildPrefix(const Namespace& ns) { return ns.ToString() + "."; }

Status ValidateNamespaceProperties(const Properties& properties) {
  if (properties.contains(std::string(kExistsProperty))) {
    return Status::InvalidArgument(StrCat("namespace property ", Quote(kExistsProperty), " is reserved"));
  }
  return Status::OK();
}

bool HasColumn(const std::vector<std::string>& columns, std::string_view name) {
  return std::find(columns.begin(), columns.end(), name) != columns.end();
}

}  // namespace

SqlCatalog::SqlCatalog(std::shared_ptr<SqlBackend> backend, SqlCatalogOptions options, std::shared_ptr<FileIO> io)
    : options_(std::move(options)),
      io_(std::move(io)),
      pool_(std::move(backend)),
      metadata_cache_(std::make_shared<TableMetadataCache>(options_.metadata_cache_entries)) {
  if (options_.group_commit && pool_.backend().serializes_writers()) {
    swap_batches_ = std::make_unique<SqlGroupCommit>(&pool_, SqlLock::kRows);
  }
}

SqlGroupCommitStats SqlCatalog::group_commit_stats() const {
  return swap_batches_ != nullptr ? swap_batches_->stats() : SqlGroupCommitStats{};
}

Result<std::shared_ptr<SqlCatalog>> SqlCatalog::Open(SqlCatalogOptions options, std::shared_ptr<FileIO> io) {
  if (options.database_path.empty()) return Status::InvalidArgument("SQL catalog: the database path is empty");
  auto backend =
      std::make_shared<SqliteBackend>(options.database_path, options.busy_timeout_ms, options.max_connections);
  return Open(std::move(backend), std::move(options), std::move(io));
}

Result<std::shared_ptr<SqlCatalog>> SqlCatalog::Open(std::shared_ptr<SqlBackend> backend, SqlCatalogOptions options,
                                                     std::shared_ptr<FileIO> io) {
  if (backend == nullptr) return Status::InvalidArgument("SQL catalog: no database");
  while (options.warehouse.size() > 1 && options.warehouse.back() == '/') options.warehouse.pop_back();
  if (options.warehouse.empty()) return Status::InvalidArgument("SQL catalog: the warehouse is empty");
  if (options.catalog_name.empty()) return Status::InvalidArgument("SQL catalog: the catalog name is empty");
  if (io == nullptr) return Status::InvalidArgument("SQL catalog: no FileIO");
  auto catalog = std::make_shared<SqlCatalog>(std::move(backend), std::move(options), std::move(io));
  FLOE_RETURN_IF_ERROR(catalog->InitializeTables());
  return catalog;
}

const std::string& SqlCatalog::description() const { return pool_.backend().description(); }

Status SqlCatalog::InitializeTables() {
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  {
    // One transaction under the catalog lock, so processes opening a new
    // database at once do not race on the CREATEs.
    FLOE_ASSIGN_OR_RETURN(SqlTransaction txn, SqlTransaction::Begin(*db, SqlLock::kCatalog));
    FLOE_RETURN_IF_ERROR(db->ExecScript(kCreateTablesSql));
    FLOE_RETURN_IF_ERROR(txn.Commit());
  }
  const std::pair<std::string_view, std::vector<std::string_view>> required[] = {
      {"iceberg_tables",
       {"catalog_name", "table_namespace", "table_name", "metadata_location", "previous_metadata_location"}},
      {"iceberg_namespace_properties", {"catalog_name", "namespace", "property_key", "property_value"}},
  };
  for (const auto& [table, names] : required) {
    FLOE_ASSIGN_OR_RETURN(std::vector<std::string> columns, db->ColumnsOf(table));
    for (std::string_view column : names) {
      if (!HasColumn(columns, column)) {
        return Status::Corrupt(StrCat(description(), ": table ", table, " has no column ", column,
                                      " (not an Iceberg JDBC catalog)"));
      }
    }
    if (table == "iceberg_tables") has_record_type_ = HasColumn(columns, "iceberg_type");
  }
  return Status::OK();
}

std::string SqlCatalog::TableRowFilter() const {
  return has_record_type_ ? " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)" : "";
}

Result<bool> SqlCatalog::NamespaceExistsOn(SqlConnection& db, const Namespace& ns) {
  if (ns.empty()) return true;
  const std::string dotted = ns.ToString();
  const std::string prefix = ChildPrefix(ns);
  FLOE_ASSIGN_OR_RETURN(SqlRows rows,
                        db.Query(kNamespaceExistsSql, {name(), dotted, prefix, prefix, name(), dotted, prefix, prefix}));
  return !rows.empty() && rows.Int(0, 0) != 0;
}

Status SqlCatalog::RequireNamespace(SqlConnection& db, const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsOn(db, ns));
  return exists ? Status::OK() : Status::NotFound(NamespaceNotFoundMessage(ns));
}

Status SqlCatalog::InsertProperty(SqlConnection& db, const Namespace& ns, std::string_view key,
                                  std::string_view value) {
  return db
      .Execute("INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) "
               "VALUES (?, ?, ?, ?) ON CONFLICT (catalog_name, namespace, property_key) DO UPDATE SET "
               "property_value = excluded.property_value",
               {name(), ns.ToString(), std::string(key), std::string(value)})
      .status();
}

// --- namespaces ----------------------------------------------------------------

Status SqlCatalog::CreateNamespace(const Namespace& ns, const Properties& properties) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return Status::InvalidArgument("cannot create the root namespace");
  FLOE_RETURN_IF_ERROR(ValidateNamespaceProperties(properties));
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(SqlTransaction txn, SqlTransaction::Begin(*db, SqlLock::kCatalog));
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsOn(*db, ns));
  if (exists) return Status::AlreadyExists(StrCat("namespace ", ns.ToString(), " already exists"));
  for (const auto& [key, value] : properties) FLOE_RETURN_IF_ERROR(InsertProperty(*db, ns, key, value));
  FLOE_RETURN_IF_ERROR(InsertProperty(*db, ns, kExistsProperty, "true"));
  return txn.Commit();
}

Result<std::vector<Namespace>> SqlCatalog::ListNamespaces(const Namespace& parent) {
  FLOE_RETURN_IF_ERROR(parent.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, parent));
  const std::string prefix = parent.empty() ? std::string() : ChildPrefix(parent);
  FLOE_ASSIGN_OR_RETURN(
      SqlRows rows,
      db->Query("SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ? AND "
                "(? = '' OR substr(table_namespace, 1, length(?)) = ?) "
                "UNION SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ? AND "
                "(? = '' OR substr(namespace, 1, length(?)) = ?)",
                {name(), prefix, prefix, prefix, name(), prefix, prefix, prefix}));
  const size_t depth = parent.levels.size() + 1;
  std::set<Namespace> children;
  for (size_t r = 0; r < rows.size(); ++r) {
    // Rows other tools wrote with names floe cannot split (an empty level)
    // are not namespaces it can address; skip them.
    auto ns = Namespace::Parse(rows.Text(r, 0));
    if (!ns.ok() || ns->levels.size() < depth) continue;
    ns->levels.resize(depth);
    children.insert(std::move(*ns));
  }
  return std::vector<Namespace>(children.begin(), children.end());
}

Result<Properties> SqlCatalog::LoadNamespaceMetadata(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, ns));
  FLOE_ASSIGN_OR_RETURN(SqlRows rows, db->Query("SELECT property_key, property_value FROM iceberg_namespace_properties "
                                                "WHERE catalog_name = ? AND namespace = ?",
                                                {name(), ns.ToString()}));
  Properties properties;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows.Text(r, 0) != kExistsProperty) properties[rows.Text(r, 0)] = rows.Text(r, 1);
  }
  return properties;
}

Result<bool> SqlCatalog::NamespaceExists(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  return NamespaceExistsOn(*db, ns);
}

Status SqlCatalog::DropNamespace(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return Status::InvalidArgument("cannot drop the root namespace");
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(SqlTransaction txn, SqlTransaction::Begin(*db, SqlLock::kCatalog));
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, ns));
  {
    FLOE_ASSIGN_OR_RETURN(SqlRows tables, db->Query("SELECT count(*) FROM iceberg_tables WHERE catalog_name = ? AND "
                                                    "table_namespace = ?",
                                                    {name(), ns.ToString()}));
    if (!tables.empty() && tables.Int(0, 0) > 0) {
      return Status::InvalidArgument(
          StrCat("namespace ", ns.ToString(), " is not empty: it has ", tables.Int(0, 0), " table(s) or view(s)"));
    }
  }
  {
    // Java drops a namespace with nested ones, which then still exists
    // through them; the REST spec asks for an empty namespace, so refuse.
    const std::string prefix = ChildPrefix(ns);
    FLOE_ASSIGN_OR_RETURN(SqlRows nested,
                          db->Query("SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ? AND "
                                    "substr(table_namespace, 1, length(?)) = ? UNION "
                                    "SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ? "
                                    "AND substr(namespace, 1, length(?)) = ? LIMIT 1",
                                    {name(), prefix, prefix, name(), prefix, prefix}));
    if (!nested.empty()) {
      return Status::InvalidArgument(
          StrCat("namespace ", ns.ToString(), " is not empty: it has namespace ", nested.Text(0, 0)));
    }
  }
  FLOE_RETURN_IF_ERROR(
      db->Execute("DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?",
                  {name(), ns.ToString()})
          .status());
  return txn.Commit();
}

Result<NamespacePropertiesUpdate> SqlCatalog::UpdateNamespaceProperties(const Namespace& ns,
                                                                        const std::vector<std::string>& removals,
                                                                        const Properties& updates) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return Status::InvalidArgument("the root namespace has no properties");
  FLOE_RETURN_IF_ERROR(ValidateNamespaceProperties(updates));
  const std::set<std::string> removal_set(removals.begin(), removals.end());
  for (const std::string& key : removal_set) {
    if (key == kExistsProperty) {
      return Status::InvalidArgument(StrCat("namespace property ", Quote(kExistsProperty), " is reserved"));
    }
    if (updates.contains(key)) {
      return Status::InvalidArgument(StrCat("namespace property ", Quote(key), " is both removed and updated"));
    }
  }
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(SqlTransaction txn, SqlTransaction::Begin(*db, SqlLock::kCatalog));
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, ns));
  NamespacePropertiesUpdate result;
  for (const std::string& key : removal_set) {
    FLOE_ASSIGN_OR_RETURN(int64_t removed, db->Execute("DELETE FROM iceberg_namespace_properties WHERE "
                                                       "catalog_name = ? AND namespace = ? AND property_key = ?",
                                                       {name(), ns.ToString(), key}));
    (removed > 0 ? result.removed : result.missing).push_back(key);
  }
  for (const auto& [key, value] : updates) {
    FLOE_RETURN_IF_ERROR(InsertProperty(*db, ns, key, value));
    result.updated.push_back(key);
  }
  if (!result.removed.empty()) {
    // A namespace whose last property went away must not vanish with it.
    FLOE_ASSIGN_OR_RETURN(SqlRows count, db->Query("SELECT count(*) FROM iceberg_namespace_properties WHERE "
                                                   "catalog_name = ? AND namespace = ?",
                                                   {name(), ns.ToString()}));
    if (count.empty() || count.Int(0, 0) == 0) FLOE_RETURN_IF_ERROR(InsertProperty(*db, ns, kExistsProperty, "true"));
  }
  FLOE_RETURN_IF_ERROR(txn.Commit());
  return result;
}

// --- table pointers ------------------------------------------------------------

Result<std::string> SqlCatalog::LoadMetadataLocation(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(SqlRows rows, db->Query(StrCat("SELECT metadata_location FROM iceberg_tables WHERE "
                                                       "catalog_name = ? AND table_namespace = ? AND table_name = ?",
                                                       TableRowFilter()),
                                                {name(), ident.ns.ToString(), ident.name}));
  if (rows.empty()) return Status::NotFound(TableNotFoundMessage(ident));
  if (rows.Text(0, 0).empty()) {
    return Status::Corrupt(StrCat(description(), ": table ", ident.ToString(), " has no metadata_location"));
  }
  return rows.Text(0, 0);
}

Status SqlCatalog::InsertRow(const TableIdentifier& ident, const std::string& metadata_location,
                             std::string_view record_type) {
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(SqlTransaction txn, SqlTransaction::Begin(*db, SqlLock::kCatalog));
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, ident.ns));
  const std::string_view what = record_type == "VIEW" ? "view" : "table";
  Status inserted =
      has_record_type_
          ? db->Execute("INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
                        "previous_metadata_location, iceberg_type) VALUES (?, ?, ?, ?, NULL, ?)",
                        {name(), ident.ns.ToString(), ident.name, metadata_location, std::string(record_type)})
                .status()
          : db->Execute("INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
                        "previous_metadata_location) VALUES (?, ?, ?, ?, NULL)",
                        {name(), ident.ns.ToString(), ident.name, metadata_location})
                .status();
  if (inserted.IsAlreadyExists()) {
    // The primary key does not tell tables from views.
    return Status::AlreadyExists(StrCat("table or view ", ident.ToString(), " already exists"));
  }
  FLOE_RETURN_IF_ERROR(inserted);
  bool unknown = false;
  Status committed = txn.Commit(&unknown);
  if (!committed.ok() && unknown) {
    db.Discard();
    return Status::CommitStateUnknown(
        StrCat(what, " ", ident.ToString(), ": the create may or may not have happened: ", committed.message()));
  }
  return committed;
}

Status SqlCatalog::CreateMetadataLocation(const TableIdentifier& ident, const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  return InsertRow(ident, metadata_location, "TABLE");
}

Status SqlCatalog::SwapRow(const TableIdentifier& ident, const std::string& expected,
                           const std::string& metadata_location, const std::string& row_filter,
                           std::string_view what) {
  // The compare-and-swap: one UPDATE whose WHERE clause is its own check, so
  // it needs no lock beyond the row's and, failing, changes nothing (which
  // lets a group commit run it beside other swaps in one transaction).
  const SqlGroupCommit::Work swap = [&](SqlConnection& db) -> Status {
    FLOE_ASSIGN_OR_RETURN(
        int64_t changed,
        db.Execute(StrCat("UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = ? WHERE "
                          "catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ?",
                          row_filter),
                   {metadata_location, expected, name(), ident.ns.ToString(), ident.name, expected}));
    if (changed != 0) return Status::OK();
    FLOE_ASSIGN_OR_RETURN(SqlRows current,
                          db.Query(StrCat("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? AND "
                                          "table_namespace = ? AND table_name = ?",
                                          row_filter),
                                   {name(), ident.ns.ToString(), ident.name}));
    // The compare-and-swap matched no row: another writer moved the pointer
    // (or dropped the row). Callers re-running commits rely on the reason.
    if (current.empty()) {
      return Status::CommitConflict(StrCat(what, " ", ident.ToString(), " no longer exists"))
          .WithConflictReason(ConflictReason::kSwapLost);
    }
    return Status::CommitConflict(StrCat(what, " ", ident.ToString(),
                                         " was changed by another commit: its metadata is ", Quote(current.Text(0, 0)),
                                         ", expected ", Quote(expected)))
        .WithConflictReason(ConflictReason::kSwapLost);
  };
  bool unknown = false;
  Status committed;
  if (swap_batches_ != nullptr) {
    committed = swap_batches_->Run(swap, &unknown);
  } else {
    FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
    FLOE_ASSIGN_OR_RETURN(SqlTransaction txn, SqlTransaction::Begin(*db, SqlLock::kRows));
    // Before COMMIT nothing is durable: an error here leaves the row as it was.
    FLOE_RETURN_IF_ERROR(swap(*db));
    committed = txn.Commit(&unknown);
    if (!committed.ok() && unknown) db.Discard();
  }
  if (!committed.ok() && unknown) {
    return Status::CommitStateUnknown(
        StrCat(what, " ", ident.ToString(), ": the commit may or may not have happened: ", committed.message()));
  }
  return committed;
}

Status SqlCatalog::SwapMetadataLocation(const TableIdentifier& ident, const std::string& expected,
                                        const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  return SwapRow(ident, expected, metadata_location, TableRowFilter(), "table");
}

// --- tables --------------------------------------------------------------------

Result<std::vector<TableIdentifier>> SqlCatalog::ListRows(const Namespace& ns, const std::string& row_filter) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, ns));
  FLOE_ASSIGN_OR_RETURN(SqlRows rows,
                        db->Query(StrCat("SELECT table_name FROM iceberg_tables WHERE catalog_name = ? AND "
                                         "table_namespace = ?",
                                         row_filter),
                                  {name(), ns.ToString()}));
  std::vector<TableIdentifier> idents;
  for (size_t r = 0; r < rows.size(); ++r) idents.push_back(TableIdentifier{ns, rows.Text(r, 0)});
  // Sorted here, by bytes: the database's collation (PostgreSQL's follows
  // the locale) must not decide the order pages are cut in.
  std::sort(idents.begin(), idents.end());
  return idents;
}

Result<std::vector<TableIdentifier>> SqlCatalog::ListTables(const Namespace& ns) {
  return ListRows(ns, TableRowFilter());
}

Result<bool> SqlCatalog::TableExists(const TableIdentifier& ident) {
  auto location = LoadMetadataLocation(ident);
  if (location.ok()) return true;
  if (location.status().IsNotFound()) return false;
  // A row without a location is still a table name that is taken.
  if (location.status().IsCorrupt()) return true;
  return location.status();
}

Result<std::string> SqlCatalog::DefaultTableLocation(const TableIdentifier& ident) {
  FLOE_ASSIGN_OR_RETURN(Properties properties, LoadNamespaceMetadata(ident.ns));
  if (auto it = properties.find("location"); it != properties.end() && !it->second.empty()) {
    return JoinLocation(it->second, ident.name);
  }
  std::string location = options_.warehouse;
  for (const std::string& level : ident.ns.levels) location = JoinLocation(location, level);
  return JoinLocation(location, ident.name);
}

Result<iceberg::TableState> SqlCatalog::CreateTable(const TableIdentifier& ident, const CreateTableRequest& request) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  // Checked before any file is written; CreateMetadataLocation checks again
  // atomically with the insert.
  FLOE_ASSIGN_OR_RETURN(bool exists, TableExists(ident));
  if (exists) return Status::AlreadyExists(StrCat("table ", ident.ToString(), " already exists"));
  std::string location;
  if (request.location && !request.location->empty()) {
    location = *request.location;
  } else {
    FLOE_ASSIGN_OR_RETURN(location, DefaultTableLocation(ident));
  }
  const iceberg::TableDefinition definition = request.Definition(std::move(location));
  auto metadata = iceberg::NewTableMetadata(definition);
  if (!metadata.ok()) return metadata.status().WithContext(StrCat("table ", ident.ToString()));
  return NewTableOps(ident)->Commit(iceberg::TableState{}, *metadata);
}

Result<iceberg::TableState> SqlCatalog::LoadTable(const TableIdentifier& ident) {
  return NewTableOps(ident)->Refresh();
}

Status SqlCatalog::DeleteRow(const TableIdentifier& ident, const std::string& row_filter) {
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(int64_t deleted, db->Execute(StrCat("DELETE FROM iceberg_tables WHERE catalog_name = ? AND "
                                                            "table_namespace = ? AND table_name = ?",
                                                            row_filter),
                                                     {name(), ident.ns.ToString(), ident.name}));
  return deleted == 0 ? Status::NotFound("") : Status::OK();
}

Status SqlCatalog::DropTable(const TableIdentifier& ident, bool purge) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  std::optional<iceberg::TableState> last;
  // Files are purged through the table's own FileIO (its storage properties).
  std::shared_ptr<iceberg::TableOperations> ops;
  if (purge) {
    FLOE_RETURN_IF_ERROR(LoadMetadataLocation(ident).status());
    ops = NewTableOps(ident);
    auto state = ops->Refresh();
    if (state.ok()) {
      last = std::move(*state);
    } else {
      // As Java: a table whose metadata cannot be read is still dropped.
      FLOE_LOG(kWarning) << "dropping " << ident.ToString() << " without purge: " << state.status().ToString();
    }
  }
  Status deleted = DeleteRow(ident, TableRowFilter());
  if (deleted.IsNotFound()) return Status::NotFound(TableNotFoundMessage(ident));
  FLOE_RETURN_IF_ERROR(deleted);
  if (!last) return Status::OK();
  return PurgeTableFiles(ops->io(), last->metadata_location, *last->metadata)
      .WithContext(StrCat("table ", ident.ToString(), " was dropped, but purging its files failed"));
}

Status SqlCatalog::RenameRow(const TableIdentifier& from, const TableIdentifier& to, const std::string& row_filter,
                             std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(SqlTransaction txn, SqlTransaction::Begin(*db, SqlLock::kCatalog));
  auto row_exists = [&](const TableIdentifier& ident, const std::string& filter) -> Result<bool> {
    FLOE_ASSIGN_OR_RETURN(SqlRows rows, db->Query(StrCat("SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND "
                                                         "table_namespace = ? AND table_name = ?",
                                                         filter),
                                                  {name(), ident.ns.ToString(), ident.name}));
    return !rows.empty();
  };
  FLOE_ASSIGN_OR_RETURN(bool from_exists, row_exists(from, row_filter));
  if (!from_exists) {
    return Status::NotFound(what == "view" ? ViewNotFoundMessage(from) : TableNotFoundMessage(from));
  }
  if (from == to) return Status::OK();
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, to.ns));
  FLOE_ASSIGN_OR_RETURN(bool to_exists, row_exists(to, row_filter));
  if (to_exists) return Status::AlreadyExists(StrCat(what, " ", to.ToString(), " already exists"));
  // A row of the other kind holds the primary key.
  FLOE_ASSIGN_OR_RETURN(bool other_exists, row_exists(to, ""));
  if (other_exists) {
    return Status::AlreadyExists(StrCat("a ", what == "view" ? "table" : "view", " named ", to.ToString(), " exists"));
  }
  FLOE_RETURN_IF_ERROR(db->Execute(StrCat("UPDATE iceberg_tables SET table_namespace = ?, table_name = ? WHERE "
                                          "catalog_name = ? AND table_namespace = ? AND table_name = ?",
                                          row_filter),
                                   {to.ns.ToString(), to.name, name(), from.ns.ToString(), from.name})
                           .status());
  return txn.Commit();
}

Status SqlCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(from.Validate());
  FLOE_RETURN_IF_ERROR(to.Validate());
  return RenameRow(from, to, TableRowFilter(), "table");
}

Result<iceberg::TableState> SqlCatalog::RegisterTable(const TableIdentifier& ident,
                                                      const std::string& metadata_location, bool overwrite) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  auto metadata = iceberg::ReadTableMetadata(*io_, metadata_location);
  if (!metadata.ok()) return metadata.status().WithContext(StrCat("registering table ", ident.ToString()));
  iceberg::TableState registered{metadata_location,
                                 std::make_shared<const iceberg::TableMetadata>(std::move(*metadata))};
  if (!overwrite) {
    FLOE_RETURN_IF_ERROR(CreateMetadataLocation(ident, metadata_location));
    return registered;
  }
  // Overwrite replaces whatever the pointer holds, so a commit that moves
  // it between the read and the swap only means reading it again; the swap
  // itself is the same compare-and-swap as a commit's, so no commit is
  // silently undone by a stale read.
  constexpr int kAttempts = 8;
  Status last = Status::OK();
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    auto current = LoadMetadataLocation(ident);
    if (current.ok()) {
      last = SwapMetadataLocation(ident, *current, metadata_location);
      if (last.ok()) return registered;
      if (!last.IsCommitConflict()) return last;
      continue;
    }
    if (!current.status().IsNotFound()) return current.status();
    last = CreateMetadataLocation(ident, metadata_location);
    if (last.ok()) return registered;
    // Taken again after no table row was found: a view has the name (a
    // first AlreadyExists may be a table created meanwhile).
    if (!last.IsAlreadyExists() || attempt > 0) return last;
  }
  return last.WithContext(StrCat("registering table ", ident.ToString(), " with overwrite"));
}

Result<iceberg::TableState> SqlCatalog::CommitTable(const TableIdentifier& ident,
                                                    const std::vector<iceberg::TableRequirement>& requirements,
                                                    const std::vector<iceberg::TableUpdate>& updates) {
  const bool creating = std::any_of(requirements.begin(), requirements.end(),
                                    [](const auto& r) { return std::holds_alternative<iceberg::AssertCreate>(r); });
  iceberg::TableState base;
  auto location = LoadMetadataLocation(ident);
  if (location.ok()) {
    auto metadata = ReadTableMetadataCached(*io_, *location, metadata_cache_.get());
    if (!metadata.ok()) return metadata.status().WithContext(StrCat("table ", ident.ToString()));
    base = iceberg::TableState{*location, std::move(*metadata)};
  } else if (!creating || !location.status().IsNotFound()) {
    return location.status();
  }
  auto updated = iceberg::ApplyTableChanges(base.metadata.get(), requirements, updates);
  if (!updated.ok()) return updated.status().WithContext(StrCat("table ", ident.ToString()));
  if (base.metadata != nullptr && *updated == *base.metadata) return base;
  return NewTableOps(ident)->Commit(base, *updated);
}

std::shared_ptr<iceberg::TableOperations> SqlCatalog::NewTableOps(const TableIdentifier& ident) {
  return std::make_shared<CatalogTableOperations>(shared_from_this(), ident, io_, options_.table_io, metadata_cache_);
}

}  // namespace floe::catalog
