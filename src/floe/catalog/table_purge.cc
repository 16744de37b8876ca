#include "floe/catalog/table_purge.h"

#include <set>

namespace floe::catalog {

Status PurgeTableFiles(FileIO& io, const std::string& metadata_location, const iceberg::TableMetadata& metadata) {
  std::set<std::string> files;
  Status first;
  files.insert(metadata_location);
  for (const iceberg::MetadataLogEntry& entry : metadata.metadata_log) files.insert(entry.metadata_file);
  for (const iceberg::Snapshot& snapshot : metadata.snapshots) {
    if (!snapshot.manifest_list.empty()) files.insert(snapshot.manifest_list);
    files.insert(snapshot.manifests.begin(), snapshot.manifests.end());
  }
  for (const iceberg::StatisticsFile& f : metadata.statistics) files.insert(f.statistics_path);
  for (const iceberg::PartitionStatisticsFile& f : metadata.partition_statistics) files.insert(f.statistics_path);
  if (!metadata.location.empty()) {
    for (const char* folder : {"metadata/", "data/"}) {
      auto listed = io.ListAll(JoinLocation(metadata.location, folder));
      if (!listed.ok()) {
        if (first.ok()) first = listed.status();
        continue;
      }
      for (const FileInfo& info : *listed) files.insert(info.path);
    }
  }
  const std::vector<std::string> paths(files.begin(), files.end());
  Status deleted = io.DeleteMany(paths);
  return first.ok() ? deleted : first;
}

}  // namespace floe::catalog
