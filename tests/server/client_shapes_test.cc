// The request sequences Spark, Flink, Trino (Java's RESTSessionCatalog),
// PyIceberg and DuckDB send, replayed against a real `floe serve` with
// authentication on, asserting the fields each client reads from the
// answers — and that the tables they leave read back correctly with floe.
// The bodies are written here from the REST spec's schemas and the clients'
// documented shapes (docs/interop.md), not captured from the engines, which
// cannot run on this machine.

#include <gtest/gtest.h>

#include <algorithm>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_path.h"
#include "server/client_shapes_test_util.h"

namespace floe::server {
namespace {

using catalog::testing::Ident;
using catalog::testing::MakeRows;
using catalog::testing::ModelAppend;
using catalog::testing::Rows;
using catalog::testing::ScanRows;
using testing::AddSnapshotJson;
using testing::AuthServer;
using testing::DataWriter;
using testing::JavaHeaders;
using testing::JsonHas;
using testing::JsonInt;
using testing::JsonString;
using testing::kRegionSpecJson;
using testing::kRowsSchemaJson;
using testing::PyIcebergHeaders;
using testing::SetMainJson;

// The served table, read with floe through the server's own SQLite catalog.
Rows ReadWithFloe(const AuthServer& server, const std::string& table) {
  auto catalog = catalog::testing::OpenSqlCatalog(server.dir());
  iceberg::Table t(catalog->NewTableOps(Ident(table)));
  auto rows = ScanRows(t);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? *rows : Rows{};
}

// The updates of a create transaction as Java's RESTSessionCatalog builds
// them from the staged metadata (and PyIceberg's CreateTableTransaction
// likewise): every part of the new metadata, ids of new parts as -1 ("the
// last added").
std::string CreateTransactionUpdates(const std::string& uuid, const std::string& location, bool last_column_id) {
  return StrCat(R"({"action":"assign-uuid","uuid":")", uuid, R"("},)",
                R"({"action":"upgrade-format-version","format-version":2},)",
                R"({"action":"add-schema","schema":)", kRowsSchemaJson, last_column_id ? R"(,"last-column-id":3)" : "",
                "},", R"({"action":"set-current-schema","schema-id":-1},)", R"({"action":"add-spec","spec":)",
                kRegionSpecJson, "},", R"({"action":"set-default-spec","spec-id":-1},)",
                R"({"action":"add-sort-order","sort-order":{"order-id":0,"fields":[]}},)",
                R"({"action":"set-default-sort-order","sort-order-id":-1},)", R"({"action":"set-location","location":")",
                location, R"("},)", R"({"action":"set-properties","updates":{"write.format.default":"parquet"}})");
}

class ClientShapes : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.ok());
    token_ = server_.Token("spark", testing::kSparkSecret);
    ASSERT_FALSE(token_.empty());
    auto ns = server_.Post("/v1/namespaces", R"({"namespace":["shop"],"properties":{}})", JavaHeaders(token_));
    ASSERT_TRUE(ns);
    ASSERT_EQ(ns->status, 200) << ns->body;
  }

  AuthServer server_;
  std::string token_;
};

