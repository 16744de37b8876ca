// Fuzzes the footer decoders: the input as a footer, and as a whole file
// whose tail points at its footer (the seeds are real Parquet files). A
// footer that decodes must re-encode to bytes that decode to the same bytes
// again: decoding and encoding agree on every field.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>

#include "floe/formats/parquet/metadata_codec.h"

namespace {

void CheckRoundTrip(const floe::parquet::FileMetaData& md) {
  std::string once;
  if (!floe::parquet::EncodeFileMetaData(md, &once).ok()) std::abort();
  auto again = floe::parquet::DecodeFileMetaData({reinterpret_cast<const uint8_t*>(once.data()), once.size()});
  if (!again.ok()) std::abort();
  std::string twice;
  if (!floe::parquet::EncodeFileMetaData(*again, &twice).ok() || twice != once) std::abort();
}

void DecodeFooter(std::span<const uint8_t> footer) {
  size_t consumed = 0;
  auto md = floe::parquet::DecodeFileMetaData(footer, &consumed);
  if (md.ok()) {
    if (consumed > footer.size()) std::abort();
    CheckRoundTrip(*md);
  }
  (void)floe::parquet::DecodeFileCryptoMetaData(footer);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  DecodeFooter(input);
  if (size >= 12) {
    uint32_t length = 0;
    std::memcpy(&length, data + size - 8, sizeof length);
    if (length <= size - 8) DecodeFooter(input.subspan(size - 8 - length, length));
  }
  return 0;
}
