// RestCatalog's protocol logic against a scripted REST endpoint: config and
// prefix discovery, paths and pagination, the error model, and commits whose
// outcome the server reports as unknown, Idempotency-Key on commits resent
// after a lost answer — a test double for answers a healthy `floe serve`
// does not give (rest_catalog_test.cc runs the real one).

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <deque>
#include <thread>

#include "catalog/catalog_test_util.h"
#include "floe/base/strings.h"
#include "floe/catalog/rest/error_model.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest_catalog.h"
#include "floe/iceberg/new_table_metadata.h"
#include "testing/tcp_proxy.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

class ScriptedRest {
 public:
  ScriptedRest() {
    server_.Get("/v1/config", [this](const httplib::Request& req, httplib::Response& res) {
      warehouse_seen = req.get_param_value("warehouse");
      res.set_content(config, "application/json");
    });
  }
  void Start() {
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~ScriptedRest() {
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }
  httplib::Server& server() { return server_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  std::string warehouse_seen;
  // The /v1/config answer; set before Start().
  std::string config = R"({"defaults":{"prefix":"ignored","a":"server-default"},"overrides":{"prefix":"p1"}})";

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

std::shared_ptr<RestCatalog> Open(const ScriptedRest& rest) {
  RestCatalogOptions options;
  options.uri = rest.url() + "/";
  options.warehouse = "s3://bucket/wh";
  options.properties = {{"prefix", "mine"}, {"b", "client"}};
  options.unknown_commit_reloads = 3;
  options.unknown_commit_pause_ms = 1;
  auto catalog = RestCatalog::Open(std::move(options), NewMemoryFileIO());
  EXPECT_TRUE(catalog.ok()) << catalog.status().ToString();
  return catalog.ok() ? *catalog : nullptr;
}

void Error(httplib::Response& res, int code, const std::string& type, const std::string& message) {
  res.status = code;
  res.set_content(rest::ErrorResponseToJson(rest::ErrorModel{message, type, code, {}}), "application/json");
}

iceberg::TableMetadata OrdersMetadata() {
  const CreateTableRequest request = OrdersRequest();
  iceberg::TableDefinition def{request.schema, request.partition_spec, request.sort_order, "memory://wh/a/t", {}, 2};
  return iceberg::NewTableMetadata(def).value();
}

std::string LoadResult(const iceberg::TableMetadata& m, const std::string& location) {
  return rest::ToJson(rest::LoadTableResult{location, m, {}}).value();
}

TEST(RestCatalogScriptedTest, ConfigOverridesPickThePrefixAndListingsFollowPages) {
  ScriptedRest rest;
  std::atomic<int> pages{0};
  std::string parent_seen;
  rest.server().Get("/v1/p1/namespaces", [&](const httplib::Request& req, httplib::Response& res) {
    parent_seen = req.get_param_value("parent");
    const std::string token = req.get_param_value("pageToken");
    ++pages;
    if (token.empty()) {
      res.set_content(R"({"namespaces":[["a","b","z"],["a","b","c"]],"next-page-token":"t1"})", "application/json");
    } else if (token == "t1") {
      res.set_content(R"({"namespaces":[["a","b","m"]],"next-page-token":null})", "application/json");
    } else {
      res.status = 400;
    }
  });
  rest.Start();
  auto catalog = Open(rest);
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(rest.warehouse_seen, "s3://bucket/wh");
  EXPECT_EQ(catalog->prefix(), "p1");  // overrides beat the client, which beats defaults
  EXPECT_EQ(catalog->properties().at("a"), "server-default");
  EXPECT_EQ(catalog->properties().at("b"), "client");

  auto list = catalog->ListNamespaces(Ns("a.b"));
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  EXPECT_EQ(*list, (std::vector<Namespace>{Ns("a.b.c"), Ns("a.b.m"), Ns("a.b.z")}));
  EXPECT_EQ(pages, 2);
  EXPECT_EQ(parent_seen, std::string("a\x1f" "b"));  // sent as a%1Fb
}

TEST(RestCatalogScriptedTest, APageTokenThatDoesNotAdvanceIsCorrupt) {
  ScriptedRest rest;
  rest.server().Get("/v1/p1/namespaces/a/tables", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"identifiers":[{"namespace":["a"],"name":"t"}],"next-page-token":"same"})", "application/json");
  });
  rest.Start();
  auto catalog = Open(rest);
  ASSERT_NE(catalog, nullptr);
  auto list = catalog->ListTables(Ns("a"));
  EXPECT_EQ(list.status().code(), StatusCode::kCorrupt);
}

