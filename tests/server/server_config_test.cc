// The `floe serve --config FILE` document: every member lands in the
// server's options, and a typo or a wrong type is refused naming the member.

#include "floe/server/server_config.h"

#include <gtest/gtest.h>

namespace floe::server {
namespace {

TEST(ServerConfig, EveryMemberLandsInTheOptions) {
  RestServerOptions options;
  auto settings = ApplyServerConfig(R"({
      "host": "0.0.0.0", "port": 9001, "prefix": "floe",
      "catalog": "sqlite:/data/catalog.db", "warehouse": "s3://bucket/wh",
      "signing-key": "0123456789abcdef0123456789abcdef",
      "token-lifetime-seconds": 600, "max-body-bytes": 1024, "request-timeout-seconds": 5,
      "worker-threads": 4, "idempotency-key-lifetime-seconds": 60, "max-page-size": 10,
      "allowed-locations": ["s3://other/tables"],
      "table-config": {"s3.endpoint": "https://s3.example.com", "s3.path-style-access": "true"},
      "clients": [{"client-id": "spark", "client-secret": "s3cret", "scopes": ["rw:shop", "ro:*"]}]})",
                                    &options);
  ASSERT_TRUE(settings.ok()) << settings.status().ToString();
  EXPECT_EQ(settings->catalog, "sqlite:/data/catalog.db");
  EXPECT_EQ(settings->warehouse, "s3://bucket/wh");
  EXPECT_EQ(options.host, "0.0.0.0");
  EXPECT_EQ(options.port, 9001);
  EXPECT_EQ(options.prefix, "floe");
  EXPECT_EQ(options.token_lifetime_s, 600);
  EXPECT_EQ(options.max_body_bytes, 1024u);
  EXPECT_EQ(options.request_timeout_s, 5);
  EXPECT_EQ(options.worker_threads, 4u);
  EXPECT_EQ(options.idempotency_lifetime_s, 60);
  EXPECT_EQ(options.max_page_size, 10u);
  EXPECT_EQ(options.allowed_locations, std::vector<std::string>{"s3://other/tables"});
  EXPECT_EQ(options.table_config, (catalog::Properties{{"s3.endpoint", "https://s3.example.com"},
                                                       {"s3.path-style-access", "true"}}));
  ASSERT_EQ(options.clients.size(), 1u);
  EXPECT_EQ(options.clients[0].client_id, "spark");
  EXPECT_EQ(options.clients[0].scopes, (std::vector<std::string>{"rw:shop", "ro:*"}));
}

TEST(ServerConfig, MistakesAreRefusedNamingTheMemberAndChangeNothing) {
  struct Case {
    const char* json;
    const char* named;
  };
  for (const Case& c : {Case{R"({"worker-thread": 4})", "worker-thread"},
                        Case{R"({"port": 70000})", "port"},
                        Case{R"({"max-page-size": 0})", "max-page-size"},
                        Case{R"({"signing-key": "short"})", "signing-key"},
                        Case{R"({"table-config": {"s3.endpoint": 9000}})", "table-config"},
                        Case{R"({"table-config": ["s3.endpoint"]})", "table-config"},
                        Case{R"({"allowed-locations": [""]})", "allowed-locations"},
                        Case{R"({"clients": [{"client-id": "x", "client-secret": "y", "scopes": ["bogus"]}]})",
                             "clients[0].scopes"},
                        Case{"{", "not valid JSON"}}) {
    RestServerOptions options;
    options.port = 1234;
    auto settings = ApplyServerConfig(c.json, &options);
    ASSERT_FALSE(settings.ok()) << c.json;
    EXPECT_TRUE(settings.status().IsInvalidArgument()) << settings.status().ToString();
    EXPECT_NE(settings.status().message().find(c.named), std::string::npos) << settings.status().ToString();
    EXPECT_EQ(options.port, 1234) << c.json;
    EXPECT_TRUE(options.table_config.empty()) << c.json;
  }
}

}  // namespace
}  // namespace floe::server
