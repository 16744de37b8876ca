// Fuzzes decompression: the first byte picks the codec, the next four the
// expected decompressed size (capped), the rest is the compressed input.
// Every result must be OK or Corrupt; an OK result for a compressing codec
// must survive a compress/decompress round trip.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "floe/formats/compression/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using floe::compression::Codec;
  constexpr Codec kCodecs[] = {Codec::kUncompressed, Codec::kSnappy,    Codec::kGzip,   Codec::kZstd,    Codec::kLz4Raw,
                               Codec::kLz4Hadoop,    Codec::kLz4Legacy, Codec::kBrotli, Codec::kLz4Frame};
  constexpr int64_t kMaxSize = 1 << 20;
  if (size < 5) return 0;
  const Codec codec = kCodecs[data[0] % (sizeof kCodecs / sizeof kCodecs[0])];
  uint32_t expected = 0;
  std::memcpy(&expected, data + 1, sizeof expected);
  const std::span<const uint8_t> input(data + 5, size - 5);
  auto out = floe::compression::DecompressToBuffer(codec, input, expected % (kMaxSize + 1), kMaxSize);
  if (!out.ok()) {
    if (!out.status().IsCorrupt()) std::abort();
    return 0;
  }
  auto again = floe::compression::Compress(codec, out->span());
  if (!again.ok()) std::abort();
  auto back = floe::compression::DecompressToBuffer(codec, again->span(), out->size(), kMaxSize);
  if (!back.ok() || back->view() != out->view()) std::abort();
  return 0;
}
