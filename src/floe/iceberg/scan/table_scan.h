// TableScan: which files, rows and columns of one table snapshot a query
// reads (spec: "Scan Planning"), and reading them into batches.
//
// Planning prunes in a chain: the manifest list's partition summaries skip
// manifests (inclusive projection of the filter onto each spec); the
// entries' partition tuples and column metrics skip data files; the
// Parquet reader skips row groups by statistics and bloom filters and pages
// by the page index; the residual filter (what the partition does not
// already decide) is evaluated on the rows that remain. Delete files are
// indexed from the delete manifests and attached to the data files they
// apply to by the spec's sequence-number rules: position deletes with a data
// sequence number >= the data file's, equality deletes with a strictly
// greater one, in the same partition (or a global, unpartitioned spec).
//
// Columns are matched by field id, so renamed columns read old files,
// added columns read their initial default (or null), promoted columns are
// widened, and files without field ids resolve through the table's
// `schema.name-mapping.default`.
//
// Thread safety: a TableScan is used by one thread at a time; manifests are
// read on `threads` worker threads.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/manifest_file.h"
#include "floe/iceberg/scan/file_scan_task.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/io/file_io.h"

namespace floe {
class IoTrace;
}  // namespace floe

namespace floe::iceberg {

struct TableScanOptions {
  // Time travel: at most one of these. None: the current snapshot of main.
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> as_of_timestamp_ms;  // the snapshot current at that time
  std::optional<std::string> ref;             // a branch or tag
  // Top-level columns to return, by name, in this order. Unset: all.
  std::optional<std::vector<std::string>> select;
  ExpressionPtr filter;  // unbound; null: every row
  bool case_sensitive = true;
  int threads = 2;                  // manifest readers
  int64_t batch_rows = 64 * 1024;   // rows per batch read from a file
  // Split planning (PlanTasks, Open): unset takes the table's
  // read.split.target-size / read.split.open-file-cost (split_planner.h).
  std::optional<int64_t> split_target_size;
  std::optional<int64_t> split_open_file_cost;
  // Whether planned tasks keep their whole DataFile, column metrics
  // included (FileScanTask::file.data_file(); Java's includeColumnStats).
  // Off, a task keeps only what reading needs (file_scan_task.h): listing
  // a big table is then several times cheaper in memory.
  bool include_column_stats = false;
};

// Requests and bytes read through a FileIO, as its tracing wrapper counts
// them (floe/io/tracing_file_io.h).
struct ScanIoCounts {
  int64_t requests = 0;
  int64_t bytes_read = 0;
};

// What planning and reading cost, for `--explain` and the demo.
struct ScanReport {
  std::optional<int64_t> snapshot_id;
  int64_t manifests_total = 0;
  int64_t manifests_skipped = 0;
  int64_t data_files_total = 0;    // live data files in the scanned manifests
  int64_t data_files_skipped = 0;  // by partition or metrics
  int64_t delete_files_applied = 0;
  int64_t row_groups_total = 0;
  int64_t row_groups_skipped = 0;
  int64_t pages_total = 0;
  int64_t pages_skipped = 0;
  int64_t rows_scanned = 0;  // rows decoded from data files
  int64_t rows_deleted = 0;  // removed by delete files
  int64_t rows_returned = 0;
  // Every request the scan sent through its FileIO and the bytes they
  // read, by the kind of file: planning reads the manifest list and the
  // manifests, reading the data files and the delete files they apply.
  // (An incremental append scan reads its snapshots' manifest lists when
  // it is made, before counting starts; those are not in the report.)
  ScanIoCounts manifest_io{};
  ScanIoCounts data_file_io{};
  ScanIoCounts delete_file_io{};

  int64_t requests() const { return manifest_io.requests + data_file_io.requests + delete_file_io.requests; }
  int64_t bytes_read() const { return manifest_io.bytes_read + data_file_io.bytes_read + delete_file_io.bytes_read; }

