// What the client-shape tests share: a real `floe serve` with
// authentication on (the floe binary, two OAuth clients), the HTTP headers
// each engine's REST client puts on every request, the request bodies they
// send (written here from the REST spec and the clients' documented
// behaviour, as JSON text), and a stand-in for a client's data writer: a
// scratch table in a catalog of its own that writes Parquet files,
// manifests and a manifest list into the served table's location, whose
// snapshot the test then commits through the REST API as an engine would.

#pragma once

#include <gtest/gtest.h>
#include <httplib.h>
#include <simdjson.h>

#include <fstream>
#include <memory>
#include <string>

#include "catalog/rest_server_util.h"
#include "catalog/table_test_util.h"
#include "floe/base/strings.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/iceberg/table.h"
#include "testing/temp_dir.h"

namespace floe::server::testing {

inline constexpr char kSparkSecret[] = "spark-secret-for-tests-only";
inline constexpr char kTrinoSecret[] = "trino-secret-for-tests-only";

// Java's HTTPClient (Spark, Flink, Trino): the build's version and commit on
// every request, and the access-delegation header when configured
// (header.X-Iceberg-Access-Delegation=vended-credentials).
inline httplib::Headers JavaHeaders(const std::string& token) {
  return {{"Authorization", "Bearer " + token},
          {"X-Client-Version", "Apache Iceberg 1.9.2 (commit 071d5606bc6199a0be9b3f274ec7fbf111d88821)"},
          {"X-Client-Git-Commit-Short", "071d560"},
          {"User-Agent", "Apache-HttpClient/5.4.3 (Java/17.0.12)"},
          {"Accept", "application/json"},
          {"X-Iceberg-Access-Delegation", "vended-credentials"}};
}

// PyIceberg's session: its own version, and access delegation asked for by
// default ("vended-credentials").
inline httplib::Headers PyIcebergHeaders(const std::string& token) {
  return {{"Authorization", "Bearer " + token},
          {"User-Agent", "PyIceberg/0.9.1"},
          {"X-Client-Version", "PyIceberg 0.9.1"},
          {"X-Iceberg-Access-Delegation", "vended-credentials"}};
}

// A value inside a JSON body by JSON pointer ("/metadata/location"); ""
// / -1 / false when absent or of another type.
inline std::string JsonString(const std::string& body, const char* pointer) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  std::string_view value;
  if (parser.parse(body).get(root) != simdjson::SUCCESS) return "";
  if (root.at_pointer(pointer).get(value) != simdjson::SUCCESS) return "";
  return std::string(value);
}
inline int64_t JsonInt(const std::string& body, const char* pointer) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  int64_t value = -1;
  if (parser.parse(body).get(root) != simdjson::SUCCESS) return -1;
  if (root.at_pointer(pointer).get(value) != simdjson::SUCCESS) return -1;
  return value;
}
inline bool JsonHas(const std::string& body, const char* pointer) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(body).get(root) != simdjson::SUCCESS) return false;
  return root.at_pointer(pointer).error() == simdjson::SUCCESS;
}

// The schema every client creates here: id long (required), region string,
// v long — the rows of catalog/table_test_util.h.
inline constexpr const char* kRowsSchemaJson =
    R"({"type":"struct","schema-id":0,"fields":[)"
    R"({"id":1,"name":"id","required":true,"type":"long"},)"
    R"({"id":2,"name":"region","required":false,"type":"string"},)"
    R"({"id":3,"name":"v","required":false,"type":"long"}]})";
// identity(region), field id 1000 (the first partition field id).
inline constexpr const char* kRegionSpecJson =
    R"({"spec-id":0,"fields":[{"name":"region","transform":"identity","source-id":2,"field-id":1000}]})";

// An add-snapshot update for `snapshot`, in the field order Java's
// SnapshotParser writes (PyIceberg leaves out the absent parent likewise).
inline std::string AddSnapshotJson(const iceberg::Snapshot& snapshot) {
  std::string summary = StrCat(R"({"operation":")", snapshot.operation.value_or("append"), "\"");
  for (const auto& [k, v] : snapshot.summary) summary += StrCat(",\"", k, "\":\"", v, "\"");
  summary += "}";
  return StrCat(R"({"action":"add-snapshot","snapshot":{"snapshot-id":)", snapshot.snapshot_id,
                snapshot.parent_snapshot_id ? StrCat(R"(,"parent-snapshot-id":)", *snapshot.parent_snapshot_id) : "",
                R"(,"sequence-number":)", snapshot.sequence_number, R"(,"timestamp-ms":)", snapshot.timestamp_ms,
                R"(,"summary":)", summary, R"(,"manifest-list":")", snapshot.manifest_list, R"(","schema-id":0}})");
}

