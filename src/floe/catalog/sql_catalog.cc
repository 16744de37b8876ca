#include "floe/catalog/sql_catalog.h"

#include <algorithm>
#include <optional>
#include <set>

#include "floe/base/logging.h"
#include "floe/base/strings.h"
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
    "SELECT EXISTS(SELECT 1 FROM iceberg_tables WHERE catalog_name = ?1 AND "
    "(table_namespace = ?2 OR substr(table_namespace, 1, length(?3)) = ?3)) OR "
    "EXISTS(SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND "
    "(namespace = ?2 OR substr(namespace, 1, length(?3)) = ?3))";

std::string ChildPrefix(const Namespace& ns) { return ns.ToString() + "."; }

Result<bool> NamespaceExistsOn(sqlite::Connection& db, const std::string& catalog, const Namespace& ns) {
  if (ns.empty()) return true;
  FLOE_ASSIGN_OR_RETURN(sqlite::Statement query, db.Prepare(kNamespaceExistsSql));
  query.Bind(catalog).Bind(ns.ToString()).Bind(ChildPrefix(ns));
  FLOE_ASSIGN_OR_RETURN(bool row, query.Step());
  return row && query.Int(0) != 0;
}

Status RequireNamespace(sqlite::Connection& db, const std::string& catalog, const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsOn(db, catalog, ns));
  return exists ? Status::OK() : Status::NotFound(NamespaceNotFoundMessage(ns));
}

Status ValidateNamespaceProperties(const Properties& properties) {
  if (properties.contains(std::string(kExistsProperty))) {
    return Status::InvalidArgument(StrCat("namespace property ", Quote(kExistsProperty), " is reserved"));
  }
  return Status::OK();
}

Status InsertProperty(sqlite::Connection& db, const std::string& catalog, const Namespace& ns, std::string_view key,
                      std::string_view value) {
  FLOE_ASSIGN_OR_RETURN(sqlite::Statement insert,
                        db.Prepare("INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, "
                                   "property_value) VALUES (?, ?, ?, ?) ON CONFLICT (catalog_name, namespace, "
                                   "property_key) DO UPDATE SET property_value = excluded.property_value"));
  insert.Bind(catalog).Bind(ns.ToString()).Bind(key).Bind(value);
  return insert.Run();
}

bool HasColumn(const std::vector<std::string>& columns, std::string_view name) {
  return std::find(columns.begin(), columns.end(), name) != columns.end();
}

Result<std::vector<std::string>> ColumnsOf(sqlite::Connection& db, std::string_view table) {
  FLOE_ASSIGN_OR_RETURN(sqlite::Statement query, db.Prepare(StrCat("PRAGMA table_info(", table, ")")));
  std::vector<std::string> columns;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool row, query.Step());
    if (!row) return columns;
    columns.push_back(query.Text(1));
  }
}

}  // namespace

SqlCatalog::SqlCatalog(SqlCatalogOptions options, std::shared_ptr<FileIO> io)
    : options_(std::move(options)),
      io_(std::move(io)),
      pool_(options_.database_path, options_.busy_timeout_ms, options_.max_connections) {}

Result<std::shared_ptr<SqlCatalog>> SqlCatalog::Open(SqlCatalogOptions options, std::shared_ptr<FileIO> io) {
  if (options.database_path.empty()) return Status::InvalidArgument("SQL catalog: the database path is empty");
  while (options.warehouse.size() > 1 && options.warehouse.back() == '/') options.warehouse.pop_back();
  if (options.warehouse.empty()) return Status::InvalidArgument("SQL catalog: the warehouse is empty");
  if (options.catalog_name.empty()) return Status::InvalidArgument("SQL catalog: the catalog name is empty");
  if (io == nullptr) return Status::InvalidArgument("SQL catalog: no FileIO");
  auto catalog = std::make_shared<SqlCatalog>(std::move(options), std::move(io));
  FLOE_RETURN_IF_ERROR(catalog->InitializeTables());
  return catalog;
}

