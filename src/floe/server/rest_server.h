// RestServer: floe's Iceberg REST catalog server (spec:
// rest-catalog-open-api.yaml), serving a Catalog over HTTP/1.1 with
// cpp-httplib (docs/decisions/0030-rest-server.md).
//
// Every route of the spec's config, OAuth, namespace, table, metrics and
// transaction APIs; verbatim paths (/v1/config, /v1/oauth/tokens,
// /v1/[{prefix}/]namespaces/...), bodies (catalog/rest/rest_messages.h) and
// error model (catalog/rest/error_model.h). Views are not served yet (404).
//
// Security: unless `insecure_dev`, every route but /v1/oauth/tokens needs
// "Authorization: Bearer <token>" from the token endpoint (auth.h): 401
// NotAuthorizedException without or with a bad token, 419 for an expired
// one, 403 ForbiddenException when its scopes do not cover the namespace.
// Locations stay inside the warehouse (location_policy.h). Bodies above
// `max_body_bytes` get 413; reads and writes of one request time out after
// `request_timeout_s`. Secrets and tokens are never logged.
//
// Operations: requests run on a pool of `worker_threads`; each gets one
// access-log line on stderr ("rest: GET /v1/namespaces 200 3ms 120B");
// Idempotency-Key is honoured for mutations (idempotency_cache.h); Stop()
// finishes the requests in flight (commits complete) before returning.
//
// Thread safety: Start, Stop and port may be called from any thread.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"
#include "floe/server/auth.h"

namespace floe::server {

struct RestServerOptions {
  std::string host = "127.0.0.1";
  int port = 8181;  // 0: a free port, see RestServer::port()
  // Absolute warehouse location (the catalog's): default table locations
  // are below it and client-named locations must be.
  std::string warehouse;
  // More roots client-named locations may be below (location_policy.h).
  std::vector<std::string> allowed_locations;
  // Sent to clients as every LoadTableResult's "config" (create, load,
  // register): the storage settings they need to reach the tables' files,
  // under the names PyIceberg and Java read (s3.endpoint,
  // s3.path-style-access, client.region, or credentials a deployment
  // chooses to hand out). Never logged.
  catalog::Properties table_config;
  // The {prefix} path segment, announced in /v1/config's overrides; empty:
  // none (/v1/namespaces...).
  std::string prefix;
  // No authentication: every request acts with catalog:admin. For local
  // development only.
  bool insecure_dev = false;
  std::vector<ClientCredentials> clients;
  std::string signing_key;  // empty: random per process
  int64_t token_lifetime_s = 3600;
  size_t max_body_bytes = 16u << 20;
  int request_timeout_s = 30;
  size_t worker_threads = 8;
  int64_t idempotency_lifetime_s = 1800;  // announced as PT30M
  size_t idempotency_max_entries = 10000;
  size_t max_page_size = 1000;  // pageSize above this is capped
  bool access_log = true;
};

class RestServer {
 public:
  // InvalidArgument for options that cannot work: an empty warehouse, no
  // clients while authentication is on, a bad client scope, a prefix with
  // '/'.
  static Result<std::unique_ptr<RestServer>> Make(std::shared_ptr<catalog::Catalog> catalog,
                                                  RestServerOptions options);
  ~RestServer();  // Stop()

  // Binds host:port and starts serving on a background thread. IOError when
  // the address cannot be bound. Once.
  Status Start();
  // The bound port (after Start).
  int port() const { return port_; }
  // Stops accepting connections, lets the requests in flight finish, and
  // returns when the server thread is done. Idempotent.
  void Stop();
  // Blocks until the server thread ends (after Stop from another thread).
  void Wait();

  // A token for `scopes` signed with this server's key (tests, tools).
  std::string SignToken(const std::string& subject, const std::vector<std::string>& scopes, int64_t ttl_s) const;

  RestServer(const RestServer&) = delete;
  RestServer& operator=(const RestServer&) = delete;

  struct Impl;

 private:
  explicit RestServer(std::unique_ptr<Impl> impl);

  std::unique_ptr<Impl> impl_;
  std::thread thread_;
  int port_ = 0;
  bool started_ = false;
};

}  // namespace floe::server
