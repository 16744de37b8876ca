#include "floe/iceberg/scan/table_scan.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "floe/base/strings.h"
#include "floe/base/thread_pool.h"
#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/manifest_evaluator.h"
#include "floe/iceberg/expression/metrics_evaluator.h"
#include "floe/iceberg/expression/residual.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/scan/scan_file_reader.h"
#include "floe/iceberg/scan/split_planner.h"
#include "floe/iceberg/snapshot_manifests.h"
#include "floe/iceberg/update/merging_snapshot_producer.h"
#include "floe/io/tracing_file_io.h"

namespace floe::iceberg {
namespace {

// A live delete file with its data sequence number.
struct IndexedDelete {
  std::shared_ptr<const DataFile> file;
  int64_t sequence_number = 0;
  bool global = false;  // an equality delete of an unpartitioned spec applies to every partition
};

// Delete files by partition, for attaching them to data files.
class DeleteIndex {
 public:
  void Add(IndexedDelete entry) {
    if (entry.global) {
      global_.push_back(std::move(entry));
    } else {
      const std::string key = PartitionKey(entry.file->spec_id, entry.file->partition);
      by_partition_[key].push_back(std::move(entry));
    }
  }
  bool empty() const { return global_.empty() && by_partition_.empty(); }

  void Attach(FileScanTask* task) const {
    auto consider = [&](const IndexedDelete& d) {
      if (d.file->content == DataFileContent::kPositionDeletes) {
        // spec: a position delete applies to data files with a data
        // sequence number <= its own (same commit included).
        if (d.sequence_number < task->data_sequence_number) return;
        if (d.file->referenced_data_file.has_value() && *d.file->referenced_data_file != task->file.file_path()) {
          return;
        }
        task->position_deletes.push_back(d.file);
      } else {
        // spec: "Equality deletes apply to data files with a strictly lower
        // data sequence number".
        if (d.sequence_number <= task->data_sequence_number) return;
        task->equality_deletes.push_back(d.file);
      }
    };
    for (const auto& d : global_) consider(d);
    auto it = by_partition_.find(PartitionKey(task->file.spec_id(), task->file.partition()));
    if (it != by_partition_.end()) {
      for (const auto& d : it->second) consider(d);
    }
  }

