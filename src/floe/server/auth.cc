#include "floe/server/auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <simdjson.h>

#include <algorithm>
#include <optional>

#include "floe/base/base64.h"
#include "floe/base/json_parse.h"
#include "floe/base/json_writer.h"
#include "floe/base/strings.h"

namespace floe::server {

namespace {

constexpr std::string_view kTokenPrefix = "floe1.";
constexpr std::string_view kAdminScope = "catalog:admin";

std::string HmacSha256(const std::string& key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &len);
  return std::string(reinterpret_cast<const char*>(out), len);
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  if (a.empty()) return true;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

// Whether namespace `ns` is `scope_ns` or nested below it.
bool Within(const catalog::Namespace& ns, std::string_view scope_ns) {
  if (scope_ns == "*") return true;
  auto parsed = catalog::Namespace::Parse(scope_ns);
  if (!parsed.ok() || parsed->levels.size() > ns.levels.size()) return false;
  return std::equal(parsed->levels.begin(), parsed->levels.end(), ns.levels.begin());
}

std::vector<std::string> SplitScopes(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view part : Split(text, ' ')) {
    if (!part.empty()) out.emplace_back(part);
  }
  return out;
}

std::string JoinScopes(const std::vector<std::string>& scopes) {
  std::string out;
  for (const auto& s : scopes) {
    if (!out.empty()) out += ' ';
    out += s;
  }
  return out;
}

}  // namespace

Status ValidateScope(std::string_view scope) {
  if (scope == kAdminScope) return Status::OK();
  for (std::string_view prefix : {"rw:", "ro:"}) {
    if (StartsWith(scope, prefix)) {
      std::string_view ns = scope.substr(prefix.size());
      if (ns == "*") return Status::OK();
      auto parsed = catalog::Namespace::Parse(ns);
      if (parsed.ok() && !parsed->empty()) return Status::OK();
      return Status::InvalidArgument(StrCat("scope ", Quote(scope), ": ", Quote(ns), " is not a namespace"));
    }
  }
  return Status::InvalidArgument(StrCat("scope ", Quote(scope), " is not catalog:admin, rw:<namespace> or ro:<namespace>"));
}

bool IsExpiredTokenError(const Status& status) {
  return status.IsPermissionDenied() && StartsWith(status.message(), "token expired");
}

bool Principal::is_admin() const { return std::find(scopes.begin(), scopes.end(), kAdminScope) != scopes.end(); }

bool Principal::Allows(Access access, const catalog::Namespace& ns) const {
  if (is_admin()) return true;
  if (ns.empty()) return access == Access::kRead;
  for (const std::string& scope : scopes) {
    if (StartsWith(scope, "rw:") && Within(ns, std::string_view(scope).substr(3))) return true;
    if (access == Access::kRead && StartsWith(scope, "ro:") && Within(ns, std::string_view(scope).substr(3))) {
      return true;
    }
  }
  return false;
}

Result<TokenAuthority> TokenAuthority::Make(std::vector<ClientCredentials> clients, std::string signing_key,
                                            int64_t token_lifetime_s) {
  for (const auto& c : clients) {
    if (c.client_id.empty() || c.client_secret.empty()) {
      return Status::InvalidArgument(StrCat("client ", Quote(c.client_id), ": id and secret must be non-empty"));
    }
    for (const auto& scope : c.scopes) {
      FLOE_RETURN_IF_ERROR(ValidateScope(scope).WithContext(StrCat("client ", Quote(c.client_id))));
    }
  }
  if (token_lifetime_s <= 0) {
    return Status::InvalidArgument(StrCat("token lifetime ", token_lifetime_s, "s: expected a positive number"));
  }
  if (signing_key.empty()) {
    signing_key.resize(32);
    if (RAND_bytes(reinterpret_cast<unsigned char*>(signing_key.data()), 32) != 1) {
      return Status::Internal("OpenSSL RAND_bytes failed to make a token signing key");
    }
  }
  return TokenAuthority(std::move(clients), std::move(signing_key), token_lifetime_s);
}

