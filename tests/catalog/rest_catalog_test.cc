// RestCatalog against the real `floe serve` (over SQLite in a temporary
// folder): the catalog's behaviours end to end, commits whose answer is
// lost on the way (a TCP proxy that cuts the connection once the server has
// answered) — resolved by reloading, or replayed for their Idempotency-Key —
// and loads answered 304 for the ETag the client holds.

#include "floe/catalog/rest_catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "catalog/rest_server_util.h"
#include "catalog/table_test_util.h"
#include "testing/tcp_proxy.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

class RestCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<FloeServer>(dir_);
    ASSERT_TRUE(server_->ok());
    catalog_ = OpenRest(server_->url());
    ASSERT_NE(catalog_, nullptr);
  }

  floe::testing::TempDir dir_;
  std::unique_ptr<FloeServer> server_;
  std::shared_ptr<RestCatalog> catalog_;
};

TEST_F(RestCatalogTest, NamespacesRoundTrip) {
  Catalog& c = *catalog_;
  ASSERT_TRUE(c.CreateNamespace(Ns("shop"), {{"owner", "ana"}, {"tier", "gold"}}).ok());
  ASSERT_TRUE(c.CreateNamespace(Ns("shop.eu"), {}).ok());
  ASSERT_TRUE(c.CreateNamespace(Ns("ops"), {}).ok());
  EXPECT_EQ(c.CreateNamespace(Ns("shop"), {}).code(), StatusCode::kAlreadyExists);

  EXPECT_EQ(c.ListNamespaces(Namespace{}).value(), (std::vector<Namespace>{Ns("ops"), Ns("shop")}));
  EXPECT_EQ(c.ListNamespaces(Ns("shop")).value(), std::vector<Namespace>{Ns("shop.eu")});
  EXPECT_TRUE(c.NamespaceExists(Ns("shop.eu")).value());
  EXPECT_FALSE(c.NamespaceExists(Ns("nope")).value());
  EXPECT_TRUE(c.NamespaceExists(Namespace{}).value());

  auto props = c.LoadNamespaceMetadata(Ns("shop")).value();
  EXPECT_EQ(props.at("owner"), "ana");
  EXPECT_EQ(props.at("tier"), "gold");
  auto missing = c.LoadNamespaceMetadata(Ns("nope"));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "namespace nope does not exist");

  auto update = c.UpdateNamespaceProperties(Ns("shop"), {"tier", "ghost"}, {{"owner", "bo"}, {"region", "eu"}});
  ASSERT_TRUE(update.ok()) << update.status().ToString();
  EXPECT_EQ(update->removed, std::vector<std::string>{"tier"});
  EXPECT_EQ(update->missing, std::vector<std::string>{"ghost"});
  std::vector<std::string> updated = update->updated;
  std::sort(updated.begin(), updated.end());
  EXPECT_EQ(updated, (std::vector<std::string>{"owner", "region"}));
  props = c.LoadNamespaceMetadata(Ns("shop")).value();
  EXPECT_EQ(props.count("tier"), 0u);
  EXPECT_EQ(props.at("owner"), "bo");

  // Not empty: a nested namespace is inside.
  EXPECT_EQ(c.DropNamespace(Ns("shop")).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(c.DropNamespace(Ns("shop.eu")).ok());
  ASSERT_TRUE(c.DropNamespace(Ns("shop")).ok());
  EXPECT_FALSE(c.NamespaceExists(Ns("shop")).value());
  auto gone = c.DropNamespace(Ns("shop"));
  EXPECT_EQ(gone.code(), StatusCode::kNotFound);
  EXPECT_EQ(gone.message(), "namespace shop does not exist");
}

TEST_F(RestCatalogTest, ListingsFollowPages) {
  RestCatalogOptions options;
  options.page_size = 2;
  auto paged = OpenRest(server_->url(), options);
  ASSERT_NE(paged, nullptr);
  std::vector<Namespace> expected;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(paged->CreateNamespace(Ns(StrCat("n", i)), {}).ok());
    expected.push_back(Ns(StrCat("n", i)));
  }
  EXPECT_EQ(paged->ListNamespaces(Namespace{}).value(), expected);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(paged->CreateTable(Ident(StrCat("n0.t", i)), OrdersRequest()).ok());
  }
  auto tables = paged->ListTables(Ns("n0")).value();
  ASSERT_EQ(tables.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(tables[static_cast<size_t>(i)], Ident(StrCat("n0.t", i)));
}

