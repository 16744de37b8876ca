// RestCatalog's views: end to end through the real `floe serve` (create,
// load, list through pages, exists, replace with requirements, rename, drop,
// the errors worded as every floe catalog words them), and against a
// scripted endpoint, which view routes a server's config offers.

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <thread>

#include "catalog/rest_server_util.h"
#include "catalog/table_test_util.h"
#include "floe/catalog/rest_catalog.h"
#include "floe/iceberg/view_metadata_io.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

class RestCatalogViewsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<FloeServer>(dir_);
    ASSERT_TRUE(server_->ok());
    catalog_ = OpenRest(server_->url());
    ASSERT_NE(catalog_, nullptr);
    ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop"), {}).ok());
  }

  floe::testing::TempDir dir_;
  std::unique_ptr<FloeServer> server_;
  std::shared_ptr<RestCatalog> catalog_;
};

TEST_F(RestCatalogViewsTest, CreateLoadExistAndList) {
  Catalog& c = *catalog_;
  iceberg::ViewState created = c.CreateView(Ident("shop.recent"), RecentOrders()).value();
  const iceberg::ViewMetadata& m = *created.metadata;
  EXPECT_FALSE(m.view_uuid.empty());
  EXPECT_EQ(m.location, dir_.Join("warehouse") + "/shop/recent");
  EXPECT_EQ(m.properties.at("comment"), "orders of the last day");
  ASSERT_NE(m.current_version(), nullptr);
  EXPECT_EQ(m.current_version()->SqlFor("spark")->sql, "SELECT * FROM orders WHERE order_ts > now() - INTERVAL 1 DAY");
  // What the server answered is the file the catalog points at.
  EXPECT_EQ(iceberg::ReadViewMetadata(*NewLocalFileIO(), created.metadata_location).value(), m);

  iceberg::ViewState loaded = c.LoadView(Ident("shop.recent")).value();
  EXPECT_EQ(loaded.metadata_location, created.metadata_location);
  EXPECT_EQ(*loaded.metadata, m);
  EXPECT_TRUE(c.ViewExists(Ident("shop.recent")).value());
  EXPECT_FALSE(c.ViewExists(Ident("shop.other")).value());
  EXPECT_FALSE(c.TableExists(Ident("shop.recent")).value());
  EXPECT_EQ(c.ListViews(Ns("shop")).value(), std::vector<TableIdentifier>{Ident("shop.recent")});
  EXPECT_TRUE(c.ListTables(Ns("shop")).value().empty());

  auto again = c.CreateView(Ident("shop.recent"), RecentOrders());
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(again.status().message(), "view shop.recent already exists");
  auto no_ns = c.CreateView(Ident("nope.recent"), RecentOrders());
  EXPECT_EQ(no_ns.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(no_ns.status().message(), "namespace nope does not exist");
  auto missing = c.LoadView(Ident("shop.other"));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "view shop.other does not exist");
  EXPECT_EQ(c.ListViews(Ns("nope")).status().message(), "namespace nope does not exist");
  CreateViewRequest bad = RecentOrders();
  bad.view_version.representations.clear();
  EXPECT_EQ(c.CreateView(Ident("shop.bad"), bad).status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(c.ViewExists(Ident("shop.bad")).value());
  ASSERT_TRUE(c.CreateTable(Ident("shop.orders"), OrdersRequest()).ok());
  EXPECT_EQ(c.CreateView(Ident("shop.orders"), RecentOrders()).status().code(), StatusCode::kAlreadyExists);
}

TEST_F(RestCatalogViewsTest, ListingsFollowPages) {
  RestCatalogOptions options;
  options.page_size = 2;
  auto paged = OpenRest(server_->url(), options);
  ASSERT_NE(paged, nullptr);
  std::vector<TableIdentifier> expected;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(paged->CreateView(Ident(StrCat("shop.v", i)), RecentOrders()).ok());
    expected.push_back(Ident(StrCat("shop.v", i)));
  }
  EXPECT_EQ(paged->ListViews(Ns("shop")).value(), expected);
  // The Catalog's paged form, over the whole listing.
  Page<TableIdentifier> first = paged->ListViews(Ns("shop"), PageRequest{"", 3}).value();
  EXPECT_EQ(first.items.size(), 3u);
  Page<TableIdentifier> second = paged->ListViews(Ns("shop"), PageRequest{first.next_page_token, 3}).value();
  EXPECT_EQ(second.items, (std::vector<TableIdentifier>{Ident("shop.v3"), Ident("shop.v4")}));
  EXPECT_TRUE(second.next_page_token.empty());
}

