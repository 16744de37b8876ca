// GET /v1/config.

#include "floe/catalog/rest/rest_messages.h"
#include "floe/server/handlers.h"

namespace floe::server {

RestResponse GetConfig(ServerState& state, const RestRequest&) {
  // The spec's `warehouse` query parameter is accepted and ignored: one
  // server serves one warehouse.
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
