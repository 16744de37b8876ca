// RowDelta: commits data files and delete files together (after Java's
// BaseRowDelta) — position delete files, equality delete files and v3
// deletion vectors, with the deletion vectors they replace removed. The
// snapshot's operation is "delete" when it only adds deletes, else
// "overwrite", as Java's.
//
// Validations, opted into as in Java (each failure CommitConflict, not
// retried): ValidateFromSnapshot sets the snapshot the checks start after;
// ConflictDetectionFilter narrows them to what a row filter may match;
// ValidateNoConflictingDataFiles fails on data files added since;
// ValidateNoConflictingDeleteFiles on delete files added since, and on
// deletes added since for data files this delta removes;
// ValidateDataFilesExist on referenced data files removed since by an
// overwrite or replace (and by a delete with ValidateDeletedFiles). A
// concurrent deletion vector for a data file this delta adds one for always
// conflicts (spec: one DV per data file in a snapshot).
//
// Thread safety: as SnapshotProducer.

#pragma once

#include <memory>
#include <string>
#include <vector>

#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/update/merging_snapshot_producer.h"

namespace floe::iceberg {

class RowDelta : public MergingSnapshotProducer {
 public:
  explicit RowDelta(std::shared_ptr<TableOperations> ops);

  // Data and delete files this process wrote (made durable before the
  // swap); another engine's files go through AddExistingFile.
  void AddRows(DataFile data_file) { AddFile(std::move(data_file)); }
  void AddDeletes(DataFile delete_file) { AddFile(std::move(delete_file)); }
  // Removes a live data file or delete file (e.g. the DV a new DV replaces).
  void RemoveRows(const std::string& data_file_path) { DeleteFile(data_file_path); }
  void RemoveDeletes(const DataFile& delete_file) { DeleteDeleteFile(delete_file); }

  void ValidateFromSnapshot(int64_t snapshot_id) { set_validate_from_snapshot(snapshot_id); }
  // Unbound; bound against the table's current schema at commit.
  void ConflictDetectionFilter(ExpressionPtr filter) { conflict_filter_ = std::move(filter); }
  void ValidateNoConflictingDataFiles() { validate_data_ = true; }
  void ValidateNoConflictingDeleteFiles() { validate_deletes_ = true; }
  void ValidateDeletedFiles() { include_deletes_ = true; }
  void ValidateDataFilesExist(std::vector<std::string> paths) {
    referenced_.insert(referenced_.end(), paths.begin(), paths.end());
  }

 protected:
  Status Validate(const TableMetadata& base, const Snapshot* parent,
                  std::optional<int64_t> starting_snapshot_id) override;

 private:
  ExpressionPtr conflict_filter_;
  bool validate_data_ = false;
  bool validate_deletes_ = false;
  bool include_deletes_ = false;
  bool configured_ = false;
  std::vector<std::string> referenced_;
};

}  // namespace floe::iceberg
