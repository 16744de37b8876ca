#include "floe/catalog/rest_catalog.h"

#include <algorithm>
#include <set>

#include "floe/base/strings.h"
#include "floe/catalog/rest/error_model.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_path.h"
#include "floe/catalog/rest_table_operations.h"

namespace floe::catalog {
namespace {

bool Ok2xx(const HttpResponse& r) { return r.status >= 200 && r.status < 300; }

// A body's parse error, naming the request: the server broke the protocol.
Status BadBody(const RestRequest& request, const RestHttp& http, const Status& status) {
  return Status::Corrupt(StrCat("REST catalog ", request.method, " ", http.Url(request), ": ", status.message()));
}

iceberg::TableState StateOf(std::optional<std::string> location, iceberg::TableMetadata metadata) {
  iceberg::TableState state;
  state.metadata_location = location.value_or("");
  state.metadata = std::make_shared<const iceberg::TableMetadata>(std::move(metadata));
  return state;
}

// Guards a listing against a server that hands out the same page forever.
constexpr int kMaxPages = 100'000;

}  // namespace

RestCatalog::RestCatalog(RestCatalogOptions options, std::shared_ptr<FileIO> io)
    : options_(std::move(options)), io_(std::move(io)) {}

Result<std::shared_ptr<RestCatalog>> RestCatalog::Open(RestCatalogOptions options, std::shared_ptr<FileIO> io) {
  std::string uri = options.uri;
  const std::string scheme = ToLowerAscii(uri.substr(0, uri.find(':')));
  if ((scheme != "http" && scheme != "https") || uri.find("://") == std::string::npos) {
    return Status::InvalidArgument(StrCat("REST catalog URI ", Quote(uri), ": expected http(s)://host[:port][/path]"));
  }
  while (!uri.empty() && uri.back() == '/') uri.pop_back();
  if (EndsWith(uri, "/v1")) uri.resize(uri.size() - 3);
  options.uri = uri;
  if (options.name.empty()) return Status::InvalidArgument("REST catalog: the catalog name is empty");
  auto catalog = std::make_shared<RestCatalog>(std::move(options), std::move(io));
  RestCatalogOptions& o = catalog->options_;
  o.http.base_url = o.uri;
  catalog->http_ = std::make_shared<RestHttp>(o.http);
  // The token endpoint has a transport of its own: the catalog's holds the
  // session, which must not hold it back.
  RestHttpOptions token_options = o.http;
  if (!o.oauth2_server_uri.empty()) {
    token_options.base_url = o.oauth2_server_uri;
    o.auth.token_path.clear();
  }
  catalog->token_http_ = std::make_shared<RestHttp>(std::move(token_options));
  catalog->auth_ = std::make_shared<OAuth2Session>(catalog->token_http_, o.auth);
  catalog->http_->set_auth(catalog->auth_);
  FLOE_RETURN_IF_ERROR(catalog->FetchConfig());
  return catalog;
}

Status RestCatalog::FetchConfig() {
  RestRequest request;
  request.path = "v1/config";
  if (!options_.warehouse.empty()) request.query.emplace_back("warehouse", options_.warehouse);
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, Call(request));
  auto config = rest::ParseCatalogConfig(response.body);
  if (!config.ok()) return BadBody(request, *http_, config.status());
  // spec: "defaults ... may be overridden by client configuration ...
  // overrides ... take precedence over client configuration".
  properties_ = config->defaults;
  for (const auto& [k, v] : options_.properties) properties_[k] = v;
  for (const auto& [k, v] : config->overrides) properties_[k] = v;
  client_storage_.clear();
  for (const auto& [k, v] : options_.properties) {
    if (IsFileIOProperty(k)) client_storage_[k] = v;
  }
  if (auto it = properties_.find("prefix"); it != properties_.end()) prefix_ = it->second;
  endpoints_ = std::set<std::string, std::less<>>(config->endpoints.begin(), config->endpoints.end());
  if (config->endpoints.empty()) {
    // spec: "If a server does not send the endpoints field, a default set of
    // endpoints is assumed" — without views, unless the server says so.
    endpoints_.insert(rest::kDefaultEndpoints.begin(), rest::kDefaultEndpoints.end());
    if (auto it = properties_.find("view-endpoints-supported"); it != properties_.end() && it->second == "true") {
      endpoints_.insert(rest::kViewEndpoints.begin(), rest::kViewEndpoints.end());
    }
  }
  // spec: "Presence of this field indicates the server supports
  // Idempotency-Key semantics for mutation endpoints."
  http_->set_idempotency_keys(options_.idempotency_keys && config->idempotency_key_lifetime.has_value());
  while (!prefix_.empty() && prefix_.back() == '/') prefix_.pop_back();
  while (!prefix_.empty() && prefix_.front() == '/') prefix_.erase(0, 1);
  return Status::OK();
}

