// RestCatalog: floe's Catalog over the Iceberg REST catalog protocol
// (spec: rest-catalog-open-api.yaml), against `floe serve` or any other
// Iceberg REST catalog. Every Catalog method is one endpoint (pages of a
// listing are followed through next-page-token):
//
//   CreateNamespace          POST   /v1/{prefix}/namespaces
//   ListNamespaces           GET    /v1/{prefix}/namespaces?parent=
//   LoadNamespaceMetadata    GET    /v1/{prefix}/namespaces/{ns}
//   NamespaceExists          HEAD   /v1/{prefix}/namespaces/{ns}
//   DropNamespace            DELETE /v1/{prefix}/namespaces/{ns}
//   UpdateNamespaceProperties POST  /v1/{prefix}/namespaces/{ns}/properties
//   ListTables               GET    /v1/{prefix}/namespaces/{ns}/tables
//   CreateTable              POST   /v1/{prefix}/namespaces/{ns}/tables
//   LoadTable                GET    /v1/{prefix}/namespaces/{ns}/tables/{t}
//   TableExists              HEAD   /v1/{prefix}/namespaces/{ns}/tables/{t}
//   DropTable                DELETE /v1/{prefix}/namespaces/{ns}/tables/{t}?purgeRequested=
//   RenameTable              POST   /v1/{prefix}/tables/rename
//   RegisterTable            POST   /v1/{prefix}/namespaces/{ns}/register
//   CommitTable              POST   /v1/{prefix}/namespaces/{ns}/tables/{t}
//   CommitTransaction        POST   /v1/{prefix}/transactions/commit
//                                   (then a LoadTable per table: the answer is 204)
//   ListViews                GET    /v1/{prefix}/namespaces/{ns}/views
//   CreateView               POST   /v1/{prefix}/namespaces/{ns}/views
//   LoadView                 GET    /v1/{prefix}/namespaces/{ns}/views/{v}
//   ViewExists               HEAD   /v1/{prefix}/namespaces/{ns}/views/{v}
//   ReplaceView              POST   /v1/{prefix}/namespaces/{ns}/views/{v}
//   DropView                 DELETE /v1/{prefix}/namespaces/{ns}/views/{v}
//   RenameView               POST   /v1/{prefix}/views/rename
// with namespaces as levels joined by 0x1F (%1F). Open() first fetches
// GET /v1/config?warehouse=: the catalog's properties are the server's
// defaults, then the client's, then the server's overrides; "prefix" among
// them is the path prefix. The config's "endpoints" say which view routes
// the server offers: a view method whose route is not listed answers
// Unsupported "catalog <name> does not support views ..." without a
// request. A server that sends no list offers the spec's default set, which
// has no views, unless the catalog property "view-endpoints-supported" is
// "true" (as Java's client reads it); decision 0036.
//
// When the config announces "idempotency-key-lifetime", every mutation
// carries an Idempotency-Key (rest_http.h), so a POST whose answer was lost
// is sent again with the same key and the server answers with its first
// response.
//
// ETags: LoadTableWithETag sends If-None-Match with the ETag of a state it
// already holds and keeps that state on 304 Not Modified (RestTableOperations
// does so on every Refresh).
//
// Errors: the server's error model mapped onto Status
// (catalog/rest/error_model.h), with NotFound worded as every floe catalog
// words it ("table shop.orders does not exist"); IOError naming the request
// for transport failures; PermissionDenied for 401/403. CommitTable: 409
// CommitConflict, 500/502/504 and a lost response CommitStateUnknown — also
// an error answer to a commit resent with its key after a lost answer (a
// replay cannot be told from a second run then).
//
// NewTableOps: a TableOperations whose Commit sends the change from base to
// updated as requirements and updates (iceberg/table_metadata_diff.h). A
// CommitConflict goes back to the operation's loop (reload, revalidate,
// retry). CommitStateUnknown is resolved by reloading, never by sending the
// commit again: the commit's snapshots (or its other updates) in the table
// → it landed, the reloaded state is returned; a requirement that no
// longer holds → it can never land, CommitConflict; still undecided after
// a few reloads → CommitStateUnknown to the caller.
//
// Thread safety: thread-safe (RestHttp's handle pool).

#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/catalog/catalog_table_operations.h"
#include "floe/catalog/rest_auth.h"
#include "floe/catalog/rest_http.h"
#include "floe/io/file_io.h"

namespace floe::catalog {

struct RestCatalogOptions {
  // The service root: http(s)://host:port[/path]; requests go to
  // <uri>/v1/... A trailing "/v1" is dropped.
  std::string uri;
  std::string name = "floe";
  // Sent as GET /v1/config?warehouse=; "" sends none.
  std::string warehouse;
  // Client properties, between the server's defaults and overrides
  // ("prefix", ...).
  Properties properties;
  OAuth2Options auth;
  // Absolute token endpoint; "" is <uri>/v1/oauth/tokens (the server's
  // "oauth2-server-uri" property is not followed: a server must not send
  // secrets elsewhere).
  std::string oauth2_server_uri;
  // pageSize for listings; 0 leaves it to the server.
  int page_size = 0;
  // Reloads when a commit's outcome is unknown, and the first pause between
  // them (doubling).
  int unknown_commit_reloads = 4;
  int64_t unknown_commit_pause_ms = 100;
  // Send Idempotency-Key on mutations when the server announces
  // idempotency-key-lifetime; false: never (a lost commit answer is then
  // always resolved by reloading).
  bool idempotency_keys = true;
  RestHttpOptions http;  // base_url is set from `uri`
  // The FileIO of a table whose storage settings are not the client's own:
  // the server's config, the table's properties and the table's config in
  // LoadTableResult (vended per table) may set storage properties
  // (IsFileIOProperty). Unset: every table uses the catalog's FileIO.
  TableFileIOResolver table_io;
};

class RestCatalog final : public Catalog, public std::enable_shared_from_this<RestCatalog> {
 public:
  // Connects: fetches a token when a credential is given, then the config.
  // InvalidArgument for a URI that is not http(s)://; the config request's
  // errors (IOError when the server is unreachable, PermissionDenied).
  // `io` reads and writes the tables' data and manifest files.
  static Result<std::shared_ptr<RestCatalog>> Open(RestCatalogOptions options, std::shared_ptr<FileIO> io);

