// Input files for `floe table append|overwrite`: CSV with a header, JSON
// lines and Parquet, read as batches of a table's write schema.
//
// Columns are matched by name, case-insensitively (Parquet too: field ids
// of a file written for another table mean other columns). Text values are
// parsed as the column's Iceberg type (Literal::Parse: dates, timestamps,
// exact decimals...); an empty CSV field is null. A table column the file
// lacks is null, a required one an error; a file column the table lacks is
// an error (one line naming it).
//
// Thread safety: a source is used by one thread.

#pragma once

#include <memory>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"
#include "floe/iceberg/schema.h"
#include "floe/iceberg/table.h"
#include "floe/io/file_io.h"

namespace floe::cli {

// The rows of every file in `paths`, one after another, as batches of
// `columnar` (ToColumnarSchema(schema)). The format is picked by extension:
// .csv, .jsonl/.ndjson/.json, .parquet; InvalidArgument for others.
// `io_for` gives the FileIO of each path.
Result<iceberg::BatchSource> OpenRowInput(const std::vector<std::string>& paths, const iceberg::Schema& schema,
                                          std::shared_ptr<const Schema> columnar,
                                          std::function<Result<std::shared_ptr<FileIO>>(const std::string&)> io_for);

// A batch of text columns (as CSV and JSON lines give them) as `columnar`
// rows. `source` names the file and `first_row` the number of the batch's
// first row in it (1-based, header not counted) in errors.
Result<RecordBatch> TypeTextBatch(const RecordBatch& text, const iceberg::Schema& schema,
                                  const std::shared_ptr<const Schema>& columnar, const std::string& source,
                                  int64_t first_row = 1);

}  // namespace floe::cli
