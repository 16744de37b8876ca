// BatchPrinter: record batches as a text table, CSV, JSON or JSON Lines, the
// result formats of the CLI's --format option.
//
// Formats:
//   table  aligned columns between +---+ borders, header row, numbers right-
//          aligned, "NULL" for null, then "N rows". Cells and headers wider
//          than max_cell_width characters (code points) are cut, ending in
//          "…". Control characters are shown escaped (\n, \t, \r, \x1b,
//          \u0085) and invalid UTF-8 as U+FFFD, so a cell can neither break
//          the layout nor drive the terminal. Rows are printed in groups of
//          table_group_rows (as psql's FETCH_COUNT does), so a long result
//          starts at once and takes bounded memory: a group's columns are as
//          wide as the header, its widest cell and every earlier group's,
//          and a border line marks where they widen.
//   csv    RFC 4180: a header line, fields holding a comma, quote, CR or LF
//          quoted with quotes doubled; lines end in LF. A null is an empty
//          field and an empty string is "" (as PostgreSQL's CSV does), so the
//          two stay apart. Bytes are written as they are.
//   json   one JSON array of row objects, one row per line.
//   jsonl  one JSON object per line (JSON Lines).
// Values, in every format: integers in decimal; floats in their shortest
// round-trip form, NaN/Infinity/-Infinity as words (JSON strings in json and
// jsonl); decimals exact with their scale ("-0.05"); date32 "YYYY-MM-DD"
// (proleptic Gregorian, year 0 = 1 BC, "-0044-03-15"); time64
// "HH:MM:SS.ffffff" (9 digits for nanos); timestamp
// "YYYY-MM-DDTHH:MM:SS.ffffff", ending in "+00:00" when it has a zone (the
// value is a UTC instant); uuid "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"; binary
// and fixed_size_binary as lowercase hex without prefix ("00ff"; a JSON
// string in json); bool true/false; a dictionary-encoded value as the value
// it refers to (null when that is null). Nested values are JSON: lists arrays,
// structs objects, maps objects when their keys are strings and otherwise
// arrays of {"key":..,"value":..}; in table and csv cells as compact JSON
// text. JSON-text fields (data_type.h: IsJsonTextField), such as the
// variants `floe parquet cat` prints, are embedded as JSON at any depth (as
// a JSON string when a value is not valid JSON); table and csv print a
// top-level one's text as it is. JSON output escapes per RFC 8259 and replaces invalid UTF-8 with
// U+FFFD, so it is always valid JSON.
//
// Thread safety: a BatchPrinter is used by one thread at a time.

#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"

namespace floe {

enum class OutputFormat : uint8_t { kTable, kCsv, kJson, kJsonl };

// "table", "csv", "json" or "jsonl"; InvalidArgument naming the value otherwise.
Result<OutputFormat> ParseOutputFormat(std::string_view name);
std::string_view OutputFormatName(OutputFormat format);

struct PrintOptions {
  OutputFormat format = OutputFormat::kTable;
  // table only: the widest cell or header, in characters; 0 or less: no limit.
  int max_cell_width = 40;
  // table only: rows kept before they are printed; 0 or less: every row,
  // the table printed at Finish() with one width per column.
  int64_t table_group_rows = 10000;
};

class BatchPrinter {
 public:
  // Prints batches of `schema` to `out`, which must outlive the printer.
  BatchPrinter(std::ostream& out, std::shared_ptr<const Schema> schema, PrintOptions options = {});

  // Prints the rows of `batch` (table: keeps them until a group is full).
  // InvalidArgument when the batch's column types differ from the schema's;
  // IOError when the stream fails.
  Status Write(const RecordBatch& batch);
  // Ends the output: the table's last rows and its footer, JSON's closing
  // bracket. Call once, after the last Write(). IOError when the stream
  // fails.
  Status Finish();

 private:
  // Prints the kept rows (with the header first, and the bottom border and
  // row count when `last`) and forgets them.
  void WriteTableRows(bool last);

  std::ostream& out_;
  std::shared_ptr<const Schema> schema_;
  PrintOptions options_;
  std::vector<bool> is_json_text_;  // per column: IsJsonTextField
  bool header_written_ = false;
  int64_t rows_ = 0;
  std::vector<std::vector<std::string>> table_rows_;  // table only: cells, display-ready
  std::vector<int64_t> table_widths_;                 // table only: the widths printed so far; empty before
};

// Prints every batch of `reader`, then finishes. The reader's error, or the
// printer's.
Status PrintBatches(RecordBatchReader& reader, std::ostream& out, PrintOptions options = {});

// The printed form of `batches` as a string. InvalidArgument as Write().
Result<std::string> FormatBatches(std::shared_ptr<const Schema> schema, std::span<const RecordBatch> batches,
                                  PrintOptions options = {});

}  // namespace floe
