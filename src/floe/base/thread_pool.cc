#include "floe/base/thread_pool.h"

#include <algorithm>
#include <cstdlib>

namespace floe {

ThreadPool::ThreadPool(int num_threads) {
  const int n = std::max(1, num_threads);
  workers_.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& w : workers_) w.join();
}

ThreadPool& ThreadPool::Default() {
  static ThreadPool* pool = [] {
    int n = static_cast<int>(std::thread::hardware_concurrency());
    if (const char* env = std::getenv("FLOE_THREADS")) {
      const int requested = std::atoi(env);
      if (requested > 0) n = requested;
    }
    // Leaked on purpose: workers must outlive static destructors of callers.
    return new ThreadPool(std::max(1, n));
  }();
  return *pool;
}

void ThreadPool::Submit(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(task));
  }
  // notify_all: the sleeper may be a helper waiting for a different group.
  cv_.notify_all();
}

void ThreadPool::WorkerLoop() {
  std::unique_lock lock(mutex_);
  while (true) {
    cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping and drained
    auto task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    task();
    lock.lock();
  }
}

void ThreadPool::HelpUntil(const std::function<bool()>& done) {
  std::unique_lock lock(mutex_);
  while (!done()) {
    if (!queue_.empty()) {
      auto task = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      task();
      lock.lock();
      continue;
    }
    cv_.wait(lock);
  }
}

void ThreadPool::NotifyStateChange() {
  // Taking the mutex orders this wake-up after the waiter's predicate check.
  { std::lock_guard lock(mutex_); }
  cv_.notify_all();
}

TaskGroup::TaskGroup(ThreadPool& pool, CancellationToken token) : pool_(pool), token_(std::move(token)) {}

TaskGroup::~TaskGroup() {
  pool_.HelpUntil([this] { return pending_.load(std::memory_order_acquire) == 0; });
}

void TaskGroup::RecordFailure(Status status) {
  {
    std::lock_guard lock(error_mutex_);
    if (first_error_.ok()) first_error_ = std::move(status);
  }
  token_.Cancel();
}

void TaskGroup::Spawn(std::function<Status()> task) {
  pending_.fetch_add(1, std::memory_order_acq_rel);
  // The pool by value: once pending_ reaches 0 a waiter may return and the
  // group be destroyed, so the task must not touch `this` after the decrement.
  ThreadPool* pool = &pool_;
  pool_.Submit([this, pool, task = std::move(task)] {
    if (!token_.IsCancelled()) {
      Status st = task();
      if (!st.ok()) RecordFailure(std::move(st));
    }
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pool->NotifyStateChange();
  });
}

Status TaskGroup::Wait() {
  pool_.HelpUntil([this] { return pending_.load(std::memory_order_acquire) == 0; });
  std::lock_guard lock(error_mutex_);
  if (!first_error_.ok()) return first_error_;
  if (token_.IsCancelled()) return Status::Cancelled("task group cancelled");
  return Status::OK();
}

Status ParallelFor(int64_t n, const std::function<Status(int64_t)>& fn, ParallelForOptions options,
                   ThreadPool& pool, CancellationToken token) {
  const int64_t grain = std::max<int64_t>(1, options.grain);
  if (n <= grain) {
    for (int64_t i = 0; i < n; ++i) {
      if (token.IsCancelled()) return Status::Cancelled("parallel loop cancelled");
      FLOE_RETURN_IF_ERROR(fn(i));
    }
    return Status::OK();
  }
  const int64_t chunks = (n + grain - 1) / grain;
  const int max_tasks = options.max_parallelism > 0 ? options.max_parallelism : pool.size();
  const int64_t tasks = std::min<int64_t>(chunks, std::max(1, max_tasks));
  // Tasks pull chunks from a shared counter, so uneven chunks balance out.
  std::atomic<int64_t> next_chunk{0};
  TaskGroup group(pool, token);
  for (int64_t t = 0; t < tasks; ++t) {
    group.Spawn([&]() -> Status {
      while (true) {
        const int64_t chunk = next_chunk.fetch_add(1, std::memory_order_relaxed);
        if (chunk >= chunks) return Status::OK();
        const int64_t end = std::min(n, (chunk + 1) * grain);
        for (int64_t i = chunk * grain; i < end; ++i) {
          if (group.token().IsCancelled()) return Status::OK();
          FLOE_RETURN_IF_ERROR(fn(i));
        }
      }
    });
  }
  return group.Wait();
}

}  // namespace floe
