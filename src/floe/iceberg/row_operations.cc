#include "floe/iceberg/row_operations.h"

#include <cstdio>
#include <map>
#include <set>

#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/columnar/take.h"
#include "floe/iceberg/data_file_writer.h"
#include "floe/iceberg/deletion_vector.h"
#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/evaluator.h"
#include "floe/iceberg/expression/metrics_evaluator.h"
#include "floe/iceberg/expression/residual.h"
#include "floe/iceberg/position_delete_file.h"
#include "floe/iceberg/scan/scan_file_reader.h"
#include "floe/iceberg/scan/table_scan.h"
#include "floe/iceberg/table_properties.h"
#include "floe/iceberg/transform_function.h"

namespace floe::iceberg {
namespace {

// A FileIO handle for APIs that hold one, borrowing the operations' FileIO
// (which outlives every call here).
std::shared_ptr<FileIO> Borrow(TableOperations& ops) { return std::shared_ptr<FileIO>(std::shared_ptr<FileIO>(), &ops.io()); }

std::vector<std::string> PathsOf(const std::vector<DataFile>& files) {
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.file_path);
  return paths;
}

Result<std::vector<DataFile>> WriteRows(TableOperations& ops, const TableMetadata& metadata, const BatchSource& rows,
                                        int64_t* rows_written) {
  FLOE_ASSIGN_OR_RETURN(auto options, DataWriterOptions::FromTable(metadata));
  FLOE_ASSIGN_OR_RETURN(auto writer, DataFileWriter::Make(Borrow(ops), metadata, std::move(options)));
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, rows());
    if (!batch.has_value()) break;
    FLOE_RETURN_IF_ERROR(writer->Write(*batch));
  }
  *rows_written = writer->rows_written();
  return writer->Close();
}

// All rows of one planned file, its deletes applied, in the scan schema;
// with `positions` each batch's data-file positions too.
Status ReadTaskRows(TableOperations& ops, const TableMetadata& metadata, const TableScan& scan,
                    const FileScanTask& task,
                    const std::function<Status(const RecordBatch&, const std::vector<int64_t>&)>& consume,
                    bool positions = false) {
  std::vector<int32_t> ids;
  for (const auto& f : scan.scan_schema().fields()) ids.push_back(f.field_id);
  FileScanTask all_rows = task;
  all_rows.residual = AlwaysTrue();
  ScanReport report;
  FLOE_ASSIGN_OR_RETURN(auto reader, ScanFileReader::Open(Borrow(ops), metadata, scan.scan_schema(), ids,
                                                          scan.output_schema(), AlwaysTrue(), all_rows, 64 * 1024,
                                                          &report));
  if (positions) reader->TrackPositions();
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch.has_value()) return Status::OK();
    if (batch->num_rows() > 0) FLOE_RETURN_IF_ERROR(consume(*batch, reader->positions()));
  }
}

// Which rows of `batch` (scan-schema columns) the bound filter selects.
Result<std::vector<uint8_t>> Matches(const TableScan& scan, const ExpressionPtr& bound, const RecordBatch& batch) {
  const auto& fields = scan.scan_schema().fields();
  return EvaluateBatch(*bound, batch, [&](int32_t id) {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].field_id == id) return static_cast<int>(i);
    }
    return -1;
  });
}

Result<std::string> WriteMode(const TableMetadata& metadata, bool update) {
  const std::string key = update ? "write.update.mode" : "write.delete.mode";
  auto it = metadata.properties.find(key);
  const std::string mode = it == metadata.properties.end() ? std::string(kCopyOnWrite) : ToLowerAscii(Trim(it->second));
  if (mode != kCopyOnWrite && mode != kMergeOnRead) {
    return Status::InvalidArgument(StrCat("table property ", Quote(key), " is ", Quote(mode), ", expected ",
                                          Quote(kCopyOnWrite), " or ", Quote(kMergeOnRead)));
  }
  if (mode == kMergeOnRead && metadata.format_version < 2) {
    return Status::InvalidArgument(StrCat("table property ", Quote(key),
                                          " is merge-on-read, which needs format version 2 or later (the table is 1)"));
  }
  return mode;
}

