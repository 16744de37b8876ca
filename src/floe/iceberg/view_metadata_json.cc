#include "floe/iceberg/view_metadata_json.h"

#include "floe/base/json_parse.h"
#include "floe/base/strings.h"
#include "floe/iceberg/json_reader.h"
#include "floe/iceberg/schema_json.h"

namespace floe::iceberg {
namespace {

using internal::JsonObject;
using internal::JsonObjectReader;
using simdjson::dom::element;

std::string At(const JsonObjectReader& r, std::string_view key, size_t i) { return StrCat(r.PathOf(key), "[", i, "]"); }

Result<ViewRepresentation> ReadRepresentation(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader r, JsonObject(e, path));
  ViewRepresentation out;
  FLOE_ASSIGN_OR_RETURN(out.type, r.String("type"));
  if (out.type != "sql") {
    out.unknown_json = internal::MinifiedJson(e);
    return out;
  }
  FLOE_ASSIGN_OR_RETURN(out.sql, r.String("sql"));
  FLOE_ASSIGN_OR_RETURN(out.dialect, r.String("dialect"));
  return out;
}

Result<ViewHistoryEntry> ReadHistoryEntry(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader r, JsonObject(e, path));
  ViewHistoryEntry out;
  FLOE_ASSIGN_OR_RETURN(out.timestamp_ms, r.Int64("timestamp-ms"));
  FLOE_ASSIGN_OR_RETURN(out.version_id, r.Int32("version-id"));
  return out;
}

}  // namespace

Result<ViewMetadata> internal::ReadViewMetadata(element root) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader r, JsonObject(root, ""));
  ViewMetadata m;
  FLOE_ASSIGN_OR_RETURN(m.format_version, r.Int32("format-version"));
  if (m.format_version > ViewMetadata::kSupportedFormatVersion) {
    return Status::Unsupported(StrCat("view format version ", m.format_version, " is not supported (floe reads 1)"));
  }
  FLOE_ASSIGN_OR_RETURN(m.view_uuid, r.String("view-uuid"));
  FLOE_ASSIGN_OR_RETURN(m.location, r.String("location"));
  FLOE_ASSIGN_OR_RETURN(auto schemas, r.Array("schemas"));
  for (size_t i = 0; i < schemas.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(Schema s, internal::ReadSchema(schemas[i], At(r, "schemas", i)));
    m.schemas.push_back(std::move(s));
  }
  FLOE_ASSIGN_OR_RETURN(m.current_version_id, r.Int32("current-version-id"));
  FLOE_ASSIGN_OR_RETURN(auto versions, r.Array("versions"));
  for (size_t i = 0; i < versions.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(ViewVersion v, internal::ReadViewVersion(versions[i], At(r, "versions", i)));
    m.versions.push_back(std::move(v));
  }
  FLOE_ASSIGN_OR_RETURN(auto log, r.Array("version-log"));
  for (size_t i = 0; i < log.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(ViewHistoryEntry entry, ReadHistoryEntry(log[i], At(r, "version-log", i)));
    m.version_log.push_back(entry);
  }
  FLOE_ASSIGN_OR_RETURN(m.properties, r.StringMap("properties"));
  FLOE_RETURN_IF_ERROR(m.Validate());
  return m;
}

namespace {

Result<element> Parse(simdjson::dom::parser& parser, std::string_view json, const std::string& what) {
  if (json.empty()) return Status::Corrupt(StrCat(what, ": empty, expected a JSON object"));
  element root;
  if (auto error = ParseJson(parser, json).get(root); error != simdjson::SUCCESS) {
    return Status::Corrupt(StrCat(what, ": not valid JSON (", simdjson::error_message(error), ")"));
  }
  return root;
}

void WriteStrings(JsonWriter& w, const std::vector<std::string>& values) {
  w.BeginArray();
  for (const std::string& v : values) w.String(v);
  w.EndArray();
}

void WriteStringMap(JsonWriter& w, const std::map<std::string, std::string>& map) {
  w.BeginObject();
  for (const auto& [k, v] : map) w.Member(k, v);
  w.EndObject();
}

}  // namespace