std::string TokenAuthority::Sign(const std::string& subject, const std::vector<std::string>& scopes,
                                 int64_t issued_at_s, int64_t expires_at_s) const {
  JsonWriter w;
  w.BeginObject();
  w.Member("sub", subject);
  w.Member("iat", issued_at_s);
  w.Member("exp", expires_at_s);
  w.Member("scope", JoinScopes(scopes));
  w.EndObject();
  const std::string body = StrCat(kTokenPrefix, Base64UrlEncode(w.Take()));
  return StrCat(body, ".", Base64UrlEncode(HmacSha256(key_, body)));
}

Result<Principal> TokenAuthority::Verify(std::string_view token, int64_t now_s) const {
  FLOE_ASSIGN_OR_RETURN(Principal principal, Decode(token));
  if (principal.expires_at_s <= now_s) {
    return Status::PermissionDenied(StrCat("token expired ", now_s - principal.expires_at_s, "s ago"));
  }
  return principal;
}

Result<Principal> TokenAuthority::Decode(std::string_view token) const {
  const Status malformed = Status::PermissionDenied("token is malformed");
  if (!StartsWith(token, kTokenPrefix)) return malformed;
  const size_t dot = token.rfind('.');
  if (dot == std::string_view::npos || dot < kTokenPrefix.size()) return malformed;
  const std::string_view body = token.substr(0, dot);
  auto signature = Base64Decode(token.substr(dot + 1));
  if (!signature.ok()) return malformed;
  if (!ConstantTimeEquals(*signature, HmacSha256(key_, body))) {
    return Status::PermissionDenied("token signature does not match");
  }
  auto payload = Base64Decode(body.substr(kTokenPrefix.size()));
  if (!payload.ok()) return malformed;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (ParseJson(parser, *payload).get(root) != simdjson::SUCCESS) return malformed;
  std::string_view sub, scope;
  int64_t exp = 0;
  if (root["sub"].get(sub) != simdjson::SUCCESS || root["exp"].get(exp) != simdjson::SUCCESS ||
      root["scope"].get(scope) != simdjson::SUCCESS) {
    return malformed;
  }
  return Principal{std::string(sub), SplitScopes(scope), exp};
}

namespace {

// Scope words that ask for everything the client holds: "catalog" (the
// default of Java, PyIceberg, Spark, Trino and Flink) and Polaris's
// "PRINCIPAL_ROLE:ALL", which setups copied from Polaris send.
bool AsksForEverything(std::string_view scope) { return scope == "catalog" || scope == "PRINCIPAL_ROLE:ALL"; }

// The scopes granted for `requested` out of `held`: all held ones when the
// request names none (or only "everything" words); otherwise exactly the
// named ones, each of which must be held (nullopt names the first that is
// not, in *refused).
std::optional<std::vector<std::string>> GrantScopes(std::string_view requested, const std::vector<std::string>& held,
                                                    std::string* refused) {
  std::vector<std::string> granted;
  for (const std::string& s : SplitScopes(requested)) {
    if (AsksForEverything(s)) continue;
    if (std::find(held.begin(), held.end(), s) == held.end()) {
      *refused = s;
      return std::nullopt;
    }
    granted.push_back(s);
  }
  if (granted.empty()) granted = held;
  return granted;
}

}  // namespace

