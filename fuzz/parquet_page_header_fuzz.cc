// Fuzzes the decoders of the structs read beside the data: page headers,
// the page index, bloom filter headers and (decrypted) column metadata. A
// page header that decodes must re-encode to bytes that decode to the same
// bytes again.

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "floe/formats/parquet/metadata_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace floe::parquet;
  const std::span<const uint8_t> input(data, size);
  size_t consumed = 0;
  auto header = DecodePageHeader(input, &consumed);
  if (header.ok()) {
    if (consumed > size) std::abort();
    std::string once;
    if (!EncodePageHeader(*header, &once).ok()) std::abort();
    auto again = DecodePageHeader({reinterpret_cast<const uint8_t*>(once.data()), once.size()});
    std::string twice;
    if (!again.ok() || !EncodePageHeader(*again, &twice).ok() || twice != once) std::abort();
  }
  (void)DecodeColumnIndex(input);
  (void)DecodeOffsetIndex(input);
  (void)DecodeBloomFilterHeader(input);
  (void)DecodeColumnMetaData(input);
  return 0;
}