TEST_F(RestCatalogViewsTest, ReplaceChecksRequirementsAndAddsVersions) {
  Catalog& c = *catalog_;
  iceberg::ViewState created = c.CreateView(Ident("shop.recent"), RecentOrders()).value();
  const std::string uuid = created.metadata->view_uuid;
  iceberg::ViewVersion next = Version("SELECT order_id FROM orders", "trino");
  next.schema_id = created.metadata->current_version()->schema_id;
  auto replaced = c.ReplaceView(Ident("shop.recent"), {iceberg::AssertViewUuid{uuid}},
                                {iceberg::AddViewVersion{next}, iceberg::SetCurrentViewVersion{iceberg::kLastAdded},
                                 iceberg::SetProperties{{{"owner", "ana"}}}, iceberg::RemoveProperties{{"comment"}}});
  ASSERT_TRUE(replaced.ok()) << replaced.status().ToString();
  EXPECT_NE(replaced->metadata_location, created.metadata_location);
  EXPECT_EQ(replaced->metadata->current_version_id, 2);
  EXPECT_EQ(replaced->metadata->current_version()->SqlFor("trino")->sql, "SELECT order_id FROM orders");
  EXPECT_EQ(replaced->metadata->properties, (Properties{{"owner", "ana"}}));
  EXPECT_EQ(c.LoadView(Ident("shop.recent")).value().metadata_location, replaced->metadata_location);

  auto wrong_uuid =
      c.ReplaceView(Ident("shop.recent"), {iceberg::AssertViewUuid{"other"}}, {iceberg::SetProperties{{{"k", "v"}}}});
  EXPECT_EQ(wrong_uuid.status().code(), StatusCode::kCommitConflict) << wrong_uuid.status().ToString();
  auto bad = c.ReplaceView(Ident("shop.recent"), {}, {iceberg::SetCurrentViewVersion{42}});
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument) << bad.status().ToString();
  auto outside = c.ReplaceView(Ident("shop.recent"), {}, {iceberg::SetLocation{"/tmp/elsewhere"}});
  EXPECT_EQ(outside.status().code(), StatusCode::kPermissionDenied) << outside.status().ToString();
  // Nothing to change: the same metadata file.
  EXPECT_EQ(c.ReplaceView(Ident("shop.recent"), {}, {}).value().metadata_location, replaced->metadata_location);
  auto missing = c.ReplaceView(Ident("shop.none"), {}, {});
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "view shop.none does not exist");
}

TEST_F(RestCatalogViewsTest, RacingReplacesAllLand) {
  ASSERT_TRUE(catalog_->CreateView(Ident("shop.recent"), RecentOrders()).ok());
  auto other = OpenRest(server_->url());
  ASSERT_NE(other, nullptr);
  constexpr int kEach = 10;
  std::atomic<int> failed{0};
  auto loop = [&](Catalog& catalog, int writer) {
    for (int i = 0; i < kEach; ++i) {
      if (!catalog.ReplaceView(Ident("shop.recent"), {}, {iceberg::SetProperties{{{StrCat("w", writer, "-", i), "x"}}}})
               .ok()) {
        ++failed;
      }
    }
  };
  std::thread a([&] { loop(*catalog_, 0); });
  std::thread b([&] { loop(*other, 1); });
  a.join();
  b.join();
  // Without requirements a lost swap is re-run by the server: every replace lands.
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(catalog_->LoadView(Ident("shop.recent")).value().metadata->properties.size(), 2u * kEach + 1);
}

TEST_F(RestCatalogViewsTest, RenameAndDrop) {
  Catalog& c = *catalog_;
  iceberg::ViewState created = c.CreateView(Ident("shop.recent"), RecentOrders()).value();
  ASSERT_TRUE(c.CreateNamespace(Ns("archive"), {}).ok());
  ASSERT_TRUE(c.CreateTable(Ident("shop.orders"), OrdersRequest()).ok());
  ASSERT_TRUE(c.RenameView(Ident("shop.recent"), Ident("archive.recent_2024")).ok());
  EXPECT_FALSE(c.ViewExists(Ident("shop.recent")).value());
  EXPECT_EQ(c.LoadView(Ident("archive.recent_2024")).value().metadata_location, created.metadata_location);
  Status missing = c.RenameView(Ident("shop.recent"), Ident("shop.x"));
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.message(), "view shop.recent does not exist");
  Status no_ns = c.RenameView(Ident("archive.recent_2024"), Ident("nope.v"));
  EXPECT_EQ(no_ns.code(), StatusCode::kNotFound);
  EXPECT_EQ(no_ns.message(), "namespace nope does not exist");
  EXPECT_EQ(c.RenameView(Ident("archive.recent_2024"), Ident("shop.orders")).code(), StatusCode::kAlreadyExists);

  // A namespace holding only a view is not empty.
  EXPECT_EQ(c.DropNamespace(Ns("archive")).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(c.DropView(Ident("shop.orders")).code(), StatusCode::kNotFound);  // a table
  ASSERT_TRUE(c.DropView(Ident("archive.recent_2024")).ok());
  EXPECT_FALSE(c.ViewExists(Ident("archive.recent_2024")).value());
  Status again = c.DropView(Ident("archive.recent_2024"));
  EXPECT_EQ(again.code(), StatusCode::kNotFound);
  EXPECT_EQ(again.message(), "view archive.recent_2024 does not exist");
  EXPECT_TRUE(c.DropNamespace(Ns("archive")).ok());
}