 private:
  std::vector<IndexedDelete> global_;
  std::map<std::string, std::vector<IndexedDelete>> by_partition_;
};

}  // namespace

std::string ScanReport::ToString() const {
  return StrCat("snapshot ", snapshot_id ? StrCat(*snapshot_id) : std::string("none"), "\n",
                "manifests: ", manifests_total, " total, ", manifests_skipped, " skipped\n",
                "data files: ", data_files_total, " total, ", data_files_skipped, " skipped\n",
                "delete files applied: ", delete_files_applied, "\n",
                "row groups: ", row_groups_total, " total, ", row_groups_skipped, " skipped\n",
                "pages: ", pages_total, " total, ", pages_skipped, " skipped\n",
                "rows: ", rows_scanned, " read, ", rows_deleted, " deleted, ", rows_returned, " returned\n",
                "requests: ", requests(), " (manifests ", manifest_io.requests, ", data files ",
                data_file_io.requests, ", delete files ", delete_file_io.requests, ")\n",
                "bytes read: ", bytes_read(), " (manifests ", manifest_io.bytes_read, ", data files ",
                data_file_io.bytes_read, ", delete files ", delete_file_io.bytes_read, ")");
}

Result<const Snapshot*> ResolveSnapshot(const TableMetadata& metadata, const TableScanOptions& options) {
  const int chosen = (options.snapshot_id ? 1 : 0) + (options.as_of_timestamp_ms ? 1 : 0) + (options.ref ? 1 : 0);
  if (chosen > 1) return Status::InvalidArgument("choose one of snapshot id, timestamp or ref to time travel");
  if (options.snapshot_id) {
    const Snapshot* s = metadata.SnapshotById(*options.snapshot_id);
    if (s == nullptr) return Status::NotFound(StrCat("snapshot ", *options.snapshot_id, " does not exist"));
    return s;
  }
  if (options.ref) {
    if (metadata.refs.count(*options.ref) == 0) {
      return Status::NotFound(StrCat("branch or tag ", Quote(*options.ref), " does not exist"));
    }
    return metadata.SnapshotByRef(*options.ref);
  }
  if (options.as_of_timestamp_ms) {
    // spec: the snapshot log records which snapshot was current when.
    const Snapshot* found = nullptr;
    for (const auto& entry : metadata.snapshot_log) {
      if (entry.timestamp_ms <= *options.as_of_timestamp_ms) found = metadata.SnapshotById(entry.snapshot_id);
    }
    if (found == nullptr) {
      return Status::NotFound(StrCat("no snapshot was current at ", *options.as_of_timestamp_ms, " ms"));
    }
    return found;
  }
  return metadata.current_snapshot();
}

TableScan::~TableScan() = default;

TableScan::CountedIO TableScan::Counted(std::shared_ptr<FileIO> io) {
  auto trace = std::make_shared<IoTrace>(IoTrace::Keep::kTotals);
  return CountedIO{trace, std::make_shared<TracingFileIO>(std::move(io), trace)};
}

const ScanReport& TableScan::report() const {
  auto take = [](const CountedIO& counted, ScanIoCounts* counts) {
    const IoTotals totals = counted.trace->totals();
    *counts = ScanIoCounts{totals.requests, totals.bytes_read};
  };
  take(manifest_io_, &report_->manifest_io);
  take(data_file_io_, &report_->data_file_io);
  take(delete_file_io_, &report_->delete_file_io);
  return *report_;
}

Result<std::unique_ptr<TableScan>> TableScan::Make(std::shared_ptr<FileIO> io,
                                                   std::shared_ptr<const TableMetadata> metadata,
                                                   TableScanOptions options) {
  FLOE_ASSIGN_OR_RETURN(const Snapshot* snapshot, ResolveSnapshot(*metadata, options));
  // spec (Java): reading a snapshot by id or tag uses the schema it was
  // written with; the current snapshot and branches use the table's.
  const Schema* schema = metadata->current_schema();
  const bool by_snapshot = options.snapshot_id || options.as_of_timestamp_ms ||
                           (options.ref && metadata->refs.at(*options.ref).type == SnapshotRefType::kTag);
  if (by_snapshot && snapshot != nullptr && snapshot->schema_id) {
    if (const Schema* s = metadata->SchemaById(*snapshot->schema_id)) schema = s;
  }
  if (schema == nullptr) return Status::Corrupt("table metadata has no current schema");
  return MakeAt(std::move(io), std::move(metadata), snapshot, *schema, std::move(options));
}

Result<std::unique_ptr<TableScan>> TableScan::MakeAt(std::shared_ptr<FileIO> io,
                                                     std::shared_ptr<const TableMetadata> metadata,
                                                     const Snapshot* snapshot, const Schema& schema,
                                                     TableScanOptions options) {
  std::unique_ptr<TableScan> scan(new TableScan());
  scan->manifest_io_ = Counted(io);
  scan->data_file_io_ = Counted(io);
  scan->delete_file_io_ = Counted(std::move(io));
  scan->metadata_ = std::move(metadata);
  scan->report_ = std::make_shared<ScanReport>();
  scan->snapshot_ = snapshot;
  scan->schema_ = std::make_shared<const Schema>(schema);
  if (scan->snapshot_ != nullptr) scan->report_->snapshot_id = scan->snapshot_->snapshot_id;

  std::vector<NestedField> output_fields;
  if (options.select.has_value()) {
    for (const auto& name : *options.select) {
      const NestedField* field = nullptr;
      for (const auto& f : schema.fields()) {
        if (options.case_sensitive ? f.name == name : EqualsIgnoreCase(f.name, name)) field = &f;
      }
      if (field == nullptr) return Status::InvalidArgument(StrCat("cannot find column ", Quote(name), " in schema"));
      output_fields.push_back(*field);
    }
  } else {
    output_fields = schema.fields();
  }
  for (const auto& f : output_fields) scan->output_field_ids_.push_back(f.field_id);
  FLOE_ASSIGN_OR_RETURN(auto projected, Schema::Make(schema.schema_id(), output_fields));
  FLOE_ASSIGN_OR_RETURN(auto columnar, ToColumnarSchema(projected));
  scan->output_schema_ = std::make_shared<const floe::Schema>(std::move(columnar));
  if (options.filter != nullptr) {
    FLOE_ASSIGN_OR_RETURN(scan->bound_filter_, Bind(schema, options.filter, options.case_sensitive));
  } else {
    scan->bound_filter_ = AlwaysTrue();
  }
  scan->options_ = std::move(options);
  return scan;
}

Result<std::vector<FileScanTask>> TableScan::PlanFiles() {
  *report_ = ScanReport{report_->snapshot_id};
  for (const CountedIO* counted : {&manifest_io_, &data_file_io_, &delete_file_io_}) counted->trace->Clear();
  if (snapshot_ == nullptr) return std::vector<FileScanTask>();
  if (append_snapshots_.has_value()) {
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, AppendedDataManifests(*append_snapshots_));
    return PlanManifests(manifests);
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, SnapshotManifests(*manifest_io_.io, *snapshot_));
  return PlanManifests(manifests);
}

