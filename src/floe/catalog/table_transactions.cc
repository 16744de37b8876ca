#include "floe/catalog/table_transactions.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <set>
#include <thread>

#include "floe/base/strings.h"
#include "floe/iceberg/update/snapshot_producer.h"

namespace floe::catalog {

Result<std::vector<iceberg::TableState>> CommitTableTransactions(Catalog& catalog,
                                                                 const std::vector<TableTransaction>& transactions) {
  if (transactions.empty()) return Status::InvalidArgument("a multi-table transaction needs at least one table");
  std::set<TableIdentifier> seen;
  for (const TableTransaction& t : transactions) {
    if (t.transaction == nullptr) {
      return Status::InvalidArgument(StrCat("transaction: table ", t.ident.ToString(), " has no transaction"));
    }
    if (!seen.insert(t.ident).second) {
      return Status::InvalidArgument(StrCat("transaction: table ", t.ident.ToString(), " appears twice"));
    }
  }
  auto abort_all = [&] {
    for (const TableTransaction& t : transactions) t.transaction->Abort();
  };
  const iceberg::CommitRetryOptions retry =
      iceberg::CommitRetryOptions::FromProperties(transactions.front().transaction->staged().metadata->properties);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(retry.total_timeout_ms);
  std::mt19937_64 jitter(std::random_device{}());
  int64_t wait_ms = retry.min_wait_ms;
  for (int attempt = 0;; ++attempt) {
    std::vector<TableCommit> commits;
    commits.reserve(transactions.size());
    for (const TableTransaction& t : transactions) {
      auto changes = t.transaction->PendingChanges();
      if (!changes.ok()) {
        abort_all();
        return changes.status().WithContext(StrCat("table ", t.ident.ToString()));
      }
      commits.push_back(TableCommit{t.ident, std::move(changes->requirements), std::move(changes->updates)});
    }
    // Every table's new files reach the disk before any pointer moves.
    for (const TableTransaction& t : transactions) {
      if (Status durable = t.transaction->MakeStagedDurable(); !durable.ok()) {
        abort_all();
        return durable.WithContext(StrCat("table ", t.ident.ToString()));
      }
    }
    auto committed = catalog.CommitTransaction(commits);
    if (committed.ok()) {
      for (size_t i = 0; i < transactions.size(); ++i) transactions[i].transaction->Published((*committed)[i]);
      return committed;
    }
    const Status status = committed.status();
    if (status.code() == StatusCode::kCommitStateUnknown) {
      for (const TableTransaction& t : transactions) t.transaction->OutcomeUnknown();
      return status;
    }
    if (status.code() != StatusCode::kCommitConflict || attempt >= retry.num_retries ||
        std::chrono::steady_clock::now() >= deadline) {
      abort_all();
      if (status.code() == StatusCode::kCommitConflict) {
        return Status::CommitConflict(StrCat("multi-table transaction failed after ", attempt + 1,
                                             " attempts: ", status.message()));
      }
      return status;
    }
    const int64_t sleep_ms = std::min(wait_ms, retry.max_wait_ms);
    std::this_thread::sleep_for(
        std::chrono::milliseconds(sleep_ms / 2 + static_cast<int64_t>(jitter() % (sleep_ms / 2 + 1))));
    wait_ms = std::min(wait_ms * 2, retry.max_wait_ms);
    // Every table re-validates on its fresh state (a table that did not
    // move re-applies to the same result); one failure ends them all.
    for (const TableTransaction& t : transactions) {
      if (Status rebased = t.transaction->Rebase(attempt + 1); !rebased.ok()) {
        abort_all();
        return rebased.WithContext(StrCat("table ", t.ident.ToString()));
      }
    }
  }
}

}  // namespace floe::catalog