namespace internal {

Result<ViewVersion> ReadViewVersion(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader r, JsonObject(e, path));
  ViewVersion v;
  FLOE_ASSIGN_OR_RETURN(v.version_id, r.Int32("version-id"));
  FLOE_ASSIGN_OR_RETURN(v.schema_id, r.Int32("schema-id"));
  FLOE_ASSIGN_OR_RETURN(v.timestamp_ms, r.Int64("timestamp-ms"));
  if (!r.Has("summary")) return r.Missing("summary");
  FLOE_ASSIGN_OR_RETURN(v.summary, r.StringMap("summary"));
  FLOE_ASSIGN_OR_RETURN(auto representations, r.Array("representations"));
  for (size_t i = 0; i < representations.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(ViewRepresentation rep,
                          ReadRepresentation(representations[i], At(r, "representations", i)));
    v.representations.push_back(std::move(rep));
  }
  FLOE_ASSIGN_OR_RETURN(v.default_catalog, r.OptionalString("default-catalog"));
  FLOE_ASSIGN_OR_RETURN(v.default_namespace, r.StringList("default-namespace"));
  if (auto storage = r.Find("storage-table")) {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader s, JsonObject(*storage, r.PathOf("storage-table")));
    ViewStorageTable table;
    FLOE_ASSIGN_OR_RETURN(table.ns, s.StringList("namespace"));
    FLOE_ASSIGN_OR_RETURN(table.name, s.String("name"));
    v.storage_table = std::move(table);
  }
  return v;
}

}  // namespace internal

Result<ViewMetadata> ViewMetadataFromJson(std::string_view json, std::string_view name) {
  const std::string what = StrCat("view metadata", name.empty() ? "" : " ", name.empty() ? "" : Quote(name));
  simdjson::dom::parser parser;
  FLOE_ASSIGN_OR_RETURN(element root, Parse(parser, json, what));
  auto result = internal::ReadViewMetadata(root);
  if (!result.ok()) return result.status().WithContext(what);
  return result;
}

Result<ViewVersion> ViewVersionFromJson(std::string_view json) {
  simdjson::dom::parser parser;
  FLOE_ASSIGN_OR_RETURN(element root, Parse(parser, json, "view version"));
  auto result = internal::ReadViewVersion(root, "");
  if (!result.ok()) return result.status().WithContext("view version");
  return result;
}

void WriteViewVersion(JsonWriter& w, const ViewVersion& v) {
  w.BeginObject();
  w.Member("version-id", v.version_id);
  w.Member("timestamp-ms", v.timestamp_ms);
  w.Member("schema-id", v.schema_id);
  w.Key("summary");
  WriteStringMap(w, v.summary);
  w.Key("representations");
  w.BeginArray();
  for (const ViewRepresentation& r : v.representations) {
    if (r.type != "sql") {
      w.RawValue(r.unknown_json);
      continue;
    }
    w.BeginObject();
    w.Member("type", r.type);
    w.Member("sql", r.sql);
    w.Member("dialect", r.dialect);
    w.EndObject();
  }
  w.EndArray();
  if (v.default_catalog) w.Member("default-catalog", *v.default_catalog);
  w.Key("default-namespace");
  WriteStrings(w, v.default_namespace);
  if (v.storage_table) {
    w.Key("storage-table");
    w.BeginObject();
    w.Key("namespace");
    WriteStrings(w, v.storage_table->ns);
    w.Member("name", v.storage_table->name);
    w.EndObject();
  }
  w.EndObject();
}

Result<std::string> ViewMetadataToJson(const ViewMetadata& m, bool pretty) {
  Status valid = m.Validate();
  if (!valid.ok()) return valid;
  JsonWriter w(pretty);
  w.BeginObject();
  w.Member("view-uuid", m.view_uuid);
  w.Member("format-version", int64_t{m.format_version});
  w.Member("location", m.location);
  w.Key("schemas");
  w.BeginArray();
  for (const Schema& s : m.schemas) WriteSchema(w, s);
  w.EndArray();
  w.Member("current-version-id", m.current_version_id);
  w.Key("versions");
  w.BeginArray();
  for (const ViewVersion& v : m.versions) WriteViewVersion(w, v);
  w.EndArray();
  w.Key("version-log");
  w.BeginArray();
  for (const ViewHistoryEntry& e : m.version_log) {
    w.BeginObject();
    w.Member("timestamp-ms", e.timestamp_ms);
    w.Member("version-id", e.version_id);
    w.EndObject();
  }
  w.EndArray();
  if (!m.properties.empty()) {
    w.Key("properties");
    WriteStringMap(w, m.properties);
  }
  w.EndObject();
  return w.Take();
}

}  // namespace floe::iceberg