TEST(RestCatalogScriptedTest, ErrorModelMapsToStatusWithFloeWording) {
  ScriptedRest rest;
  rest.server().Get(R"(/v1/p1/namespaces/a%1Fb/tables/t)", [&](const httplib::Request&, httplib::Response& res) {
    Error(res, 404, "NoSuchTableException", "Table does not exist: a.b.t");
  });
  rest.server().Get(R"(/v1/p1/namespaces/a\x1Fb/tables/t)", [&](const httplib::Request&, httplib::Response& res) {
    Error(res, 404, "NoSuchTableException", "Table does not exist: a.b.t");
  });
  rest.server().Delete("/v1/p1/namespaces/a", [&](const httplib::Request&, httplib::Response& res) {
    Error(res, 409, "NamespaceNotEmptyException", "Namespace a is not empty");
  });
  rest.server().Post("/v1/p1/namespaces", [&](const httplib::Request&, httplib::Response& res) {
    Error(res, 403, "ForbiddenException", "no write access to a");
  });
  rest.server().Get("/v1/p1/namespaces/gone", [&](const httplib::Request&, httplib::Response& res) {
    res.status = 404;  // no body: a proxy's answer
  });
  rest.Start();
  auto catalog = Open(rest);
  ASSERT_NE(catalog, nullptr);
  auto missing = catalog->LoadTable(Ident("a.b.t"));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "table a.b.t does not exist");
  EXPECT_EQ(catalog->DropNamespace(Ns("a")).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(catalog->CreateNamespace(Ns("a"), {}).code(), StatusCode::kPermissionDenied);
  auto gone = catalog->LoadNamespaceMetadata(Ns("gone"));
  EXPECT_EQ(gone.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(gone.status().message(), "namespace gone does not exist");
}

// A table whose commits the script answers; loads return `current`.
struct CommitScript {
  std::mutex mutex;
  iceberg::TableMetadata current = OrdersMetadata();
  int commits = 0;
  int loads = 0;
  int commit_status = 502;
  std::deque<int> next_statuses;  // answers for the next commits, before commit_status
  bool apply = false;  // whether the "lost" commit took effect
  std::vector<std::string> commit_keys;  // the Idempotency-Key of each commit ("" for none)
  std::vector<std::string> load_keys;    // and of each load

  void Install(ScriptedRest& rest) {
    rest.server().Get("/v1/p1/namespaces/a/tables/t", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mutex);
      ++loads;
      load_keys.push_back(req.get_header_value("Idempotency-Key"));
      res.set_content(LoadResult(current, "memory://wh/a/t/metadata/v.json"), "application/json");
    });
    rest.server().Post("/v1/p1/namespaces/a/tables/t", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mutex);
      ++commits;
      commit_keys.push_back(req.get_header_value("Idempotency-Key"));
      int status = commit_status;
      if (!next_statuses.empty()) {
        status = next_statuses.front();
        next_statuses.pop_front();
      }
      auto request = rest::ParseCommitTableRequest(req.body);
      if (!request.ok()) {
        Error(res, 400, "BadRequestException", request.status().message());
        return;
      }
      // A 409 changes nothing, whatever `apply` says.
      if (apply && status != 409) {
        current = iceberg::ApplyTableChanges(&current, request->requirements, request->updates).value();
      }
      if (status == 200) {
        res.set_content(rest::ToJson(rest::CommitTableResponse{"memory://wh/a/t/metadata/v2.json", current}).value(),
                        "application/json");
      } else if (status == 409) {
        Error(res, 409, "CommitFailedException", "Requirement failed: branch main has changed");
      } else {
        res.status = status;  // a gateway's answer, no body
      }
    });
  }
};

