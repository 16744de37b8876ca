// RestTableOperations: the TableOperations of one table of a RestCatalog —
// Refresh loads the table, Commit sends base → updated as requirements and
// updates (iceberg/table_metadata_diff.h) and resolves an unknown outcome by
// reloading (rest_catalog.h says how). The server writes the metadata file;
// this side writes only data, manifests and manifest lists (through the
// catalog's FileIO).
//
// Thread safety: thread-safe.

#pragma once

#include <memory>
#include <string>

#include "floe/catalog/rest_catalog.h"
#include "floe/iceberg/table_metadata_diff.h"
#include "floe/iceberg/table_operations.h"

namespace floe::catalog {

class RestTableOperations final : public iceberg::TableOperations {
 public:
  RestTableOperations(std::shared_ptr<RestCatalog> catalog, TableIdentifier ident);

  // LoadTable's errors (NotFound "table shop.orders does not exist").
  Result<iceberg::TableState> Refresh() override;

  // CommitConflict when a requirement failed or the commit surely did not
  // land; CommitStateUnknown only when reloading could not tell; Unsupported
  // for a change no REST update expresses; the catalog's other errors.
  Result<iceberg::TableState> Commit(const iceberg::TableState& base, const iceberg::TableMetadata& updated) override;

  FileIO& io() override { return *catalog_->io(); }
  std::string name() const override { return ident_.ToString(); }

 private:
  // After CommitStateUnknown: reload until the change is seen, can no longer
  // land, or the reloads run out (then `unknown` is returned).
  Result<iceberg::TableState> Resolve(const iceberg::TableChanges& changes, const Status& unknown);

  std::shared_ptr<RestCatalog> catalog_;
  TableIdentifier ident_;
};

}  // namespace floe::catalog
