// ThreadPool, TaskGroup, ParallelFor and CancellationToken.
//
// One pool serves the whole process (ThreadPool::Default()); work is grouped
// in TaskGroups so a caller can wait for its own tasks and get their first
// error. A thread waiting in TaskGroup::Wait() runs queued tasks itself, so
// tasks may spawn and wait for sub-groups on the same pool without deadlock.
//
// Thread safety: every method of ThreadPool, TaskGroup and CancellationToken
// may be called from any thread.

#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "floe/base/status.h"

namespace floe {

// A shared flag: copies observe the same cancellation.
class CancellationToken {
 public:
  CancellationToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  void Cancel() const { flag_->store(true, std::memory_order_release); }
  bool IsCancelled() const { return flag_->load(std::memory_order_acquire); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

class ThreadPool {
 public:
  // Starts `num_threads` workers (at least 1).
  explicit ThreadPool(int num_threads);
  // Runs every task already queued, then joins the workers.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // The process-wide pool: FLOE_THREADS workers if set, else one per core.
  static ThreadPool& Default();

  int size() const { return static_cast<int>(workers_.size()); }

  // Queues `task` to run on some worker (or on a thread helping in Wait()).
  void Submit(std::function<void()> task);

 private:
  friend class TaskGroup;

  void WorkerLoop();
  // Waits until `done()` holds, running queued tasks meanwhile. `done` is
  // evaluated under the pool mutex.
  void HelpUntil(const std::function<bool()>& done);
  // Wakes every thread sleeping in WorkerLoop or HelpUntil.
  void NotifyStateChange();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;  // guarded by mutex_
  bool stopping_ = false;                    // guarded by mutex_
  std::vector<std::thread> workers_;
};

// A set of tasks whose completion and first error a caller waits for.
class TaskGroup {
 public:
  explicit TaskGroup(ThreadPool& pool = ThreadPool::Default(), CancellationToken token = {});
  // Waits for every spawned task (their errors are dropped; call Wait()).
  ~TaskGroup();
  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;

  // Queues `task`. Once a task fails or the token is cancelled, tasks that
  // have not started are skipped. The first failure cancels the token.
  void Spawn(std::function<Status()> task);

  // Waits for every spawned task; returns the first error, Cancelled when the
  // token was cancelled from outside and no task failed, else OK.
  Status Wait();

  const CancellationToken& token() const { return token_; }

 private:
  void RecordFailure(Status status);

  ThreadPool& pool_;
  CancellationToken token_;
  std::atomic<int64_t> pending_{0};
  std::mutex error_mutex_;
  Status first_error_;  // guarded by error_mutex_
};

struct ParallelForOptions {
  // Indices handed to one task at a time; small bodies want larger grains.
  int64_t grain = 1;
  // Upper bound on tasks in flight; 0 means the pool size.
  int max_parallelism = 0;
};

// Calls fn(i) for every i in [0, n) on `pool`; returns the first error, after
// which remaining indices are skipped. Runs inline when n <= grain.
Status ParallelFor(int64_t n, const std::function<Status(int64_t)>& fn, ParallelForOptions options = {},
                   ThreadPool& pool = ThreadPool::Default(), CancellationToken token = {});

}  // namespace floe
