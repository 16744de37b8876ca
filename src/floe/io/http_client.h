// HttpClient: HTTP/1.1 requests over libcurl, with connection reuse.
//
// Easy handles are pooled: a finished request returns its handle, and with it
// the handle's open connections, so the next request to the same host reuses
// a warm connection (no TCP or TLS handshake). DNS results are shared among
// all handles of one client.
//
// Response bodies are streamed: a 2xx body goes straight into the caller's
// memory (HttpRequest::body_out) when given, else into HttpResponse::body,
// capped so a misbehaving server cannot make floe allocate without bound.
//
// Thread safety: Send() may be called from many threads at once; each call
// uses its own handle.

#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/io/sigv4.h"

namespace floe {

struct HttpRequest {
  std::string method{};  // GET, HEAD, PUT, POST, DELETE
  std::string url{};
  HeaderList headers{};
  std::span<const uint8_t> body{};  // sent with Content-Length; must outlive Send()
  // When set, a 2xx response body is written here; a body longer than
  // body_out_capacity is an IOError (the server broke the Range contract).
  uint8_t* body_out = nullptr;
  int64_t body_out_capacity = 0;
};

struct HttpResponse {
  long status = 0;
  HeaderList headers{};   // names lower-cased, in arrival order
  std::string body{};     // when body_out was not used, or for non-2xx answers
  int64_t body_out_bytes = 0;
  // The header's value, or "" when absent (name in lower case).
  std::string_view Header(std::string_view name) const;
};

struct HttpClientOptions {
  int64_t connect_timeout_ms = 5000;
  int64_t request_timeout_ms = 300000;
  int64_t stall_timeout_ms = 30000;
  // Bodies collected into HttpResponse::body beyond this are an IOError.
  int64_t max_buffered_body = 64 << 20;
  // false: every request opens a new connection and closes it after (for
  // tests that break chosen connections, and for servers that mishandle
  // keep-alive).
  bool reuse_connections = true;
};

// What a transport failure says about whether the server saw the request.
enum class TransportFailure {
  kNone,           // a response arrived
  kNotSent,        // could not resolve or connect: the server never saw it
  kOutcomeUnknown  // sent (or partly sent) and no complete answer came back
};

class HttpClient {
 public:
  explicit HttpClient(HttpClientOptions options = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends `request`; any HTTP status is a success here (the caller maps it).
  // IOError with libcurl's description on a transport failure (refused
  // connection, timeout, reset; the caller names the request), with
  // *failure saying whether the request may have taken effect.
  Result<HttpResponse> Send(const HttpRequest& request, TransportFailure* failure = nullptr);

 private:
  struct Pool;
  void* Acquire();
  void Release(void* handle);

  HttpClientOptions options_;
  std::unique_ptr<Pool> pool_;
};

}  // namespace floe