TEST_F(RestCatalogTest, TablesRoundTrip) {
  Catalog& c = *catalog_;
  auto no_ns = c.CreateTable(Ident("shop.orders"), OrdersRequest());
  EXPECT_EQ(no_ns.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(no_ns.status().message(), "namespace shop does not exist");

  ASSERT_TRUE(c.CreateNamespace(Ns("shop"), {}).ok());
  auto created = c.CreateTable(Ident("shop.orders"), OrdersRequest());
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_FALSE(created->metadata_location.empty());
  EXPECT_EQ(created->metadata->current_schema()->fields().size(), 2u);
  EXPECT_EQ(c.CreateTable(Ident("shop.orders"), OrdersRequest()).status().code(), StatusCode::kAlreadyExists);

  auto loaded = c.LoadTable(Ident("shop.orders"));
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->metadata_location, created->metadata_location);
  EXPECT_EQ(loaded->metadata->table_uuid, created->metadata->table_uuid);
  EXPECT_TRUE(c.TableExists(Ident("shop.orders")).value());
  EXPECT_FALSE(c.TableExists(Ident("shop.nope")).value());
  auto missing = c.LoadTable(Ident("shop.nope"));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "table shop.nope does not exist");
  EXPECT_EQ(c.ListTables(Ns("shop")).value(), std::vector<TableIdentifier>{Ident("shop.orders")});

  // Rename, then register the same metadata file under a second name.
  ASSERT_TRUE(c.RenameTable(Ident("shop.orders"), Ident("shop.sales")).ok());
  EXPECT_FALSE(c.TableExists(Ident("shop.orders")).value());
  EXPECT_EQ(c.RenameTable(Ident("shop.orders"), Ident("shop.x")).code(), StatusCode::kNotFound);
  auto registered = c.RegisterTable(Ident("shop.copy"), created->metadata_location);
  ASSERT_TRUE(registered.ok()) << registered.status().ToString();
  EXPECT_EQ(registered->metadata->table_uuid, created->metadata->table_uuid);
  EXPECT_EQ(c.ListTables(Ns("shop")).value(), (std::vector<TableIdentifier>{Ident("shop.copy"), Ident("shop.sales")}));

  ASSERT_TRUE(c.DropTable(Ident("shop.copy"), /*purge=*/false).ok());
  ASSERT_TRUE(c.DropTable(Ident("shop.sales"), /*purge=*/true).ok());
  EXPECT_EQ(c.DropTable(Ident("shop.sales"), false).code(), StatusCode::kNotFound);
  EXPECT_TRUE(c.ListTables(Ns("shop")).value().empty());
  // Purged: the metadata file is gone.
  EXPECT_EQ(NewLocalFileIO()->Stat(created->metadata_location).status().code(), StatusCode::kNotFound);
}

TEST_F(RestCatalogTest, CommitTableChecksRequirements) {
  Catalog& c = *catalog_;
  ASSERT_TRUE(c.CreateNamespace(Ns("shop"), {}).ok());
  auto created = c.CreateTable(Ident("shop.orders"), OrdersRequest()).value();
  const std::string uuid = created.metadata->table_uuid;
  auto committed = c.CommitTable(Ident("shop.orders"), {iceberg::AssertTableUuid{uuid}},
                                 {iceberg::SetProperties{{{"k", "v"}}}});
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->metadata->properties.at("k"), "v");
  EXPECT_NE(committed->metadata_location, created.metadata_location);

  auto conflict = c.CommitTable(Ident("shop.orders"), {iceberg::AssertTableUuid{"00000000-0000-0000-0000-000000000000"}},
                                {iceberg::SetProperties{{{"k", "w"}}}});
  EXPECT_EQ(conflict.status().code(), StatusCode::kCommitConflict);
  EXPECT_EQ(c.LoadTable(Ident("shop.orders"))->metadata->properties.at("k"), "v");
  auto no_table = c.CommitTable(Ident("shop.nope"), {}, {iceberg::SetProperties{{{"k", "v"}}}});
  EXPECT_EQ(no_table.status().code(), StatusCode::kNotFound);
}

