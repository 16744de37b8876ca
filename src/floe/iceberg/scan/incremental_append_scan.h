// IncrementalAppendScan: the rows appended between two snapshots of one
// table, as Java's IncrementalAppendScan reads them.
//
// The range is the to-snapshot (default: the current snapshot of main) and
// its ancestors back to the from-snapshot, which is excluded by default and
// included on request (unset: back to the oldest ancestor, inclusive).
// Only snapshots whose operation is "append" contribute, and of each only
// the data files it ADDED: the data manifests it wrote (added_snapshot_id)
// and, in them, the entries with status ADDED and its snapshot id. Files
// that later snapshots overwrote or deleted are still read (the scan says
// what was appended, not what is live), and no delete files apply. Rows are
// read with the table's current schema; the filter, projection and split
// planning are TableScan's.
//
// Thread safety: one thread at a time; manifests are read on `threads`
// worker threads.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/scan/table_scan.h"

namespace floe::iceberg {

struct AppendRange {
  std::optional<int64_t> from_snapshot_id;
  bool from_inclusive = false;
  std::optional<int64_t> to_snapshot_id;
};

class IncrementalAppendScan {
 public:
  // Resolves the range and binds filter and projection (`options` must not
  // time travel). NotFound for an unknown snapshot; InvalidArgument when the
  // from-snapshot is not an ancestor of the to-snapshot (exclusive: nor the
  // parent of one), when `options` sets a snapshot, timestamp or ref, and
  // for what TableScan::Make rejects. A table without snapshots scans empty.
  static Result<std::unique_ptr<IncrementalAppendScan>> Make(std::shared_ptr<FileIO> io,
                                                             std::shared_ptr<const TableMetadata> metadata,
                                                             AppendRange range, TableScanOptions options);
  ~IncrementalAppendScan();

  // The append snapshots of the range, oldest first.
  const std::vector<int64_t>& snapshot_ids() const { return snapshot_ids_; }
  const std::shared_ptr<const floe::Schema>& output_schema() const { return scan_->output_schema(); }

  // As TableScan's: the files appended in the range (FileIO errors, and
  // those of reading the range's manifest lists), packed into combined
  // tasks, and their rows.
  Result<std::vector<FileScanTask>> PlanFiles() { return scan_->PlanFiles(); }
  Result<std::vector<CombinedScanTask>> PlanTasks() { return scan_->PlanTasks(); }
  Result<std::unique_ptr<RecordBatchReader>> Open() { return scan_->Open(); }
  const ScanReport& report() const { return scan_->report(); }

 private:
  IncrementalAppendScan() = default;

  std::unique_ptr<TableScan> scan_;
  std::vector<int64_t> snapshot_ids_;
};

}  // namespace floe::iceberg
