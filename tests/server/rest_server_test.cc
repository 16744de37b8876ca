// The REST catalog server in-process on a free port, called over plain
// HTTP: the spec's routes, their success answers and their error answers.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/iceberg/metadata_io.h"
#include "server/rest_server_test_util.h"

namespace floe::server {
namespace {

using catalog::testing::Ident;
using catalog::testing::Ns;
using testing::CreateTableBody;
using testing::ErrorType;
using testing::ServerFixture;

TEST(RestServer, ConfigAnnouncesEndpointsAndIdempotency) {
  ServerFixture f;
  auto r = f.http().Get("/v1/config");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  auto config = catalog::rest::ParseCatalogConfig(r->body);
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->idempotency_key_lifetime, "PT30M");
  EXPECT_NE(std::find(config->endpoints.begin(), config->endpoints.end(), "POST /v1/{prefix}/transactions/commit"),
            config->endpoints.end());
  EXPECT_EQ(config->defaults.at("warehouse"), f.warehouse());
}

TEST(RestServer, NamespaceLifecycle) {
  ServerFixture f;
  auto created = f.Post("/v1/namespaces", R"({"namespace":["shop"],"properties":{"owner":"ann"}})");
  ASSERT_TRUE(created);
  EXPECT_EQ(created->status, 200) << created->body;
  EXPECT_EQ(catalog::rest::ParseNamespaceMessage(created->body).value().properties.at("owner"), "ann");
  auto again = f.Post("/v1/namespaces", R"({"namespace":["shop"]})");
  EXPECT_EQ(again->status, 409);
  EXPECT_EQ(ErrorType(again), "AlreadyExistsException");
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop","eu"]})")->status, 200);
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop","us"]})")->status, 200);

  auto loaded = f.http().Get("/v1/namespaces/shop");
  EXPECT_EQ(loaded->status, 200);
  EXPECT_EQ(catalog::rest::ParseNamespaceMessage(loaded->body).value().ns, Ns("shop"));
  EXPECT_EQ(f.http().Head("/v1/namespaces/shop%1Feu")->status, 204);
  EXPECT_EQ(f.http().Head("/v1/namespaces/nope")->status, 404);
  auto missing = f.http().Get("/v1/namespaces/nope");
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(ErrorType(missing), "NoSuchNamespaceException");

  auto top = catalog::rest::ParseListNamespacesResponse(f.http().Get("/v1/namespaces")->body).value();
  EXPECT_EQ(top.namespaces, std::vector<catalog::Namespace>{Ns("shop")});
  auto nested = catalog::rest::ParseListNamespacesResponse(f.http().Get("/v1/namespaces?parent=shop")->body).value();
  EXPECT_EQ(nested.namespaces, (std::vector<catalog::Namespace>{Ns("shop.eu"), Ns("shop.us")}));
  // Pages of one: a token, then the last page.
  auto first = f.http().Get("/v1/namespaces?parent=shop&pageToken=&pageSize=1");
  auto page1 = catalog::rest::ParseListNamespacesResponse(first->body).value();
  ASSERT_EQ(page1.namespaces.size(), 1u);
  ASSERT_TRUE(page1.next_page_token.has_value());
  auto second = f.http().Get(("/v1/namespaces?parent=shop&pageSize=1&pageToken=" + *page1.next_page_token).c_str());
  auto page2 = catalog::rest::ParseListNamespacesResponse(second->body).value();
  EXPECT_EQ(page2.namespaces, std::vector<catalog::Namespace>{Ns("shop.us")});
  // The last page says so with a null token.
  EXPECT_FALSE(page2.next_page_token.has_value());
  EXPECT_EQ(f.http().Get("/v1/namespaces?parent=shop&pageToken=zz")->status, 400);

  auto props = f.Post("/v1/namespaces/shop/properties", R"({"removals":["owner","ghost"],"updates":{"tier":"gold"}})");
  ASSERT_EQ(props->status, 200) << props->body;
  auto update = catalog::rest::ParseUpdateNamespacePropertiesResponse(props->body).value();
  EXPECT_EQ(update.updated, std::vector<std::string>{"tier"});
  EXPECT_EQ(update.removed, std::vector<std::string>{"owner"});
  EXPECT_EQ(update.missing, std::vector<std::string>{"ghost"});
  auto both = f.Post("/v1/namespaces/shop/properties", R"({"removals":["a"],"updates":{"a":"1"}})");
  EXPECT_EQ(both->status, 422);

  auto not_empty = f.http().Delete("/v1/namespaces/shop");
  EXPECT_EQ(not_empty->status, 409);
  EXPECT_EQ(ErrorType(not_empty), "NamespaceNotEmptyException");
  EXPECT_EQ(f.http().Delete("/v1/namespaces/shop%1Feu")->status, 204);
  EXPECT_EQ(f.http().Delete("/v1/namespaces/shop%1Feu")->status, 404);
}

