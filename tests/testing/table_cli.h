// The fixture of the tests that run `floe namespace|table ...` as a user
// does: a warehouse with the default SQLite catalog in a temporary folder,
// the floe binary run in it, and readers of what the commands print.

#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/iceberg/table_metadata.h"
#include "testing/run_process.h"
#include "testing/temp_dir.h"

namespace floe::testing {

// A CSV document as rows of fields, header included (RFC 4180 quotes, as
// `--format csv` writes them).
std::vector<std::vector<std::string>> ParseCsv(const std::string& text);

// The lines of `out` after its header line, sorted and joined, each ending
// in "\n" (scans return files in no set order).
std::string SortedRows(const std::string& out);

class TableCliTest : public ::testing::Test {
 protected:
  // One row of `floe table snapshots`.
  struct SnapshotRow {
    int64_t id = 0;
    std::optional<int64_t> parent;
    std::string committed_at;
    std::string operation;
    std::string summary;  // "k=v, k=v"
  };

  // floe `args` in the test's folder (warehouse ./warehouse), no FLOE_* of
  // the caller's environment.
  ProcessResult Floe(std::vector<std::string> args);
  // Expects exit 0; stdout.
  std::string Ok(std::vector<std::string> args);
  // Ok with --format csv, parsed, without the header row.
  std::vector<std::vector<std::string>> CsvRows(std::vector<std::string> args);
  // Expects a user error: exit 1, nothing on stdout, one line on stderr
  // "floe: <kind>: ..." containing `message`. Returns stderr.
  std::string ExpectUserError(std::vector<std::string> args, const std::string& message);
  // ExpectUserError(command + options, message) for each (options, message).
  using ErrorCases = std::vector<std::pair<std::vector<std::string>, std::string>>;
  void ExpectUserErrors(const std::vector<std::string>& command, const ErrorCases& cases);

  // Writes `text` to `name` in the test's folder.
  void Write(const std::string& name, const std::string& text);
  std::string Path(const std::string& name) const { return dir_.Join(name); }

  // `floe table snapshots`, oldest first.
  std::vector<SnapshotRow> Snapshots(const std::string& table);
  // `floe table scan TABLE --count` (with `extra` arguments).
  int64_t Count(const std::string& table, std::vector<std::string> extra = {});
  // The table's current metadata file, as `floe table describe` names it:
  // unchanged by a command that failed.
  std::string MetadataLocation(const std::string& table);
  // That file, read by floe's metadata reader.
  iceberg::TableMetadata Metadata(const std::string& table);

  TempDir dir_;
};

}  // namespace floe::testing
