#include "floe/catalog/rest/view_messages.h"

#include "floe/base/json_writer.h"
#include "floe/base/strings.h"
#include "floe/catalog/rest/message_json.h"
#include "floe/catalog/rest/view_changes_json.h"
#include "floe/iceberg/json_reader.h"
#include "floe/iceberg/schema_json.h"
#include "floe/iceberg/table_metadata_json.h"
#include "floe/iceberg/view_metadata_json.h"

namespace floe::catalog::rest {

using iceberg::internal::JsonObject;
using iceberg::internal::JsonObjectReader;
using simdjson::dom::element;

namespace {

std::string Indexed(const std::string& path, size_t i) { return StrCat(path, "[", i, "]"); }

}  // namespace

Result<CreateViewRequest> ParseCreateViewRequest(std::string_view json) {
  return internal::ParseMessage<CreateViewRequest>(
      json, "CreateViewRequest", [](element root) -> Result<CreateViewRequest> {
        FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
        CreateViewRequest r;
        FLOE_ASSIGN_OR_RETURN(r.name, obj.String("name"));
        if (r.name.empty() || r.name.find('.') != std::string::npos) {
          FLOE_ASSIGN_OR_RETURN(element name, obj.Get("name"));
          return obj.Bad("name", name, "expected a non-empty view name without '.'");
        }
        FLOE_ASSIGN_OR_RETURN(element schema, obj.Get("schema"));
        FLOE_ASSIGN_OR_RETURN(r.view.schema, iceberg::internal::ReadSchema(schema, "schema"));
        FLOE_ASSIGN_OR_RETURN(element version, obj.Get("view-version"));
        FLOE_ASSIGN_OR_RETURN(r.view.view_version, iceberg::internal::ReadViewVersion(version, "view-version"));
        FLOE_ASSIGN_OR_RETURN(r.view.location, obj.OptionalString("location"));
        if (!obj.Has("properties")) return obj.Missing("properties");
        FLOE_ASSIGN_OR_RETURN(r.view.properties, obj.StringMap("properties"));
        return r;
      });
}

std::string ToJson(const CreateViewRequest& r) {
  JsonWriter w;
  w.BeginObject();
  w.Member("name", r.name);
  if (r.view.location) w.Member("location", *r.view.location);
  w.Key("schema");
  iceberg::WriteSchema(w, r.view.schema);
  w.Key("view-version");
  iceberg::WriteViewVersion(w, r.view.view_version);
  w.Key("properties");
  iceberg::internal::WriteStringMap(w, r.view.properties);
  w.EndObject();
  return w.Take();
}

Result<LoadViewResult> ParseLoadViewResult(std::string_view json) {
  return internal::ParseMessage<LoadViewResult>(json, "LoadViewResult", [](element root) -> Result<LoadViewResult> {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
    LoadViewResult r;
    FLOE_ASSIGN_OR_RETURN(r.metadata_location, obj.String("metadata-location"));
    FLOE_ASSIGN_OR_RETURN(element metadata, obj.Get("metadata"));
    auto m = iceberg::internal::ReadViewMetadata(metadata);
    if (!m.ok()) return Status::InvalidArgument(StrCat("field 'metadata': ", m.status().message()));
    r.metadata = std::move(*m);
    FLOE_ASSIGN_OR_RETURN(r.config, obj.StringMap("config"));
    return r;
  });
}

Result<std::string> ToJson(const LoadViewResult& r) {
  auto metadata = iceberg::ViewMetadataToJson(r.metadata);
  if (!metadata.ok()) return Status::InvalidArgument(StrCat("LoadViewResult: ", metadata.status().message()));
  JsonWriter w;
  w.BeginObject();
  w.Member("metadata-location", r.metadata_location);
  w.Key("metadata");
  w.RawValue(*metadata);
  w.Key("config");
  iceberg::internal::WriteStringMap(w, r.config);
  w.EndObject();
  return w.Take();
}

Result<CommitViewRequest> ParseCommitViewRequest(std::string_view json) {
  return internal::ParseMessage<CommitViewRequest>(
      json, "CommitViewRequest", [](element root) -> Result<CommitViewRequest> {
        FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
        CommitViewRequest r;
        if (auto ident = obj.Find("identifier")) {
          FLOE_ASSIGN_OR_RETURN(r.identifier, internal::ReadIdentifier(*ident, obj.PathOf("identifier")));
        }
        FLOE_ASSIGN_OR_RETURN(auto requirements, obj.Array("requirements", /*required=*/false));
        for (size_t i = 0; i < requirements.size(); ++i) {
          FLOE_ASSIGN_OR_RETURN(auto req,
                                internal::ReadViewRequirement(requirements[i], Indexed(obj.PathOf("requirements"), i)));
          r.requirements.push_back(std::move(req));
        }
        FLOE_ASSIGN_OR_RETURN(auto updates, obj.Array("updates"));
        for (size_t i = 0; i < updates.size(); ++i) {
          FLOE_ASSIGN_OR_RETURN(auto update, internal::ReadViewUpdate(updates[i], Indexed(obj.PathOf("updates"), i)));
          r.updates.push_back(std::move(update));
        }
        return r;
      });
}

std::string ToJson(const CommitViewRequest& r) {
  JsonWriter w;
  w.BeginObject();
  if (r.identifier) {
    w.Key("identifier");
    internal::WriteIdentifier(w, *r.identifier);
  }
  w.Key("requirements");
  w.BeginArray();
  for (const auto& req : r.requirements) WriteViewRequirement(w, req);
  w.EndArray();
  w.Key("updates");
  w.BeginArray();
  for (const auto& u : r.updates) WriteViewUpdate(w, u);
  w.EndArray();
  w.EndObject();
  return w.Take();
}

}  // namespace floe::catalog::rest
