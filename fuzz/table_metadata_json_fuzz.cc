// Fuzzes the table metadata JSON reader (seeds: Iceberg metadata files from
// ../shared/fixtures). Metadata that parses must serialize, and the written
// JSON must parse back to an equal model: reading and writing agree on every
// field.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "floe/iceberg/table_metadata_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  auto metadata = floe::iceberg::TableMetadataFromJson(json, "fuzz.metadata.json");
  if (!metadata.ok()) {
    if (metadata.status().IsCorrupt() || metadata.status().IsUnsupported()) return 0;
    std::abort();  // any other kind is a bug
  }
  auto written = floe::iceberg::TableMetadataToJson(*metadata);
  if (!written.ok()) std::abort();
  auto again = floe::iceberg::TableMetadataFromJson(*written, "rewritten");
  if (!again.ok() || !(*again == *metadata)) std::abort();
  return 0;
}
