// The `floe serve --config FILE` document: a JSON object whose members set
// RestServerOptions (flags given on the command line win over it):
//
//   {"host": "0.0.0.0", "port": 8181, "prefix": "floe",
//    "catalog": "sqlite:/data/catalog.db", "warehouse": "s3://bucket/wh",
//    "signing-key": "<secret, at least 32 characters>",
//    "token-lifetime-seconds": 3600, "max-body-bytes": 16777216,
//    "request-timeout-seconds": 30, "worker-threads": 8,
//    "idempotency-key-lifetime-seconds": 1800, "max-page-size": 1000,
//    "allowed-locations": ["s3://other-bucket/tables"],
//    "table-config": {"s3.endpoint": "https://s3.example.com",
//                     "s3.path-style-access": "true"},
//    "clients": [{"client-id": "spark", "client-secret": "...",
//                 "scopes": ["rw:shop", "ro:*"]}]}
//
// Unknown members are refused (a typo must not silently weaken security).
// Errors: InvalidArgument naming the member ("server config: field
// 'clients[0].scopes[1]' ...").
//
// Thread safety: a free function.

#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/server/rest_server.h"

namespace floe::server {

// The members that belong to the command rather than to the server.
struct ServeSettings {
  std::optional<std::string> catalog;
  std::optional<std::string> warehouse;
};

// Applies `json` to `options`; returns the catalog and warehouse it names.
Result<ServeSettings> ApplyServerConfig(std::string_view json, RestServerOptions* options);

}  // namespace floe::server
