#include "floe/catalog/postgres.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cstring>

#include "floe/base/hex.h"
#include "floe/base/strings.h"
#include "floe/catalog/catalog_uri.h"

namespace floe::catalog {
namespace {

// pg_type.h's OID of text: every parameter is sent as text, so the server
// never has to guess a type (length(?) would be ambiguous otherwise).
constexpr Oid kTextOid = 25;

// The advisory lock key of the catalog's write lock: "floe" in ASCII.
constexpr std::string_view kCatalogLockSql = "SELECT pg_advisory_xact_lock(1718382437)";

std::string PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && HexDigitValue(s[i + 1]) >= 0 && HexDigitValue(s[i + 2]) >= 0) {
      out += static_cast<char>(HexDigitValue(s[i + 1]) * 16 + HexDigitValue(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The parts of scheme://[userinfo@]rest that redaction needs. libpq ends the
// user info at the first '@' before any '/' (a password with '@' or '/' is
// percent-encoded).
struct UriParts {
  std::string_view prefix;    // "scheme://"
  std::string_view user;      // before ':' in the user info
  std::string_view password;  // after it; empty when none
  bool has_userinfo = false;
  std::string_view rest;      // host, port, path and query
};

bool SplitUri(std::string_view uri, UriParts* parts) {
  const size_t scheme_end = uri.find("://");
  if (scheme_end == std::string_view::npos) return false;
  parts->prefix = uri.substr(0, scheme_end + 3);
  std::string_view after = uri.substr(scheme_end + 3);
  const size_t stop = after.find_first_of("@/");
  if (stop != std::string_view::npos && after[stop] == '@') {
    parts->has_userinfo = true;
    std::string_view userinfo = after.substr(0, stop);
    const size_t colon = userinfo.find(':');
    parts->user = userinfo.substr(0, colon);
    if (colon != std::string_view::npos) parts->password = userinfo.substr(colon + 1);
    after.remove_prefix(stop + 1);
  }
  parts->rest = after;
  return true;
}

// `rest` without a password=... query parameter; the parameter's value in *password.
std::string WithoutPasswordParameter(std::string_view rest, std::string* password) {
  const size_t question = rest.find('?');
  if (question == std::string_view::npos) return std::string(rest);
  std::string out(rest.substr(0, question));
  char separator = '?';
  for (std::string_view param : Split(rest.substr(question + 1), '&')) {
    if (StartsWith(param, "password=")) {
      if (password != nullptr) *password = std::string(param.substr(9));
      continue;
    }
    out += separator;
    out += param;
    separator = '&';
  }
  return out;
}

}  // namespace

std::string RedactCatalogUri(std::string_view uri) {
  UriParts parts;
  if (!SplitUri(uri, &parts)) return std::string(uri);
  std::string out(parts.prefix);
  if (parts.has_userinfo) out += StrCat(parts.user, "@");
  out += WithoutPasswordParameter(parts.rest, nullptr);
  return out;
}

Result<PostgresUri> ParsePostgresUri(std::string_view uri) {
  std::string_view text = uri;
  if (StartsWith(text, "jdbc:")) text.remove_prefix(5);
  if (!StartsWith(text, "postgresql://") && !StartsWith(text, "postgres://")) {
    return Status::InvalidArgument(StrCat("catalog URI ", Quote(RedactCatalogUri(uri)),
                                          ": expected postgresql://[user[:password]@]host[:port]/database"));
  }
  PostgresUri out;
  out.conninfo = std::string(text);
  out.redacted = RedactCatalogUri(text);
  UriParts parts;
  SplitUri(text, &parts);
  std::string query_password;
  (void)WithoutPasswordParameter(parts.rest, &query_password);
  for (std::string_view secret : {parts.password, std::string_view(query_password)}) {
    if (secret.empty()) continue;
    out.secrets.emplace_back(secret);
    std::string decoded = PercentDecode(secret);
    if (decoded != secret) out.secrets.push_back(std::move(decoded));
  }
  return out;
}

namespace {

// Placeholders `?` → `$1`, `$2`, ... outside quoted text and identifiers.
std::string NumberPlaceholders(std::string_view sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int next = 1;
  char quote = 0;
  for (char c : sql) {
    if (quote != 0) {
      if (c == quote) quote = 0;
      out += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      out += c;
    } else if (c == '?') {
      out += StrCat("$", next++);
    } else {
      out += c;
    }
  }
  return out;
}

struct ResultCloser {
  void operator()(PGresult* result) const { PQclear(result); }
};
using ResultPtr = std::unique_ptr<PGresult, ResultCloser>;

Status StatusForSqlState(std::string_view state, std::string message) {
  if (state == "23505") return Status::AlreadyExists(std::move(message));
  if (StartsWith(state, "08") || StartsWith(state, "57P") || state == "55P03" || state == "57014" ||
      state == "40001" || state == "40P01" || StartsWith(state, "53")) {
    return Status::IOError(std::move(message));
  }
  if (StartsWith(state, "28") || state == "42501") return Status::PermissionDenied(std::move(message));
  if (StartsWith(state, "42")) return Status::Corrupt(std::move(message));
  return Status::Internal(std::move(message));
}

std::string TrimmedMessage(const char* text) {
  std::string message = text != nullptr ? text : "";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  for (char& c : message) {
    if (c == '\n') c = ' ';
  }
  return message;
}

class PostgresConnection final : public SqlConnection {
 public:
  PostgresConnection(const PostgresBackend* backend, PGconn* conn) : backend_(backend), conn_(conn) {}
  ~PostgresConnection() override { PQfinish(conn_); }

  Result<SqlRows> Query(std::string_view sql, const SqlParams& params) override {
    FLOE_ASSIGN_OR_RETURN(ResultPtr result, Run(sql, params));
    SqlRows rows;
    const int count = PQntuples(result.get());
    const int columns = PQnfields(result.get());
    for (int r = 0; r < count; ++r) {
      SqlRows::Row row(static_cast<size_t>(columns));
      for (int c = 0; c < columns; ++c) {
        if (PQgetisnull(result.get(), r, c)) continue;
        row[static_cast<size_t>(c)] =
            std::string(PQgetvalue(result.get(), r, c), static_cast<size_t>(PQgetlength(result.get(), r, c)));
      }
      rows.Add(std::move(row));
    }
    return rows;
  }

  Result<int64_t> Execute(std::string_view sql, const SqlParams& params) override {
    FLOE_ASSIGN_OR_RETURN(ResultPtr result, Run(sql, params));
    int64_t changed = 0;
    const char* tuples = PQcmdTuples(result.get());
    if (tuples != nullptr && *tuples != '\0') ParseInt64(tuples, &changed);
    return changed;
  }

  Status ExecScript(std::string_view sql) override {
    const std::string text(sql);
    ResultPtr result(PQexec(conn_, text.c_str()));
    return Check(result.get(), text).status();
  }

  Status Begin(SqlLock lock) override {
    FLOE_RETURN_IF_ERROR(ExecScript("BEGIN"));
    if (lock == SqlLock::kCatalog) {
      Status locked = ExecScript(kCatalogLockSql);
      if (!locked.ok()) {
        Rollback();
        return locked;
      }
    }
    return Status::OK();
  }

  Status Commit(bool* outcome_unknown) override {
    *outcome_unknown = false;
    ResultPtr result(PQexec(conn_, "COMMIT"));
    auto checked = Check(result.get(), "COMMIT");
    if (!checked.ok()) {
      // The server may have committed before the connection failed; a
      // COMMIT the server answered with an error (a deferred constraint)
      // rolled back.
      *outcome_unknown = broken_;
      if (!broken_) Rollback();
      return checked.status();
    }
    // COMMIT of a transaction that had failed answers ROLLBACK.
    if (std::strcmp(PQcmdStatus(result.get()), "COMMIT") != 0) {
      return Status::Internal(StrCat(backend_->description(), ": COMMIT: the transaction was rolled back"));
    }
    return Status::OK();
  }

  void Rollback() override {
    if (broken_ || PQtransactionStatus(conn_) == PQTRANS_IDLE) return;
    ResultPtr result(PQexec(conn_, "ROLLBACK"));
    if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) broken_ = true;
  }

  bool in_transaction() const override {
    const PGTransactionStatusType status = PQtransactionStatus(conn_);
    return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE;
  }
  bool broken() const override { return broken_ || PQstatus(conn_) != CONNECTION_OK; }

  Result<std::vector<std::string>> ColumnsOf(std::string_view table) override {
    FLOE_ASSIGN_OR_RETURN(SqlRows rows, Query("SELECT column_name FROM information_schema.columns WHERE table_schema = "
                                              "current_schema() AND table_name = ? ORDER BY ordinal_position",
                                              {std::string(table)}));
    std::vector<std::string> columns;
    for (size_t r = 0; r < rows.size(); ++r) columns.push_back(rows.Text(r, 0));
    return columns;
  }

 private:
  Result<ResultPtr> Run(std::string_view sql, const SqlParams& params) {
    if (broken()) return Status::IOError(StrCat(backend_->description(), ": the connection was lost"));
    const std::string text = NumberPlaceholders(sql);
    std::vector<const char*> values(params.size());
    std::vector<Oid> types(params.size(), kTextOid);
    for (size_t i = 0; i < params.size(); ++i) values[i] = params[i] ? params[i]->c_str() : nullptr;
    ResultPtr result(PQexecParams(conn_, text.c_str(), static_cast<int>(params.size()), types.data(), values.data(),
                                  nullptr, nullptr, 0));
    FLOE_RETURN_IF_ERROR(Check(result.get(), sql).status());
    return result;
  }

  // OK for a successful result; the mapped error otherwise (marking the
  // connection broken when it was lost).
  Result<bool> Check(PGresult* result, std::string_view sql) {
    const ExecStatusType status = result != nullptr ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return true;
    const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    std::string detail =
        TrimmedMessage(result != nullptr && *PQresultErrorMessage(result) != '\0' ? PQresultErrorMessage(result)
                                                                                  : PQerrorMessage(conn_));
    if (PQstatus(conn_) != CONNECTION_OK || state == nullptr || StartsWith(state, "08") ||
        StartsWith(state, "57P")) {
      broken_ = true;
    }
    std::string message =
        backend_->Scrub(StrCat(backend_->description(), ": executing ", sql.substr(0, 60), ": ", detail));
    if (broken_ && (state == nullptr || !StartsWith(state, "57P"))) {
      return Status::IOError(std::move(message) + " (the connection was lost)");
    }
    return StatusForSqlState(state != nullptr ? state : "08000", std::move(message));
  }

  const PostgresBackend* backend_;  // outlives its pool's connections
  PGconn* conn_;
  bool broken_ = false;
};

}  // namespace

PostgresBackend::PostgresBackend(PostgresUri uri, int lock_timeout_ms, size_t max_connections)
    : uri_(std::move(uri)),
      description_(StrCat("catalog database ", Quote(uri_.redacted))),
      lock_timeout_ms_(lock_timeout_ms),
      max_connections_(std::max<size_t>(1, max_connections)) {}

std::string PostgresBackend::Scrub(std::string message) const {
  for (const std::string& secret : uri_.secrets) {
    for (size_t at = message.find(secret); at != std::string::npos; at = message.find(secret, at + 3)) {
      message.replace(at, secret.size(), "***");
    }
  }
  return message;
}

Result<std::unique_ptr<SqlConnection>> PostgresBackend::Connect() {
  PGconn* conn = PQconnectdb(uri_.conninfo.c_str());
  if (conn == nullptr) return Status::Internal(StrCat(description_, ": connect: out of memory"));
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string detail = TrimmedMessage(PQerrorMessage(conn));
    PQfinish(conn);
    std::string message = Scrub(StrCat(description_, ": connect: ", detail));
    // libpq reports refused logins only as text.
    if (detail.find("authentication failed") != std::string::npos ||
        detail.find("no pg_hba.conf entry") != std::string::npos ||
        detail.find("password") != std::string::npos) {
      return Status::PermissionDenied(std::move(message));
    }
    if (detail.find("invalid") != std::string::npos) return Status::InvalidArgument(std::move(message));
    return Status::IOError(std::move(message));
  }
  auto connection = std::make_unique<PostgresConnection>(this, conn);
  // Catalog statements are short; a lock held longer than this is a stuck
  // writer, reported as IOError rather than waited for forever.
  FLOE_RETURN_IF_ERROR(connection->ExecScript(StrCat("SET lock_timeout = ", lock_timeout_ms_)));
  FLOE_RETURN_IF_ERROR(connection->ExecScript("SET client_min_messages = warning"));
  return std::unique_ptr<SqlConnection>(std::move(connection));
}

}  // namespace floe::catalog