// Whether a delete (`write.delete.isolation-level`) or an overwrite
// (`write.update.isolation-level`) runs under serializable isolation (the
// default) rather than snapshot isolation, as Java's TableProperties name
// the levels. Snapshot isolation still fails on concurrent changes to
// what the operation read (removed or rewritten files, new deletes in its
// filter), but lets rows appended concurrently under its filter stand —
// Spark's commitWithSnapshotIsolation, which drops validateNoConflictingData.
Result<bool> Serializable(const TableMetadata& metadata, bool update) {
  const std::string key = update ? "write.update.isolation-level" : "write.delete.isolation-level";
  auto it = metadata.properties.find(key);
  if (it == metadata.properties.end()) return true;
  const std::string level = ToLowerAscii(Trim(it->second));
  if (level == "serializable") return true;
  if (level == "snapshot") return false;
  return Status::InvalidArgument(StrCat("table property ", Quote(key), " is ", Quote(it->second),
                                        ", expected ", Quote("serializable"), " or ", Quote("snapshot")));
}

std::string DeleteFileLocation(const TableMetadata& metadata, const DataWriterOptions& options,
                               const PlannedDataFile& file, const std::string& name) {
  const PartitionSpec* spec = metadata.PartitionSpecById(file.spec_id());
  const std::string partition = spec != nullptr ? PartitionPath(*spec, file.partition()) : std::string();
  return JoinLocation(partition.empty() ? options.data_location : JoinLocation(options.data_location, partition),
                      name);
}

// Merge-on-read: the matching rows of files the filter only partly covers
// become position deletes (v2) or deletion vectors (v3).
Status MarkDeleted(TableOperations& ops, const TableMetadata& metadata,
                   const std::vector<std::pair<const FileScanTask*, std::vector<int64_t>>>& marked,
                   MergingSnapshotProducer& producer, PreparedWrite* prepared) {
  if (marked.empty()) return Status::OK();
  FLOE_ASSIGN_OR_RETURN(auto options, DataWriterOptions::FromTable(metadata));
  const std::string write_uuid = RandomUuid();
  std::vector<std::string> referenced;
  if (metadata.format_version < 3) {
    int n = 0;
    for (const auto& [task, positions] : marked) {
      char name[96];
      std::snprintf(name, sizeof name, "%05d-0-%s-00001-deletes.parquet", n++, write_uuid.c_str());
      const std::string path = DeleteFileLocation(metadata, options, task->file, name);
      prepared->written.push_back(path);
      FLOE_ASSIGN_OR_RETURN(DataFile deletes,
                            WritePositionDeleteFile(Borrow(ops), path, task->file.ToDataFile(), positions));
      producer.AddFile(std::move(deletes));
      referenced.emplace_back(task->file.file_path());
      ++prepared->result.delete_files_added;
    }
  } else {
    std::vector<DeletionVectorToWrite> dvs;
    for (const auto& [task, positions] : marked) {
      DeletionVectorToWrite dv;
      dv.referenced_data_file = std::string(task->file.file_path());
      dv.spec_id = task->file.spec_id();
      dv.partition = task->file.partition();
      for (const int64_t pos : positions) FLOE_RETURN_IF_ERROR(dv.positions.Add(pos));
      // spec: one DV per data file — the file's earlier deletes merge into
      // the new DV, and the old DV (and file-scoped delete files) go.
      for (const auto& delete_file : task->position_deletes) {
        const DataFile& d = *delete_file;
        if (d.is_deletion_vector()) {
          FLOE_ASSIGN_OR_RETURN(auto old, ReadDeletionVector(ops.io(), d));
          dv.positions.Merge(old);
          producer.DeleteDeleteFile(d);
          continue;
        }
        const std::string data_path(task->file.file_path());
        FLOE_ASSIGN_OR_RETURN(auto old, ReadPositionDeletes(Borrow(ops), d, data_path));
        dv.positions.Merge(old);
        if (d.referenced_data_file == data_path) producer.DeleteDeleteFile(d);
      }
      referenced.emplace_back(task->file.file_path());
      dvs.push_back(std::move(dv));
    }
    const std::string path = JoinLocation(options.data_location, StrCat("00000-0-", write_uuid, "-00001-deletes.puffin"));
    prepared->written.push_back(path);
    FLOE_ASSIGN_OR_RETURN(auto files, WriteDeletionVectorFile(ops.io(), path, dvs));
    for (auto& f : files) {
      producer.AddFile(std::move(f));
      ++prepared->result.delete_files_added;
    }
  }
  // Java's row delta checks: the data files the deletes reference are still
  // live, including against concurrent deletes (validateDeletedFiles).
  producer.ValidateDataFilesExist(std::move(referenced), true);
  return Status::OK();
}

}  // namespace

