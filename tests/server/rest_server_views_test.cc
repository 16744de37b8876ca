// The REST server's view routes, called over plain HTTP: list (paged),
// create, load, HEAD, replace, drop, rename — their answers and their error
// answers, scopes and locations.

#include <gtest/gtest.h>

#include <algorithm>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/view_messages.h"
#include "floe/iceberg/view_metadata_io.h"
#include "server/rest_server_test_util.h"

namespace floe::server {
namespace {

using catalog::testing::Ident;
using catalog::testing::Ns;
using testing::CreateTableBody;
using testing::ErrorType;
using testing::kSchemaJson;
using testing::ServerFixture;

std::string VersionJson(const std::string& sql, const std::string& dialect = "spark", int id = 1) {
  return R"({"version-id":)" + std::to_string(id) +
         R"(,"schema-id":0,"timestamp-ms":1700000000000,"summary":{"engine-name":"floe"},)"
         R"("representations":[{"type":"sql","sql":")" +
         sql + R"(","dialect":")" + dialect + R"("}],"default-namespace":["shop"]})";
}

std::string CreateViewBody(const std::string& name, const std::string& extra = "") {
  return R"({"name":")" + name + R"(","schema":)" + kSchemaJson + R"(,"view-version":)" +
         VersionJson("SELECT * FROM orders") + R"(,"properties":{"comment":"all orders"})" + extra + "}";
}

catalog::rest::LoadViewResult ViewOf(const httplib::Result& r) {
  EXPECT_TRUE(r);
  auto parsed = catalog::rest::ParseLoadViewResult(r ? r->body : "");
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString() << (r ? r->body : "");
  return parsed.ok() ? std::move(*parsed) : catalog::rest::LoadViewResult{};
}

std::vector<catalog::TableIdentifier> Listed(const httplib::Result& r) {
  EXPECT_TRUE(r && r->status == 200) << (r ? r->body : "no response");
  return catalog::rest::ParseListTablesResponse(r ? r->body : "").value().identifiers;
}

class RestServerViews : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(f_.Post("/v1/namespaces", R"({"namespace":["shop"]})")->status, 200); }
  ServerFixture f_;
};

TEST_F(RestServerViews, ConfigAdvertisesEveryViewRoute) {
  auto config = catalog::rest::ParseCatalogConfig(f_.http().Get("/v1/config")->body).value();
  for (std::string_view endpoint : catalog::rest::kViewEndpoints) {
    EXPECT_NE(std::find(config.endpoints.begin(), config.endpoints.end(), endpoint), config.endpoints.end())
        << endpoint;
  }
}

TEST_F(RestServerViews, CreateLoadHeadAndList) {
  auto created = f_.Post("/v1/namespaces/shop/views", CreateViewBody("recent"));
  ASSERT_EQ(created->status, 200) << created->body;
  const catalog::rest::LoadViewResult result = ViewOf(created);
  EXPECT_EQ(result.metadata.location, f_.warehouse() + "/shop/recent");
  EXPECT_EQ(result.metadata.properties.at("comment"), "all orders");
  ASSERT_NE(result.metadata.current_version(), nullptr);
  EXPECT_EQ(result.metadata.current_version()->representations[0].sql, "SELECT * FROM orders");
  EXPECT_TRUE(result.config.empty());
  // The answer is what the catalog points at, and the file says the same.
  const iceberg::ViewState state = f_.catalog().LoadView(Ident("shop.recent")).value();
  EXPECT_EQ(result.metadata_location, state.metadata_location);
  EXPECT_EQ(iceberg::ReadViewMetadata(*NewLocalFileIO(), state.metadata_location).value(), result.metadata);

  auto loaded = f_.http().Get("/v1/namespaces/shop/views/recent?referenced-by=shop%1Fother");
  ASSERT_EQ(loaded->status, 200) << loaded->body;
  EXPECT_EQ(ViewOf(loaded).metadata, result.metadata);
  auto head = f_.http().Head("/v1/namespaces/shop/views/recent");
  EXPECT_EQ(head->status, 204);
  EXPECT_TRUE(head->body.empty());
  EXPECT_EQ(f_.http().Head("/v1/namespaces/shop/views/other")->status, 404);
  EXPECT_EQ(f_.http().Head("/v1/namespaces/nope/views/recent")->status, 404);

  auto missing = f_.http().Get("/v1/namespaces/shop/views/other");
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(ErrorType(missing), "NoSuchViewException");
  EXPECT_NE(missing->body.find("view shop.other does not exist"), std::string::npos) << missing->body;
  EXPECT_EQ(ErrorType(f_.http().Get("/v1/namespaces/nope/views/recent")), "NoSuchViewException");

  EXPECT_EQ(Listed(f_.http().Get("/v1/namespaces/shop/views")),
            std::vector<catalog::TableIdentifier>{Ident("shop.recent")});
  EXPECT_TRUE(Listed(f_.http().Get("/v1/namespaces/shop/tables")).empty());  // views are not tables
  auto no_ns = f_.http().Get("/v1/namespaces/nope/views");
  EXPECT_EQ(no_ns->status, 404);
  EXPECT_EQ(ErrorType(no_ns), "NoSuchNamespaceException");
}