Status SqlCatalog::InitializeTables() {
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  {
    // One transaction, so processes opening a new database at once do not
    // race on the CREATEs.
    FLOE_ASSIGN_OR_RETURN(sqlite::Transaction txn, sqlite::Transaction::Begin(*db));
    FLOE_RETURN_IF_ERROR(db->Exec(kCreateTablesSql));
    FLOE_RETURN_IF_ERROR(txn.Commit());
  }
  const std::pair<std::string_view, std::vector<std::string_view>> required[] = {
      {"iceberg_tables",
       {"catalog_name", "table_namespace", "table_name", "metadata_location", "previous_metadata_location"}},
      {"iceberg_namespace_properties", {"catalog_name", "namespace", "property_key", "property_value"}},
  };
  for (const auto& [table, names] : required) {
    FLOE_ASSIGN_OR_RETURN(std::vector<std::string> columns, ColumnsOf(*db, table));
    for (std::string_view column : names) {
      if (!HasColumn(columns, column)) {
        return Status::Corrupt(StrCat("catalog database ", Quote(db->path()), ": table ", table, " has no column ",
                                      column, " (not an Iceberg JDBC catalog)"));
      }
    }
    if (table == "iceberg_tables") has_record_type_ = HasColumn(columns, "iceberg_type");
  }
  return Status::OK();
}

std::string SqlCatalog::TableRowFilter() const {
  return has_record_type_ ? " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)" : "";
}

// --- namespaces ----------------------------------------------------------------

Status SqlCatalog::CreateNamespace(const Namespace& ns, const Properties& properties) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return Status::InvalidArgument("cannot create the root namespace");
  FLOE_RETURN_IF_ERROR(ValidateNamespaceProperties(properties));
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(sqlite::Transaction txn, sqlite::Transaction::Begin(*db));
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsOn(*db, name(), ns));
  if (exists) return Status::AlreadyExists(StrCat("namespace ", ns.ToString(), " already exists"));
  for (const auto& [key, value] : properties) FLOE_RETURN_IF_ERROR(InsertProperty(*db, name(), ns, key, value));
  FLOE_RETURN_IF_ERROR(InsertProperty(*db, name(), ns, kExistsProperty, "true"));
  return txn.Commit();
}

Result<std::vector<Namespace>> SqlCatalog::ListNamespaces(const Namespace& parent) {
  FLOE_RETURN_IF_ERROR(parent.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, name(), parent));
  FLOE_ASSIGN_OR_RETURN(
      sqlite::Statement query,
      db->Prepare("SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ?1 AND "
                  "(?2 = '' OR substr(table_namespace, 1, length(?2)) = ?2) "
                  "UNION SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND "
                  "(?2 = '' OR substr(namespace, 1, length(?2)) = ?2)"));
  query.Bind(name()).Bind(parent.empty() ? std::string() : ChildPrefix(parent));
  const size_t depth = parent.levels.size() + 1;
  std::set<Namespace> children;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool row, query.Step());
    if (!row) break;
    // Rows other tools wrote with names floe cannot split (an empty level)
    // are not namespaces it can address; skip them.
    auto ns = Namespace::Parse(query.Text(0));
    if (!ns.ok() || ns->levels.size() < depth) continue;
    ns->levels.resize(depth);
    children.insert(std::move(*ns));
  }
  return std::vector<Namespace>(children.begin(), children.end());
}

Result<Properties> SqlCatalog::LoadNamespaceMetadata(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, name(), ns));
  FLOE_ASSIGN_OR_RETURN(sqlite::Statement query,
                        db->Prepare("SELECT property_key, property_value FROM iceberg_namespace_properties "
                                    "WHERE catalog_name = ? AND namespace = ?"));
  query.Bind(name()).Bind(ns.ToString());
  Properties properties;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool row, query.Step());
    if (!row) break;
    std::string key = query.Text(0);
    if (key != kExistsProperty) properties[std::move(key)] = query.Text(1);
  }
  return properties;
}

Result<bool> SqlCatalog::NamespaceExists(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  return NamespaceExistsOn(*db, name(), ns);
}

