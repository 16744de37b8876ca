// RestTableOperations: the TableOperations of one table of a RestCatalog —
// Refresh loads the table, Commit sends base → updated as requirements and
// updates (iceberg/table_metadata_diff.h) and resolves an unknown outcome by
// reloading (rest_catalog.h says how). The server writes the metadata file;
// this side writes only data, manifests and manifest lists, through the
// catalog's FileIO, or the one the table's storage settings call for
// (RestCatalog::StoragePropertiesFor: server config, table properties, the
// config vended with the table). It keeps the newest state it saw with its ETag, and
// Refresh asks with If-None-Match: a 304 answer returns that state again
// without reading the metadata twice.
//
// Thread safety: thread-safe.

#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

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
  // land ("table shop.orders no longer exists" when the table was dropped,
  // as every catalog says); CommitStateUnknown only when reloading could not
  // tell; Unsupported for a change no REST update expresses; the catalog's
  // other errors.
  Result<iceberg::TableState> Commit(const iceberg::TableState& base, const iceberg::TableMetadata& updated) override;

  FileIO& io() override;
  std::string name() const override { return ident_.ToString(); }

 private:
  // After CommitStateUnknown: reload until the change is seen, can no longer
  // land, or the reloads run out (then `unknown` is returned).
  Result<iceberg::TableState> Resolve(const iceberg::TableChanges& changes, const Status& unknown);

  // Remembers `loaded` as the newest state seen (a commit's answer keeps
  // the config of the last load) and picks the FileIO its storage
  // settings call for.
  Status Remember(RestCatalog::LoadedTable& loaded);

  std::shared_ptr<RestCatalog> catalog_;
  TableIdentifier ident_;
  std::mutex mutex_;
  RestCatalog::LoadedTable last_;  // guarded by mutex_
  FileIO* current_io_;             // guarded by mutex_; the catalog's or one of table_ios_
  FileIOProperties current_storage_;                   // guarded by mutex_
  std::vector<std::shared_ptr<FileIO>> table_ios_;    // guarded by mutex_; kept so io() references stay valid
};

}  // namespace floe::catalog