// OAuth2 client credentials as every client sends them, and the refresh
// Java clients do by token exchange.
TEST_F(ClientShapes, TokenRequestsOfEveryClient) {
  // Java (Spark, Flink, Trino) and PyIceberg: the form with scope=catalog.
  auto java = server_.TokenRequest(
      StrCat("grant_type=client_credentials&client_id=trino&client_secret=", testing::kTrinoSecret, "&scope=catalog"));
  ASSERT_TRUE(java);
  ASSERT_EQ(java->status, 200) << java->body;
  EXPECT_EQ(JsonString(java->body, "/token_type"), "bearer");
  EXPECT_EQ(JsonString(java->body, "/issued_token_type"), "urn:ietf:params:oauth:token-type:access_token");
  EXPECT_EQ(JsonString(java->body, "/scope"), "rw:shop");
  EXPECT_GT(JsonInt(java->body, "/expires_in"), 0);
  const std::string trino_token = JsonString(java->body, "/access_token");

  // Setups copied from Polaris ask for PRINCIPAL_ROLE:ALL: everything held.
  auto polaris = server_.TokenRequest(StrCat("grant_type=client_credentials&client_id=trino&client_secret=",
                                             testing::kTrinoSecret, "&scope=PRINCIPAL_ROLE%3AALL"));
  ASSERT_EQ(polaris->status, 200) << polaris->body;
  EXPECT_EQ(JsonString(polaris->body, "/scope"), "rw:shop");

  // The credentials in a Basic header instead of the form.
  const std::string basic = "Basic dHJpbm86dHJpbm8tc2VjcmV0LWZvci10ZXN0cy1vbmx5";  // trino:trino-secret-for-tests-only
  auto header = server_.TokenRequest("grant_type=client_credentials&scope=catalog", {{"Authorization", basic}});
  ASSERT_EQ(header->status, 200) << header->body;

  // Java's scheduled refresh: token exchange of the live token for a new one.
  auto refreshed = server_.TokenRequest(
      StrCat("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&subject_token=", trino_token,
             "&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aaccess_token&scope=catalog"),
      {{"Authorization", "Bearer " + trino_token}});
  ASSERT_EQ(refreshed->status, 200) << refreshed->body;
  EXPECT_EQ(JsonString(refreshed->body, "/scope"), "rw:shop");
  const std::string renewed = JsonString(refreshed->body, "/access_token");
  auto tables = server_.http().Get("/v1/namespaces/shop/tables", JavaHeaders(renewed));
  EXPECT_EQ(tables->status, 200) << tables->body;
  // The renewed token keeps the client's reach: not beyond shop.
  auto outside = server_.Post("/v1/namespaces", R"({"namespace":["other"]})", JavaHeaders(renewed));
  EXPECT_EQ(outside->status, 403);

  // Refusals in OAuth's error form.
  auto scope = server_.TokenRequest(
      StrCat("grant_type=client_credentials&client_id=trino&client_secret=", testing::kTrinoSecret, "&scope=rw%3Aother"));
  EXPECT_EQ(scope->status, 400);
  EXPECT_EQ(JsonString(scope->body, "/error"), "invalid_scope");
  auto forged = server_.TokenRequest(
      "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&subject_token=floe1.e30.AAAA"
      "&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aaccess_token");
  EXPECT_EQ(forged->status, 400);
  EXPECT_EQ(JsonString(forged->body, "/error"), "invalid_grant");
}

// GET /v1/config?warehouse=... as every client sends it first, with the
// warehouse the user configured.
TEST_F(ClientShapes, ConfigWithWarehouse) {
  for (const std::string& warehouse : {server_.warehouse(), "file://" + server_.warehouse() + "/", std::string("floe")}) {
    const std::string path = "/v1/config?warehouse=" + catalog::rest::UrlEncode(warehouse);
    auto r = server_.http().Get(path, JavaHeaders(token_));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << warehouse << ": " << r->body;
    auto config = catalog::rest::ParseCatalogConfig(r->body);
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    EXPECT_EQ(config->defaults.at("warehouse"), server_.warehouse());
    EXPECT_TRUE(config->overrides.empty());  // no prefix: /v1/namespaces...
    // What PyIceberg checks before each call (Capability) and Java before
    // each route (Endpoint.check).
    for (const char* e : {"GET /v1/{prefix}/namespaces", "HEAD /v1/{prefix}/namespaces/{namespace}",
                          "POST /v1/{prefix}/namespaces/{namespace}/tables",
                          "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                          "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                          "POST /v1/{prefix}/namespaces/{namespace}/register",
                          "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics"}) {
      EXPECT_NE(std::find(config->endpoints.begin(), config->endpoints.end(), e), config->endpoints.end()) << e;
    }
  }
  auto py = server_.http().Get("/v1/config", PyIcebergHeaders(token_));
  EXPECT_EQ(py->status, 200);
  auto unknown = server_.http().Get("/v1/config?warehouse=s3%3A%2F%2Felsewhere%2Fwh", JavaHeaders(token_));
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->status, 400);
  EXPECT_EQ(JsonString(unknown->body, "/error/type"), "BadRequestException");
  EXPECT_NE(JsonString(unknown->body, "/error/message").find("s3://elsewhere/wh"), std::string::npos);
}

