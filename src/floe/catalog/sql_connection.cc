#include "floe/catalog/sql_connection.h"

#include <algorithm>

#include "floe/base/strings.h"

namespace floe::catalog {

const std::string& SqlRows::Text(size_t row, size_t column) const {
  static const std::string kEmpty;
  const std::optional<std::string>& value = rows_.at(row).at(column);
  return value ? *value : kEmpty;
}

int64_t SqlRows::Int(size_t row, size_t column) const {
  int64_t out = 0;
  if (!ParseInt64(Text(row, column), &out)) return 0;
  return out;
}

// --- SqlConnectionPool ---------------------------------------------------------

SqlConnectionPool::SqlConnectionPool(std::shared_ptr<SqlBackend> backend)
    : backend_(std::move(backend)), max_connections_(std::max<size_t>(1, backend_->max_connections())) {}

SqlConnectionPool::~SqlConnectionPool() = default;

SqlConnectionPool::Lease::~Lease() {
  if (pool_ != nullptr) pool_->Release(std::move(connection_));
}

Result<SqlConnectionPool::Lease> SqlConnectionPool::Acquire() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    available_.wait(lock, [&] { return !idle_.empty() || open_ < max_connections_; });
    if (!idle_.empty()) {
      std::unique_ptr<SqlConnection> connection = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(connection));
    }
    ++open_;
  }
  auto connection = backend_->Connect();
  if (!connection.ok()) {
    std::lock_guard<std::mutex> lock(mutex_);
    --open_;
    available_.notify_one();
    return connection.status();
  }
  return Lease(this, std::move(*connection));
}

void SqlConnectionPool::Release(std::unique_ptr<SqlConnection> connection) {
  if (connection != nullptr && connection->in_transaction()) connection->Rollback();
  std::lock_guard<std::mutex> lock(mutex_);
  if (connection != nullptr && !connection->broken() && !connection->in_transaction()) {
    idle_.push_back(std::move(connection));
  } else {
    connection.reset();
    --open_;
  }
  available_.notify_one();
}

// --- SqlTransaction ------------------------------------------------------------

Result<SqlTransaction> SqlTransaction::Begin(SqlConnection& connection, SqlLock lock) {
  FLOE_RETURN_IF_ERROR(connection.Begin(lock));
  return SqlTransaction(&connection);
}

SqlTransaction::~SqlTransaction() {
  if (connection_ != nullptr && connection_->in_transaction()) connection_->Rollback();
}

Status SqlTransaction::Commit(bool* outcome_unknown) {
  bool unknown = false;
  SqlConnection* connection = connection_;
  connection_ = nullptr;
  if (connection == nullptr) return Status::Internal("transaction committed twice");
  Status status = connection->Commit(&unknown);
  if (outcome_unknown != nullptr) *outcome_unknown = unknown;
  return status;
}

}  // namespace floe::catalog