std::variant<IssuedToken, TokenRefusal> TokenAuthority::Issue(const std::map<std::string, std::string>& form,
                                                              std::string_view basic_auth, int64_t now_s) const {
  auto field = [&](const char* key) -> std::string {
    auto it = form.find(key);
    return it == form.end() ? std::string() : it->second;
  };
  const std::string grant = field("grant_type");
  if (grant.empty()) return TokenRefusal{"invalid_request", "grant_type is missing", 400};
  if (grant != "client_credentials" && grant != kTokenExchangeGrant) {
    return TokenRefusal{"unsupported_grant_type", StrCat("grant_type ", Quote(grant), " is not supported"), 400};
  }
  std::string id = field("client_id");
  std::string secret = field("client_secret");
  if (id.empty() && StartsWith(basic_auth, "Basic ")) {
    auto decoded = Base64Decode(basic_auth.substr(6));
    if (decoded.ok()) {
      const size_t colon = decoded->find(':');
      if (colon != std::string::npos) {
        id = decoded->substr(0, colon);
        secret = decoded->substr(colon + 1);
      }
    }
  }
  const ClientCredentials* client = nullptr;
  if (!id.empty() && !secret.empty()) {
    for (const auto& c : clients_) {
      // Every client and both parts are compared, so the time taken does not
      // tell which ids exist.
      const bool id_matches = ConstantTimeEquals(c.client_id, id);
      const bool secret_matches = ConstantTimeEquals(c.client_secret, secret);
      if (id_matches && secret_matches) client = &c;
    }
    if (client == nullptr) return TokenRefusal{"invalid_client", "unknown client or wrong secret", 401};
  }
  if (grant == kTokenExchangeGrant) return Exchange(form, client, now_s);
  if (client == nullptr) return TokenRefusal{"invalid_request", "client_id and client_secret are required", 400};
  std::string refused;
  auto granted = GrantScopes(field("scope"), client->scopes, &refused);
  if (!granted) {
    return TokenRefusal{"invalid_scope", StrCat("scope ", Quote(refused), " is not granted to this client"), 400};
  }
  const int64_t exp = now_s + token_lifetime_s_;
  return IssuedToken{Sign(client->client_id, *granted, now_s, exp), token_lifetime_s_, JoinScopes(*granted)};
}

std::variant<IssuedToken, TokenRefusal> TokenAuthority::Exchange(const std::map<std::string, std::string>& form,
                                                                 const ClientCredentials* client,
                                                                 int64_t now_s) const {
  auto field = [&](const char* key) -> std::string {
    auto it = form.find(key);
    return it == form.end() ? std::string() : it->second;
  };
  const std::string subject_token = field("subject_token");
  if (subject_token.empty()) return TokenRefusal{"invalid_request", "subject_token is missing", 400};
  const std::string type = field("subject_token_type");
  if (type != "urn:ietf:params:oauth:token-type:access_token" && type != "urn:ietf:params:oauth:token-type:jwt") {
    return TokenRefusal{"invalid_request", StrCat("subject_token_type ", Quote(type), " is not an access token"), 400};
  }
  auto subject = Decode(subject_token);
  if (!subject.ok()) return TokenRefusal{"invalid_grant", std::string(subject.status().message()), 400};
  const ClientCredentials* issued_to = nullptr;
  for (const auto& c : clients_) {
    if (c.client_id == subject->subject) issued_to = &c;
  }
  if (issued_to == nullptr) return TokenRefusal{"invalid_grant", "subject_token's client no longer exists", 400};
  if (client != nullptr && client != issued_to) {
    return TokenRefusal{"invalid_grant", "subject_token was issued to another client", 400};
  }
  // A live token renews itself; an expired one only together with the
  // credentials of the client it was issued to (as Java sends them, in a
  // Basic header, when its token has run out).
  if (subject->expires_at_s <= now_s && client == nullptr) {
    return TokenRefusal{"invalid_grant", "subject_token expired; exchange it with the client's credentials", 400};
  }
  // The client's current scopes bound what an exchange keeps, so a client
  // whose scopes were narrowed cannot renew its way back to the old ones.
  std::vector<std::string> held = subject->scopes;
  std::erase_if(held, [&](const std::string& s) {
    return std::find(issued_to->scopes.begin(), issued_to->scopes.end(), s) == issued_to->scopes.end();
  });
  std::string refused;
  auto granted = GrantScopes(field("scope"), held, &refused);
  if (!granted) {
    return TokenRefusal{"invalid_scope", StrCat("scope ", Quote(refused), " is not held by the subject token"), 400};
  }
  if (granted->empty()) return TokenRefusal{"invalid_grant", "subject_token holds no scope this client still has", 400};
  const int64_t exp = now_s + token_lifetime_s_;
  return IssuedToken{Sign(subject->subject, *granted, now_s, exp), token_lifetime_s_, JoinScopes(*granted)};
}

}  // namespace floe::server