void DeleteFilesQuietly(FileIO& io, const std::vector<std::string>& paths) {
  if (!paths.empty()) (void)io.DeleteMany(paths);
}

Result<MergingSnapshotProducer::FilePredicate> ConflictPredicate(const Schema& schema, const ExpressionPtr& filter) {
  FLOE_ASSIGN_OR_RETURN(auto bound, Bind(schema, filter));
  auto specs = std::make_shared<std::map<int32_t, std::shared_ptr<PartitionEvaluator>>>();
  auto metrics = std::make_shared<InclusiveMetricsEvaluator>(schema, bound);
  auto table_schema = std::make_shared<const Schema>(schema);
  return MergingSnapshotProducer::FilePredicate(
      [specs, metrics, table_schema, bound](const DataFile& file, const PartitionSpec& spec) -> Result<bool> {
        auto it = specs->find(spec.spec_id);
        if (it == specs->end()) {
          FLOE_ASSIGN_OR_RETURN(auto evaluator, PartitionEvaluator::Make(spec, *table_schema, bound));
          it = specs->emplace(spec.spec_id, std::make_shared<PartitionEvaluator>(std::move(evaluator))).first;
        }
        if (!it->second->MightMatch(file.partition)) return false;
        // A delete file's metrics are not of the table's columns.
        return file.content != DataFileContent::kData || metrics->Eval(file);
      });
}

Result<PreparedWrite> PrepareAppend(std::shared_ptr<TableOperations> ops, const TableState& state,
                                    const BatchSource& rows, const std::map<std::string, std::string>& summary) {
  PreparedWrite prepared;
  FLOE_ASSIGN_OR_RETURN(auto files, WriteRows(*ops, *state.metadata, rows, &prepared.result.rows_written));
  prepared.written = PathsOf(files);
  auto producer = std::make_unique<MergingSnapshotProducer>(ops, std::string(kOperationAppend));
  producer->set_starting_state(state);
  producer->set_merge_manifests(BoolProperty(state.metadata->properties, "commit.manifest-merge.enabled", true));
  for (const auto& [k, v] : summary) producer->set_summary_property(k, v);
  for (const auto& f : files) producer->AddFile(f);
  prepared.result.data_files_added = static_cast<int64_t>(files.size());
  prepared.producer = std::move(producer);
  return prepared;
}

Result<PreparedWrite> PrepareAppendFiles(std::shared_ptr<TableOperations> ops, const TableState& state,
                                         std::vector<DataFile> files) {
  PreparedWrite prepared;
  auto producer = std::make_unique<MergingSnapshotProducer>(ops, std::string(kOperationAppend));
  producer->set_starting_state(state);
  prepared.result.data_files_added = static_cast<int64_t>(files.size());
  for (auto& f : files) {
    prepared.result.rows_written += f.record_count;
    producer->AddExistingFile(std::move(f));
  }
  prepared.producer = std::move(producer);
  return prepared;  // the files are the caller's: not deleted on failure
}