// Trino's CREATE TABLE AS (and Spark's, through a staging catalog): a staged
// create, the data files written into the staged location, then one commit
// asserting create with every part of the metadata plus the snapshot.
TEST_F(ClientShapes, JavaCreateTransactionWithData) {
  const auto headers = JavaHeaders(token_);
  auto staged = server_.Post("/v1/namespaces/shop/tables",
                             StrCat(R"({"name":"ctas","schema":)", kRowsSchemaJson, R"(,"partition-spec":)",
                                    kRegionSpecJson, R"(,"write-order":{"order-id":0,"fields":[]},)",
                                    R"("stage-create":true,"properties":{"write.format.default":"parquet"}})"),
                             headers);
  ASSERT_TRUE(staged);
  ASSERT_EQ(staged->status, 200) << staged->body;
  // Staged: metadata to build on, no metadata location (null), no table yet.
  EXPECT_EQ(JsonString(staged->body, "/metadata-location"), "");
  EXPECT_TRUE(JsonHas(staged->body, "/metadata/current-schema-id"));
  const std::string uuid = JsonString(staged->body, "/metadata/table-uuid");
  const std::string location = JsonString(staged->body, "/metadata/location");
  EXPECT_EQ(location, server_.warehouse() + "/shop/ctas");
  EXPECT_EQ(server_.http().Head("/v1/namespaces/shop/tables/ctas", headers)->status, 404);

  DataWriter writer(server_.dir(), location);
  const Rows rows = MakeRows(0, 20, {"eu", "us"});
  const iceberg::Snapshot snapshot = writer.Append(rows);
  const std::string commit = StrCat(R"({"identifier":{"namespace":["shop"],"name":"ctas"},)",
                                    R"("requirements":[{"type":"assert-create"}],"updates":[)",
                                    CreateTransactionUpdates(uuid, location, /*last_column_id=*/true), ",",
                                    AddSnapshotJson(snapshot), ",", SetMainJson(snapshot.snapshot_id), "]}");
  auto committed = server_.Post("/v1/namespaces/shop/tables/ctas", commit, headers);
  ASSERT_TRUE(committed);
  ASSERT_EQ(committed->status, 200) << committed->body;
  // What RESTTableOperations reads back: the new pointer and metadata.
  EXPECT_NE(JsonString(committed->body, "/metadata-location"), "");
  EXPECT_EQ(JsonString(committed->body, "/metadata/table-uuid"), uuid);
  EXPECT_EQ(JsonInt(committed->body, "/metadata/current-snapshot-id"), snapshot.snapshot_id);
  EXPECT_EQ(JsonInt(committed->body, "/metadata/refs/main/snapshot-id"), snapshot.snapshot_id);
  EXPECT_EQ(JsonString(committed->body, "/metadata/properties/write.format.default"), "parquet");
  EXPECT_EQ(JsonInt(committed->body, "/metadata/last-column-id"), 3);
  EXPECT_EQ(server_.http().Head("/v1/namespaces/shop/tables/ctas", headers)->status, 204);

  // A second create transaction for the name: the table exists now.
  auto again = server_.Post("/v1/namespaces/shop/tables/ctas", commit, headers);
  EXPECT_EQ(again->status, 409);
  EXPECT_EQ(ReadWithFloe(server_, "shop.ctas"), catalog::testing::Sorted(rows));
}