Status SqlCatalog::DropNamespace(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return Status::InvalidArgument("cannot drop the root namespace");
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(sqlite::Transaction txn, sqlite::Transaction::Begin(*db));
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, name(), ns));
  {
    FLOE_ASSIGN_OR_RETURN(sqlite::Statement tables,
                          db->Prepare("SELECT count(*) FROM iceberg_tables WHERE catalog_name = ? AND "
                                      "table_namespace = ?"));
    tables.Bind(name()).Bind(ns.ToString());
    FLOE_ASSIGN_OR_RETURN(bool row, tables.Step());
    if (row && tables.Int(0) > 0) {
      return Status::InvalidArgument(
          StrCat("namespace ", ns.ToString(), " is not empty: it has ", tables.Int(0), " table(s)"));
    }
  }
  {
    // Java drops a namespace with nested ones, which then still exists
    // through them; the REST spec asks for an empty namespace, so refuse.
    FLOE_ASSIGN_OR_RETURN(sqlite::Statement nested,
                          db->Prepare("SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ?1 AND "
                                      "substr(table_namespace, 1, length(?2)) = ?2 UNION "
                                      "SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?1 "
                                      "AND substr(namespace, 1, length(?2)) = ?2 LIMIT 1"));
    nested.Bind(name()).Bind(ChildPrefix(ns));
    FLOE_ASSIGN_OR_RETURN(bool row, nested.Step());
    if (row) {
      return Status::InvalidArgument(
          StrCat("namespace ", ns.ToString(), " is not empty: it has namespace ", nested.Text(0)));
    }
  }
  FLOE_ASSIGN_OR_RETURN(sqlite::Statement drop,
                        db->Prepare("DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND "
                                    "namespace = ?"));
  drop.Bind(name()).Bind(ns.ToString());
  FLOE_RETURN_IF_ERROR(drop.Run());
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
  FLOE_ASSIGN_OR_RETURN(sqlite::Transaction txn, sqlite::Transaction::Begin(*db));
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, name(), ns));
  NamespacePropertiesUpdate result;
  for (const std::string& key : removal_set) {
    FLOE_ASSIGN_OR_RETURN(sqlite::Statement remove,
                          db->Prepare("DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND "
                                      "namespace = ? AND property_key = ?"));
    remove.Bind(name()).Bind(ns.ToString()).Bind(key);
    FLOE_RETURN_IF_ERROR(remove.Run());
    (db->changes() > 0 ? result.removed : result.missing).push_back(key);
  }
  for (const auto& [key, value] : updates) {
    FLOE_RETURN_IF_ERROR(InsertProperty(*db, name(), ns, key, value));
    result.updated.push_back(key);
  }
  if (!result.removed.empty()) {
    // A namespace whose last property went away must not vanish with it.
    int64_t left = 0;
    {
      FLOE_ASSIGN_OR_RETURN(sqlite::Statement count,
                            db->Prepare("SELECT count(*) FROM iceberg_namespace_properties WHERE catalog_name = ? "
                                        "AND namespace = ?"));
      count.Bind(name()).Bind(ns.ToString());
      FLOE_ASSIGN_OR_RETURN(bool row, count.Step());
      if (row) left = count.Int(0);
    }
    if (left == 0) FLOE_RETURN_IF_ERROR(InsertProperty(*db, name(), ns, kExistsProperty, "true"));
  }
  FLOE_RETURN_IF_ERROR(txn.Commit());
  return result;
}

// --- table pointers ------------------------------------------------------------

Result<std::string> SqlCatalog::LoadMetadataLocation(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(sqlite::Statement query,
                        db->Prepare(StrCat("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? AND "
                                           "table_namespace = ? AND table_name = ?",
                                           TableRowFilter())));
  query.Bind(name()).Bind(ident.ns.ToString()).Bind(ident.name);
  FLOE_ASSIGN_OR_RETURN(bool row, query.Step());
  if (!row) return Status::NotFound(TableNotFoundMessage(ident));
  if (query.IsNull(0) || query.Text(0).empty()) {
    return Status::Corrupt(
        StrCat("catalog database ", Quote(db->path()), ": table ", ident.ToString(), " has no metadata_location"));
  }
  return query.Text(0);
}

