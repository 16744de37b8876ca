// Table: one Iceberg table reached through its TableOperations — scans and
// the write operations a user asks for by rows and filters (append,
// overwrite --where, delete --where, replace partitions, compaction) plus
// the metadata operations (schema and partition evolution, properties,
// rollback, branches and tags, snapshot expiry).
//
// Row operations write their data files first and then commit once through
// a MergingSnapshotProducer (retrying lost races, re-validating). Delete and
// overwrite by filter remove whole files when their partition or metrics
// prove every row matches (metadata only), and otherwise rewrite the
// matching files without the matching rows (copy-on-write) or mark the rows
// deleted (merge-on-read: position deletes in v2, deletion vectors in v3),
// as `write.delete.mode` / `write.update.mode` say (row_operations.h),
// failing with CommitConflict when a concurrent commit added files the
// filter matches. Metadata operations retry their requirements-checked
// change on conflict. Several operations commit atomically through a
// Transaction (transaction.h).
//
// Thread safety: a Table may be shared by threads; each call refreshes.

#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/row_operations.h"
#include "floe/iceberg/scan/table_scan.h"
#include "floe/iceberg/snapshot_retention.h"
#include "floe/iceberg/table_operations.h"
#include "floe/iceberg/table_update.h"
#include "floe/iceberg/update/row_delta.h"
#include "floe/iceberg/update/snapshot_producer.h"

namespace floe::iceberg {

class Transaction;

struct ExpireResult {
  std::vector<int64_t> expired_snapshot_ids;
  std::vector<std::string> removed_refs;  // refs past their max-ref-age-ms
  int64_t deleted_data_files = 0;
  int64_t deleted_manifests = 0;
  int64_t deleted_manifest_lists = 0;
  // OK, or the first failure of the file cleanup after the expiry committed
  // (files it could not read or delete are left behind as orphans).
  Status cleanup;
  TableState state;
};

class Table {
 public:
  explicit Table(std::shared_ptr<TableOperations> ops);

  // The current state, read now. Errors of Refresh.
  Result<TableState> Refresh();
  TableOperations& ops() { return *ops_; }

  // A scan of the current state (or as the options travel in time).
  Result<std::unique_ptr<TableScan>> NewScan(TableScanOptions options);

  // The columnar schema rows written to the table must have.
  Result<std::shared_ptr<const floe::Schema>> WriteSchema();

  // Appends the rows (fast append, or merging manifests when
  // `commit.manifest-merge.enabled` is true, as Java's default append).
  Result<WriteResult> Append(const BatchSource& rows, const std::map<std::string, std::string>& summary = {});
  // Appends existing data files (already written, e.g. imported Parquet).
  // They are not made durable here (their writer did; a caller that wrote
  // them with durable = false calls FileIO::MakeDurable first). The other
  // row writes make the files they write durable before their commit.
  Result<WriteResult> AppendFiles(std::vector<DataFile> files);
  // Overwrite by files (Java's OverwriteFiles; row_operations.h): deletes
  // these live data files and adds those, in one snapshot ("overwrite";
  // "delete" when it only deletes, "append" when it only adds). Errors of
  // PrepareOverwriteFiles and of the commit.
  Result<WriteResult> OverwriteFiles(OverwriteFilesRequest request);
  // Deletes the rows matching `filter` (unbound).
  Result<WriteResult> Delete(const ExpressionPtr& filter);
  // Replaces the rows matching `filter` with `rows` (one snapshot).
  Result<WriteResult> Overwrite(const ExpressionPtr& filter, const BatchSource& rows);
  // Replaces every partition the rows fall into (dynamic overwrite).
  Result<WriteResult> ReplacePartitions(const BatchSource& rows);
  // Bin-packs each partition's data files smaller than 3/4 of the target
  // file size into target-size files (a "replace" snapshot; rows and their
  // data sequence numbers unchanged). No-op (nullopt) when nothing to do.
  Result<std::optional<WriteResult>> Compact(int min_input_files = 2);

  // Metadata operations: the updates are applied with their requirements
  // (see table_update.h) and retried on a lost race. A change without
  // updates commits nothing (its requirements are still checked).
  using ChangeBuilder =
      std::function<Result<std::pair<std::vector<TableRequirement>, std::vector<TableUpdate>>>(const TableMetadata&)>;
  Result<TableState> CommitChanges(const ChangeBuilder& build);

  // main (or `branch`) back to an ancestor snapshot. InvalidArgument when it is not an ancestor.
  Result<TableState> Rollback(int64_t snapshot_id, const std::string& branch = "main");
  // Points a tag or branch at a snapshot (creating or moving it).
  Result<TableState> SetRef(const std::string& name, SnapshotRefType type, int64_t snapshot_id);
  Result<TableState> RemoveRef(const std::string& name);
  // Sets main to any snapshot of the table (Java's setCurrentSnapshot; not
  // only ancestors). NotFound for an unknown snapshot.
  Result<TableState> SetCurrent(int64_t snapshot_id);
  // Moves `branch` to the head of `to` (a branch or tag) when its head is
  // an ancestor of it (Java's fastForwardBranch). NotFound for an unknown
  // branch or ref; InvalidArgument when `branch` is a tag or not an
  // ancestor of `to`.
  Result<TableState> FastForward(const std::string& branch, const std::string& to);
  // Applies a snapshot of another branch, or a staged (WAP) one, to main
  // (Java's cherrypick): a fast-forward when its parent is main's head;
  // else an "append" is re-applied as a new snapshot with the same added
  // files, and a dynamic overwrite ("replace-partitions") as a new
  // overwrite when its partitions did not change since its parent; both
  // record `source-snapshot-id` (and `published-wap-id` for a `wap.id`).
  // NotFound for an unknown snapshot; InvalidArgument for another
  // operation that cannot fast-forward; CommitConflict when the snapshot is
  // already an ancestor of main or was already picked (or its WAP id
  // published), or a replaced partition changed.
  Result<TableState> CherryPick(int64_t snapshot_id);

  // A row delta on this table (data files plus delete files; update/row_delta.h).
  std::unique_ptr<RowDelta> NewRowDelta() { return std::make_unique<RowDelta>(ops_); }
  // A transaction starting at the current state (transaction.h). Errors of Refresh.
  Result<std::unique_ptr<Transaction>> NewTransaction();
  // Removes the refs and snapshots snapshot_retention.h does not retain
  // (Java's ExpireSnapshots) and deletes the files only expired snapshots
  // referenced. Errors are the plan's (InvalidArgument) and the commit's
  // (CommitConflict, CommitStateUnknown: then nothing is deleted); once the
  // expiry committed the call succeeds, and a failed cleanup is reported in
  // `cleanup`. Nothing to remove commits nothing.
  Result<ExpireResult> ExpireSnapshots(const ExpireOptions& options);

 private:
  std::shared_ptr<TableOperations> ops_;
};

}  // namespace floe::iceberg
