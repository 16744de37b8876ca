// Position delete files (spec: "Position Delete Files"): Parquet files of
// rows (file_path, pos) naming deleted rows by their data file and 0-based
// position, with the reserved field ids 2147483546 (file_path) and
// 2147483545 (pos), sorted by file path then position.
//
// floe writes them at file granularity, as Java's default
// (`write.delete.granularity=file`): one delete file per data file, in the
// data file's partition, with `referenced_data_file` set, so a later
// rewrite of that data file can drop its deletes with it.
//
// Thread safety: free functions; no shared state.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/deletion_vector.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/schema.h"
#include "floe/io/file_io.h"

namespace floe::iceberg {

// spec: the reserved field ids of position delete files' columns.
inline constexpr int32_t kPositionDeleteFilePathId = 2147483546;
inline constexpr int32_t kPositionDeletePosId = 2147483545;

// The schema of a position delete file: required string file_path, required long pos.
const Schema& PositionDeleteSchema();

// Writes a position delete file at `path` naming `positions` (ascending,
// distinct, non-negative) of `data_file`, and returns its delete-file
// entry: content position deletes, format PARQUET, the data file's spec id
// and partition, referenced_data_file, record_count, size and column
// metrics. InvalidArgument for no positions or positions out of order;
// FileIO and Parquet errors otherwise (nothing is published then).
Result<DataFile> WritePositionDeleteFile(std::shared_ptr<FileIO> io, const std::string& path,
                                         const DataFile& data_file, const std::vector<int64_t>& positions);

// The positions `delete_file` (a Parquet position delete file) deletes from
// the data file at `data_file_path`. Corrupt when the file lacks the
// spec's columns; FileIO and Parquet errors otherwise.
Result<DeletionVector> ReadPositionDeletes(std::shared_ptr<FileIO> io, const DataFile& delete_file,
                                           const std::string& data_file_path);

}  // namespace floe::iceberg
