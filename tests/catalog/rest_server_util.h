// The real `floe serve` for the REST client's tests: the floe binary built
// with the tests, started with --port 0 --insecure-dev over a SQLite catalog
// in a temporary folder; the test reads "listening on http://127.0.0.1:PORT"
// from its first stdout line; its stderr (the access log) goes to
// <dir>/serve.log. Stopped with SIGTERM (graceful) when the
// object goes, SIGKILL if it does not exit within 10 s.

#pragma once

#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "floe/catalog/rest_catalog.h"
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
    const std::string log_path = dir.Join("serve.log");
    int out[2];
    if (pipe(out) != 0) {
      ADD_FAILURE() << "pipe failed";
      return;
    }
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      // The access log (a line per request) goes to <dir>/serve.log.
      const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (log >= 0) dup2(log, STDERR_FILENO);
      close(out[0]);
      close(out[1]);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(out[1]);
    // The first line; the rest of stdout is drained so the server never blocks.
    std::string line;
    char c;
    while (read(out[0], &c, 1) == 1 && c != '\n') line.push_back(c);
    const std::string marker = "listening on ";
    const size_t at = line.find(marker);
    if (at == std::string::npos) {
      ADD_FAILURE() << "floe serve did not start: first line " << line;
      close(out[0]);
      return;
    }
    url_ = line.substr(at + marker.size());
    drain_ = std::thread([fd = out[0]] {
      char buffer[4096];
      while (read(fd, buffer, sizeof(buffer)) > 0) {
      }
      close(fd);
    });
  }

  ~FloeServer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
          kill(pid_, SIGKILL);
          waitpid(pid_, &status, 0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    if (drain_.joinable()) drain_.join();
  }

  bool ok() const { return !url_.empty(); }
  // "http://127.0.0.1:PORT".
  const std::string& url() const { return url_; }
  int port() const { return std::stoi(url_.substr(url_.rfind(':') + 1)); }

 private:
  pid_t pid_ = -1;
  std::string url_;
  std::thread drain_;
};

// A RestCatalog on `url` reading and writing files locally.
inline std::shared_ptr<RestCatalog> OpenRest(const std::string& url, RestCatalogOptions options = {}) {
  options.uri = url;
  auto catalog = RestCatalog::Open(std::move(options), NewLocalFileIO());
  EXPECT_TRUE(catalog.ok()) << catalog.status().ToString();
  return catalog.ok() ? *catalog : nullptr;
}

}  // namespace floe::catalog::testing