  const std::string& name() const override { return options_.name; }
  // The merged catalog properties (defaults < client < overrides).
  const Properties& properties() const { return properties_; }
  // The path prefix in use ("" for none).
  const std::string& prefix() const { return prefix_; }
  RestHttp& http() { return *http_; }

  // Catalog (contracts in catalog.h; endpoints above).
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
  Result<std::vector<iceberg::TableState>> CommitTransaction(const std::vector<TableCommit>& commits) override;
  std::shared_ptr<iceberg::TableOperations> NewTableOps(const TableIdentifier& ident) override;

  // Views (rest_catalog_views.cc).
  Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) override;
  using Catalog::ListViews;  // the paged form
  Result<iceberg::ViewState> CreateView(const TableIdentifier& ident, const CreateViewRequest& request) override;
  Result<iceberg::ViewState> LoadView(const TableIdentifier& ident) override;
  Result<bool> ViewExists(const TableIdentifier& ident) override;
  Status DropView(const TableIdentifier& ident) override;
  Status RenameView(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<iceberg::ViewState> ReplaceView(const TableIdentifier& ident,
                                         const std::vector<iceberg::ViewRequirement>& requirements,
                                         const std::vector<iceberg::ViewUpdate>& updates) override;

  // Whether the server offers `endpoint` ("GET /v1/{prefix}/namespaces"),
  // by its config's "endpoints" (the spec's default set when it sent none).
  bool Offers(std::string_view endpoint) const;
  // A table state with the ETag of the answer that carried it ("" when the
  // server sent none).
  struct LoadedTable {
    iceberg::TableState state;
    std::string etag;
    Properties config;  // LoadTableResult's config; a commit's answer has none
  };
  // LoadTable, sending If-None-Match: known->etag when `known` has one; on
  // 304 Not Modified returns *known itself (its metadata shared, not read
  // again). Errors as LoadTable.
  Result<LoadedTable> LoadTableWithETag(const TableIdentifier& ident, const LoadedTable* known);
  // CommitTable, with the ETag of the answer.
  Result<LoadedTable> CommitTableWithETag(const TableIdentifier& ident,
                                          const std::vector<iceberg::TableRequirement>& requirements,
                                          const std::vector<iceberg::TableUpdate>& updates);

  const RestCatalogOptions& options() const { return options_; }
  const std::shared_ptr<FileIO>& io() const { return io_; }

  // The storage properties the files of a table at `metadata` use, as
  // PyIceberg merges them: the catalog's (server defaults < client <
  // server overrides) < the table's properties < `table_config`.
  FileIOProperties StoragePropertiesFor(const iceberg::TableMetadata& metadata, const Properties& table_config) const;
  // The FileIO for those properties: io() when they are the client's own
  // (or no table_io resolver was given), else the resolver's; its errors
  // (a malformed property) name the table.
  Result<std::shared_ptr<FileIO>> FileIOFor(const TableIdentifier& ident, const iceberg::TableMetadata& metadata,
                                            const FileIOProperties& storage) const;

  // Use Open.
  RestCatalog(RestCatalogOptions options, std::shared_ptr<FileIO> io);

 private:
  Status FetchConfig();
  // "v1/<prefix>/<rest>".
  std::string Path(std::string_view rest) const;
  std::string NamespacePath(const Namespace& ns) const;
  std::string TablePath(const TableIdentifier& ident) const;
  std::string ViewPath(const TableIdentifier& ident) const;
  // Every identifier under .../namespaces/{ns}/<kind> ("tables", "views"),
  // through the pages, sorted by name.
  Result<std::vector<TableIdentifier>> ListIdentifiers(const Namespace& ns, std::string_view kind);
  // Sends; maps a non-2xx answer to its Status (NotFound worded for
  // `ns`/`ident` when given, `ident` as a view when `view`).
  Result<HttpResponse> Call(RestRequest request, const Namespace* ns = nullptr, const TableIdentifier* ident = nullptr,
                            bool view = false);
  Status ErrorStatus(const RestRequest& request, const HttpResponse& response, const Namespace* ns,
                     const TableIdentifier* ident, bool view = false) const;
  // Unsupported unless the server offers `endpoint` (Offers).
  Status RequireEndpoint(std::string_view endpoint) const;
  // ReplaceView's answer: 409 CommitConflict, 500/502/504 and a lost answer
  // CommitStateUnknown, as CommitTable's.
  Result<iceberg::ViewState> SendViewCommit(const TableIdentifier& ident, const RestRequest& request);

  RestCatalogOptions options_;
  std::shared_ptr<FileIO> io_;
  std::shared_ptr<RestHttp> http_;
  std::shared_ptr<RestHttp> token_http_;
  std::shared_ptr<OAuth2Session> auth_;
  Properties properties_;
  FileIOProperties client_storage_;  // the storage properties of options_.properties
  std::string prefix_;
  std::set<std::string, std::less<>> endpoints_;  // the server's, or the spec's default set
};

}  // namespace floe::catalog