TEST_F(RestServerViews, ListsInPages) {
  for (const char* name : {"v3", "v1", "v2"})
    ASSERT_EQ(f_.Post("/v1/namespaces/shop/views", CreateViewBody(name))->status, 200);
  auto first =
      catalog::rest::ParseListTablesResponse(f_.http().Get("/v1/namespaces/shop/views?pageToken=&pageSize=2")->body)
          .value();
  EXPECT_EQ(first.identifiers, (std::vector<catalog::TableIdentifier>{Ident("shop.v1"), Ident("shop.v2")}));
  ASSERT_TRUE(first.next_page_token.has_value());
  auto second =
      catalog::rest::ParseListTablesResponse(
          f_.http().Get(("/v1/namespaces/shop/views?pageSize=2&pageToken=" + *first.next_page_token).c_str())->body)
          .value();
  EXPECT_EQ(second.identifiers, std::vector<catalog::TableIdentifier>{Ident("shop.v3")});
  EXPECT_FALSE(second.next_page_token.has_value());
  EXPECT_EQ(f_.http().Get("/v1/namespaces/shop/views?pageToken=&pageSize=0")->status, 400);
  EXPECT_EQ(f_.http().Get("/v1/namespaces/shop/views?pageToken=zz")->status, 400);
}

TEST_F(RestServerViews, CreateRefusesTakenNamesBadBodiesAndForeignLocations) {
  ASSERT_EQ(f_.Post("/v1/namespaces/shop/views", CreateViewBody("recent"))->status, 200);
  auto again = f_.Post("/v1/namespaces/shop/views", CreateViewBody("recent"));
  EXPECT_EQ(again->status, 409);
  EXPECT_EQ(ErrorType(again), "AlreadyExistsException");
  ASSERT_EQ(f_.Post("/v1/namespaces/shop/tables", CreateTableBody("orders"))->status, 200);
  auto table_name = f_.Post("/v1/namespaces/shop/views", CreateViewBody("orders"));
  EXPECT_EQ(table_name->status, 409);
  EXPECT_EQ(ErrorType(table_name), "AlreadyExistsException");
  EXPECT_EQ(ErrorType(f_.Post("/v1/namespaces/shop/tables", CreateTableBody("recent"))), "AlreadyExistsException");
  auto no_ns = f_.Post("/v1/namespaces/nope/views", CreateViewBody("v"));
  EXPECT_EQ(no_ns->status, 404);
  EXPECT_EQ(ErrorType(no_ns), "NoSuchNamespaceException");

  auto malformed = f_.Post("/v1/namespaces/shop/views", "{\"name\":");
  EXPECT_EQ(malformed->status, 400);
  EXPECT_EQ(ErrorType(malformed), "BadRequestException");
  auto no_version = f_.Post("/v1/namespaces/shop/views",
                            R"({"name":"v","schema":)" + std::string(kSchemaJson) + R"(,"properties":{}})");
  EXPECT_EQ(no_version->status, 400);
  EXPECT_NE(no_version->body.find("view-version"), std::string::npos) << no_version->body;
  // A version without representations makes no valid view.
  auto empty = f_.Post("/v1/namespaces/shop/views",
                       R"({"name":"v","schema":)" + std::string(kSchemaJson) +
                           R"(,"view-version":{"version-id":1,"schema-id":0,"timestamp-ms":1,"summary":{},)"
                           R"("representations":[],"default-namespace":[]},"properties":{}})");
  EXPECT_EQ(empty->status, 400) << empty->body;
  EXPECT_EQ(f_.http().Head("/v1/namespaces/shop/views/v")->status, 404);

  auto outside = f_.Post("/v1/namespaces/shop/views", CreateViewBody("v", R"(,"location":"/etc/views/v")"));
  EXPECT_EQ(outside->status, 403);
  EXPECT_EQ(ErrorType(outside), "ForbiddenException");
  auto climbing =
      f_.Post("/v1/namespaces/shop/views", CreateViewBody("v", R"(,"location":")" + f_.warehouse() + R"(/../v")"));
  EXPECT_EQ(climbing->status, 400);
  auto inside =
      f_.Post("/v1/namespaces/shop/views", CreateViewBody("v", R"(,"location":")" + f_.warehouse() + R"(/custom/v")"));
  ASSERT_EQ(inside->status, 200) << inside->body;
  EXPECT_EQ(ViewOf(inside).metadata.location, f_.warehouse() + "/custom/v");
}

