#include "floe/base/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <thread>
#include <vector>

namespace floe {
namespace {

TEST(ThreadPoolTest, RunsEverySubmittedTask) {
  std::atomic<int> ran{0};
  {
    ThreadPool pool(3);
    EXPECT_EQ(pool.size(), 3);
    for (int i = 0; i < 1000; ++i) pool.Submit([&] { ran.fetch_add(1); });
  }  // the destructor drains the queue
  EXPECT_EQ(ran.load(), 1000);
}

TEST(ThreadPoolTest, UsesSeveralThreads) {
  ThreadPool pool(4);
  std::mutex mu;
  std::set<std::thread::id> ids;
  TaskGroup group(pool);
  for (int i = 0; i < 64; ++i) {
    group.Spawn([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      std::lock_guard lock(mu);
      ids.insert(std::this_thread::get_id());
      return Status::OK();
    });
  }
  ASSERT_TRUE(group.Wait().ok());
  EXPECT_GE(ids.size(), 2u);
}

TEST(TaskGroupTest, AGroupMayBeDestroyedAsSoonAsItsWaitReturns) {
  // A task's last step must not touch its group: the waiter may see the
  // count reach zero, return and free the group before that task has
  // finished waking sleepers. On the heap, so that ASan names a late touch.
  // More workers than cores, so that one is often preempted mid-task.
  ThreadPool pool(16);
  for (int round = 0; round < 1500; ++round) {
    auto group = std::make_unique<TaskGroup>(pool);
    std::atomic<int> ran{0};
    for (int i = 0; i < 16; ++i) {
      group->Spawn([&ran] {
        ran.fetch_add(1);
        return Status::OK();
      });
    }
    ASSERT_TRUE(group->Wait().ok());
    group.reset();
    ASSERT_EQ(ran.load(), 16);
  }
}

TEST(TaskGroupTest, ReturnsFirstErrorAndSkipsTasksSpawnedAfterIt) {
  ThreadPool pool(2);
  std::atomic<int> ran{0};
  TaskGroup group(pool);
  group.Spawn([] { return Status::Corrupt("page 3 of 'x.parquet' is truncated"); });
  while (!group.token().IsCancelled()) std::this_thread::yield();
  for (int i = 0; i < 100; ++i) {
    group.Spawn([&] {
      ran.fetch_add(1);
      return Status::OK();
    });
  }
  group.Spawn([] { return Status::IOError("a later error is not the first"); });
  Status st = group.Wait();
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_EQ(st.message(), "page 3 of 'x.parquet' is truncated");
  EXPECT_EQ(ran.load(), 0);
}

TEST(TaskGroupTest, ExternalCancellationStopsTheGroup) {
  ThreadPool pool(2);
  CancellationToken token;
  TaskGroup group(pool, token);
  token.Cancel();
  std::atomic<int> ran{0};
  group.Spawn([&] {
    ran.fetch_add(1);
    return Status::OK();
  });
  Status st = group.Wait();
  EXPECT_TRUE(st.IsCancelled());
  EXPECT_EQ(ran.load(), 0);
}

TEST(TaskGroupTest, NestedGroupsOnOnePoolDoNotDeadlock) {
  ThreadPool pool(2);
  std::atomic<int> leaves{0};
  TaskGroup outer(pool);
  for (int i = 0; i < 8; ++i) {
    outer.Spawn([&] {
      TaskGroup inner(pool);  // waits inside a worker: must help, not block
      for (int j = 0; j < 8; ++j) {
        inner.Spawn([&] {
          leaves.fetch_add(1);
          return Status::OK();
        });
      }
      return inner.Wait();
    });
  }
  ASSERT_TRUE(outer.Wait().ok());
  EXPECT_EQ(leaves.load(), 64);
}

TEST(ParallelForTest, VisitsEveryIndexExactlyOnce) {
  ThreadPool pool(3);
  std::vector<std::atomic<int>> hits(10007);
  ASSERT_TRUE(ParallelFor(
                  static_cast<int64_t>(hits.size()),
                  [&](int64_t i) {
                    hits[static_cast<size_t>(i)].fetch_add(1);
                    return Status::OK();
                  },
                  ParallelForOptions{.grain = 64, .max_parallelism = 0}, pool)
                  .ok());
  for (const auto& h : hits) ASSERT_EQ(h.load(), 1);
}

TEST(ParallelForTest, StopsAtTheFirstError) {
  ThreadPool pool(2);
  std::atomic<int64_t> visited{0};
  Status st = ParallelFor(
      1000000,
      [&](int64_t i) {
        visited.fetch_add(1);
        return i == 10 ? Status::InvalidArgument("index 10 rejected") : Status::OK();
      },
      ParallelForOptions{.grain = 1, .max_parallelism = 0}, pool);
  EXPECT_TRUE(st.IsInvalidArgument());
  EXPECT_EQ(st.message(), "index 10 rejected");
  EXPECT_LT(visited.load(), 1000000);
}

TEST(ParallelForTest, SmallLoopsRunInlineInOrder) {
  std::vector<int64_t> order;
  ASSERT_TRUE(ParallelFor(5,
                          [&](int64_t i) {
                            order.push_back(i);  // unsynchronised on purpose: inline means one thread
                            return Status::OK();
                          },
                          ParallelForOptions{.grain = 16, .max_parallelism = 0})
                  .ok());
  EXPECT_EQ(order, (std::vector<int64_t>{0, 1, 2, 3, 4}));
}

TEST(ParallelForTest, RespectsMaxParallelism) {
  ThreadPool pool(4);
  std::atomic<int> running{0}, peak{0};
  ASSERT_TRUE(ParallelFor(
                  64,
                  [&](int64_t) {
                    const int now = running.fetch_add(1) + 1;
                    int prev = peak.load();
                    while (now > prev && !peak.compare_exchange_weak(prev, now)) {
                    }
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                    running.fetch_sub(1);
                    return Status::OK();
                  },
                  ParallelForOptions{.grain = 1, .max_parallelism = 2}, pool)
                  .ok());
  EXPECT_LE(peak.load(), 2);
  EXPECT_GE(peak.load(), 1);
}

}  // namespace
}  // namespace floe
