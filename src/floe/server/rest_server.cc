// RestServer: routing on httplib::Server (rest_server.h).
//
// Every request goes through one catch-all handler that decodes the path
// itself (from the raw target, so an escaped '/' or 0x1F inside a name stays
// inside it), authenticates, replays Idempotency-Key answers, and calls the
// route's handler (handlers.h). httplib's per-path routes are not used.

#include "floe/server/rest_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "floe/base/strings.h"
#include "floe/catalog/rest/rest_path.h"
#include "floe/server/handlers.h"
#include "floe/server/idempotency_cache.h"

namespace floe::server {

namespace rest = catalog::rest;

struct RestServer::Impl {
  ServerState state;
  IdempotencyCache idempotency;
  httplib::Server http;
  std::mutex stop_mu;
  std::mutex join_mu;
  bool stopped = false;
  socket_t listen_socket = -1;  // set when httplib creates it (before Start returns)

  Impl(ServerState s, int64_t lifetime_s, size_t max_entries)
      : state(std::move(s)), idempotency(lifetime_s, max_entries) {}

  void Handle(const httplib::Request& req, httplib::Response& res);
};

namespace {

using Handler = RestResponse (*)(ServerState&, const RestRequest&);

thread_local std::chrono::steady_clock::time_point request_start{};
// Whether this worker's current answer is an Idempotency-Key replay (the
// access log says so).
thread_local bool request_replayed = false;

std::string_view PathOf(std::string_view target) {
  const size_t q = target.find('?');
  return q == std::string_view::npos ? target : target.substr(0, q);
}

void Send(httplib::Response& res, const RestResponse& r) {
  res.status = r.status;
  if (!r.etag.empty()) res.set_header("ETag", r.etag);
  if (!r.body.empty()) res.set_content(r.body, r.content_type.empty() ? "application/json" : r.content_type);
}

// The route for a decoded path below /v1[/prefix] and a method. Sets the
// path parameters of `request`. Returns nullptr with `*error` set when there
// is no such route.
Handler Route(const std::vector<std::string>& seg, RestRequest& request, RestResponse* error) {
  const std::string& m = request.method;
  const bool get = m == "GET" || m == "HEAD";
  auto method_not_allowed = [&]() -> Handler {
    *error = ErrorResponse(405, "MethodNotAllowedException", StrCat("method ", m, " is not allowed on ", request.path));
    return nullptr;
  };
  auto bad_name = [&](const Status& s) -> Handler {
    *error = ErrorResponse(s);
    return nullptr;
  };
  const size_t n = seg.size();
  if (n >= 1 && seg[0] == "namespaces") {
    if (n == 1) {
      if (get) return ListNamespaces;
      if (m == "POST") return CreateNamespace;
      return method_not_allowed();
    }
    auto ns = rest::SplitNamespace(seg[1]);
    if (!ns.ok()) return bad_name(ns.status());
    request.ns = std::move(*ns);
    if (n == 2) {
      if (get) return LoadNamespace;
      if (m == "DELETE") return DropNamespace;
      return method_not_allowed();
    }
    if (n == 3 && seg[2] == "properties") return m == "POST" ? UpdateNamespaceProperties : method_not_allowed();
    if (n == 3 && seg[2] == "register") return m == "POST" ? RegisterTable : method_not_allowed();
    if (n == 3 && seg[2] == "tables") {
      if (get) return ListTables;
      if (m == "POST") return CreateTable;
      return method_not_allowed();
    }
    if (n == 3 && seg[2] == "views") {
      if (get) return ListViews;
      if (m == "POST") return CreateView;
      return method_not_allowed();
    }
    if (n == 4 && seg[2] == "views") {
      request.table = seg[3];
      if (Status s = catalog::TableIdentifier{request.ns, request.table}.Validate(); !s.ok()) return bad_name(s);
      if (get) return LoadView;
      if (m == "POST") return ReplaceView;
      if (m == "DELETE") return DropView;
      return method_not_allowed();
    }
    if ((n == 4 || n == 5) && seg[2] == "tables") {
      request.table = seg[3];
      if (Status s = catalog::TableIdentifier{request.ns, request.table}.Validate(); !s.ok()) return bad_name(s);
      if (n == 5) {
        if (seg[4] == "metrics") return m == "POST" ? ReportMetrics : method_not_allowed();
      } else {
        if (get) return LoadTable;
        if (m == "POST") return CommitTable;
        if (m == "DELETE") return DropTable;
        return method_not_allowed();
      }
    }
  }
  if (n == 2 && seg[0] == "tables" && seg[1] == "rename") return m == "POST" ? RenameTable : method_not_allowed();
  if (n == 2 && seg[0] == "views" && seg[1] == "rename") return m == "POST" ? RenameView : method_not_allowed();
  if (n == 2 && seg[0] == "transactions" && seg[1] == "commit") {
    return m == "POST" ? CommitTransaction : method_not_allowed();
  }
  *error = ErrorResponse(400, "BadRequestException", StrCat("no route for ", m, " ", request.path));
  return nullptr;
}

}  // namespace

void RestServer::Impl::Handle(const httplib::Request& req, httplib::Response& res) {
  request_start = std::chrono::steady_clock::now();
  request_replayed = false;
  RestRequest request;
  request.method = req.method;
  const std::string_view raw_path = PathOf(req.target);
  request.path = req.path;

  // Decode the segments one by one.
  std::vector<std::string> seg;
  for (std::string_view part : Split(raw_path, '/')) {
    if (part.empty()) continue;
    auto decoded = rest::UrlDecode(part);
    if (!decoded.ok()) return Send(res, ErrorResponse(decoded.status()));
    seg.push_back(std::move(*decoded));
  }
  if (seg.empty() || seg[0] != "v1") {
    return Send(res, ErrorResponse(400, "BadRequestException", StrCat("no route for ", req.method, " ", req.path)));
  }
  seg.erase(seg.begin());
  for (const auto& [key, value] : req.params) request.query.emplace(key, value);
  request.body = req.body;
  if (req.has_header("If-None-Match")) request.headers_of_interest["if-none-match"] = req.get_header_value("If-None-Match");

  // Routes outside the prefix and without authentication.
  if (seg.size() == 2 && seg[0] == "oauth" && seg[1] == "tokens") {
    if (req.method != "POST") return Send(res, ErrorResponse(405, "MethodNotAllowedException", "use POST"));
    if (req.has_header("Authorization")) {
      request.headers_of_interest["authorization"] = req.get_header_value("Authorization");
    }
    return Send(res, IssueToken(state, request));
  }

  // Authentication.
  if (state.auth == nullptr) {
    request.principal = Principal{"insecure-dev", {"catalog:admin"}, 0};
  } else {
    const std::string header = req.get_header_value("Authorization");
    if (!StartsWith(header, "Bearer ") || header.size() <= 7) {
      res.set_header("WWW-Authenticate", "Bearer");
      return Send(res, ErrorResponse(401, "NotAuthorizedException", "a bearer token is required (POST /v1/oauth/tokens)"));
    }
    auto principal = state.auth->Verify(std::string_view(header).substr(7), NowSeconds());
    if (!principal.ok()) {
      if (IsExpiredTokenError(principal.status())) {
        return Send(res, ErrorResponse(419, "AuthenticationTimeoutException", principal.status().message()));
      }
      res.set_header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
      return Send(res, ErrorResponse(401, "NotAuthorizedException", principal.status().message()));
    }
    request.principal = std::move(*principal);
  }

  Handler handler = nullptr;
  RestResponse error;
  if (seg.size() == 1 && seg[0] == "config") {
    handler = req.method == "GET" || req.method == "HEAD" ? GetConfig : nullptr;
    if (handler == nullptr) error = ErrorResponse(405, "MethodNotAllowedException", "use GET");
  } else {
    if (!state.options.prefix.empty()) {
      if (seg.empty() || seg[0] != state.options.prefix) {
        return Send(res, ErrorResponse(400, "BadRequestException",
                                       StrCat("no route for ", req.method, " ", req.path, " (the prefix is ",
                                              Quote(state.options.prefix), ")")));
      }
      seg.erase(seg.begin());
    }
    handler = Route(seg, request, &error);
  }
  if (handler == nullptr) return Send(res, error);

  // spec: Idempotency-Key makes a retried mutation answer as the first did.
  const bool mutation = req.method == "POST" || req.method == "DELETE";
  const std::string idempotency_key = mutation ? req.get_header_value("Idempotency-Key") : std::string();
  if (idempotency_key.empty()) return Send(res, handler(state, request));
  const std::string cache_key =
      StrCat(request.principal.subject, "\n", req.method, " ", raw_path, "\n", idempotency_key);
  if (auto replay = idempotency.Begin(cache_key, std::chrono::seconds(state.options.request_timeout_s))) {
    request_replayed = true;
    RestResponse r;
    r.status = replay->status;
    r.body = replay->body;
    r.content_type = replay->content_type;
    r.etag = replay->etag;
    return Send(res, r);
  }
  RestResponse response = handler(state, request);
  idempotency.Finish(cache_key,
                     CachedResponse{response.status, response.body, response.content_type, response.etag});
  Send(res, response);
}

Result<std::unique_ptr<RestServer>> RestServer::Make(std::shared_ptr<catalog::Catalog> catalog,
                                                     RestServerOptions options) {
  if (catalog == nullptr) return Status::InvalidArgument("rest server: no catalog");
  if (options.warehouse.empty()) return Status::InvalidArgument("rest server: the warehouse is empty");
  if (options.prefix.find('/') != std::string::npos) {
    return Status::InvalidArgument(StrCat("rest server: prefix ", Quote(options.prefix), " contains '/'"));
  }
  if (options.worker_threads == 0) options.worker_threads = 1;
  std::unique_ptr<TokenAuthority> auth;
  if (!options.insecure_dev) {
    if (options.clients.empty()) {
      return Status::InvalidArgument(
          "rest server: authentication is on but no clients are configured (give --config with clients, or "
          "--insecure-dev for local development)");
    }
    FLOE_ASSIGN_OR_RETURN(TokenAuthority authority,
                          TokenAuthority::Make(options.clients, options.signing_key, options.token_lifetime_s));
    auth = std::make_unique<TokenAuthority>(std::move(authority));
  }
  LocationPolicy locations(options.warehouse, options.allowed_locations);
  const int64_t lifetime = options.idempotency_lifetime_s;
  const size_t max_entries = options.idempotency_max_entries;
  ServerState state{std::move(catalog), std::move(options), std::move(locations), std::move(auth)};
  auto impl = std::make_unique<Impl>(std::move(state), lifetime, max_entries);

  Impl* self = impl.get();
  httplib::Server& http = impl->http;
  const RestServerOptions& o = impl->state.options;
  const size_t workers = o.worker_threads;
  http.new_task_queue = [workers] { return new httplib::ThreadPool(workers); };
  http.set_payload_max_length(o.max_body_bytes);
  http.set_read_timeout(o.request_timeout_s, 0);
  http.set_write_timeout(o.request_timeout_s, 0);
  http.set_keep_alive_timeout(5);
  // Answers go out as soon as they are written: without TCP_NODELAY a
  // response's second write waits for the client's delayed ACK (40 ms).
  http.set_tcp_nodelay(true);
  // SO_REUSEADDR only (a restart may bind over TIME_WAIT), not httplib's
  // default SO_REUSEPORT, which would let a second server share the port
  // silently. The socket is kept to widen its accept queue once bound.
  http.set_socket_options([self](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    self->listen_socket = sock;
  });
  // One catch-all route per method (HEAD goes to GET's): httplib reads the
  // body before calling a route, not before a pre-routing handler.
  auto handle = [self](const httplib::Request& req, httplib::Response& res) { self->Handle(req, res); };
  http.Get(".*", handle);
  http.Post(".*", handle);
  http.Put(".*", handle);
  http.Patch(".*", handle);
  http.Delete(".*", handle);
  http.Options(".*", handle);
  // Answers httplib makes itself (413 for a body over the limit, 400 for a
  // malformed request line) get the spec's error model too.
  httplib::Server::HandlerWithResponse on_error = [](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    const int code = res.status;
    const std::string type = code == 413 ? "BadRequestException" : code >= 500 ? "ServiceFailureException"
                                                                              : "BadRequestException";
    const std::string message = code == 413 ? "request body is larger than the server's limit"
                                            : StrCat("HTTP ", code);
    res.set_content(rest::ErrorResponseToJson(rest::ErrorModel{message, type, code, {}}), "application/json");
    return httplib::Server::HandlerResponse::Handled;
  };
  http.set_error_handler(std::move(on_error));
  http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content(rest::ErrorResponseToJson(rest::ErrorModel{"internal error", "ServiceFailureException", 500, {}}),
                    "application/json");
  });
  if (o.access_log) {
    // One line per request: no query string, headers or body, so neither
    // tokens nor client secrets can reach the log.
    http.set_logger([](const httplib::Request& req, const httplib::Response& res) {
      long long ms = 0;
      if (request_start.time_since_epoch().count() != 0) {
        ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - request_start)
                 .count();
      }
      request_start = {};
      const std::string line = StrCat("rest: ", req.method, " ", req.path, " ", res.status, " ", ms, "ms ",
                                      res.body.size(), "B", request_replayed ? " replayed" : "", "\n");
      request_replayed = false;
      std::fwrite(line.data(), 1, line.size(), stderr);
    });
  }
  return std::unique_ptr<RestServer>(new RestServer(std::move(impl)));
}