TEST_F(RestCatalogTest, TransactionsCommitSeveralTablesAtomically) {
  Catalog& c = *catalog_;
  ASSERT_TRUE(c.CreateNamespace(Ns("shop"), {}).ok());
  auto a = c.CreateTable(Ident("shop.a"), OrdersRequest()).value();
  auto b = c.CreateTable(Ident("shop.b"), OrdersRequest()).value();
  auto states = c.CommitTransaction(
      {TableCommit{Ident("shop.a"), {iceberg::AssertTableUuid{a.metadata->table_uuid}}, {iceberg::SetProperties{{{"k", "1"}}}}},
       TableCommit{Ident("shop.b"), {iceberg::AssertTableUuid{b.metadata->table_uuid}}, {iceberg::SetProperties{{{"k", "2"}}}}}});
  ASSERT_TRUE(states.ok()) << states.status().ToString();
  ASSERT_EQ(states->size(), 2u);
  EXPECT_EQ((*states)[0].metadata->properties.at("k"), "1");
  EXPECT_EQ((*states)[1].metadata->properties.at("k"), "2");
  // One failing requirement: neither table moves.
  auto conflict = c.CommitTransaction(
      {TableCommit{Ident("shop.a"), {}, {iceberg::SetProperties{{{"k", "3"}}}}},
       TableCommit{Ident("shop.b"), {iceberg::AssertTableUuid{a.metadata->table_uuid}}, {iceberg::SetProperties{{{"k", "4"}}}}}});
  EXPECT_EQ(conflict.status().code(), StatusCode::kCommitConflict) << conflict.status().ToString();
  EXPECT_EQ(c.LoadTable(Ident("shop.a"))->metadata->properties.at("k"), "1");
}

TEST_F(RestCatalogTest, AppendsAndScansThroughTableOperations) {
  CreateRowsTable(*catalog_);
  iceberg::Table table(catalog_->NewTableOps(Ident(kTableName)));
  const Rows first = MakeRows(1, 3, {"eu", "us"});
  ASSERT_TRUE(table.Append(SourceFor(table, first).value()).ok());
  const Rows second = MakeRows(100, 2, {"eu"});
  auto appended = table.Append(SourceFor(table, second).value());
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  EXPECT_EQ(ScanRows(table).value(), Sorted(ModelAppend(first, second)));

  auto state = catalog_->LoadTable(Ident(kTableName)).value();
  EXPECT_EQ(state.metadata->snapshots.size(), 2u);
  EXPECT_EQ(state.metadata->current_snapshot()->snapshot_id, appended->commit.snapshot_id);
  EXPECT_EQ(state.metadata->metadata_log.size(), 2u);  // the server keeps the log
  EXPECT_EQ(ScanSnapshot(table, state.metadata->snapshots[0].snapshot_id).value(), Sorted(first));
}

TEST_F(RestCatalogTest, ALostRaceIsACommitConflictAndNothingChanges) {
  CreateRowsTable(*catalog_);
  iceberg::Table other(catalog_->NewTableOps(Ident(kTableName)));
  ASSERT_TRUE(other.Append(SourceFor(other, MakeRows(1, 1, {"eu"})).value()).ok());
  auto ops = catalog_->NewTableOps(Ident(kTableName));
  auto base = ops->Refresh().value();
  ASSERT_TRUE(other.Append(SourceFor(other, MakeRows(5, 1, {"eu"})).value()).ok());
  // A change of main on the stale base: assert-ref-snapshot-id fails.
  iceberg::TableMetadata updated = *base.metadata;
  updated.refs.erase("main");
  updated.current_snapshot_id.reset();
  auto conflict = ops->Commit(base, updated);
  EXPECT_EQ(conflict.status().code(), StatusCode::kCommitConflict) << conflict.status().ToString();
  auto now = catalog_->LoadTable(Ident(kTableName)).value();
  EXPECT_EQ(now.metadata->snapshots.size(), 2u);
  EXPECT_TRUE(now.metadata->current_snapshot_id.has_value());
  // A property change asserts only the uuid: it applies on the moved table.
  auto props = ops->Commit(base, WithProperty(*base.metadata, "a", "1"));
  ASSERT_TRUE(props.ok()) << props.status().ToString();
  EXPECT_EQ(props->metadata->snapshots.size(), 2u);
  EXPECT_EQ(props->metadata->properties.at("a"), "1");
}

// Forwards Refresh; before each Commit, has the proxy cut the next new
// connection after the server answered.
class DroppingOps final : public iceberg::TableOperations {
 public:
  DroppingOps(std::shared_ptr<iceberg::TableOperations> inner, floe::testing::TcpProxy* proxy,
              floe::testing::TcpProxy::Mode mode)
      : inner_(std::move(inner)), proxy_(proxy), mode_(mode) {}
  Result<iceberg::TableState> Refresh() override { return inner_->Refresh(); }
  Result<iceberg::TableState> Commit(const iceberg::TableState& base, const iceberg::TableMetadata& updated) override {
    proxy_->Queue(mode_, 1);
    return inner_->Commit(base, updated);
  }
  FileIO& io() override { return inner_->io(); }
  std::string name() const override { return inner_->name(); }

