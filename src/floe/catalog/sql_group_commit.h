// SqlGroupCommit: concurrent write transactions of one process batched into
// one database transaction, so N writers that arrive together pay one COMMIT
// (on SQLite one WAL fdatasync under the database's write lock) instead of N
// in a row (docs/decisions/0043-group-commit.md).
//
// Leader/follower: a caller queues its work and waits. When no batch is
// running, the first waiter becomes the leader: it takes a connection,
// begins the transaction (SqlLock given at construction), then takes every
// queued work item (its own first, up to kMaxBatch), runs each in arrival
// order on the one connection, COMMITs once and hands each waiter its own
// outcome. Work arriving while a batch runs queues for the next one, so a
// lone writer never waits for company and a busy catalog batches by itself.
//
// Outcome per member, Run() returns:
//   - the work's own error when the work failed (a CAS that matched no row:
//     CommitConflict); the work must leave the database as it found it when
//     it fails (one statement, whose failure SQLite and PostgreSQL undo on
//     their own, or its own SAVEPOINT), so the batch's other members commit;
//   - when a member's failure ended the transaction (the engine rolled it
//     back: a lost connection, SQLite's I/O errors), every member fails with
//     that error, rolled back; so do all members when BEGIN fails;
//   - OK when the COMMIT succeeded;
//   - the COMMIT's error when it failed. `*outcome_unknown` (if given) is
//     then true for every member when the engine could not tell whether the
//     COMMIT happened, false when it reports the transaction rolled back
//     (nothing of the batch applied).
//
// Thread safety: thread-safe. The pool must outlive this object. Work runs
// on the leader's thread, never concurrently with other work of the batch.

#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "floe/base/status.h"
#include "floe/catalog/sql_connection.h"

namespace floe::catalog {

struct SqlGroupCommitStats {
  int64_t batches = 0;        // transactions committed or attempted
  int64_t members = 0;        // work items run in them
  int64_t largest_batch = 0;  // the most members in one transaction
};

class SqlGroupCommit {
 public:
  // Work run inside the batch's transaction on its connection.
  using Work = std::function<Status(SqlConnection&)>;

  // The most members one transaction takes; the rest wait for the next.
  static constexpr size_t kMaxBatch = 128;

  SqlGroupCommit(SqlConnectionPool* pool, SqlLock lock) : pool_(pool), lock_(lock) {}
  SqlGroupCommit(const SqlGroupCommit&) = delete;
  SqlGroupCommit& operator=(const SqlGroupCommit&) = delete;

  // Runs `work` in a batch and waits for the batch's COMMIT. Returns its
  // outcome as described above; pool and BEGIN errors of the leader reach
  // every member of its batch.
  Status Run(const Work& work, bool* outcome_unknown = nullptr);

  SqlGroupCommitStats stats() const;

 private:
  struct Waiter {
    const Work* work = nullptr;
    Status status;
    bool outcome_unknown = false;
    bool done = false;
  };

  // Leads one batch of the queued work: called and returns with `lock`
  // (on mutex_) held, which it releases while the batch runs.
  void LeadBatch(std::unique_lock<std::mutex>& lock);
  // Runs `batch` on `db` inside its open transaction and commits.
  static void RunBatch(SqlConnection& db, const std::vector<Waiter*>& batch, bool* connection_broken);

  SqlConnectionPool* const pool_;
  const SqlLock lock_;
  mutable std::mutex mutex_;
  std::condition_variable finished_;
  std::deque<Waiter*> queue_;   // guarded by mutex_
  bool leading_ = false;        // guarded by mutex_: a batch is running
  SqlGroupCommitStats stats_;   // guarded by mutex_
};

}  // namespace floe::catalog