TEST(RestServer, TableLifecycleWithETagsCommitsAndErrors) {
  ServerFixture f;
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})")->status, 200);
  auto created = f.Post("/v1/namespaces/shop/tables", CreateTableBody("orders"));
  ASSERT_TRUE(created);
  ASSERT_EQ(created->status, 200) << created->body;
  auto result = catalog::rest::ParseLoadTableResult(created->body).value();
  ASSERT_TRUE(result.metadata_location.has_value());
  EXPECT_EQ(result.metadata.location, f.warehouse() + "/shop/orders");
  EXPECT_FALSE(created->get_header_value("ETag").empty());
  EXPECT_EQ(f.Post("/v1/namespaces/shop/tables", CreateTableBody("orders"))->status, 409);
  EXPECT_EQ(ErrorType(f.Post("/v1/namespaces/nope/tables", CreateTableBody("t"))), "NoSuchNamespaceException");

  auto loaded = f.http().Get("/v1/namespaces/shop/tables/orders");
  ASSERT_EQ(loaded->status, 200);
  const std::string etag = loaded->get_header_value("ETag");
  ASSERT_FALSE(etag.empty());
  auto unchanged = f.http().Get("/v1/namespaces/shop/tables/orders", {{"If-None-Match", etag}});
  EXPECT_EQ(unchanged->status, 304);
  EXPECT_TRUE(unchanged->body.empty());
  EXPECT_EQ(f.http().Get("/v1/namespaces/shop/tables/orders?snapshots=refs")->status, 200);
  EXPECT_EQ(f.http().Get("/v1/namespaces/shop/tables/orders?snapshots=some")->status, 400);
  EXPECT_EQ(f.http().Head("/v1/namespaces/shop/tables/orders")->status, 204);
  EXPECT_EQ(f.http().Head("/v1/namespaces/shop/tables/nope")->status, 404);

  const std::string uuid = result.metadata.table_uuid;
  auto commit = f.Post("/v1/namespaces/shop/tables/orders",
                       R"({"requirements":[{"type":"assert-table-uuid","uuid":")" + uuid +
                           R"("}],"updates":[{"action":"set-properties","updates":{"k":"v"}}]})");
  ASSERT_EQ(commit->status, 200) << commit->body;
  auto committed = catalog::rest::ParseCommitTableResponse(commit->body).value();
  EXPECT_EQ(committed.metadata.properties.at("k"), "v");
  EXPECT_NE(committed.metadata_location, *result.metadata_location);
  // The old ETag no longer matches.
  EXPECT_EQ(f.http().Get("/v1/namespaces/shop/tables/orders", {{"If-None-Match", etag}})->status, 200);

  auto conflict = f.Post("/v1/namespaces/shop/tables/orders",
                         R"({"requirements":[{"type":"assert-table-uuid","uuid":"not-it"}],"updates":[]})");
  EXPECT_EQ(conflict->status, 409);
  EXPECT_EQ(ErrorType(conflict), "CommitFailedException");
  auto unknown = f.Post("/v1/namespaces/shop/tables/orders", R"({"requirements":[],"updates":[{"action":"nope"}]})");
  EXPECT_EQ(unknown->status, 400);
  EXPECT_EQ(ErrorType(unknown), "BadRequestException");
  EXPECT_NE(unknown->body.find("updates[0].action"), std::string::npos) << unknown->body;
  EXPECT_EQ(ErrorType(f.Post("/v1/namespaces/shop/tables/orders", "{not json")), "BadRequestException");
  EXPECT_EQ(ErrorType(f.Post("/v1/namespaces/shop/tables/orders", R"({"requirements":{},"updates":[]})")),
            "BadRequestException");
  EXPECT_EQ(ErrorType(f.Post("/v1/namespaces/shop/tables/ghost", R"({"requirements":[],"updates":[]})")),
            "NoSuchTableException");

  auto tables = catalog::rest::ParseListTablesResponse(f.http().Get("/v1/namespaces/shop/tables")->body).value();
  EXPECT_EQ(tables.identifiers, std::vector<catalog::TableIdentifier>{Ident("shop.orders")});

  auto renamed = f.Post("/v1/tables/rename", R"({"source":{"namespace":["shop"],"name":"orders"},)"
                                             R"("destination":{"namespace":["shop"],"name":"orders2"}})");
  EXPECT_EQ(renamed->status, 204) << renamed->body;
  EXPECT_EQ(ErrorType(f.Post("/v1/tables/rename", R"({"source":{"namespace":["shop"],"name":"orders"},)"
                                                  R"("destination":{"namespace":["shop"],"name":"x"}})")),
            "NoSuchTableException");

  auto metrics = f.Post("/v1/namespaces/shop/tables/orders2/metrics",
                        R"({"report-type":"commit-report","table-name":"shop.orders2","snapshot-id":1,)"
                        R"("sequence-number":1,"operation":"append","metrics":{}})");
  EXPECT_EQ(metrics->status, 204) << metrics->body;

  EXPECT_EQ(f.http().Delete("/v1/namespaces/shop/tables/orders2?purgeRequested=true")->status, 204);
  auto gone = f.http().Get("/v1/namespaces/shop/tables/orders2");
  EXPECT_EQ(gone->status, 404);
  EXPECT_EQ(ErrorType(gone), "NoSuchTableException");
  EXPECT_EQ(ErrorType(f.http().Get("/v1/nothing/here")), "BadRequestException");
  EXPECT_EQ(f.http().Put("/v1/namespaces", "{}", "application/json")->status, 405);
}

