// Reading and writing view metadata files through FileIO (plain JSON, as
// Java writes them), and naming a view's next metadata file as tables'
// are named: <location>/metadata/<NNNNN>-<uuid>.metadata.json.
//
// Thread safety: free functions.

#pragma once

#include <string>

#include "floe/base/result.h"
#include "floe/iceberg/view_metadata.h"
#include "floe/io/file_io.h"

namespace floe::iceberg {

// Reads, parses and validates one view metadata file. The FileIO's errors;
// Corrupt naming the location; Unsupported for a file over
// kMaxMetadataFileBytes or a format version above 1.
Result<ViewMetadata> ReadViewMetadata(FileIO& io, const std::string& location);

// Writes `metadata` as a new file (put-if-absent: AlreadyExists when the
// name is taken). Corrupt when it does not validate; the FileIO's errors.
Status WriteViewMetadata(FileIO& io, const std::string& location, const ViewMetadata& metadata);

// The location of version `version` of a view's metadata file.
std::string NewViewMetadataFileLocation(const ViewMetadata& metadata, int version);

}  // namespace floe::iceberg
