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
// default) or for no scope gets every scope the client is allowed; asking for
// a scope the client does not hold is refused (invalid_scope).
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

  // The client_credentials grant for the form fields of a token request
  // (grant_type, client_id, client_secret, scope); `basic_auth` is an
  // "Authorization: Basic ..." header's value, which may carry the id and
  // secret instead. `now_s`: seconds since the epoch.
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

// Base64url without padding (RFC 4648 section 5), and its inverse
// (InvalidArgument for other characters).
std::string Base64UrlEncode(std::string_view bytes);
Result<std::string> Base64UrlDecode(std::string_view text);

}  // namespace floe::server
