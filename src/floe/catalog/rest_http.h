// RestHttp: the transport under the Iceberg REST catalog client — one base
// URL, JSON requests over floe's pooled libcurl HttpClient (io/http_client.h:
// keep-alive connections reused across requests and threads), retries, and
// the Authorization header of an AuthSession (rest_auth.h).
//
// Retries, as the Iceberg Java client's ExponentialHttpRequestRetryStrategy:
//   - 429 Too Many Requests and 503 Service Unavailable are retried for every
//     method (the server says it did not process the request), after the
//     answer's Retry-After (seconds or an HTTP date, capped at
//     max_retry_after_ms) or else RetryPolicy's full-jitter backoff;
//   - a transport failure is retried only when the request never reached the
//     server (connect or resolve failed), the request is idempotent
//     (GET, HEAD, PUT, DELETE, or marked so), or it carries an
//     Idempotency-Key (spec: "the server ensures no additional effects for
//     requests that carry the same Idempotency-Key"; every attempt sends the
//     same key): a POST without a key whose outcome is unknown is never sent
//     twice — the caller gets IOError with TransportFailure::kOutcomeUnknown
//     and resolves it (a commit reloads);
//   - 401 Unauthorized: once, after asking the AuthSession for a new token
//     (when it can get one).
// Everything else — including 500/502/504, which the spec makes
// CommitStateUnknown for commits — goes back to the caller unretried.
//
// Idempotency-Key: once set_idempotency_keys(true) (the server's /v1/config
// announced "idempotency-key-lifetime"), every POST and DELETE that has no
// key gets a fresh UUIDv7 (spec: "Key format: UUIDv7"), one per Send(): one
// logical operation, all its attempts.
//
// Secrets: tokens travel only in the Authorization header; no message made
// here contains a header or a request body.
//
// Thread safety: Send() may be called from many threads at once.

#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/io/http_client.h"
#include "floe/io/retry_policy.h"
#include "floe/io/sigv4.h"

namespace floe::catalog {

// Where a request's Authorization header comes from (rest_auth.h).
class AuthSession {
 public:
  virtual ~AuthSession() = default;
  // The header value ("Bearer <token>"), or "" for none. Fetches or
  // refreshes a token when needed; its errors (IOError, PermissionDenied).
  virtual Result<std::string> AuthorizationHeader() = 0;
  // The server refused `rejected` (401): drop it and fetch a new token on the
  // next AuthorizationHeader(). Returns whether a new one can be fetched
  // (false for a fixed token or no credential: the 401 stands).
  virtual bool Invalidate(const std::string& rejected) = 0;
};

struct RestRequest {
  std::string method = "GET";  // GET, HEAD, POST, DELETE
  // The path below the base URL, already percent-encoded, without a leading
  // '/': "v1/config", "v1/shop/namespaces/a%1Fb".
  std::string path;
  QueryParams query;  // unencoded
  std::string body;   // sent when non-empty (or for POST)
  std::string content_type = "application/json";
  HeaderList headers;  // extra headers
  // Idempotent requests are retried after transport errors. Defaults by
  // method: everything but POST.
  std::optional<bool> idempotent;
  // Sent as Idempotency-Key on every attempt, which makes the request
  // retryable after transport errors; empty: none, or a fresh one (above).
  std::string idempotency_key;
  bool authenticated = true;  // false: no Authorization header (token fetch)
};

struct RestHttpOptions {
  // The service root: http(s)://host:port[/path]; "/v1/..." is appended.
  std::string base_url;
  HttpClientOptions http;
  RetryPolicy retry{.max_attempts = 5, .base_delay_ms = 100, .max_delay_ms = 5000};
  // A Retry-After longer than this is cut to it.
  int64_t max_retry_after_ms = 30'000;
  // Extra headers on every request (e.g. X-Iceberg-Access-Delegation).
  HeaderList headers;
  // Sleeps between attempts; tests replace it to observe the delays.
  std::function<void(std::chrono::milliseconds)> sleep;
};

class RestHttp {
 public:
  explicit RestHttp(RestHttpOptions options);

  // The session whose Authorization header every authenticated request
  // carries; nullptr: none. Set before the first Send().
  void set_auth(std::shared_ptr<AuthSession> auth) { auth_ = std::move(auth); }
  // Whether POST and DELETE get an Idempotency-Key. Set before the first
  // Send() that may run concurrently.
  void set_idempotency_keys(bool on) { idempotency_keys_ = on; }
  bool idempotency_keys() const { return idempotency_keys_; }

  // Sends `request` with the retries above. Any final HTTP status is a
  // success here (the caller maps error bodies). IOError
  // "POST http://h/v1/...: <curl error>" on a transport failure after the
  // retries, with *failure telling whether it may have taken effect; the
  // AuthSession's errors. With a response, *failure is kOutcomeUnknown when
  // an earlier attempt (of a keyed request) was sent and its answer lost —
  // the response may then be the server's replay or a second run — and
  // kNone otherwise.
  Result<HttpResponse> Send(const RestRequest& request, TransportFailure* failure = nullptr);

  // "http://host:port/root/" + path (+ "?" query).
  std::string Url(const RestRequest& request) const;
  const std::string& base_url() const { return options_.base_url; }

 private:
  void Sleep(std::chrono::milliseconds delay) const;

  RestHttpOptions options_;
  HttpClient client_;
  std::shared_ptr<AuthSession> auth_;
  bool idempotency_keys_ = false;
};

// The pause a Retry-After header asks for: delta-seconds ("120") or an
// HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT", relative to `now`); nullopt
// for an absent or unreadable value. Never negative.
std::optional<std::chrono::milliseconds> ParseRetryAfter(std::string_view value,
                                                         std::chrono::system_clock::time_point now);

}  // namespace floe::catalog
