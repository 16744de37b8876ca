#include "floe/catalog/sqlite.h"

#include <sqlite3.h>

#include "floe/base/strings.h"

namespace floe::catalog::sqlite {
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

}  // namespace

// --- Statement ---------------------------------------------------------------

Statement::Statement(const Connection* connection, sqlite3_stmt* stmt, std::string sql)
    : connection_(connection), stmt_(stmt), sql_(std::move(sql)) {}

Statement::Statement(Statement&& other) noexcept
    : connection_(other.connection_),
      stmt_(other.stmt_),
      sql_(std::move(other.sql_)),
      next_bind_(other.next_bind_),
      bind_error_(other.bind_error_) {
  other.stmt_ = nullptr;
}

Statement::~Statement() {
  if (stmt_ != nullptr) sqlite3_finalize(stmt_);
}

Statement& Statement::Bind(std::string_view text) {
  // SQLITE_TRANSIENT: SQLite copies the text, so the view may die first. A
  // zero-length text is bound from a non-null pointer so it is '' not NULL.
  static const char kEmpty[] = "";
  const char* data = text.empty() ? kEmpty : text.data();
  int rc = sqlite3_bind_text64(stmt_, next_bind_++, data, text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
  return *this;
}

Statement& Statement::BindNull() {
  int rc = sqlite3_bind_null(stmt_, next_bind_++);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
  return *this;
}

Result<bool> Statement::Step() {
  if (bind_error_ != 0) return connection_->Error(bind_error_, "binding parameters");
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return connection_->Error(rc, StrCat("executing ", sql_.substr(0, 60)));
}

Status Statement::Run() {
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return Status::OK();
  }
}

bool Statement::IsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

std::string Statement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

int64_t Statement::Int(int column) const { return sqlite3_column_int64(stmt_, column); }

// --- Connection --------------------------------------------------------------

Result<std::unique_ptr<Connection>> Connection::Open(const std::string& path, int busy_timeout_ms) {
  sqlite3* db = nullptr;
  // NOMUTEX: a connection is used by one thread at a time (the pool hands it
  // out), so SQLite's per-connection mutex would only cost.
  const int rc =
      sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message =
        StrCat("catalog database ", Quote(path), ": open: ", db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return StatusFor(rc, std::move(message));
  }
  std::unique_ptr<Connection> connection(new Connection(path, db));
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, busy_timeout_ms);
  // WAL: readers never block the writer and a commit appends to one file.
  // The mode is stored in the database, so this is a no-op once set; on
  // ":memory:" it stays "memory", which is fine.
  FLOE_RETURN_IF_ERROR(connection->Exec("PRAGMA journal_mode=WAL"));
  FLOE_RETURN_IF_ERROR(connection->Exec("PRAGMA synchronous=FULL"));
  return connection;
}

Connection::~Connection() { sqlite3_close_v2(db_); }

Status Connection::Exec(std::string_view sql) {
  std::string text(sql);
  char* error = nullptr;
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return Status::OK();
  std::string message =
      StrCat("catalog database ", Quote(path_), ": ", text, ": ", error != nullptr ? error : sqlite3_errstr(rc));
  sqlite3_free(error);
  return StatusFor(rc, std::move(message));
}

Result<Statement> Connection::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return Error(rc, StrCat("preparing ", sql));
  }
  return Statement(this, stmt, std::string(sql));
}

int64_t Connection::changes() const { return sqlite3_changes64(db_); }

bool Connection::in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }

Status Connection::Error(int rc, std::string_view what) const {
  // A connection serves one thread at a time, so its last message is this
  // failure's.
  return StatusFor(rc, StrCat("catalog database ", Quote(path_), ": ", what, ": ", sqlite3_errmsg(db_)));
}

// --- Transaction -------------------------------------------------------------

Result<Transaction> Transaction::Begin(Connection& connection) {
  FLOE_RETURN_IF_ERROR(connection.Exec("BEGIN IMMEDIATE"));
  return Transaction(&connection);
}

Transaction::Transaction(Transaction&& other) noexcept : connection_(other.connection_) { other.connection_ = nullptr; }

Transaction::~Transaction() {
  if (connection_ != nullptr && connection_->in_transaction()) {
    // A failed ROLLBACK leaves nothing to do: closing the connection (the
    // caller discards it) drops the transaction.
    (void)connection_->Exec("ROLLBACK");
  }
}

Status Transaction::Commit(bool* outcome_unknown) {
  if (outcome_unknown != nullptr) *outcome_unknown = false;
  Connection* connection = connection_;
  connection_ = nullptr;
  if (connection == nullptr) return Status::Internal("transaction committed twice");
  Status status = connection->Exec("COMMIT");
  if (status.ok()) return status;
  // SQLITE_BUSY on COMMIT keeps the transaction open: roll it back, and the
  // outcome is known. Any other failure (an I/O error while the WAL was
  // written or synced) may or may not have made the commit durable.
  const bool still_open = connection->in_transaction();
  if (still_open) (void)connection->Exec("ROLLBACK");
  if (outcome_unknown != nullptr) *outcome_unknown = !still_open;
  return status;
}

// --- ConnectionPool ----------------------------------------------------------

ConnectionPool::ConnectionPool(std::string path, int busy_timeout_ms, size_t max_connections)
    : path_(std::move(path)),
      busy_timeout_ms_(busy_timeout_ms),
      max_connections_(path_ == ":memory:" ? 1 : std::max<size_t>(1, max_connections)) {}

ConnectionPool::~ConnectionPool() = default;

ConnectionPool::Lease::~Lease() {
  if (pool_ != nullptr) pool_->Release(std::move(connection_));
}

Result<ConnectionPool::Lease> ConnectionPool::Acquire() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    available_.wait(lock, [&] { return !idle_.empty() || open_ < max_connections_; });
    if (!idle_.empty()) {
      std::unique_ptr<Connection> connection = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(connection));
    }
    ++open_;
  }
  auto connection = Connection::Open(path_, busy_timeout_ms_);
  if (!connection.ok()) {
    std::lock_guard<std::mutex> lock(mutex_);
    --open_;
    available_.notify_one();
    return connection.status();
  }
  return Lease(this, std::move(*connection));
}

void ConnectionPool::Release(std::unique_ptr<Connection> connection) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (connection != nullptr && !connection->in_transaction()) {
    idle_.push_back(std::move(connection));
  } else {
    connection.reset();
    --open_;
  }
  available_.notify_one();
}

}  // namespace floe::catalog::sqlite
