// LZ4 in its three Parquet guises (spec: lz4 doc/lz4_Block_format.md and
// lz4_Frame_format.md; Parquet Compression.md for LZ4 vs LZ4_RAW):
//  - raw: one LZ4 block (LZ4_RAW);
//  - Hadoop: blocks of [BE u32 decompressed size] then one or more
//    [BE u32 compressed size][LZ4 block] chunks until that size is reached,
//    as Hadoop's BlockCompressorStream writes them;
//  - legacy (the deprecated LZ4): Hadoop framing, else an LZ4 frame, else a
//    raw block, since old writers produced each of them under that codec id;
// and as one LZ4 frame with its content size (Puffin's "lz4").

#include <lz4.h>
#include <lz4frame.h>

#include <climits>
#include <cstdint>
#include <cstring>

#include "floe/base/strings.h"
#include "floe/formats/compression/codec_internal.h"

namespace floe::compression::internal {
namespace {

constexpr size_t kHadoopPrefixBytes = 4;
// Hadoop readers decompress a block into a buffer of this size by default
// (io.compression.codec.lz4.buffersize), so blocks are written no larger.
constexpr size_t kHadoopBlockBytes = 256 * 1024;

uint32_t LoadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

void StoreBigEndian32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

const char* Chars(const uint8_t* p) { return reinterpret_cast<const char*>(p); }

// RAII owner of a frame decompression context.
class FrameContext {
 public:
  FrameContext() {
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx_, LZ4F_VERSION))) ctx_ = nullptr;
  }
  ~FrameContext() {
    if (ctx_ != nullptr) LZ4F_freeDecompressionContext(ctx_);
  }
  FrameContext(const FrameContext&) = delete;
  FrameContext& operator=(const FrameContext&) = delete;
  LZ4F_dctx* get() const { return ctx_; }

 private:
  LZ4F_dctx* ctx_ = nullptr;
};

LZ4F_preferences_t FramePreferences(size_t content_size) {
  LZ4F_preferences_t prefs;
  std::memset(&prefs, 0, sizeof prefs);
  prefs.frameInfo.contentSize = content_size;
  return prefs;
}

// `codec` names the caller in messages (kLz4Legacy or kLz4Frame).
Status DecompressFrame(Codec codec, std::span<const uint8_t> in, std::span<uint8_t> out) {
  FrameContext context;
  LZ4F_dctx* ctx = context.get();
  if (ctx == nullptr) return Status::Internal("lz4: cannot create a frame decompression context (out of memory)");
  size_t in_pos = 0;
  size_t out_pos = 0;
  while (in_pos < in.size()) {
    size_t in_size = in.size() - in_pos;
    size_t out_size = out.size() - out_pos;
    const size_t rc = LZ4F_decompress(ctx, out.data() + out_pos, &out_size, in.data() + in_pos, &in_size, nullptr);
    if (LZ4F_isError(rc)) return Malformed(codec, StrCat("LZ4 frame: ", LZ4F_getErrorName(rc)));
    in_pos += in_size;
    out_pos += out_size;
    if (rc != 0 && in_size == 0 && out_size == 0) {
      // The frame wants more room or more input than there is.
      if (out_pos == out.size()) return TooLarge(codec, out.size());
      return Malformed(codec, "LZ4 frame truncated");
    }
    if (rc != 0 && in_pos == in.size()) return Malformed(codec, "LZ4 frame truncated");
  }
  if (out_pos != out.size()) return SizeMismatch(codec, out.size(), out_pos);
  return Status::OK();
}

}  // namespace

Status Lz4RawDecompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  FLOE_ASSIGN_OR_RETURN(const size_t n, Lz4DecodeBlock(Codec::kLz4Raw, in, out));
  if (n != out.size()) return SizeMismatch(Codec::kLz4Raw, out.size(), n);
  return Status::OK();
}

Status Lz4HadoopDecompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  constexpr Codec kCodec = Codec::kLz4Hadoop;
  size_t in_pos = 0;
  size_t out_pos = 0;
  while (in_pos < in.size()) {
    if (in.size() - in_pos < kHadoopPrefixBytes) return Malformed(kCodec, StrCat("block header cut at byte ", in_pos));
    const uint32_t block_size = LoadBigEndian32(in.data() + in_pos);
    in_pos += kHadoopPrefixBytes;
    if (block_size > out.size() - out_pos) return TooLarge(kCodec, out.size());
    const size_t block_end = out_pos + block_size;
    // At least one chunk per block: writers emit [0][1][0x00] for empty input.
    do {
      if (in.size() - in_pos < kHadoopPrefixBytes) {
        return Malformed(kCodec, StrCat("chunk header cut at byte ", in_pos));
      }
      const uint32_t chunk_size = LoadBigEndian32(in.data() + in_pos);
      in_pos += kHadoopPrefixBytes;
      if (chunk_size > in.size() - in_pos) {
        return Malformed(kCodec, StrCat("chunk of ", chunk_size, " bytes at byte ", in_pos, " runs past the input"));
      }
      Result<size_t> n =
          Lz4DecodeBlock(kCodec, in.subspan(in_pos, chunk_size), out.subspan(out_pos, block_end - out_pos));
      if (!n.ok()) {
        // The block decoder's sizes are those of the span it was given: say
        // which span, so "expected N bytes" is not read as the page's size.
        return Status::Corrupt(StrCat(n.status().message(), " (the LZ4 block at input byte ", in_pos,
                                      ", into the last ", block_end - out_pos, " bytes of a Hadoop block of ",
                                      block_size, " bytes)"));
      }
      in_pos += chunk_size;
      out_pos += *n;
    } while (out_pos < block_end);
  }
  if (out_pos != out.size()) return SizeMismatch(kCodec, out.size(), out_pos);
  return Status::OK();
}