// PyIceberg: create_table_transaction (its own body form: identifier field
// ids, unsorted order 0, no location), the commit with its initial changes
// and an append, then a second append on the table, a drop with Python's
// "False".
TEST_F(ClientShapes, PyIcebergCreateTransactionAppendAndDrop) {
  const auto headers = PyIcebergHeaders(token_);
  const std::string schema = R"({"type":"struct","fields":[{"id":1,"name":"id","type":"long","required":true},)"
                             R"({"id":2,"name":"region","type":"string","required":false},)"
                             R"({"id":3,"name":"v","type":"long","required":false}],)"
                             R"("schema-id":0,"identifier-field-ids":[]})";
  auto staged = server_.Post(
      "/v1/namespaces/shop/tables",
      StrCat(R"({"name":"events","schema":)", schema,
             R"(,"partition-spec":{"spec-id":0,"fields":[{"source-id":2,"field-id":1000,"transform":"identity",)",
             R"("name":"region"}]},"write-order":{"order-id":0,"fields":[]},"stage-create":true,"properties":{}})"),
      headers);
  ASSERT_TRUE(staged);
  ASSERT_EQ(staged->status, 200) << staged->body;
  const std::string uuid = JsonString(staged->body, "/metadata/table-uuid");
  const std::string location = JsonString(staged->body, "/metadata/location");

  DataWriter writer(server_.dir(), location);
  const Rows first = MakeRows(0, 10, {"eu", "us", "apac"});
  const iceberg::Snapshot s1 = writer.Append(first);
  // PyIceberg leaves out deprecated last-column-id.
  auto created = server_.Post(
      "/v1/namespaces/shop/tables/events",
      StrCat(R"({"identifier":{"namespace":["shop"],"name":"events"},"requirements":[{"type":"assert-create"}],)",
             R"("updates":[)", CreateTransactionUpdates(uuid, location, /*last_column_id=*/false), ",",
             AddSnapshotJson(s1), ",", SetMainJson(s1.snapshot_id), "]}"),
      headers);
  ASSERT_TRUE(created);
  ASSERT_EQ(created->status, 200) << created->body;

  // The append on the existing table: the ref it builds on, then the uuid.
  const Rows second = MakeRows(100, 10, {"eu"});
  const iceberg::Snapshot s2 = writer.Append(second);
  ASSERT_EQ(s2.parent_snapshot_id, s1.snapshot_id);
  auto appended = server_.Post(
      "/v1/namespaces/shop/tables/events",
      StrCat(R"({"identifier":{"namespace":["shop"],"name":"events"},"requirements":[)",
             R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":)", s1.snapshot_id, "},",
             R"({"type":"assert-table-uuid","uuid":")", uuid, R"("}],"updates":[)", AddSnapshotJson(s2), ",",
             SetMainJson(s2.snapshot_id), "]}"),
      headers);
  ASSERT_EQ(appended->status, 200) << appended->body;
  EXPECT_EQ(JsonInt(appended->body, "/metadata/current-snapshot-id"), s2.snapshot_id);
  EXPECT_EQ(ReadWithFloe(server_, "shop.events"), ModelAppend(catalog::testing::Sorted(first), second));

  // table_exists is a HEAD; drop_table sends purgeRequested=False.
  EXPECT_EQ(server_.http().Head("/v1/namespaces/shop/tables/events", headers)->status, 204);
  auto dropped = server_.http().Delete("/v1/namespaces/shop/tables/events?purgeRequested=False", headers);
  ASSERT_TRUE(dropped);
  EXPECT_EQ(dropped->status, 204) << dropped->body;
  EXPECT_EQ(server_.http().Head("/v1/namespaces/shop/tables/events", headers)->status, 404);
}

