// Internal to formats/compression: the per-codec entry points behind the
// dispatch in codec.cc, and the error messages they share. Each codec file
// checks sizes against the span it is given; codec.cc has already checked
// levels and output capacity.

#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "floe/base/result.h"
#include "floe/formats/compression/codec.h"

namespace floe::compression::internal {

// For an overlapping copy whose offset is 1 to 7 (a run: the last `offset`
// bytes repeat): writes `len` bytes at `op` from the `offset` bytes before
// it in 16-byte stores, where a byte-by-byte copy waits on each store it has
// just made. It may write up to 15 bytes past op + len.
inline void CopyRepeatingPattern(uint8_t* op, size_t offset, size_t len) {
  // Row o: i % o for i in 0..15, the pattern's bytes; kStep[o]: the largest
  // multiple of o up to 16, how far on the next store starts in phase.
  static constexpr auto kIndex = [] {
    std::array<std::array<uint8_t, 16>, 8> index{};
    for (size_t o = 1; o < 8; ++o) {
      for (size_t i = 0; i < 16; ++i) index[o][i] = static_cast<uint8_t>(i % o);
    }
    return index;
  }();
  static constexpr uint8_t kStep[8] = {0, 16, 16, 15, 16, 15, 12, 14};
  const uint8_t* const from = op - offset;
  uint8_t pattern[16];
  for (size_t i = 0; i < 16; ++i) pattern[i] = from[kIndex[offset][i]];
  const size_t step = kStep[offset];
  for (size_t i = 0; i < len; i += step) std::memcpy(op + i, pattern, 16);
}

// "<codec>: input decompresses to <actual> bytes, expected <expected>".
Status SizeMismatch(Codec codec, uint64_t expected, uint64_t actual);
// "<codec>: input decompresses to more than the expected <expected> bytes".
Status TooLarge(Codec codec, uint64_t expected);
// "<codec>: malformed input: <detail>".
Status Malformed(Codec codec, std::string_view detail);

Status SnappyDecompress(std::span<const uint8_t> in, std::span<uint8_t> out);
// floe's own decoder of one raw snappy block into exactly `out` (which must
// match the block's length header): Corrupt for malformed input, a copy
// reaching before the output's start, or any other decoded size.
Status SnappyDecodeBlock(std::span<const uint8_t> in, std::span<uint8_t> out);
Result<int64_t> SnappyCompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Result<int64_t> SnappyMaxCompressedLength(int64_t input_size);
// The size the snappy header announces; Corrupt when it cannot be read.
Result<uint64_t> SnappyUncompressedLength(std::span<const uint8_t> in);

Status GzipDecompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Result<int64_t> GzipCompress(std::span<const uint8_t> in, std::span<uint8_t> out, int level);
int64_t GzipMaxCompressedLength(int64_t input_size);

Status ZstdDecompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Result<int64_t> ZstdCompress(std::span<const uint8_t> in, std::span<uint8_t> out, int level);
Result<int64_t> ZstdMaxCompressedLength(int64_t input_size);
int ZstdMinLevel();
int ZstdMaxLevel();
// Corrupt when `in` is one zstd frame whose header states a size other
// than `expected`; OK when it agrees or does not say.
Status ZstdCheckContentSize(std::span<const uint8_t> in, uint64_t expected);
// The size a zstd frame header states; Corrupt when malformed or absent.
Result<int64_t> ZstdFrameContentSize(std::span<const uint8_t> in);

// floe's own decoder of one LZ4 block into at most out.size() bytes: the
// number of bytes written, or Corrupt (naming `codec`) for a malformed block
// or one that decodes to more than `out`. It may write anywhere in `out`,
// past the bytes it reports too.
Result<size_t> Lz4DecodeBlock(Codec codec, std::span<const uint8_t> in, std::span<uint8_t> out);
Status Lz4RawDecompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Status Lz4HadoopDecompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Status Lz4LegacyDecompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Result<int64_t> Lz4RawCompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Result<int64_t> Lz4HadoopCompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Result<int64_t> Lz4RawMaxCompressedLength(int64_t input_size);
Result<int64_t> Lz4HadoopMaxCompressedLength(int64_t input_size);
Status Lz4FrameDecompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Result<int64_t> Lz4FrameCompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Result<int64_t> Lz4FrameMaxCompressedLength(int64_t input_size);
// The size an LZ4 frame header states, 0 when it states none; Corrupt when
// the header is malformed.
Result<int64_t> Lz4FrameContentSize(std::span<const uint8_t> in);

Status BrotliDecompress(std::span<const uint8_t> in, std::span<uint8_t> out);
Result<int64_t> BrotliCompress(std::span<const uint8_t> in, std::span<uint8_t> out, int quality);
Result<int64_t> BrotliMaxCompressedLength(int64_t input_size);

}  // namespace floe::compression::internal
