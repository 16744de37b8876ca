// Catalog: where tables are found by name and where a table's current
// metadata pointer is swapped atomically — the catalog layer's interface,
// with the operations and semantics of the Iceberg REST catalog
// (apache/iceberg open-api/rest-catalog-open-api.yaml), so the REST server
// maps onto it one to one and every catalog (SQL, REST client) looks alike.
//
// Names: a Namespace is a list of levels ("shop", or "shop.eu" for nested
// levels); a TableIdentifier is a namespace plus a table name. Levels and
// names are non-empty and contain no '.', so the dotted form is unambiguous
// (catalogs store namespaces that way, as Java's JdbcCatalog does).
//
// Errors, common to every method: InvalidArgument for a malformed name;
// NotFound "namespace shop does not exist" / "table shop.orders does not
// exist"; AlreadyExists "namespace shop already exists" / "table shop.orders
// already exists"; the store's IOError / PermissionDenied / Corrupt.
//
// Thread safety: one Catalog object may be used from several threads at
// once; every method is atomic with respect to other callers, in this process
// or another process using the same catalog.

#pragma once

#include <compare>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/new_table_metadata.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"
#include "floe/iceberg/sort_order.h"
#include "floe/iceberg/table_operations.h"
#include "floe/iceberg/table_update.h"
#include "floe/iceberg/view_metadata.h"
#include "floe/iceberg/view_update.h"

namespace floe::catalog {

using Properties = std::map<std::string, std::string>;

struct Namespace {
  std::vector<std::string> levels;  // empty: the root, which always exists

  // "a.b" → {"a", "b"}; "" → the root. InvalidArgument for an empty level
  // ("a..b", ".a").
  static Result<Namespace> Parse(std::string_view dotted);
  // "a.b"; "" for the root.
  std::string ToString() const;
  bool empty() const { return levels.empty(); }
  // InvalidArgument unless every level is non-empty and has no '.'.
  Status Validate() const;

  auto operator<=>(const Namespace&) const = default;
  bool operator==(const Namespace&) const = default;
};

struct TableIdentifier {
  Namespace ns;
  std::string name;

  // "a.b.t" → namespace a.b, table t. InvalidArgument for an empty text or
  // an empty level.
  static Result<TableIdentifier> Parse(std::string_view dotted);
  // "a.b.t".
  std::string ToString() const;
  // InvalidArgument unless the namespace is valid and non-empty and the name
  // is non-empty without '.'.
  Status Validate() const;

  auto operator<=>(const TableIdentifier&) const = default;
  bool operator==(const TableIdentifier&) const = default;
};

// The REST CreateTableRequest.
struct CreateTableRequest {
  // Field ids only need to be unique: new tables get fresh ids from 1 (see
  // iceberg/new_table_metadata.h); spec and order source ids refer to them.
  iceberg::Schema schema;
  iceberg::PartitionSpec partition_spec;  // default: unpartitioned
  iceberg::SortOrder sort_order;          // default: unsorted
  // nullopt: the catalog's default location for the table.
  std::optional<std::string> location;
  Properties properties;
  int format_version = 2;

  // What NewTableMetadata builds the table from, at `location` (the
  // catalog's choice when `location` above is unset).
  iceberg::TableDefinition Definition(std::string table_location) const;
};

// The REST CreateViewRequest.
struct CreateViewRequest {
  iceberg::Schema schema;
  // The first version; its schema-id is replaced by the schema's.
  iceberg::ViewVersion view_version;
  // nullopt: the catalog's default location for the view (as a table's).
  std::optional<std::string> location;
  Properties properties;

  // The updates that build the new view from nothing
  // (ApplyViewChanges(nullptr, {}, ...)): `uuid`, `view_location`, the
  // schema, the properties and the first version, current, on the added
  // schema, stamped `now_ms` unless it carries a time.
  std::vector<iceberg::ViewUpdate> NewViewUpdates(std::string uuid, std::string view_location, int64_t now_ms) const;
};

// The REST UpdateNamespacePropertiesResponse.
struct NamespacePropertiesUpdate {
  std::vector<std::string> updated;  // keys set (new or changed)
  std::vector<std::string> removed;  // keys removed
  std::vector<std::string> missing;  // keys asked to be removed that did not exist
};

// A page of a listing (the REST pageToken / pageSize): items after
// `page_token` (empty: from the start), at most `page_size` of them (0: all).
struct PageRequest {
  std::string page_token;
  size_t page_size = 0;
};

// One page of a listing; `next_page_token` is empty on the last page and
// otherwise goes into the next PageRequest. Tokens are opaque to callers.
template <typename T>
struct Page {
  std::vector<T> items;
  std::string next_page_token;
};

// One table's part of a multi-table commit (the REST CommitTransactionRequest).
struct TableCommit {
  TableIdentifier ident;
  std::vector<iceberg::TableRequirement> requirements;
  std::vector<iceberg::TableUpdate> updates;
};

class Catalog {
 public:
  virtual ~Catalog() = default;

