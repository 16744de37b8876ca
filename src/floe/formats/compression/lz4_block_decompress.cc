// floe's own decoder of one LZ4 block (spec: lz4 doc/lz4_Block_format.md):
// sequences of a token, literals and a match copied from earlier output; the
// last sequence holds literals only.
//
// Why not liblz4's LZ4_decompress_safe: on Parquet pages of small values
// (sequential integers, doubles) most sequences are a few literals and a
// 4-7 byte match, and the per-sequence work decides the speed. Measured on
// the pages of the scan benchmark's files (decision 0063), 1 thread, best
// of 5: sequential int64 87-103 ms here against 129-139 ms for liblz4
// 1.9.4, 32-byte strings 80-94 against 92-103, doubles level (41-44 each).
//
// Two loops, as in floe's snappy decoder. The fast loop runs while more than
// kSlack bytes of input and of output remain, copies literals and matches in
// fixed 16- and 8-byte steps that may run past their end (the next sequence
// overwrites the excess), and checks only what no slack can cover: a
// match's offset and a long length. A sequence that would leave the slack
// is given back whole to the exact loop, which decodes the rest with
// byte-precise checks.
//
// What is accepted: sequences that stay inside both spans, whose matches
// start within the output so far (offset 0 is invalid), the last of them
// literals that end the input. The format's other end-of-block conditions
// (the last 5 bytes are literals, the last match starts 12 bytes before the
// end) are rules for encoders that a decoder may enforce or not; every
// encoder keeps them, and liblz4 enforces them on some paths and not on
// others, so floe leaves them out rather than refuse blocks liblz4 reads.

#include <cstdint>
#include <cstring>

#include "floe/base/strings.h"
#include "floe/formats/compression/codec_internal.h"

namespace floe::compression::internal {
namespace {

// The widest over-copy of the fast loop: literals of up to 64 bytes in
// 16-byte steps; matches in 8-byte steps, up to 7 bytes past their end.
constexpr size_t kSlack = 64;
constexpr size_t kMinMatch = 4;

inline void Copy16(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 16); }
inline void Copy8(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 8); }

// Adds the length bytes that follow a nibble of 15 (a byte of 255 means
// another follows) to `length`; false when they reach `end`. `ip` may start
// past `end` (the fast loop's limit is not the input's end).
inline bool AddLengthBytes(const uint8_t*& ip, const uint8_t* end, size_t* length) {
  size_t add;
  do {
    if (ip >= end) return false;
    add = *ip++;
    *length += add;
  } while (add == 255);
  return true;
}

[[gnu::noinline, gnu::cold]] Status BadMatchOffset(Codec codec, size_t offset, size_t output_so_far) {
  return Malformed(codec, StrCat("match offset ", offset, " at output byte ", output_so_far));
}

}  // namespace