 private:
  std::shared_ptr<iceberg::TableOperations> inner_;
  floe::testing::TcpProxy* proxy_;
  floe::testing::TcpProxy::Mode mode_;
};

// Through the proxy, one connection per request, so a queued mode hits the
// request it is meant for. Without Idempotency-Key unless asked: a lost
// answer is then resolved by reloading.
std::shared_ptr<RestCatalog> OpenThroughProxy(const floe::testing::TcpProxy& proxy, bool idempotency_keys = false) {
  RestCatalogOptions options;
  options.idempotency_keys = idempotency_keys;
  options.http.http.reuse_connections = false;
  options.http.http.request_timeout_ms = 2000;
  options.unknown_commit_pause_ms = 20;
  return OpenRest(StrCat("http://127.0.0.1:", proxy.port()), std::move(options));
}

TEST_F(RestCatalogTest, ALostCommitAnswerIsResolvedByReloadingNotByResending) {
  CreateRowsTable(*catalog_);
  floe::testing::TcpProxy proxy(server_->port());
  auto through = OpenThroughProxy(proxy);
  ASSERT_NE(through, nullptr);
  auto ops = std::make_shared<DroppingOps>(through->NewTableOps(Ident(kTableName)), &proxy,
                                           floe::testing::TcpProxy::Mode::kDropResponse);
  iceberg::Table table(ops);
  const Rows rows = MakeRows(1, 4, {"eu", "us"});
  auto appended = table.Append(SourceFor(table, rows).value());
  // The server committed; the client never heard, reloaded and found its snapshot.
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  auto state = catalog_->LoadTable(Ident(kTableName)).value();
  ASSERT_EQ(state.metadata->snapshots.size(), 1u);  // exactly once
  EXPECT_EQ(state.metadata->snapshots[0].snapshot_id, appended->commit.snapshot_id);
  EXPECT_EQ(appended->commit.attempts, 1);
  iceberg::Table direct(catalog_->NewTableOps(Ident(kTableName)));
  EXPECT_EQ(ScanRows(direct).value(), Sorted(rows));

  // A property commit (no snapshot to look for) is recognised by its effect.
  auto base = ops->Refresh().value();
  auto committed = ops->Commit(base, WithProperty(*base.metadata, "k", "v"));
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->metadata->properties.at("k"), "v");
  EXPECT_EQ(catalog_->LoadTable(Ident(kTableName))->metadata->metadata_log.size(),
            state.metadata->metadata_log.size() + 1);
}

TEST_F(RestCatalogTest, ACommitThatNeverArrivedStaysUnknownUntilTheTableMovesOn) {
  CreateRowsTable(*catalog_);
  floe::testing::TcpProxy proxy(server_->port());
  auto through = OpenThroughProxy(proxy);
  ASSERT_NE(through, nullptr);
  auto ops = through->NewTableOps(Ident(kTableName));
  auto base = ops->Refresh().value();
  // Swallowed: the server never saw it, the client cannot know — and
  // reloading shows nothing either way, so it must not guess.
  proxy.Queue(floe::testing::TcpProxy::Mode::kHang, 1);
  auto unknown = ops->Commit(base, WithProperty(*base.metadata, "k", "v"));
  EXPECT_EQ(unknown.status().code(), StatusCode::kCommitStateUnknown) << unknown.status().ToString();
  EXPECT_EQ(catalog_->LoadTable(Ident(kTableName))->metadata->properties.count("k"), 0u);

  // An append swallowed while another writer moves main: the lost request's
  // assert-ref-snapshot-id can never hold again, so it is a plain conflict
  // and the operation's loop retries it.
  iceberg::Table other(catalog_->NewTableOps(Ident(kTableName)));
  ASSERT_TRUE(other.Append(SourceFor(other, MakeRows(1, 1, {"eu"})).value()).ok());
  auto stale = ops->Refresh().value();
  ASSERT_TRUE(other.Append(SourceFor(other, MakeRows(5, 1, {"eu"})).value()).ok());
  iceberg::TableMetadata updated = *stale.metadata;
  updated.refs.erase("main");
  updated.current_snapshot_id.reset();
  proxy.Queue(floe::testing::TcpProxy::Mode::kHang, 1);
  auto conflict = ops->Commit(stale, updated);
  EXPECT_EQ(conflict.status().code(), StatusCode::kCommitConflict) << conflict.status().ToString();
}

