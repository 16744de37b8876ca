// POST /v1/oauth/tokens: the client_credentials grant (auth.h).

#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_path.h"
#include "floe/server/handlers.h"

namespace floe::server {

namespace {

RestResponse OAuthErrorResponse(int status, std::string error, std::string description) {
  return JsonResponse(status, catalog::rest::ToJson(catalog::rest::OAuthError{std::move(error), std::move(description)}));
}

}  // namespace

RestResponse IssueToken(ServerState& state, const RestRequest& request) {
  auto form = catalog::rest::ParseForm(request.body);
  if (!form.ok()) return OAuthErrorResponse(400, "invalid_request", form.status().message());
  if (state.auth == nullptr) {
    // --insecure-dev: any caller gets a token (which nobody checks), so
    // clients configured with credentials still work.
    catalog::rest::OAuthTokenResponse dev{"insecure-dev-token", "bearer", 3600,
                                          "urn:ietf:params:oauth:token-type:access_token", std::nullopt,
                                          "catalog:admin"};
    return JsonResponse(200, catalog::rest::ToJson(dev));
  }
  auto outcome = state.auth->Issue(*form, request.Header("authorization"), NowSeconds());
  if (auto* refusal = std::get_if<TokenRefusal>(&outcome)) {
    return OAuthErrorResponse(refusal->http_status, refusal->error, refusal->description);
  }
  const auto& issued = std::get<IssuedToken>(outcome);
  catalog::rest::OAuthTokenResponse response{issued.access_token, "bearer", issued.expires_in_s,
                                             "urn:ietf:params:oauth:token-type:access_token", std::nullopt,
                                             issued.scope};
  return JsonResponse(200, catalog::rest::ToJson(response));
}

}  // namespace floe::server
