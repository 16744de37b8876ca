#include "floe/iceberg/metadata_location.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <set>

#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/iceberg/table_properties.h"
#include "floe/io/file_io.h"

namespace floe::iceberg {

int ParseMetadataFileVersion(std::string_view metadata_location) {
  const size_t slash = metadata_location.rfind('/');
  const size_t start = slash == std::string_view::npos ? 0 : slash + 1;
  const size_t dash = metadata_location.find('-', start);
  if (dash == std::string_view::npos || dash == start) return -1;
  int version = -1;
  auto [end, ec] = std::from_chars(metadata_location.data() + start, metadata_location.data() + dash, version);
  if (ec != std::errc() || end != metadata_location.data() + dash || version < 0) return -1;
  return version;
}

Result<std::string> NewMetadataFileLocation(const TableMetadata& metadata, int version) {
  std::string codec(kMetadataCompressionDefault);
  if (auto it = metadata.properties.find(std::string(kMetadataCompression)); it != metadata.properties.end()) {
    codec = it->second;
  }
  std::string extension;
  if (EqualsIgnoreCase(codec, "none")) {
    extension = ".metadata.json";
  } else if (EqualsIgnoreCase(codec, "gzip")) {
    extension = ".gz.metadata.json";
  } else {
    return Status::InvalidArgument(
        StrCat("table property ", Quote(kMetadataCompression), " is ", Quote(codec), " (expected none or gzip)"));
  }
  std::string folder;
  if (auto it = metadata.properties.find(std::string(kWriteMetadataPath));
      it != metadata.properties.end() && !it->second.empty()) {
    folder = it->second;
  } else {
    if (metadata.location.empty()) return Status::InvalidArgument("table metadata has no location");
    folder = JoinLocation(metadata.location, "metadata");
  }
  char digits[16];
  std::snprintf(digits, sizeof(digits), "%05d", version < 0 ? 0 : version);
  return JoinLocation(folder, StrCat(digits, "-", RandomUuid(), extension));
}

Result<TableMetadata> WithPreviousMetadataFile(TableMetadata updated, const TableMetadata& base,
                                               const std::string& base_location) {
  FLOE_ASSIGN_OR_RETURN(int32_t max_entries, IntProperty(updated.properties, kMetadataPreviousVersionsMax,
                                                         kMetadataPreviousVersionsMaxDefault));
  // Java keeps at least one entry whatever the property says.
  const size_t keep = static_cast<size_t>(std::max(1, max_entries));
  std::vector<MetadataLogEntry>& log = updated.metadata_log;
  log.push_back(MetadataLogEntry{base.last_updated_ms, base_location});
  if (log.size() > keep) log.erase(log.begin(), log.end() - static_cast<std::ptrdiff_t>(keep));
  return updated;
}

std::vector<std::string> MetadataFilesToDelete(const TableMetadata& base, const TableMetadata& published) {
  std::vector<std::string> removed;
  if (!BoolProperty(published.properties, kMetadataDeleteAfterCommit, kMetadataDeleteAfterCommitDefault)) {
    return removed;
  }
  std::set<std::string> kept;
  for (const MetadataLogEntry& entry : published.metadata_log) kept.insert(entry.metadata_file);
  for (const MetadataLogEntry& entry : base.metadata_log) {
    if (!kept.contains(entry.metadata_file)) removed.push_back(entry.metadata_file);
  }
  return removed;
}

}  // namespace floe::iceberg
