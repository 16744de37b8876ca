// The SQL catalog's SQLite backend (sql_connection.h): connections
// configured for several processes sharing one database file (WAL journal,
// a busy timeout, synchronous=FULL so a commit that returned survives a
// crash), every write transaction BEGIN IMMEDIATE (the database's write lock
// up front, so a transaction never fails half-way for a lock and
// check-then-write sequences are atomic across processes).
//
// Errors map onto floe's kinds with the database named:
// `catalog database 'wh/catalog.db': <what>: <SQLite's message>` —
// BUSY/LOCKED (after the busy timeout), IOERR, FULL, CANTOPEN → IOError;
// CONSTRAINT → AlreadyExists; CORRUPT, NOTADB and SQL errors (a database
// whose tables are not the catalog's) → Corrupt; PERM, READONLY, AUTH →
// PermissionDenied; anything else → Internal.
//
// Thread safety: SqliteBackend is thread-safe; a connection it makes belongs
// to one thread at a time.

#pragma once

#include <memory>
#include <string>

#include "floe/base/result.h"
#include "floe/catalog/sql_connection.h"

namespace floe::catalog {

class SqliteBackend final : public SqlBackend {
 public:
  // The database file at `path` (created when missing; ":memory:" for a
  // private in-memory database, served by a single connection).
  SqliteBackend(std::string path, int busy_timeout_ms, size_t max_connections);

  // Opens and configures a connection. IOError / PermissionDenied / Corrupt.
  Result<std::unique_ptr<SqlConnection>> Connect() override;
  const std::string& description() const override { return description_; }
  size_t max_connections() const override { return max_connections_; }
  bool serializes_writers() const override { return true; }
  const std::string& path() const { return path_; }

 private:
  const std::string path_;
  const std::string description_;
  const int busy_timeout_ms_;
  const size_t max_connections_;
};

}  // namespace floe::catalog
