// Zstandard (spec: RFC 8878). One or more frames; contexts are reused per
// thread, since creating one costs more than decompressing a small page.

#include <zstd.h>
#include <zstd_errors.h>

#include <cstdint>
#include <memory>

#include "floe/base/strings.h"
#include "floe/formats/compression/codec_internal.h"

namespace floe::compression::internal {
namespace {

struct DCtxFree {
  void operator()(ZSTD_DCtx* ctx) const { ZSTD_freeDCtx(ctx); }
};
struct CCtxFree {
  void operator()(ZSTD_CCtx* ctx) const { ZSTD_freeCCtx(ctx); }
};

ZSTD_DCtx* ThreadDCtx() {
  thread_local std::unique_ptr<ZSTD_DCtx, DCtxFree> ctx(ZSTD_createDCtx());
  return ctx.get();
}

ZSTD_CCtx* ThreadCCtx() {
  thread_local std::unique_ptr<ZSTD_CCtx, CCtxFree> ctx(ZSTD_createCCtx());
  return ctx.get();
}

}  // namespace

int ZstdMinLevel() { return ZSTD_minCLevel(); }
int ZstdMaxLevel() { return ZSTD_maxCLevel(); }

Status ZstdDecompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  ZSTD_DCtx* ctx = ThreadDCtx();
  if (ctx == nullptr) return Status::Internal("zstd: cannot create a decompression context (out of memory)");
  const size_t rc = ZSTD_decompressDCtx(ctx, out.data(), out.size(), in.data(), in.size());
  if (ZSTD_isError(rc)) {
    if (ZSTD_getErrorCode(rc) == ZSTD_error_dstSize_tooSmall) return TooLarge(Codec::kZstd, out.size());
    return Malformed(Codec::kZstd, ZSTD_getErrorName(rc));
  }
  if (rc != out.size()) return SizeMismatch(Codec::kZstd, out.size(), rc);
  return Status::OK();
}

Status ZstdCheckContentSize(std::span<const uint8_t> in, uint64_t expected) {
  if (ZSTD_findFrameCompressedSize(in.data(), in.size()) != in.size()) return Status::OK();  // several frames, or bad
  const unsigned long long size = ZSTD_getFrameContentSize(in.data(), in.size());
  if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR || size == expected) return Status::OK();
  return SizeMismatch(Codec::kZstd, expected, size);
}

Result<int64_t> ZstdFrameContentSize(std::span<const uint8_t> in) {
  const unsigned long long size = ZSTD_getFrameContentSize(in.data(), in.size());
  if (size == ZSTD_CONTENTSIZE_ERROR) return Malformed(Codec::kZstd, "no valid frame header");
  if (size == ZSTD_CONTENTSIZE_UNKNOWN) return Malformed(Codec::kZstd, "the frame header states no content size");
  if (size > static_cast<unsigned long long>(INT64_MAX)) {
    return Malformed(Codec::kZstd, StrCat("the frame states a content size of ", size, " bytes"));
  }
  return static_cast<int64_t>(size);
}

Result<int64_t> ZstdMaxCompressedLength(int64_t input_size) {
  const size_t bound = ZSTD_compressBound(static_cast<size_t>(input_size));
  if (ZSTD_isError(bound)) {
    return Status::InvalidArgument(StrCat("zstd: cannot compress ", input_size, " bytes in one call"));
  }
  return static_cast<int64_t>(bound);
}

Result<int64_t> ZstdCompress(std::span<const uint8_t> in, std::span<uint8_t> out, int level) {
  ZSTD_CCtx* ctx = ThreadCCtx();
  if (ctx == nullptr) return Status::Internal("zstd: cannot create a compression context (out of memory)");
  const size_t rc = ZSTD_compressCCtx(ctx, out.data(), out.size(), in.data(), in.size(), level);
  if (ZSTD_isError(rc)) return Status::Internal(StrCat("zstd: compression failed: ", ZSTD_getErrorName(rc)));
  return static_cast<int64_t>(rc);
}

}  // namespace floe::compression::internal
