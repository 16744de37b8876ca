// CatalogTableOperations: the TableOperations of one table whose current
// metadata pointer a catalog keeps (as Java's BaseMetastoreTableOperations):
// Refresh reads the pointer and the metadata file it names; Commit writes
// the successor as a new metadata file, then has the catalog swap the
// pointer from the base's file to it.
//
// The catalog side is MetadataPointerStore: the three pointer operations a
// catalog that owns the pointer (SQL; not a REST client, which commits
// requirements and updates instead) provides.
//
// Thread safety: both may be used from several threads at once.

#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"
#include "floe/catalog/metadata_cache.h"
#include "floe/iceberg/table_operations.h"
#include "floe/io/file_io.h"

namespace floe::catalog {

class MetadataPointerStore {
 public:
  virtual ~MetadataPointerStore() = default;

  // The table's current metadata location. NotFound "table x does not exist".
  virtual Result<std::string> LoadMetadataLocation(const TableIdentifier& ident) = 0;

  // Registers a new table whose first metadata file is `metadata_location`.
  // AlreadyExists when the name is taken; NotFound when the namespace does
  // not exist. Nothing changed on error.
  virtual Status CreateMetadataLocation(const TableIdentifier& ident, const std::string& metadata_location) = 0;

  // Atomically replaces the pointer `expected` with `metadata_location`
  // (recording `expected` as the previous location).
  //   CommitConflict — the pointer is not `expected` (or the table is gone);
  //   CommitStateUnknown — the swap may or may not have happened;
  //   any other error — nothing changed.
  virtual Status SwapMetadataLocation(const TableIdentifier& ident, const std::string& expected,
                                      const std::string& metadata_location) = 0;
};

// The FileIO of a table whose properties configure storage (s3.endpoint,
// s3.access-key-id, client.region, ...: IsFileIOProperty), given the table's
// location and those properties; tables without such properties use the
// catalog's FileIO. Errors (a malformed property) fail the operation that
// needed the FileIO. Must be thread-safe.
using TableFileIOResolver =
    std::function<Result<std::shared_ptr<FileIO>>(const std::string& location, const FileIOProperties& properties)>;

// The resolver PyIceberg's behaviour asks for: the table's storage
// properties over `catalog_properties`, resolved by FileIOForLocation, then
// passed through `wrap` (e.g. request tracing) when one is given.
TableFileIOResolver TableFileIOFromProperties(
    FileIOProperties catalog_properties,
    std::function<std::shared_ptr<FileIO>(std::shared_ptr<FileIO>)> wrap = nullptr);

class CatalogTableOperations : public iceberg::TableOperations {
 public:
  // `io` reads the metadata file the pointer names (the table's properties
  // are not known before it is read) and serves every request of a table
  // without storage properties; with `table_io`, a table that has some is
  // served by the FileIO it resolves, metadata writes included (as PyIceberg).
  // With `cache`, Refresh takes the metadata of a file it names from there
  // (the pointer is still read from the store every time) and Commit puts
  // what it published there (see metadata_cache.h).
  CatalogTableOperations(std::shared_ptr<MetadataPointerStore> store, TableIdentifier ident,
                         std::shared_ptr<FileIO> io, TableFileIOResolver table_io = nullptr,
                         std::shared_ptr<TableMetadataCache> cache = nullptr);

  // NotFound when the table does not exist (or its metadata file is gone);
  // InvalidArgument for a malformed identifier; the file's errors otherwise.
  Result<iceberg::TableState> Refresh() override;

  // Publishes `updated` as the successor of `base` (see TableOperations):
  // adds base's file to the metadata log (trimmed to
  // write.metadata.previous-versions-max), names the file version
  // parse(base) + 1 (0 for a create: base.metadata_location empty), writes it
  // with put-if-absent, then creates or swaps the pointer. On a failure other
  // than CommitStateUnknown the new file is deleted again (also when writing
  // it failed, since the write may have landed; not when its name was taken:
  // AlreadyExists means the file is someone else's). After a successful
  // swap, with write.metadata.delete-after-commit.enabled, deletes the
  // metadata files that fell out of the log (failures there are ignored: the
  // commit already happened). `updated` must not carry base's log entry.
  //
  // When the swap's answer is lost (CommitStateUnknown from the store), the
  // outcome is learnt from the catalog, as Java's checkCommitStatus does: the
  // first read of the pointer that succeeds decides. The commit landed when
  // the pointer names the new file or a later metadata file lists it in its
  // log or holds a snapshot this commit added — then Commit succeeds; otherwise it did not land — the file is
  // deleted and Commit fails with CommitConflict, so the operation reloads
  // and retries. Only when every read fails (commit.status-check.num-retries,
  // default 3, waits commit.status-check.min-wait-ms 1 s doubling to
  // max-wait-ms 60 s) does CommitStateUnknown reach the caller, with every
  // file kept.
  Result<iceberg::TableState> Commit(const iceberg::TableState& base, const iceberg::TableMetadata& updated) override;

  // The FileIO for the table as last refreshed or committed (see the
  // constructor). The reference stays valid as long as this object.
  FileIO& io() override { return *current_io_.load(); }
  std::string name() const override { return ident_.ToString(); }
  const TableIdentifier& identifier() const { return ident_; }

 private:
  enum class Outcome { kLanded, kNotLanded, kUnknown };
  // Whether the commit of `published` (at `location`, on `base`) landed (see Commit).
  Outcome CheckCommitStatus(const iceberg::TableState& base, const std::string& location,
                            const iceberg::TableMetadata& published);
  // Points io() at the FileIO that `metadata`'s storage properties ask for.
  Status UseFileIOFor(const iceberg::TableMetadata& metadata);

  std::shared_ptr<MetadataPointerStore> store_;
  TableIdentifier ident_;
  std::shared_ptr<FileIO> io_;
  TableFileIOResolver table_io_resolver_;
  std::shared_ptr<TableMetadataCache> cache_;  // may be null
  std::atomic<FileIO*> current_io_;
  std::mutex mutex_;
  FileIOProperties current_io_properties_;            // guarded by mutex_
  std::vector<std::shared_ptr<FileIO>> table_ios_;    // guarded by mutex_; kept so io() references stay valid
};

}  // namespace floe::catalog