// Spark (and Flink) on Java's catalog: a plain create, loads with
// snapshots=refs, an append asserting the uuid and that main does not exist
// yet, its commit report, ALTER TABLE ADD COLUMN, a stale retry of it, a
// scan report — then the table read with floe.
TEST_F(ClientShapes, SparkAppendSchemaEvolutionAndReports) {
  const auto headers = JavaHeaders(token_);
  auto created = server_.Post("/v1/namespaces/shop/tables",
                              StrCat(R"({"name":"orders","schema":)", kRowsSchemaJson, R"(,"partition-spec":)",
                                     kRegionSpecJson, R"(,"write-order":{"order-id":0,"fields":[]},)",
                                     R"("stage-create":false,"properties":{"owner":"spark"}})"),
                              headers);
  ASSERT_TRUE(created);
  ASSERT_EQ(created->status, 200) << created->body;
  EXPECT_NE(JsonString(created->body, "/metadata-location"), "");
  const std::string uuid = JsonString(created->body, "/metadata/table-uuid");
  const std::string location = JsonString(created->body, "/metadata/location");

  DataWriter writer(server_.dir(), location);
  const Rows rows = MakeRows(0, 12, {"eu", "us"});
  const iceberg::Snapshot snapshot = writer.Append(rows);
  const std::string append =
      StrCat(R"({"identifier":{"namespace":["shop"],"name":"orders"},"requirements":[)",
             R"({"type":"assert-table-uuid","uuid":")", uuid, R"("},)",
             R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null}],"updates":[)",
             AddSnapshotJson(snapshot), ",", SetMainJson(snapshot.snapshot_id), "]}");
  auto appended = server_.Post("/v1/namespaces/shop/tables/orders", append, headers);
  ASSERT_TRUE(appended);
  ASSERT_EQ(appended->status, 200) << appended->body;
  // A writer that raced on the same empty table must see 409, not win.
  auto raced = server_.Post("/v1/namespaces/shop/tables/orders", append, headers);
  EXPECT_EQ(raced->status, 409);
  EXPECT_EQ(JsonString(raced->body, "/error/type"), "CommitFailedException");

  // Java's CommitReport after the commit.
  auto commit_report = server_.Post(
      "/v1/namespaces/shop/tables/orders/metrics",
      StrCat(R"({"report-type":"commit-report","table-name":"floe.shop.orders","snapshot-id":)",
             snapshot.snapshot_id, R"(,"sequence-number":1,"operation":"append","metrics":{)",
             R"("total-duration":{"count":1,"time-unit":"nanoseconds","total-duration":48000000},)",
             R"("attempts":{"unit":"count","value":1},"added-data-files":{"unit":"count","value":2},)",
             R"("added-records":{"unit":"count","value":12}},"metadata":{"engine-name":"spark",)",
             R"("engine-version":"3.5.3","iceberg-version":"Apache Iceberg 1.9.2"}})"),
      headers);
  EXPECT_EQ(commit_report->status, 204) << commit_report->body;

  // snapshot-loading-mode=refs: the snapshots that refs reach, nothing else.
  auto refs = server_.http().Get("/v1/namespaces/shop/tables/orders?snapshots=refs", headers);
  ASSERT_EQ(refs->status, 200) << refs->body;
  auto loaded = catalog::rest::ParseLoadTableResult(refs->body);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_EQ(loaded->metadata.snapshots.size(), 1u);
  EXPECT_EQ(loaded->metadata.snapshots[0].snapshot_id, snapshot.snapshot_id);
  EXPECT_EQ(loaded->metadata.refs.at("main").snapshot_id, snapshot.snapshot_id);

  // ALTER TABLE ADD COLUMN note string.
  const std::string evolve = StrCat(
      R"({"identifier":{"namespace":["shop"],"name":"orders"},"requirements":[)",
      R"({"type":"assert-table-uuid","uuid":")", uuid, R"("},)",
      R"({"type":"assert-last-assigned-field-id","last-assigned-field-id":3},)",
      R"({"type":"assert-current-schema-id","current-schema-id":0}],"updates":[)",
      R"({"action":"add-schema","schema":{"type":"struct","schema-id":1,"fields":[)",
      R"({"id":1,"name":"id","required":true,"type":"long"},{"id":2,"name":"region","required":false,"type":"string"},)",
      R"({"id":3,"name":"v","required":false,"type":"long"},{"id":4,"name":"note","required":false,"type":"string"}]},)",
      R"("last-column-id":4},{"action":"set-current-schema","schema-id":-1}]})");
  auto evolved = server_.Post("/v1/namespaces/shop/tables/orders", evolve, headers);
  ASSERT_EQ(evolved->status, 200) << evolved->body;
  EXPECT_EQ(JsonInt(evolved->body, "/metadata/current-schema-id"), 1);
  EXPECT_EQ(JsonInt(evolved->body, "/metadata/last-column-id"), 4);
  auto stale = server_.Post("/v1/namespaces/shop/tables/orders", evolve, headers);
  EXPECT_EQ(stale->status, 409);
  EXPECT_EQ(JsonString(stale->body, "/error/type"), "CommitFailedException");

  // Java's ScanReport after planning a read.
  auto scan_report = server_.Post(
      "/v1/namespaces/shop/tables/orders/metrics",
      StrCat(R"({"report-type":"scan-report","table-name":"floe.shop.orders","snapshot-id":)", snapshot.snapshot_id,
             R"(,"filter":{"type":"eq","term":"region","value":"eu"},"schema-id":1,"projected-field-ids":[1,2,3,4],)",
             R"("projected-field-names":["id","region","v","note"],"metrics":{)",
             R"("total-planning-duration":{"count":1,"time-unit":"nanoseconds","total-duration":2100000},)",
             R"("result-data-files":{"unit":"count","value":1},"scanned-data-manifests":{"unit":"count","value":1}},)",
             R"("metadata":{"engine-name":"spark"}})"),
      headers);
  EXPECT_EQ(scan_report->status, 204) << scan_report->body;

  EXPECT_EQ(ReadWithFloe(server_, "shop.orders"), catalog::testing::Sorted(rows));
  auto catalog = catalog::testing::OpenSqlCatalog(server_.dir());
  auto state = catalog->LoadTable(Ident("shop.orders"));
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  EXPECT_EQ(state->metadata->current_schema_id, 1);
}

