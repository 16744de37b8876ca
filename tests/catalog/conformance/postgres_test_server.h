// A real PostgreSQL server for the catalog tests, started on first use on a
// free port of 127.0.0.1 by dev/postgres-server.sh (initdb + pg_ctl from
// Debian's postgresql package, run as the postgres user when the tests run
// as root, since initdb refuses root; bench/serve-commits.sh starts its
// server the same way) and stopped when the test program ends. One server per test
// program; each test gets its own database.

#pragma once

#include <string>

#include "floe/base/result.h"

namespace floe::catalog::testing {

class PostgresTestServer {
 public:
  // The running server, started on the first call. nullptr when it cannot
  // run here; SkipReason() says why.
  static PostgresTestServer* Get();
  static std::string SkipReason();
  // Stops the server if it was started (idempotent; only in the process
  // that started it).
  static void Shutdown();

  int port() const { return port_; }
  // postgresql://floe@127.0.0.1:PORT/<database>
  std::string Uri(const std::string& database) const;
  // A new empty database, unique in this run, named after `hint`; its URI.
  Result<std::string> NewDatabase(const std::string& hint);
  // Runs SQL on `database` (as the superuser floe); the rows as text, one
  // line per row with columns joined by '|'.
  Result<std::string> Exec(const std::string& database, const std::string& sql) const;

 private:
  PostgresTestServer() = default;
  Status Start();
  void Stop();

  std::string root_;  // owned by the postgres user: data/, log, socket
  int port_ = 0;
  int owner_pid_ = 0;
  int next_database_ = 0;
};

}  // namespace floe::catalog::testing
