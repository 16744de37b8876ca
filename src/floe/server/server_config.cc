#include "floe/server/server_config.h"

#include <simdjson.h>

#include <set>
#include <type_traits>

#include "floe/base/json_parse.h"
#include "floe/base/strings.h"
#include "floe/iceberg/json_reader.h"

namespace floe::server {

using iceberg::internal::JsonObject;
using iceberg::internal::JsonObjectReader;

namespace {

Result<ServeSettings> Read(simdjson::dom::element root, RestServerOptions* o) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(root, ""));
  static const std::set<std::string_view> kKnown = {
      "host",           "port",          "prefix",         "catalog",
      "warehouse",      "signing-key",   "token-lifetime-seconds", "max-body-bytes",
      "request-timeout-seconds", "worker-threads", "idempotency-key-lifetime-seconds",
      "max-page-size",  "clients",       "allowed-locations", "table-config"};
  for (auto [key, value] : obj.object()) {
    if (!kKnown.count(key)) return obj.Bad(key, value, "not a known server setting");
  }
  ServeSettings settings;
  FLOE_ASSIGN_OR_RETURN(settings.catalog, obj.OptionalString("catalog"));
  FLOE_ASSIGN_OR_RETURN(settings.warehouse, obj.OptionalString("warehouse"));
  auto text = [&](std::string_view key, std::string* out) -> Status {
    FLOE_ASSIGN_OR_RETURN(auto v, obj.OptionalString(key));
    if (v) *out = std::move(*v);
    return Status::OK();
  };
  FLOE_RETURN_IF_ERROR(text("host", &o->host));
  FLOE_RETURN_IF_ERROR(text("prefix", &o->prefix));
  FLOE_RETURN_IF_ERROR(text("signing-key", &o->signing_key));
  if (obj.Has("signing-key") && o->signing_key.size() < 32) {
    return Status::InvalidArgument("field 'signing-key' is shorter than 32 characters");
  }
  auto positive = [&](std::string_view key, auto* out) -> Status {
    FLOE_ASSIGN_OR_RETURN(auto v, obj.OptionalInt64(key));
    if (!v) return Status::OK();
    if (*v <= 0) {
      FLOE_ASSIGN_OR_RETURN(auto e, obj.Get(key));
      return obj.Bad(key, e, "expected a positive integer");
    }
    *out = static_cast<std::remove_pointer_t<decltype(out)>>(*v);
    return Status::OK();
  };
  FLOE_ASSIGN_OR_RETURN(auto port, obj.OptionalInt64("port"));
  if (port) {
    if (*port < 0 || *port > 65535) {
      FLOE_ASSIGN_OR_RETURN(auto e, obj.Get("port"));
      return obj.Bad("port", e, "expected a port from 0 to 65535");
    }
    o->port = static_cast<int>(*port);
  }
  FLOE_RETURN_IF_ERROR(positive("token-lifetime-seconds", &o->token_lifetime_s));
  FLOE_RETURN_IF_ERROR(positive("max-body-bytes", &o->max_body_bytes));
  FLOE_RETURN_IF_ERROR(positive("request-timeout-seconds", &o->request_timeout_s));
  FLOE_RETURN_IF_ERROR(positive("worker-threads", &o->worker_threads));
  FLOE_RETURN_IF_ERROR(positive("idempotency-key-lifetime-seconds", &o->idempotency_lifetime_s));
  FLOE_RETURN_IF_ERROR(positive("max-page-size", &o->max_page_size));
  FLOE_ASSIGN_OR_RETURN(auto allowed, obj.StringList("allowed-locations", /*required=*/false));
  for (size_t i = 0; i < allowed.size(); ++i) {
    if (allowed[i].empty()) return Status::InvalidArgument(StrCat("field 'allowed-locations[", i, "]' is empty"));
  }
  o->allowed_locations.insert(o->allowed_locations.end(), allowed.begin(), allowed.end());
  if (obj.Has("table-config")) {
    FLOE_ASSIGN_OR_RETURN(auto table_config, obj.StringMap("table-config"));
    for (auto& [key, value] : table_config) o->table_config[key] = std::move(value);
  }
  FLOE_ASSIGN_OR_RETURN(auto clients, obj.Array("clients", /*required=*/false));
  for (size_t i = 0; i < clients.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader c, JsonObject(clients[i], StrCat("clients[", i, "]")));
    ClientCredentials creds;
    FLOE_ASSIGN_OR_RETURN(creds.client_id, c.String("client-id"));
    FLOE_ASSIGN_OR_RETURN(creds.client_secret, c.String("client-secret"));
    FLOE_ASSIGN_OR_RETURN(creds.scopes, c.StringList("scopes"));
    for (const auto& scope : creds.scopes) {
      FLOE_RETURN_IF_ERROR(ValidateScope(scope).WithContext(StrCat("field 'clients[", i, "].scopes'")));
    }
    o->clients.push_back(std::move(creds));
  }
  return settings;
}

}  // namespace

Result<ServeSettings> ApplyServerConfig(std::string_view json, RestServerOptions* options) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto error = ParseJson(parser, json).get(root); error != simdjson::SUCCESS) {
    return Status::InvalidArgument(StrCat("server config: not valid JSON (", simdjson::error_message(error), ")"));
  }
  RestServerOptions copy = *options;
  auto r = Read(root, &copy);
  if (!r.ok()) return Status::InvalidArgument(StrCat("server config: ", r.status().message()));
  *options = std::move(copy);
  return r;
}

}  // namespace floe::server