TEST(RestServer, StageCreateThenCreateTransaction) {
  ServerFixture f;
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})")->status, 200);
  auto staged = f.Post("/v1/namespaces/shop/tables", CreateTableBody("staged", R"(,"stage-create":true)"));
  ASSERT_EQ(staged->status, 200) << staged->body;
  auto result = catalog::rest::ParseLoadTableResult(staged->body).value();
  EXPECT_FALSE(result.metadata_location.has_value());
  EXPECT_EQ(f.http().Head("/v1/namespaces/shop/tables/staged")->status, 404);
  // The create transaction: assert-create plus the updates that build the table.
  catalog::rest::CommitTableRequest create;
  create.requirements = {iceberg::AssertCreate{}};
  create.updates = {iceberg::AssignUuid{result.metadata.table_uuid},
                    iceberg::UpgradeFormatVersion{2},
                    iceberg::AddSchema{result.metadata.schemas[0]},
                    iceberg::SetCurrentSchema{-1},
                    iceberg::AddPartitionSpec{result.metadata.partition_specs[0]},
                    iceberg::SetDefaultSpec{-1},
                    iceberg::AddSortOrder{result.metadata.sort_orders[0]},
                    iceberg::SetDefaultSortOrder{-1},
                    iceberg::SetLocation{result.metadata.location},
                    iceberg::SetProperties{{{"created", "by-transaction"}}}};
  auto committed = f.Post("/v1/namespaces/shop/tables/staged", catalog::rest::ToJson(create));
  ASSERT_EQ(committed->status, 200) << committed->body;
  EXPECT_EQ(f.http().Head("/v1/namespaces/shop/tables/staged")->status, 204);
  auto state = f.catalog().LoadTable(Ident("shop.staged"));
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->metadata->properties.at("created"), "by-transaction");
  // A second create transaction for the same name fails the requirement.
  EXPECT_EQ(f.Post("/v1/namespaces/shop/tables/staged", catalog::rest::ToJson(create))->status, 409);
}