// DuckDB's iceberg extension (ATTACH ... (TYPE iceberg)): its token request
// (credentials in a Basic header, scope PRINCIPAL_ROLE:ALL by default), a
// create whose partition spec carries "type":"struct", the create commit in
// its own key order, then an INSERT committed through transactions/commit
// with only a ref requirement.
TEST_F(ClientShapes, DuckDBAttachCreateAndInsert) {
  auto token = server_.TokenRequest("grant_type=client_credentials&scope=PRINCIPAL_ROLE%3AALL",
                                    {{"Authorization", "Basic c3Bhcms6c3Bhcmstc2VjcmV0LWZvci10ZXN0cy1vbmx5"}});
  ASSERT_TRUE(token);
  ASSERT_EQ(token->status, 200) << token->body;
  EXPECT_EQ(JsonString(token->body, "/token_type"), "bearer");
  const httplib::Headers headers = {{"Authorization", "Bearer " + JsonString(token->body, "/access_token")},
                                    {"X-Iceberg-Access-Delegation", "vended-credentials"}};
  auto config = server_.http().Get("/v1/config?warehouse=floe", headers);
  ASSERT_EQ(config->status, 200) << config->body;

  auto staged = server_.Post(
      "/v1/namespaces/shop/tables",
      StrCat(R"({"name":"duck","schema":)", kRowsSchemaJson,
             R"(,"partition-spec":{"spec-id":0,"type":"struct","fields":[{"name":"region","transform":"identity",)",
             R"("source-id":2,"field-id":1000}]},"write-order":{"order-id":0,"fields":[]},"stage-create":true,)",
             R"("properties":{}})"),
      headers);
  ASSERT_TRUE(staged);
  ASSERT_EQ(staged->status, 200) << staged->body;
  const std::string uuid = JsonString(staged->body, "/metadata/table-uuid");
  const std::string location = JsonString(staged->body, "/metadata/location");
  auto created = server_.Post(
      "/v1/namespaces/shop/tables/duck",
      StrCat(R"({"requirements":[{"type":"assert-create"}],"updates":[)",
             R"({"action":"assign-uuid","uuid":")", uuid, R"("},)",
             R"({"action":"upgrade-format-version","format-version":2},)",
             R"({"action":"add-schema","last-column-id":3,"schema":)", kRowsSchemaJson, "},",
             R"({"action":"set-current-schema","schema-id":0},)", R"({"action":"add-spec","spec":)", kRegionSpecJson,
             "},", R"({"action":"set-default-spec","spec-id":0},)",
             R"({"action":"add-sort-order","sort-order":{"order-id":0,"fields":[]}},)",
             R"({"action":"set-default-sort-order","sort-order-id":0},)", R"({"action":"set-location","location":")",
             location, R"("},{"action":"set-properties","updates":{}}],)",
             R"("identifier":{"name":"duck","namespace":["shop"]}})"),
      headers);
  ASSERT_TRUE(created);
  ASSERT_EQ(created->status, 200) << created->body;
  EXPECT_EQ(JsonInt(created->body, "/metadata/current-schema-id"), 0);

  DataWriter writer(server_.dir(), location);
  const Rows rows = MakeRows(0, 8, {"eu", "us"});
  const iceberg::Snapshot snapshot = writer.Append(rows);
  auto inserted = server_.Post(
      "/v1/transactions/commit",
      StrCat(R"({"table-changes":[{"requirements":[{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null}],)",
             R"("updates":[)", AddSnapshotJson(snapshot), R"(,{"action":"set-snapshot-ref","ref-name":"main",)",
             R"("type":"branch","snapshot-id":)", snapshot.snapshot_id, "}],",
             R"("identifier":{"name":"duck","namespace":["shop"]}}]})"),
      headers);
  ASSERT_TRUE(inserted);
  EXPECT_EQ(inserted->status, 204) << inserted->body;
  auto loaded = server_.http().Get("/v1/namespaces/shop/tables/duck", headers);
  EXPECT_EQ(JsonInt(loaded->body, "/metadata/current-snapshot-id"), snapshot.snapshot_id);
  EXPECT_EQ(ReadWithFloe(server_, "shop.duck"), catalog::testing::Sorted(rows));
}

