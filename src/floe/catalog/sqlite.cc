#include "floe/catalog/sqlite.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>

#include "floe/base/strings.h"

namespace floe::catalog {
namespace {

Status StatusFor(int rc, std::string message) {
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::IOError(std::move(message) + " (the database stayed locked for the whole busy timeout)");
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_PROTOCOL: return Status::IOError(std::move(message));
    case SQLITE_CONSTRAINT: return Status::AlreadyExists(std::move(message));
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_ERROR:
    case SQLITE_SCHEMA: return Status::Corrupt(std::move(message));
    case SQLITE_PERM:
    case SQLITE_READONLY:
    case SQLITE_AUTH: return Status::PermissionDenied(std::move(message));
    default: return Status::Internal(std::move(message));
  }
}

// A prepared statement, finalized on scope exit.
struct StatementCloser {
  void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
};
using StatementPtr = std::unique_ptr<sqlite3_stmt, StatementCloser>;

class SqliteConnection final : public SqlConnection {
 public:
  SqliteConnection(const std::string* description, sqlite3* db) : description_(description), db_(db) {}
  ~SqliteConnection() override {
    statements_.clear();  // finalized before the connection closes
    sqlite3_close_v2(db_);
  }

  Result<SqlRows> Query(std::string_view sql, const SqlParams& params) override {
    FLOE_ASSIGN_OR_RETURN(Statement stmt, Prepare(sql, params));
    SqlRows rows;
    while (true) {
      const int rc = sqlite3_step(stmt.get());
      if (rc == SQLITE_DONE) return rows;
      if (rc != SQLITE_ROW) return Error(rc, StrCat("executing ", sql.substr(0, 60)));
      const int columns = sqlite3_column_count(stmt.get());
      SqlRows::Row row(static_cast<size_t>(columns));
      for (int c = 0; c < columns; ++c) {
        const unsigned char* text = sqlite3_column_text(stmt.get(), c);
        if (text == nullptr) continue;
        row[static_cast<size_t>(c)] = std::string(reinterpret_cast<const char*>(text),
                                                  static_cast<size_t>(sqlite3_column_bytes(stmt.get(), c)));
      }
      rows.Add(std::move(row));
    }
  }

  Result<int64_t> Execute(std::string_view sql, const SqlParams& params) override {
    FLOE_RETURN_IF_ERROR(Query(sql, params).status());
    return static_cast<int64_t>(sqlite3_changes64(db_));
  }

  Status ExecScript(std::string_view sql) override {
    std::string text(sql);
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
    if (rc == SQLITE_OK) return Status::OK();
    std::string message = StrCat(*description_, ": ", text.substr(0, 60), ": ",
                                 error != nullptr ? error : sqlite3_errstr(rc));
    sqlite3_free(error);
    return StatusFor(rc, std::move(message));
  }

  // Every write takes the database's lock up front (BEGIN IMMEDIATE): with
  // a deferred BEGIN a reader upgrading to a writer can fail with BUSY
  // without waiting.
  // (Both through the statement cache, as every commit runs them.)
  Status Begin(SqlLock) override { return Query("BEGIN IMMEDIATE", {}).status(); }

  Status Commit(bool* outcome_unknown) override {
    *outcome_unknown = false;
    Status status = Query("COMMIT", {}).status();
    if (status.ok()) return status;
    // SQLITE_BUSY on COMMIT keeps the transaction open: roll it back, and the
    // outcome is known. Any other failure (an I/O error while the WAL was
    // written or synced) may or may not have made the commit durable.
    const bool still_open = in_transaction();
    if (still_open) (void)ExecScript("ROLLBACK");
    *outcome_unknown = !still_open;
    if (!still_open) broken_ = true;
    return status;
  }

  void Rollback() override {
    // A failed ROLLBACK leaves nothing to do: closing the connection drops
    // the transaction.
    if (in_transaction() && !ExecScript("ROLLBACK").ok()) broken_ = true;
  }

  bool in_transaction() const override { return sqlite3_get_autocommit(db_) == 0; }
  bool broken() const override { return broken_; }

  Result<std::vector<std::string>> ColumnsOf(std::string_view table) override {
    FLOE_ASSIGN_OR_RETURN(SqlRows rows, Query(StrCat("PRAGMA table_info(", table, ")"), {}));
    std::vector<std::string> columns;
    for (size_t r = 0; r < rows.size(); ++r) columns.push_back(rows.Text(r, 1));
    return columns;
  }

