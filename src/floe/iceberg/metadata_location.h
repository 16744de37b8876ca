// Naming new metadata files and keeping the metadata log, as Java's
// BaseMetastoreTableOperations and TableMetadata.Builder do, so that floe,
// Java and PyIceberg writers of one table agree on file names and history.
//
// A commit's metadata file is
//   <table location>/metadata/<version, 5 digits>-<random uuid>.metadata.json
// (`write.metadata.path` replaces the folder; `write.metadata.compression-codec`
// = gzip names it `.gz.metadata.json`). The version is the previous file's
// plus one, parsed from its name; a create writes version 0.
//
// Thread safety: pure functions (RandomUuid is thread-safe).

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

// The version in a metadata file name: the digits between the last '/' and
// the next '-' ("s3://b/t/metadata/00042-<uuid>.metadata.json" → 42), or -1
// when the name has no such number (a file not named by a catalog, e.g.
// "v3.metadata.json").
int ParseMetadataFileVersion(std::string_view metadata_location);

// A fresh location for version `version` of `metadata`, per the naming above.
// InvalidArgument when `write.metadata.compression-codec` is neither none
// nor gzip, or the table has no location.
Result<std::string> NewMetadataFileLocation(const TableMetadata& metadata, int version);

// The metadata to publish as the successor of the file `base_location`
// holding `base`: `updated` with a metadata-log entry for the base (at the
// base's last-updated-ms), the oldest entries dropped so that at most
// `write.metadata.previous-versions-max` (of `updated`, at least 1) remain.
// `updated` must not carry that entry yet. InvalidArgument when the
// property is not an integer.
Result<TableMetadata> WithPreviousMetadataFile(TableMetadata updated, const TableMetadata& base,
                                               const std::string& base_location);

// The metadata files a commit from `base` to `published` may delete: those
// in base's metadata log that are no longer in published's, when
// `write.metadata.delete-after-commit.enabled` is true in `published`;
// none otherwise.
std::vector<std::string> MetadataFilesToDelete(const TableMetadata& base, const TableMetadata& published);

}  // namespace floe::iceberg
