// AddManifestMetadata: the row a manifest list needs for a manifest known
// only by its path — a v1 snapshot's inline `manifests`, or a row of a v1
// manifest list written without counts — computed by reading the manifest
// (after Java's SnapshotProducer.addMetadata, which enriches a manifest
// without a snapshot id before it is written into a new manifest list).
//
// Filled in: manifest_length (FileIO::Stat when unknown), the file and row
// counts by entry status, the partition field summaries over every entry
// (live and deleted, as a manifest writer computes them), and
// added_snapshot_id: the snapshot of the first ADDED or DELETED entry, or
// the largest entry snapshot id when there is none (Java's rule). Path,
// spec id, content, sequence numbers, key metadata and first_row_id are
// kept as given.
//
// Errors: the FileIO's and ManifestReader's (NotFound, Corrupt naming the
// manifest). Thread safety: a pure function of the file it reads.

#pragma once

#include "floe/base/result.h"
#include "floe/iceberg/manifest_file.h"
#include "floe/io/file_io.h"

namespace floe::iceberg {

// Whether `manifest` lacks what a v2+ manifest list row requires (a
// length, the six counts), so AddManifestMetadata must read it first.
bool NeedsManifestMetadata(const ManifestFile& manifest);

Result<ManifestFile> AddManifestMetadata(FileIO& io, ManifestFile manifest);

}  // namespace floe::iceberg