Result<PreparedWrite> PrepareOverwriteFiles(std::shared_ptr<TableOperations> ops, const TableState& state,
                                            OverwriteFilesRequest request) {
  if (request.delete_files.empty() && request.add_files.empty()) {
    return Status::InvalidArgument(StrCat("table ", ops->name(), ": an overwrite by files names no file"));
  }
  const Schema* schema = state.metadata->current_schema();
  if (schema == nullptr) return Status::Corrupt(StrCat("table ", ops->name(), " has no current schema"));
  PreparedWrite prepared;
  // Java's operation(): only adding is an append; only deleting a delete.
  const bool append_only = request.delete_files.empty();
  auto producer = std::make_unique<MergingSnapshotProducer>(
      ops, std::string(append_only ? kOperationAppend : kOperationOverwrite));
  producer->set_starting_state(state);
  if (request.validate_from_snapshot_id) producer->set_validate_from_snapshot(request.validate_from_snapshot_id);
  if (request.validate_no_conflicting_data) {
    MergingSnapshotProducer::FilePredicate conflicting = [](const DataFile&, const PartitionSpec&) -> Result<bool> {
      return true;
    };
    if (request.conflict_detection_filter != nullptr) {
      FLOE_ASSIGN_OR_RETURN(conflicting, ConflictPredicate(*schema, request.conflict_detection_filter));
    }
    producer->ValidateNoConflictingAppends(std::move(conflicting));
  }
  prepared.result.data_files_removed = static_cast<int64_t>(request.delete_files.size());
  for (auto& path : request.delete_files) producer->DeleteFile(std::move(path));
  prepared.result.data_files_added = static_cast<int64_t>(request.add_files.size());
  for (auto& f : request.add_files) {
    prepared.result.rows_written += f.record_count;
    producer->AddExistingFile(std::move(f));
  }
  prepared.producer = std::move(producer);
  return prepared;  // the added files are the caller's: not deleted on failure
}