  // One "name: values" line per count, e.g. "bytes read: 253018 (manifests
  // 7811, data files 245207, delete files 0)".
  std::string ToString() const;
};

class IncrementalAppendScan;

class TableScan {
 public:
  // Resolves the snapshot and binds the filter and projection. NotFound for
  // an unknown snapshot id, ref, or a time before the first snapshot;
  // InvalidArgument for unknown columns or a filter that does not bind.
  static Result<std::unique_ptr<TableScan>> Make(std::shared_ptr<FileIO> io,
                                                 std::shared_ptr<const TableMetadata> metadata,
                                                 TableScanOptions options);
  ~TableScan();

  // The snapshot read (null for a table without snapshots: no rows).
  const Snapshot* snapshot() const { return snapshot_; }
  // The schema rows are read with (the snapshot's for time travel by id or
  // tag, else the table's) and the columnar schema of the batches returned.
  const Schema& scan_schema() const { return *schema_; }
  const std::shared_ptr<const floe::Schema>& output_schema() const { return output_schema_; }

  // Plans the files to read (each call plans anew and resets report()).
  // The tasks own what they point to (file_scan_task.h) and outlive the
  // scan. Errors of FileIO and the manifest readers.
  Result<std::vector<FileScanTask>> PlanFiles();

  // PlanFiles, then the files cut into splits and packed into combined
  // tasks (split_planner.h). InvalidArgument for a read.split.* property
  // that is not a positive integer; else the errors of PlanFiles.
  Result<std::vector<CombinedScanTask>> PlanTasks();

  // Plans the tasks and returns their rows, batch by batch, split by split. After the reader is
  // exhausted report() holds the read side's counts too.
  Result<std::unique_ptr<RecordBatchReader>> Open();

  // The counts of the last PlanFiles/PlanTasks/Open and of reading since;
  // the I/O counts are taken at the call, so a reader stopped early (a
  // limit) reports what it did read. The reference stays valid until the
  // next call.
  const ScanReport& report() const;

 private:
  friend class IncrementalAppendScan;
  class Reader;
  TableScan() = default;
  // Make() with the snapshot and schema already chosen.
  static Result<std::unique_ptr<TableScan>> MakeAt(std::shared_ptr<FileIO> io,
                                                   std::shared_ptr<const TableMetadata> metadata,
                                                   const Snapshot* snapshot, const Schema& schema,
                                                   TableScanOptions options);
  // The tasks of the live entries of `manifests` that the filter keeps.
  Result<std::vector<FileScanTask>> PlanManifests(const std::vector<ManifestFile>& manifests);
  // The data manifests the append snapshots wrote themselves, each once.
  Result<std::vector<ManifestFile>> AppendedDataManifests(const std::vector<const Snapshot*>& appends);

  // A FileIO of the scan counted by a totals-only IoTrace: one per kind
  // of file the report tells apart, all over the same storage.
  struct CountedIO {
    std::shared_ptr<IoTrace> trace;
    std::shared_ptr<FileIO> io;
  };
  static CountedIO Counted(std::shared_ptr<FileIO> io);

  CountedIO manifest_io_;
  CountedIO data_file_io_;
  CountedIO delete_file_io_;
  std::shared_ptr<const TableMetadata> metadata_;
  TableScanOptions options_;
  const Snapshot* snapshot_ = nullptr;
  std::shared_ptr<const Schema> schema_;
  std::vector<int32_t> output_field_ids_;
  std::shared_ptr<const floe::Schema> output_schema_;
  ExpressionPtr bound_filter_;
  std::shared_ptr<ScanReport> report_;
  // Set for an incremental append scan: the append snapshots of the range,
  // oldest first, whose own data manifests are read (through manifest_io_,
  // so the report counts their manifest lists) and whose ADDED entries are
  // planned (no delete files apply).
  std::optional<std::vector<const Snapshot*>> append_snapshots_;
  std::set<int64_t> append_snapshot_ids_;
};

// The snapshot a time-travel option names in `metadata` (null when the
// table has none and no option is set). NotFound naming what was asked.
Result<const Snapshot*> ResolveSnapshot(const TableMetadata& metadata, const TableScanOptions& options);

}  // namespace floe::iceberg
