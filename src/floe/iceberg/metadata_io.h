// Reading and writing table metadata files through FileIO (spec: "Table
// Metadata"; Java's file naming for compressed metadata).
//
// Compression is detected from the bytes when reading (the gzip magic
// 1f 8b), so `v1.gz.metadata.json`, `*.metadata.json.gz` and misnamed files
// all read; when writing it follows the name: a location ending in
// `.gz.metadata.json` or `.metadata.json.gz` is written gzip-compressed.
//
// Thread safety: as the FileIO passed in (every FileIO may be shared).

#pragma once

#include <cstdint>
#include <string>

#include "floe/base/result.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/io/file_io.h"

namespace floe::iceberg {

enum class MetadataCompression : uint8_t { kNone, kGzip };

// The compression a metadata location's name asks for.
MetadataCompression MetadataCompressionForLocation(std::string_view location);

// The largest metadata file (after decompression) floe reads: a table with
// very long histories stays far below it.
inline constexpr int64_t kMaxMetadataFileBytes = int64_t{1} << 30;

// Reads, decompresses if needed, parses and validates one metadata file.
// Errors: the FileIO's (NotFound, IOError, PermissionDenied); Corrupt naming
// the location for bad gzip or bad metadata; Unsupported for format version
// > 3 or a file larger than kMaxMetadataFileBytes.
Result<TableMetadata> ReadTableMetadata(FileIO& io, const std::string& location);

struct WriteMetadataOptions {
  // Fail with AlreadyExists rather than replace an existing file (commits
  // publish new metadata files this way).
  bool if_absent = true;
  bool durable = true;
  bool pretty = false;
};

// Serializes `metadata` (compressed per the location's name) and writes it
// as one object. InvalidArgument when the metadata does not validate;
// AlreadyExists (with if_absent) or the FileIO's errors otherwise.
Status WriteTableMetadata(FileIO& io, const std::string& location, const TableMetadata& metadata,
                          const WriteMetadataOptions& options = {});

}  // namespace floe::iceberg
