#include "floe/cli/command.h"

#include <CLI/CLI.hpp>
#include <ostream>

#include "floe/base/strings.h"

namespace floe::cli {

std::string_view OptionSourceName(OptionSource source) {
  switch (source) {
    case OptionSource::kDefault: return "default";
    case OptionSource::kEnvironment: return "environment";
    case OptionSource::kFlag: return "flag";
  }
  return "default";
}

CommandContext::CommandContext(GlobalOptions options, std::ostream& out, std::ostream& err)
    : options_(std::move(options)), out_(out), err_(err) {}

Result<std::shared_ptr<FileIO>> CommandContext::FileIOFor(std::string_view location,
                                                          const FileIOProperties& table_properties) {
  FileIOProperties properties = options_.catalog_properties;
  for (const auto& [key, value] : table_properties) properties[key] = value;
  FLOE_ASSIGN_OR_RETURN(auto io, FileIOForLocation(location, properties));
  return Traced(std::move(io));
}

std::shared_ptr<FileIO> CommandContext::Traced(std::shared_ptr<FileIO> io) {
  if (!options_.trace_io) return io;
  return std::make_shared<TracingFileIO>(std::move(io), trace_);
}

CLI::Validator IntegerAtLeast(int64_t minimum, std::string what) {
  return CLI::Validator(
      [minimum, what](std::string& text) {
        int64_t n = 0;
        return ParseInt64(text, &n) && n >= minimum ? std::string()
                                                    : StrCat("expected ", what, " >= ", minimum, ", not ", Quote(text));
      },
      "N");
}

CLI::App* CommandSet::Add(CLI::App& parent, const std::string& name, const std::string& description,
                          CommandRunner run) {
  CLI::App* sub = parent.add_subcommand(name, description);
  sub->callback([this, run = std::move(run)] { selected_ = run; });
  return sub;
}

CLI::App* CommandSet::AddGroup(CLI::App& parent, const std::string& name, const std::string& description) {
  CLI::App* group = parent.add_subcommand(name, description);
  group->require_subcommand(1);
  return group;
}

}  // namespace floe::cli
