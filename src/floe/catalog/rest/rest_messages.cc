#include "floe/catalog/rest/rest_messages.h"

#include <simdjson.h>

#include "floe/base/json_writer.h"
#include "floe/base/strings.h"
#include "floe/catalog/rest/message_json.h"
#include "floe/catalog/rest/table_changes_json.h"
#include "floe/iceberg/json_reader.h"
#include "floe/iceberg/schema_json.h"
#include "floe/iceberg/table_metadata_json.h"

namespace floe::catalog::rest {

using iceberg::internal::JsonObject;
using iceberg::internal::JsonObjectReader;
using internal::ReadIdentifier;
using internal::ReadNamespace;
using internal::WriteIdentifier;
using internal::WriteNamespace;
using simdjson::dom::element;

namespace {

std::string Indexed(const std::string& path, size_t i) { return StrCat(path, "[", i, "]"); }

template <typename T, typename ReadFn>
Result<T> Parse(std::string_view json, std::string_view what, ReadFn read) {
  return internal::ParseMessage<T>(json, what, std::move(read));
}

Result<Namespace> ReadNamespaceMember(const JsonObjectReader& obj, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(element e, obj.Get(key));
  return ReadNamespace(e, obj.PathOf(key));
}

Result<std::optional<std::string>> ReadPageToken(const JsonObjectReader& obj) {
  return obj.OptionalString("next-page-token");
}

Result<bool> OptionalBool(const JsonObjectReader& obj, std::string_view key, bool fallback) {
  if (!obj.Find(key)) return fallback;
  return obj.Bool(key);
}

Result<iceberg::TableMetadata> ReadMetadataMember(const JsonObjectReader& obj) {
  FLOE_ASSIGN_OR_RETURN(element e, obj.Get("metadata"));
  auto m = iceberg::internal::ReadTableMetadata(e);
  if (!m.ok()) return Status::InvalidArgument(StrCat("field 'metadata': ", m.status().message()));
  return m;
}

void WriteStrings(JsonWriter& w, std::string_view key, const std::vector<std::string>& items) {
  w.Key(key);
  w.BeginArray();
  for (const auto& s : items) w.String(s);
  w.EndArray();
}

void WriteMap(JsonWriter& w, std::string_view key, const Properties& map) {
  w.Key(key);
  iceberg::internal::WriteStringMap(w, map);
}

void WritePageToken(JsonWriter& w, const std::optional<std::string>& token) {
  w.Key("next-page-token");
  if (token) {
    w.String(*token);
  } else {
    w.Null();
  }
}

Result<CommitTableRequest> ReadCommitTableRequest(element e, const std::string& path, bool require_identifier) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  CommitTableRequest r;
  if (auto ident = obj.Find("identifier")) {
    FLOE_ASSIGN_OR_RETURN(r.identifier, ReadIdentifier(*ident, obj.PathOf("identifier")));
  } else if (require_identifier) {
    return obj.Missing("identifier");
  }
  FLOE_ASSIGN_OR_RETURN(auto requirements, obj.Array("requirements"));
  for (size_t i = 0; i < requirements.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(auto req,
                          internal::ReadTableRequirement(requirements[i], Indexed(obj.PathOf("requirements"), i)));
    r.requirements.push_back(std::move(req));
  }
  FLOE_ASSIGN_OR_RETURN(auto updates, obj.Array("updates"));
  for (size_t i = 0; i < updates.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(auto update, internal::ReadTableUpdate(updates[i], Indexed(obj.PathOf("updates"), i)));
    r.updates.push_back(std::move(update));
  }
  return r;
}

void WriteCommitTableRequest(JsonWriter& w, const CommitTableRequest& r) {
  w.BeginObject();
  if (r.identifier) {
    w.Key("identifier");
    WriteIdentifier(w, *r.identifier);
  }
  w.Key("requirements");
  w.BeginArray();
  for (const auto& req : r.requirements) WriteTableRequirement(w, req);
  w.EndArray();
  w.Key("updates");
  w.BeginArray();
  for (const auto& u : r.updates) WriteTableUpdate(w, u);
  w.EndArray();
  w.EndObject();
}

}  // namespace

// --- config ----------------------------------------------------------------

