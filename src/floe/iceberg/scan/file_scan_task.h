// Scan tasks: the data files a plan lists (FileScanTask), the byte ranges
// they are read in (FileScanSplit) and splits packed for one reader
// (CombinedScanTask). Planning is table_scan.h; splitting, split_planner.h.
//
// A plan of a big table holds millions of tasks, so a task is small (about
// 150 bytes) and planning allocates per manifest, not per file: a task's
// file is a PlannedDataFile, a view into a PlannedFileBlock that holds the
// files planned from one manifest (paths back to back in one string,
// consecutive equal partition tuples once, split offsets in one array).
// Every view shares ownership of its block, so a task stays valid on its
// own, after its scan is gone and in any copy; copying one copies no string.
// A plan keeps of a data file what reading it and planning on it need; the
// whole DataFile (column metrics, key metadata, ...) only when the scan asks
// for it (TableScanOptions::include_column_stats, Java's
// includeColumnStats), as data_file(). Delete files are shared by every
// task they apply to.
//
// Thread safety: a block is immutable once its tasks are planned, so views
// and tasks may be read from several threads at once.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/status.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/manifest_entry.h"

namespace floe::iceberg {

// Storage for the data files of tasks (see above). Planning appends to a
// block before sharing it; afterwards it is read only through its views.
class PlannedFileBlock {
 public:
  // `expected_files` sizes the path storage (0: unknown; a wrong guess
  // only costs a regrowth). `keep_data_files`: Append also keeps the whole
  // DataFile (data_file() of the views).
  PlannedFileBlock(size_t expected_files, bool keep_data_files);

  size_t size() const { return files_; }

 private:
  friend class PlannedDataFile;
  size_t expected_files_ = 0;
  bool keep_data_files_ = false;
  size_t files_ = 0;
  std::string paths_;
  std::vector<std::string> formats_;
  std::vector<PartitionValues> partitions_;
  std::vector<int64_t> split_offsets_;
  std::vector<DataFile> data_files_;
};

// One data file of a plan, as a view into its block (see above). A
// default-constructed view is empty (no block): planning never returns one.
class PlannedDataFile {
 public:
  PlannedDataFile() = default;

  // Appends `file` to `block` and makes `*out` its view. Only planning
  // calls it, before the block is shared with other threads. Corrupt for a
  // file whose path or split offsets do not fit the view's 32-bit sizes.
  static Status Append(const std::shared_ptr<PlannedFileBlock>& block, const DataFile& file, PlannedDataFile* out);
  // A view of `file` in a block of its own, the whole DataFile kept (for
  // tasks built outside planning); empty past Append's limits.
  static PlannedDataFile Of(DataFile file);

  bool empty() const { return block_ == nullptr; }
  std::string_view file_path() const { return {block_->paths_.data() + path_begin_, path_size_}; }
  // The file_format as written ("PARQUET", ...; manifest_entry.h).
  std::string_view file_format() const { return block_->formats_[format_]; }
  int32_t spec_id() const { return spec_id_; }
  const PartitionValues& partition() const { return block_->partitions_[partition_]; }
  int64_t record_count() const { return record_count_; }
  int64_t file_size_in_bytes() const { return file_size_in_bytes_; }
  std::span<const int64_t> split_offsets() const {
    return {block_->split_offsets_.data() + offsets_begin_, offsets_size_};
  }
  // The v3 first row id (inherited when the manifest assigns them).
  std::optional<int64_t> first_row_id() const {
    return has_first_row_id_ ? std::optional<int64_t>(first_row_id_) : std::nullopt;
  }
  // The whole DataFile, with the column metrics the manifest reader read;
  // null unless the plan kept it (include_column_stats) or the view was
  // made by Of().
  const DataFile* data_file() const { return data_file_ < 0 ? nullptr : &block_->data_files_[data_file_]; }
  // The members kept, as a DataFile (the whole one when data_file() is set).
  DataFile ToDataFile() const;

 private:
  std::shared_ptr<const PlannedFileBlock> block_;
  size_t path_begin_ = 0;
  size_t offsets_begin_ = 0;
  int64_t record_count_ = 0;
  int64_t file_size_in_bytes_ = 0;
  int64_t first_row_id_ = 0;
  uint32_t path_size_ = 0;
  uint32_t offsets_size_ = 0;
  uint32_t partition_ = 0;
  int32_t data_file_ = -1;
  int32_t spec_id_ = 0;
  uint16_t format_ = 0;
  bool has_first_row_id_ = false;
};

// One data file to read with the deletes that apply to it.
struct FileScanTask {
  PlannedDataFile file;
  int64_t data_sequence_number = 0;
  // Shared with every task of the plan they apply to (never null).
  std::vector<std::shared_ptr<const DataFile>> position_deletes;
  std::vector<std::shared_ptr<const DataFile>> equality_deletes;
  ExpressionPtr residual;  // bound to the scan schema; true when the partition decides
};

// A byte range of one planned file (Java's split FileScanTask). The splits
// of a file share its task; a reader of a split reads the file's row groups
// whose first byte lies in [start, start + length).
struct FileScanSplit {
  std::shared_ptr<const FileScanTask> task;
  int64_t start = 0;
  int64_t length = 0;
};

// Splits read one after another by one reader, about the split target size
// together (Java's CombinedScanTask).
struct CombinedScanTask {
  std::vector<FileScanSplit> splits;
  int64_t weight = 0;  // the splits' planning weights (split_planner.h)
};

}  // namespace floe::iceberg