iceberg::Snapshot NewSnapshot(int64_t id) {
  iceberg::Snapshot s;
  s.snapshot_id = id;
  s.sequence_number = 1;
  s.timestamp_ms = 1'700'000'000'000;
  s.manifest_list = "memory://wh/a/t/metadata/snap-" + std::to_string(id) + ".avro";
  s.operation = "append";
  s.schema_id = 0;
  return s;
}

iceberg::SnapshotRef MainRef(int64_t id) {
  iceberg::SnapshotRef ref;
  ref.snapshot_id = id;
  return ref;
}

iceberg::TableMetadata Appended(const iceberg::TableMetadata& base, int64_t id) {
  return iceberg::ApplyTableChanges(&base, {},
                                    {iceberg::AddSnapshot{NewSnapshot(id)},
                                     iceberg::SetSnapshotRef{"main", MainRef(id)}})
      .value();
}

TEST(RestCatalogScriptedTest, UnknownCommitThatLandedIsFoundByReloading) {
  ScriptedRest rest;
  CommitScript script;
  script.apply = true;
  script.commit_status = 504;
  script.Install(rest);
  rest.Start();
  auto catalog = Open(rest);
  ASSERT_NE(catalog, nullptr);
  auto ops = catalog->NewTableOps(Ident("a.t"));
  auto base = ops->Refresh().value();
  auto committed = ops->Commit(base, Appended(*base.metadata, 77));
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_NE(committed->metadata->SnapshotById(77), nullptr);
  EXPECT_EQ(script.commits, 1);  // never sent twice
  EXPECT_EQ(script.loads, 2);    // the refresh, and one reload that found it
}

TEST(RestCatalogScriptedTest, UnknownCommitThatDidNotShowStaysUnknown) {
  ScriptedRest rest;
  CommitScript script;
  script.commit_status = 502;
  script.Install(rest);
  rest.Start();
  auto catalog = Open(rest);
  ASSERT_NE(catalog, nullptr);
  auto ops = catalog->NewTableOps(Ident("a.t"));
  auto base = ops->Refresh().value();
  auto committed = ops->Commit(base, Appended(*base.metadata, 77));
  EXPECT_EQ(committed.status().code(), StatusCode::kCommitStateUnknown) << committed.status().ToString();
  EXPECT_EQ(script.commits, 1);
  EXPECT_EQ(script.loads, 1 + 3);  // every reload of the budget, then it gives up
}

TEST(RestCatalogScriptedTest, UnknownCommitOvertakenByAnotherIsAConflict) {
  ScriptedRest rest;
  CommitScript script;
  script.commit_status = 500;
  script.Install(rest);
  rest.Start();
  auto catalog = Open(rest);
  ASSERT_NE(catalog, nullptr);
  auto ops = catalog->NewTableOps(Ident("a.t"));
  auto base = ops->Refresh().value();
  {
    std::lock_guard lock(script.mutex);
    script.current = Appended(script.current, 5);  // another writer's commit
  }
  auto committed = ops->Commit(base, Appended(*base.metadata, 77));
  EXPECT_EQ(committed.status().code(), StatusCode::kCommitConflict) << committed.status().ToString();
  EXPECT_EQ(script.commits, 1);
}

TEST(RestCatalogScriptedTest, CommitSendsRequirementsAndMaps409ToConflict) {
  ScriptedRest rest;
  CommitScript script;
  script.commit_status = 409;
  std::string body;
  script.Install(rest);
  rest.Start();
  auto catalog = Open(rest);
  ASSERT_NE(catalog, nullptr);
  auto ops = catalog->NewTableOps(Ident("a.t"));
  auto base = ops->Refresh().value();
  auto committed = ops->Commit(base, Appended(*base.metadata, 77));
  EXPECT_EQ(committed.status().code(), StatusCode::kCommitConflict);
  EXPECT_NE(committed.status().message().find("branch main has changed"), std::string::npos);

  script.commit_status = 200;
  script.apply = true;
  committed = ops->Commit(base, Appended(*base.metadata, 78));
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(committed->metadata_location, "memory://wh/a/t/metadata/v2.json");
  EXPECT_EQ(committed->metadata->current_snapshot()->snapshot_id, 78);
}

