#include "floe/iceberg/manifest_metadata.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "floe/base/strings.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/partition_summary.h"

namespace floe::iceberg {

bool NeedsManifestMetadata(const ManifestFile& manifest) {
  return manifest.manifest_length <= 0 || !manifest.added_files_count || !manifest.existing_files_count ||
         !manifest.deleted_files_count || !manifest.added_rows_count || !manifest.existing_rows_count ||
         !manifest.deleted_rows_count;
}

Result<ManifestFile> AddManifestMetadata(FileIO& io, ManifestFile manifest) {
  if (manifest.manifest_length <= 0) {
    FLOE_ASSIGN_OR_RETURN(FileInfo info, io.Stat(manifest.manifest_path));
    manifest.manifest_length = info.size;
  }
  ManifestReaderOptions options;
  options.read_stats = false;
  FLOE_ASSIGN_OR_RETURN(auto reader, ManifestReader::Open(io, manifest, options));
  if (reader->partition_type() == nullptr) {
    return Status::Corrupt(StrCat("manifest ", Quote(manifest.manifest_path), " names no partition type"));
  }
  PartitionSummaryBuilder partitions(*reader->partition_type());
  int64_t files[3] = {0, 0, 0};  // by ManifestEntryStatus
  int64_t rows[3] = {0, 0, 0};
  std::optional<int64_t> changed_by;
  int64_t largest_snapshot_id = std::numeric_limits<int64_t>::min();
  ManifestEntry entry;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(&entry));
    if (!more) break;
    const auto status = static_cast<size_t>(entry.status);
    files[status] += 1;
    rows[status] += entry.data_file.record_count;
    const int64_t snapshot_id = entry.snapshot_id.value_or(manifest.added_snapshot_id);
    largest_snapshot_id = std::max(largest_snapshot_id, snapshot_id);
    if (!changed_by && entry.status != ManifestEntryStatus::kExisting) changed_by = snapshot_id;
    partitions.Update(entry.data_file.partition);
  }
  const auto count32 = [&](int64_t n, const char* what) -> Result<int32_t> {
    if (n > std::numeric_limits<int32_t>::max()) {
      return Status::Corrupt(StrCat("manifest ", Quote(manifest.manifest_path), " has ", n, " ", what));
    }
    return static_cast<int32_t>(n);
  };
  const auto status_index = [](ManifestEntryStatus s) { return static_cast<size_t>(s); };
  FLOE_ASSIGN_OR_RETURN(manifest.added_files_count,
                        count32(files[status_index(ManifestEntryStatus::kAdded)], "added files"));
  FLOE_ASSIGN_OR_RETURN(manifest.existing_files_count,
                        count32(files[status_index(ManifestEntryStatus::kExisting)], "existing files"));
  FLOE_ASSIGN_OR_RETURN(manifest.deleted_files_count,
                        count32(files[status_index(ManifestEntryStatus::kDeleted)], "deleted files"));
  manifest.added_rows_count = rows[status_index(ManifestEntryStatus::kAdded)];
  manifest.existing_rows_count = rows[status_index(ManifestEntryStatus::kExisting)];
  manifest.deleted_rows_count = rows[status_index(ManifestEntryStatus::kDeleted)];
  manifest.partitions = partitions.Summaries();
  if (changed_by) {
    manifest.added_snapshot_id = *changed_by;
  } else if (largest_snapshot_id != std::numeric_limits<int64_t>::min()) {
    manifest.added_snapshot_id = largest_snapshot_id;
  }
  return manifest;
}

}  // namespace floe::iceberg