TEST(RestServer, TransactionCommitsAllTablesOrNone) {
  ServerFixture f;
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["a"]})")->status, 200);
  ASSERT_EQ(f.Post("/v1/namespaces/a/tables", CreateTableBody("t1"))->status, 200);
  ASSERT_EQ(f.Post("/v1/namespaces/a/tables", CreateTableBody("t2"))->status, 200);
  const std::string before1 = f.catalog().LoadTable(Ident("a.t1")).value().metadata_location;
  const std::string before2 = f.catalog().LoadTable(Ident("a.t2")).value().metadata_location;

  auto failing = f.Post("/v1/transactions/commit",
                        R"({"table-changes":[)"
                        R"({"identifier":{"namespace":["a"],"name":"t1"},"requirements":[],)"
                        R"("updates":[{"action":"set-properties","updates":{"x":"1"}}]},)"
                        R"({"identifier":{"namespace":["a"],"name":"t2"},)"
                        R"("requirements":[{"type":"assert-current-schema-id","current-schema-id":7}],)"
                        R"("updates":[{"action":"set-properties","updates":{"x":"2"}}]}]})");
  EXPECT_EQ(failing->status, 409);
  EXPECT_EQ(ErrorType(failing), "CommitFailedException");
  EXPECT_EQ(f.catalog().LoadTable(Ident("a.t1")).value().metadata_location, before1);
  EXPECT_EQ(f.catalog().LoadTable(Ident("a.t2")).value().metadata_location, before2);

  auto ok = f.Post("/v1/transactions/commit",
                   R"({"table-changes":[)"
                   R"({"identifier":{"namespace":["a"],"name":"t1"},"requirements":[],)"
                   R"("updates":[{"action":"set-properties","updates":{"x":"1"}}]},)"
                   R"({"identifier":{"namespace":["a"],"name":"t2"},)"
                   R"("requirements":[{"type":"assert-current-schema-id","current-schema-id":0}],)"
                   R"("updates":[{"action":"set-properties","updates":{"x":"2"}}]}]})");
  EXPECT_EQ(ok->status, 204) << ok->body;
  EXPECT_EQ(f.catalog().LoadTable(Ident("a.t1")).value().metadata->properties.at("x"), "1");
  EXPECT_EQ(f.catalog().LoadTable(Ident("a.t2")).value().metadata->properties.at("x"), "2");
  auto twice = f.Post("/v1/transactions/commit",
                      R"({"table-changes":[{"identifier":{"namespace":["a"],"name":"t1"},"requirements":[],"updates":[]},)"
                      R"({"identifier":{"namespace":["a"],"name":"t1"},"requirements":[],"updates":[]}]})");
  EXPECT_EQ(twice->status, 400);
  EXPECT_EQ(ErrorType(f.Post("/v1/transactions/commit", R"({"table-changes":[{"requirements":[],"updates":[]}]})")),
            "BadRequestException");
}

