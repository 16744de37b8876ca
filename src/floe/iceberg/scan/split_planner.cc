#include "floe/iceberg/scan/split_planner.h"

#include <algorithm>
#include <list>

#include "floe/base/strings.h"
#include "floe/iceberg/table_properties.h"

namespace floe::iceberg {
namespace {

Status CheckPositive(std::string_view key, int64_t value) {
  if (value > 0) return Status::OK();
  return Status::InvalidArgument(StrCat("table property ", Quote(key), " is ", value, ", not a positive integer"));
}

// One open bin of the packing.
struct Bin {
  std::vector<FileScanSplit> splits;
  int64_t weight = 0;
};

}  // namespace

Result<SplitPlanningOptions> SplitPlanningOptions::FromProperties(
    const std::map<std::string, std::string>& properties) {
  SplitPlanningOptions o;
  FLOE_ASSIGN_OR_RETURN(o.target_size, LongProperty(properties, kSplitSize, kSplitSizeDefault));
  FLOE_RETURN_IF_ERROR(CheckPositive(kSplitSize, o.target_size));
  FLOE_ASSIGN_OR_RETURN(o.open_file_cost, LongProperty(properties, kSplitOpenFileCost, kSplitOpenFileCostDefault));
  FLOE_RETURN_IF_ERROR(CheckPositive(kSplitOpenFileCost, o.open_file_cost));
  FLOE_ASSIGN_OR_RETURN(o.lookback, IntProperty(properties, kSplitLookback, kSplitLookbackDefault));
  FLOE_RETURN_IF_ERROR(CheckPositive(kSplitLookback, o.lookback));
  return o;
}

std::vector<int64_t> UsableSplitOffsets(std::span<const int64_t> offsets, int64_t file_size_in_bytes) {
  if (offsets.empty() || offsets.front() < 0 || offsets.back() >= file_size_in_bytes) return {};
  for (size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] <= offsets[i - 1]) return {};
  }
  return std::vector<int64_t>(offsets.begin(), offsets.end());
}

std::vector<FileScanSplit> SplitFile(const std::shared_ptr<const FileScanTask>& task, int64_t target_size) {
  const PlannedDataFile& file = task->file;
  const int64_t size = file.file_size_in_bytes();
  std::vector<FileScanSplit> splits;
  if (file.file_format() != kFileFormatParquet || size <= 0) {
    splits.push_back({task, 0, std::max<int64_t>(size, 1)});
    return splits;
  }
  const std::vector<int64_t> offsets = UsableSplitOffsets(file.split_offsets(), size);
  if (!offsets.empty()) {
    // Java's OffsetsAwareSplitScanTaskIterator: one split per row group;
    // the packing puts neighbours back together.
    // Unlike Java the first split starts at byte 0, so the splits cover the
    // whole file and every row group is read once, whatever start offset
    // its writer recorded.
    splits.reserve(offsets.size());
    for (size_t i = 0; i < offsets.size(); ++i) {
      const int64_t begin = i == 0 ? 0 : offsets[i];
      const int64_t end = i + 1 < offsets.size() ? offsets[i + 1] : size;
      splits.push_back({task, begin, end - begin});
    }
    return splits;
  }
  // Java's FixedSizeSplitScanTaskIterator.
  for (int64_t start = 0; start < size; start += target_size) {
    splits.push_back({task, start, std::min(target_size, size - start)});
  }
  return splits;
}

int64_t SplitWeight(const FileScanSplit& split, int64_t open_file_cost) {
  int64_t bytes = split.length;
  int64_t files = 1;
  for (const auto* deletes : {&split.task->position_deletes, &split.task->equality_deletes}) {
    for (const auto& d : *deletes) {
      bytes += d->is_deletion_vector() ? d->content_size_in_bytes.value_or(d->file_size_in_bytes) : d->file_size_in_bytes;
      ++files;
    }
  }
  return std::max(bytes, files * open_file_cost);
}

std::vector<CombinedScanTask> PackSplits(std::vector<FileScanSplit> splits, const SplitPlanningOptions& options) {
  // Java's BinPacking.PackingIterable with largestBinFirst: each split goes
  // into the first open bin it fits; when none fits a new bin opens, and
  // past `lookback` open bins the heaviest one is emitted.
  std::vector<CombinedScanTask> out;
  std::list<Bin> bins;
  auto emit = [&](std::list<Bin>::iterator it) {
    out.push_back({std::move(it->splits), it->weight});
    bins.erase(it);
  };
  const size_t lookback = static_cast<size_t>(std::max(options.lookback, 1));
  for (FileScanSplit& split : splits) {
    const int64_t weight = SplitWeight(split, options.open_file_cost);
    auto fit = std::find_if(bins.begin(), bins.end(),
                            [&](const Bin& b) { return b.weight + weight <= options.target_size; });
    if (fit != bins.end()) {
      fit->splits.push_back(std::move(split));
      fit->weight += weight;
      continue;
    }
    bins.emplace_back();
    bins.back().splits.push_back(std::move(split));
    bins.back().weight = weight;
    if (bins.size() > lookback) {
      emit(std::max_element(bins.begin(), bins.end(), [](const Bin& a, const Bin& b) { return a.weight < b.weight; }));
    }
  }
  while (!bins.empty()) emit(bins.begin());
  return out;
}

std::vector<CombinedScanTask> PlanTasks(std::vector<FileScanTask> tasks, const SplitPlanningOptions& options) {
  std::vector<FileScanSplit> splits;
  splits.reserve(tasks.size());
  for (FileScanTask& task : tasks) {
    auto shared = std::make_shared<const FileScanTask>(std::move(task));
    for (FileScanSplit& s : SplitFile(shared, options.target_size)) splits.push_back(std::move(s));
  }
  return PackSplits(std::move(splits), options);
}

}  // namespace floe::iceberg
