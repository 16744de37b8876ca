// What every floe subcommand gets: the resolved global options, storage
// access that honours --trace-io, and the output streams.

#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/io/file_io.h"
#include "floe/io/tracing_file_io.h"

namespace CLI {
class App;
class Validator;
}

namespace floe::cli {

// Where a global option's value came from, for `floe config`.
enum class OptionSource { kDefault, kEnvironment, kFlag };
std::string_view OptionSourceName(OptionSource source);

struct GlobalOptions {
  std::string warehouse = "./warehouse";
  OptionSource warehouse_source = OptionSource::kDefault;
  std::string catalog;  // resolved: sqlite:<warehouse>/catalog.db unless given
  OptionSource catalog_source = OptionSource::kDefault;
  // --catalog-property k=v: catalog configuration, as PyIceberg's and
  // Java's catalog properties (the storage ones: s3.endpoint, ...).
  FileIOProperties catalog_properties;
  std::string format = "table";  // table | csv | json | jsonl
  bool trace_io = false;
};

class CommandContext {
 public:
  CommandContext(GlobalOptions options, std::ostream& out, std::ostream& err);

  const GlobalOptions& options() const { return options_; }
  std::ostream& out() { return out_; }
  std::ostream& err() { return err_; }

  // The FileIO serving `location` with the catalog properties (and
  // `table_properties` over them), wrapped in request tracing when
  // --trace-io is on. Errors as FileIOForLocation.
  Result<std::shared_ptr<FileIO>> FileIOFor(std::string_view location, const FileIOProperties& table_properties = {});

  // `io` wrapped in request tracing when --trace-io is on.
  std::shared_ptr<FileIO> Traced(std::shared_ptr<FileIO> io);

  // The recorded requests (empty unless --trace-io).
  const std::shared_ptr<IoTrace>& trace() const { return trace_; }

 private:
  GlobalOptions options_;
  std::ostream& out_;
  std::ostream& err_;
  std::shared_ptr<IoTrace> trace_ = std::make_shared<IoTrace>();
};

using CommandRunner = std::function<Status(CommandContext&)>;

// Collects subcommands; the one the user picked runs after parsing succeeds,
// so a command never starts on a half-parsed command line.
class CommandSet {
 public:
  // Adds `name` under `parent`; returns it so the caller adds options.
  CLI::App* Add(CLI::App& parent, const std::string& name, const std::string& description, CommandRunner run);
  // A group of subcommands (`floe io ...`) that runs nothing itself.
  CLI::App* AddGroup(CLI::App& parent, const std::string& name, const std::string& description);

  // Storage for a command's option values, alive as long as the CommandSet:
  // CLI11 writes parsed values into it, the runner reads them.
  template <typename T>
  T& Keep(T initial) {
    auto owned = std::make_shared<T>(std::move(initial));
    kept_.push_back(owned);
    return *owned;
  }
  // Value-initialized in place: no temporary to move (g++ 12 warns of
  // maybe-uninitialized members when moving a large one).
  template <typename T>
  T& Keep() {
    auto owned = std::make_shared<T>();
    kept_.push_back(owned);
    return *owned;
  }

  const CommandRunner* selected() const { return selected_ ? &selected_ : nullptr; }

 private:
  CommandRunner selected_;
  std::vector<std::shared_ptr<void>> kept_;
};

// A check for an integer option of at least `minimum`: "expected <what> >=
// <minimum>, not '<text>'" otherwise (CLI11's own range checks print the
// range as doubles up to 1.8e308).
CLI::Validator IntegerAtLeast(int64_t minimum, std::string what);

// Registration functions, one per command file.
void AddConfigCommand(CLI::App& app, CommandSet& commands);
void AddIoCommands(CLI::App& app, CommandSet& commands);
void AddParquetCommands(CLI::App& app, CommandSet& commands);
void AddDemoCommand(CLI::App& app, CommandSet& commands);
void AddNamespaceCommands(CLI::App& app, CommandSet& commands);
void AddTableCommands(CLI::App& app, CommandSet& commands);
// Adds scan and the metadata tables under `table` (AddTableCommands first).
void AddTableReadCommands(CLI::App& app, CommandSet& commands);
void AddServeCommand(CLI::App& app, CommandSet& commands);

}  // namespace floe::cli
