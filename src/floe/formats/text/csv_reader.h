// CSV and JSON-lines files as batches of text columns — the input side of
// `floe table append` for files that carry no types. A caller that knows the
// target schema parses the text (Iceberg does it with Literal::Parse).
//
// CSV (RFC 4180): a header row names the columns; fields separated by the
// delimiter, optionally "quoted" with "" for a quote, quoted fields may hold
// delimiters and line breaks; LF or CRLF line ends; a UTF-8 byte order mark
// is skipped. An empty unquoted field is null; "" (quoted empty) is an
// empty string.
//
// JSON lines: one JSON object per line (blank lines skipped); the columns
// are the union of the keys in order of first appearance; scalars become
// their text (strings unquoted, true/false; integers exactly, other numbers
// as the shortest text that reads back as the same double), JSON null
// and absent keys are null, objects and arrays their compact JSON text.
//
// Thread safety: a reader is used by one thread at a time.

#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"
#include "floe/io/file_io.h"

namespace floe::text {

struct CsvOptions {
  char delimiter = ',';
  int64_t batch_rows = 64 * 1024;
};

// Reads the whole file through `io` and returns a reader of its rows as
// utf8 columns. Corrupt, naming the file and line, for an unterminated
// quote, a row with more fields than the header, a duplicate or empty
// header name; fewer fields than the header fill nulls.
Result<std::unique_ptr<RecordBatchReader>> OpenCsv(FileIO& io, const std::string& path, CsvOptions options = {});

// As OpenCsv, for JSON lines. Corrupt, naming the file and line, for a line
// that is not a JSON object.
Result<std::unique_ptr<RecordBatchReader>> OpenJsonLines(FileIO& io, const std::string& path,
                                                         int64_t batch_rows = 64 * 1024);

}  // namespace floe::text
