// Codec names, argument checks and dispatch to the per-codec files.

#include "floe/formats/compression/codec.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>

#include "floe/base/strings.h"
#include "floe/formats/compression/codec_internal.h"

namespace floe::compression {
namespace internal {

Status SizeMismatch(Codec codec, uint64_t expected, uint64_t actual) {
  return Status::Corrupt(StrCat(CodecName(codec), ": input decompresses to ", actual, " bytes, expected ", expected));
}

Status TooLarge(Codec codec, uint64_t expected) {
  return Status::Corrupt(
      StrCat(CodecName(codec), ": input decompresses to more than the expected ", expected, " bytes"));
}

Status Malformed(Codec codec, std::string_view detail) {
  return Status::Corrupt(StrCat(CodecName(codec), ": malformed input: ", detail));
}

}  // namespace internal

namespace {

constexpr int kBrotliDefaultQuality = 8;  // the speed/size balance other Parquet writers default to
constexpr int kBrotliMaxQuality = 11;

Status LzoUnsupported() { return Status::Unsupported("lzo: the LZO codec is not supported"); }

// The level to use, or InvalidArgument when `level` does not suit `codec`.
Result<int> ResolveLevel(Codec codec, std::optional<int> level) {
  int low = 0;
  int high = 0;
  int fallback = 0;
  switch (codec) {
    case Codec::kGzip: low = 0, high = 9, fallback = Z_DEFAULT_COMPRESSION; break;
    case Codec::kZstd: low = internal::ZstdMinLevel(), high = internal::ZstdMaxLevel(), fallback = 3; break;
    case Codec::kBrotli: low = 0, high = kBrotliMaxQuality, fallback = kBrotliDefaultQuality; break;
    default:
      if (level) {
        return Status::InvalidArgument(
            StrCat(CodecName(codec), ": the codec takes no compression level (got ", *level, ")"));
      }
      return 0;
  }
  if (!level) return fallback;
  if (*level < low || *level > high) {
    return Status::InvalidArgument(
        StrCat(CodecName(codec), ": compression level ", *level, " is outside ", low, "..", high));
  }
  return *level;
}

}  // namespace

std::string_view CodecName(Codec codec) {
  switch (codec) {
    case Codec::kUncompressed: return "uncompressed";
    case Codec::kSnappy: return "snappy";
    case Codec::kGzip: return "gzip";
    case Codec::kZstd: return "zstd";
    case Codec::kLz4Raw: return "lz4_raw";
    case Codec::kLz4Hadoop: return "lz4_hadoop";
    case Codec::kLz4Legacy: return "lz4";
    case Codec::kBrotli: return "brotli";
    case Codec::kLzo: return "lzo";
    case Codec::kLz4Frame: return "lz4_frame";
  }
  return "invalid";
}

Result<Codec> CodecFromName(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "none" || lower == "uncompressed") return Codec::kUncompressed;
  if (lower == "snappy") return Codec::kSnappy;
  if (lower == "gzip") return Codec::kGzip;
  if (lower == "zstd") return Codec::kZstd;
  if (lower == "lz4_raw") return Codec::kLz4Raw;
  if (lower == "brotli") return Codec::kBrotli;
  if (lower == "lz4") {
    return Status::InvalidArgument("compression codec 'lz4' is deprecated by Parquet and not written; use 'lz4_raw'");
  }
  return Status::InvalidArgument(
      StrCat("unknown compression codec ", Quote(name), " (expected none, snappy, gzip, zstd, lz4_raw or brotli)"));
}

Status Decompress(Codec codec, std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (codec == Codec::kLzo) return LzoUnsupported();
  // Writers store an empty page body without running the codec (e.g. a
  // DATA_PAGE_V2 whose values section is empty), and every reader accepts it.
  if (in.empty() && out.empty()) return Status::OK();
  switch (codec) {
    case Codec::kUncompressed:
      if (in.size() != out.size()) return internal::SizeMismatch(codec, out.size(), in.size());
      if (!in.empty()) std::memcpy(out.data(), in.data(), in.size());
      return Status::OK();
    case Codec::kSnappy: return internal::SnappyDecompress(in, out);
    case Codec::kGzip: return internal::GzipDecompress(in, out);
    case Codec::kZstd: return internal::ZstdDecompress(in, out);
    case Codec::kLz4Raw: return internal::Lz4RawDecompress(in, out);
    case Codec::kLz4Hadoop: return internal::Lz4HadoopDecompress(in, out);
    case Codec::kLz4Legacy: return internal::Lz4LegacyDecompress(in, out);
    case Codec::kBrotli: return internal::BrotliDecompress(in, out);
    case Codec::kLz4Frame: return internal::Lz4FrameDecompress(in, out);
    case Codec::kLzo: break;
  }
  return LzoUnsupported();
}

Result<Buffer> DecompressToBuffer(Codec codec, std::span<const uint8_t> in, int64_t uncompressed_size,
                                  int64_t max_bytes) {
  if (codec == Codec::kLzo) return LzoUnsupported();
  if (uncompressed_size < 0) {
    return Status::InvalidArgument(StrCat(CodecName(codec), ": decompressed size ", uncompressed_size, " is negative"));
  }
  if (uncompressed_size > max_bytes) {
    return Status::Unsupported(StrCat(CodecName(codec), ": input would decompress to ", FormatBytes(uncompressed_size),
                                      ", more than the memory budget of ", FormatBytes(max_bytes)));
  }
  // Where the input itself states its size, a lie is caught before allocating.
  FLOE_RETURN_IF_ERROR(CheckStatedSize(codec, in, uncompressed_size));
  FLOE_ASSIGN_OR_RETURN(Buffer buffer, Buffer::Allocate(uncompressed_size));
  FLOE_RETURN_IF_ERROR(
      Decompress(codec, in, std::span<uint8_t>(buffer.mutable_data(), static_cast<size_t>(uncompressed_size))));
  return buffer;
}