Result<std::vector<ManifestFile>> TableScan::AppendedDataManifests(const std::vector<const Snapshot*>& appends) {
  std::vector<ManifestFile> manifests;
  std::set<std::string> seen;
  for (const Snapshot* s : appends) {
    FLOE_ASSIGN_OR_RETURN(auto list, SnapshotManifests(*manifest_io_.io, *s));
    const bool inline_manifests = s->manifest_list.empty();
    for (auto& m : list) {
      // Java: the data manifests the snapshot wrote itself. A v1 snapshot's
      // inline manifests do not say who wrote them (they list the whole
      // table version): all are read once, and the entries' own snapshot
      // ids (required in v1) select what the range's appends added.
      if (m.content != ManifestContent::kData) continue;
      if (!inline_manifests && m.added_snapshot_id != s->snapshot_id) continue;
      if (!seen.insert(m.manifest_path).second) continue;
      manifests.push_back(std::move(m));
    }
  }
  return manifests;
}

Result<std::vector<FileScanTask>> TableScan::PlanManifests(const std::vector<ManifestFile>& manifests) {
  std::vector<FileScanTask> tasks;
  // Without a filter nothing is pruned, so column metrics are not decoded
  // (several times faster to list) and every residual is true.
  const bool filtered = bound_filter_->op() != Operation::kTrue;
  const bool incremental = append_snapshots_.has_value();
  report_->manifests_total = static_cast<int64_t>(manifests.size());

  // Per spec: the manifest evaluator, the partition evaluator and residuals.
  struct SpecFilters {
    const PartitionSpec* spec = nullptr;
    std::optional<ManifestEvaluator> manifest;
    std::optional<PartitionEvaluator> partition;
    std::optional<ResidualEvaluator> residual;
    // The spec's partition type on the scan schema, as Java's scans read
    // partition tuples; null when the spec does not bind to it (a dropped
    // source column), and the reader takes the manifest's own.
    TypePtr partition_type;
  };
  std::map<int32_t, SpecFilters> filters;
  for (const auto& manifest : manifests) {
    if (filters.count(manifest.partition_spec_id) > 0) continue;
    const PartitionSpec* spec = metadata_->PartitionSpecById(manifest.partition_spec_id);
    if (spec == nullptr) {
      return Status::Corrupt(StrCat("manifest ", Quote(manifest.manifest_path), " has partition spec ",
                                    manifest.partition_spec_id, ", which the table does not have"));
    }
    SpecFilters f;
    f.spec = spec;
    FLOE_ASSIGN_OR_RETURN(auto m, ManifestEvaluator::Make(*spec, *schema_, bound_filter_));
    FLOE_ASSIGN_OR_RETURN(auto p, PartitionEvaluator::Make(*spec, *schema_, bound_filter_));
    FLOE_ASSIGN_OR_RETURN(auto r, ResidualEvaluator::Make(*spec, *schema_, bound_filter_));
    f.manifest.emplace(std::move(m));
    f.partition.emplace(std::move(p));
    f.residual.emplace(std::move(r));
    if (Result<TypePtr> type = spec->PartitionType(*schema_); type.ok()) f.partition_type = std::move(type).value();
    filters.emplace(manifest.partition_spec_id, std::move(f));
  }

  std::vector<const ManifestFile*> to_read;
  std::vector<uint8_t> read(manifests.size(), 0);
  for (size_t i = 0; i < manifests.size(); ++i) {
    const ManifestFile& manifest = manifests[i];
    if (incremental && manifest.content != ManifestContent::kData) continue;
    if (!filters.at(manifest.partition_spec_id).manifest->Eval(manifest)) {
      ++report_->manifests_skipped;
      continue;
    }
    read[i] = 1;
    to_read.push_back(&manifest);
  }

  const InclusiveMetricsEvaluator metrics(*schema_, bound_filter_);
  std::vector<std::vector<IndexedDelete>> deletes_by_manifest(to_read.size());
  std::vector<int64_t> live_by_manifest(to_read.size(), 0);
  std::vector<int64_t> skipped_by_manifest(to_read.size(), 0);
  // The manifest list's counts size the task list (capped: they are
  // untrusted, and a wrong count only costs a regrowth).
  auto expected_files = [&](size_t i) -> size_t {
    const ManifestFile& m = *to_read[i];
    if (m.content != ManifestContent::kData) return 0;
    const int64_t n = m.added_files_count.value_or(0) + m.existing_files_count.value_or(0);
    return static_cast<size_t>(std::clamp<int64_t>(n, 0, int64_t{1} << 20));
  };
  // Plans manifest i's tasks onto the end of `planned`.
  auto plan_manifest = [&](size_t i, std::vector<FileScanTask>* planned) -> Status {
    const ManifestFile& manifest = *to_read[i];
    const SpecFilters& f = filters.at(manifest.partition_spec_id);
    const bool deletes = manifest.content == ManifestContent::kDeletes;
    ManifestReaderOptions reader_options;
    // Delete files keep their metrics: equality deletes are matched by them.
    reader_options.read_stats = filtered || deletes || options_.include_column_stats;
    // The table's partition type saves parsing each manifest's schema; a
    // manifest it does not fit (written before a type promotion the
    // decoder cannot widen) is read with its own.
    reader_options.partition_type = f.partition_type;
    Result<std::unique_ptr<ManifestReader>> opened = ManifestReader::Open(*manifest_io_.io, manifest, reader_options);
    if (!opened.ok() && opened.status().IsCorrupt() && reader_options.partition_type != nullptr) {
      reader_options.partition_type = nullptr;
      opened = ManifestReader::Open(*manifest_io_.io, manifest, reader_options);
    }
    FLOE_ASSIGN_OR_RETURN(auto reader, std::move(opened));
    // The manifest's data files, in one block its tasks share.
    std::shared_ptr<PlannedFileBlock> block;
    if (!deletes) block = std::make_shared<PlannedFileBlock>(expected_files(i), options_.include_column_stats);
    ManifestEntry entry;
    while (true) {
      FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(&entry));
      if (!more) break;
      if (!entry.is_live()) continue;
      const int64_t sequence_number = entry.sequence_number.value_or(0);
      if (deletes) {
        if (!f.partition->MightMatch(entry.data_file.partition)) continue;
        const bool global =
            entry.data_file.content == DataFileContent::kEqualityDeletes && f.spec->is_unpartitioned();
        deletes_by_manifest[i].push_back(
            {std::make_shared<const DataFile>(std::move(entry.data_file)), sequence_number, global});
        continue;
      }
      if (incremental && (entry.status != ManifestEntryStatus::kAdded || !entry.snapshot_id.has_value() ||
                          append_snapshot_ids_.count(*entry.snapshot_id) == 0)) {
        continue;
      }
      ++live_by_manifest[i];
      if (filtered && (!f.partition->MightMatch(entry.data_file.partition) || !metrics.Eval(entry.data_file))) {
        ++skipped_by_manifest[i];
        continue;
      }
      // Built in place; the entry stays the reader's, so decoding the next
      // one reuses its strings (no allocation per file).
      FileScanTask& task = planned->emplace_back();
      task.residual = filtered ? f.residual->ResidualFor(entry.data_file.partition) : bound_filter_;
      task.data_sequence_number = sequence_number;
      FLOE_RETURN_IF_ERROR(PlannedDataFile::Append(block, entry.data_file, &task.file));
    }
    return Status::OK();
  };
  size_t expected = 0;
  for (size_t i = 0; i < to_read.size(); ++i) expected += expected_files(i);
  tasks.reserve(std::min<size_t>(expected, size_t{1} << 24));
  if (options_.threads <= 1 || to_read.size() <= 1) {
    // One thread: straight into the plan, no per-manifest lists to join.
    for (size_t i = 0; i < to_read.size(); ++i) FLOE_RETURN_IF_ERROR(plan_manifest(i, &tasks));
  } else {
    std::vector<std::vector<FileScanTask>> data_by_manifest(to_read.size());
    ParallelForOptions parallel;
    parallel.max_parallelism = options_.threads;
    FLOE_RETURN_IF_ERROR(ParallelFor(static_cast<int64_t>(to_read.size()), [&](int64_t index) -> Status {
      const size_t i = static_cast<size_t>(index);
      data_by_manifest[i].reserve(expected_files(i));
      return plan_manifest(i, &data_by_manifest[i]);
    }, parallel));
    for (auto& list : data_by_manifest) {
      std::move(list.begin(), list.end(), std::back_inserter(tasks));
      std::vector<FileScanTask>().swap(list);  // freed as we go: the tasks are the plan's biggest part
    }
  }

  DeleteIndex deletes;
  for (auto& list : deletes_by_manifest) {
    for (auto& d : list) deletes.Add(std::move(d));
  }
  for (size_t i = 0; i < to_read.size(); ++i) {
    report_->data_files_total += live_by_manifest[i];
    report_->data_files_skipped += skipped_by_manifest[i];
  }
  if (!deletes.empty()) {
    for (auto& task : tasks) {
      deletes.Attach(&task);
      report_->delete_files_applied +=
          static_cast<int64_t>(task.position_deletes.size() + task.equality_deletes.size());
    }
  }
  // Data files of skipped manifests still count towards the total.
  if (!incremental) {
    for (size_t i = 0; i < manifests.size(); ++i) {
      const ManifestFile& manifest = manifests[i];
      if (manifest.content != ManifestContent::kData || read[i]) continue;
      const int64_t live = manifest.added_files_count.value_or(0) + manifest.existing_files_count.value_or(0);
      report_->data_files_total += live;
      report_->data_files_skipped += live;
    }
  }
  return tasks;
}

