// Fuzzes the Puffin reader and deletion vectors: the input is read as a
// whole Puffin file (footer, then every blob; deletion-vector-v1 blobs are
// decoded), and on its own as a deletion-vector-v1 blob and as a portable
// 64-bit Roaring bitmap. Every result must be OK, Corrupt or Unsupported;
// a vector that reads must serialize and read back equal.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "floe/formats/puffin/puffin_reader.h"
#include "floe/iceberg/deletion_vector.h"
#include "floe/io/file_io.h"

namespace {

bool Acceptable(const floe::Status& s) { return s.ok() || s.IsCorrupt() || s.IsUnsupported(); }

void CheckVector(const floe::Result<floe::iceberg::DeletionVector>& dv) {
  if (!Acceptable(dv.status())) std::abort();
  if (!dv.ok()) return;
  auto back = floe::iceberg::DeletionVector::Deserialize(dv->Serialize());
  if (!back.ok() || !(*back == *dv)) std::abort();
  if (static_cast<int64_t>(dv->Positions().size()) != dv->cardinality()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto io = floe::NewMemoryFileIO();
  if (!io->WriteAll("mem://fuzz/f.puffin", input).ok()) std::abort();
  floe::puffin::PuffinReaderOptions options;
  options.max_blob_bytes = 4 << 20;
  options.max_footer_bytes = 4 << 20;
  options.footer_read_bytes = 256;  // exercise the second footer read too
  auto reader = floe::puffin::PuffinReader::Open(*io, "mem://fuzz/f.puffin", options);
  if (!Acceptable(reader.status())) std::abort();
  if (reader.ok()) {
    for (const floe::puffin::BlobMetadata& blob : (*reader)->blobs()) {
      auto bytes = (*reader)->ReadBlob(blob);
      if (!Acceptable(bytes.status())) std::abort();
      if (bytes.ok() && blob.type == floe::puffin::kDeletionVectorV1) {
        CheckVector(floe::iceberg::DeletionVector::Deserialize(bytes->view()));
      }
    }
    if (!Acceptable((*reader)->ReadBlobs((*reader)->blobs()).status())) std::abort();
  }
  CheckVector(floe::iceberg::DeletionVector::Deserialize(input));
  CheckVector(floe::iceberg::DeletionVector::DeserializeBitmap(input));
  return 0;
}
