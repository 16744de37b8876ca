// The factories of the catalog conformance suite: SQLite and PostgreSQL
// (a real server, started once for the whole test program), and `floe
// serve` over each (rest_backends.h).

#include "catalog/catalog_conformance.h"

#include <gtest/gtest.h>

#include "catalog/conformance/conformance_test.h"
#include "catalog/conformance/postgres_test_server.h"
#include "catalog/conformance/rest_backends.h"
#include "floe/catalog/catalog_uri.h"
#include "floe/catalog/sql_catalog.h"

namespace floe::catalog::testing {
namespace {

class SqliteInstance final : public CatalogInstance {
 public:
  explicit SqliteInstance(const std::string& dir) : path_(dir + "/catalog.db"), warehouse_(dir + "/warehouse") {}
  Result<std::shared_ptr<Catalog>> Open() override {
    SqlCatalogOptions options;
    options.database_path = path_;
    options.warehouse = warehouse_;
    FLOE_ASSIGN_OR_RETURN(auto catalog, SqlCatalog::Open(std::move(options), NewLocalFileIO()));
    return std::shared_ptr<Catalog>(std::move(catalog));
  }
  const std::string& warehouse() const override { return warehouse_; }

 private:
  std::string path_;
  std::string warehouse_;
};

class SqliteFactory final : public CatalogFactory {
 public:
  std::string name() const override { return "sqlite"; }
  std::string SkipReason() override { return ""; }
  Result<std::unique_ptr<CatalogInstance>> NewCatalog(const std::string& dir) override {
    return std::unique_ptr<CatalogInstance>(std::make_unique<SqliteInstance>(dir));
  }
};

class PostgresInstance final : public CatalogInstance {
 public:
  PostgresInstance(std::string uri, const std::string& dir) : uri_(std::move(uri)), warehouse_(dir + "/warehouse") {}
  Result<std::shared_ptr<Catalog>> Open() override { return OpenCatalog(uri_, warehouse_, NewLocalFileIO()); }
  const std::string& warehouse() const override { return warehouse_; }

 private:
  std::string uri_;
  std::string warehouse_;
};

class PostgresFactory final : public CatalogFactory {
 public:
  std::string name() const override { return "postgresql"; }
  std::string SkipReason() override { return PostgresTestServer::SkipReason(); }
  Result<std::unique_ptr<CatalogInstance>> NewCatalog(const std::string& dir) override {
    PostgresTestServer* server = PostgresTestServer::Get();
    if (server == nullptr) return Status::Unsupported(PostgresTestServer::SkipReason());
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    FLOE_ASSIGN_OR_RETURN(std::string uri, server->NewDatabase(test != nullptr ? test->name() : "db"));
    return std::unique_ptr<CatalogInstance>(std::make_unique<PostgresInstance>(std::move(uri), dir));
  }
};

// Stops the REST servers, then the PostgreSQL server one of them may serve,
// if a test started them, when the program ends.
class PostgresEnvironment final : public ::testing::Environment {
 public:
  void TearDown() override {
    StopRestServers();
    PostgresTestServer::Shutdown();
  }
};

[[maybe_unused]] ::testing::Environment* const kPostgresEnvironment =
    ::testing::AddGlobalTestEnvironment(new PostgresEnvironment);

}  // namespace

const std::vector<CatalogFactory*>& Factories() {
  static SqliteFactory sqlite;
  static PostgresFactory postgresql;
  static const std::vector<CatalogFactory*> factories = {&sqlite, &postgresql, RestSqliteFactory(),
                                                         RestPostgresFactory()};
  return factories;
}

std::string FactoryName(const ::testing::TestParamInfo<CatalogFactory*>& info) { return info.param->name(); }

}  // namespace floe::catalog::testing
