// Block compression codecs for file formats (Parquet pages, Avro blocks).
//
// A Codec names an algorithm and its framing, independent of any file
// format; formats map their own codec ids onto it (for Parquet:
// parquet::ToCodec in formats/parquet/metadata_enums.h). The input and
// output of every call are caller-owned spans; nothing is kept.
//
// Decompression is told the exact decompressed size (Parquet and Avro both
// store it) and fails with Corrupt naming the codec, the expected and the
// actual size when the input decodes to anything else, or does not decode.
//
// Thread safety: every function may be called from any number of threads at
// once. zstd keeps one compression and one decompression context per thread.

#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "floe/base/buffer.h"
#include "floe/base/result.h"

namespace floe::compression {

enum class Codec : uint8_t {
  kUncompressed,
  kSnappy,
  kGzip,       // RFC 1952 members (several concatenated ones too); zlib streams are read as well
  kZstd,       // RFC 8878 frames
  kLz4Raw,     // one LZ4 block, no framing
  kLz4Hadoop,  // Hadoop framing: blocks of [BE u32 decompressed size][BE u32 compressed size][LZ4 block]
  // Parquet's deprecated "LZ4" (codec 5): Hadoop framing, falling back to the
  // LZ4 frame format and then to a raw block, as other readers do for files
  // from old writers. Written with Hadoop framing.
  kLz4Legacy,
  kBrotli,
  kLzo,  // not implemented: every call returns Unsupported
  // One LZ4 frame (lz4 doc/lz4_Frame_format.md), written with its content
  // size: Puffin's "lz4". Parquet has no such codec.
  kLz4Frame,
};

// "none", "snappy", "gzip", "zstd", "lz4_raw", "lz4_hadoop", "lz4", "brotli", "lzo", "lz4_frame".
std::string_view CodecName(Codec codec);

// The codec a user names for writing: "none" or "uncompressed", "snappy",
// "gzip", "zstd", "lz4_raw", "brotli" (any case). InvalidArgument otherwise,
// including the deprecated "lz4" (use "lz4_raw").
Result<Codec> CodecFromName(std::string_view name);

// Decompresses `in` into exactly `out.size()` bytes. Corrupt when the input
// is malformed or decodes to another size; Unsupported for kLzo.
Status Decompress(Codec codec, std::span<const uint8_t> in, std::span<uint8_t> out);

// Decompresses into a new buffer of `uncompressed_size` bytes. Refuses,
// before allocating, a size above `max_bytes` (Unsupported: the caller's
// memory budget) or one the input cannot produce (Corrupt); InvalidArgument
// for a negative size. Other errors as Decompress.
Result<Buffer> DecompressToBuffer(Codec codec, std::span<const uint8_t> in, int64_t uncompressed_size,
                                  int64_t max_bytes);

// Corrupt when `in` itself states a decompressed size (snappy's length
// header, a single zstd frame's content size, an LZ4 frame's) other than
// `uncompressed_size`, or a kUncompressed input is not that long; OK when it
// agrees or the codec states none. Lets a caller refuse a lying size before
// it allocates or grows a buffer for it. InvalidArgument for a negative size.
Status CheckStatedSize(Codec codec, std::span<const uint8_t> in, int64_t uncompressed_size);

// The decompressed size a kZstd or kLz4Frame frame states in its header, for
// formats that store no size of their own (Puffin blobs and footers).
// Corrupt when the header is malformed, or a zstd frame states no size; an
// LZ4 frame without one reads as 0 (liblz4 writes none for empty input), so
// decompressing a non-empty one fails as Corrupt. InvalidArgument for any
// other codec.
Result<int64_t> FrameContentSize(Codec codec, std::span<const uint8_t> in);

// The largest output Compress can produce for `input_size` bytes.
// InvalidArgument when the codec cannot compress that much in one call
// (LZ4 and snappy limit a block to about 2 GiB); Unsupported for kLzo.
Result<int64_t> MaxCompressedLength(Codec codec, int64_t input_size);

// Compresses `in` into `out` (at least MaxCompressedLength bytes) and
// returns the compressed size. `level` is the codec's own scale: gzip 0..9
// (default 6), zstd ZSTD_minCLevel()..ZSTD_maxCLevel() (default 3), brotli
// quality 0..11 (default 8); snappy, lz4 and none take no level. InvalidArgument
// for a level out of range or given to a codec without levels, or a short
// `out`; Unsupported for kLzo.
Result<int64_t> CompressInto(Codec codec, std::span<const uint8_t> in, std::span<uint8_t> out,
                             std::optional<int> level = std::nullopt);

// Compresses into a new buffer (a slice of a MaxCompressedLength allocation).
// Errors as CompressInto.
Result<Buffer> Compress(Codec codec, std::span<const uint8_t> in, std::optional<int> level = std::nullopt);

}  // namespace floe::compression