TEST_F(RestServerViews, ReplaceAddsVersionsChecksRequirementsAndRefusesBadUpdates) {
  const catalog::rest::LoadViewResult created = ViewOf(f_.Post("/v1/namespaces/shop/views", CreateViewBody("recent")));
  const std::string uuid = created.metadata.view_uuid;
  const std::string replace =
      R"({"identifier":{"namespace":["shop"],"name":"recent"},)"
      R"("requirements":[{"type":"assert-view-uuid","uuid":")" +
      uuid +
      R"("}],)"
      R"("updates":[{"action":"add-view-version","view-version":)" +
      VersionJson("SELECT order_id FROM orders", "trino", 2) +
      R"(},{"action":"set-current-view-version","view-version-id":-1},)"
      R"({"action":"set-properties","updates":{"owner":"ana"}},{"action":"remove-properties","removals":["comment"]}]})";
  auto replaced = f_.Post("/v1/namespaces/shop/views/recent", replace);
  ASSERT_EQ(replaced->status, 200) << replaced->body;
  const catalog::rest::LoadViewResult after = ViewOf(replaced);
  EXPECT_NE(after.metadata_location, created.metadata_location);
  EXPECT_EQ(after.metadata.view_uuid, uuid);
  EXPECT_EQ(after.metadata.versions.size(), 2u);
  EXPECT_EQ(after.metadata.current_version()->SqlFor("trino")->sql, "SELECT order_id FROM orders");
  EXPECT_EQ(after.metadata.properties, (catalog::Properties{{"owner", "ana"}}));
  EXPECT_EQ(f_.catalog().LoadView(Ident("shop.recent")).value().metadata_location, after.metadata_location);

  auto stale = f_.Post("/v1/namespaces/shop/views/recent",
                       R"({"requirements":[{"type":"assert-view-uuid","uuid":"not-it"}],"updates":[]})");
  EXPECT_EQ(stale->status, 409);
  EXPECT_EQ(ErrorType(stale), "CommitFailedException");
  auto table_action =
      f_.Post("/v1/namespaces/shop/views/recent", R"({"updates":[{"action":"set-current-schema","schema-id":0}]})");
  EXPECT_EQ(table_action->status, 400);
  EXPECT_NE(table_action->body.find("updates[0].action"), std::string::npos) << table_action->body;
  auto unknown_requirement =
      f_.Post("/v1/namespaces/shop/views/recent", R"({"requirements":[{"type":"assert-create"}],"updates":[]})");
  EXPECT_EQ(unknown_requirement->status, 400);
  auto no_such_version = f_.Post("/v1/namespaces/shop/views/recent",
                                 R"({"updates":[{"action":"set-current-view-version","view-version-id":42}]})");
  EXPECT_EQ(no_such_version->status, 400) << no_such_version->body;
  EXPECT_EQ(ErrorType(no_such_version), "BadRequestException");
  EXPECT_EQ(ErrorType(f_.Post("/v1/namespaces/shop/views/recent", R"({"requirements":[]})")), "BadRequestException");
  auto other_ident =
      f_.Post("/v1/namespaces/shop/views/recent", R"({"identifier":{"namespace":["shop"],"name":"x"},"updates":[]})");
  EXPECT_EQ(other_ident->status, 400);
  auto moves_out = f_.Post("/v1/namespaces/shop/views/recent",
                           R"({"updates":[{"action":"set-location","location":"/tmp/elsewhere"}]})");
  EXPECT_EQ(moves_out->status, 403);
  auto missing = f_.Post("/v1/namespaces/shop/views/ghost", R"({"updates":[]})");
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(ErrorType(missing), "NoSuchViewException");
  // None of the refused commits changed the view.
  EXPECT_EQ(f_.catalog().LoadView(Ident("shop.recent")).value().metadata_location, after.metadata_location);
}

