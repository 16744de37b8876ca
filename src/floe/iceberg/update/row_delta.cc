#include "floe/iceberg/update/row_delta.h"

#include "floe/base/strings.h"
#include "floe/iceberg/row_operations.h"

namespace floe::iceberg {

RowDelta::RowDelta(std::shared_ptr<TableOperations> ops)
    : MergingSnapshotProducer(std::move(ops), std::string(kOperationOverwrite)) {}

Status RowDelta::Validate(const TableMetadata& base, const Snapshot* parent,
                          std::optional<int64_t> starting_snapshot_id) {
  // The checks are registered once, on the first attempt's schema.
  if (!configured_) {
    configured_ = true;
    FilePredicate conflicting = [](const DataFile&, const PartitionSpec&) -> Result<bool> { return true; };
    if (conflict_filter_ != nullptr) {
      const Schema* schema = base.current_schema();
      if (schema == nullptr) return Status::Corrupt(StrCat("table ", ops().name(), " has no current schema"));
      FLOE_ASSIGN_OR_RETURN(conflicting, ConflictPredicate(*schema, conflict_filter_));
    }
    if (validate_data_) ValidateNoConflictingAppends(conflicting);
    if (validate_deletes_) MergingSnapshotProducer::ValidateNoConflictingDeleteFiles(conflicting);
    if (!referenced_.empty()) MergingSnapshotProducer::ValidateDataFilesExist(referenced_, include_deletes_);
  }
  return MergingSnapshotProducer::Validate(base, parent, starting_snapshot_id);
}

}  // namespace floe::iceberg
