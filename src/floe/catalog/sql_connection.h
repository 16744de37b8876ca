// The seam between SqlCatalog and the database engine under it (SQLite,
// PostgreSQL): a connection that runs one statement with bound text
// parameters, write transactions, and a pool of connections. SqlCatalog
// writes its SQL once, in the subset both engines speak (see
// docs/decisions/0029-sql-catalog-backends.md):
//   - parameters are `?`, bound left to right (PostgreSQL's backend numbers
//     them $1, $2, ... outside quoted text); every parameter is text or NULL;
//   - results are text: integers come back as decimal text (count(*)),
//     booleans must be written as CASE ... THEN 1 ELSE 0 END;
//   - upserts use INSERT ... ON CONFLICT (...) DO UPDATE (both engines);
//   - everything engine-specific (catalog-wide write lock, column lookup)
//     is a method here.
//
// Errors, every engine alike, with the database named but never a password:
//   AlreadyExists — a unique / primary key violation (SQLite CONSTRAINT,
//     PostgreSQL SQLSTATE 23505);
//   IOError — the connection is gone or the database stays locked / busy;
//   Corrupt — the database's tables are not the catalog's (SQL errors);
//   PermissionDenied — authentication or privileges;
//   Internal — anything else.
//
// Thread safety: an SqlConnection belongs to one thread at a time;
// SqlBackend and SqlConnectionPool are thread-safe.

#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

namespace floe::catalog {

// One bound parameter: text, or NULL (nullopt).
using SqlParam = std::optional<std::string>;
using SqlParams = std::vector<SqlParam>;

// A query's result, fully read (catalog results are small and paged).
class SqlRows {
 public:
  using Row = std::vector<std::optional<std::string>>;

  size_t size() const { return rows_.size(); }
  bool empty() const { return rows_.empty(); }
  bool IsNull(size_t row, size_t column) const { return !rows_.at(row).at(column).has_value(); }
  // The value as text; "" for NULL.
  const std::string& Text(size_t row, size_t column) const;
  // The value as an integer; 0 for NULL or text that is not one.
  int64_t Int(size_t row, size_t column) const;

  void Add(Row row) { rows_.push_back(std::move(row)); }

 private:
  std::vector<Row> rows_;
};

// Which lock a write transaction takes.
enum class SqlLock {
  // The catalog's write lock, so a check followed by a write is atomic with
  // respect to every other writer of the catalog (namespace and table
  // creation, renames): SQLite BEGIN IMMEDIATE; PostgreSQL a transaction
  // advisory lock on the catalog name.
  kCatalog,
  // Only the rows the statements touch (a compare-and-swap UPDATE, whose
  // WHERE clause is its own check). SQLite still locks the database.
  kRows,
};

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;

  // Runs one statement and returns its rows (none for INSERT / UPDATE /
  // DELETE without RETURNING).
  virtual Result<SqlRows> Query(std::string_view sql, const SqlParams& params) = 0;
  // Runs one statement and returns the number of rows it changed.
  virtual Result<int64_t> Execute(std::string_view sql, const SqlParams& params) = 0;
  // Runs SQL text without parameters (one or more statements; DDL).
  virtual Status ExecScript(std::string_view sql) = 0;

  // Starts a write transaction holding `lock` (waiting for it up to the
  // engine's timeout: IOError when it is not granted).
  virtual Status Begin(SqlLock lock) = 0;
  // Commits. On error `*outcome_unknown` tells whether the transaction may
  // have committed anyway (the connection failed after COMMIT was sent, or
  // SQLite's I/O error while writing it); when false it was rolled back.
  virtual Status Commit(bool* outcome_unknown) = 0;
  // Rolls back the open transaction, if any (errors ignored: a broken
  // connection has no transaction left).
  virtual void Rollback() = 0;
  virtual bool in_transaction() const = 0;
  // Whether the connection failed and must not be reused.
  virtual bool broken() const = 0;

  // The column names of `table`, in order; empty when there is no such table.
  virtual Result<std::vector<std::string>> ColumnsOf(std::string_view table) = 0;
};

class SqlBackend {
 public:
  virtual ~SqlBackend() = default;

  // A new connection. The backend's errors (IOError when the server cannot
  // be reached, PermissionDenied for a refused login, ...).
  virtual Result<std::unique_ptr<SqlConnection>> Connect() = 0;
  // How messages name the database: "catalog database 'wh/catalog.db'",
  // "catalog database 'postgresql://floe@127.0.0.1:5432/cat'" (no password).
  virtual const std::string& description() const = 0;
  // How many connections a pool should open at most.
  virtual size_t max_connections() const = 0;
  // Whether the engine lets one writer at a time into the database (SQLite's
  // write lock), so that concurrent pointer swaps of one process are better
  // batched into one transaction and one COMMIT (sql_group_commit.h) than
  // queued for the lock one COMMIT each.
  virtual bool serializes_writers() const { return false; }
};

// Connections to one backend, reused: at most backend.max_connections()
// open at once; a broken connection or one left inside a transaction is
// closed instead of reused.
class SqlConnectionPool {
 public:
  explicit SqlConnectionPool(std::shared_ptr<SqlBackend> backend);
  ~SqlConnectionPool();

  // A connection for one thread until the Lease is destroyed.
  class Lease {
   public:
    Lease(Lease&& other) noexcept : pool_(other.pool_), connection_(std::move(other.connection_)) {
      other.pool_ = nullptr;
    }
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    SqlConnection* operator->() const { return connection_.get(); }
    SqlConnection& operator*() const { return *connection_; }
    // Closes the connection instead of returning it.
    void Discard() { connection_.reset(); }

   private:
    friend class SqlConnectionPool;
    Lease(SqlConnectionPool* pool, std::unique_ptr<SqlConnection> connection)
        : pool_(pool), connection_(std::move(connection)) {}
    SqlConnectionPool* pool_;
    std::unique_ptr<SqlConnection> connection_;
  };

  // Waits while all connections are leased. Connect's errors.
  Result<Lease> Acquire();
  SqlBackend& backend() const { return *backend_; }

 private:
  void Release(std::unique_ptr<SqlConnection> connection);

  const std::shared_ptr<SqlBackend> backend_;
  const size_t max_connections_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<SqlConnection>> idle_;  // guarded by mutex_
  size_t open_ = 0;                                   // guarded by mutex_
};

// A write transaction that rolls back unless committed.
class SqlTransaction {
 public:
  static Result<SqlTransaction> Begin(SqlConnection& connection, SqlLock lock);
  SqlTransaction(SqlTransaction&& other) noexcept : connection_(other.connection_) { other.connection_ = nullptr; }
  SqlTransaction& operator=(SqlTransaction&&) = delete;
  ~SqlTransaction();

  // SqlConnection::Commit.
  Status Commit(bool* outcome_unknown = nullptr);

 private:
  explicit SqlTransaction(SqlConnection* connection) : connection_(connection) {}
  SqlConnection* connection_;
};

}  // namespace floe::catalog