// A server whose config lists `endpoints` (none: the field is not sent),
// with `defaults`, and a listing of views in two pages.
class ConfigOnlyServer {
 public:
  ConfigOnlyServer(std::string endpoints_json, std::string defaults_json = "{}") {
    server_.Get("/v1/config", [=](const httplib::Request&, httplib::Response& res) {
      std::string body = R"({"defaults":)" + defaults_json + R"(,"overrides":{})";
      if (!endpoints_json.empty()) body += R"(,"endpoints":)" + endpoints_json;
      res.set_content(body + "}", "application/json");
    });
    // Two pages: "w" first, then "v" after the token.
    server_.Get("/v1/namespaces/shop/views", [this](const httplib::Request& req, httplib::Response& res) {
      ++view_calls;
      if (req.get_param_value("pageToken") == "p2") {
        res.set_content(R"({"identifiers":[{"namespace":["shop"],"name":"v"}],"next-page-token":null})",
                        "application/json");
      } else {
        res.set_content(R"({"identifiers":[{"namespace":["shop"],"name":"w"}],"next-page-token":"p2"})",
                        "application/json");
      }
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~ConfigOnlyServer() {
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  std::atomic<int> view_calls{0};

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

TEST(RestCatalogViewEndpoints, ViewsOnlyWhereTheConfigOffersThem) {
  {
    // The spec's default set, for a server that sends no list, has no views.
    ConfigOnlyServer server("");
    auto c = OpenRest(server.url());
    ASSERT_NE(c, nullptr);
    EXPECT_FALSE(c->Offers("GET /v1/{prefix}/namespaces/{namespace}/views"));
    EXPECT_TRUE(c->Offers("POST /v1/{prefix}/transactions/commit"));
    auto listed = c->ListViews(Ns("shop"));
    EXPECT_EQ(listed.status().code(), StatusCode::kUnsupported);
    EXPECT_TRUE(StartsWith(listed.status().message(), "catalog floe does not support views"))
        << listed.status().message();
    EXPECT_EQ(c->LoadView(Ident("shop.v")).status().code(), StatusCode::kUnsupported);
    EXPECT_EQ(c->CreateView(Ident("shop.v"), RecentOrders()).status().code(), StatusCode::kUnsupported);
    EXPECT_EQ(c->ViewExists(Ident("shop.v")).status().code(), StatusCode::kUnsupported);
    EXPECT_EQ(c->DropView(Ident("shop.v")).code(), StatusCode::kUnsupported);
    EXPECT_EQ(c->RenameView(Ident("shop.v"), Ident("shop.w")).code(), StatusCode::kUnsupported);
    EXPECT_EQ(c->ReplaceView(Ident("shop.v"), {}, {}).status().code(), StatusCode::kUnsupported);
    EXPECT_EQ(server.view_calls.load(), 0);  // refused without a request
  }
  {
    // ... unless the server says it has them.
    ConfigOnlyServer server("", R"({"view-endpoints-supported":"true"})");
    auto c = OpenRest(server.url());
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->ListViews(Ns("shop")).value(), (std::vector<TableIdentifier>{Ident("shop.v"), Ident("shop.w")}));
    EXPECT_EQ(server.view_calls.load(), 2);
  }
  {
    // A list: exactly the routes it names.
    ConfigOnlyServer server(R"(["GET /v1/{prefix}/namespaces/{namespace}/views"])");
    auto c = OpenRest(server.url());
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->ListViews(Ns("shop")).value(), (std::vector<TableIdentifier>{Ident("shop.v"), Ident("shop.w")}));
    auto dropped = c->DropView(Ident("shop.v"));
    EXPECT_EQ(dropped.code(), StatusCode::kUnsupported);
    EXPECT_NE(dropped.message().find("DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}"), std::string::npos)
        << dropped.message();
    EXPECT_FALSE(c->Offers("POST /v1/{prefix}/transactions/commit"));
  }
}

}  // namespace
}  // namespace floe::catalog