Status SqlCatalog::CreateMetadataLocation(const TableIdentifier& ident, const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(sqlite::Transaction txn, sqlite::Transaction::Begin(*db));
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, name(), ident.ns));
  FLOE_ASSIGN_OR_RETURN(
      sqlite::Statement insert,
      db->Prepare(has_record_type_
                      ? "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
                        "previous_metadata_location, iceberg_type) VALUES (?, ?, ?, ?, NULL, 'TABLE')"
                      : "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
                        "previous_metadata_location) VALUES (?, ?, ?, ?, NULL)"));
  insert.Bind(name()).Bind(ident.ns.ToString()).Bind(ident.name).Bind(metadata_location);
  Status inserted = insert.Run();
  if (inserted.IsAlreadyExists()) return Status::AlreadyExists(StrCat("table ", ident.ToString(), " already exists"));
  FLOE_RETURN_IF_ERROR(inserted);
  bool unknown = false;
  Status committed = txn.Commit(&unknown);
  if (!committed.ok() && unknown) {
    db.Discard();
    return Status::CommitStateUnknown(
        StrCat("table ", ident.ToString(), ": the create may or may not have happened: ", committed.message()));
  }
  return committed;
}

Status SqlCatalog::SwapMetadataLocation(const TableIdentifier& ident, const std::string& expected,
                                        const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(sqlite::Transaction txn, sqlite::Transaction::Begin(*db));
  FLOE_ASSIGN_OR_RETURN(
      sqlite::Statement update,
      db->Prepare(StrCat("UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = ? WHERE "
                         "catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ?",
                         TableRowFilter())));
  update.Bind(metadata_location).Bind(expected).Bind(name()).Bind(ident.ns.ToString()).Bind(ident.name).Bind(expected);
  // Before COMMIT nothing is durable: an error here leaves the table as it was.
  FLOE_RETURN_IF_ERROR(update.Run());
  if (db->changes() == 0) {
    FLOE_ASSIGN_OR_RETURN(sqlite::Statement current,
                          db->Prepare(StrCat("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? AND "
                                             "table_namespace = ? AND table_name = ?",
                                             TableRowFilter())));
    current.Bind(name()).Bind(ident.ns.ToString()).Bind(ident.name);
    FLOE_ASSIGN_OR_RETURN(bool row, current.Step());
    if (!row) return Status::CommitConflict(StrCat("table ", ident.ToString(), " no longer exists"));
    return Status::CommitConflict(StrCat("table ", ident.ToString(), " was changed by another commit: its metadata is ",
                                         Quote(current.Text(0)), ", expected ", Quote(expected)));
  }
  bool unknown = false;
  Status committed = txn.Commit(&unknown);
  if (!committed.ok() && unknown) {
    db.Discard();
    return Status::CommitStateUnknown(
        StrCat("table ", ident.ToString(), ": the commit may or may not have happened: ", committed.message()));
  }
  return committed;
}

// --- tables --------------------------------------------------------------------

Result<std::vector<TableIdentifier>> SqlCatalog::ListTables(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, name(), ns));
  FLOE_ASSIGN_OR_RETURN(sqlite::Statement query,
                        db->Prepare(StrCat("SELECT table_name FROM iceberg_tables WHERE catalog_name = ? AND "
                                           "table_namespace = ?",
                                           TableRowFilter(), " ORDER BY table_name")));
  query.Bind(name()).Bind(ns.ToString());
  std::vector<TableIdentifier> tables;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool row, query.Step());
    if (!row) return tables;
    tables.push_back(TableIdentifier{ns, query.Text(0)});
  }
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
  iceberg::TableDefinition definition{request.schema,     request.partition_spec, request.sort_order, {},
                                      request.properties, request.format_version};
  if (request.location && !request.location->empty()) {
    definition.location = *request.location;
  } else {
    FLOE_ASSIGN_OR_RETURN(definition.location, DefaultTableLocation(ident));
  }
  auto metadata = iceberg::NewTableMetadata(definition);
  if (!metadata.ok()) return metadata.status().WithContext(StrCat("table ", ident.ToString()));
  return NewTableOps(ident)->Commit(iceberg::TableState{}, *metadata);
}

Result<iceberg::TableState> SqlCatalog::LoadTable(const TableIdentifier& ident) {
  return NewTableOps(ident)->Refresh();
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
  {
    FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
    FLOE_ASSIGN_OR_RETURN(sqlite::Statement drop,
                          db->Prepare(StrCat("DELETE FROM iceberg_tables WHERE catalog_name = ? AND "
                                             "table_namespace = ? AND table_name = ?",
                                             TableRowFilter())));
    drop.Bind(name()).Bind(ident.ns.ToString()).Bind(ident.name);
    FLOE_RETURN_IF_ERROR(drop.Run());
    if (db->changes() == 0) return Status::NotFound(TableNotFoundMessage(ident));
  }
  if (!last) return Status::OK();
  return PurgeTableFiles(ops->io(), last->metadata_location, *last->metadata)
      .WithContext(StrCat("table ", ident.ToString(), " was dropped, but purging its files failed"));
}