std::string RestCatalog::Path(std::string_view rest) const {
  return prefix_.empty() ? StrCat("v1/", rest) : StrCat("v1/", prefix_, "/", rest);
}

std::string RestCatalog::NamespacePath(const Namespace& ns) const {
  return Path(StrCat("namespaces/", rest::EncodeNamespace(ns)));
}

std::string RestCatalog::TablePath(const TableIdentifier& ident) const {
  return StrCat(NamespacePath(ident.ns), "/tables/", rest::UrlEncode(ident.name));
}

Status RestCatalog::ErrorStatus(const RestRequest& request, const HttpResponse& response, const Namespace* ns,
                                const TableIdentifier* ident, bool view) const {
  rest::ErrorModel error;
  if (auto parsed = rest::ErrorResponseFromJson(response.body); parsed.ok()) {
    error = std::move(*parsed);
  } else {
    // A proxy's page or a HEAD answer: only the code speaks.
    error.code = static_cast<int>(response.status);
    error.message = StrCat("REST catalog ", request.method, " ", http_->Url(request), ": HTTP ", response.status);
  }
  error.code = static_cast<int>(response.status);
  Status status = rest::StatusForError(error);
  if (status.code() == StatusCode::kNotFound) {
    // Every floe catalog words these alike (catalog.h).
    if (error.type == "NoSuchNamespaceException" && (ns != nullptr || ident != nullptr)) {
      return Status::NotFound(NamespaceNotFoundMessage(ns != nullptr ? *ns : ident->ns));
    }
    if (error.type != "NoSuchNamespaceException" && ident != nullptr) {
      return Status::NotFound(view ? ViewNotFoundMessage(*ident) : TableNotFoundMessage(*ident));
    }
    if (error.type != "NoSuchTableException" && ns != nullptr && ident == nullptr) {
      return Status::NotFound(NamespaceNotFoundMessage(*ns));
    }
  }
  return status;
}

Result<HttpResponse> RestCatalog::Call(RestRequest request, const Namespace* ns, const TableIdentifier* ident,
                                       bool view) {
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, http_->Send(request));
  if (!Ok2xx(response)) return ErrorStatus(request, response, ns, ident, view);
  return response;
}

// --- namespaces --------------------------------------------------------------

Status RestCatalog::CreateNamespace(const Namespace& ns, const Properties& properties) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return Status::InvalidArgument("cannot create the root namespace");
  RestRequest request;
  request.method = "POST";
  request.path = Path("namespaces");
  request.body = rest::ToJson(rest::NamespaceMessage{ns, properties});
  return Call(std::move(request)).status();
}

Result<std::vector<Namespace>> RestCatalog::ListNamespaces(const Namespace& parent) {
  FLOE_RETURN_IF_ERROR(parent.Validate());
  std::vector<Namespace> out;
  std::optional<std::string> token;
  for (int page = 0;; ++page) {
    RestRequest request;
    request.path = Path("namespaces");
    if (!parent.empty()) {
      std::string joined;
      for (const auto& level : parent.levels) {
        if (!joined.empty()) joined += rest::kNamespaceSeparator;
        joined += level;
      }
      request.query.emplace_back("parent", joined);
    }
    if (token.has_value()) request.query.emplace_back("pageToken", *token);
    if (options_.page_size > 0) request.query.emplace_back("pageSize", std::to_string(options_.page_size));
    FLOE_ASSIGN_OR_RETURN(HttpResponse response, Call(request, &parent));
    auto list = rest::ParseListNamespacesResponse(response.body);
    if (!list.ok()) return BadBody(request, *http_, list.status());
    out.insert(out.end(), list->namespaces.begin(), list->namespaces.end());
    if (!list->next_page_token.has_value() || list->next_page_token->empty()) break;
    if (list->next_page_token == token || page >= kMaxPages) {
      return Status::Corrupt(StrCat("REST catalog ", http_->Url(request), ": next-page-token ",
                                    Quote(*list->next_page_token), " does not advance"));
    }
    token = list->next_page_token;
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<Properties> RestCatalog::LoadNamespaceMetadata(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return Properties{};
  RestRequest request;
  request.path = NamespacePath(ns);
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, Call(request, &ns));
  auto message = rest::ParseNamespaceMessage(response.body);
  if (!message.ok()) return BadBody(request, *http_, message.status());
  return std::move(message->properties);
}

Result<bool> RestCatalog::NamespaceExists(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return true;
  RestRequest request;
  request.method = "HEAD";
  request.path = NamespacePath(ns);
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, http_->Send(request));
  if (Ok2xx(response)) return true;
  if (response.status == 404) return false;
  return ErrorStatus(request, response, &ns, nullptr);
}

