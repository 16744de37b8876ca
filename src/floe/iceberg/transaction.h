// Transaction: several operations on one table committed atomically, with
// one swap of the catalog's pointer (after Java's BaseTransaction).
//
// Each operation is applied when it is added, on the transaction's staged
// metadata (the start plus every earlier operation): row operations plan
// against it, write their files and stage their snapshot (manifests and a
// manifest list; nothing is visible), metadata changes apply their updates
// with their requirements checked against it. Commit() swaps the pointer
// from the start's metadata to the staged one. When another writer won the
// race, the transaction reloads and re-applies every operation in order on
// the fresh table, each re-validating what it assumed since the
// transaction started (snapshots of earlier operations of the same
// transaction do not count as concurrent) — appends still hold; a delete
// or overwrite whose files or filter a concurrent commit touched fails with
// CommitConflict; a metadata change fails with CommitConflict when a
// requirement it was first built with (its schema, spec or sort order
// still current, a ref not moved) no longer holds — and retries with
// backoff (`commit.retry.*`). A failed
// or abandoned transaction deletes every file it wrote; after
// CommitStateUnknown it deletes nothing (the commit may have landed).
//
// Before each swap the files the staged snapshots reference that the
// transaction wrote and has not yet synced are made durable in one
// FileIO::MakeDurable call (see SnapshotProducer); a retry syncs only its
// new manifests and lists.
//
// The snapshots an operation stages are the transaction's: an operation
// that failed to apply leaves the transaction as it was (its files are
// deleted), so later operations may still be added.
//
// Thread safety: a Transaction is used by one thread.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/row_operations.h"
#include "floe/iceberg/table.h"

namespace floe::iceberg {

class Transaction {
 public:
  // A transaction on the table `ops` reaches, starting at `start` (its
  // current state). Prefer Table::NewTransaction().
  Transaction(std::shared_ptr<TableOperations> ops, TableState start);
  // An uncommitted transaction is aborted.
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // The staged state: the start with every operation added so far applied.
  TableState staged() const { return TableState{base_.metadata_location, staged_}; }

  // Row operations, as Table's (their WriteResult's state is the staged
  // one). Errors of planning, writing and validation; the transaction is
  // unchanged then. InvalidArgument once committed or aborted.
  Result<WriteResult> Append(const BatchSource& rows, const std::map<std::string, std::string>& summary = {});
  Result<WriteResult> AppendFiles(std::vector<DataFile> files);
  Result<WriteResult> Delete(const ExpressionPtr& filter);
  Result<WriteResult> Overwrite(const ExpressionPtr& filter, const BatchSource& rows);
  Result<WriteResult> ReplacePartitions(const BatchSource& rows);

  // A metadata change (schema, partition spec, properties...) built on the
  // staged metadata, rebuilt on a retry. Errors of the builder and of
  // ApplyTableChanges (CommitConflict for a failed requirement).
  Status CommitChanges(const Table::ChangeBuilder& build);
  Status SetProperties(std::map<std::string, std::string> updates, std::vector<std::string> removals = {});
  // Creates or moves a tag or branch to a snapshot (one staged by this
  // transaction, too). NotFound for an unknown snapshot.
  Status SetRef(const std::string& name, SnapshotRefType type, int64_t snapshot_id);

  // Publishes every operation at once. Returns the committed state (the
  // start when no operation was added). CommitConflict when retries are
  // exhausted or an operation's validation fails on the fresh table;
  // CommitStateUnknown from the catalog; other errors of re-applying. After
  // any error but CommitStateUnknown the transaction's files are deleted.
  Result<TableState> Commit();
  // Deletes every file the transaction wrote. Idempotent; no-op once committed.
  void Abort();

  // For publishing several tables' transactions in one catalog commit
  // (catalog/table_transactions.h), which runs the retry loop itself:
  //
  // The change from the base to the staged state as the REST commit
  // carries it (DiffTableMetadata): the updates, and the requirements that
  // make them safe on the catalog's current metadata. InvalidArgument once
  // committed or aborted; Unsupported as DiffTableMetadata.
  Result<TableChanges> PendingChanges() const;
  // Makes durable what the staged state references that this transaction
  // wrote and has not synced yet (one FileIO::MakeDurable call), before a
  // swap. Errors of MakeDurable; the transaction is unchanged then (the
  // caller aborts it). InvalidArgument once committed or aborted.
  Status MakeStagedDurable();
  // After a lost race: reloads the table and re-applies every operation on
  // it, each re-validating what it assumed (as Commit does between
  // attempts). `attempt` counts from 1. Errors of Refresh and of
  // re-applying (CommitConflict for a failed validation); the transaction
  // is aborted then.
  Status Rebase(int attempt);
  // The catalog published the staged state as `committed`: the
  // transaction is done and cleans up what earlier attempts staged.
  void Published(const TableState& committed);
  // The catalog's outcome is unknown: the transaction is done and keeps
  // every file (the commit may have landed).
  void OutcomeUnknown() { committed_ = true; }

  int operations() const { return static_cast<int>(operations_.size()); }
  // Attempts and conflicts of the last Commit().
  const CommitReport& report() const { return report_; }

 private:
  struct Operation {
    std::unique_ptr<MergingSnapshotProducer> producer;  // a snapshot, or
    Table::ChangeBuilder change;                        // a metadata change
    // The change's requirements as first built: what it assumed of the
    // table, checked again before it is rebuilt on a fresh table.
    std::vector<TableRequirement> assumed;
    std::vector<std::string> written;
  };
  Status CheckOpen() const;
  Result<WriteResult> AddWrite(Result<PreparedWrite> prepared);
  // Applies `op` on `metadata` (stage attempt `attempt`).
  Result<TableMetadata> ApplyOperation(Operation& op, const TableMetadata& metadata, int attempt);
  // Re-applies every operation on base_.
  Status Restage(int attempt);

  std::shared_ptr<TableOperations> ops_;
  TableState base_;
  std::shared_ptr<const TableMetadata> staged_;
  std::optional<int64_t> start_head_;  // main's head at the start: validation looks after it
  std::vector<Operation> operations_;
  std::set<int64_t> own_snapshot_ids_;
  CommitReport report_;
  bool committed_ = false;
  bool aborted_ = false;
};

}  // namespace floe::iceberg
