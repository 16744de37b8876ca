// GET /v1/config.

#include "floe/base/strings.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/server/handlers.h"

namespace floe::server {

namespace {

// A location compared without its trailing '/', and a local path also in
// its file: URI forms ("file:/p", "file:///p"), which Spark and PyIceberg
// users write for the same folder.
std::string ComparableLocation(std::string_view location) {
  while (location.size() > 1 && location.back() == '/') location.remove_suffix(1);
  if (StartsWith(location, "file:///")) {
    location.remove_prefix(7);
  } else if (StartsWith(location, "file:/") && !StartsWith(location, "file://")) {
    location.remove_prefix(5);
  }
  return std::string(location);
}

// spec: "warehouse: Warehouse location or identifier to request from the
// service". One server serves one warehouse, known by its location, by the
// catalog's name or by the server's prefix (docs/decisions/0039).
bool ServesWarehouse(const ServerState& state, const std::string& warehouse) {
  if (ComparableLocation(warehouse) == ComparableLocation(state.options.warehouse)) return true;
  if (warehouse == state.catalog->name()) return true;
  return !state.options.prefix.empty() && warehouse == state.options.prefix;
}

}  // namespace

RestResponse GetConfig(ServerState& state, const RestRequest& request) {
  if (auto it = request.query.find("warehouse"); it != request.query.end() && !it->second.empty()) {
    if (!ServesWarehouse(state, it->second)) {
      // The spec's error model for getConfig has no 404: an unknown
      // warehouse is a bad request.
      return ErrorResponse(Status::InvalidArgument(
          StrCat("warehouse ", Quote(it->second), " is not served here: this server serves warehouse ",
                 Quote(state.options.warehouse), " (name ", Quote(state.catalog->name()),
                 state.options.prefix.empty() ? std::string() : StrCat(", prefix ", Quote(state.options.prefix)),
                 ")")));
    }
  }
  catalog::rest::CatalogConfig config;
  if (!state.options.prefix.empty()) config.overrides["prefix"] = state.options.prefix;
  config.defaults["warehouse"] = state.options.warehouse;
  config.endpoints = {
      "GET /v1/{prefix}/namespaces",
      "POST /v1/{prefix}/namespaces",
      "GET /v1/{prefix}/namespaces/{namespace}",
      "HEAD /v1/{prefix}/namespaces/{namespace}",
      "DELETE /v1/{prefix}/namespaces/{namespace}",
      "POST /v1/{prefix}/namespaces/{namespace}/properties",
      "GET /v1/{prefix}/namespaces/{namespace}/tables",
      "POST /v1/{prefix}/namespaces/{namespace}/tables",
      "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
      "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}",
      "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
      "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}",
      "POST /v1/{prefix}/namespaces/{namespace}/register",
      "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
      "POST /v1/{prefix}/tables/rename",
      "POST /v1/{prefix}/transactions/commit",
  };
  config.endpoints.insert(config.endpoints.end(), catalog::rest::kViewEndpoints.begin(),
                          catalog::rest::kViewEndpoints.end());
  const int64_t minutes = state.options.idempotency_lifetime_s / 60;
  config.idempotency_key_lifetime = minutes > 0 ? "PT" + std::to_string(minutes) + "M"
                                                : "PT" + std::to_string(state.options.idempotency_lifetime_s) + "S";
  return JsonResponse(200, catalog::rest::ToJson(config));
}

}  // namespace floe::server