Result<PreparedWrite> PrepareRewriteMatching(std::shared_ptr<TableOperations> ops, const TableState& state,
                                             const ExpressionPtr& filter, const BatchSource* rows) {
  const TableMetadata& metadata = *state.metadata;
  const Schema* schema = metadata.current_schema();
  if (schema == nullptr) return Status::Corrupt(StrCat("table ", ops->name(), " has no current schema"));
  FLOE_ASSIGN_OR_RETURN(std::string mode, WriteMode(metadata, rows != nullptr));
  const bool merge_on_read = mode == kMergeOnRead;
  FLOE_ASSIGN_OR_RETURN(const bool serializable, Serializable(metadata, rows != nullptr));
  FLOE_ASSIGN_OR_RETURN(auto bound, Bind(*schema, filter));
  TableScanOptions options;
  options.filter = filter;
  options.include_column_stats = true;  // for the strict metrics evaluation below
  FLOE_ASSIGN_OR_RETURN(auto scan, TableScan::Make(Borrow(*ops), state.metadata, options));
  FLOE_ASSIGN_OR_RETURN(auto tasks, scan->PlanFiles());

  PreparedWrite prepared;
  WriteResult& result = prepared.result;
  auto producer = std::make_unique<MergingSnapshotProducer>(
      ops, std::string(rows != nullptr ? kOperationOverwrite : kOperationDelete));
  producer->set_starting_state(state);
  std::vector<std::string> removed;
  std::vector<RecordBatch> kept_rows;
  std::vector<std::pair<const FileScanTask*, std::vector<int64_t>>> marked;  // merge-on-read
  const StrictMetricsEvaluator strict(*schema, bound);
  for (const auto& task : tasks) {
    const bool partition_decides = task.residual == nullptr || task.residual->op() == Operation::kTrue;
    const bool has_deletes = !task.position_deletes.empty() || !task.equality_deletes.empty();
    // Every row matches: metadata only (under merge-on-read the file's
    // deletes go with it; copy-on-write keeps the rule it always had).
    if ((partition_decides || strict.Eval(*task.file.data_file())) && (merge_on_read || !has_deletes)) {
      removed.emplace_back(task.file.file_path());
      ++result.data_files_removed;
      continue;
    }
    std::vector<RecordBatch> survivors;
    std::vector<int64_t> matched_positions;
    int64_t live_rows = 0;
    FLOE_RETURN_IF_ERROR(ReadTaskRows(*ops, metadata, *scan, task,
                                      [&](const RecordBatch& batch, const std::vector<int64_t>& positions) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto matches, Matches(*scan, bound, batch));
      live_rows += batch.num_rows();
      std::vector<uint8_t> keep(matches.size());
      for (size_t i = 0; i < matches.size(); ++i) {
        keep[i] = matches[i] ? 0 : 1;
        if (matches[i] && merge_on_read) matched_positions.push_back(positions[i]);
        if (matches[i] && !merge_on_read) matched_positions.push_back(0);  // counts only
      }
      if (!merge_on_read) {
        FLOE_ASSIGN_OR_RETURN(auto rest, FilterRows(batch, keep));
        if (rest.num_rows() > 0) survivors.push_back(std::move(rest));
      }
      return Status::OK();
    }, merge_on_read));
    if (matched_positions.empty()) continue;
    if (merge_on_read) {
      if (static_cast<int64_t>(matched_positions.size()) == live_rows) {
        removed.emplace_back(task.file.file_path());  // no row survives: drop the file
        ++result.data_files_removed;
      } else {
        result.rows_deleted += static_cast<int64_t>(matched_positions.size());
        marked.emplace_back(&task, std::move(matched_positions));
      }
      continue;
    }
    removed.emplace_back(task.file.file_path());
    ++result.data_files_rewritten;
    for (auto& b : survivors) kept_rows.push_back(std::move(b));
  }

  // A failure from here on deletes what was written.
  auto fail = [&](const Status& status) {
    DeleteFilesQuietly(ops->io(), prepared.written);
    return status;
  };
  if (Status status = MarkDeleted(*ops, metadata, marked, *producer, &prepared); !status.ok()) {
    return fail(status);
  }
  // One writer for the surviving rows and the new rows.
  size_t next_kept = 0;
  bool rows_done = rows == nullptr;
  BatchSource all = [&]() -> Result<std::optional<RecordBatch>> {
    if (next_kept < kept_rows.size()) return std::optional<RecordBatch>(kept_rows[next_kept++]);
    if (!rows_done) {
      FLOE_ASSIGN_OR_RETURN(auto batch, (*rows)());
      if (batch.has_value()) return batch;
      rows_done = true;
    }
    return std::optional<RecordBatch>();
  };
  int64_t written_rows = 0;
  auto files = WriteRows(*ops, metadata, all, &written_rows);
  if (!files.ok()) return fail(files.status());
  for (const auto& f : *files) prepared.written.push_back(f.file_path);
  int64_t kept_count = 0;
  for (const auto& b : kept_rows) kept_count += b.num_rows();
  result.rows_written = written_rows - kept_count;
  result.data_files_added = static_cast<int64_t>(files->size());
  if (removed.empty() && prepared.written.empty()) return prepared;  // nothing matched, nothing to add

  for (const auto& path : removed) producer->DeleteFile(path);
  for (const auto& f : *files) producer->AddFile(f);
  // Serializable isolation: a concurrent commit that added rows the filter
  // could match makes this overwrite or delete wrong (not so under snapshot
  // isolation); under merge-on-read so do deletes added concurrently in
  // what the filter covers, at either level (Java's
  // validateNoConflictingDataFiles / validateNoConflictingDeleteFiles).
  auto conflict = ConflictPredicate(*schema, filter);
  if (!conflict.ok()) return fail(conflict.status());
  if (serializable) producer->ValidateNoConflictingAppends(*conflict);
  if (merge_on_read) producer->ValidateNoConflictingDeleteFiles(*conflict);
  prepared.producer = std::move(producer);
  return prepared;
}

Result<PreparedWrite> PrepareReplacePartitions(std::shared_ptr<TableOperations> ops, const TableState& state,
                                               const BatchSource& rows) {
  PreparedWrite prepared;
  FLOE_ASSIGN_OR_RETURN(auto files, WriteRows(*ops, *state.metadata, rows, &prepared.result.rows_written));
  prepared.written = PathsOf(files);
  auto producer = std::make_unique<MergingSnapshotProducer>(ops, std::string(kOperationOverwrite));
  producer->set_starting_state(state);
  producer->ReplaceAddedPartitions();
  producer->set_summary_property("replace-partitions", "true");  // as Java's, for cherry-pick
  auto keys = std::make_shared<std::set<std::string>>();
  for (const auto& f : files) {
    keys->insert(PartitionKey(f.spec_id, f.partition));
    producer->AddFile(f);
  }
  producer->ValidateNoConflictingAppends([keys](const DataFile& file, const PartitionSpec& spec) -> Result<bool> {
    return keys->count(PartitionKey(spec.spec_id, file.partition)) > 0;
  });
  prepared.result.data_files_added = static_cast<int64_t>(files.size());
  prepared.producer = std::move(producer);
  return prepared;
}