TEST_F(RestServerViews, RenameAndDrop) {
  const catalog::rest::LoadViewResult created = ViewOf(f_.Post("/v1/namespaces/shop/views", CreateViewBody("recent")));
  ASSERT_EQ(f_.Post("/v1/namespaces", R"({"namespace":["archive"]})")->status, 200);
  ASSERT_EQ(f_.Post("/v1/namespaces/shop/tables", CreateTableBody("orders"))->status, 200);
  const std::string rename = R"({"source":{"namespace":["shop"],"name":"recent"},)"
                             R"("destination":{"namespace":["archive"],"name":"recent_2024"}})";
  auto renamed = f_.Post("/v1/views/rename", rename);
  EXPECT_EQ(renamed->status, 204) << renamed->body;
  EXPECT_TRUE(renamed->body.empty());
  EXPECT_EQ(ViewOf(f_.http().Get("/v1/namespaces/archive/views/recent_2024")).metadata_location,
            created.metadata_location);
  auto gone = f_.Post("/v1/views/rename", rename);
  EXPECT_EQ(gone->status, 404);
  EXPECT_EQ(ErrorType(gone), "NoSuchViewException");
  auto no_ns = f_.Post("/v1/views/rename", R"({"source":{"namespace":["archive"],"name":"recent_2024"},)"
                                           R"("destination":{"namespace":["nope"],"name":"v"}})");
  EXPECT_EQ(no_ns->status, 404);
  EXPECT_EQ(ErrorType(no_ns), "NoSuchNamespaceException");
  auto onto_table = f_.Post("/v1/views/rename", R"({"source":{"namespace":["archive"],"name":"recent_2024"},)"
                                                R"("destination":{"namespace":["shop"],"name":"orders"}})");
  EXPECT_EQ(onto_table->status, 409);
  EXPECT_EQ(ErrorType(onto_table), "AlreadyExistsException");
  // A table is not renamed through the view route.
  auto a_table = f_.Post("/v1/views/rename", R"({"source":{"namespace":["shop"],"name":"orders"},)"
                                             R"("destination":{"namespace":["shop"],"name":"o2"}})");
  EXPECT_EQ(ErrorType(a_table), "NoSuchViewException");
  EXPECT_EQ(ErrorType(f_.Post("/v1/views/rename", R"({"source":{}})")), "BadRequestException");
  EXPECT_EQ(f_.http().Get("/v1/views/rename")->status, 405);

  // A namespace holding only a view is not empty.
  auto not_empty = f_.http().Delete("/v1/namespaces/archive");
  EXPECT_EQ(not_empty->status, 409);
  EXPECT_EQ(ErrorType(not_empty), "NamespaceNotEmptyException");
  EXPECT_EQ(f_.http().Delete("/v1/namespaces/shop/views/orders")->status, 404);  // a table
  auto dropped = f_.http().Delete("/v1/namespaces/archive/views/recent_2024");
  EXPECT_EQ(dropped->status, 204);
  EXPECT_TRUE(NewLocalFileIO()->Exists(created.metadata_location).value());  // files stay
  auto again = f_.http().Delete("/v1/namespaces/archive/views/recent_2024");
  EXPECT_EQ(again->status, 404);
  EXPECT_EQ(ErrorType(again), "NoSuchViewException");
  EXPECT_EQ(f_.http().Delete("/v1/namespaces/archive")->status, 204);
  EXPECT_EQ(f_.http().Put("/v1/namespaces/shop/views/x", "{}", "application/json")->status, 405);
  EXPECT_EQ(f_.http().Delete("/v1/namespaces/shop/views")->status, 405);
  EXPECT_EQ(ErrorType(f_.http().Get("/v1/namespaces/shop/views/a/b")), "BadRequestException");
}