  // The catalog's name ("floe" unless configured): SQL catalogs key their
  // rows by it, so several catalogs can share one database.
  virtual const std::string& name() const = 0;

  // --- namespaces ---------------------------------------------------------

  // Creates `ns` with `properties`. AlreadyExists when it exists (also when
  // only a nested namespace or a table inside it makes it exist);
  // InvalidArgument for the root, a malformed name or a reserved property.
  // Parents need not exist.
  virtual Status CreateNamespace(const Namespace& ns, const Properties& properties) = 0;

  // The namespaces one level below `parent` (the root: top-level ones),
  // sorted. NotFound when a non-root parent does not exist.
  virtual Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) = 0;

  // One page of ListNamespaces(parent). A page ends after `page_size`
  // namespaces; the token is the last one's name, so a listing continues
  // where it stopped even when namespaces come and go in between. The
  // default pages the full listing; catalogs with server-side paging
  // override it.
  virtual Result<Page<Namespace>> ListNamespaces(const Namespace& parent, const PageRequest& page);

  // The properties of `ns` (empty for a namespace that exists only through
  // what it contains). NotFound when it does not exist.
  virtual Result<Properties> LoadNamespaceMetadata(const Namespace& ns) = 0;

  // Whether `ns` exists: it was created, or a table or nested namespace is
  // inside it. The root always exists.
  virtual Result<bool> NamespaceExists(const Namespace& ns) = 0;

  // Drops `ns` and its properties. NotFound when it does not exist;
  // InvalidArgument "namespace shop is not empty: ..." when a table or a
  // nested namespace is inside it.
  virtual Status DropNamespace(const Namespace& ns) = 0;

  // Removes `removals` and sets `updates`, atomically. InvalidArgument when a
  // key is in both or is reserved; NotFound when `ns` does not exist.
  virtual Result<NamespacePropertiesUpdate> UpdateNamespaceProperties(const Namespace& ns,
                                                                      const std::vector<std::string>& removals,
                                                                      const Properties& updates) = 0;

  // --- tables -------------------------------------------------------------