Result<size_t> Lz4DecodeBlock(Codec codec, std::span<const uint8_t> in, std::span<uint8_t> out) {
  // liblz4's answers for the degenerate cases: no input is no block, and an
  // empty output takes only the block that encodes nothing (one zero token).
  if (in.empty()) return Malformed(codec, "empty LZ4 block");
  if (out.empty()) {
    if (in.size() == 1 && in[0] == 0) return size_t{0};
    return TooLarge(codec, 0);
  }
  const uint8_t* ip = in.data();
  const uint8_t* const ip_end = ip + in.size();
  uint8_t* const base = out.data();
  uint8_t* op = base;
  uint8_t* const op_end = base + out.size();

  if (in.size() > kSlack && out.size() > kSlack) {
    const uint8_t* const ip_fast_end = ip_end - kSlack;
    uint8_t* const op_fast_end = op_end - kSlack;
    while (ip < ip_fast_end && op < op_fast_end) {
      const uint8_t* const sequence_ip = ip;
      uint8_t* const sequence_op = op;
      const unsigned token = *ip++;
      size_t literals = token >> 4;
      if (literals != 15) {
        Copy16(op, ip);
      } else {
        if (!AddLengthBytes(ip, ip_fast_end, &literals) || literals > static_cast<size_t>(ip_fast_end - ip) ||
            literals > static_cast<size_t>(op_fast_end - op)) {
          ip = sequence_ip;
          op = sequence_op;
          break;
        }
        if (literals <= 32) {
          Copy16(op, ip);
          Copy16(op + 16, ip + 16);
        } else if (literals <= 64) {
          Copy16(op, ip);
          Copy16(op + 16, ip + 16);
          Copy16(op + 32, ip + 32);
          Copy16(op + 48, ip + 48);
        } else {
          std::memcpy(op, ip, literals);
        }
      }
      ip += literals;
      op += literals;
      // The last sequence (literals alone) and any that ends near either
      // end belong to the exact loop.
      if (ip >= ip_fast_end || op >= op_fast_end) {
        ip = sequence_ip;
        op = sequence_op;
        break;
      }
      const size_t offset = size_t{ip[0]} | size_t{ip[1]} << 8;
      ip += 2;
      size_t length = token & 15;
      if ((length == 15 && !AddLengthBytes(ip, ip_fast_end, &length)) ||
          length + kMinMatch > static_cast<size_t>(op_fast_end - op)) {
        ip = sequence_ip;
        op = sequence_op;
        break;
      }
      length += kMinMatch;
      // offset - 1 wraps for offset 0, so one compare rejects both ends.
      if (offset - 1 >= static_cast<size_t>(op - base)) return BadMatchOffset(codec, offset, op - base);
      const uint8_t* const from = op - offset;
      if (offset >= 8) {
        // Each 8-byte step reads at least 8 bytes behind what it writes: all
        // of them are final by then.
        Copy8(op, from);
        if (length > 8) {
          Copy8(op + 8, from + 8);
          for (size_t i = 16; i < length; i += 8) Copy8(op + i, from + i);
        }
      } else {
        CopyRepeatingPattern(op, offset, length);
      }
      op += length;
    }
  }

  // The exact loop: fewer than kSlack bytes of input or of output remain, or
  // a long sequence did not fit the fast loop's checks.
  while (true) {
    if (ip == ip_end) return Malformed(codec, "LZ4 block ends after a match, not with literals");
    const unsigned token = *ip++;
    size_t literals = token >> 4;
    if (literals == 15 && !AddLengthBytes(ip, ip_end, &literals)) {
      return Malformed(codec, "literal length runs past the input");
    }
    const size_t in_left = static_cast<size_t>(ip_end - ip);
    const size_t out_left = static_cast<size_t>(op_end - op);
    if (literals > in_left) return Malformed(codec, "literals run past the input");
    if (literals > out_left) return TooLarge(codec, out.size());
    std::memcpy(op, ip, literals);
    ip += literals;
    op += literals;
    if (ip == ip_end) break;  // the last sequence: its literals end the input
    if (in_left - literals < 2) return Malformed(codec, "match offset runs past the input");
    const size_t offset = size_t{ip[0]} | size_t{ip[1]} << 8;
    ip += 2;
    size_t length = token & 15;
    if (length == 15 && !AddLengthBytes(ip, ip_end, &length)) {
      return Malformed(codec, "match length runs past the input");
    }
    length += kMinMatch;
    if (offset == 0 || offset > static_cast<size_t>(op - base)) return BadMatchOffset(codec, offset, op - base);
    if (length > static_cast<size_t>(op_end - op)) return TooLarge(codec, out.size());
    // A long match (a run to the end of a page ends here, however long) is
    // copied wide up to its last 16 bytes, whose room the wide copies may
    // overrun, and those one by one.
    const size_t wide = length > 16 ? length - 16 : 0;
    if (offset >= 8) {
      for (size_t i = 0; i < wide; i += 8) Copy8(op + i, op + i - offset);
    } else if (wide > 0) {
      CopyRepeatingPattern(op, offset, wide);
    }
    const uint8_t* const from = op - offset;
    for (size_t i = wide; i < length; ++i) op[i] = from[i];
    op += length;
  }
  return static_cast<size_t>(op - base);
}

}  // namespace floe::compression::internal
