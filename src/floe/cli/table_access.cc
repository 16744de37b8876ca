#include "floe/cli/table_access.h"

#include "floe/base/strings.h"
#include "floe/catalog/catalog_uri.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/literal.h"
#include "floe/iceberg/transform_function.h"

namespace floe::cli {

Result<std::shared_ptr<catalog::Catalog>> OpenCatalogFor(CommandContext& ctx) {
  std::shared_ptr<FileIO> io;
  const std::string scheme = catalog::CatalogUriScheme(ctx.options().catalog);
  if (scheme == "http" || scheme == "https") {
    // A REST catalog's tables are wherever its server put them, not in
    // this client's --warehouse: each location gets the FileIO of its scheme.
    io = ctx.Traced(NewResolvingFileIO(ctx.options().catalog_properties));
  } else {
    FLOE_ASSIGN_OR_RETURN(io, ctx.FileIOFor(ctx.options().warehouse));
  }
  // Tables with storage properties of their own get a FileIO for them, traced too.
  auto table_io = catalog::TableFileIOFromProperties(
      ctx.options().catalog_properties, [&ctx](std::shared_ptr<FileIO> io) { return ctx.Traced(std::move(io)); });
  return catalog::OpenCatalog(ctx.options().catalog, ctx.options().warehouse, std::move(io), "floe",
                              std::move(table_io), ctx.options().catalog_properties);
}

Result<OpenedTable> OpenTableFor(CommandContext& ctx, const std::string& name) {
  OpenedTable opened;
  FLOE_ASSIGN_OR_RETURN(opened.catalog, OpenCatalogFor(ctx));
  FLOE_ASSIGN_OR_RETURN(opened.ident, catalog::TableIdentifier::Parse(name));
  FLOE_ASSIGN_OR_RETURN(bool exists, opened.catalog->TableExists(opened.ident));
  if (!exists) return Status::NotFound(StrCat("table ", opened.ident.ToString(), " does not exist"));
  opened.table = std::make_shared<iceberg::Table>(opened.catalog->NewTableOps(opened.ident));
  return opened;
}

Result<iceberg::ExpressionPtr> ParseWhere(const std::string& text) {
  if (Trim(text).empty()) return iceberg::ExpressionPtr();
  return iceberg::ParseExpression(text);
}

Status ApplyAsOf(const std::string& as_of, const iceberg::TableMetadata& metadata, iceberg::TableScanOptions* options) {
  if (as_of.empty()) return Status::OK();
  int64_t id = 0;
  if (ParseInt64(as_of, &id) && metadata.SnapshotById(id) != nullptr) {
    options->snapshot_id = id;
    return Status::OK();
  }
  if (metadata.refs.count(as_of) > 0) {
    options->ref = as_of;
    return Status::OK();
  }
  auto ts = iceberg::Literal::Parse(iceberg::Type::TimestampTz(), as_of);
  if (ts.ok()) {
    // The timestamp in microseconds; the snapshot log is in milliseconds.
    options->as_of_timestamp_ms = iceberg::FloorDiv(ts->long_value(), 1000);
    return Status::OK();
  }
  return Status::NotFound(StrCat("--as-of ", Quote(as_of), " is no snapshot id, branch, tag or timestamp of the table"));
}

}  // namespace floe::cli
