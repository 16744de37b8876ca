#include "floe/catalog/rest_http.h"

#include <algorithm>
#include <array>
#include <thread>

#include "floe/base/bytes.h"
#include "floe/base/strings.h"
#include "floe/base/uuid.h"

namespace floe::catalog {
namespace {

bool ParseDigits(std::string_view s, int* out) {
  if (s.empty() || s.size() > 4) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

// IMF-fixdate, the form RFC 9110 requires senders to use:
// "Sun, 06 Nov 1994 08:49:37 GMT".
std::optional<std::chrono::system_clock::time_point> ParseHttpDate(std::string_view s) {
  const size_t comma = s.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  std::vector<std::string_view> parts;
  for (std::string_view p : Split(Trim(s.substr(comma + 1)), ' ')) {
    if (!p.empty()) parts.push_back(p);
  }
  if (parts.size() != 5 || parts[4] != "GMT") return std::nullopt;
  static constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const auto month = std::find(kMonths.begin(), kMonths.end(), parts[1]);
  int day = 0, year = 0, hh = 0, mm = 0, ss = 0;
  const auto hms = Split(parts[3], ':');
  if (month == kMonths.end() || !ParseDigits(parts[0], &day) || !ParseDigits(parts[2], &year) || hms.size() != 3 ||
      !ParseDigits(hms[0], &hh) || !ParseDigits(hms[1], &mm) || !ParseDigits(hms[2], &ss)) {
    return std::nullopt;
  }
  const std::chrono::year_month_day ymd{std::chrono::year(year),
                                        std::chrono::month(static_cast<unsigned>(month - kMonths.begin() + 1)),
                                        std::chrono::day(static_cast<unsigned>(day))};
  if (!ymd.ok() || hh > 23 || mm > 59 || ss > 60) return std::nullopt;
  return std::chrono::sys_days(ymd) + std::chrono::hours(hh) + std::chrono::minutes(mm) + std::chrono::seconds(ss);
}

bool IsIdempotent(const RestRequest& request) {
  if (request.idempotent.has_value()) return *request.idempotent;
  return request.method != "POST";
}

}  // namespace

std::optional<std::chrono::milliseconds> ParseRetryAfter(std::string_view value,
                                                         std::chrono::system_clock::time_point now) {
  value = Trim(value);
  if (value.empty()) return std::nullopt;
  int64_t seconds = 0;
  if (ParseInt64(value, &seconds)) {
    if (seconds < 0) return std::nullopt;
    // An absurd value is cut by the caller's cap; keep the product in range.
    return std::chrono::milliseconds(std::min<int64_t>(seconds, int64_t{1} << 40) * 1000);
  }
  auto at = ParseHttpDate(value);
  if (!at.has_value()) return std::nullopt;
  return std::max(std::chrono::milliseconds(0), std::chrono::duration_cast<std::chrono::milliseconds>(*at - now));
}

RestHttp::RestHttp(RestHttpOptions options) : options_(std::move(options)), client_(options_.http) {
  while (!options_.base_url.empty() && options_.base_url.back() == '/') options_.base_url.pop_back();
}

std::string RestHttp::Url(const RestRequest& request) const {
  std::string url = request.path.empty() ? options_.base_url : StrCat(options_.base_url, "/", request.path);
  char sep = '?';
  for (const auto& [name, value] : request.query) {
    url += sep;
    url += UriEncode(name);
    url += '=';
    url += UriEncode(value);
    sep = '&';
  }
  return url;
}

void RestHttp::Sleep(std::chrono::milliseconds delay) const {
  if (options_.sleep) {
    options_.sleep(delay);
  } else if (delay.count() > 0) {
    std::this_thread::sleep_for(delay);
  }
}

Result<HttpResponse> RestHttp::Send(const RestRequest& request, TransportFailure* failure) {
  if (failure != nullptr) *failure = TransportFailure::kNone;
  const std::string url = Url(request);
  std::string key = request.idempotency_key;
  if (key.empty() && idempotency_keys_ && request.authenticated &&
      (request.method == "POST" || request.method == "DELETE")) {
    key = RandomUuidV7();
  }
  const bool idempotent = IsIdempotent(request) || !key.empty();
  bool lost_answer = false;  // an attempt was sent and its answer lost
  const int max_attempts = std::max(1, options_.retry.max_attempts);
  bool reauthorized = false;
  for (int attempt = 1;; ++attempt) {
    HttpRequest http;
    http.method = request.method;
    http.url = url;
    http.headers = options_.headers;
    http.headers.insert(http.headers.end(), request.headers.begin(), request.headers.end());
    http.headers.emplace_back("Accept", "application/json");
    if (!key.empty()) http.headers.emplace_back("Idempotency-Key", key);
    if (!request.body.empty() || request.method == "POST") {
      http.headers.emplace_back("Content-Type", request.content_type);
      http.body = AsBytes(request.body);
    }
    std::string authorization;
    if (request.authenticated && auth_ != nullptr) {
      FLOE_ASSIGN_OR_RETURN(authorization, auth_->AuthorizationHeader());
      if (!authorization.empty()) http.headers.emplace_back("Authorization", authorization);
    }

    TransportFailure transport = TransportFailure::kNone;
    auto response = client_.Send(http, &transport);
    if (!response.ok()) {
      if (transport == TransportFailure::kOutcomeUnknown) lost_answer = true;
      const bool may_retry = transport == TransportFailure::kNotSent || idempotent;
      if (may_retry && attempt < max_attempts) {
        Sleep(options_.retry.Delay(attempt));
        continue;
      }
      // A later attempt that never left does not undo an earlier one that did.
      if (failure != nullptr) *failure = lost_answer ? TransportFailure::kOutcomeUnknown : transport;
      return Status::IOError(StrCat(request.method, " ", url, ": ", response.status().message(),
                                    attempt > 1 ? StrCat(" (after ", attempt, " attempts)") : std::string()));
    }
    if (response->status == 401 && !reauthorized && request.authenticated && auth_ != nullptr &&
        auth_->Invalidate(authorization)) {
      reauthorized = true;  // once: a second 401 with a fresh token is the answer
      continue;
    }
    if ((response->status == 429 || response->status == 503) && attempt < max_attempts) {
      auto delay = ParseRetryAfter(response->Header("retry-after"), std::chrono::system_clock::now());
      Sleep(delay.has_value() ? std::min(*delay, std::chrono::milliseconds(options_.max_retry_after_ms))
                              : options_.retry.Delay(attempt));
      continue;
    }
    if (failure != nullptr && lost_answer) *failure = TransportFailure::kOutcomeUnknown;
    return response;
  }
}

}  // namespace floe::catalog