Result<CatalogConfig> ParseCatalogConfig(std::string_view json) {
  return Parse<CatalogConfig>(json, "CatalogConfig", [](element root) -> Result<CatalogConfig> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    CatalogConfig c;
    if (!obj.Has("defaults")) return obj.Missing("defaults");
    if (!obj.Has("overrides")) return obj.Missing("overrides");
    FLOE_ASSIGN_OR_RETURN(c.defaults, obj.StringMap("defaults"));
    FLOE_ASSIGN_OR_RETURN(c.overrides, obj.StringMap("overrides"));
    FLOE_ASSIGN_OR_RETURN(c.endpoints, obj.StringList("endpoints", /*required=*/false));
    FLOE_ASSIGN_OR_RETURN(c.idempotency_key_lifetime, obj.OptionalString("idempotency-key-lifetime"));
    return c;
  });
}

std::string ToJson(const CatalogConfig& c) {
  JsonWriter w;
  w.BeginObject();
  WriteMap(w, "defaults", c.defaults);
  WriteMap(w, "overrides", c.overrides);
  if (!c.endpoints.empty()) WriteStrings(w, "endpoints", c.endpoints);
  if (c.idempotency_key_lifetime) w.Member("idempotency-key-lifetime", *c.idempotency_key_lifetime);
  w.EndObject();
  return w.Take();
}

// --- namespaces ------------------------------------------------------------

Result<NamespaceMessage> ParseNamespaceMessage(std::string_view json) {
  return Parse<NamespaceMessage>(json, "namespace message", [](element root) -> Result<NamespaceMessage> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    NamespaceMessage m;
    FLOE_ASSIGN_OR_RETURN(m.ns, ReadNamespaceMember(obj, "namespace"));
    if (m.ns.empty()) return Status::InvalidArgument("field 'namespace' is [], expected at least one level");
    FLOE_ASSIGN_OR_RETURN(m.properties, obj.StringMap("properties"));
    return m;
  });
}

std::string ToJson(const NamespaceMessage& m) {
  JsonWriter w;
  w.BeginObject();
  w.Key("namespace");
  WriteNamespace(w, m.ns);
  WriteMap(w, "properties", m.properties);
  w.EndObject();
  return w.Take();
}

Result<ListNamespacesResponse> ParseListNamespacesResponse(std::string_view json) {
  return Parse<ListNamespacesResponse>(
      json, "ListNamespacesResponse", [](element root) -> Result<ListNamespacesResponse> {
        FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
        ListNamespacesResponse r;
        FLOE_ASSIGN_OR_RETURN(auto items, obj.Array("namespaces", /*required=*/false));
        for (size_t i = 0; i < items.size(); ++i) {
          FLOE_ASSIGN_OR_RETURN(Namespace ns, ReadNamespace(items[i], Indexed("namespaces", i)));
          r.namespaces.push_back(std::move(ns));
        }
        FLOE_ASSIGN_OR_RETURN(r.next_page_token, ReadPageToken(obj));
        return r;
      });
}

std::string ToJson(const ListNamespacesResponse& r) {
  JsonWriter w;
  w.BeginObject();
  w.Key("namespaces");
  w.BeginArray();
  for (const auto& ns : r.namespaces) WriteNamespace(w, ns);
  w.EndArray();
  WritePageToken(w, r.next_page_token);
  w.EndObject();
  return w.Take();
}

Result<UpdateNamespacePropertiesRequest> ParseUpdateNamespacePropertiesRequest(std::string_view json) {
  return Parse<UpdateNamespacePropertiesRequest>(
      json, "UpdateNamespacePropertiesRequest", [](element root) -> Result<UpdateNamespacePropertiesRequest> {
        FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
        UpdateNamespacePropertiesRequest r;
        FLOE_ASSIGN_OR_RETURN(r.removals, obj.StringList("removals", /*required=*/false));
        FLOE_ASSIGN_OR_RETURN(r.updates, obj.StringMap("updates"));
        return r;
      });
}

std::string ToJson(const UpdateNamespacePropertiesRequest& r) {
  JsonWriter w;
  w.BeginObject();
  WriteStrings(w, "removals", r.removals);
  WriteMap(w, "updates", r.updates);
  w.EndObject();
  return w.Take();
}

