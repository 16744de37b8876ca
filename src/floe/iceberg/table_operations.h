// TableOperations: how the Iceberg kernel reaches one table's current
// metadata and swaps it — the seam between the table format and a catalog
// (after Java's TableOperations). The kernel builds new metadata and calls
// Commit; a catalog (SQL, REST, or none for a metadata file read in place)
// implements the pointer swap. Layers stay apart: iceberg/ defines this,
// catalog/ implements it.
//
// Thread safety: implementations must allow concurrent calls from several
// threads; each Commit is atomic with respect to every other writer of the
// same table, in this process or another.

#pragma once

#include <memory>
#include <string>

#include "floe/base/result.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/io/file_io.h"

namespace floe::iceberg {

// One version of a table as the catalog knows it: where its metadata file
// is and what it says. `metadata_location` is empty for a table that has no
// committed version yet (a staged create).
struct TableState {
  std::string metadata_location;
  std::shared_ptr<const TableMetadata> metadata;
};

class TableOperations {
 public:
  virtual ~TableOperations() = default;

  // The table's current version, read from the catalog now (never cached).
  // NotFound when the table no longer exists; the FileIO's and the
  // metadata file's errors otherwise.
  virtual Result<TableState> Refresh() = 0;

  // Publishes `updated` as the successor of `base`: writes it as a new
  // metadata file, then swaps the catalog's pointer from
  // base.metadata_location to it. Returns the new state.
  //   CommitConflict — the pointer is no longer base's: nothing changed; the
  //     caller reloads, revalidates and may retry.
  //   CommitStateUnknown — the swap may or may not have happened (a lost
  //     response); the caller must Refresh to find out, never resubmit.
  //   any other error — nothing changed.
  // The new metadata file is removed again when the swap surely failed.
  virtual Result<TableState> Commit(const TableState& base, const TableMetadata& updated) = 0;

  // Where the table's data and metadata files are read and written.
  virtual FileIO& io() = 0;

  // A readable name for errors and logs ("shop.orders", or a metadata path).
  virtual std::string name() const = 0;
};

}  // namespace floe::iceberg
