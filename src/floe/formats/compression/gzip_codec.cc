// GZIP (spec: RFC 1952) through zlib. Parquet's Compression.md: "Readers
// should support reading pages containing multiple GZIP members", so a member
// that ends before the input does is followed by the next one. Streams with a
// zlib (RFC 1950) header are accepted too, as other readers do; writing
// always produces a single gzip member.

#include <zlib.h>

#include <algorithm>
#include <climits>

#include "floe/base/strings.h"
#include "floe/formats/compression/codec_internal.h"

namespace floe::compression::internal {
namespace {

// windowBits: 15 (32 KiB window); +16 writes a gzip wrapper, +32 detects
// gzip or zlib when reading.
constexpr int kWindowBits = 15;
constexpr int kWriteGzip = 16;
constexpr int kDetectHeader = 32;
constexpr int kMemLevel = 8;
// A gzip header and trailer without optional fields; compressBound() counts
// the 6-byte zlib wrapper instead, so this over-estimates slightly.
constexpr int64_t kGzipWrapperBytes = 18;

// zlib counts in uInt; longer spans are fed in pieces of this size.
constexpr size_t kMaxChunk = size_t{1} << 30;

uInt Chunk(size_t left) { return static_cast<uInt>(std::min(left, kMaxChunk)); }

class InflateStream {
 public:
  InflateStream() = default;
  InflateStream(const InflateStream&) = delete;
  InflateStream& operator=(const InflateStream&) = delete;
  ~InflateStream() {
    if (initialized_) inflateEnd(&zs_);
  }
  Status Init() {
    if (inflateInit2(&zs_, kWindowBits + kDetectHeader) != Z_OK) {
      return Status::Internal("gzip: inflateInit2 failed (out of memory)");
    }
    initialized_ = true;
    return Status::OK();
  }
  z_stream* get() { return &zs_; }

 private:
  z_stream zs_{};
  bool initialized_ = false;
};

class DeflateStream {
 public:
  DeflateStream() = default;
  DeflateStream(const DeflateStream&) = delete;
  DeflateStream& operator=(const DeflateStream&) = delete;
  ~DeflateStream() {
    if (initialized_) deflateEnd(&zs_);
  }
  Status Init(int level) {
    if (deflateInit2(&zs_, level, Z_DEFLATED, kWindowBits + kWriteGzip, kMemLevel, Z_DEFAULT_STRATEGY) != Z_OK) {
      return Status::Internal("gzip: deflateInit2 failed (out of memory)");
    }
    initialized_ = true;
    return Status::OK();
  }
  z_stream* get() { return &zs_; }

 private:
  z_stream zs_{};
  bool initialized_ = false;
};

}  // namespace

Status GzipDecompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  InflateStream stream;
  FLOE_RETURN_IF_ERROR(stream.Init());
  z_stream* zs = stream.get();
  size_t in_pos = 0;
  size_t out_pos = 0;
  while (true) {
    // zlib keeps next_in/next_out; refill the counters from what is left.
    zs->next_in = const_cast<Bytef*>(in.data() + in_pos);
    zs->avail_in = Chunk(in.size() - in_pos);
    zs->next_out = out.data() + out_pos;
    zs->avail_out = Chunk(out.size() - out_pos);
    const uInt in_before = zs->avail_in;
    const uInt out_before = zs->avail_out;
    const int rc = inflate(zs, Z_NO_FLUSH);
    in_pos += in_before - zs->avail_in;
    out_pos += out_before - zs->avail_out;
    if (rc == Z_STREAM_END) {
      if (in_pos == in.size()) break;
      // Another member follows (RFC 1952 section 2.2: "a gzip file consists
      // of a series of members").
      if (inflateReset(zs) != Z_OK) return Status::Internal("gzip: inflateReset failed");
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR) {
      // No progress possible: either the output is full or the input ended.
      if (out_pos == out.size() && in_pos < in.size()) return TooLarge(Codec::kGzip, out.size());
      return Malformed(Codec::kGzip, StrCat("stream truncated after ", in_pos, " bytes"));
    }
    return Malformed(Codec::kGzip, zs->msg != nullptr ? zs->msg : StrCat("zlib error ", rc));
  }
  if (out_pos != out.size()) return SizeMismatch(Codec::kGzip, out.size(), out_pos);
  return Status::OK();
}

int64_t GzipMaxCompressedLength(int64_t input_size) {
  return static_cast<int64_t>(compressBound(static_cast<uLong>(input_size))) + kGzipWrapperBytes;
}

Result<int64_t> GzipCompress(std::span<const uint8_t> in, std::span<uint8_t> out, int level) {
  DeflateStream stream;
  FLOE_RETURN_IF_ERROR(stream.Init(level));
  z_stream* zs = stream.get();
  size_t in_pos = 0;
  size_t out_pos = 0;
  while (true) {
    zs->next_in = const_cast<Bytef*>(in.data() + in_pos);
    zs->avail_in = Chunk(in.size() - in_pos);
    zs->next_out = out.data() + out_pos;
    zs->avail_out = Chunk(out.size() - out_pos);
    const uInt in_before = zs->avail_in;
    const uInt out_before = zs->avail_out;
    const bool last = in.size() - in_pos == zs->avail_in;
    const int rc = deflate(zs, last ? Z_FINISH : Z_NO_FLUSH);
    in_pos += in_before - zs->avail_in;
    out_pos += out_before - zs->avail_out;
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) return Status::Internal(StrCat("gzip: deflate failed with zlib error ", rc));
    if (rc == Z_BUF_ERROR && out_pos == out.size()) {
      return Status::InvalidArgument("gzip: output buffer smaller than MaxCompressedLength");
    }
  }
  return static_cast<int64_t>(out_pos);
}

}  // namespace floe::compression::internal
