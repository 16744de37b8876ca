#include "floe/iceberg/view_metadata_io.h"

#include <cstdio>

#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/view_metadata_json.h"

namespace floe::iceberg {

Result<ViewMetadata> ReadViewMetadata(FileIO& io, const std::string& location) {
  FLOE_ASSIGN_OR_RETURN(FileInfo info, io.Stat(location));
  if (info.size > kMaxMetadataFileBytes) {
    return Status::Unsupported(StrCat("view metadata ", Quote(location), " is ", info.size, " bytes, over the limit"));
  }
  FLOE_ASSIGN_OR_RETURN(Buffer bytes, io.ReadAll(location));
  return ViewMetadataFromJson(bytes.view(), location);
}

Status WriteViewMetadata(FileIO& io, const std::string& location, const ViewMetadata& metadata) {
  FLOE_ASSIGN_OR_RETURN(std::string json, ViewMetadataToJson(metadata));
  return io.PutIfAbsent(location, json);
}

std::string NewViewMetadataFileLocation(const ViewMetadata& metadata, int version) {
  char number[16];
  std::snprintf(number, sizeof(number), "%05d", version);
  return StrCat(JoinLocation(JoinLocation(metadata.location, "metadata"), number), "-", RandomUuid(),
                ".metadata.json");
}

}  // namespace floe::iceberg
