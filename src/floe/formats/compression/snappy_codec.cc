// Snappy (spec: google/snappy format_description.txt), raw format: a varint
// uncompressed length, then the elements. No framing (Parquet's SNAPPY).

#include <snappy.h>

#include "floe/base/strings.h"
#include "floe/formats/compression/codec_internal.h"

namespace floe::compression::internal {
namespace {

// The length header is a 32-bit varint, so one block holds at most this.
constexpr int64_t kMaxSnappyInput = UINT32_MAX;

const char* Chars(std::span<const uint8_t> s) { return reinterpret_cast<const char*>(s.data()); }

}  // namespace

Result<uint64_t> SnappyUncompressedLength(std::span<const uint8_t> in) {
  size_t length = 0;
  if (!snappy::GetUncompressedLength(Chars(in), in.size(), &length)) {
    return Malformed(Codec::kSnappy, "unreadable length header");
  }
  return static_cast<uint64_t>(length);
}

// Decompression is floe's own (snappy_decompress.cc); libsnappy compresses.
Status SnappyDecompress(std::span<const uint8_t> in, std::span<uint8_t> out) { return SnappyDecodeBlock(in, out); }

Result<int64_t> SnappyMaxCompressedLength(int64_t input_size) {
  if (input_size > kMaxSnappyInput) {
    return Status::InvalidArgument(StrCat("snappy: cannot compress ", input_size, " bytes in one block"));
  }
  return static_cast<int64_t>(snappy::MaxCompressedLength(static_cast<size_t>(input_size)));
}

Result<int64_t> SnappyCompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  size_t written = 0;
  snappy::RawCompress(Chars(in), in.size(), reinterpret_cast<char*>(out.data()), &written);
  return static_cast<int64_t>(written);
}

}  // namespace floe::compression::internal
