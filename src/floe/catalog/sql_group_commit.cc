#include "floe/catalog/sql_group_commit.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace floe::catalog {

Status SqlGroupCommit::Run(const Work& work, bool* outcome_unknown) {
  Waiter self;
  self.work = &work;
  std::unique_lock<std::mutex> lock(mutex_);
  queue_.push_back(&self);
  while (!self.done) {
    if (!leading_) {
      LeadBatch(lock);
    } else {
      finished_.wait(lock);
    }
  }
  if (outcome_unknown != nullptr) *outcome_unknown = self.outcome_unknown;
  return std::move(self.status);
}

SqlGroupCommitStats SqlGroupCommit::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void SqlGroupCommit::LeadBatch(std::unique_lock<std::mutex>& lock) {
  leading_ = true;
  lock.unlock();
  std::vector<Waiter*> batch;
  // Takes the queued work, oldest first. Called once the transaction is
  // open (or has failed to open), so writers arriving while this leader
  // waited for a connection or the database's lock join its batch.
  auto take_batch = [&] {
    std::lock_guard<std::mutex> guard(mutex_);
    const size_t n = std::min(queue_.size(), kMaxBatch);
    batch.assign(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  };
  Status start = Status::OK();
  {
    auto db = pool_->Acquire();
    if (db.ok()) start = (*db)->Begin(lock_);
    if (!db.ok()) start = db.status();
    take_batch();
    if (start.ok()) {
      bool broken = false;
      RunBatch(**db, batch, &broken);
      if (broken) db->Discard();
    }
  }  // the connection goes back to the pool before anyone is woken
  if (!start.ok()) {
    for (Waiter* waiter : batch) waiter->status = start;
  }
  lock.lock();
  for (Waiter* waiter : batch) waiter->done = true;
  ++stats_.batches;
  stats_.members += static_cast<int64_t>(batch.size());
  stats_.largest_batch = std::max(stats_.largest_batch, static_cast<int64_t>(batch.size()));
  leading_ = false;
  finished_.notify_all();
}

void SqlGroupCommit::RunBatch(SqlConnection& db, const std::vector<Waiter*>& batch, bool* connection_broken) {
  size_t applied = 0;
  for (size_t i = 0; i < batch.size(); ++i) {
    Waiter* waiter = batch[i];
    waiter->status = (*waiter->work)(db);
    if (waiter->status.ok()) {
      ++applied;
      continue;
    }
    if (db.in_transaction()) continue;  // the member's own failure, undone by itself
    // The engine ended the transaction (rolled it back): nothing of the batch
    // is applied, and the members not yet run never ran. Each fails cleanly.
    const Status aborted = waiter->status;
    for (size_t j = 0; j < batch.size(); ++j) {
      if (j == i) continue;
      if (j > i || batch[j]->status.ok()) {
        batch[j]->status = aborted.WithContext("rolled back with the batch it was committed in");
      }
    }
    *connection_broken = db.broken();
    return;
  }
  if (applied == 0) {
    // Every member failed on its own (lost races): nothing to make durable.
    db.Rollback();
    *connection_broken = db.broken();
    return;
  }
  bool unknown = false;
  const Status committed = db.Commit(&unknown);
  if (!committed.ok()) {
    for (Waiter* waiter : batch) {
      if (!waiter->status.ok()) continue;  // changed nothing, whatever the COMMIT did
      waiter->status = committed;
      waiter->outcome_unknown = unknown;
    }
  }
  *connection_broken = unknown || db.broken();
}

}  // namespace floe::catalog
