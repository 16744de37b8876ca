// The real `floe serve` for the REST client's tests: the floe binary built
// with the tests, started with --port 0 --insecure-dev over a SQLite catalog
// in a temporary folder; the test reads "listening on http://127.0.0.1:PORT"
// from its first stdout line; its stderr (the access log) goes to
// <dir>/serve.log. Stopped with SIGTERM (graceful) when the
// object goes, SIGKILL if it does not exit within 10 s.

#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "floe/catalog/rest_catalog.h"
#include "testing/serve_process.h"
#include "testing/temp_dir.h"

namespace floe::catalog::testing {

class FloeServer {
 public:
  // Serves <dir>/catalog.db with warehouse <dir>/warehouse; `extra` flags
  // are appended; a `--warehouse` among them replaces the default one.
  // Without `insecure_dev`, authentication is on (give the clients with
  // --config in `extra`).
  explicit FloeServer(const floe::testing::TempDir& dir, std::vector<std::string> extra = {},
                      bool insecure_dev = true)
      : FloeServer(dir, "sqlite:" + dir.Join("catalog.db"), std::move(extra), insecure_dev) {}

  // Serves the catalog at `catalog_uri` (sqlite:..., postgresql://...) with
  // warehouse <dir>/warehouse.
  FloeServer(const floe::testing::TempDir& dir, const std::string& catalog_uri, std::vector<std::string> extra,
             bool insecure_dev = true) {
    std::vector<std::string> args = {FLOE_BINARY, "serve", "--host", "127.0.0.1", "--port", "0"};
    if (insecure_dev) args.push_back("--insecure-dev");
    args.insert(args.end(), {"--catalog", catalog_uri});
    if (std::find(extra.begin(), extra.end(), "--warehouse") == extra.end()) {
      args.insert(args.end(), {"--warehouse", dir.Join("warehouse")});
    }
    args.insert(args.end(), extra.begin(), extra.end());
    // The access log (a line per request) goes to <dir>/serve.log.
    auto process = floe::testing::ServeProcess::Start(std::move(args), dir.Join("serve.log"));
    if (!process.ok()) {
      ADD_FAILURE() << process.status().ToString();
      return;
    }
    process_ = std::move(*process);
  }

  bool ok() const { return process_ != nullptr; }
  // "http://127.0.0.1:PORT" ("" when it did not start).
  const std::string& url() const { return process_ != nullptr ? process_->url() : kNone; }
  int port() const { return std::stoi(url().substr(url().rfind(':') + 1)); }

 private:
  static inline const std::string kNone;
  std::unique_ptr<floe::testing::ServeProcess> process_;
};

// A RestCatalog on `url` reading and writing files locally.
inline std::shared_ptr<RestCatalog> OpenRest(const std::string& url, RestCatalogOptions options = {}) {
  options.uri = url;
  auto catalog = RestCatalog::Open(std::move(options), NewLocalFileIO());
  EXPECT_TRUE(catalog.ok()) << catalog.status().ToString();
  return catalog.ok() ? *catalog : nullptr;
}

}  // namespace floe::catalog::testing
