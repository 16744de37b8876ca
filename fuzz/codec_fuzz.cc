// Fuzzes decompression: the first byte picks the codec, the next four the
// expected decompressed size (capped), the rest is the compressed input.
// Every result must be OK or Corrupt; an OK result for a compressing codec
// must survive a compress/decompress round trip. LZ4_RAW blocks go to
// floe's own decoder, so liblz4 decodes them too: every block liblz4 reads,
// floe must read to the same bytes (floe alone refuses match offset 0,
// which the format calls invalid; liblz4 alone refuses some blocks for its
// end-of-block rules).

#include <lz4.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

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
  const int64_t out_size = expected % (kMaxSize + 1);
  auto out = floe::compression::DecompressToBuffer(codec, input, out_size, kMaxSize);
  // floe's own block decoders again, into an allocation of exactly the
  // output's size: a Buffer rounds its size up to 64 bytes, where a write
  // past the output would go unseen; ASan sees one past this vector.
  if ((codec == Codec::kSnappy || codec == Codec::kLz4Raw) && !input.empty()) {
    std::vector<uint8_t> exact(static_cast<size_t>(out_size));
    const floe::Status status = floe::compression::Decompress(codec, input, exact);
    if (status.ok() != out.ok()) std::abort();
    if (status.ok() && out->view() != std::string_view(reinterpret_cast<const char*>(exact.data()), exact.size())) {
      std::abort();
    }
  }
  if (codec == Codec::kLz4Raw) {
    std::vector<char> theirs(static_cast<size_t>(out_size));
    const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(input.data()), theirs.data(),
                                      static_cast<int>(input.size()), static_cast<int>(theirs.size()));
    // An empty body for an empty page is accepted before any codec runs.
    const bool they_accept = n == out_size || (input.empty() && out_size == 0);
    if (out.ok() && they_accept && out->view() != std::string_view(theirs.data(), theirs.size())) std::abort();
    if (!out.ok() && they_accept && out.status().message().find("match offset 0 ") == std::string::npos) std::abort();
  }
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