TEST(RestServerViewsAuth, ReadScopesLoadAndListWriteScopesChange) {
  RestServerOptions options;
  options.clients = {{"admin", "admin-secret", {"catalog:admin"}}};
  options.signing_key = std::string(32, 'k');
  ServerFixture f(options);
  auto as = [&](std::vector<std::string> scopes) {
    return httplib::Headers{{"Authorization", "Bearer " + f.server().SignToken("someone", scopes, 300)}};
  };
  const auto admin = as({"catalog:admin"});
  const auto reader = as({"ro:shop"});
  const auto writer = as({"rw:shop"});
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})", admin)->status, 200);
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["other"]})", admin)->status, 200);
  EXPECT_EQ(f.http().Get("/v1/namespaces/shop/views")->status, 401);

  auto denied = f.Post("/v1/namespaces/shop/views", CreateViewBody("v"), reader);
  EXPECT_EQ(denied->status, 403);
  EXPECT_EQ(ErrorType(denied), "ForbiddenException");
  ASSERT_EQ(f.Post("/v1/namespaces/shop/views", CreateViewBody("v"), writer)->status, 200);
  EXPECT_EQ(f.http().Get("/v1/namespaces/shop/views", reader)->status, 200);
  EXPECT_EQ(f.http().Get("/v1/namespaces/shop/views/v", reader)->status, 200);
  EXPECT_EQ(f.http().Head("/v1/namespaces/shop/views/v", reader)->status, 204);
  EXPECT_EQ(f.http().Get("/v1/namespaces/other/views", reader)->status, 403);
  EXPECT_EQ(f.Post("/v1/namespaces/shop/views/v", R"({"updates":[]})", reader)->status, 403);
  EXPECT_EQ(f.http().Delete("/v1/namespaces/shop/views/v", reader)->status, 403);
  const std::string rename = R"({"source":{"namespace":["shop"],"name":"v"},)"
                             R"("destination":{"namespace":["other"],"name":"v"}})";
  EXPECT_EQ(f.Post("/v1/views/rename", rename, writer)->status, 403);  // may not write "other"
  EXPECT_EQ(f.Post("/v1/views/rename", rename, admin)->status, 204);
}

TEST(RestServerViewsIdempotency, ReplayedCreateAnswersAsTheFirst) {
  ServerFixture f;
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["shop"]})")->status, 200);
  const httplib::Headers key = {{"Idempotency-Key", "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"}};
  auto first = f.Post("/v1/namespaces/shop/views", CreateViewBody("v"), key);
  auto second = f.Post("/v1/namespaces/shop/views", CreateViewBody("v"), key);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(second->status, 200);
  EXPECT_EQ(second->body, first->body);
}

}  // namespace
}  // namespace floe::server