inline std::string SetMainJson(int64_t snapshot_id) {
  return StrCat(R"({"action":"set-snapshot-ref","ref-name":"main","snapshot-id":)", snapshot_id,
                R"(,"type":"branch"})");
}

// A client's data writer: a table in a catalog of its own (<dir>/writer.db)
// at `location`, the served table's location, with the served table's
// schema and spec, so its Parquet files, manifests and manifest lists land
// where the engine would put them. Append writes rows and returns the new
// snapshot, which the test commits to the served table with add-snapshot.
class DataWriter {
 public:
  DataWriter(const floe::testing::TempDir& dir, const std::string& location) {
    catalog::SqlCatalogOptions options;
    options.database_path = dir.Join("writer.db");
    options.warehouse = dir.Join("writer");
    auto opened = catalog::SqlCatalog::Open(std::move(options), NewLocalFileIO());
    EXPECT_TRUE(opened.ok()) << opened.status().ToString();
    catalog_ = *opened;
    const std::string name = StrCat("t", next_++);
    (void)catalog_->CreateNamespace(catalog::testing::Ns("writer"), {});
    catalog::CreateTableRequest request = catalog::testing::RowsTableRequest();
    request.location = location;
    auto created = catalog_->CreateTable(catalog::testing::Ident("writer." + name), request);
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    table_ = std::make_unique<iceberg::Table>(catalog_->NewTableOps(catalog::testing::Ident("writer." + name)));
  }

  iceberg::Snapshot Append(const catalog::testing::Rows& rows) {
    auto source = catalog::testing::SourceFor(*table_, rows);
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    auto written = table_->Append(*source);
    EXPECT_TRUE(written.ok()) << written.status().ToString();
    if (!written.ok()) return {};
    const auto& metadata = *written->state.metadata;
    for (const auto& s : metadata.snapshots) {
      if (metadata.current_snapshot_id && s.snapshot_id == *metadata.current_snapshot_id) return s;
    }
    ADD_FAILURE() << "the writer's table has no current snapshot";
    return {};
  }

 private:
  static inline int next_ = 0;
  std::shared_ptr<catalog::SqlCatalog> catalog_;
  std::unique_ptr<iceberg::Table> table_;
};

// `floe serve` with authentication on: clients "spark" (catalog:admin) and
// "trino" (rw:shop), signing key fixed.
class AuthServer {
 public:
  AuthServer() {
    const std::string config = dir_.Join("serve.json");
    std::ofstream(config) << R"({"signing-key":")" << std::string(40, 'k') << R"(","clients":[)"
                          << R"({"client-id":"spark","client-secret":")" << kSparkSecret
                          << R"(","scopes":["catalog:admin"]},)"
                          << R"({"client-id":"trino","client-secret":")" << kTrinoSecret
                          << R"(","scopes":["rw:shop"]}]})";
    server_ = std::make_unique<catalog::testing::FloeServer>(dir_, std::vector<std::string>{"--config", config},
                                                            /*insecure_dev=*/false);
    EXPECT_TRUE(server_->ok());
    if (!server_->ok()) return;
    http_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
    http_->set_read_timeout(30, 0);
  }

  bool ok() const { return http_ != nullptr; }
  httplib::Client& http() { return *http_; }
  const floe::testing::TempDir& dir() const { return dir_; }
  std::string warehouse() const { return dir_.Join("warehouse"); }

  // The client-credentials form every client sends (Java's OAuth2Util,
  // PyIceberg's legacy OAuth2 manager): grant, id, secret, scope.
  httplib::Result TokenRequest(const std::string& form, const httplib::Headers& headers = {}) {
    return http_->Post("/v1/oauth/tokens", headers, form, "application/x-www-form-urlencoded");
  }
  std::string Token(const std::string& id, const std::string& secret) {
    auto r = TokenRequest(StrCat("grant_type=client_credentials&client_id=", id, "&client_secret=", secret,
                                 "&scope=catalog"));
    EXPECT_TRUE(r && r->status == 200) << (r ? r->body : "no answer");
    return r ? JsonString(r->body, "/access_token") : "";
  }

  httplib::Result Post(const std::string& path, const std::string& body, const httplib::Headers& headers) {
    return http_->Post(path, headers, body, "application/json");
  }

 private:
  floe::testing::TempDir dir_;
  std::unique_ptr<catalog::testing::FloeServer> server_;
  std::unique_ptr<httplib::Client> http_;
};

}  // namespace floe::server::testing
