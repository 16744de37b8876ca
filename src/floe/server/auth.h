// Authentication and authorization of the REST catalog server: OAuth2
// client credentials (spec: POST /v1/oauth/tokens) exchanged for bearer
// tokens that floe signs itself with HMAC-SHA256, carrying an expiry and
// scopes.
//
// Scopes (space-separated in OAuth's "scope"):
//   catalog:admin   everything
//   rw:<ns>         read and write namespace <ns> (dotted), its tables and
//                   everything nested below it; "rw:*" every namespace
//   ro:<ns>         read only, likewise; "ro:*"
// A token request for scope "catalog" (what Java, PyIceberg and Spark send by
// default), "PRINCIPAL_ROLE:ALL" (Polaris's word, in setups copied from it)
// or for no scope gets every scope the client is allowed; asking for a scope
// the client does not hold is refused (invalid_scope).
//
// Grants: client_credentials (client_id / client_secret in the form or an
// "Authorization: Basic" header), and RFC 8693 token exchange of a floe
// token for a fresh one (grant_type
// urn:ietf:params:oauth:grant-type:token-exchange, subject_token,
// subject_token_type access_token), which is how Java clients refresh: a
// live token on its own, an expired one only with its client's credentials.
// An exchanged token keeps the subject and at most the scopes the client
// still holds.
//
// Token: "floe1.<base64url(payload JSON)>.<base64url(HMAC-SHA256)>", the
// payload {"sub": client id, "iat": s, "exp": s, "scope": "..."}. Secrets and
// tokens are never logged, and compared in constant time.
//
// Thread safety: a TokenAuthority is immutable after construction; every
// method may be called from any thread.

#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"

namespace floe::server {

struct ClientCredentials {
  std::string client_id;
  std::string client_secret;
  std::vector<std::string> scopes;  // as above
};

// What a verified token allows.
struct Principal {
  std::string subject;  // the client id ("dev" when auth is off)
  std::vector<std::string> scopes;
  int64_t expires_at_s = 0;

  enum class Access { kRead, kWrite };
  // Whether the scopes allow `access` on namespace `ns` (the root: only
  // catalog:admin may write there; any valid token may read it).
  bool Allows(Access access, const catalog::Namespace& ns) const;
  bool is_admin() const;
};

// An OAuth token request's outcome when refused: RFC 6749 section 5.2's
// error word and the HTTP status (400, or 401 for invalid_client).
struct TokenRefusal {
  std::string error;  // invalid_request, invalid_client, unsupported_grant_type, invalid_scope
  std::string description;
  int http_status = 400;
};

// RFC 8693's grant type.
inline constexpr std::string_view kTokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange";

struct IssuedToken {
  std::string access_token;
  int64_t expires_in_s = 0;
  std::string scope;  // the granted scopes, space-separated
};

class TokenAuthority {
 public:
  // `signing_key` empty: a random 32-byte key (tokens then die with the
  // process). InvalidArgument for a client without id or secret, or with a
  // malformed scope.
  static Result<TokenAuthority> Make(std::vector<ClientCredentials> clients, std::string signing_key,
                                     int64_t token_lifetime_s);

  // The client_credentials or token-exchange grant for the form fields of a
  // token request (grant_type, client_id, client_secret, scope,
  // subject_token, subject_token_type); `basic_auth` is an "Authorization:
  // Basic ..." header's value, which may carry the id and secret instead.
  // `now_s`: seconds since the epoch.
  std::variant<IssuedToken, TokenRefusal> Issue(const std::map<std::string, std::string>& form,
                                                std::string_view basic_auth, int64_t now_s) const;

  // Checks a bearer token. PermissionDenied "token is malformed" / "token
  // signature does not match" / "token expired ..." (the server answers 401
  // for the first two and 419 for the last; see IsExpiredTokenError).
  Result<Principal> Verify(std::string_view token, int64_t now_s) const;

  // A signed token for `subject` with `scopes` (for tests and tools).
  std::string Sign(const std::string& subject, const std::vector<std::string>& scopes, int64_t issued_at_s,
                   int64_t expires_at_s) const;

  int64_t token_lifetime_s() const { return token_lifetime_s_; }

 private:
  // Checks the signature and reads the payload, expired or not.
  Result<Principal> Decode(std::string_view token) const;
  // The token-exchange grant; `client` is the authenticated client, if the
  // request carried credentials.
  std::variant<IssuedToken, TokenRefusal> Exchange(const std::map<std::string, std::string>& form,
                                                   const ClientCredentials* client, int64_t now_s) const;

  TokenAuthority(std::vector<ClientCredentials> clients, std::string key, int64_t lifetime)
      : clients_(std::move(clients)), key_(std::move(key)), token_lifetime_s_(lifetime) {}

  std::vector<ClientCredentials> clients_;
  std::string key_;
  int64_t token_lifetime_s_;
};

// Whether a Verify error is the expiry one.
bool IsExpiredTokenError(const Status& status);

// InvalidArgument unless `scope` is one of the forms above.
Status ValidateScope(std::string_view scope);

}  // namespace floe::server