Result<NamespacePropertiesUpdate> ParseUpdateNamespacePropertiesResponse(std::string_view json) {
  return Parse<NamespacePropertiesUpdate>(
      json, "UpdateNamespacePropertiesResponse", [](element root) -> Result<NamespacePropertiesUpdate> {
        FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
        NamespacePropertiesUpdate r;
        FLOE_ASSIGN_OR_RETURN(r.updated, obj.StringList("updated"));
        FLOE_ASSIGN_OR_RETURN(r.removed, obj.StringList("removed"));
        FLOE_ASSIGN_OR_RETURN(r.missing, obj.StringList("missing", /*required=*/false));
        return r;
      });
}

std::string ToJson(const NamespacePropertiesUpdate& r) {
  JsonWriter w;
  w.BeginObject();
  WriteStrings(w, "updated", r.updated);
  WriteStrings(w, "removed", r.removed);
  WriteStrings(w, "missing", r.missing);
  w.EndObject();
  return w.Take();
}

// --- tables ----------------------------------------------------------------

Result<ListTablesResponse> ParseListTablesResponse(std::string_view json) {
  return Parse<ListTablesResponse>(json, "ListTablesResponse", [](element root) -> Result<ListTablesResponse> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    ListTablesResponse r;
    FLOE_ASSIGN_OR_RETURN(auto items, obj.Array("identifiers", /*required=*/false));
    for (size_t i = 0; i < items.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(TableIdentifier ident, ReadIdentifier(items[i], Indexed("identifiers", i)));
      r.identifiers.push_back(std::move(ident));
    }
    FLOE_ASSIGN_OR_RETURN(r.next_page_token, ReadPageToken(obj));
    return r;
  });
}

std::string ToJson(const ListTablesResponse& r) {
  JsonWriter w;
  w.BeginObject();
  w.Key("identifiers");
  w.BeginArray();
  for (const auto& ident : r.identifiers) WriteIdentifier(w, ident);
  w.EndArray();
  WritePageToken(w, r.next_page_token);
  w.EndObject();
  return w.Take();
}

Result<CreateTableRequest> ParseCreateTableRequest(std::string_view json) {
  return Parse<CreateTableRequest>(json, "CreateTableRequest", [](element root) -> Result<CreateTableRequest> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    CreateTableRequest r;
    FLOE_ASSIGN_OR_RETURN(r.name, obj.String("name"));
    if (r.name.empty() || r.name.find('.') != std::string::npos) {
      FLOE_ASSIGN_OR_RETURN(element name, obj.Get("name"));
      return obj.Bad("name", name, "expected a non-empty table name without '.'");
    }
    FLOE_ASSIGN_OR_RETURN(element schema, obj.Get("schema"));
    FLOE_ASSIGN_OR_RETURN(r.table.schema, iceberg::internal::ReadSchema(schema, "schema"));
    if (auto spec = obj.Find("partition-spec")) {
      FLOE_ASSIGN_OR_RETURN(r.table.partition_spec, iceberg::internal::ReadPartitionSpec(
                                                         *spec, "partition-spec", /*require_field_ids=*/false,
                                                         /*require_spec_id=*/false));
    }
    if (auto order = obj.Find("write-order")) {
      FLOE_ASSIGN_OR_RETURN(r.table.sort_order, iceberg::internal::ReadSortOrder(*order, "write-order"));
    }
    FLOE_ASSIGN_OR_RETURN(r.table.location, obj.OptionalString("location"));
    FLOE_ASSIGN_OR_RETURN(r.table.properties, obj.StringMap("properties"));
    FLOE_ASSIGN_OR_RETURN(r.stage_create, OptionalBool(obj, "stage-create", false));
    return r;
  });
}

std::string ToJson(const CreateTableRequest& r) {
  JsonWriter w;
  w.BeginObject();
  w.Member("name", r.name);
  if (r.table.location) w.Member("location", *r.table.location);
  w.Key("schema");
  iceberg::WriteSchema(w, r.table.schema);
  w.Key("partition-spec");
  iceberg::WritePartitionSpec(w, r.table.partition_spec);
  w.Key("write-order");
  iceberg::WriteSortOrder(w, r.table.sort_order);
  w.Member("stage-create", r.stage_create);
  Properties props = r.table.properties;
  if (r.table.format_version != 2) props.emplace("format-version", std::to_string(r.table.format_version));
  WriteMap(w, "properties", props);
  w.EndObject();
  return w.Take();
}