Status SqlCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(from.Validate());
  FLOE_RETURN_IF_ERROR(to.Validate());
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(sqlite::Transaction txn, sqlite::Transaction::Begin(*db));
  const std::string exists_sql = StrCat(
      "SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? "
      "AND table_name = ?",
      TableRowFilter());
  auto row_exists = [&](const TableIdentifier& ident) -> Result<bool> {
    FLOE_ASSIGN_OR_RETURN(sqlite::Statement query, db->Prepare(exists_sql));
    query.Bind(name()).Bind(ident.ns.ToString()).Bind(ident.name);
    return query.Step();
  };
  FLOE_ASSIGN_OR_RETURN(bool from_exists, row_exists(from));
  if (!from_exists) return Status::NotFound(TableNotFoundMessage(from));
  if (from == to) return Status::OK();
  FLOE_RETURN_IF_ERROR(RequireNamespace(*db, name(), to.ns));
  FLOE_ASSIGN_OR_RETURN(bool to_exists, row_exists(to));
  if (to_exists) return Status::AlreadyExists(StrCat("table ", to.ToString(), " already exists"));
  FLOE_ASSIGN_OR_RETURN(sqlite::Statement rename,
                        db->Prepare(StrCat("UPDATE iceberg_tables SET table_namespace = ?, table_name = ? WHERE "
                                           "catalog_name = ? AND table_namespace = ? AND table_name = ?",
                                           TableRowFilter())));
  rename.Bind(to.ns.ToString()).Bind(to.name).Bind(name()).Bind(from.ns.ToString()).Bind(from.name);
  Status renamed = rename.Run();
  // A view of that name holds the primary key.
  if (renamed.IsAlreadyExists()) return Status::AlreadyExists(StrCat("a view named ", to.ToString(), " exists"));
  FLOE_RETURN_IF_ERROR(renamed);
  return txn.Commit();
}

Result<iceberg::TableState> SqlCatalog::RegisterTable(const TableIdentifier& ident,
                                                      const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  auto metadata = iceberg::ReadTableMetadata(*io_, metadata_location);
  if (!metadata.ok()) return metadata.status().WithContext(StrCat("registering table ", ident.ToString()));
  FLOE_RETURN_IF_ERROR(CreateMetadataLocation(ident, metadata_location));
  return iceberg::TableState{metadata_location, std::make_shared<const iceberg::TableMetadata>(std::move(*metadata))};
}

Result<iceberg::TableState> SqlCatalog::CommitTable(const TableIdentifier& ident,
                                                    const std::vector<iceberg::TableRequirement>& requirements,
                                                    const std::vector<iceberg::TableUpdate>& updates) {
  const bool creating = std::any_of(requirements.begin(), requirements.end(),
                                    [](const auto& r) { return std::holds_alternative<iceberg::AssertCreate>(r); });
  iceberg::TableState base;
  auto location = LoadMetadataLocation(ident);
  if (location.ok()) {
    auto metadata = iceberg::ReadTableMetadata(*io_, *location);
    if (!metadata.ok()) return metadata.status().WithContext(StrCat("table ", ident.ToString()));
    base = iceberg::TableState{*location, std::make_shared<const iceberg::TableMetadata>(std::move(*metadata))};
  } else if (!creating || !location.status().IsNotFound()) {
    return location.status();
  }
  auto updated = iceberg::ApplyTableChanges(base.metadata.get(), requirements, updates);
  if (!updated.ok()) return updated.status().WithContext(StrCat("table ", ident.ToString()));
  if (base.metadata != nullptr && *updated == *base.metadata) return base;
  return NewTableOps(ident)->Commit(base, *updated);
}

std::shared_ptr<iceberg::TableOperations> SqlCatalog::NewTableOps(const TableIdentifier& ident) {
  return std::make_shared<CatalogTableOperations>(shared_from_this(), ident, io_, options_.table_io);
}

}  // namespace floe::catalog
