// Brotli (spec: RFC 7932), one stream per block.

#include <brotli/decode.h>
#include <brotli/encode.h>

#include "floe/base/strings.h"
#include "floe/formats/compression/codec_internal.h"

namespace floe::compression::internal {

Status BrotliDecompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  BrotliDecoderState* state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
  if (state == nullptr) return Status::Internal("brotli: cannot create a decoder (out of memory)");
  struct Free {
    BrotliDecoderState* state;
    ~Free() { BrotliDecoderDestroyInstance(state); }
  } free_state{state};
  size_t avail_in = in.size();
  const uint8_t* next_in = in.data();
  size_t avail_out = out.size();
  uint8_t* next_out = out.data();
  const BrotliDecoderResult rc =
      BrotliDecoderDecompressStream(state, &avail_in, &next_in, &avail_out, &next_out, nullptr);
  switch (rc) {
    case BROTLI_DECODER_RESULT_SUCCESS: break;
    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: return TooLarge(Codec::kBrotli, out.size());
    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return Malformed(Codec::kBrotli, "stream truncated");
    case BROTLI_DECODER_RESULT_ERROR:
      return Malformed(Codec::kBrotli, BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state)));
  }
  if (avail_in != 0) return Malformed(Codec::kBrotli, StrCat(avail_in, " bytes after the end of the stream"));
  if (avail_out != 0) return SizeMismatch(Codec::kBrotli, out.size(), out.size() - avail_out);
  return Status::OK();
}

Result<int64_t> BrotliMaxCompressedLength(int64_t input_size) {
  const size_t bound = BrotliEncoderMaxCompressedSize(static_cast<size_t>(input_size));
  if (bound == 0) return Status::InvalidArgument(StrCat("brotli: cannot compress ", input_size, " bytes in one call"));
  return static_cast<int64_t>(bound);
}

Result<int64_t> BrotliCompress(std::span<const uint8_t> in, std::span<uint8_t> out, int quality) {
  size_t size = out.size();
  if (BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_DEFAULT_MODE, in.size(), in.data(), &size,
                            out.data()) != BROTLI_TRUE) {
    return Status::Internal(StrCat("brotli: compression of ", in.size(), " bytes failed"));
  }
  return static_cast<int64_t>(size);
}

}  // namespace floe::compression::internal