// RFC 9562 UUIDv7 text: version 7, variant 10.
bool IsUuidV7(const std::string& u) {
  return u.size() == 36 && u[8] == '-' && u[13] == '-' && u[14] == '7' && u[18] == '-' && u[23] == '-' &&
         std::string("89ab").find(u[19]) != std::string::npos;
}

// Through a proxy that can cut the answer of a commit, one connection per
// request.
std::shared_ptr<RestCatalog> OpenScriptedThroughProxy(const floe::testing::TcpProxy& proxy) {
  RestCatalogOptions options;
  options.uri = StrCat("http://127.0.0.1:", proxy.port());
  options.unknown_commit_reloads = 3;
  options.unknown_commit_pause_ms = 1;
  options.http.http.reuse_connections = false;
  options.http.retry.base_delay_ms = 1;
  auto catalog = RestCatalog::Open(std::move(options), NewMemoryFileIO());
  EXPECT_TRUE(catalog.ok()) << catalog.status().ToString();
  return catalog.ok() ? *catalog : nullptr;
}

TEST(RestCatalogScriptedTest, ACommitWhoseAnswerWasLostIsResentWithTheSameKey) {
  ScriptedRest rest;
  rest.config = R"({"defaults":{},"overrides":{"prefix":"p1"},"idempotency-key-lifetime":"PT30M"})";
  CommitScript script;
  script.apply = true;
  // The first attempt lands and its answer is cut; the resend meets a server
  // that no longer knows the key (a restart) and whose requirement now fails.
  script.next_statuses = {200, 409};
  script.Install(rest);
  rest.Start();
  floe::testing::TcpProxy proxy(std::stoi(rest.url().substr(rest.url().rfind(':') + 1)));
  auto catalog = OpenScriptedThroughProxy(proxy);
  ASSERT_NE(catalog, nullptr);
  auto ops = catalog->NewTableOps(Ident("a.t"));
  auto base = ops->Refresh().value();
  proxy.Queue(floe::testing::TcpProxy::Mode::kDropResponse, 1);
  auto committed = ops->Commit(base, Appended(*base.metadata, 77));
  // The 409 after a resend is no proof it did not land: the reload finds it.
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_NE(committed->metadata->SnapshotById(77), nullptr);
  ASSERT_EQ(script.commit_keys.size(), 2u);
  EXPECT_TRUE(IsUuidV7(script.commit_keys[0])) << script.commit_keys[0];
  EXPECT_EQ(script.commit_keys[1], script.commit_keys[0]);  // one operation, one key
  EXPECT_EQ(script.loads, 2);                               // the refresh and one reload

  // The next operation gets a key of its own; loads never carry one.
  script.commit_status = 200;
  auto next = ops->Commit(*committed, Appended(*committed->metadata, 78));
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  ASSERT_EQ(script.commit_keys.size(), 3u);
  EXPECT_TRUE(IsUuidV7(script.commit_keys[2]));
  EXPECT_NE(script.commit_keys[2], script.commit_keys[0]);
  for (const std::string& key : script.load_keys) EXPECT_EQ(key, "");
}

TEST(RestCatalogScriptedTest, WithoutAnIdempotencyLifetimeACommitIsNeverResent) {
  ScriptedRest rest;  // its config announces no idempotency-key-lifetime
  CommitScript script;
  script.apply = true;
  script.commit_status = 200;
  script.Install(rest);
  rest.Start();
  floe::testing::TcpProxy proxy(std::stoi(rest.url().substr(rest.url().rfind(':') + 1)));
  auto catalog = OpenScriptedThroughProxy(proxy);
  ASSERT_NE(catalog, nullptr);
  auto ops = catalog->NewTableOps(Ident("a.t"));
  auto base = ops->Refresh().value();
  proxy.Queue(floe::testing::TcpProxy::Mode::kDropResponse, 1);
  auto committed = ops->Commit(base, Appended(*base.metadata, 77));
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();  // found by reloading
  EXPECT_NE(committed->metadata->SnapshotById(77), nullptr);
  EXPECT_EQ(script.commit_keys, std::vector<std::string>{""});  // sent once, no key
}

}  // namespace
}  // namespace floe::catalog
