// Row operations prepared on a table state, committed later: the shared
// body of Table's row writes (append, delete and overwrite by filter,
// replace partitions, compaction) and of the same operations inside a
// Transaction. Preparing writes the data and delete files and configures a
// MergingSnapshotProducer (what to add, what to remove, what to validate);
// nothing is committed.
//
// Delete and overwrite by filter remove whole files when the partition or
// the strict metrics prove every row matches (metadata only). Other
// matching files are, by `write.delete.mode` (delete) or
// `write.update.mode` (overwrite), either rewritten without the matching
// rows (`copy-on-write`, the default) or kept with the matching rows marked
// deleted (`merge-on-read`): format v2 writes one position delete file per
// data file, v3 one deletion vector per data file, merged with the file's
// existing deletes, whose old DV is removed in the same commit (spec: "at
// most one deletion vector is allowed per data file in a snapshot").
// On a lost race they re-validate under `write.delete.isolation-level`
// (delete) or `write.update.isolation-level` (overwrite): `serializable`
// (the default) also fails when a concurrent append added data files the
// filter may match; `snapshot` lets those rows stand. InvalidArgument for
// another value.
//
// Thread safety: a PreparedWrite is used by one thread.

#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/table_operations.h"
#include "floe/iceberg/update/merging_snapshot_producer.h"

namespace floe::iceberg {

// The outcome of a row operation.
struct WriteResult {
  int64_t rows_written = 0;
  int64_t rows_deleted = 0;          // merge-on-read: rows marked deleted
  int64_t data_files_added = 0;
  int64_t data_files_removed = 0;
  int64_t data_files_rewritten = 0;  // copy-on-write
  int64_t delete_files_added = 0;    // merge-on-read: position delete files or DVs
  CommitReport commit;
  TableState state;
};

// Where a batch stream comes from for a write: called until it returns nullopt.
using BatchSource = std::function<Result<std::optional<RecordBatch>>()>;

// `write.delete.mode` / `write.update.mode` values.
inline constexpr std::string_view kCopyOnWrite = "copy-on-write";
inline constexpr std::string_view kMergeOnRead = "merge-on-read";

struct PreparedWrite {
  std::unique_ptr<MergingSnapshotProducer> producer;  // null: nothing to commit
  std::vector<std::string> written;                   // files written for it
  WriteResult result;
};

Result<PreparedWrite> PrepareAppend(std::shared_ptr<TableOperations> ops, const TableState& state,
                                    const BatchSource& rows, const std::map<std::string, std::string>& summary);
Result<PreparedWrite> PrepareAppendFiles(std::shared_ptr<TableOperations> ops, const TableState& state,
                                         std::vector<DataFile> files);
// Overwrite by files (Java's OverwriteFiles): removes live data files by
// path and adds data files the caller wrote.
struct OverwriteFilesRequest {
  std::vector<std::string> delete_files;  // paths of live data files
  std::vector<DataFile> add_files;        // spec_id set; durable already (as AppendFiles)
  // Java's validateFromSnapshot: the snapshot the caller chose the files in;
  // conflicts are what was committed after it. Default: the state the
  // operation is prepared on. It must be an ancestor of main at commit.
  std::optional<int64_t> validate_from_snapshot_id;
  // Java's validateNoConflictingData: fail when a data file was added
  // after that snapshot — one conflict_detection_filter may match, or any
  // when it is null (Java's default filter once files are deleted).
  bool validate_no_conflicting_data = true;
  ExpressionPtr conflict_detection_filter;  // unbound
};
// Errors: InvalidArgument for an empty request. At commit, CommitConflict
// when a file to delete is no longer live, when validation finds
// conflicting data, or (v2+, always, as Java's validateNoConflictingDeletes)
// when a delete file added since applies to a file it deletes. The added
// files are the caller's: kept on failure.
Result<PreparedWrite> PrepareOverwriteFiles(std::shared_ptr<TableOperations> ops, const TableState& state,
                                            OverwriteFilesRequest request);
// Delete (rows == nullptr) or overwrite by filter; the mode as above.
// InvalidArgument for merge-on-read on a v1 table or an unknown mode value.
Result<PreparedWrite> PrepareRewriteMatching(std::shared_ptr<TableOperations> ops, const TableState& state,
                                             const ExpressionPtr& filter, const BatchSource* rows);
Result<PreparedWrite> PrepareReplacePartitions(std::shared_ptr<TableOperations> ops, const TableState& state,
                                               const BatchSource& rows);
// Bin-packs small files (see Table::Compact); deletes of the rewritten files
// are applied, and their DVs and file-scoped position deletes removed.
Result<PreparedWrite> PrepareCompact(std::shared_ptr<TableOperations> ops, const TableState& state,
                                     int min_input_files);

// Commits a prepared write; on a failure that surely did not land deletes
// the files written for it. A write without a producer returns its result
// with `state` unchanged.
Result<WriteResult> CommitPrepared(PreparedWrite prepared, TableOperations& ops, const TableState& state);

// A predicate for conflict validation from an unbound row filter: a file
// conflicts when its partition (and, for data files, its metrics) may match.
Result<MergingSnapshotProducer::FilePredicate> ConflictPredicate(const Schema& schema, const ExpressionPtr& filter);

// Deletes files quietly (cleanup of an operation that did not land).
void DeleteFilesQuietly(FileIO& io, const std::vector<std::string>& paths);

}  // namespace floe::iceberg
