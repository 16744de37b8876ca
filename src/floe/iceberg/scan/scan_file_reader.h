// ScanFileReader: one FileScanTask's rows — a data file read by field id
// into the scan schema, with its residual filter and delete files applied,
// projected to the scan's output columns. Used by TableScan.
//
// Column mapping: a table field is found in the file by field id; a file
// without field ids is matched through `schema.name-mapping.default` (spec:
// "Column Projection"), else by the field's current name, at every nesting
// level (column_projection.h). A field the file lacks reads as its identity
// partition value, else its initial-default, else null. An int column of a
// promoted long field, a float of a double and a narrower decimal are widened.
//
// Deletes: position delete files (Parquet, `file_path`/`pos`) remove rows by
// their position in the data file, so a file with position deletes is read
// without row-group or page pruning; equality delete files remove rows whose
// values in the delete's equality columns equal a delete row's (nulls equal);
// deletion vectors (Puffin blobs) remove positions like position deletes.
//
// Thread safety: used by one thread at a time.

#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/iceberg/name_mapping.h"
#include "floe/iceberg/scan/column_projection.h"
#include "floe/iceberg/scan/table_scan.h"

namespace floe::iceberg {

class ScanFileReader {
 public:
  // Opens the task's data file and reads its delete files. `report`
  // (not owned, may be shared by several readers used one after another)
  // receives the counts. `split_length` >= 0 reads only the row groups that
  // start in [split_start, split_start + split_length) (a split of
  // split_planner.h); -1 reads the whole file. Delete files are read
  // through `delete_io` (null: `io`), so a caller can count them apart.
  // Errors of FileIO and Parquet; Corrupt for a delete file without the
  // spec's columns.
  static Result<std::unique_ptr<ScanFileReader>> Open(std::shared_ptr<FileIO> io, const TableMetadata& metadata,
                                                      const Schema& scan_schema,
                                                      const std::vector<int32_t>& output_field_ids,
                                                      std::shared_ptr<const floe::Schema> output_schema,
                                                      const ExpressionPtr& filter, const FileScanTask& task,
                                                      int64_t batch_rows, ScanReport* report,
                                                      int64_t split_start = 0, int64_t split_length = -1,
                                                      std::shared_ptr<FileIO> delete_io = nullptr);
  ~ScanFileReader();

  // The next batch of surviving rows (possibly empty), or nullopt at the end.
  Result<std::optional<RecordBatch>> Next();

  // Records the data-file positions of the rows each Next() returns (for
  // writers of position deletes). Exact only when nothing is pruned: open
  // with an always-true filter. Call before the first Next().
  void TrackPositions() { track_positions_ = true; }
  // The positions of the last batch's rows, in order.
  const std::vector<int64_t>& positions() const { return positions_; }

 private:
  ScanFileReader() = default;
  Result<RecordBatch> Conform(const RecordBatch& file_batch) const;
  Result<std::vector<uint8_t>> EqualityDeleted(const RecordBatch& rows) const;

  std::string path_;
  std::shared_ptr<const Schema> read_schema_;  // the table fields read (output + filter + equality columns)
  std::shared_ptr<const floe::Schema> read_columnar_;
  std::vector<int> output_columns_;            // output field i = read column output_columns_[i]
  std::shared_ptr<const floe::Schema> output_schema_;
  std::map<int32_t, std::string> name_of_id_;  // files without ids: the names they use
  bool file_has_ids_ = true;
  std::optional<NameMapping> mapping_;  // the table's, read for files without ids
  std::unique_ptr<ColumnProjection> projection_;
  ExpressionPtr residual_;
  std::unique_ptr<parquet::ParquetRecordBatchReader> reader_;
  std::set<int64_t> deleted_positions_;
  // The row groups read, as (first row position in the file, rows), in read
  // order; with position deletes every row of each is returned (no
  // pruning), and no batch spans two, so a batch's position is exact.
  std::vector<std::pair<int64_t, int64_t>> group_rows_;
  size_t group_ = 0;
  int64_t rows_into_group_ = 0;
  bool track_positions_ = false;
  std::vector<int64_t> positions_;
  // Equality deletes: the delete keys of each equality-id set.
  std::vector<std::pair<std::vector<int32_t>, std::set<std::string>>> equality_deletes_;
  ScanReport* report_ = nullptr;
  bool finished_ = false;
};

}  // namespace floe::iceberg
