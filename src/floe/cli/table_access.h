// What the namespace and table commands share: opening the catalog named by
// --catalog/--warehouse, a table of it, and parsing the arguments every
// table command takes (NS.T, --where, --as-of).

#pragma once

#include <memory>
#include <string>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"
#include "floe/cli/command.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/scan/table_scan.h"
#include "floe/iceberg/table.h"

namespace floe::cli {

// The catalog of this invocation. Errors of OpenCatalog.
Result<std::shared_ptr<catalog::Catalog>> OpenCatalogFor(CommandContext& ctx);

struct OpenedTable {
  std::shared_ptr<catalog::Catalog> catalog;
  catalog::TableIdentifier ident;
  std::shared_ptr<iceberg::Table> table;
};
// NotFound "table shop.orders does not exist" and the catalog's errors.
Result<OpenedTable> OpenTableFor(CommandContext& ctx, const std::string& name);

// --where text; null for an empty text.
Result<iceberg::ExpressionPtr> ParseWhere(const std::string& text);

// --as-of: a snapshot id of the table, a timestamp (2026-10-21T20:00:00,
// UTC unless it names an offset), or a branch or tag name.
Status ApplyAsOf(const std::string& as_of, const iceberg::TableMetadata& metadata, iceberg::TableScanOptions* options);

}  // namespace floe::cli
