#include "catalog/conformance/rest_backends.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "catalog/conformance/postgres_test_server.h"
#include "catalog/rest_server_util.h"
#include "floe/base/strings.h"
#include "floe/catalog/catalog_uri.h"
#include "floe/catalog/rest_catalog.h"

namespace floe::catalog::testing {
namespace {

// Drops every table, view and namespace at and below `ns`, children first.
Status Empty(Catalog& catalog, const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Namespace> children, catalog.ListNamespaces(ns));
  for (const Namespace& child : children) FLOE_RETURN_IF_ERROR(Empty(catalog, child));
  if (ns.empty()) return Status::OK();
  // A namespace that only existed through its children is gone with them.
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog.NamespaceExists(ns));
  if (!exists) return Status::OK();
  FLOE_ASSIGN_OR_RETURN(std::vector<TableIdentifier> tables, catalog.ListTables(ns));
  for (const TableIdentifier& table : tables) FLOE_RETURN_IF_ERROR(catalog.DropTable(table, /*purge=*/false));
  FLOE_ASSIGN_OR_RETURN(std::vector<TableIdentifier> views, catalog.ListViews(ns));
  for (const TableIdentifier& view : views) FLOE_RETURN_IF_ERROR(catalog.DropView(view));
  Status dropped = catalog.DropNamespace(ns);
  // A namespace that only existed through what it held is gone already.
  return dropped.IsNotFound() ? Status::OK() : dropped;
}

// One running `floe serve` and the SQL catalog behind it, opened directly
// (to empty it between tests).
struct RunningServer {
  floe::testing::TempDir dir;
  std::string backing_uri;
  std::unique_ptr<FloeServer> server;
  std::shared_ptr<Catalog> backing;

  std::string warehouse() const { return dir.Join("warehouse"); }
};

class RestInstance final : public CatalogInstance {
 public:
  RestInstance(std::string url, std::string warehouse) : url_(std::move(url)), warehouse_(std::move(warehouse)) {}
  Result<std::shared_ptr<Catalog>> Open() override {
    RestCatalogOptions options;
    options.uri = url_;
    FLOE_ASSIGN_OR_RETURN(auto catalog, RestCatalog::Open(std::move(options), NewLocalFileIO()));
    return std::shared_ptr<Catalog>(std::move(catalog));
  }
  const std::string& warehouse() const override { return warehouse_; }

 private:
  std::string url_;
  std::string warehouse_;
};

class RestFactory final : public CatalogFactory {
 public:
  explicit RestFactory(bool postgres) : postgres_(postgres) {}

  std::string name() const override { return postgres_ ? "rest_postgresql" : "rest_sqlite"; }
  std::string SkipReason() override {
    if (!std::filesystem::exists(FLOE_BINARY)) return StrCat("the floe binary ", FLOE_BINARY, " is not built");
    return postgres_ ? PostgresTestServer::SkipReason() : "";
  }
  bool swaps_the_pointer() const override { return false; }

  Result<std::unique_ptr<CatalogInstance>> NewCatalog(const std::string&) override {
    if (running_ == nullptr) FLOE_RETURN_IF_ERROR(Start());
    FLOE_RETURN_IF_ERROR(Empty(*running_->backing, Namespace{}).WithContext("emptying the served catalog"));
    std::error_code ec;
    std::filesystem::remove_all(running_->warehouse(), ec);
    std::filesystem::create_directories(running_->warehouse(), ec);
    if (ec) return Status::IOError(StrCat("warehouse ", Quote(running_->warehouse()), ": ", ec.message()));
    return std::unique_ptr<CatalogInstance>(
        std::make_unique<RestInstance>(running_->server->url(), running_->warehouse()));
  }

  void Stop() { running_.reset(); }

 private:
  Status Start() {
    auto running = std::make_unique<RunningServer>();
    if (postgres_) {
      PostgresTestServer* pg = PostgresTestServer::Get();
      if (pg == nullptr) return Status::Unsupported(PostgresTestServer::SkipReason());
      FLOE_ASSIGN_OR_RETURN(running->backing_uri, pg->NewDatabase("rest"));
    } else {
      running->backing_uri = "sqlite:" + running->dir.Join("catalog.db");
    }
    FLOE_ASSIGN_OR_RETURN(running->backing, OpenCatalog(running->backing_uri, running->warehouse(), NewLocalFileIO()));
    running->server = std::make_unique<FloeServer>(running->dir, running->backing_uri,
                                                   std::vector<std::string>{"--allowed-location", "/"});
    if (!running->server->ok()) {
      std::string log;
      if (auto bytes = NewLocalFileIO()->ReadAll(running->dir.Join("serve.log")); bytes.ok()) {
        log = std::string(bytes->view().substr(0, 2000));
      }
      return Status::Internal(StrCat("floe serve did not start: ", log));
    }
    running_ = std::move(running);
    return Status::OK();
  }

  bool postgres_;
  std::unique_ptr<RunningServer> running_;
};

RestFactory& SqliteBacked() {
  static RestFactory factory(/*postgres=*/false);
  return factory;
}

RestFactory& PostgresBacked() {
  static RestFactory factory(/*postgres=*/true);
  return factory;
}

}  // namespace

CatalogFactory* RestSqliteFactory() { return &SqliteBacked(); }
CatalogFactory* RestPostgresFactory() { return &PostgresBacked(); }

void StopRestServers() {
  SqliteBacked().Stop();
  PostgresBacked().Stop();
}

}  // namespace floe::catalog::testing