// The access-log lines of the server in `dir` that contain `text`, waiting
// up to two seconds for `at_least` of them (a line is written just after
// its answer).
size_t LogLines(const floe::testing::TempDir& dir, const std::string& text, size_t at_least) {
  size_t n = 0;
  for (int wait = 0; wait < 200; ++wait) {
    auto log = NewLocalFileIO()->ReadAll(dir.Join("serve.log"));
    n = 0;
    if (log.ok()) {
      for (std::string_view line : Split(log->view(), '\n')) n += line.find(text) != std::string_view::npos;
    }
    if (n >= at_least) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return n;
}

TEST_F(RestCatalogTest, RefreshSendsItsETagAndKeepsItsCopyWhenNotModified) {
  CreateRowsTable(*catalog_);
  auto ops = catalog_->NewTableOps(Ident(kTableName));
  iceberg::TableState first = ops->Refresh().value();
  iceberg::TableState second = ops->Refresh().value();
  // 304: the same metadata object, not a second parse of the same file.
  EXPECT_EQ(second.metadata.get(), first.metadata.get());
  EXPECT_EQ(second.metadata_location, first.metadata_location);
  const std::string load = StrCat("GET /v1/namespaces/", Ident(kTableName).ns.ToString(), "/tables/",
                                  Ident(kTableName).name, " ");
  EXPECT_EQ(LogLines(dir_, load + "304", 1), 1u);

  // Another writer moves the table: the next Refresh reads the new state.
  auto other = OpenRest(server_->url());
  ASSERT_NE(other, nullptr);
  iceberg::TableState moved = other->CommitTable(Ident(kTableName), {}, {iceberg::SetProperties{{{"k", "v"}}}}).value();
  iceberg::TableState third = ops->Refresh().value();
  EXPECT_EQ(third.metadata_location, moved.metadata_location);
  EXPECT_EQ(third.metadata->properties.at("k"), "v");
  // A commit through the operations hands its answer's ETag on.
  iceberg::TableState fourth = ops->Commit(third, WithProperty(*third.metadata, "k2", "v2")).value();
  EXPECT_EQ(ops->Refresh().value().metadata.get(), fourth.metadata.get());
  EXPECT_EQ(LogLines(dir_, load + "304", 2), 2u);
}

TEST_F(RestCatalogTest, ALostCommitAnswerIsReplayedForItsIdempotencyKey) {
  CreateRowsTable(*catalog_);
  floe::testing::TcpProxy proxy(server_->port());
  auto through = OpenThroughProxy(proxy, /*idempotency_keys=*/true);
  ASSERT_NE(through, nullptr);
  auto ops = std::make_shared<DroppingOps>(through->NewTableOps(Ident(kTableName)), &proxy,
                                           floe::testing::TcpProxy::Mode::kDropResponse);
  iceberg::Table table(ops);
  const Rows rows = MakeRows(1, 4, {"eu", "us"});
  auto appended = table.Append(SourceFor(table, rows).value());
  // The server committed; the client sent it again with the same key and
  // got the first answer back, without a second run.
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  EXPECT_EQ(appended->commit.attempts, 1);
  auto state = catalog_->LoadTable(Ident(kTableName)).value();
  ASSERT_EQ(state.metadata->snapshots.size(), 1u);
  EXPECT_EQ(state.metadata->snapshots[0].snapshot_id, appended->commit.snapshot_id);
  EXPECT_EQ(state.metadata->metadata_log.size(), 1u);  // one commit after the create
  const std::string commit = StrCat("POST /v1/namespaces/", Ident(kTableName).ns.ToString(), "/tables/",
                                    Ident(kTableName).name, " 200");
  EXPECT_EQ(LogLines(dir_, commit, 2), 2u);
  EXPECT_EQ(LogLines(dir_, "replayed", 1), 1u);

  // A swallowed commit (the server never saw it) is sent again with its key
  // after the timeout, and lands once.
  auto base = ops->Refresh().value();
  proxy.Queue(floe::testing::TcpProxy::Mode::kHang, 1);
  auto committed = through->NewTableOps(Ident(kTableName))->Commit(base, WithProperty(*base.metadata, "k", "v"));
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  auto now = catalog_->LoadTable(Ident(kTableName)).value();
  EXPECT_EQ(now.metadata->properties.at("k"), "v");
  EXPECT_EQ(now.metadata->metadata_log.size(), 2u);
}

}  // namespace
}  // namespace floe::catalog
