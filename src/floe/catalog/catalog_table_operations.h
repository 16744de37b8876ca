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

#include <memory>
#include <string>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"
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

class CatalogTableOperations : public iceberg::TableOperations {
 public:
  CatalogTableOperations(std::shared_ptr<MetadataPointerStore> store, TableIdentifier ident,
                         std::shared_ptr<FileIO> io);

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

  FileIO& io() override { return *io_; }
  std::string name() const override { return ident_.ToString(); }
  const TableIdentifier& identifier() const { return ident_; }

 private:
  enum class Outcome { kLanded, kNotLanded, kUnknown };
  // Whether the commit of `published` (at `location`, on `base`) landed (see Commit).
  Outcome CheckCommitStatus(const iceberg::TableState& base, const std::string& location,
                            const iceberg::TableMetadata& published);

  std::shared_ptr<MetadataPointerStore> store_;
  TableIdentifier ident_;
  std::shared_ptr<FileIO> io_;
};

}  // namespace floe::catalog
