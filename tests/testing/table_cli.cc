#include "testing/table_cli.h"

#include <algorithm>
#include <fstream>

#include "floe/iceberg/metadata_io.h"
#include "floe/io/file_io.h"

namespace floe::testing {
namespace {

// The arguments as a failure message shows them.
std::string CommandLine(const std::vector<std::string>& args) {
  std::string line = "floe";
  for (const auto& a : args) line += " " + a;
  return line;
}

}  // namespace

std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
    } else {
      field += c;
    }
  }
  if (!field.empty() || !row.empty()) {
    row.push_back(std::move(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string SortedRows(const std::string& out) {
  std::vector<std::string> lines;
  size_t start = out.find('\n') + 1;
  while (start > 0 && start < out.size()) {
    const size_t end = out.find('\n', start);
    lines.push_back(out.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::sort(lines.begin(), lines.end());
  std::string joined;
  for (const auto& l : lines) joined += l + "\n";
  return joined;
}

ProcessResult TableCliTest::Floe(std::vector<std::string> args) { return RunFloe(args, kCleanEnv, dir_.path()); }

std::string TableCliTest::Ok(std::vector<std::string> args) {
  auto r = Floe(args);
  EXPECT_EQ(r.exit_code, 0) << CommandLine(args) << ": " << r.err;
  return r.out;
}

std::vector<std::vector<std::string>> TableCliTest::CsvRows(std::vector<std::string> args) {
  args.insert(args.begin(), {"--format", "csv"});
  auto rows = ParseCsv(Ok(args));
  if (!rows.empty()) rows.erase(rows.begin());
  return rows;
}

std::string TableCliTest::ExpectUserError(std::vector<std::string> args, const std::string& message) {
  auto r = Floe(args);
  EXPECT_EQ(r.exit_code, 1) << CommandLine(args);
  EXPECT_EQ(r.out, "") << CommandLine(args);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("floe: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << CommandLine(args) << ": " << r.err;
  return r.err;
}

void TableCliTest::ExpectUserErrors(const std::vector<std::string>& command, const ErrorCases& cases) {
  for (const auto& [options, message] : cases) {
    std::vector<std::string> args = command;
    args.insert(args.end(), options.begin(), options.end());
    ExpectUserError(args, message);
  }
}

void TableCliTest::Write(const std::string& name, const std::string& text) { std::ofstream(dir_.Join(name)) << text; }

std::vector<TableCliTest::SnapshotRow> TableCliTest::Snapshots(const std::string& table) {
  std::vector<SnapshotRow> out;
  for (const auto& row : CsvRows({"table", "snapshots", table})) {
    EXPECT_EQ(row.size(), 8u);
    if (row.size() != 8) continue;
    SnapshotRow s;
    s.id = std::stoll(row[0]);
    if (!row[1].empty()) s.parent = std::stoll(row[1]);
    s.committed_at = row[3];
    s.operation = row[4];
    s.summary = row[7];
    out.push_back(std::move(s));
  }
  return out;
}

int64_t TableCliTest::Count(const std::string& table, std::vector<std::string> extra) {
  std::vector<std::string> args = {"table", "scan", table, "--count"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = Floe(args);
  EXPECT_EQ(r.exit_code, 0) << CommandLine(args) << ": " << r.err;
  return r.exit_code == 0 ? std::stoll(r.out) : -1;
}

std::string TableCliTest::MetadataLocation(const std::string& table) {
  const std::string out = Ok({"table", "describe", table});
  const size_t at = out.find("\nmetadata: ");
  EXPECT_NE(at, std::string::npos) << out;
  if (at == std::string::npos) return "";
  const size_t start = at + 11;
  return out.substr(start, out.find('\n', start) - start);
}

iceberg::TableMetadata TableCliTest::Metadata(const std::string& table) {
  const std::string location = MetadataLocation(table);
  auto io = FileIOForLocation(location);
  EXPECT_TRUE(io.ok()) << io.status().ToString();
  if (!io.ok()) return {};
  auto metadata = iceberg::ReadTableMetadata(**io, location);
  EXPECT_TRUE(metadata.ok()) << metadata.status().ToString();
  return metadata.ok() ? std::move(metadata).value() : iceberg::TableMetadata{};
}

}  // namespace floe::testing
