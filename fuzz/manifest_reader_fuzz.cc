// Fuzzes Iceberg's manifest and manifest list readers: the input is a whole
// file, read as a manifest (with and without column stats, partition type
// from the file's own metadata) and as a manifest list. Every result must be
// OK, Corrupt or Unsupported; a manifest that reads fully must read the same
// entries, stats aside, without stats.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/io/file_io.h"

namespace {

bool Acceptable(const floe::Status& s) { return s.ok() || s.IsCorrupt() || s.IsUnsupported(); }

floe::Result<std::vector<floe::iceberg::ManifestEntry>> ReadManifest(floe::FileIO& io, bool stats) {
  floe::iceberg::ManifestFile m;
  m.manifest_path = "mem://fuzz/m.avro";
  m.sequence_number = 3;
  m.first_row_id = 10;
  floe::iceberg::ManifestReaderOptions options;
  options.read_stats = stats;
  options.container.max_block_bytes = 4 << 20;
  FLOE_ASSIGN_OR_RETURN(auto reader, floe::iceberg::ManifestReader::Open(io, m, options));
  return reader->ReadAll();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto io = floe::NewMemoryFileIO();
  if (!io->WriteAll("mem://fuzz/m.avro", std::string_view(reinterpret_cast<const char*>(data), size)).ok())
    std::abort();
  auto full = ReadManifest(*io, true);
  auto lean = ReadManifest(*io, false);
  if (!Acceptable(full.status()) || !Acceptable(lean.status())) std::abort();
  if (full.ok()) {
    if (!lean.ok() || lean->size() != full->size()) std::abort();
    for (size_t i = 0; i < full->size(); ++i) {
      if ((*lean)[i].data_file.file_path != (*full)[i].data_file.file_path ||
          (*lean)[i].data_file.partition != (*full)[i].data_file.partition) {
        std::abort();
      }
    }
  }
  if (!Acceptable(floe::iceberg::ReadManifestList(*io, "mem://fuzz/m.avro").status())) std::abort();
  return 0;
}