Result<LoadTableResult> ParseLoadTableResult(std::string_view json) {
  return Parse<LoadTableResult>(json, "LoadTableResult", [](element root) -> Result<LoadTableResult> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    LoadTableResult r;
    FLOE_ASSIGN_OR_RETURN(r.metadata_location, obj.OptionalString("metadata-location"));
    FLOE_ASSIGN_OR_RETURN(r.metadata, ReadMetadataMember(obj));
    FLOE_ASSIGN_OR_RETURN(r.config, obj.StringMap("config"));
    return r;
  });
}

Result<std::string> ToJson(const LoadTableResult& r) {
  FLOE_ASSIGN_OR_RETURN(std::string metadata, iceberg::TableMetadataToJson(r.metadata));
  JsonWriter w;
  w.BeginObject();
  w.Key("metadata-location");
  if (r.metadata_location) {
    w.String(*r.metadata_location);
  } else {
    w.Null();
  }
  w.Key("metadata");
  w.RawValue(metadata);
  WriteMap(w, "config", r.config);
  w.EndObject();
  return w.Take();
}

Result<CommitTableRequest> ParseCommitTableRequest(std::string_view json) {
  return Parse<CommitTableRequest>(json, "CommitTableRequest", [](element root) {
    return ReadCommitTableRequest(root, "", /*require_identifier=*/false);
  });
}

std::string ToJson(const CommitTableRequest& r) {
  JsonWriter w;
  WriteCommitTableRequest(w, r);
  return w.Take();
}

Result<CommitTableResponse> ParseCommitTableResponse(std::string_view json) {
  return Parse<CommitTableResponse>(json, "CommitTableResponse", [](element root) -> Result<CommitTableResponse> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    CommitTableResponse r;
    FLOE_ASSIGN_OR_RETURN(r.metadata_location, obj.String("metadata-location"));
    FLOE_ASSIGN_OR_RETURN(r.metadata, ReadMetadataMember(obj));
    return r;
  });
}

Result<std::string> ToJson(const CommitTableResponse& r) {
  FLOE_ASSIGN_OR_RETURN(std::string metadata, iceberg::TableMetadataToJson(r.metadata));
  JsonWriter w;
  w.BeginObject();
  w.Member("metadata-location", r.metadata_location);
  w.Key("metadata");
  w.RawValue(metadata);
  w.EndObject();
  return w.Take();
}

Result<CommitTransactionRequest> ParseCommitTransactionRequest(std::string_view json) {
  return Parse<CommitTransactionRequest>(
      json, "CommitTransactionRequest", [](element root) -> Result<CommitTransactionRequest> {
        FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
        CommitTransactionRequest r;
        FLOE_ASSIGN_OR_RETURN(auto changes, obj.Array("table-changes"));
        for (size_t i = 0; i < changes.size(); ++i) {
          FLOE_ASSIGN_OR_RETURN(auto change, ReadCommitTableRequest(changes[i], Indexed("table-changes", i),
                                                                    /*require_identifier=*/true));
          r.table_changes.push_back(std::move(change));
        }
        return r;
      });
}

std::string ToJson(const CommitTransactionRequest& r) {
  JsonWriter w;
  w.BeginObject();
  w.Key("table-changes");
  w.BeginArray();
  for (const auto& change : r.table_changes) WriteCommitTableRequest(w, change);
  w.EndArray();
  w.EndObject();
  return w.Take();
}

Result<RenameTableRequest> ParseRenameTableRequest(std::string_view json) {
  return Parse<RenameTableRequest>(json, "RenameTableRequest", [](element root) -> Result<RenameTableRequest> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    RenameTableRequest r;
    FLOE_ASSIGN_OR_RETURN(element source, obj.Get("source"));
    FLOE_ASSIGN_OR_RETURN(r.source, ReadIdentifier(source, "source"));
    FLOE_ASSIGN_OR_RETURN(element destination, obj.Get("destination"));
    FLOE_ASSIGN_OR_RETURN(r.destination, ReadIdentifier(destination, "destination"));
    return r;
  });
}

std::string ToJson(const RenameTableRequest& r) {
  JsonWriter w;
  w.BeginObject();
  w.Key("source");
  WriteIdentifier(w, r.source);
  w.Key("destination");
  WriteIdentifier(w, r.destination);
  w.EndObject();
  return w.Take();
}