RestServer::RestServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

RestServer::~RestServer() { Stop(); }

Status RestServer::Start() {
  if (started_) return Status::InvalidArgument("rest server: already started");
  const RestServerOptions& o = impl_->state.options;
  if (o.port == 0) {
    port_ = impl_->http.bind_to_any_port(o.host);
    if (port_ <= 0) return Status::IOError(StrCat("rest server: cannot bind ", o.host, " to a free port"));
  } else {
    if (!impl_->http.bind_to_port(o.host, o.port)) {
      return Status::IOError(StrCat("rest server: cannot bind ", o.host, ":", o.port));
    }
    port_ = o.port;
  }
  // Debian's libcpp-httplib listens with a backlog of 5: 32 clients
  // connecting at once overflow it and wait 1 s for their SYN to be resent.
  // Listening again on the bound socket widens the queue (Linux).
  if (impl_->listen_socket >= 0) ::listen(impl_->listen_socket, SOMAXCONN);
  started_ = true;
  thread_ = std::thread([this] { impl_->http.listen_after_bind(); });
  // httplib's stop() does nothing before the loop runs: wait for it, so a
  // Stop right after Start cannot be lost.
  for (int i = 0; i < 5000 && !impl_->http.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return Status::OK();
}

void RestServer::Stop() {
  {
    std::lock_guard lock(impl_->stop_mu);
    if (!impl_->stopped && started_) {
      // stop() closes the listening socket; listen_after_bind then shuts the
      // worker pool down, which lets every request already running finish.
      impl_->http.stop();
      impl_->stopped = true;
    }
  }
  Wait();
}

void RestServer::Wait() {
  std::lock_guard lock(impl_->join_mu);
  if (thread_.joinable()) thread_.join();
}

std::string RestServer::SignToken(const std::string& subject, const std::vector<std::string>& scopes,
                                  int64_t ttl_s) const {
  if (impl_->state.auth == nullptr) return "insecure-dev-token";
  const int64_t now = NowSeconds();
  return impl_->state.auth->Sign(subject, scopes, now, now + ttl_s);
}

}  // namespace floe::server
