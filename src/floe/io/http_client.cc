#include "floe/io/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "floe/base/strings.h"

namespace floe {
namespace {

void GlobalInitOnce() {
  static const bool done = [] {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    return true;
  }();
  (void)done;
}

struct Transfer {
  const HttpRequest* request;
  HttpResponse* response;
  CURL* curl;
  size_t upload_pos = 0;
  int64_t max_buffered = 0;
  bool overflow = false;
  bool status_known = false;
  bool to_caller = false;
};

size_t ReadBody(char* buffer, size_t size, size_t nitems, void* userdata) {
  auto* t = static_cast<Transfer*>(userdata);
  const auto body = t->request->body;
  const size_t n = std::min(size * nitems, body.size() - t->upload_pos);
  if (n == 0) return 0;  // an empty body may have a null data pointer
  std::memcpy(buffer, body.data() + t->upload_pos, n);
  t->upload_pos += n;
  return n;
}

size_t WriteBody(char* data, size_t size, size_t nmemb, void* userdata) {
  auto* t = static_cast<Transfer*>(userdata);
  const size_t n = size * nmemb;
  if (!t->status_known) {
    long code = 0;
    curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &code);
    t->to_caller = t->request->body_out != nullptr && code >= 200 && code < 300;
    t->status_known = true;
  }
  if (t->to_caller) {
    HttpResponse& r = *t->response;
    if (r.body_out_bytes + static_cast<int64_t>(n) > t->request->body_out_capacity) {
      t->overflow = true;
      return 0;  // aborts the transfer
    }
    std::memcpy(t->request->body_out + r.body_out_bytes, data, n);
    r.body_out_bytes += static_cast<int64_t>(n);
    return n;
  }
  if (static_cast<int64_t>(t->response->body.size() + n) > t->max_buffered) {
    t->overflow = true;
    return 0;
  }
  t->response->body.append(data, n);
  return n;
}

size_t WriteHeader(char* data, size_t size, size_t nitems, void* userdata) {
  auto* t = static_cast<Transfer*>(userdata);
  const size_t n = size * nitems;
  std::string_view line(data, n);
  if (StartsWith(line, "HTTP/")) {
    t->response->headers.clear();  // a new response (after 100 Continue)
    t->status_known = false;
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  std::string name(Trim(line.substr(0, colon)));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  t->response->headers.emplace_back(std::move(name), std::string(Trim(line.substr(colon + 1))));
  return n;
}

void LockShare(CURL*, curl_lock_data, curl_lock_access, void* userptr) { static_cast<std::mutex*>(userptr)->lock(); }
void UnlockShare(CURL*, curl_lock_data, void* userptr) { static_cast<std::mutex*>(userptr)->unlock(); }

}  // namespace

std::string_view HttpResponse::Header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (k == name) return v;
  }
  return {};
}

struct HttpClient::Pool {
  std::mutex mutex;
  std::vector<CURL*> idle;  // guarded by mutex
  std::mutex share_mutex;
  CURLSH* share = nullptr;
};

HttpClient::HttpClient(HttpClientOptions options) : options_(options), pool_(std::make_unique<Pool>()) {
  GlobalInitOnce();
  pool_->share = curl_share_init();
  curl_share_setopt(pool_->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
  curl_share_setopt(pool_->share, CURLSHOPT_LOCKFUNC, LockShare);
  curl_share_setopt(pool_->share, CURLSHOPT_UNLOCKFUNC, UnlockShare);
  curl_share_setopt(pool_->share, CURLSHOPT_USERDATA, &pool_->share_mutex);
}

HttpClient::~HttpClient() {
  for (CURL* c : pool_->idle) curl_easy_cleanup(c);
  curl_share_cleanup(pool_->share);
}

void* HttpClient::Acquire() {
  {
    std::lock_guard lock(pool_->mutex);
    if (!pool_->idle.empty()) {
      CURL* c = pool_->idle.back();
      pool_->idle.pop_back();
      return c;
    }
  }
  return curl_easy_init();
}

void HttpClient::Release(void* handle) {
  auto* c = static_cast<CURL*>(handle);
  // Keeps the handle's connection cache; clears every option.
  curl_easy_reset(c);
  std::lock_guard lock(pool_->mutex);
  pool_->idle.push_back(c);
}

Result<HttpResponse> HttpClient::Send(const HttpRequest& request, TransportFailure* failure) {
  if (failure) *failure = TransportFailure::kNone;
  CURL* curl = static_cast<CURL*>(Acquire());
  if (curl == nullptr) return Status::Internal("libcurl could not create a request handle");
  HttpResponse response;
  Transfer t{.request = &request, .response = &response, .curl = curl, .max_buffered = options_.max_buffered_body};

  curl_slist* headers = nullptr;
  for (const auto& [k, v] : request.headers) headers = curl_slist_append(headers, (k + ": " + v).c_str());
  // No "Expect: 100-continue" round trip; S3 answers errors after the body anyway.
  headers = curl_slist_append(headers, "Expect:");
  // curl adds "Content-Type: application/x-www-form-urlencoded" to POSTs otherwise.
  if (request.method == "POST") headers = curl_slist_append(headers, "Content-Type:");

  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_SHARE, pool_->share);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.request_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1024L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(std::max<int64_t>(1, options_.stall_timeout_ms / 1000)));
  curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
  if (!options_.reuse_connections) {
    curl_easy_setopt(curl, CURLOPT_FRESH_CONNECT, 1L);
    curl_easy_setopt(curl, CURLOPT_FORBID_REUSE, 1L);
  }
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, WriteHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
  if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (request.method == "PUT" || request.method == "POST") {
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, ReadBody);
    curl_easy_setopt(curl, CURLOPT_READDATA, &t);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    if (request.method == "POST") curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "POST");
  } else if (request.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }

  const CURLcode rc = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  curl_slist_free_all(headers);
  Release(curl);

  if (rc != CURLE_OK) {
    if (failure) {
      *failure = (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
                  rc == CURLE_COULDNT_RESOLVE_PROXY)
                     ? TransportFailure::kNotSent
                     : TransportFailure::kOutcomeUnknown;
    }
    if (t.overflow) {
      return Status::IOError(StrCat("the response body is larger than the ",
                                    t.to_caller ? request.body_out_capacity : options_.max_buffered_body,
                                    " bytes expected"));
    }
    return Status::IOError(error[0] != 0 ? std::string(error) : std::string(curl_easy_strerror(rc)));
  }
  return response;
}

}  // namespace floe