Result<RegisterTableRequest> ParseRegisterTableRequest(std::string_view json) {
  return Parse<RegisterTableRequest>(json, "RegisterTableRequest", [](element root) -> Result<RegisterTableRequest> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    RegisterTableRequest r;
    FLOE_ASSIGN_OR_RETURN(r.name, obj.String("name"));
    FLOE_ASSIGN_OR_RETURN(r.metadata_location, obj.String("metadata-location"));
    FLOE_ASSIGN_OR_RETURN(r.overwrite, OptionalBool(obj, "overwrite", false));
    return r;
  });
}

std::string ToJson(const RegisterTableRequest& r) {
  JsonWriter w;
  w.BeginObject();
  w.Member("name", r.name);
  w.Member("metadata-location", r.metadata_location);
  w.Member("overwrite", r.overwrite);
  w.EndObject();
  return w.Take();
}

Result<ReportMetricsRequest> ParseReportMetricsRequest(std::string_view json) {
  return Parse<ReportMetricsRequest>(json, "ReportMetricsRequest", [json](element root) -> Result<ReportMetricsRequest> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    ReportMetricsRequest r;
    FLOE_ASSIGN_OR_RETURN(r.report_type, obj.String("report-type"));
    if (r.report_type != "scan-report" && r.report_type != "commit-report") {
      FLOE_ASSIGN_OR_RETURN(element type, obj.Get("report-type"));
      return obj.Bad("report-type", type, "expected \"scan-report\" or \"commit-report\"");
    }
    FLOE_ASSIGN_OR_RETURN(r.table_name, obj.String("table-name"));
    FLOE_ASSIGN_OR_RETURN(r.snapshot_id, obj.SnapshotId("snapshot-id"));
    FLOE_ASSIGN_OR_RETURN(element metrics, obj.Get("metrics"));
    FLOE_RETURN_IF_ERROR(JsonObject(metrics, "metrics").status());
    r.json = std::string(json);
    return r;
  });
}

// --- OAuth -----------------------------------------------------------------

Result<OAuthTokenResponse> ParseOAuthTokenResponse(std::string_view json) {
  return Parse<OAuthTokenResponse>(json, "OAuthTokenResponse", [](element root) -> Result<OAuthTokenResponse> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    OAuthTokenResponse r;
    FLOE_ASSIGN_OR_RETURN(r.access_token, obj.String("access_token"));
    FLOE_ASSIGN_OR_RETURN(r.token_type, obj.String("token_type"));
    FLOE_ASSIGN_OR_RETURN(r.expires_in, obj.OptionalInt64("expires_in"));
    FLOE_ASSIGN_OR_RETURN(r.issued_token_type, obj.OptionalString("issued_token_type"));
    FLOE_ASSIGN_OR_RETURN(r.refresh_token, obj.OptionalString("refresh_token"));
    FLOE_ASSIGN_OR_RETURN(r.scope, obj.OptionalString("scope"));
    return r;
  });
}

std::string ToJson(const OAuthTokenResponse& r) {
  JsonWriter w;
  w.BeginObject();
  w.Member("access_token", r.access_token);
  w.Member("token_type", r.token_type);
  if (r.expires_in) w.Member("expires_in", *r.expires_in);
  if (r.issued_token_type) w.Member("issued_token_type", *r.issued_token_type);
  if (r.refresh_token) w.Member("refresh_token", *r.refresh_token);
  if (r.scope) w.Member("scope", *r.scope);
  w.EndObject();
  return w.Take();
}

Result<OAuthError> ParseOAuthError(std::string_view json) {
  return Parse<OAuthError>(json, "OAuthError", [](element root) -> Result<OAuthError> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    OAuthError r;
    FLOE_ASSIGN_OR_RETURN(r.error, obj.String("error"));
    FLOE_ASSIGN_OR_RETURN(r.error_description, obj.OptionalString("error_description"));
    return r;
  });
}

std::string ToJson(const OAuthError& r) {
  JsonWriter w;
  w.BeginObject();
  w.Member("error", r.error);
  if (r.error_description) w.Member("error_description", *r.error_description);
  w.EndObject();
  return w.Take();
}

// --- pieces ----------------------------------------------------------------

Result<TableIdentifier> ParseTableIdentifier(std::string_view json) {
  return Parse<TableIdentifier>(json, "TableIdentifier", [](element root) { return ReadIdentifier(root, ""); });
}

std::string ToJson(const TableIdentifier& ident) {
  JsonWriter w;
  WriteIdentifier(w, ident);
  return w.Take();
}

}  // namespace floe::catalog::rest
