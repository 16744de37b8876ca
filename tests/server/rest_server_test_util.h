// A REST catalog server on a SQL catalog in a temporary folder, started
// in-process on a free port, and an HTTP client for it.

#pragma once

#include <gtest/gtest.h>
#include <httplib.h>
#include <simdjson.h>

#include <memory>
#include <string>

#include "catalog/catalog_test_util.h"
#include "floe/server/rest_server.h"
#include "testing/temp_dir.h"

namespace floe::server::testing {

inline constexpr const char* kSchemaJson =
    R"({"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":true,"type":"long"},)"
    R"({"id":2,"name":"name","required":false,"type":"string"}]})";

inline std::string CreateTableBody(const std::string& name, const std::string& extra = "") {
  return std::string(R"({"name":")") + name + R"(","schema":)" + kSchemaJson + extra + "}";
}

class ServerFixture {
 public:
  explicit ServerFixture(RestServerOptions options = Insecure()) {
    catalog_ = catalog::testing::OpenSqlCatalog(dir_);
    options.port = 0;
    options.warehouse = dir_.Join("warehouse");
    options.access_log = false;
    auto server = RestServer::Make(catalog_, options);
    EXPECT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(*server);
    Status started = server_->Start();
    EXPECT_TRUE(started.ok()) << started.ToString();
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
    client_->set_read_timeout(30, 0);
  }

  static RestServerOptions Insecure() {
    RestServerOptions o;
    o.insecure_dev = true;
    return o;
  }

  httplib::Client& http() { return *client_; }
  RestServer& server() { return *server_; }
  catalog::SqlCatalog& catalog() { return *catalog_; }
  const floe::testing::TempDir& dir() const { return dir_; }
  std::string warehouse() const { return dir_.Join("warehouse"); }

  httplib::Result Post(const std::string& path, const std::string& body, const httplib::Headers& headers = {}) {
    return client_->Post(path.c_str(), headers, body, "application/json");
  }

 private:
  floe::testing::TempDir dir_;
  std::shared_ptr<catalog::SqlCatalog> catalog_;
  std::unique_ptr<RestServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

// The error body's type, or "" when the body is not the spec's error model.
inline std::string ErrorType(const httplib::Result& r) {
  if (!r) return "no response";
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(r->body).get(root) != simdjson::SUCCESS) return "not JSON: " + r->body;
  std::string_view type;
  int64_t code = 0;
  if (root["error"]["type"].get(type) != simdjson::SUCCESS || root["error"]["code"].get(code) != simdjson::SUCCESS ||
      !root["error"]["message"].is_string()) {
    return "not an error model: " + r->body;
  }
  if (code != r->status) return "code " + std::to_string(code) + " != HTTP " + std::to_string(r->status);
  return std::string(type);
}

}  // namespace floe::server::testing