Status RestCatalog::DropNamespace(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return Status::InvalidArgument("cannot drop the root namespace");
  RestRequest request;
  request.method = "DELETE";
  request.path = NamespacePath(ns);
  return Call(std::move(request), &ns).status();
}

Result<NamespacePropertiesUpdate> RestCatalog::UpdateNamespaceProperties(const Namespace& ns,
                                                                         const std::vector<std::string>& removals,
                                                                         const Properties& updates) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return Status::InvalidArgument("the root namespace has no properties");
  RestRequest request;
  request.method = "POST";
  request.path = NamespacePath(ns) + "/properties";
  request.body = rest::ToJson(rest::UpdateNamespacePropertiesRequest{removals, updates});
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, Call(request, &ns));
  auto update = rest::ParseUpdateNamespacePropertiesResponse(response.body);
  if (!update.ok()) return BadBody(request, *http_, update.status());
  return std::move(*update);
}

// --- tables ------------------------------------------------------------------

Result<std::vector<TableIdentifier>> RestCatalog::ListTables(const Namespace& ns) {
  return ListIdentifiers(ns, "tables");
}

Result<std::vector<TableIdentifier>> RestCatalog::ListIdentifiers(const Namespace& ns, std::string_view kind) {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return std::vector<TableIdentifier>();  // tables and views live in namespaces
  std::vector<TableIdentifier> out;
  std::optional<std::string> token;
  for (int page = 0;; ++page) {
    RestRequest request;
    request.path = StrCat(NamespacePath(ns), "/", kind);
    if (token.has_value()) request.query.emplace_back("pageToken", *token);
    if (options_.page_size > 0) request.query.emplace_back("pageSize", std::to_string(options_.page_size));
    FLOE_ASSIGN_OR_RETURN(HttpResponse response, Call(request, &ns));
    auto list = rest::ParseListTablesResponse(response.body);
    if (!list.ok()) return BadBody(request, *http_, list.status());
    out.insert(out.end(), list->identifiers.begin(), list->identifiers.end());
    if (!list->next_page_token.has_value() || list->next_page_token->empty()) break;
    if (list->next_page_token == token || page >= kMaxPages) {
      return Status::Corrupt(StrCat("REST catalog ", http_->Url(request), ": next-page-token ",
                                    Quote(*list->next_page_token), " does not advance"));
    }
    token = list->next_page_token;
  }
  std::sort(out.begin(), out.end(),
            [](const TableIdentifier& a, const TableIdentifier& b) { return a.name < b.name; });
  return out;
}

Result<iceberg::TableState> RestCatalog::CreateTable(const TableIdentifier& ident, const CreateTableRequest& request) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest http_request;
  http_request.method = "POST";
  http_request.path = NamespacePath(ident.ns) + "/tables";
  http_request.body = rest::ToJson(rest::CreateTableRequest{ident.name, request, false});
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, Call(http_request, &ident.ns));
  auto result = rest::ParseLoadTableResult(response.body);
  if (!result.ok()) return BadBody(http_request, *http_, result.status());
  return StateOf(std::move(result->metadata_location), std::move(result->metadata));
}

Result<iceberg::TableState> RestCatalog::LoadTable(const TableIdentifier& ident) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, LoadTableWithETag(ident, nullptr));
  return std::move(loaded.state);
}

