#include "catalog/conformance/postgres_test_server.h"

#include <libpq-fe.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>

#include "floe/base/strings.h"
#include "testing/run_process.h"

namespace floe::catalog::testing {
namespace {

std::mutex g_mutex;
PostgresTestServer* g_server = nullptr;  // guarded by g_mutex
std::string g_skip_reason;               // guarded by g_mutex
bool g_tried = false;                    // guarded by g_mutex

// The server's life cycle is dev/postgres-server.sh, shared with
// bench/serve-commits.sh.
const std::string kScript = std::string(FLOE_SOURCE_DIR) + "/dev/postgres-server.sh";

}  // namespace

std::string PostgresTestServer::SkipReason() {
  Get();
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_skip_reason;
}

PostgresTestServer* PostgresTestServer::Get() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_tried) return g_server;
  g_tried = true;
  auto* server = new PostgresTestServer();
  Status started = server->Start();
  if (!started.ok()) {
    g_skip_reason = started.message();
    delete server;
    return nullptr;
  }
  g_server = server;
  return g_server;
}

void PostgresTestServer::Shutdown() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_server == nullptr || g_server->owner_pid_ != getpid()) return;
  g_server->Stop();
  delete g_server;
  g_server = nullptr;
}

Status PostgresTestServer::Start() {
  char pattern[] = "/tmp/floe-pg-XXXXXX";
  if (mkdtemp(pattern) == nullptr) return Status::IOError("mkdtemp failed");
  root_ = pattern;
  owner_pid_ = getpid();
  auto start = floe::testing::RunProcess({kScript, "start", root_});
  // 77: PostgreSQL (or a user to run it as) is not on this machine.
  if (start.exit_code == 77) return Status::NotFound(StrCat(Trim(start.err), ": skipped"));
  if (start.exit_code != 0) return Status::IOError(StrCat("starting PostgreSQL: ", Trim(start.err)));
  port_ = std::atoi(start.out.c_str());
  if (port_ <= 0) return Status::IOError(StrCat("starting PostgreSQL: no port printed: ", Trim(start.out)));
  return Status::OK();
}

void PostgresTestServer::Stop() { floe::testing::RunProcess({kScript, "stop", root_}); }

std::string PostgresTestServer::Uri(const std::string& database) const {
  return StrCat("postgresql://floe@127.0.0.1:", port_, "/", database);
}

Result<std::string> PostgresTestServer::NewDatabase(const std::string& hint) {
  std::string name = "t";
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    name += std::to_string(++next_database_) + "_" + std::to_string(getpid());
  }
  for (char c : hint) {
    if (name.size() >= 60) break;
    name += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  }
  FLOE_RETURN_IF_ERROR(Exec("postgres", "CREATE DATABASE " + name + " TEMPLATE template0").status());
  return Uri(name);
}

Result<std::string> PostgresTestServer::Exec(const std::string& database, const std::string& sql) const {
  PGconn* conn = PQconnectdb(Uri(database).c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = PQerrorMessage(conn);
    PQfinish(conn);
    return Status::IOError("connect: " + message);
  }
  PGresult* result = PQexec(conn, sql.c_str());
  const ExecStatusType status = PQresultStatus(result);
  std::string out;
  if (status == PGRES_TUPLES_OK) {
    for (int r = 0; r < PQntuples(result); ++r) {
      for (int c = 0; c < PQnfields(result); ++c) {
        if (c > 0) out += '|';
        out += PQgetisnull(result, r, c) ? "NULL" : PQgetvalue(result, r, c);
      }
      out += '\n';
    }
  }
  std::string error = PQresultErrorMessage(result);
  PQclear(result);
  PQfinish(conn);
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) return Status::Internal(sql + ": " + error);
  return out;
}

}  // namespace floe::catalog::testing
