#include "floe/catalog/rest/message_json.h"

#include "floe/iceberg/json_reader.h"

namespace floe::catalog::rest::internal {

using iceberg::internal::JsonObject;
using iceberg::internal::JsonObjectReader;
using simdjson::dom::element;

Result<Namespace> ReadNamespace(element e, const std::string& path) {
  if (!e.is_array()) {
    return Status::InvalidArgument(
        StrCat("field ", Quote(path), " is ", iceberg::internal::JsonSnippet(e), ", expected an array of strings"));
  }
  Namespace ns;
  size_t i = 0;
  // A named array: value_unsafe() returns into the result it is called on.
  const simdjson::dom::array levels = e.get_array().value_unsafe();
  for (element level : levels) {
    FLOE_ASSIGN_OR_RETURN(std::string s, iceberg::internal::JsonString(level, StrCat(path, "[", i, "]")));
    ns.levels.push_back(std::move(s));
    ++i;
  }
  Status valid = ns.Validate();
  if (!valid.ok()) return Status::InvalidArgument(StrCat("field ", Quote(path), ": ", valid.message()));
  return ns;
}

Result<TableIdentifier> ReadIdentifier(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  TableIdentifier ident;
  FLOE_ASSIGN_OR_RETURN(element ns, obj.Get("namespace"));
  FLOE_ASSIGN_OR_RETURN(ident.ns, ReadNamespace(ns, obj.PathOf("namespace")));
  FLOE_ASSIGN_OR_RETURN(ident.name, obj.String("name"));
  Status valid = ident.Validate();
  if (!valid.ok())
    return Status::InvalidArgument(StrCat("field ", Quote(path.empty() ? "name" : path), ": ", valid.message()));
  return ident;
}

void WriteNamespace(JsonWriter& w, const Namespace& ns) {
  w.BeginArray();
  for (const auto& level : ns.levels) w.String(level);
  w.EndArray();
}

void WriteIdentifier(JsonWriter& w, const TableIdentifier& ident) {
  w.BeginObject();
  w.Key("namespace");
  WriteNamespace(w, ident.ns);
  w.Member("name", ident.name);
  w.EndObject();
}

}  // namespace floe::catalog::rest::internal
