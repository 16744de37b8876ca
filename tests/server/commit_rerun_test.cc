// The server re-runs a commit that lost the pointer swap, and only that: it
// reads Status::IsSwapLost, never a message's wording. A catalog in front of
// the SQL catalog fails the next commits with a chosen status.

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <mutex>

#include "catalog/catalog_test_util.h"
#include "floe/server/handlers.h"
#include "floe/server/rest_server.h"
#include "testing/temp_dir.h"

namespace floe::server {
namespace {

using catalog::Catalog;
using catalog::Namespace;
using catalog::TableIdentifier;

// Forwards to `inner`; CommitTable and CommitTransaction fail with the
// queued status while failures are queued.
class FailingCommits final : public Catalog {
 public:
  explicit FailingCommits(std::shared_ptr<Catalog> inner) : inner_(std::move(inner)) {}

  void FailNext(int n, Status status) {
    std::lock_guard lock(mutex_);
    failures_ = n;
    status_ = std::move(status);
  }
  int commit_calls() const { return calls_.load(); }

  const std::string& name() const override { return inner_->name(); }
  Status CreateNamespace(const Namespace& ns, const catalog::Properties& p) override {
    return inner_->CreateNamespace(ns, p);
  }
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override {
    return inner_->ListNamespaces(parent);
  }
  Result<catalog::Properties> LoadNamespaceMetadata(const Namespace& ns) override {
    return inner_->LoadNamespaceMetadata(ns);
  }
  Result<bool> NamespaceExists(const Namespace& ns) override { return inner_->NamespaceExists(ns); }
  Status DropNamespace(const Namespace& ns) override { return inner_->DropNamespace(ns); }
  Result<catalog::NamespacePropertiesUpdate> UpdateNamespaceProperties(const Namespace& ns,
                                                                       const std::vector<std::string>& removals,
                                                                       const catalog::Properties& updates) override {
    return inner_->UpdateNamespaceProperties(ns, removals, updates);
  }
  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override { return inner_->ListTables(ns); }
  Result<iceberg::TableState> CreateTable(const TableIdentifier& ident,
                                          const catalog::CreateTableRequest& request) override {
    return inner_->CreateTable(ident, request);
  }
  Result<iceberg::TableState> LoadTable(const TableIdentifier& ident) override { return inner_->LoadTable(ident); }
  Result<bool> TableExists(const TableIdentifier& ident) override { return inner_->TableExists(ident); }
  Status DropTable(const TableIdentifier& ident, bool purge) override { return inner_->DropTable(ident, purge); }
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override {
    return inner_->RenameTable(from, to);
  }
  using Catalog::RegisterTable;
  Result<iceberg::TableState> RegisterTable(const TableIdentifier& ident, const std::string& location,
                                            bool overwrite) override {
    return inner_->RegisterTable(ident, location, overwrite);
  }
  Result<iceberg::TableState> CommitTable(const TableIdentifier& ident,
                                          const std::vector<iceberg::TableRequirement>& requirements,
                                          const std::vector<iceberg::TableUpdate>& updates) override {
    if (Status s = NextFailure(); !s.ok()) return s;
    return inner_->CommitTable(ident, requirements, updates);
  }
  Result<std::vector<iceberg::TableState>> CommitTransaction(
      const std::vector<catalog::TableCommit>& commits) override {
    if (Status s = NextFailure(); !s.ok()) return s;
    return inner_->CommitTransaction(commits);
  }
  std::shared_ptr<iceberg::TableOperations> NewTableOps(const TableIdentifier& ident) override {
    return inner_->NewTableOps(ident);
  }

 private:
  Status NextFailure() {
    ++calls_;
    std::lock_guard lock(mutex_);
    if (failures_ == 0) return Status::OK();
    --failures_;
    return status_;
  }

  std::shared_ptr<Catalog> inner_;
  std::atomic<int> calls_{0};
  std::mutex mutex_;
  int failures_ = 0;  // guarded by mutex_
  Status status_;     // guarded by mutex_
};

class CommitRerunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto sql = catalog::testing::OpenSqlCatalog(dir_);
    ASSERT_NE(sql, nullptr);
    ASSERT_TRUE(sql->CreateNamespace(catalog::testing::Ns("shop"), {}).ok());
    ASSERT_TRUE(sql->CreateTable(catalog::testing::Ident("shop.t"), catalog::testing::OrdersRequest()).ok());
    catalog_ = std::make_shared<FailingCommits>(sql);
    RestServerOptions options;
    options.insecure_dev = true;
    options.port = 0;
    options.warehouse = dir_.Join("warehouse");
    options.access_log = false;
    auto server = RestServer::Make(catalog_, options);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(*server);
    ASSERT_TRUE(server_->Start().ok());
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
  }

  httplib::Result CommitProperty(const std::string& value) {
    return client_->Post("/v1/namespaces/shop/tables/t",
                         R"({"requirements":[],"updates":[{"action":"set-properties","updates":{"k":")" + value +
                             R"("}}]})",
                         "application/json");
  }

  std::string Property() {
    auto state = catalog_->LoadTable(catalog::testing::Ident("shop.t"));
    if (!state.ok()) return state.status().ToString();
    auto it = state->metadata->properties.find("k");
    return it == state->metadata->properties.end() ? "" : it->second;
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<FailingCommits> catalog_;
  std::unique_ptr<RestServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(CommitRerunTest, ALostSwapIsRunAgainWhateverItsMessageSays) {
  catalog_->FailNext(2, Status::CommitConflict("pointer moved").WithConflictReason(ConflictReason::kSwapLost));
  auto r = CommitProperty("1");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(catalog_->commit_calls(), 3);
  EXPECT_EQ(Property(), "1");
}

TEST_F(CommitRerunTest, AFailedRequirementIsNotRunAgainEvenWithTheOldWording) {
  catalog_->FailNext(1, Status::CommitConflict("table shop.t was changed by another commit")
                            .WithConflictReason(ConflictReason::kRequirementFailed));
  auto r = CommitProperty("1");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 409) << r->body;
  EXPECT_NE(r->body.find("CommitFailedException"), std::string::npos) << r->body;
  EXPECT_EQ(catalog_->commit_calls(), 1);
  EXPECT_EQ(Property(), "");
  // A conflict that says no reason is not re-run either.
  catalog_->FailNext(1, Status::CommitConflict("table shop.t was changed by another commit"));
  EXPECT_EQ(CommitProperty("2")->status, 409);
  EXPECT_EQ(catalog_->commit_calls(), 2);
}

TEST_F(CommitRerunTest, SwapsLostEveryTimeEndIn409AfterTheAttempts) {
  catalog_->FailNext(100, Status::CommitConflict("pointer moved").WithConflictReason(ConflictReason::kSwapLost));
  auto r = CommitProperty("1");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 409) << r->body;
  EXPECT_EQ(catalog_->commit_calls(), kCommitAttempts);
  EXPECT_EQ(Property(), "");
}

TEST_F(CommitRerunTest, ATransactionThatLostASwapIsRunAgain) {
  catalog_->FailNext(1, Status::CommitConflict("pointer moved").WithConflictReason(ConflictReason::kSwapLost));
  auto r = client_->Post(
      "/v1/transactions/commit",
      R"({"table-changes":[{"identifier":{"namespace":["shop"],"name":"t"},"requirements":[],)"
      R"("updates":[{"action":"set-properties","updates":{"k":"tx"}}]}]})",
      "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 204) << r->body;
  EXPECT_EQ(catalog_->commit_calls(), 2);
  EXPECT_EQ(Property(), "tx");
}

}  // namespace
}  // namespace floe::server
