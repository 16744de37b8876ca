// Views on every catalog: create, load, list (paged), exists, replace with
// requirements and updates, rename, drop; views and tables share names.

#include <gtest/gtest.h>

#include <thread>

#include "catalog/conformance/conformance_test.h"
#include "floe/base/strings.h"
#include "floe/iceberg/metadata_location.h"
#include "floe/iceberg/view_metadata_io.h"

namespace floe::catalog::testing {
namespace {

class ViewConformanceTest : public CatalogConformanceTest {
 protected:
  void SetUp() override {
    CatalogConformanceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop"), {}).ok());
  }
};

TEST_P(ViewConformanceTest, CreateLoadAndExist) {
  iceberg::ViewState created = catalog_->CreateView(Ident("shop.recent"), RecentOrders()).value();
  const iceberg::ViewMetadata& m = *created.metadata;
  EXPECT_FALSE(m.view_uuid.empty());
  EXPECT_EQ(m.location, warehouse() + "/shop/recent");
  EXPECT_TRUE(StartsWith(created.metadata_location, m.location + "/metadata/00000-")) << created.metadata_location;
  EXPECT_EQ(m.properties.at("comment"), "orders of the last day");
  ASSERT_NE(m.current_version(), nullptr);
  EXPECT_EQ(m.current_version()->representations[0].sql,
            "SELECT * FROM orders WHERE order_ts > now() - INTERVAL 1 DAY");
  ASSERT_NE(m.current_schema(), nullptr);
  EXPECT_EQ(m.current_schema()->fields().size(), 2u);
  EXPECT_EQ(m.version_log.size(), 1u);

  // What the catalog points at is the file on disk.
  EXPECT_EQ(iceberg::ReadViewMetadata(*NewLocalFileIO(), created.metadata_location).value(), m);
  iceberg::ViewState loaded = OpenAgain()->LoadView(Ident("shop.recent")).value();
  EXPECT_EQ(loaded.metadata_location, created.metadata_location);
  EXPECT_EQ(*loaded.metadata, m);
  EXPECT_TRUE(catalog_->ViewExists(Ident("shop.recent")).value());
  EXPECT_FALSE(catalog_->ViewExists(Ident("shop.other")).value());

  auto again = catalog_->CreateView(Ident("shop.recent"), RecentOrders());
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(again.status().message(), "view shop.recent already exists");
  auto no_ns = catalog_->CreateView(Ident("nope.recent"), RecentOrders());
  EXPECT_EQ(no_ns.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(no_ns.status().message(), "namespace nope does not exist");
  auto missing = catalog_->LoadView(Ident("shop.other"));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "view shop.other does not exist");
  CreateViewRequest bad = RecentOrders();
  bad.view_version.representations.clear();
  EXPECT_EQ(catalog_->CreateView(Ident("shop.bad"), bad).status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(catalog_->ViewExists(Ident("shop.bad")).value());
}

TEST_P(ViewConformanceTest, ViewsAndTablesShareNamesButNotListings) {
  ASSERT_TRUE(catalog_->CreateTable(Ident("shop.orders"), OrdersRequest()).ok());
  ASSERT_TRUE(catalog_->CreateView(Ident("shop.recent"), RecentOrders()).ok());
  EXPECT_EQ(catalog_->ListTables(Ns("shop")).value(), (std::vector<TableIdentifier>{Ident("shop.orders")}));
  EXPECT_EQ(catalog_->ListViews(Ns("shop")).value(), (std::vector<TableIdentifier>{Ident("shop.recent")}));
  EXPECT_FALSE(catalog_->TableExists(Ident("shop.recent")).value());
  EXPECT_FALSE(catalog_->ViewExists(Ident("shop.orders")).value());
  EXPECT_EQ(catalog_->LoadTable(Ident("shop.recent")).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(catalog_->LoadView(Ident("shop.orders")).status().code(), StatusCode::kNotFound);

  EXPECT_EQ(catalog_->CreateView(Ident("shop.orders"), RecentOrders()).status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(catalog_->CreateTable(Ident("shop.recent"), OrdersRequest()).status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(catalog_->RenameView(Ident("shop.recent"), Ident("shop.orders")).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(catalog_->RenameTable(Ident("shop.orders"), Ident("shop.recent")).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(catalog_->DropTable(Ident("shop.recent"), false).code(), StatusCode::kNotFound);
  EXPECT_EQ(catalog_->DropView(Ident("shop.orders")).code(), StatusCode::kNotFound);
  // A namespace holding only a view is not empty.
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("reports"), {}).ok());
  ASSERT_TRUE(catalog_->CreateView(Ident("reports.daily"), RecentOrders()).ok());
  EXPECT_EQ(catalog_->DropNamespace(Ns("reports")).code(), StatusCode::kInvalidArgument);
}

TEST_P(ViewConformanceTest, ListsViewsInPages) {
  for (const char* name : {"shop.v3", "shop.v1", "shop.v2"}) {
    ASSERT_TRUE(catalog_->CreateView(Ident(name), RecentOrders()).ok()) << name;
  }
  Page<TableIdentifier> first = catalog_->ListViews(Ns("shop"), PageRequest{"", 2}).value();
  EXPECT_EQ(first.items, (std::vector<TableIdentifier>{Ident("shop.v1"), Ident("shop.v2")}));
  Page<TableIdentifier> second = catalog_->ListViews(Ns("shop"), PageRequest{first.next_page_token, 2}).value();
  EXPECT_EQ(second.items, (std::vector<TableIdentifier>{Ident("shop.v3")}));
  EXPECT_TRUE(second.next_page_token.empty());
  EXPECT_EQ(catalog_->ListViews(Ns("nope")).status().code(), StatusCode::kNotFound);
}

TEST_P(ViewConformanceTest, ReplaceAddsAVersionAndChecksRequirements) {
  iceberg::ViewState created = catalog_->CreateView(Ident("shop.recent"), RecentOrders()).value();
  const std::string uuid = created.metadata->view_uuid;
  iceberg::ViewVersion next = Version("SELECT order_id FROM orders", "trino");
  next.schema_id = created.metadata->current_version()->schema_id;
  next.timestamp_ms = 1700000001000;
  iceberg::ViewState replaced =
      catalog_
          ->ReplaceView(Ident("shop.recent"), {iceberg::AssertViewUuid{uuid}},
                        {iceberg::AddViewVersion{next}, iceberg::SetCurrentViewVersion{iceberg::kLastAdded},
                         iceberg::SetProperties{{{"owner", "ana"}}}, iceberg::RemoveProperties{{"comment"}}})
          .value();
  EXPECT_EQ(iceberg::ParseMetadataFileVersion(replaced.metadata_location), 1);
  EXPECT_EQ(replaced.metadata->view_uuid, uuid);
  EXPECT_EQ(replaced.metadata->versions.size(), 2u);
  EXPECT_EQ(replaced.metadata->current_version_id, 2);
  EXPECT_EQ(replaced.metadata->current_version()->SqlFor("trino")->sql, "SELECT order_id FROM orders");
  EXPECT_EQ(replaced.metadata->version_log.size(), 2u);
  EXPECT_EQ(replaced.metadata->properties, (Properties{{"owner", "ana"}}));
  EXPECT_EQ(OpenAgain()->LoadView(Ident("shop.recent")).value().metadata_location, replaced.metadata_location);

  // Back to version 1: no new version, one more log entry.
  iceberg::ViewState rolled_back =
      catalog_->ReplaceView(Ident("shop.recent"), {}, {iceberg::SetCurrentViewVersion{1}}).value();
  EXPECT_EQ(rolled_back.metadata->current_version_id, 1);
  EXPECT_EQ(rolled_back.metadata->versions.size(), 2u);
  EXPECT_EQ(rolled_back.metadata->version_log.size(), 3u);

  auto wrong_uuid = catalog_->ReplaceView(Ident("shop.recent"), {iceberg::AssertViewUuid{"other"}},
                                          {iceberg::SetProperties{{{"k", "v"}}}});
  EXPECT_EQ(wrong_uuid.status().code(), StatusCode::kCommitConflict) << wrong_uuid.status().ToString();
  auto bad = catalog_->ReplaceView(Ident("shop.recent"), {}, {iceberg::SetCurrentViewVersion{42}});
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument) << bad.status().ToString();
  // Nothing to change: nothing written.
  EXPECT_EQ(catalog_->ReplaceView(Ident("shop.recent"), {}, {}).value().metadata_location,
            rolled_back.metadata_location);
  EXPECT_EQ(ListPaths(*NewLocalFileIO(), created.metadata->location + "/metadata/").size(), 3u);
  EXPECT_EQ(catalog_->ReplaceView(Ident("shop.none"), {}, {}).status().code(), StatusCode::kNotFound);
}

TEST_P(ViewConformanceTest, RacingReplacesLandOrConflict) {
  ASSERT_TRUE(catalog_->CreateView(Ident("shop.recent"), RecentOrders()).ok());
  auto other = OpenAgain();
  ASSERT_NE(other, nullptr);
  constexpr int kEach = 10;
  int landed[2] = {0, 0};
  std::string unexpected[2];
  auto loop = [&](Catalog& catalog, int writer) {
    for (int i = 0; i < kEach; ++i) {
      auto result = catalog.ReplaceView(Ident("shop.recent"), {},
                                        {iceberg::SetProperties{{{StrCat("w", writer, "-", i), "x"}}}});
      if (result.ok()) {
        ++landed[writer];
      } else if (!result.status().IsCommitConflict() && unexpected[writer].empty()) {
        unexpected[writer] = result.status().ToString();
      }
    }
  };
  std::thread a([&] { loop(*catalog_, 0); });
  std::thread b([&] { loop(*other, 1); });
  a.join();
  b.join();
  EXPECT_TRUE(unexpected[0].empty()) << unexpected[0];
  EXPECT_TRUE(unexpected[1].empty()) << unexpected[1];
  // Every landed replace is in the final metadata; no conflicting one is.
  iceberg::ViewState final_state = catalog_->LoadView(Ident("shop.recent")).value();
  EXPECT_EQ(final_state.metadata->properties.size(), static_cast<size_t>(landed[0] + landed[1] + 1));
  EXPECT_EQ(iceberg::ParseMetadataFileVersion(final_state.metadata_location), landed[0] + landed[1]);
}

TEST_P(ViewConformanceTest, RenameAndDrop) {
  iceberg::ViewState created = catalog_->CreateView(Ident("shop.recent"), RecentOrders()).value();
  ASSERT_TRUE(catalog_->CreateNamespace(Ns("archive"), {}).ok());
  ASSERT_TRUE(catalog_->RenameView(Ident("shop.recent"), Ident("archive.recent_2024")).ok());
  EXPECT_FALSE(catalog_->ViewExists(Ident("shop.recent")).value());
  EXPECT_EQ(catalog_->LoadView(Ident("archive.recent_2024")).value().metadata_location, created.metadata_location);
  Status missing = catalog_->RenameView(Ident("shop.recent"), Ident("shop.x"));
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.message(), "view shop.recent does not exist");
  EXPECT_EQ(catalog_->RenameView(Ident("archive.recent_2024"), Ident("nope.v")).code(), StatusCode::kNotFound);

  ASSERT_TRUE(catalog_->DropView(Ident("archive.recent_2024")).ok());
  EXPECT_FALSE(catalog_->ViewExists(Ident("archive.recent_2024")).value());
  EXPECT_TRUE(NewLocalFileIO()->Exists(created.metadata_location).value());  // files stay, as Java leaves them
  Status again = catalog_->DropView(Ident("archive.recent_2024"));
  EXPECT_EQ(again.code(), StatusCode::kNotFound);
  EXPECT_EQ(again.message(), "view archive.recent_2024 does not exist");
  EXPECT_TRUE(catalog_->DropNamespace(Ns("archive")).ok());
}

FLOE_CATALOG_CONFORMANCE(ViewConformanceTest);

}  // namespace
}  // namespace floe::catalog::testing
