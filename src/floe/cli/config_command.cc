// `floe config`: the effective global settings and where each came from.

#include <CLI/CLI.hpp>

#include "floe/catalog/catalog_uri.h"
#include "floe/cli/command.h"
#include "floe/cli/output.h"
#include "floe/columnar/builder.h"

namespace floe::cli {
namespace {

Status ShowConfig(CommandContext& ctx) {
  const GlobalOptions& o = ctx.options();
  static const auto schema = std::make_shared<const Schema>(std::vector<Field>{
      Field("setting", DataType::Utf8(), false),
      Field("value", DataType::Utf8(), false),
      Field("source", DataType::Utf8(), false),
  });
  const std::string rows[][3] = {
      {"warehouse", o.warehouse, std::string(OptionSourceName(o.warehouse_source))},
      {"catalog", catalog::RedactCatalogUri(o.catalog), std::string(OptionSourceName(o.catalog_source))},
  };
  StringBuilder columns[3];
  for (const auto& row : rows) {
    for (int c = 0; c < 3; ++c) FLOE_RETURN_IF_ERROR(columns[c].Append(row[c]));
  }
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch, FinishBatch(schema, {&columns[0], &columns[1], &columns[2]}));
  return PrintBatches(ctx, schema, {batch});
}

}  // namespace

void AddConfigCommand(CLI::App& app, CommandSet& commands) {
  commands.Add(app, "config", "Show the effective warehouse and catalog, and where each came from", ShowConfig);
}

}  // namespace floe::cli