// register with overwrite (spec RegisterTableRequest.overwrite): point an
// existing table back at an older metadata file; without it, 409.
TEST_F(ClientShapes, RegisterWithOverwrite) {
  const auto headers = PyIcebergHeaders(token_);
  auto created = server_.Post("/v1/namespaces/shop/tables",
                              StrCat(R"({"name":"t","schema":)", kRowsSchemaJson, "}"), headers);
  ASSERT_EQ(created->status, 200) << created->body;
  const std::string first = JsonString(created->body, "/metadata-location");
  auto changed = server_.Post(
      "/v1/namespaces/shop/tables/t",
      R"({"requirements":[],"updates":[{"action":"set-properties","updates":{"k":"v"}}]})", headers);
  ASSERT_EQ(changed->status, 200) << changed->body;
  const std::string second = JsonString(changed->body, "/metadata-location");
  ASSERT_NE(first, second);

  auto refused = server_.Post("/v1/namespaces/shop/register",
                              StrCat(R"({"name":"t","metadata-location":")", first, R"(","overwrite":false})"),
                              headers);
  EXPECT_EQ(refused->status, 409);
  EXPECT_EQ(JsonString(refused->body, "/error/type"), "AlreadyExistsException");

  auto overwritten = server_.Post("/v1/namespaces/shop/register",
                                  StrCat(R"({"name":"t","metadata-location":")", first, R"(","overwrite":true})"),
                                  headers);
  ASSERT_EQ(overwritten->status, 200) << overwritten->body;
  EXPECT_EQ(JsonString(overwritten->body, "/metadata-location"), first);
  EXPECT_FALSE(JsonHas(overwritten->body, "/metadata/properties/k"));
  auto loaded = server_.http().Get("/v1/namespaces/shop/tables/t", headers);
  EXPECT_EQ(JsonString(loaded->body, "/metadata-location"), first);

  // overwrite on a new name registers it.
  auto fresh = server_.Post("/v1/namespaces/shop/register",
                            StrCat(R"({"name":"copy","metadata-location":")", second, R"(","overwrite":true})"),
                            headers);
  ASSERT_EQ(fresh->status, 200) << fresh->body;
  EXPECT_EQ(JsonString(fresh->body, "/metadata/properties/k"), "v");

  // A file outside the warehouse is refused before anything changes.
  auto outside = server_.Post("/v1/namespaces/shop/register",
                              R"({"name":"t","metadata-location":"/tmp/x.metadata.json","overwrite":true})", headers);
  EXPECT_EQ(outside->status, 403);
  EXPECT_EQ(JsonString(server_.http().Get("/v1/namespaces/shop/tables/t", headers)->body, "/metadata-location"), first);
}

}  // namespace
}  // namespace floe::server
