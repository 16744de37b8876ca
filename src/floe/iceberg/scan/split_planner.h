// Split planning: data files cut into byte ranges and packed into combined
// scan tasks of about `read.split.target-size` bytes, as Java's
// TableScanUtil.planTasks does (splitFiles, then bin packing with
// `read.split.planning-lookback` open bins, each split weighing at least
// `read.split.open-file-cost` per file it opens).
//
// A Parquet data file with usable split offsets (its row groups' starts,
// ascending, inside the file) is cut at every offset (the first split
// starting at byte 0); one without them in fixed pieces of the target size. A reader of a split reads the row groups
// whose start lies inside the split's range, so every row group is read by
// exactly one split. Other formats are not split. Every split of a file
// carries the file's delete files (they share its FileScanTask).
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/scan/table_scan.h"
#include "floe/iceberg/table_properties.h"

namespace floe::iceberg {

struct SplitPlanningOptions {
  int64_t target_size = kSplitSizeDefault;
  int64_t open_file_cost = kSplitOpenFileCostDefault;
  int32_t lookback = kSplitLookbackDefault;

  // The table's read.split.* properties with Java's defaults.
  // InvalidArgument naming the property for a value that is not a positive integer.
  static Result<SplitPlanningOptions> FromProperties(const std::map<std::string, std::string>& properties);
};

// The split offsets of a file Java would use: non-empty, strictly
// ascending, non-negative and below `file_size_in_bytes`; else empty.
std::vector<int64_t> UsableSplitOffsets(std::span<const int64_t> offsets, int64_t file_size_in_bytes);

// `task`'s file as byte ranges covering it (one range when it is not a
// splittable Parquet file or is no bigger than one piece).
std::vector<FileScanSplit> SplitFile(const std::shared_ptr<const FileScanTask>& task, int64_t target_size);

// A split's planning weight: its bytes plus its delete files' bytes, and at
// least the open-file cost for the data file and each delete file.
int64_t SplitWeight(const FileScanSplit& split, int64_t open_file_cost);

// Packs splits, in order, into combined tasks of at most `target_size`
// weight (a split heavier than that gets a task of its own).
std::vector<CombinedScanTask> PackSplits(std::vector<FileScanSplit> splits, const SplitPlanningOptions& options);

// SplitFile on every task, then PackSplits.
std::vector<CombinedScanTask> PlanTasks(std::vector<FileScanTask> tasks, const SplitPlanningOptions& options);

// Whether a row group that starts at byte `row_group_start` belongs to
// `split` (its start lies in [start, start + length)).
inline bool SplitContains(const FileScanSplit& split, int64_t row_group_start) {
  return row_group_start >= split.start && row_group_start - split.start < split.length;
}

}  // namespace floe::iceberg