Result<RestCatalog::LoadedTable> RestCatalog::LoadTableWithETag(const TableIdentifier& ident,
                                                                const LoadedTable* known) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest request;
  request.path = TablePath(ident);
  request.query.emplace_back("snapshots", "all");
  const bool conditional = known != nullptr && !known->etag.empty() && known->state.metadata != nullptr;
  if (conditional) request.headers.emplace_back("If-None-Match", known->etag);
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, http_->Send(request));
  // spec (loadTable): 304 "Not Modified - Based on the content of the
  // 'If-None-Match' header the table metadata has not changed since."
  if (response.status == 304 && conditional) return *known;
  if (!Ok2xx(response)) return ErrorStatus(request, response, nullptr, &ident);
  auto result = rest::ParseLoadTableResult(response.body);
  if (!result.ok()) return BadBody(request, *http_, result.status());
  return LoadedTable{StateOf(std::move(result->metadata_location), std::move(result->metadata)),
                     std::string(response.Header("etag")), std::move(result->config)};
}

Result<bool> RestCatalog::TableExists(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest request;
  request.method = "HEAD";
  request.path = TablePath(ident);
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, http_->Send(request));
  if (Ok2xx(response)) return true;
  if (response.status == 404) return false;
  return ErrorStatus(request, response, nullptr, &ident);
}

Status RestCatalog::DropTable(const TableIdentifier& ident, bool purge) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest request;
  request.method = "DELETE";
  request.path = TablePath(ident);
  request.query.emplace_back("purgeRequested", purge ? "true" : "false");
  return Call(std::move(request), nullptr, &ident).status();
}

Status RestCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(from.Validate());
  FLOE_RETURN_IF_ERROR(to.Validate());
  RestRequest request;
  request.method = "POST";
  request.path = Path("tables/rename");
  request.body = rest::ToJson(rest::RenameTableRequest{from, to});
  // A missing source is the table's NotFound; a missing target namespace
  // the namespace's (ErrorStatus tells them apart by the exception type).
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, http_->Send(request));
  if (Ok2xx(response)) return Status::OK();
  return ErrorStatus(request, response, &to.ns, &from);
}

Result<iceberg::TableState> RestCatalog::RegisterTable(const TableIdentifier& ident,
                                                       const std::string& metadata_location, bool overwrite) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest request;
  request.method = "POST";
  request.path = NamespacePath(ident.ns) + "/register";
  request.body = rest::ToJson(rest::RegisterTableRequest{ident.name, metadata_location, overwrite});
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, Call(request, &ident.ns));
  auto result = rest::ParseLoadTableResult(response.body);
  if (!result.ok()) return BadBody(request, *http_, result.status());
  return StateOf(std::move(result->metadata_location), std::move(result->metadata));
}

Result<iceberg::TableState> RestCatalog::CommitTable(const TableIdentifier& ident,
                                                     const std::vector<iceberg::TableRequirement>& requirements,
                                                     const std::vector<iceberg::TableUpdate>& updates) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable committed, CommitTableWithETag(ident, requirements, updates));
  return std::move(committed.state);
}

