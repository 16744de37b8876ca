#include "floe/iceberg/snapshot_manifests.h"

#include <cstdint>

#include "floe/base/strings.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"

namespace floe::iceberg {

Result<std::vector<ManifestFile>> SnapshotManifests(FileIO& io, const Snapshot& snapshot) {
  if (!snapshot.manifest_list.empty()) return ReadManifestList(io, snapshot.manifest_list);
  std::vector<ManifestFile> manifests;
  manifests.reserve(snapshot.manifests.size());
  for (const std::string& path : snapshot.manifests) {
    ManifestFile manifest;
    manifest.manifest_path = path;
    manifest.added_snapshot_id = snapshot.snapshot_id;
    FLOE_ASSIGN_OR_RETURN(auto reader, ManifestReader::Open(io, manifest));
    if (const std::string* spec_id = reader->FindMetadata("partition-spec-id")) {
      int64_t id = 0;
      if (!ParseInt64(*spec_id, &id) || id < 0 || id > INT32_MAX) {
        return Status::Corrupt(StrCat("manifest ", Quote(path), ": metadata 'partition-spec-id' is ", Quote(*spec_id)));
      }
      manifest.partition_spec_id = static_cast<int32_t>(id);
    }
    manifests.push_back(std::move(manifest));
  }
  return manifests;
}

}  // namespace floe::iceberg
