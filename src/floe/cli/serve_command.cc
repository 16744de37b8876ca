// `floe serve`: the Iceberg REST catalog server over the catalog of
// --catalog / --warehouse (server/rest_server.h).

#include <CLI/CLI.hpp>

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "floe/base/strings.h"
#include "floe/catalog/catalog_uri.h"
#include "floe/cli/command.h"
#include "floe/server/rest_server.h"
#include "floe/server/server_config.h"

namespace floe::cli {

namespace {

struct ServeFlags {
  std::string host;
  int port = -1;
  std::string config;
  std::string prefix;
  bool insecure_dev = false;
  size_t workers = 0;
  std::vector<std::string> allowed_locations;
  std::vector<std::string> table_config;
};

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(StrCat("--config ", Quote(path), ": cannot open the file"));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string AbsoluteWarehouse(const std::string& warehouse) {
  if (!LocationScheme(warehouse).empty()) return warehouse;
  std::string path = std::filesystem::absolute(std::filesystem::path(warehouse)).lexically_normal().string();
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

Status RunServe(CommandContext& ctx, const ServeFlags& flags) {
  server::RestServerOptions options;
  std::string warehouse = ctx.options().warehouse;
  std::string catalog_uri = ctx.options().catalog;
  if (!flags.config.empty()) {
    FLOE_ASSIGN_OR_RETURN(std::string text, ReadFile(flags.config));
    FLOE_ASSIGN_OR_RETURN(server::ServeSettings settings, server::ApplyServerConfig(text, &options));
    // Flags and environment win over the file; the file over the defaults.
    if (settings.warehouse && ctx.options().warehouse_source == OptionSource::kDefault) {
      warehouse = *settings.warehouse;
      if (ctx.options().catalog_source == OptionSource::kDefault && !settings.catalog) {
        catalog_uri = StrCat("sqlite:", JoinLocation(warehouse, "catalog.db"));
      }
    }
    if (settings.catalog && ctx.options().catalog_source == OptionSource::kDefault) catalog_uri = *settings.catalog;
  }
  if (!flags.host.empty()) options.host = flags.host;
  if (flags.port >= 0) options.port = flags.port;
  if (!flags.prefix.empty()) options.prefix = flags.prefix;
  if (flags.workers > 0) options.worker_threads = flags.workers;
  options.insecure_dev = flags.insecure_dev;
  options.warehouse = AbsoluteWarehouse(warehouse);
  for (const std::string& location : flags.allowed_locations) {
    options.allowed_locations.push_back(AbsoluteWarehouse(location));
  }
  for (const std::string& kv : flags.table_config) {
    const size_t eq = kv.find('=');
    if (eq == 0 || eq == std::string::npos) {
      // The value may be a secret: only the key is named.
      return Status::InvalidArgument(
          StrCat("--table-config ", Quote(kv.substr(0, eq)), ": expected KEY=VALUE"));
    }
    options.table_config[kv.substr(0, eq)] = kv.substr(eq + 1);
  }

  FLOE_ASSIGN_OR_RETURN(auto io, ctx.FileIOFor(options.warehouse));
  FLOE_ASSIGN_OR_RETURN(auto catalog, catalog::OpenCatalog(catalog_uri, options.warehouse, std::move(io)));
  FLOE_ASSIGN_OR_RETURN(auto server, server::RestServer::Make(std::move(catalog), options));

  // SIGINT and SIGTERM are taken by sigwait below, on this thread: blocked
  // before the server starts its threads, so none of them receives one.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  Status started = server->Start();
  if (!started.ok()) {
    pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
    return started;
  }
  // The first line on stdout: tests and scripts read the port from it.
  ctx.out() << "listening on http://" << options.host << ":" << server->port() << std::endl;
  if (options.insecure_dev) {
    ctx.err() << "floe serve: --insecure-dev: authentication is OFF; every request acts as catalog admin\n";
  }
  int signal_number = 0;
  sigwait(&signals, &signal_number);
  ctx.err() << "floe serve: " << (signal_number == SIGINT ? "SIGINT" : "SIGTERM")
            << ": finishing the requests in flight\n";
  server->Stop();
  ctx.err() << "floe serve: stopped\n";
  return Status::OK();
}

}  // namespace

void AddServeCommand(CLI::App& app, CommandSet& commands) {
  auto& flags = commands.Keep<ServeFlags>();
  CLI::App* serve = commands.Add(app, "serve", "Serve the catalog as an Iceberg REST catalog",
                                 [&](CommandContext& ctx) { return RunServe(ctx, flags); });
  serve->add_option("--host", flags.host, "Address to listen on (default 127.0.0.1)");
  serve->add_option("--port", flags.port, "Port (default 8181; 0: a free one, printed on the first line)")
      ->check(CLI::Range(0, 65535));
  serve->add_option("--config", flags.config, "Server settings and OAuth clients, a JSON file (docs/cli.md)");
  serve->add_option("--prefix", flags.prefix, "The {prefix} path segment announced by /v1/config");
  serve->add_option("--workers", flags.workers, "Worker threads (default 8)");
  serve->add_option("--allowed-location", flags.allowed_locations,
                    "Another root client-named table locations may be below, besides the warehouse (repeatable)");
  serve->add_option("--table-config", flags.table_config,
                    "KEY=VALUE sent to clients in every table's config, e.g. s3.endpoint=... (repeatable)");
  serve->add_flag("--insecure-dev", flags.insecure_dev, "No authentication: for local development only");
}

}  // namespace floe::cli