TEST(RestServer, LocationsStayInsideTheWarehouse) {
  ServerFixture f;
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})")->status, 200);
  auto outside = f.Post("/v1/namespaces/shop/tables", CreateTableBody("t", R"(,"location":"/etc/floe")"));
  EXPECT_EQ(outside->status, 403);
  EXPECT_EQ(ErrorType(outside), "ForbiddenException");
  auto climbing = f.Post("/v1/namespaces/shop/tables",
                         CreateTableBody("t", R"(,"location":")" + f.warehouse() + R"(/../escape")"));
  EXPECT_EQ(climbing->status, 400);
  auto scheme = f.Post("/v1/namespaces/shop/tables", CreateTableBody("t", R"(,"location":"s3://other/wh/t")"));
  EXPECT_EQ(scheme->status, 403);
  auto inside = f.Post("/v1/namespaces/shop/tables",
                       CreateTableBody("t", R"(,"location":"file://)" + f.warehouse() + R"(/custom/t")"));
  EXPECT_EQ(inside->status, 200) << inside->body;
  auto move = f.Post("/v1/namespaces/shop/tables/t",
                     R"({"requirements":[],"updates":[{"action":"set-location","location":"/tmp/elsewhere"}]})");
  EXPECT_EQ(move->status, 403);
  EXPECT_EQ(f.Post("/v1/namespaces", R"({"namespace":["x"],"properties":{"location":"/tmp/x"}})")->status, 403);
  auto reg = f.Post("/v1/namespaces/shop/register", R"({"name":"r","metadata-location":"/tmp/m.metadata.json"})");
  EXPECT_EQ(reg->status, 403);
  EXPECT_EQ(f.http().Get("/v1/namespaces/shop/tables/t")->status, 200);  // unchanged, server up
}

TEST(RestServer, AllowedLocationsAddRootsBesideTheWarehouse) {
  floe::testing::TempDir other;
  RestServerOptions options = ServerFixture::Insecure();
  options.allowed_locations = {"s3://other/tables", other.path()};
  ServerFixture f(options);
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})")->status, 200);
  auto in_other = f.Post("/v1/namespaces/shop/tables",
                         CreateTableBody("t", R"(,"location":")" + other.Join("shop/t") + R"(")"));
  EXPECT_EQ(in_other->status, 200) << in_other->body;
  // Still no climbing out, and roots are whole segments.
  auto climbing = f.Post("/v1/namespaces/shop/tables",
                         CreateTableBody("u", R"(,"location":")" + other.path() + R"(/../u")"));
  EXPECT_EQ(climbing->status, 400);
  auto sibling = f.Post("/v1/namespaces/shop/tables", CreateTableBody("v", R"(,"location":"s3://other/tables2/v")"));
  EXPECT_EQ(sibling->status, 403);
  EXPECT_EQ(ErrorType(sibling), "ForbiddenException");
  EXPECT_EQ(f.Post("/v1/namespaces", R"({"namespace":["x"],"properties":{"location":"/etc/x"}})")->status, 403);
}

// --table-config goes out with every LoadTableResult (create, load,
// register) and with nothing else: a commit's answer has no config.
TEST(RestServer, TableConfigIsSentWithEveryLoadTableResult) {
  RestServerOptions options = ServerFixture::Insecure();
  options.table_config = {{"s3.endpoint", "http://storage.example:9000"}, {"client.region", "eu-west-1"}};
  ServerFixture f(options);
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})")->status, 200);
  auto created = f.Post("/v1/namespaces/shop/tables", CreateTableBody("t"));
  ASSERT_EQ(created->status, 200) << created->body;
  auto staged = f.Post("/v1/namespaces/shop/tables", CreateTableBody("s", R"(,"stage-create":true)"));
  ASSERT_EQ(staged->status, 200) << staged->body;
  auto loaded = f.http().Get("/v1/namespaces/shop/tables/t");
  ASSERT_TRUE(loaded);
  const std::string location = f.catalog().LoadTable(Ident("shop.t")).value().metadata_location;
  auto registered =
      f.Post("/v1/namespaces/shop/register", R"({"name":"copy","metadata-location":")" + location + R"("})");
  ASSERT_EQ(registered->status, 200) << registered->body;
  for (const std::string& body : {created->body, staged->body, loaded->body, registered->body}) {
    auto result = catalog::rest::ParseLoadTableResult(body);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->config, options.table_config) << body;
  }
}

TEST(RestServer, RegisterExistingMetadata) {
  ServerFixture f;
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})")->status, 200);
  ASSERT_EQ(f.Post("/v1/namespaces/shop/tables", CreateTableBody("orig"))->status, 200);
  const std::string location = f.catalog().LoadTable(Ident("shop.orig")).value().metadata_location;
  auto reg = f.Post("/v1/namespaces/shop/register", R"({"name":"copy","metadata-location":")" + location + R"("})");
  ASSERT_EQ(reg->status, 200) << reg->body;
  EXPECT_EQ(catalog::rest::ParseLoadTableResult(reg->body).value().metadata_location, location);
  EXPECT_EQ(f.Post("/v1/namespaces/shop/register", R"({"name":"copy","metadata-location":")" + location + R"("})")
                ->status,
            409);
}

