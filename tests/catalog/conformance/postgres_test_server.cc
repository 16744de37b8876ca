#include "catalog/conformance/postgres_test_server.h"

#include <arpa/inet.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "floe/base/strings.h"
#include "testing/run_process.h"

namespace floe::catalog::testing {
namespace {

std::mutex g_mutex;
PostgresTestServer* g_server = nullptr;  // guarded by g_mutex
std::string g_skip_reason;               // guarded by g_mutex
bool g_tried = false;                    // guarded by g_mutex

// The folder holding initdb and pg_ctl: pg_config's, else PATH's.
std::string BinDir() {
  for (const char* candidate : {"/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin",
                                "/usr/lib/postgresql/17/bin", "/usr/local/bin", "/usr/bin"}) {
    if (std::filesystem::exists(std::string(candidate) + "/initdb") &&
        std::filesystem::exists(std::string(candidate) + "/pg_ctl")) {
      return candidate;
    }
  }
  return "";
}

int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    socklen_t len = sizeof(addr);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

// argv run as the postgres user when we are root (initdb refuses root).
std::vector<std::string> AsServerUser(std::vector<std::string> argv) {
  if (geteuid() != 0) return argv;
  std::vector<std::string> wrapped = {"/usr/sbin/runuser", "-u", "postgres", "--"};
  wrapped.insert(wrapped.end(), argv.begin(), argv.end());
  return wrapped;
}

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
  const std::string bin = BinDir();
  if (bin.empty()) return Status::NotFound("PostgreSQL is not installed here (no initdb / pg_ctl): skipped");
  if (geteuid() == 0 && getpwnam("postgres") == nullptr) {
    return Status::NotFound("running as root without a postgres user to run initdb as: skipped");
  }
  char pattern[] = "/tmp/floe-pg-XXXXXX";
  if (mkdtemp(pattern) == nullptr) return Status::IOError("mkdtemp failed");
  root_ = pattern;
  if (geteuid() == 0) {
    const passwd* pw = getpwnam("postgres");
    if (chown(root_.c_str(), pw->pw_uid, pw->pw_gid) != 0) return Status::IOError("chown " + root_ + " failed");
  }
  owner_pid_ = getpid();
  auto init = floe::testing::RunProcess(AsServerUser({bin + "/initdb", "-D", root_ + "/data", "-U", "floe",
                                                      "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8",
                                                      "--no-sync"}),
                                         {}, root_);
  if (init.exit_code != 0) return Status::IOError("initdb failed: " + init.err);
  for (int attempt = 0; attempt < 5; ++attempt) {
    port_ = FreePort();
    // fsync off: the tests check the catalog's logic, not the disk's.
    const std::string options = StrCat("-c listen_addresses=127.0.0.1 -p ", port_, " -k ", root_,
                                       " -c fsync=off -c full_page_writes=off -c max_connections=200");
    auto start = floe::testing::RunProcess(
        AsServerUser({bin + "/pg_ctl", "-D", root_ + "/data", "-l", root_ + "/log", "-w", "-t", "30", "-o", options,
                      "start"}),
        {}, root_);
    if (start.exit_code == 0) return Status::OK();
  }
  return Status::IOError("pg_ctl start failed; see " + root_ + "/log");
}

void PostgresTestServer::Stop() {
  const std::string bin = BinDir();
  // From inside the folder: the postgres user may not enter the test's cwd.
  floe::testing::RunProcess(AsServerUser({bin + "/pg_ctl", "-D", root_ + "/data", "-m", "immediate", "-w", "stop"}),
                            {}, root_);
  std::error_code ec;
  std::filesystem::remove_all(root_, ec);
}

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
