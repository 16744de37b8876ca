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

// Metadata that parses must write and read back equal.
template <typename Read, typename Write>
void FuzzMetadata(std::string_view json, Read read, Write write) {
  auto metadata = read(json, "fuzz.metadata.json");
  if (!metadata.ok()) {
    CheckRefusal(metadata.status());
    return;
  }
  auto written = write(*metadata);
  if (!written.ok()) std::abort();
  auto again = read(*written, "rewritten");
  if (!again.ok() || !(*again == *metadata)) std::abort();
}

void FuzzNameMapping(std::string_view json) {
  auto mapping = floe::iceberg::ParseNameMapping(json);
  if (!mapping.ok() && !mapping.status().IsInvalidArgument()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  FuzzMetadata(
      json, [](std::string_view j, std::string_view name) { return floe::iceberg::TableMetadataFromJson(j, name); },
      [](const auto& m) { return floe::iceberg::TableMetadataToJson(m); });
  FuzzMetadata(
      json, [](std::string_view j, std::string_view name) { return floe::iceberg::ViewMetadataFromJson(j, name); },
      [](const auto& m) { return floe::iceberg::ViewMetadataToJson(m); });
  FuzzNameMapping(json);
  return 0;
}
