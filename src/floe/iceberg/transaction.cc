#include "floe/iceberg/transaction.h"

#include <chrono>
#include <random>
#include <thread>

#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/iceberg/table_metadata_diff.h"

namespace floe::iceberg {

Transaction::Transaction(std::shared_ptr<TableOperations> ops, TableState start)
    : ops_(std::move(ops)), base_(std::move(start)), staged_(base_.metadata) {
  if (staged_ != nullptr && staged_->current_snapshot() != nullptr) {
    start_head_ = staged_->current_snapshot()->snapshot_id;
  }
}

Transaction::~Transaction() {
  if (!committed_) Abort();
}

Status Transaction::CheckOpen() const {
  if (committed_ || aborted_) {
    return Status::InvalidArgument(StrCat("transaction on table ", ops_->name(), " is already ",
                                          committed_ ? "committed" : "aborted"));
  }
  if (staged_ == nullptr) return Status::InvalidArgument(StrCat("transaction on table ", ops_->name(), " has no base"));
  return Status::OK();
}

Result<TableMetadata> Transaction::ApplyOperation(Operation& op, const TableMetadata& metadata, int attempt) {
  if (op.producer == nullptr) {
    if (attempt > 0) {
      // Rebuilt on a fresh table, the builder would assume whatever is
      // current now (a schema change would silently land on a schema a
      // concurrent commit changed): what it first assumed must still hold,
      // as a REST server checks a single commit's requirements.
      for (const TableRequirement& requirement : op.assumed) {
        if (Status holds = ValidateRequirement(requirement, &metadata); !holds.ok()) {
          return Status::CommitConflict(StrCat("table ", ops_->name(), ": a concurrent commit invalidated the ",
                                               TableRequirementType(requirement), " a change of this transaction ",
                                               "was built on: ", holds.message()));
        }
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto change, op.change(metadata));
    if (attempt == 0) op.assumed = change.first;
    return ApplyTableChanges(&metadata, change.first, change.second);
  }
  // Validation starts where the transaction started; the snapshots of its
  // own earlier operations are not concurrent commits.
  op.producer->set_validate_from_snapshot(start_head_);
  op.producer->set_own_snapshot_ids(own_snapshot_ids_);
  FLOE_ASSIGN_OR_RETURN(auto updated, op.producer->Stage(metadata, attempt));
  own_snapshot_ids_.insert(*op.producer->snapshot_id());
  return updated;
}

Result<WriteResult> Transaction::AddWrite(Result<PreparedWrite> prepared) {
  if (!prepared.ok()) return prepared.status();
  WriteResult result = std::move(prepared->result);
  if (prepared->producer == nullptr) {
    result.state = staged();
    return result;
  }
  Operation op;
  op.producer = std::move(prepared->producer);
  op.written = std::move(prepared->written);
  auto updated = ApplyOperation(op, *staged_, 0);
  if (!updated.ok()) {
    op.producer->Abort();
    DeleteFilesQuietly(ops_->io(), op.written);
    return updated.status();
  }
  staged_ = std::make_shared<const TableMetadata>(std::move(*updated));
  result.state = staged();
  result.commit.snapshot_id = op.producer->snapshot_id().value_or(0);
  operations_.push_back(std::move(op));
  return result;
}

Result<WriteResult> Transaction::Append(const BatchSource& rows, const std::map<std::string, std::string>& summary) {
  FLOE_RETURN_IF_ERROR(CheckOpen());
  return AddWrite(PrepareAppend(ops_, staged(), rows, summary));
}

Result<WriteResult> Transaction::AppendFiles(std::vector<DataFile> files) {
  FLOE_RETURN_IF_ERROR(CheckOpen());
  return AddWrite(PrepareAppendFiles(ops_, staged(), std::move(files)));
}

Result<WriteResult> Transaction::Delete(const ExpressionPtr& filter) {
  FLOE_RETURN_IF_ERROR(CheckOpen());
  return AddWrite(PrepareRewriteMatching(ops_, staged(), filter, nullptr));
}

Result<WriteResult> Transaction::Overwrite(const ExpressionPtr& filter, const BatchSource& rows) {
  FLOE_RETURN_IF_ERROR(CheckOpen());
  return AddWrite(PrepareRewriteMatching(ops_, staged(), filter, &rows));
}

Result<WriteResult> Transaction::ReplacePartitions(const BatchSource& rows) {
  FLOE_RETURN_IF_ERROR(CheckOpen());
  return AddWrite(PrepareReplacePartitions(ops_, staged(), rows));
}

Status Transaction::CommitChanges(const Table::ChangeBuilder& build) {
  FLOE_RETURN_IF_ERROR(CheckOpen());
  Operation op;
  op.change = build;
  FLOE_ASSIGN_OR_RETURN(auto updated, ApplyOperation(op, *staged_, 0));
  staged_ = std::make_shared<const TableMetadata>(std::move(updated));
  operations_.push_back(std::move(op));
  return Status::OK();
}

Status Transaction::SetProperties(std::map<std::string, std::string> updates, std::vector<std::string> removals) {
  return CommitChanges([updates = std::move(updates), removals = std::move(removals)](const TableMetadata&)
                           -> Result<std::pair<std::vector<TableRequirement>, std::vector<TableUpdate>>> {
    std::vector<TableUpdate> changes;
    if (!updates.empty()) changes.push_back(::floe::iceberg::SetProperties{updates});
    if (!removals.empty()) changes.push_back(::floe::iceberg::RemoveProperties{removals});
    return std::make_pair(std::vector<TableRequirement>{}, std::move(changes));
  });
}

Status Transaction::SetRef(const std::string& name, SnapshotRefType type, int64_t snapshot_id) {
  return CommitChanges([name, type, snapshot_id](const TableMetadata& m)
                           -> Result<std::pair<std::vector<TableRequirement>, std::vector<TableUpdate>>> {
    FLOE_ASSIGN_OR_RETURN(TableChanges change, SetRefChange(m, name, type, snapshot_id));
    return std::make_pair(std::move(change.requirements), std::move(change.updates));
  });
}

Status Transaction::Restage(int attempt) {
  own_snapshot_ids_.clear();
  std::shared_ptr<const TableMetadata> staged = base_.metadata;
  for (auto& op : operations_) {
    FLOE_ASSIGN_OR_RETURN(auto updated, ApplyOperation(op, *staged, attempt));
    staged = std::make_shared<const TableMetadata>(std::move(updated));
  }
  staged_ = std::move(staged);
  return Status::OK();
}

Result<TableState> Transaction::Commit() {
  FLOE_RETURN_IF_ERROR(CheckOpen());
  report_ = CommitReport{};
  if (operations_.empty()) {
    committed_ = true;
    return base_;
  }
  const CommitRetryOptions retry = CommitRetryOptions::FromProperties(base_.metadata->properties);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(retry.total_timeout_ms);
  std::mt19937_64 jitter(RandomBits64());
  int64_t wait_ms = retry.min_wait_ms;
  for (int attempt = 0;; ++attempt) {
    report_.attempts = attempt + 1;
    if (Status durable = MakeStagedDurable(); !durable.ok()) {
      Abort();
      return durable;
    }
    auto committed = ops_->Commit(base_, *staged_);
    if (committed.ok()) {
      Published(*committed);
      return committed;
    }
    const Status status = committed.status();
    if (status.code() == StatusCode::kCommitStateUnknown) {
      committed_ = true;  // it may have landed: keep every file, accept no more operations
      return status;
    }
    if (status.code() != StatusCode::kCommitConflict || attempt >= retry.num_retries ||
        std::chrono::steady_clock::now() >= deadline) {
      Abort();
      if (status.code() == StatusCode::kCommitConflict) {
        return Status::CommitConflict(StrCat("table ", ops_->name(), ": transaction failed after ", attempt + 1,
                                             " attempts: ", status.message()));
      }
      return status;
    }
    ++report_.conflicts;
    const int64_t sleep_ms = std::min(wait_ms, retry.max_wait_ms);
    std::this_thread::sleep_for(
        std::chrono::milliseconds(sleep_ms / 2 + static_cast<int64_t>(jitter() % (sleep_ms / 2 + 1))));
    wait_ms = std::min(wait_ms * 2, retry.max_wait_ms);
    FLOE_RETURN_IF_ERROR(Rebase(attempt + 1));
  }
}

Status Transaction::MakeStagedDurable() {
  FLOE_RETURN_IF_ERROR(CheckOpen());
  std::vector<std::string> paths;
  for (const auto& op : operations_) {
    if (op.producer == nullptr) continue;
    auto more = op.producer->NotYetDurable();
    paths.insert(paths.end(), more.begin(), more.end());
  }
  if (paths.empty()) return Status::OK();
  FLOE_RETURN_IF_ERROR(ops_->io().MakeDurable(paths));
  for (auto& op : operations_) {
    if (op.producer != nullptr) op.producer->MarkDurable(paths);
  }
  return Status::OK();
}

Result<TableChanges> Transaction::PendingChanges() const {
  FLOE_RETURN_IF_ERROR(CheckOpen());
  const bool create = base_.metadata_location.empty() || base_.metadata == nullptr;
  return DiffTableMetadata(create ? nullptr : base_.metadata.get(), *staged_);
}

Status Transaction::Rebase(int attempt) {
  FLOE_RETURN_IF_ERROR(CheckOpen());
  auto refreshed = ops_->Refresh();
  if (!refreshed.ok()) {
    Abort();
    return refreshed.status();
  }
  base_ = std::move(*refreshed);
  // Re-apply every operation on the fresh table; a failed validation is final.
  if (Status restaged = Restage(attempt); !restaged.ok()) {
    Abort();
    return restaged;
  }
  return Status::OK();
}

void Transaction::Published(const TableState& committed) {
  committed_ = true;
  for (auto& op : operations_) {
    if (op.producer != nullptr) op.producer->Committed(committed.metadata_location);
  }
  if (staged_->current_snapshot() != nullptr) report_.snapshot_id = staged_->current_snapshot()->snapshot_id;
  report_.metadata_location = committed.metadata_location;
}

void Transaction::Abort() {
  if (committed_ || aborted_) return;
  aborted_ = true;
  for (auto& op : operations_) {
    if (op.producer != nullptr) op.producer->Abort();
    DeleteFilesQuietly(ops_->io(), op.written);
  }
}

}  // namespace floe::iceberg
