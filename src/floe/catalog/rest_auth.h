// The REST catalog client's credentials (spec: rest-catalog-open-api.yaml,
// securitySchemes OAuth2 and BearerAuth; POST /v1/oauth/tokens):
//
//   OAuth2Session — the OAuth2 client_credentials grant: posts
//     grant_type=client_credentials, client_id, client_secret and scope as a
//     form to the token endpoint, and sends "Bearer <access_token>". The
//     token is fetched on first use, fetched again shortly before it expires
//     (expires_in minus a tenth of it, at most a minute) and after the server
//     answers 401. A fixed token (FLOE_REST_TOKEN, or `token` in code) is used
//     as given and cannot be refreshed.
//
// Secrets are never part of a message: errors name the endpoint and the
// OAuth error code and description the server gave, nothing else.
//
// Thread safety: thread-safe; one fetch at a time, others wait for its token.

#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "floe/catalog/rest_http.h"

namespace floe::catalog {

struct OAuth2Options {
  // "client_id:client_secret", or a secret alone (client id then empty).
  std::string credential;
  // A bearer token to send as it is; wins over `credential` for requests
  // (the credential is then used only after a 401).
  std::string token;
  std::string scope = "catalog";
  // The token endpoint, a path below the RestHttp's base ("v1/oauth/tokens").
  std::string token_path = "v1/oauth/tokens";
  // The clock; tests replace it.
  std::function<std::chrono::steady_clock::time_point()> now;
};

class OAuth2Session final : public AuthSession {
 public:
  // `token_http` reaches the token endpoint; it has no session of its own
  // and is not the RestHttp this session is set on (that would be a cycle).
  OAuth2Session(std::shared_ptr<RestHttp> token_http, OAuth2Options options);

  // "Bearer <token>", fetching one when there is none or it is about to
  // expire; "" when there is neither a token nor a credential.
  // PermissionDenied "REST catalog token endpoint http://...: 401
  // invalid_client: ..." when the endpoint refuses; IOError for transport
  // failures; Corrupt for a malformed token response.
  Result<std::string> AuthorizationHeader() override;
  bool Invalidate(const std::string& rejected) override;

  // How many tokens were fetched so far (for tests and tracing).
  int fetches() const;

 private:
  std::chrono::steady_clock::time_point Now() const;
  Status FetchLocked();

  std::shared_ptr<RestHttp> token_http_;
  OAuth2Options options_;
  mutable std::mutex mutex_;
  std::string token_;  // guarded by mutex_
  std::optional<std::chrono::steady_clock::time_point> refresh_at_;  // guarded by mutex_
  int fetches_ = 0;                                                   // guarded by mutex_
};

}  // namespace floe::catalog
