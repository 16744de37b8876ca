// The SQL catalog's PostgreSQL backend (sql_connection.h) over libpq, and
// the catalog URIs that name a PostgreSQL database:
//   postgresql://[user[:password]@][host][:port][/dbname][?param=value&...]
//   postgres://...             (libpq's other spelling)
//   jdbc:postgresql://...      (Java's; ?user=&password= work as in libpq)
// The parameters are libpq's (sslmode, connect_timeout, application_name,
// ...). The password never appears in a message: descriptions use the
// redacted URI and libpq's messages are scrubbed of it.
//
// Errors (the backend's mapping of SQLSTATE codes):
//   23505 unique violation                          → AlreadyExists
//   a lost connection, class 08, 57P01-57P03,
//   lock / statement timeouts (55P03, 57014),
//   serialization failure / deadlock (40001, 40P01) → IOError
//   28xxx, 42501 (login, privileges)                → PermissionDenied
//   other class 42 (no such table or column)        → Corrupt
//   anything else                                   → Internal
// A COMMIT whose connection fails after it was sent has an unknown outcome
// (SqlConnection::Commit's outcome_unknown); an error before COMMIT leaves
// nothing committed (the server rolls back a transaction whose client is
// gone).
//
// Write transactions with SqlLock::kCatalog take a transaction-scoped
// advisory lock (one key for the database, as SQLite locks its file), so
// check-then-write sequences are atomic across floe processes; kRows takes
// none (a compare-and-swap UPDATE is atomic by itself). Lock waits end after
// the lock timeout (IOError).
//
// Thread safety: PostgresBackend is thread-safe; a connection belongs to one
// thread at a time.

#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/catalog/sql_connection.h"

namespace floe::catalog {

struct PostgresUri {
  std::string conninfo;              // what libpq is given (a postgresql:// URI)
  std::string redacted;              // the URI without its password, for messages
  std::vector<std::string> secrets;  // texts to scrub from messages (the password, raw and decoded)
};

// Parses a PostgreSQL catalog URI (the forms above). InvalidArgument, naming
// the redacted URI, for another scheme.
Result<PostgresUri> ParsePostgresUri(std::string_view uri);

class PostgresBackend final : public SqlBackend {
 public:
  PostgresBackend(PostgresUri uri, int lock_timeout_ms, size_t max_connections);

  // Connects and configures the session (lock_timeout). IOError when the
  // server cannot be reached; PermissionDenied when the login is refused.
  Result<std::unique_ptr<SqlConnection>> Connect() override;
  const std::string& description() const override { return description_; }
  size_t max_connections() const override { return max_connections_; }

  // `message` with every secret replaced by "***".
  std::string Scrub(std::string message) const;

 private:
  const PostgresUri uri_;
  const std::string description_;
  const int lock_timeout_ms_;
  const size_t max_connections_;
};

}  // namespace floe::catalog