Result<std::vector<CombinedScanTask>> TableScan::PlanTasks() {
  FLOE_ASSIGN_OR_RETURN(SplitPlanningOptions split, SplitPlanningOptions::FromProperties(metadata_->properties));
  if (options_.split_target_size) split.target_size = std::max<int64_t>(*options_.split_target_size, 1);
  if (options_.split_open_file_cost) split.open_file_cost = std::max<int64_t>(*options_.split_open_file_cost, 0);
  FLOE_ASSIGN_OR_RETURN(auto files, PlanFiles());
  return iceberg::PlanTasks(std::move(files), split);
}

class TableScan::Reader final : public RecordBatchReader {
 public:
  Reader(TableScan* scan, std::vector<CombinedScanTask> tasks) : scan_(scan), tasks_(std::move(tasks)) {}
  const std::shared_ptr<const floe::Schema>& schema() const override { return scan_->output_schema_; }

  Result<std::optional<RecordBatch>> Next() override {
    while (true) {
      if (current_ == nullptr) {
        const FileScanTask* task = nullptr;
        int64_t start = 0, length = 0;
        if (!NextRange(&task, &start, &length)) return std::optional<RecordBatch>();
        FLOE_ASSIGN_OR_RETURN(current_, ScanFileReader::Open(scan_->data_file_io_.io, *scan_->metadata_,
                                                             *scan_->schema_, scan_->output_field_ids_,
                                                             scan_->output_schema_, scan_->bound_filter_, *task,
                                                             scan_->options_.batch_rows, scan_->report_.get(), start,
                                                             length, scan_->delete_file_io_.io));
      }
      FLOE_ASSIGN_OR_RETURN(auto batch, current_->Next());
      if (!batch.has_value()) {
        current_.reset();
        continue;
      }
      if (batch->num_rows() == 0) continue;
      scan_->report_->rows_returned += batch->num_rows();
      return batch;
    }
  }

