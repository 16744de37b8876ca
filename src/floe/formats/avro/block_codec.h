// The codecs of Avro container blocks (spec: "Object Container Files",
// "Required Codecs" and "Optional Codecs"), named as in the "avro.codec"
// metadata: "null", "deflate" (raw RFC 1951, no zlib or gzip wrapper),
// "snappy" (a snappy block followed by the big-endian CRC-32 of the
// uncompressed bytes) and "zstandard". "bzip2" and "xz" are Unsupported.
//
// Avro blocks do not record their uncompressed size, so decompression
// streams into memory and stops with Unsupported (a limit, not bad data) as
// soon as the output would exceed the caller's budget.
//
// Thread safety: all functions may be called concurrently.

#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "floe/base/result.h"

namespace floe::avro {

enum class BlockCodec : uint8_t { kNull, kDeflate, kSnappy, kZstandard };

// The "avro.codec" name of a codec.
std::string_view BlockCodecName(BlockCodec codec);

// The codec named by "avro.codec" (absent means "null"). Unsupported for
// "bzip2" and "xz"; Corrupt for a name the spec does not define.
Result<BlockCodec> BlockCodecFromName(std::string_view name);

// Decompresses one block into `out` (replacing its contents). Corrupt when
// the bytes do not decode (or, for snappy, the CRC does not match);
// Unsupported when the output would pass `max_bytes`.
Status DecompressBlock(BlockCodec codec, std::span<const uint8_t> in, int64_t max_bytes, std::string* out);

// Whether `level` suits `codec` (the ranges below): InvalidArgument when not.
Status CheckBlockCodecLevel(BlockCodec codec, std::optional<int> level);

// Compresses one block, appending to `out`. `level`: deflate 0..9 (default
// 6, as Java's Deflater), zstandard 1..22 (default 3); none for null and
// snappy. InvalidArgument for a level out of range.
Status CompressBlock(BlockCodec codec, std::span<const uint8_t> in, std::optional<int> level, std::string* out);

}  // namespace floe::avro
