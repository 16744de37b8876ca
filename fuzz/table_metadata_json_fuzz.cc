// Fuzzes the readers of the JSON floe loads from storage (seeds: Iceberg
// metadata files from ../shared/fixtures): table metadata, view metadata and
// the name mapping a table's properties carry. Metadata that parses must
// serialize, and the written JSON must parse back to an equal model: reading
// and writing agree on every field. A refusal must be Corrupt or
// Unsupported (InvalidArgument for a name mapping, a property's value).

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "floe/iceberg/name_mapping.h"
#include "floe/iceberg/table_metadata_json.h"
#include "floe/iceberg/view_metadata_json.h"

namespace {

void CheckRefusal(const floe::Status& s) {
  if (s.IsCorrupt() || s.IsUnsupported()) return;
  std::abort();  // any other kind is a bug
}

void FuzzTableMetadata(std::string_view json) {
  auto metadata = floe::iceberg::TableMetadataFromJson(json, "fuzz.metadata.json");
  if (!metadata.ok()) {
    CheckRefusal(metadata.status());
    return;
  }
  auto written = floe::iceberg::TableMetadataToJson(*metadata);
  if (!written.ok()) std::abort();
  auto again = floe::iceberg::TableMetadataFromJson(*written, "rewritten");
  if (!again.ok() || !(*again == *metadata)) std::abort();
}

void FuzzViewMetadata(std::string_view json) {
  auto metadata = floe::iceberg::ViewMetadataFromJson(json, "fuzz.metadata.json");
  if (!metadata.ok()) {
    CheckRefusal(metadata.status());
    return;
  }
  auto written = floe::iceberg::ViewMetadataToJson(*metadata);
  if (!written.ok()) std::abort();
  auto again = floe::iceberg::ViewMetadataFromJson(*written, "rewritten");
  if (!again.ok() || !(*again == *metadata)) std::abort();
}

void FuzzNameMapping(std::string_view json) {
  auto mapping = floe::iceberg::ParseNameMapping(json);
  if (!mapping.ok() && !mapping.status().IsInvalidArgument()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  FuzzTableMetadata(json);
  FuzzViewMetadata(json);
  FuzzNameMapping(json);
  return 0;
}
