// What the REST server's route handlers share (internal to server/): the
// request as the router decoded it, the response they build, the server's
// state, and one function per route, grouped in files by resource:
// config_handlers.cc, oauth_handlers.cc, namespace_handlers.cc,
// table_handlers.cc, view_handlers.cc, transaction_handlers.cc,
// metrics_handlers.cc.
//
// Handlers are plain functions of (state, request) → response, independent
// of the HTTP library, so the router can cache their answers for
// Idempotency-Key. They never throw and never log secrets.
//
// Thread safety: handlers run concurrently on the worker pool; ServerState
// is shared and thread-safe (the catalog is; the rest is immutable).

#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"
#include "floe/catalog/rest/error_model.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/server/auth.h"
#include "floe/server/location_policy.h"
#include "floe/server/rest_server.h"

namespace floe::server {

struct RestRequest {
  std::string method;  // GET, HEAD, POST, DELETE
  std::string path;    // decoded path, for messages
  std::map<std::string, std::string> query;  // decoded; the first value of each name
  std::map<std::string, std::string> headers_of_interest;  // if-none-match, authorization (oauth only)
  std::string body;
  Principal principal;  // who asks (catalog:admin with --insecure-dev)
  // Path parameters, decoded and validated by the router.
  catalog::Namespace ns;
  std::string table;  // the {table} or {view} segment
  std::string Header(const std::string& lower_name) const {
    auto it = headers_of_interest.find(lower_name);
    return it == headers_of_interest.end() ? std::string() : it->second;
  }
};

struct RestResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::string etag;  // sent as ETag when set
};

struct ServerState {
  std::shared_ptr<catalog::Catalog> catalog;
  RestServerOptions options;
  LocationPolicy locations;
  std::unique_ptr<TokenAuthority> auth;  // null with insecure_dev
};

// --- responses ---------------------------------------------------------------

RestResponse JsonResponse(int status, std::string body);
RestResponse NoContent();
// The error model for `status` (ErrorForStatus).
RestResponse ErrorResponse(const Status& status);
RestResponse ErrorResponse(int code, std::string type, std::string message);
// A failed commit: CommitStateUnknown stays 500 CommitStateUnknownException;
// other failures known to have changed nothing that the catalog reports as
// IOError / Internal / Corrupt become 503 ServiceUnavailableException, since
// clients read any 500 from a commit as "state unknown".
RestResponse CommitErrorResponse(const Status& status);

// Runs `commit` (a callable returning Result<T>) again while it fails with a
// lost pointer swap (Status::IsSwapLost — another commit landed between its
// read and its swap), at most kCommitAttempts times in all, pausing a little
// longer each time. The catalog re-checks the requirements on the new
// metadata, so a client sees 409 only when its assumptions no longer hold,
// as the spec's requirements mean; a failed requirement is never re-run.
inline constexpr int kCommitAttempts = 8;
void PauseBeforeRerun(int attempt);
template <typename Commit>
auto RerunLostSwaps(Commit&& commit) -> decltype(commit()) {
  for (int attempt = 1;; ++attempt) {
    auto result = commit();
    if (result.ok() || !result.status().IsSwapLost() || attempt == kCommitAttempts) return result;
    PauseBeforeRerun(attempt);
  }
}

// 403 unless the principal may `access` `ns`.
Status Authorize(const RestRequest& request, Principal::Access access, const catalog::Namespace& ns);

// pageToken / pageSize: with no pageToken parameter, everything in one
// page; otherwise the names after the token (the last name of the previous
// page, hex-encoded), at most pageSize (default and cap max_page_size).
struct Page {
  bool paginated = false;
  std::string after;  // names > after
  size_t size = 0;
};
Result<Page> PageOf(const ServerState& state, const RestRequest& request);
std::string PageTokenFor(const std::string& last_key);
// The ListTablesResponse (tables and views) `page` asks for out of
// `sorted` (by name).
catalog::rest::ListTablesResponse IdentifierPage(const Page& page, std::vector<catalog::TableIdentifier> sorted);

int64_t NowSeconds();

// --- routes ------------------------------------------------------------------

RestResponse GetConfig(ServerState& state, const RestRequest& request);
RestResponse IssueToken(ServerState& state, const RestRequest& request);

RestResponse ListNamespaces(ServerState& state, const RestRequest& request);
RestResponse CreateNamespace(ServerState& state, const RestRequest& request);
RestResponse LoadNamespace(ServerState& state, const RestRequest& request);  // GET and HEAD
RestResponse DropNamespace(ServerState& state, const RestRequest& request);
RestResponse UpdateNamespaceProperties(ServerState& state, const RestRequest& request);

RestResponse ListTables(ServerState& state, const RestRequest& request);
RestResponse CreateTable(ServerState& state, const RestRequest& request);
RestResponse LoadTable(ServerState& state, const RestRequest& request);  // GET and HEAD
RestResponse CommitTable(ServerState& state, const RestRequest& request);
RestResponse DropTable(ServerState& state, const RestRequest& request);
RestResponse RenameTable(ServerState& state, const RestRequest& request);
RestResponse RegisterTable(ServerState& state, const RestRequest& request);

RestResponse ListViews(ServerState& state, const RestRequest& request);
RestResponse CreateView(ServerState& state, const RestRequest& request);
RestResponse LoadView(ServerState& state, const RestRequest& request);  // GET and HEAD
RestResponse ReplaceView(ServerState& state, const RestRequest& request);
RestResponse DropView(ServerState& state, const RestRequest& request);
RestResponse RenameView(ServerState& state, const RestRequest& request);

RestResponse ReportMetrics(ServerState& state, const RestRequest& request);
RestResponse CommitTransaction(ServerState& state, const RestRequest& request);

}  // namespace floe::server
