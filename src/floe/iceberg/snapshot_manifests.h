// SnapshotManifests: the manifests a snapshot names, from its manifest list
// or, for a v1 snapshot written without one, from its inline `manifests`
// (spec, v1 snapshot field "manifests": "A list of manifest file
// locations. Must be omitted if manifest-list is present").
//
// Inline manifests carry nothing a manifest list would: each reads as a
// data manifest of `snapshot` (added_snapshot_id is the listing snapshot,
// as Java's BaseSnapshot builds them), sequence number 0, and the spec id
// its own Avro metadata names ("partition-spec-id"; 0 when absent). Their
// counts and partition summaries are unknown (unset), so no manifest is
// pruned by them; which snapshot added an entry is the entry's own
// snapshot_id (required in v1 manifests).
//
// Errors: the manifest list's (ReadManifestList), or for inline manifests
// the FileIO's and Corrupt for a malformed 'partition-spec-id'. A snapshot
// with neither reads as no manifests. Thread safety: a pure function of
// the files it reads.

#pragma once

#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/manifest_file.h"
#include "floe/iceberg/snapshot.h"
#include "floe/io/file_io.h"

namespace floe::iceberg {

Result<std::vector<ManifestFile>> SnapshotManifests(FileIO& io, const Snapshot& snapshot);

}  // namespace floe::iceberg