Status Lz4LegacyDecompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  Status hadoop = Lz4HadoopDecompress(in, out);
  if (hadoop.ok()) return hadoop;
  if (DecompressFrame(Codec::kLz4Legacy, in, out).ok()) return Status::OK();
  if (Lz4RawDecompress(in, out).ok()) return Status::OK();
  return Malformed(Codec::kLz4Legacy,
                   StrCat("neither Hadoop-framed (", hadoop.message(), "), an LZ4 frame, nor a raw LZ4 block"));
}

Result<int64_t> Lz4RawMaxCompressedLength(int64_t input_size) {
  if (input_size > LZ4_MAX_INPUT_SIZE) {
    return Status::InvalidArgument(StrCat("lz4: cannot compress ", input_size, " bytes in one block"));
  }
  return static_cast<int64_t>(LZ4_compressBound(static_cast<int>(input_size)));
}

Result<int64_t> Lz4RawCompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  const int capacity = static_cast<int>(std::min<size_t>(out.size(), INT_MAX));
  const int n = LZ4_compress_default(Chars(in.data()), reinterpret_cast<char*>(out.data()), static_cast<int>(in.size()),
                                     capacity);
  if (n <= 0) return Status::Internal(StrCat("lz4: compression of ", in.size(), " bytes failed"));
  return static_cast<int64_t>(n);
}

Result<int64_t> Lz4HadoopMaxCompressedLength(int64_t input_size) {
  const auto size = static_cast<uint64_t>(input_size);
  const uint64_t full_blocks = size / kHadoopBlockBytes;
  const uint64_t tail = size % kHadoopBlockBytes;
  const uint64_t block_overhead = 2 * kHadoopPrefixBytes;
  uint64_t bound = full_blocks * (block_overhead + LZ4_compressBound(static_cast<int>(kHadoopBlockBytes)));
  if (tail != 0 || full_blocks == 0) bound += block_overhead + LZ4_compressBound(static_cast<int>(tail));
  return static_cast<int64_t>(bound);
}

Result<int64_t> Lz4HadoopCompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  size_t in_pos = 0;
  size_t out_pos = 0;
  // One block per 256 KiB of input, each block a single chunk; empty input
  // still gets one (empty) block.
  do {
    const size_t block = std::min(in.size() - in_pos, kHadoopBlockBytes);
    uint8_t* header = out.data() + out_pos;
    out_pos += 2 * kHadoopPrefixBytes;
    FLOE_ASSIGN_OR_RETURN(const int64_t n, Lz4RawCompress(in.subspan(in_pos, block), out.subspan(out_pos)));
    StoreBigEndian32(header, static_cast<uint32_t>(block));
    StoreBigEndian32(header + kHadoopPrefixBytes, static_cast<uint32_t>(n));
    in_pos += block;
    out_pos += static_cast<size_t>(n);
  } while (in_pos < in.size());
  return static_cast<int64_t>(out_pos);
}

Status Lz4FrameDecompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  return DecompressFrame(Codec::kLz4Frame, in, out);
}

Result<int64_t> Lz4FrameMaxCompressedLength(int64_t input_size) {
  if (input_size > LZ4_MAX_INPUT_SIZE) {
    return Status::InvalidArgument(StrCat("lz4_frame: cannot compress ", input_size, " bytes in one call"));
  }
  const LZ4F_preferences_t prefs = FramePreferences(static_cast<size_t>(input_size));
  return static_cast<int64_t>(LZ4F_compressFrameBound(static_cast<size_t>(input_size), &prefs));
}

Result<int64_t> Lz4FrameCompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  // spec (Puffin): "Single LZ4 compression frame, with content size present".
  const LZ4F_preferences_t prefs = FramePreferences(in.size());
  const size_t n = LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), &prefs);
  if (LZ4F_isError(n)) {
    return Status::Internal(StrCat("lz4_frame: compression of ", in.size(), " bytes failed: ", LZ4F_getErrorName(n)));
  }
  return static_cast<int64_t>(n);
}

Result<int64_t> Lz4FrameContentSize(std::span<const uint8_t> in) {
  FrameContext context;
  if (context.get() == nullptr) {
    return Status::Internal("lz4: cannot create a frame decompression context (out of memory)");
  }
  LZ4F_frameInfo_t info;
  std::memset(&info, 0, sizeof info);
  size_t consumed = in.size();
  const size_t rc = LZ4F_getFrameInfo(context.get(), &info, in.data(), &consumed);
  if (LZ4F_isError(rc)) return Malformed(Codec::kLz4Frame, StrCat("frame header: ", LZ4F_getErrorName(rc)));
  // LZ4F reports an absent content size as 0, and writes none for empty input
  // (it cannot tell "0" from "absent" either), so both read as 0: a frame
  // that holds bytes without stating their number then fails to decompress
  // into 0 bytes, as Corrupt.
  if (info.contentSize > static_cast<unsigned long long>(INT64_MAX)) {
    return Malformed(Codec::kLz4Frame, StrCat("the frame states a content size of ", info.contentSize, " bytes"));
  }
  return static_cast<int64_t>(info.contentSize);
}

}  // namespace floe::compression::internal
