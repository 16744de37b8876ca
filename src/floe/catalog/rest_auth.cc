#include "floe/catalog/rest_auth.h"

#include <algorithm>

#include "floe/base/strings.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_path.h"

namespace floe::catalog {

OAuth2Session::OAuth2Session(std::shared_ptr<RestHttp> token_http, OAuth2Options options)
    : token_http_(std::move(token_http)), options_(std::move(options)) {
  token_ = options_.token;
}

std::chrono::steady_clock::time_point OAuth2Session::Now() const {
  return options_.now ? options_.now() : std::chrono::steady_clock::now();
}

int OAuth2Session::fetches() const {
  std::lock_guard lock(mutex_);
  return fetches_;
}

Status OAuth2Session::FetchLocked() {
  std::map<std::string, std::string> form;
  form["grant_type"] = "client_credentials";
  const size_t colon = options_.credential.find(':');
  if (colon == std::string::npos) {
    form["client_secret"] = options_.credential;
  } else {
    form["client_id"] = options_.credential.substr(0, colon);
    form["client_secret"] = options_.credential.substr(colon + 1);
  }
  if (!options_.scope.empty()) form["scope"] = options_.scope;

  RestRequest request;
  request.method = "POST";
  request.path = options_.token_path;
  request.body = rest::FormEncode(form);
  request.content_type = "application/x-www-form-urlencoded";
  request.authenticated = false;
  request.idempotent = true;  // a second token is harmless
  const std::string endpoint = token_http_->Url(request);
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, token_http_->Send(request));
  ++fetches_;
  if (response.status != 200) {
    auto error = rest::ParseOAuthError(response.body);
    std::string detail = error.ok() ? StrCat(error->error, error->error_description.has_value()
                                                               ? ": " + *error->error_description
                                                               : std::string())
                                    : std::string("no OAuth error body");
    return Status::PermissionDenied(
        StrCat("REST catalog token endpoint ", endpoint, ": ", response.status, " ", detail));
  }
  auto token = rest::ParseOAuthTokenResponse(response.body);
  if (!token.ok()) {
    return Status::Corrupt(StrCat("REST catalog token endpoint ", endpoint, ": ", token.status().message()));
  }
  if (!EqualsIgnoreCase(token->token_type, "bearer") && !EqualsIgnoreCase(token->token_type, "N_A")) {
    return Status::Unsupported(
        StrCat("REST catalog token endpoint ", endpoint, ": token_type ", Quote(token->token_type), " (expected bearer)"));
  }
  token_ = token->access_token;
  refresh_at_.reset();
  if (token->expires_in.has_value()) {
    // Early enough that a request in flight does not carry a token that
    // expires on the way.
    const int64_t lifetime_ms = std::max<int64_t>(0, *token->expires_in) * 1000;
    const int64_t margin_ms = std::min<int64_t>(lifetime_ms / 10, 60'000);
    refresh_at_ = Now() + std::chrono::milliseconds(lifetime_ms - margin_ms);
  }
  return Status::OK();
}

Result<std::string> OAuth2Session::AuthorizationHeader() {
  std::lock_guard lock(mutex_);
  const bool expiring = refresh_at_.has_value() && Now() >= *refresh_at_;
  if ((token_.empty() || expiring) && !options_.credential.empty()) FLOE_RETURN_IF_ERROR(FetchLocked());
  if (token_.empty()) return std::string();
  return "Bearer " + token_;
}

bool OAuth2Session::Invalidate(const std::string& rejected) {
  std::lock_guard lock(mutex_);
  if (options_.credential.empty()) return false;
  // Another thread may have fetched a new token already: keep that one.
  if (!token_.empty() && "Bearer " + token_ == rejected) token_.clear();
  return true;
}

}  // namespace floe::catalog
