// SqlCatalog::CommitTransaction: several tables committed atomically.
//
// Each table's new metadata is computed from its current metadata and
// written as a new file first (nothing points at those files yet); then one
// SQL transaction swaps every pointer with the same compare-and-swap UPDATE
// as a single commit. Any pointer that moved meanwhile rolls the whole
// transaction back (CommitConflict) and the new files are deleted; a COMMIT
// with an unknown outcome keeps them (one may now be current).

#include <algorithm>
#include <set>

#include "floe/base/logging.h"
#include "floe/base/strings.h"
#include "floe/catalog/sql_catalog.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/metadata_location.h"

namespace floe::catalog {

namespace {

struct PreparedCommit {
  const TableCommit* commit = nullptr;
  iceberg::TableState base;
  bool changed = false;
  std::string location;                // the new metadata file (when changed)
  iceberg::TableMetadata published;   // its content
};

void DeleteQuietly(FileIO& io, const std::string& location) {
  Status removed = io.Delete(location);
  if (!removed.ok()) {
    FLOE_LOG(kWarning) << "transaction: " << removed.ToString();
  }
}

}  // namespace

Result<std::vector<iceberg::TableState>> SqlCatalog::CommitTransaction(const std::vector<TableCommit>& commits) {
  if (commits.empty()) return std::vector<iceberg::TableState>{};
  std::set<TableIdentifier> seen;
  for (const TableCommit& c : commits) {
    FLOE_RETURN_IF_ERROR(c.ident.Validate());
    if (!seen.insert(c.ident).second) {
      return Status::InvalidArgument(StrCat("transaction: table ", c.ident.ToString(), " appears twice"));
    }
    for (const auto& r : c.requirements) {
      if (std::holds_alternative<iceberg::AssertCreate>(r)) {
        return Status::InvalidArgument(
            StrCat("transaction: table ", c.ident.ToString(), ": assert-create is not supported in a transaction"));
      }
    }
  }

  // 1. Validate and build every table's next metadata against its current one.
  std::vector<PreparedCommit> prepared(commits.size());
  for (size_t i = 0; i < commits.size(); ++i) {
    PreparedCommit& p = prepared[i];
    p.commit = &commits[i];
    const TableIdentifier& ident = commits[i].ident;
    FLOE_ASSIGN_OR_RETURN(std::string location, LoadMetadataLocation(ident));
    auto metadata = iceberg::ReadTableMetadata(*io_, location);
    if (!metadata.ok()) return metadata.status().WithContext(StrCat("table ", ident.ToString()));
    p.base = iceberg::TableState{location, std::make_shared<const iceberg::TableMetadata>(std::move(*metadata))};
    auto updated = iceberg::ApplyTableChanges(p.base.metadata.get(), commits[i].requirements, commits[i].updates);
    if (!updated.ok()) return updated.status().WithContext(StrCat("table ", ident.ToString()));
    if (*updated == *p.base.metadata) continue;
    p.changed = true;
    FLOE_ASSIGN_OR_RETURN(p.published,
                          iceberg::WithPreviousMetadataFile(std::move(*updated), *p.base.metadata, location));
    const int version = iceberg::ParseMetadataFileVersion(location) + 1;
    FLOE_ASSIGN_OR_RETURN(p.location, iceberg::NewMetadataFileLocation(p.published, version));
  }

  // 2. Write the new files; on failure remove the ones written so far.
  std::vector<std::string> written;
  auto remove_written = [&] {
    for (const std::string& location : written) DeleteQuietly(*io_, location);
  };
  for (PreparedCommit& p : prepared) {
    if (!p.changed) continue;
    Status s = iceberg::WriteTableMetadata(*io_, p.location, p.published);
    if (!s.ok()) {
      if (!s.IsAlreadyExists()) DeleteQuietly(*io_, p.location);
      remove_written();
      return s.WithContext(StrCat("table ", p.commit->ident.ToString(), ": writing ", Quote(p.location)));
    }
    written.push_back(p.location);
  }

  // 3. Swap every pointer in one SQL transaction.
  {
    auto lease = pool_.Acquire();
    if (!lease.ok()) {
      remove_written();
      return lease.status();
    }
    auto& db = *lease;
    auto txn = SqlTransaction::Begin(*db, SqlLock::kRows);
    if (!txn.ok()) {
      remove_written();
      return txn.status();
    }
    for (const PreparedCommit& p : prepared) {
      if (!p.changed) continue;
      const TableIdentifier& ident = p.commit->ident;
      auto changed = db->Execute(
          StrCat("UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = ? WHERE "
                 "catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ?",
                 TableRowFilter()),
          {p.location, p.base.metadata_location, name(), ident.ns.ToString(), ident.name, p.base.metadata_location});
      if (!changed.ok()) {
        remove_written();  // before COMMIT nothing is durable; the destructor rolls back
        return changed.status();
      }
      if (*changed == 0) {
        remove_written();
        return Status::CommitConflict(StrCat("transaction: table ", ident.ToString(),
                                             " was changed by another commit; nothing was committed"))
            .WithConflictReason(ConflictReason::kSwapLost);
      }
    }
    bool unknown = false;
    Status committed = txn->Commit(&unknown);
    if (!committed.ok()) {
      if (unknown) {
        db.Discard();
        return Status::CommitStateUnknown(
            StrCat("transaction: the commit may or may not have happened: ", committed.message()));
      }
      remove_written();
      return committed;
    }
  }

  // 4. Committed: drop metadata files that fell out of the logs.
  std::vector<iceberg::TableState> states;
  states.reserve(prepared.size());
  for (PreparedCommit& p : prepared) {
    if (!p.changed) {
      states.push_back(p.base);
      continue;
    }
    for (const std::string& old_file : iceberg::MetadataFilesToDelete(*p.base.metadata, p.published)) {
      DeleteQuietly(*io_, old_file);
    }
    states.push_back(iceberg::TableState{
        p.location, std::make_shared<const iceberg::TableMetadata>(std::move(p.published))});
  }
  return states;
}

}  // namespace floe::catalog