Result<PreparedWrite> PrepareCompact(std::shared_ptr<TableOperations> ops, const TableState& state,
                                     int min_input_files) {
  PreparedWrite prepared;
  const TableMetadata& metadata = *state.metadata;
  const Snapshot* current = metadata.current_snapshot();
  if (current == nullptr) return prepared;
  FLOE_ASSIGN_OR_RETURN(auto options, DataWriterOptions::FromTable(metadata));
  const int64_t small = options.target_file_size_bytes / 4 * 3;
  FLOE_ASSIGN_OR_RETURN(auto scan, TableScan::Make(Borrow(*ops), state.metadata, {}));
  FLOE_ASSIGN_OR_RETURN(auto tasks, scan->PlanFiles());
  // Small files of the default spec, by partition.
  std::map<std::string, std::vector<const FileScanTask*>> groups;
  for (const auto& task : tasks) {
    if (task.file.file_size_in_bytes() >= small || task.file.spec_id() != metadata.default_spec_id) continue;
    groups[PartitionKey(task.file.spec_id(), task.file.partition())].push_back(&task);
  }
  std::vector<const FileScanTask*> inputs;
  for (const auto& [key, group] : groups) {
    if (static_cast<int>(group.size()) >= min_input_files) inputs.insert(inputs.end(), group.begin(), group.end());
  }
  if (inputs.empty()) return prepared;

  // The rows are read with their deletes applied; the rewritten files'
  // DVs and file-scoped position deletes are then removed with them.
  std::vector<RecordBatch> rows;
  for (const FileScanTask* task : inputs) {
    FLOE_RETURN_IF_ERROR(ReadTaskRows(*ops, metadata, *scan, *task,
                                      [&](const RecordBatch& batch, const std::vector<int64_t>&) {
                                        rows.push_back(batch);
                                        return Status::OK();
                                      }));
  }
  size_t next = 0;
  BatchSource source = [&]() -> Result<std::optional<RecordBatch>> {
    if (next < rows.size()) return std::optional<RecordBatch>(rows[next++]);
    return std::optional<RecordBatch>();
  };
  FLOE_ASSIGN_OR_RETURN(auto files, WriteRows(*ops, metadata, source, &prepared.result.rows_written));
  prepared.written = PathsOf(files);
  auto producer = std::make_unique<MergingSnapshotProducer>(ops, std::string(kOperationReplace));
  producer->set_starting_state(state);
  // The rewritten rows keep the sequence number they had as of the start, so
  // equality deletes committed meanwhile still apply to them.
  producer->set_data_sequence_number(current->sequence_number);
  for (const FileScanTask* task : inputs) producer->DeleteFile(std::string(task->file.file_path()));
  for (const auto& f : files) producer->AddFile(f);
  prepared.result.data_files_rewritten = static_cast<int64_t>(inputs.size());
  prepared.result.data_files_added = static_cast<int64_t>(files.size());
  prepared.producer = std::move(producer);
  return prepared;
}

Result<WriteResult> CommitPrepared(PreparedWrite prepared, TableOperations& ops, const TableState& state) {
  if (prepared.producer == nullptr) {
    prepared.result.state = state;
    return std::move(prepared.result);
  }
  auto committed = prepared.producer->Commit();
  if (!committed.ok()) {
    if (committed.status().code() != StatusCode::kCommitStateUnknown) DeleteFilesQuietly(ops.io(), prepared.written);
    return committed.status();
  }
  prepared.result.commit = prepared.producer->report();
  prepared.result.state = std::move(*committed);
  return std::move(prepared.result);
}

}  // namespace floe::iceberg