  Status Error(int rc, std::string_view what) const {
    // A connection serves one thread at a time, so its last message is this
    // failure's.
    return StatusFor(rc, StrCat(*description_, ": ", what, ": ", sqlite3_errmsg(db_)));
  }

 private:
  // A statement in use: one from the connection's cache (reset and its
  // bindings cleared when done, so it holds no lock), or one prepared for
  // this call only (finalized).
  class Statement {
   public:
    explicit Statement(sqlite3_stmt* cached) : cached_(cached) {}
    explicit Statement(StatementPtr owned) : owned_(std::move(owned)) {}
    Statement(Statement&& other) noexcept : cached_(other.cached_), owned_(std::move(other.owned_)) {
      other.cached_ = nullptr;
    }
    Statement& operator=(Statement&&) = delete;
    ~Statement() {
      if (cached_ != nullptr) {
        sqlite3_reset(cached_);
        sqlite3_clear_bindings(cached_);
      }
    }
    sqlite3_stmt* get() const { return cached_ != nullptr ? cached_ : owned_.get(); }

   private:
    sqlite3_stmt* cached_ = nullptr;
    StatementPtr owned_;
  };

  Result<Statement> Lookup(std::string_view sql) {
    if (auto it = statements_.find(sql); it != statements_.end()) return Statement(it->second.get());
    const bool cache = statements_.size() < kMaxCachedStatements;
    sqlite3_stmt* raw = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                      cache ? SQLITE_PREPARE_PERSISTENT : 0, &raw, nullptr);
    StatementPtr owned(raw);
    if (rc != SQLITE_OK) return Error(rc, StrCat("preparing ", sql));
    if (!cache) return Statement(std::move(owned));
    statements_.emplace(std::string(sql), std::move(owned));
    return Statement(raw);
  }

  // The catalog runs a small fixed set of statements again and again:
  // preparing each anew cost more server CPU per commit than running it.
  static constexpr size_t kMaxCachedStatements = 64;

  Result<Statement> Prepare(std::string_view sql, const SqlParams& params) {
    FLOE_ASSIGN_OR_RETURN(Statement stmt, Lookup(sql));
    for (size_t i = 0; i < params.size(); ++i) {
      const int index = static_cast<int>(i) + 1;
      int bound;
      if (!params[i]) {
        bound = sqlite3_bind_null(stmt.get(), index);
      } else {
        // SQLITE_TRANSIENT: SQLite copies the text. A zero-length text is
        // bound from a non-null pointer so it is '' not NULL.
        static const char kEmpty[] = "";
        const char* data = params[i]->empty() ? kEmpty : params[i]->data();
        bound = sqlite3_bind_text64(stmt.get(), index, data, params[i]->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
      }
      if (bound != SQLITE_OK) return Error(bound, "binding parameters");
    }
    return stmt;
  }

  const std::string* description_;  // owned by the backend, which outlives its pool
  sqlite3* db_;
  std::map<std::string, StatementPtr, std::less<>> statements_;  // by SQL text
  bool broken_ = false;
};

}  // namespace

SqliteBackend::SqliteBackend(std::string path, int busy_timeout_ms, size_t max_connections)
    : path_(std::move(path)),
      description_(StrCat("catalog database ", Quote(path_))),
      busy_timeout_ms_(busy_timeout_ms),
      // ":memory:" data lives in its only connection.
      max_connections_(path_ == ":memory:" ? 1 : std::max<size_t>(1, max_connections)) {}

Result<std::unique_ptr<SqlConnection>> SqliteBackend::Connect() {
  sqlite3* db = nullptr;
  // NOMUTEX: a connection is used by one thread at a time (the pool hands it
  // out), so SQLite's per-connection mutex would only cost.
  const int rc =
      sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = StrCat(description_, ": open: ", db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return StatusFor(rc, std::move(message));
  }
  auto connection = std::make_unique<SqliteConnection>(&description_, db);
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, busy_timeout_ms_);
  // WAL: readers never block the writer and a commit appends to one file.
  // The mode is stored in the database, so this is a no-op once set; on
  // ":memory:" it stays "memory", which is fine.
  FLOE_RETURN_IF_ERROR(connection->ExecScript("PRAGMA journal_mode=WAL"));
  FLOE_RETURN_IF_ERROR(connection->ExecScript("PRAGMA synchronous=FULL"));
  return std::unique_ptr<SqlConnection>(std::move(connection));
}

}  // namespace floe::catalog