Status CheckStatedSize(Codec codec, std::span<const uint8_t> in, int64_t uncompressed_size) {
  if (uncompressed_size < 0) {
    return Status::InvalidArgument(StrCat(CodecName(codec), ": decompressed size ", uncompressed_size, " is negative"));
  }
  const auto expected = static_cast<uint64_t>(uncompressed_size);
  if (codec == Codec::kUncompressed && in.size() != expected) {
    return internal::SizeMismatch(codec, expected, in.size());
  }
  if (codec == Codec::kSnappy && !in.empty()) {
    FLOE_ASSIGN_OR_RETURN(const uint64_t stated, internal::SnappyUncompressedLength(in));
    if (stated != expected) return internal::SizeMismatch(codec, expected, stated);
  }
  if (codec == Codec::kZstd) FLOE_RETURN_IF_ERROR(internal::ZstdCheckContentSize(in, expected));
  if (codec == Codec::kLz4Frame && !in.empty()) {
    FLOE_ASSIGN_OR_RETURN(const int64_t stated, internal::Lz4FrameContentSize(in));
    if (stated != 0 && static_cast<uint64_t>(stated) != expected) {
      return internal::SizeMismatch(codec, expected, static_cast<uint64_t>(stated));
    }
  }
  return Status::OK();
}

Result<int64_t> FrameContentSize(Codec codec, std::span<const uint8_t> in) {
  switch (codec) {
    case Codec::kZstd: return internal::ZstdFrameContentSize(in);
    case Codec::kLz4Frame: return internal::Lz4FrameContentSize(in);
    default: return Status::InvalidArgument(StrCat(CodecName(codec), ": the codec has no frame header stating a size"));
  }
}

Result<int64_t> MaxCompressedLength(Codec codec, int64_t input_size) {
  if (input_size < 0)
    return Status::InvalidArgument(StrCat(CodecName(codec), ": input size ", input_size, " is negative"));
  switch (codec) {
    case Codec::kUncompressed: return input_size;
    case Codec::kSnappy: return internal::SnappyMaxCompressedLength(input_size);
    case Codec::kGzip: return internal::GzipMaxCompressedLength(input_size);
    case Codec::kZstd: return internal::ZstdMaxCompressedLength(input_size);
    case Codec::kLz4Raw: return internal::Lz4RawMaxCompressedLength(input_size);
    case Codec::kLz4Hadoop:
    case Codec::kLz4Legacy: return internal::Lz4HadoopMaxCompressedLength(input_size);
    case Codec::kBrotli: return internal::BrotliMaxCompressedLength(input_size);
    case Codec::kLz4Frame: return internal::Lz4FrameMaxCompressedLength(input_size);
    case Codec::kLzo: break;
  }
  return LzoUnsupported();
}

Result<int64_t> CompressInto(Codec codec, std::span<const uint8_t> in, std::span<uint8_t> out,
                             std::optional<int> level) {
  if (codec == Codec::kLzo) return LzoUnsupported();
  FLOE_ASSIGN_OR_RETURN(const int resolved, ResolveLevel(codec, level));
  FLOE_ASSIGN_OR_RETURN(const int64_t bound, MaxCompressedLength(codec, static_cast<int64_t>(in.size())));
  if (out.size() < static_cast<uint64_t>(bound)) {
    return Status::InvalidArgument(StrCat(CodecName(codec), ": output of ", out.size(), " bytes is below the ", bound,
                                          " bytes MaxCompressedLength requires"));
  }
  switch (codec) {
    case Codec::kUncompressed:
      if (!in.empty()) std::memcpy(out.data(), in.data(), in.size());
      return static_cast<int64_t>(in.size());
    case Codec::kSnappy: return internal::SnappyCompress(in, out);
    case Codec::kGzip: return internal::GzipCompress(in, out, resolved);
    case Codec::kZstd: return internal::ZstdCompress(in, out, resolved);
    case Codec::kLz4Raw: return internal::Lz4RawCompress(in, out);
    case Codec::kLz4Hadoop:
    case Codec::kLz4Legacy: return internal::Lz4HadoopCompress(in, out);
    case Codec::kBrotli: return internal::BrotliCompress(in, out, resolved);
    case Codec::kLz4Frame: return internal::Lz4FrameCompress(in, out);
    case Codec::kLzo: break;
  }
  return LzoUnsupported();
}

Result<Buffer> Compress(Codec codec, std::span<const uint8_t> in, std::optional<int> level) {
  FLOE_ASSIGN_OR_RETURN(const int64_t bound, MaxCompressedLength(codec, static_cast<int64_t>(in.size())));
  FLOE_ASSIGN_OR_RETURN(Buffer buffer, Buffer::Allocate(bound));
  FLOE_ASSIGN_OR_RETURN(
      const int64_t size,
      CompressInto(codec, in, std::span<uint8_t>(buffer.mutable_data(), static_cast<size_t>(bound)), level));
  return buffer.Slice(0, size);
}

}  // namespace floe::compression
