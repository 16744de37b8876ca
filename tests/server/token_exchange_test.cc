// TokenAuthority's token-exchange grant (RFC 8693), the way Java's REST
// client refreshes its token, and the scope words clients send by default.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "floe/server/auth.h"

namespace floe::server {
namespace {

constexpr int64_t kNow = 1'700'000'000;
const std::string kAccessTokenType = "urn:ietf:params:oauth:token-type:access_token";

TokenAuthority Authority() {
  return TokenAuthority::Make({{"spark", "s3cret", {"rw:shop", "ro:*"}}, {"other", "0ther", {"catalog:admin"}}},
                              std::string(40, 'k'), 3600)
      .value();
}

std::map<std::string, std::string> ExchangeForm(const std::string& token, const std::string& scope = "catalog") {
  return {{"grant_type", std::string(kTokenExchangeGrant)},
          {"subject_token", token},
          {"subject_token_type", kAccessTokenType},
          {"scope", scope}};
}

TEST(TokenExchange, RenewsALiveTokenWithItsSubjectAndScopes) {
  const TokenAuthority authority = Authority();
  const std::string token = authority.Sign("spark", {"rw:shop", "ro:*"}, kNow - 10, kNow + 50);
  auto outcome = authority.Issue(ExchangeForm(token), "Bearer " + token, kNow);
  ASSERT_TRUE(std::holds_alternative<IssuedToken>(outcome)) << std::get<TokenRefusal>(outcome).description;
  const auto& issued = std::get<IssuedToken>(outcome);
  EXPECT_EQ(issued.scope, "rw:shop ro:*");
  EXPECT_EQ(issued.expires_in_s, 3600);
  auto principal = authority.Verify(issued.access_token, kNow + 3000);  // past the old token's expiry
  ASSERT_TRUE(principal.ok()) << principal.status().ToString();
  EXPECT_EQ(principal->subject, "spark");
  EXPECT_EQ(principal->expires_at_s, kNow + 3600);
}

TEST(TokenExchange, NarrowsButNeverWidens) {
  const TokenAuthority authority = Authority();
  const std::string token = authority.Sign("spark", {"ro:*"}, kNow, kNow + 50);
  auto narrowed = authority.Issue(ExchangeForm(token, "ro:*"), "", kNow);
  ASSERT_TRUE(std::holds_alternative<IssuedToken>(narrowed));
  EXPECT_EQ(std::get<IssuedToken>(narrowed).scope, "ro:*");
  // rw:shop is the client's, but not the subject token's.
  auto widened = authority.Issue(ExchangeForm(token, "rw:shop"), "", kNow);
  ASSERT_TRUE(std::holds_alternative<TokenRefusal>(widened));
  EXPECT_EQ(std::get<TokenRefusal>(widened).error, "invalid_scope");
  // A scope the client no longer holds is dropped on renewal.
  const std::string old = authority.Sign("spark", {"catalog:admin", "ro:*"}, kNow, kNow + 50);
  auto renewed = authority.Issue(ExchangeForm(old), "", kNow);
  ASSERT_TRUE(std::holds_alternative<IssuedToken>(renewed));
  EXPECT_EQ(std::get<IssuedToken>(renewed).scope, "ro:*");
}

TEST(TokenExchange, AnExpiredTokenNeedsItsClientsCredentials) {
  const TokenAuthority authority = Authority();
  const std::string expired = authority.Sign("spark", {"rw:shop"}, kNow - 100, kNow - 1);
  auto alone = authority.Issue(ExchangeForm(expired), "Bearer " + expired, kNow);
  ASSERT_TRUE(std::holds_alternative<TokenRefusal>(alone));
  EXPECT_EQ(std::get<TokenRefusal>(alone).error, "invalid_grant");
  EXPECT_EQ(std::get<TokenRefusal>(alone).http_status, 400);
  // Java sends the credential as Basic auth when its token ran out.
  auto with_basic = authority.Issue(ExchangeForm(expired), "Basic c3Bhcms6czNjcmV0", kNow);  // spark:s3cret
  ASSERT_TRUE(std::holds_alternative<IssuedToken>(with_basic)) << std::get<TokenRefusal>(with_basic).description;
  EXPECT_EQ(std::get<IssuedToken>(with_basic).scope, "rw:shop");
  // Another client's credentials do not revive it.
  auto form = ExchangeForm(expired);
  form["client_id"] = "other";
  form["client_secret"] = "0ther";
  auto foreign = authority.Issue(form, "", kNow);
  ASSERT_TRUE(std::holds_alternative<TokenRefusal>(foreign));
  EXPECT_EQ(std::get<TokenRefusal>(foreign).error, "invalid_grant");
  form["client_secret"] = "wrong";
  auto wrong = authority.Issue(form, "", kNow);
  ASSERT_TRUE(std::holds_alternative<TokenRefusal>(wrong));
  EXPECT_EQ(std::get<TokenRefusal>(wrong).error, "invalid_client");
  EXPECT_EQ(std::get<TokenRefusal>(wrong).http_status, 401);
}

TEST(TokenExchange, RefusesForeignAndMalformedSubjects) {
  const TokenAuthority authority = Authority();
  const TokenAuthority stranger =
      TokenAuthority::Make({{"spark", "s3cret", {"rw:shop"}}}, std::string(40, 'z'), 3600).value();
  const std::string foreign = stranger.Sign("spark", {"rw:shop"}, kNow, kNow + 50);
  for (const std::string& subject : {foreign, std::string("floe1.e30.AAAA"), std::string("not-a-token")}) {
    auto outcome = authority.Issue(ExchangeForm(subject), "", kNow);
    ASSERT_TRUE(std::holds_alternative<TokenRefusal>(outcome)) << subject;
    EXPECT_EQ(std::get<TokenRefusal>(outcome).error, "invalid_grant") << subject;
  }
  auto form = ExchangeForm(authority.Sign("spark", {"rw:shop"}, kNow, kNow + 50));
  form["subject_token_type"] = "urn:ietf:params:oauth:token-type:id_token";
  auto id_token = authority.Issue(form, "", kNow);
  ASSERT_TRUE(std::holds_alternative<TokenRefusal>(id_token));
  EXPECT_EQ(std::get<TokenRefusal>(id_token).error, "invalid_request");
  form.erase("subject_token");
  EXPECT_EQ(std::get<TokenRefusal>(authority.Issue(form, "", kNow)).error, "invalid_request");
}

TEST(TokenScopes, PolarisDefaultScopeAsksForEverythingHeld) {
  const TokenAuthority authority = Authority();
  auto outcome = authority.Issue(
      {{"grant_type", "client_credentials"}, {"scope", "PRINCIPAL_ROLE:ALL"}}, "Basic c3Bhcms6czNjcmV0", kNow);
  ASSERT_TRUE(std::holds_alternative<IssuedToken>(outcome)) << std::get<TokenRefusal>(outcome).description;
  EXPECT_EQ(std::get<IssuedToken>(outcome).scope, "rw:shop ro:*");
}

}  // namespace
}  // namespace floe::server
