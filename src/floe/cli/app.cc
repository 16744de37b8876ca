#include "floe/cli/app.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

#include "floe/base/logging.h"
#include "floe/base/strings.h"
#include "floe/base/version.h"
#include "floe/cli/command.h"

namespace floe::cli {
namespace {

// The value of an option: the flag if given, else the environment variable,
// else the default; with where it came from.
OptionSource Resolve(const CLI::Option* option, const char* env, std::string& value) {
  if (option->count() > 0) return OptionSource::kFlag;
  const char* from_env = std::getenv(env);
  if (from_env != nullptr && *from_env != '\0') {
    value = from_env;
    return OptionSource::kEnvironment;
  }
  return OptionSource::kDefault;
}

// CLI11 messages can span lines; the house rule is one line per error.
std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return std::string(Trim(text));
}

}  // namespace

int Main(int argc, char** argv) {
  InitLoggingFromEnv();
  CLI::App app{"floe: a lakehouse engine. Tables are immutable Parquet files on object storage;\n"
               "a table format's metadata says which files make each version.",
               "floe"};
  app.set_version_flag("--version", StrCat("floe ", kVersion));
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the subcommand

  GlobalOptions options;
  std::string catalog;
  std::string log_level;
  CLI::Option* warehouse_opt =
      app.add_option("--warehouse", options.warehouse, "Warehouse location: path, file: or mem: (env FLOE_WAREHOUSE)");
  CLI::Option* catalog_opt =
      app.add_option("--catalog", catalog, "Catalog URI, default sqlite:<warehouse>/catalog.db (env FLOE_CATALOG)");
  app.add_option("--format", options.format, "Result output format")
      ->check(CLI::IsMember({"table", "csv", "json", "jsonl"}));
  app.add_flag("--trace-io", options.trace_io, "Print every storage request and the totals after the command");
  app.add_option("--log-level", log_level, "debug, info, warning (default), error or off (env FLOE_LOG)");

  CommandSet commands;
  AddConfigCommand(app, commands);
  AddIoCommands(app, commands);
  AddParquetCommands(app, commands);
  AddNamespaceCommands(app, commands);
  AddTableCommands(app, commands);
  AddTableReadCommands(app, commands);
  AddDemoCommand(app, commands);
  AddServeCommand(app, commands);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "floe: InvalidArgument: " << OneLine(e.what()) << " (see 'floe --help')\n";
    return 1;
  }

  if (!log_level.empty()) {
    auto level = ParseLogLevel(log_level);
    if (!level.ok()) {
      std::cerr << "floe: " << level.status().ToString() << "\n";
      return 1;
    }
    SetLogLevel(*level);
  }
  options.warehouse_source = Resolve(warehouse_opt, "FLOE_WAREHOUSE", options.warehouse);
  options.catalog_source = Resolve(catalog_opt, "FLOE_CATALOG", catalog);
  options.catalog = catalog.empty() ? StrCat("sqlite:", JoinLocation(options.warehouse, "catalog.db")) : catalog;

  const CommandRunner* run = commands.selected();
  if (run == nullptr) {
    std::cerr << "floe: InvalidArgument: no command given (see 'floe --help')\n";
    return 1;
  }
  CommandContext context(options, std::cout, std::cerr);
  Status status = (*run)(context);
  std::cout.flush();
  if (options.trace_io) std::cerr << context.trace()->Format(options.warehouse);
  if (!status.ok()) {
    std::cerr << "floe: " << OneLine(status.ToString()) << "\n";
    return ExitCodeFor(status);
  }
  return 0;
}

}  // namespace floe::cli
