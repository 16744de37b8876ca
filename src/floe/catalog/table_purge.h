// Deleting a dropped table's files (DropTable with purge).
//
// floe cannot yet list a table's data files from its manifests, so it
// deletes what the metadata names — every metadata file (current and the
// metadata log), manifest lists, v1 inline manifests, statistics and
// partition statistics files — and every object under the default folders
// <location>/metadata/ and <location>/data/, which hold the manifests and
// data files of tables whose writers use the default layout. Files a table
// keeps elsewhere (write.data.path, object-store layout) are left.
//
// Thread safety: as the FileIO.

#pragma once

#include <string>

#include "floe/base/result.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/io/file_io.h"

namespace floe::catalog {

// Tries every deletion; returns the first error (listing or deleting).
Status PurgeTableFiles(FileIO& io, const std::string& metadata_location, const iceberg::TableMetadata& metadata);

}  // namespace floe::catalog
