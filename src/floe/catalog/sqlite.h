// A thin RAII layer over the SQLite C API for the SQL catalog: connections
// configured for several processes sharing one database file (WAL journal,
// a busy timeout, synchronous=FULL so a commit that returned survives a
// crash), prepared statements with positional binds, BEGIN IMMEDIATE
// transactions that roll back unless committed, and a pool of connections.
//
// Errors map onto floe's kinds with the database named:
// `catalog database 'wh/catalog.db': <what>: <SQLite's message>` —
// BUSY/LOCKED (after the busy timeout), IOERR, FULL, CANTOPEN → IOError;
// CONSTRAINT → AlreadyExists; CORRUPT, NOTADB and SQL errors (a database
// whose tables are not the catalog's) → Corrupt; PERM, READONLY, AUTH →
// PermissionDenied; anything else → Internal.
//
// Thread safety: a Connection, Statement or Transaction belongs to one thread
// at a time; ConnectionPool is thread-safe.

#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace floe::catalog::sqlite {

class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  ~Statement();

  // Bind the next parameter (left to right, from ?1).
  Statement& Bind(std::string_view text);
  Statement& BindNull();

  // Runs to the next row: true when there is one, false when done.
  Result<bool> Step();
  // Steps until done (for statements that return no rows).
  Status Run();

  // Column values of the current row.
  bool IsNull(int column) const;
  std::string Text(int column) const;
  int64_t Int(int column) const;

 private:
  friend class Connection;
  Statement(const class Connection* connection, sqlite3_stmt* stmt, std::string sql);

  const Connection* connection_;
  sqlite3_stmt* stmt_;
  std::string sql_;
  int next_bind_ = 1;
  int bind_error_ = 0;  // the first failing bind's SQLite code
};

class Connection {
 public:
  // Opens (creating if missing) the database at `path` and configures it.
  // IOError / PermissionDenied / Corrupt as above.
  static Result<std::unique_ptr<Connection>> Open(const std::string& path, int busy_timeout_ms);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs SQL text without parameters (one or more statements, rows ignored).
  Status Exec(std::string_view sql);
  Result<Statement> Prepare(std::string_view sql);
  // Rows changed by the last INSERT / UPDATE / DELETE.
  int64_t changes() const;
  bool in_transaction() const;
  const std::string& path() const { return path_; }

  // The Status for SQLite result code `rc` while doing `what`.
  Status Error(int rc, std::string_view what) const;

 private:
  Connection(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}

  std::string path_;
  sqlite3* db_;
};

// BEGIN IMMEDIATE: takes the database's write lock up front (waiting up to
// the busy timeout), so a transaction never fails half-way for a lock and
// check-then-write sequences are atomic across processes.
class Transaction {
 public:
  static Result<Transaction> Begin(Connection& connection);
  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  ~Transaction();  // rolls back unless committed

  // Commits. On error `*outcome_unknown` tells whether the transaction may
  // have committed anyway (an I/O error during COMMIT); when false (the
  // database stayed busy) it was rolled back.
  Status Commit(bool* outcome_unknown = nullptr);

 private:
  explicit Transaction(Connection* connection) : connection_(connection) {}
  Connection* connection_;
};

class ConnectionPool {
 public:
  // At most `max_connections` open at once (1 for ":memory:", whose data
  // lives in its only connection).
  ConnectionPool(std::string path, int busy_timeout_ms, size_t max_connections);
  ~ConnectionPool();

  // A connection for one thread until the Lease is destroyed.
  class Lease {
   public:
    Lease(Lease&& other) noexcept : pool_(other.pool_), connection_(std::move(other.connection_)) {
      other.pool_ = nullptr;
    }
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    Connection* operator->() const { return connection_.get(); }
    Connection& operator*() const { return *connection_; }
    // Closes the connection instead of returning it (after an error that may
    // have left it in an unknown state).
    void Discard() { connection_.reset(); }

   private:
    friend class ConnectionPool;
    Lease(ConnectionPool* pool, std::unique_ptr<Connection> connection)
        : pool_(pool), connection_(std::move(connection)) {}
    ConnectionPool* pool_;
    std::unique_ptr<Connection> connection_;
  };

  // Waits while all connections are leased. Open's errors.
  Result<Lease> Acquire();
  const std::string& path() const { return path_; }

 private:
  void Release(std::unique_ptr<Connection> connection);

  const std::string path_;
  const int busy_timeout_ms_;
  const size_t max_connections_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<Connection>> idle_;  // guarded by mutex_
  size_t open_ = 0;                                // guarded by mutex_
};

}  // namespace floe::catalog::sqlite
