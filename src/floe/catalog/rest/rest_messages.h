// The request and response bodies of the Iceberg REST catalog
// (spec: rest-catalog-open-api.yaml, components/schemas), shared by floe's
// REST server (server/) and REST client: one struct per message, a parser
// and a writer for each, so both sides agree byte for byte.
//
// Parsers: Parse<Message>(json). Strict: malformed JSON, a missing required
// field, a mistyped value, an unknown update action or requirement type is
// InvalidArgument with one line naming the message and the field's path:
//   "CommitTableRequest: field 'updates[0].action' is \"add-foo\", not a
//    known update action"
// Unknown extra fields are ignored (the spec lets messages grow). Table
// metadata inside a message is read and validated as a metadata file is
// (iceberg/table_metadata_json.h).
//
// Writers: ToJson(message) → compact JSON text, every required field
// present. Writers never fail, except the ones that carry TableMetadata,
// which return InvalidArgument when the metadata does not validate.
//
// Namespaces are JSON arrays of levels; identifiers {"namespace": [...],
// "name": "..."}. Paging: "next-page-token" is written as null on the last
// page (floe's server paginates), and read as absent when missing or null.
//
// Thread safety: plain values and free functions.

#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_update.h"

namespace floe::catalog::rest {

// --- config ----------------------------------------------------------------

// GET /v1/config.
struct CatalogConfig {
  Properties defaults;
  Properties overrides;
  // "<VERB> <path>", e.g. "GET /v1/{prefix}/namespaces"; empty: not sent.
  std::vector<std::string> endpoints;
  // ISO-8601 duration ("PT30M"); present iff Idempotency-Key is honoured.
  std::optional<std::string> idempotency_key_lifetime;
  bool operator==(const CatalogConfig&) const = default;
};
Result<CatalogConfig> ParseCatalogConfig(std::string_view json);
std::string ToJson(const CatalogConfig& config);

// spec (getConfig): "If a server does not send the endpoints field, a
// default set of endpoints is assumed" — this one.
inline constexpr std::array<std::string_view, 14> kDefaultEndpoints = {
    "GET /v1/{prefix}/namespaces",
    "POST /v1/{prefix}/namespaces",
    "GET /v1/{prefix}/namespaces/{namespace}",
    "DELETE /v1/{prefix}/namespaces/{namespace}",
    "POST /v1/{prefix}/namespaces/{namespace}/properties",
    "GET /v1/{prefix}/namespaces/{namespace}/tables",
    "POST /v1/{prefix}/namespaces/{namespace}/tables",
    "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
    "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
    "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}",
    "POST /v1/{prefix}/namespaces/{namespace}/register",
    "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
    "POST /v1/{prefix}/tables/rename",
    "POST /v1/{prefix}/transactions/commit",
};
// The view routes (list, create, load, HEAD, replace, drop, rename); none is
// in the default set.
inline constexpr std::array<std::string_view, 7> kViewEndpoints = {
    "GET /v1/{prefix}/namespaces/{namespace}/views",
    "POST /v1/{prefix}/namespaces/{namespace}/views",
    "GET /v1/{prefix}/namespaces/{namespace}/views/{view}",
    "HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}",
    "POST /v1/{prefix}/namespaces/{namespace}/views/{view}",
    "DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}",
    "POST /v1/{prefix}/views/rename",
};

// --- namespaces ------------------------------------------------------------

// CreateNamespaceRequest, and the same shape as CreateNamespaceResponse and
// GetNamespaceResponse.
struct NamespaceMessage {
  Namespace ns;  // JSON "namespace"
  Properties properties;
  bool operator==(const NamespaceMessage&) const = default;
};
using CreateNamespaceRequest = NamespaceMessage;
using CreateNamespaceResponse = NamespaceMessage;
using GetNamespaceResponse = NamespaceMessage;
// InvalidArgument also for an empty namespace or an invalid level.
Result<NamespaceMessage> ParseNamespaceMessage(std::string_view json);
std::string ToJson(const NamespaceMessage& message);

struct ListNamespacesResponse {
  std::vector<Namespace> namespaces;
  std::optional<std::string> next_page_token;
  bool operator==(const ListNamespacesResponse&) const = default;
};
Result<ListNamespacesResponse> ParseListNamespacesResponse(std::string_view json);
std::string ToJson(const ListNamespacesResponse& response);

struct UpdateNamespacePropertiesRequest {
  std::vector<std::string> removals;
  Properties updates;
  bool operator==(const UpdateNamespacePropertiesRequest&) const = default;
};
Result<UpdateNamespacePropertiesRequest> ParseUpdateNamespacePropertiesRequest(std::string_view json);
std::string ToJson(const UpdateNamespacePropertiesRequest& request);

// UpdateNamespacePropertiesResponse is catalog::NamespacePropertiesUpdate.
Result<NamespacePropertiesUpdate> ParseUpdateNamespacePropertiesResponse(std::string_view json);
std::string ToJson(const NamespacePropertiesUpdate& response);

// --- tables ----------------------------------------------------------------

struct ListTablesResponse {
  std::vector<TableIdentifier> identifiers;
  std::optional<std::string> next_page_token;
  bool operator==(const ListTablesResponse&) const = default;
};
Result<ListTablesResponse> ParseListTablesResponse(std::string_view json);
std::string ToJson(const ListTablesResponse& response);

// POST /v1/{prefix}/namespaces/{namespace}/tables.
struct CreateTableRequest {
  std::string name;
  // schema, "partition-spec" (absent: unpartitioned), "write-order" (absent:
  // unsorted), location, properties. The REST form has no format version of
  // its own: the writer puts a format_version other than 2 into the
  // "format-version" property (unless set), and the reader leaves that
  // property in place (it wins when the table's metadata is built).
  catalog::CreateTableRequest table;
  bool stage_create = false;
};
Result<CreateTableRequest> ParseCreateTableRequest(std::string_view json);
std::string ToJson(const CreateTableRequest& request);

// LoadTableResult (create, load, register). storage-credentials and
// remote-signing-config are not modelled (floe's server sends neither).
struct LoadTableResult {
  std::optional<std::string> metadata_location;  // nullopt: a staged create
  iceberg::TableMetadata metadata;
  Properties config;
};
Result<LoadTableResult> ParseLoadTableResult(std::string_view json);
Result<std::string> ToJson(const LoadTableResult& result);

// POST /v1/{prefix}/namespaces/{namespace}/tables/{table}, and one entry of
// CommitTransactionRequest (where `identifier` is required).
struct CommitTableRequest {
  std::optional<TableIdentifier> identifier;
  std::vector<iceberg::TableRequirement> requirements;
  std::vector<iceberg::TableUpdate> updates;
};
Result<CommitTableRequest> ParseCommitTableRequest(std::string_view json);
std::string ToJson(const CommitTableRequest& request);

struct CommitTableResponse {
  std::string metadata_location;
  iceberg::TableMetadata metadata;
};
Result<CommitTableResponse> ParseCommitTableResponse(std::string_view json);
Result<std::string> ToJson(const CommitTableResponse& response);

// POST /v1/{prefix}/transactions/commit. The parser requires an identifier
// on every change.
struct CommitTransactionRequest {
  std::vector<CommitTableRequest> table_changes;
};
Result<CommitTransactionRequest> ParseCommitTransactionRequest(std::string_view json);
std::string ToJson(const CommitTransactionRequest& request);

// POST /v1/{prefix}/tables/rename.
struct RenameTableRequest {
  TableIdentifier source;
  TableIdentifier destination;
  bool operator==(const RenameTableRequest&) const = default;
};
Result<RenameTableRequest> ParseRenameTableRequest(std::string_view json);
std::string ToJson(const RenameTableRequest& request);

// POST /v1/{prefix}/namespaces/{namespace}/register.
struct RegisterTableRequest {
  std::string name;
  std::string metadata_location;
  bool overwrite = false;
  bool operator==(const RegisterTableRequest&) const = default;
};
Result<RegisterTableRequest> ParseRegisterTableRequest(std::string_view json);
std::string ToJson(const RegisterTableRequest& request);

// POST .../tables/{table}/metrics: a ScanReport or CommitReport. floe keeps
// the body as it came (servers only log or count reports); the parser checks
// the spec's common required fields.
struct ReportMetricsRequest {
  std::string report_type;  // "scan-report" / "commit-report"
  std::string table_name;
  int64_t snapshot_id = 0;
  std::string json;  // the whole body
};
Result<ReportMetricsRequest> ParseReportMetricsRequest(std::string_view json);

// --- OAuth -----------------------------------------------------------------

// POST /v1/oauth/tokens answer (the request is a form: rest_path.h).
struct OAuthTokenResponse {
  std::string access_token;
  std::string token_type = "bearer";
  std::optional<int64_t> expires_in;  // seconds
  std::optional<std::string> issued_token_type;
  std::optional<std::string> refresh_token;
  std::optional<std::string> scope;
  bool operator==(const OAuthTokenResponse&) const = default;
};
Result<OAuthTokenResponse> ParseOAuthTokenResponse(std::string_view json);
std::string ToJson(const OAuthTokenResponse& response);

// The OAuth2 error body (RFC 6749 5.2): {"error": "invalid_client", ...}.
struct OAuthError {
  std::string error;  // invalid_request, invalid_client, invalid_grant, ...
  std::optional<std::string> error_description;
  bool operator==(const OAuthError&) const = default;
};
Result<OAuthError> ParseOAuthError(std::string_view json);
std::string ToJson(const OAuthError& error);

// --- pieces ----------------------------------------------------------------

// {"namespace": [...], "name": "..."}; InvalidArgument for an invalid name.
Result<TableIdentifier> ParseTableIdentifier(std::string_view json);
std::string ToJson(const TableIdentifier& ident);

}  // namespace floe::catalog::rest