  // The tables directly in `ns`, sorted by name. NotFound when `ns` does not
  // exist.
  virtual Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) = 0;

  // One page of ListTables(ns), paged as ListNamespaces.
  virtual Result<Page<TableIdentifier>> ListTables(const Namespace& ns, const PageRequest& page);

  // Creates a table: builds its first metadata (fresh ids, a new uuid), writes
  // it as the table's first metadata file and registers it. Returns the new
  // table. NotFound when the namespace does not exist; AlreadyExists when the
  // name is taken (the metadata file written is then removed); InvalidArgument
  // for a request that does not make valid metadata.
  virtual Result<iceberg::TableState> CreateTable(const TableIdentifier& ident, const CreateTableRequest& request) = 0;

  // The table's current metadata location and metadata. NotFound when there
  // is no such table; the metadata file's errors (NotFound, Corrupt, ...).
  virtual Result<iceberg::TableState> LoadTable(const TableIdentifier& ident) = 0;

  virtual Result<bool> TableExists(const TableIdentifier& ident) = 0;

  // Removes the table from the catalog. With `purge`, then deletes its files:
  // every metadata file, manifest list and statistics file its metadata
  // names, and every object under <location>/metadata/ and <location>/data/
  // (a purge that fails part-way returns the first deletion error after
  // trying all; the table is gone either way). NotFound when there is no such
  // table.
  virtual Status DropTable(const TableIdentifier& ident, bool purge) = 0;

  // Renames a table (its files stay where they are). NotFound when `from`
  // or `to`'s namespace does not exist; AlreadyExists when `to` exists.
  virtual Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) = 0;

  // Registers an existing metadata file as table `ident` (after reading it,
  // so a bad file is refused with its error). NotFound when the namespace
  // does not exist; AlreadyExists when the name is taken by a view, or by a
  // table unless `overwrite` (spec RegisterTableRequest: "Whether to
  // overwrite table metadata if the table already exists"): then the
  // table's pointer is swapped to the file, by compare-and-swap, as a
  // commit would (its previous metadata location is kept as the previous
  // one; its files are not touched).
  virtual Result<iceberg::TableState> RegisterTable(const TableIdentifier& ident, const std::string& metadata_location,
                                                    bool overwrite) = 0;
  // RegisterTable without overwrite.
  Result<iceberg::TableState> RegisterTable(const TableIdentifier& ident, const std::string& metadata_location) {
    return RegisterTable(ident, metadata_location, /*overwrite=*/false);
  }

  // The REST commit: checks `requirements` against the table's current
  // metadata, applies `updates`, writes the result as a new metadata file and
  // swaps the pointer to it. Returns the new state (the current one, unchanged,
  // when the updates change nothing). With AssertCreate among the
  // requirements a missing table is created (a REST create transaction).
  //   CommitConflict — a requirement does not hold, or another commit won the
  //     race; nothing changed.
  //   CommitStateUnknown — the swap may have happened; LoadTable to find out.
  //   NotFound — no such table (and no AssertCreate).
  virtual Result<iceberg::TableState> CommitTable(const TableIdentifier& ident,
                                                  const std::vector<iceberg::TableRequirement>& requirements,
                                                  const std::vector<iceberg::TableUpdate>& updates) = 0;

  // --- views --------------------------------------------------------------
  // Views share the table namespace: a view and a table cannot have one
  // name. Catalogs without views answer Unsupported "catalog <name> does not
  // support views" (the defaults).

  // The views directly in `ns`, sorted by name. NotFound when `ns` does not
  // exist.
  virtual Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns);
  // One page of ListViews(ns), paged as ListNamespaces.
  virtual Result<Page<TableIdentifier>> ListViews(const Namespace& ns, const PageRequest& page);

  // Creates a view: builds its first metadata (a new uuid, the schema, the
  // version as current), writes it as the view's first metadata file and
  // registers it. NotFound when the namespace does not exist; AlreadyExists
  // when a view or table has the name; InvalidArgument for a request that
  // does not make valid metadata.
  virtual Result<iceberg::ViewState> CreateView(const TableIdentifier& ident, const CreateViewRequest& request);

  // The view's current metadata. NotFound "view shop.recent does not
  // exist"; the metadata file's errors.
  virtual Result<iceberg::ViewState> LoadView(const TableIdentifier& ident);

  virtual Result<bool> ViewExists(const TableIdentifier& ident);

  // Removes the view from the catalog (its metadata files stay, as Java
  // leaves them). NotFound when there is no such view.
  virtual Status DropView(const TableIdentifier& ident);

  // NotFound when `from` or `to`'s namespace does not exist; AlreadyExists
  // when a view or table is named `to`.
  virtual Status RenameView(const TableIdentifier& from, const TableIdentifier& to);

  // The REST view commit: checks `requirements`, applies `updates`, writes a
  // new metadata file and swaps the pointer. Errors as CommitTable's
  // (CommitConflict, CommitStateUnknown, NotFound); InvalidArgument for
  // updates that cannot apply.
  virtual Result<iceberg::ViewState> ReplaceView(const TableIdentifier& ident,
                                                 const std::vector<iceberg::ViewRequirement>& requirements,
                                                 const std::vector<iceberg::ViewUpdate>& updates);

  // The REST transactions/commit: CommitTable for every entry of `commits`,
  // atomically — every table moves to its new metadata, or none does.
  // Returns the new states in the order given. Errors as CommitTable, for the
  // whole transaction (CommitConflict when any requirement fails or any
  // table changed meanwhile; nothing changed then); InvalidArgument when a
  // table appears twice or an entry asserts create (tables are created one
  // by one). The default: Unsupported, for catalogs that cannot swap several
  // pointers in one step.
  virtual Result<std::vector<iceberg::TableState>> CommitTransaction(const std::vector<TableCommit>& commits);

  // The TableOperations of one table, for the Iceberg kernel's operations
  // (append, evolve...). Never fails itself: a missing table or a malformed
  // name shows in Refresh / Commit. The result may outlive this call and is
  // thread-safe.
  virtual std::shared_ptr<iceberg::TableOperations> NewTableOps(const TableIdentifier& ident) = 0;

 protected:
  // Unsupported "catalog <name> does not support views".
  Status ViewsUnsupported() const;
};

// Messages shared by every catalog, so clients can rely on their wording.
std::string NamespaceNotFoundMessage(const Namespace& ns);       // "namespace shop does not exist"
std::string TableNotFoundMessage(const TableIdentifier& ident);  // "table shop.orders does not exist"
std::string ViewNotFoundMessage(const TableIdentifier& ident);   // "view shop.recent does not exist"

// The page `page` asks for out of `sorted` (sorted by name, ascending; the
// last level for namespaces), for Catalog's default paging.
Page<Namespace> PageOf(std::vector<Namespace> sorted, const PageRequest& page);
Page<TableIdentifier> PageOf(std::vector<TableIdentifier> sorted, const PageRequest& page);

}  // namespace floe::catalog