TEST(RestServer, IdempotencyKeyReplaysTheFirstAnswer) {
  ServerFixture f;
  const httplib::Headers key = {{"Idempotency-Key", "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"}};
  auto first = f.Post("/v1/namespaces", R"({"namespace":["once"]})", key);
  auto second = f.Post("/v1/namespaces", R"({"namespace":["once"]})", key);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(second->status, 200);  // replayed, not AlreadyExists
  EXPECT_EQ(second->body, first->body);
  auto other = f.Post("/v1/namespaces", R"({"namespace":["once"]})",
                      {{"Idempotency-Key", "017F22E2-79B0-7CC3-98C4-DC0C0C073990"}});
  EXPECT_EQ(other->status, 409);
}

TEST(RestServer, OversizedBodiesGet413AndTheServerStaysUp) {
  RestServerOptions options = ServerFixture::Insecure();
  options.max_body_bytes = 1024;
  ServerFixture f(options);
  auto big = f.Post("/v1/namespaces", R"({"namespace":["x"],"properties":{"p":")" + std::string(4096, 'a') + "\"}}");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  EXPECT_EQ(ErrorType(big), "BadRequestException");
  EXPECT_EQ(f.Post("/v1/namespaces", R"({"namespace":["x"]})")->status, 200);
}

RestServerOptions WithClients() {
  RestServerOptions o;
  o.clients = {{"admin", "admin-secret", {"catalog:admin"}},
               {"reader", "reader-secret", {"ro:shop"}},
               {"writer", "writer-secret", {"rw:shop", "ro:*"}}};
  o.signing_key = std::string(32, 'k');
  return o;
}

std::string TokenFor(ServerFixture& f, const std::string& id, const std::string& secret) {
  auto r = f.http().Post("/v1/oauth/tokens",
                         "grant_type=client_credentials&client_id=" + id + "&client_secret=" + secret + "&scope=catalog",
                         "application/x-www-form-urlencoded");
  EXPECT_TRUE(r && r->status == 200) << (r ? r->body : "no response");
  auto token = catalog::rest::ParseOAuthTokenResponse(r ? r->body : "");
  EXPECT_TRUE(token.ok()) << token.status().ToString();
  return token.ok() ? token->access_token : "";
}

TEST(RestServer, BearerTokensAndScopes) {
  ServerFixture f(WithClients());
  auto anonymous = f.http().Get("/v1/config");
  EXPECT_EQ(anonymous->status, 401);
  EXPECT_EQ(ErrorType(anonymous), "NotAuthorizedException");
  auto bad_secret = f.http().Post("/v1/oauth/tokens", "grant_type=client_credentials&client_id=admin&client_secret=no",
                                  "application/x-www-form-urlencoded");
  EXPECT_EQ(bad_secret->status, 401);
  EXPECT_EQ(catalog::rest::ParseOAuthError(bad_secret->body).value().error, "invalid_client");
  auto bad_grant = f.http().Post("/v1/oauth/tokens", "grant_type=password", "application/x-www-form-urlencoded");
  EXPECT_EQ(catalog::rest::ParseOAuthError(bad_grant->body).value().error, "unsupported_grant_type");
  auto bad_scope = f.http().Post("/v1/oauth/tokens",
                                 "grant_type=client_credentials&client_id=reader&client_secret=reader-secret&scope=rw:shop",
                                 "application/x-www-form-urlencoded");
  EXPECT_EQ(catalog::rest::ParseOAuthError(bad_scope->body).value().error, "invalid_scope");

  const std::string admin = TokenFor(f, "admin", "admin-secret");
  const std::string reader = TokenFor(f, "reader", "reader-secret");
  const std::string writer = TokenFor(f, "writer", "writer-secret");
  auto as = [](const std::string& token) { return httplib::Headers{{"Authorization", "Bearer " + token}}; };
  EXPECT_EQ(f.http().Get("/v1/config", as(admin))->status, 200);
  EXPECT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})", as(admin))->status, 200);
  EXPECT_EQ(f.Post("/v1/namespaces", R"({"namespace":["other"]})", as(admin))->status, 200);

  EXPECT_EQ(f.http().Get("/v1/namespaces/shop", as(reader))->status, 200);
  auto denied = f.Post("/v1/namespaces/shop/tables", CreateTableBody("t"), as(reader));
  EXPECT_EQ(denied->status, 403);
  EXPECT_EQ(ErrorType(denied), "ForbiddenException");
  EXPECT_EQ(f.http().Get("/v1/namespaces/other", as(reader))->status, 403);

  EXPECT_EQ(f.Post("/v1/namespaces/shop/tables", CreateTableBody("t"), as(writer))->status, 200);
  EXPECT_EQ(f.Post("/v1/namespaces/other/tables", CreateTableBody("t"), as(writer))->status, 403);
  EXPECT_EQ(f.http().Get("/v1/namespaces/other", as(writer))->status, 200);
  EXPECT_EQ(f.Post("/v1/namespaces", R"({"namespace":["third"]})", as(writer))->status, 403);

  std::string tampered = admin;
  tampered[tampered.size() / 2] = tampered[tampered.size() / 2] == 'A' ? 'B' : 'A';
  EXPECT_EQ(f.http().Get("/v1/config", as(tampered))->status, 401);
  EXPECT_EQ(f.http().Get("/v1/config", as("garbage"))->status, 401);
  auto expired = f.http().Get("/v1/config", as(f.server().SignToken("admin", {"catalog:admin"}, -5)));
  EXPECT_EQ(expired->status, 419);
  EXPECT_EQ(ErrorType(expired), "AuthenticationTimeoutException");
}