Result<RestCatalog::LoadedTable> RestCatalog::CommitTableWithETag(
    const TableIdentifier& ident, const std::vector<iceberg::TableRequirement>& requirements,
    const std::vector<iceberg::TableUpdate>& updates) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest request;
  request.method = "POST";
  request.path = TablePath(ident);
  rest::CommitTableRequest commit;
  commit.identifier = ident;
  commit.requirements = requirements;
  commit.updates = updates;
  request.body = rest::ToJson(commit);
  TransportFailure failure = TransportFailure::kNone;
  auto response = http_->Send(request, &failure);
  if (!response.ok()) {
    // Sent, and no answer: the server may have committed.
    if (failure == TransportFailure::kOutcomeUnknown) {
      return Status::CommitStateUnknown(StrCat("table ", ident.ToString(), ": ", response.status().message()));
    }
    return response.status();
  }
  // spec (commitTable): 500, 502 and 504 are CommitStateUnknownException —
  // "the commit may have succeeded" — whatever the body says.
  if (response->status == 500 || response->status == 502 || response->status == 504) {
    auto parsed = rest::ErrorResponseFromJson(response->body);
    return Status::CommitStateUnknown(StrCat("table ", ident.ToString(), ": commit state unknown (HTTP ",
                                             response->status, parsed.ok() ? ": " + parsed->message : "", ")"));
  }
  if (!Ok2xx(*response)) {
    Status status = ErrorStatus(request, *response, nullptr, &ident);
    if (failure == TransportFailure::kOutcomeUnknown) {
      // Resent with its key after a lost answer: a server that no longer
      // knew the key ran it again, and this error may be about the first
      // attempt's own effect (a requirement it made false).
      return Status::CommitStateUnknown(
          StrCat("table ", ident.ToString(), ": the commit was resent after a lost answer and then failed: ",
                 status.message()));
    }
    // 409 is always a lost race or a failed requirement here.
    if (response->status == 409) return Status::CommitConflict(status.message());
    return status;
  }
  auto result = rest::ParseCommitTableResponse(response->body);
  if (!result.ok()) {
    // The commit happened; only its answer is unreadable.
    return Status::CommitStateUnknown(
        StrCat("table ", ident.ToString(), ": unreadable commit response: ", result.status().message()));
  }
  return LoadedTable{StateOf(std::move(result->metadata_location), std::move(result->metadata)),
                     std::string(response->Header("etag")), Properties{}};
}

Result<std::vector<iceberg::TableState>> RestCatalog::CommitTransaction(const std::vector<TableCommit>& commits) {
  rest::CommitTransactionRequest transaction;
  for (const TableCommit& commit : commits) {
    FLOE_RETURN_IF_ERROR(commit.ident.Validate());
    transaction.table_changes.push_back(rest::CommitTableRequest{commit.ident, commit.requirements, commit.updates});
  }
  RestRequest request;
  request.method = "POST";
  request.path = Path("transactions/commit");
  request.body = rest::ToJson(transaction);
  TransportFailure failure = TransportFailure::kNone;
  auto response = http_->Send(request, &failure);
  if (!response.ok()) {
    if (failure == TransportFailure::kOutcomeUnknown) {
      return Status::CommitStateUnknown(StrCat("transaction: ", response.status().message()));
    }
    return response.status();
  }
  if (response->status == 500 || response->status == 502 || response->status == 504) {
    return Status::CommitStateUnknown(StrCat("transaction: commit state unknown (HTTP ", response->status, ")"));
  }
  if (!Ok2xx(*response)) {
    Status status = ErrorStatus(request, *response, nullptr, nullptr);
    if (failure == TransportFailure::kOutcomeUnknown) {
      return Status::CommitStateUnknown(
          StrCat("transaction: resent after a lost answer and then failed: ", status.message()));
    }
    if (response->status == 409) return Status::CommitConflict(status.message());
    return status;
  }
  // spec: 204, no body; the new states are read back.
  std::vector<iceberg::TableState> states;
  for (const TableCommit& commit : commits) {
    FLOE_ASSIGN_OR_RETURN(iceberg::TableState state, LoadTable(commit.ident));
    states.push_back(std::move(state));
  }
  return states;
}

FileIOProperties RestCatalog::StoragePropertiesFor(const iceberg::TableMetadata& metadata,
                                                   const Properties& table_config) const {
  FileIOProperties storage;
  auto take = [&storage](const Properties& properties) {
    for (const auto& [key, value] : properties) {
      if (IsFileIOProperty(key)) storage[key] = value;
    }
  };
  take(properties_);
  take(metadata.properties);
  take(table_config);
  return storage;
}

Result<std::shared_ptr<FileIO>> RestCatalog::FileIOFor(const TableIdentifier& ident,
                                                       const iceberg::TableMetadata& metadata,
                                                       const FileIOProperties& storage) const {
  if (!options_.table_io || storage == client_storage_) return io_;
  auto io = options_.table_io(metadata.location, storage);
  if (!io.ok()) return io.status().WithContext(StrCat("table ", ident.ToString(), ": storage properties"));
  return io;
}

std::shared_ptr<iceberg::TableOperations> RestCatalog::NewTableOps(const TableIdentifier& ident) {
  return std::make_shared<RestTableOperations>(shared_from_this(), ident);
}

}  // namespace floe::catalog