 private:
  // The next split, joined with the splits after it in its combined task
  // that continue it in the same file: one reader reads them all.
  bool NextRange(const FileScanTask** task, int64_t* start, int64_t* length) {
    while (next_task_ < tasks_.size()) {
      const std::vector<FileScanSplit>& splits = tasks_[next_task_].splits;
      if (next_split_ >= splits.size()) {
        ++next_task_;
        next_split_ = 0;
        continue;
      }
      const FileScanSplit& first = splits[next_split_++];
      int64_t end = first.start + first.length;
      while (next_split_ < splits.size() && splits[next_split_].task == first.task &&
             splits[next_split_].start == end) {
        end += splits[next_split_++].length;
      }
      *task = first.task.get();
      *start = first.start;
      *length = end - first.start;
      // The file's last split reads every row group after its start, and a
      // whole file reads all of them, whatever file_size_in_bytes says.
      if (end >= first.task->file.file_size_in_bytes()) *length = first.start == 0 ? -1 : INT64_MAX - first.start;
      return true;
    }
    return false;
  }

  TableScan* scan_;
  std::vector<CombinedScanTask> tasks_;
  size_t next_task_ = 0;
  size_t next_split_ = 0;
  std::unique_ptr<ScanFileReader> current_;
};

Result<std::unique_ptr<RecordBatchReader>> TableScan::Open() {
  FLOE_ASSIGN_OR_RETURN(auto tasks, PlanTasks());
  return std::unique_ptr<RecordBatchReader>(new Reader(this, std::move(tasks)));
}

}  // namespace floe::iceberg