// A second server on a port in use fails to start (no silent sharing of
// the port), and many clients connecting at once are all accepted.
TEST(RestServer, APortInUseIsRefusedAndManyClientsConnectAtOnce) {
  ServerFixture f;
  floe::testing::TempDir dir;
  RestServerOptions options = ServerFixture::Insecure();
  options.warehouse = dir.Join("warehouse");
  options.port = f.server().port();
  options.access_log = false;
  auto second = RestServer::Make(catalog::testing::OpenSqlCatalog(dir), options);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  Status started = (*second)->Start();
  EXPECT_TRUE(started.IsIOError()) << started.ToString();
  EXPECT_NE(started.message().find(std::to_string(options.port)), std::string::npos) << started.ToString();

  std::vector<std::thread> clients;
  std::atomic<int> answered{0};
  for (int i = 0; i < 48; ++i) {
    clients.emplace_back([&] {
      httplib::Client client("127.0.0.1", f.server().port());
      client.set_connection_timeout(0, 900000);  // under the 1 s a dropped SYN costs
      auto r = client.Get("/v1/config");
      if (r && r->status == 200) ++answered;
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(answered.load(), 48);
}

TEST(RestServer, MakeRefusesAuthWithoutClients) {
  floe::testing::TempDir dir;
  auto catalog = catalog::testing::OpenSqlCatalog(dir);
  RestServerOptions options;
  options.warehouse = dir.Join("warehouse");
  auto server = RestServer::Make(catalog, options);
  EXPECT_TRUE(server.status().IsInvalidArgument());
}

TEST(RestServer, StopFinishesAndRefusesNewConnections) {
  ServerFixture f;
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["a"]})")->status, 200);
  ASSERT_EQ(f.Post("/v1/namespaces/a/tables", CreateTableBody("t"))->status, 200);
  // Commits racing a Stop either complete (200) or never reach the server.
  std::vector<std::thread> writers;
  std::atomic<int> ok{0};
  const int port = f.server().port();
  for (int i = 0; i < 4; ++i) {
    writers.emplace_back([&, i] {
      httplib::Client c("127.0.0.1", port);
      auto r = c.Post("/v1/namespaces/a/tables/t",
                      R"({"requirements":[],"updates":[{"action":"set-properties","updates":{"w)" + std::to_string(i) +
                          R"(":"1"}}]})",
                      "application/json");
      if (r && r->status == 200) ++ok;
    });
  }
  for (auto& w : writers) w.join();
  f.server().Stop();
  auto after = f.catalog().LoadTable(Ident("a.t"));
  ASSERT_TRUE(after.ok());
  int applied = 0;
  for (int i = 0; i < 4; ++i) applied += after->metadata->properties.count("w" + std::to_string(i));
  EXPECT_GE(applied, ok.load());
  httplib::Client late("127.0.0.1", port);
  late.set_connection_timeout(1, 0);
  EXPECT_FALSE(late.Get("/v1/config"));
}

}  // namespace
}  // namespace floe::server
