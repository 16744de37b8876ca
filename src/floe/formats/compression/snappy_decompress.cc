// floe's own decoder of raw snappy blocks (spec: google/snappy
// format_description.txt): a varint of the uncompressed length, then
// elements, each a literal or a copy of earlier output.
//
// Why not libsnappy's: Parquet pages decompress into a buffer whose size the
// header states, so every element can be bounds-checked once against the
// output end and then copied in fixed 16-byte (or 8-byte) steps the compiler
// turns into single vector moves, with no call per element. libsnappy 1.1.9
// (Debian's) calls memmove through the PLT for most elements; on sequential
// integers and doubles that call was half of a scan (see decision 0044).
//
// Decoding runs in two loops. The fast loop runs while more than kSlack bytes
// of input and kOutputSlack of output remain: no element it decodes can then read or
// write past either span, so it checks only that a copy's offset points into
// the output so far and that a long literal fits, and copies in fixed steps.
// The exact loop decodes the last elements with byte-precise checks. Keeping
// the bounds out of the fast loop shortens each element's dependency chain:
// 3-7 % faster on doubles, sequential integers and short strings, where an
// element is 4-5 bytes on average (decision 0060).

#include <cstdint>
#include <cstring>

#include "floe/base/strings.h"
#include "floe/formats/compression/codec_internal.h"

namespace floe::compression::internal {
namespace {

// The widest over-copy the fast loop makes: a literal of up to 60 bytes, or a
// copy of up to 64, is copied in 16-byte (or 8-byte) steps, up to 64 bytes.
constexpr size_t kSlack = 64;
// The output room the fast loop keeps: a copy of up to 64 bytes starts
// before op_end - kOutputSlack, and a run's pattern stores reach up to 15
// bytes past its end (CopyRepeatingPattern).
constexpr size_t kOutputSlack = kSlack + 16;

inline void Copy16(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 16); }
inline void Copy8(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 8); }

inline uint32_t LoadLE(const uint8_t* p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}

// Copies `len` (at most 64) bytes from `offset` bytes back in the output to
// `op`, which has 16 bytes of room past op + len. The regions may overlap
// (offset < len repeats the last `offset` bytes): that is how snappy encodes
// runs.
inline void CopyBackWide(uint8_t* op, size_t offset, size_t len) {
  const uint8_t* src = op - offset;
  if (offset >= 16) {
    // Each 16-byte step reads bytes at least 16 behind what it writes: all
    // of them are final by then.
    Copy16(op, src);
    for (size_t i = 16; i < len; i += 16) Copy16(op + i, src + i);
  } else if (offset >= 8) {
    for (size_t i = 0; i < len; i += 8) Copy8(op + i, src + i);
  } else {
    CopyRepeatingPattern(op, offset, len);
  }
}

// A copy element's tag names its length and how many offset bytes follow:
// tag type 1 holds a length of 4..11 and an 11-bit offset whose low byte
// follows; types 2 and 3 hold a length of 1..64 and a 2- or 4-byte offset.
struct CopyElement {
  size_t len;
  size_t offset;
  int offset_bytes;
};

inline int CopyOffsetBytes(uint8_t tag) { return (tag & 3) == 1 ? 1 : (tag & 3) == 2 ? 2 : 4; }

// Reads the copy whose tag is `tag`; `ip` holds at least CopyOffsetBytes(tag)
// bytes.
inline CopyElement ReadCopy(uint8_t tag, const uint8_t* ip) {
  if ((tag & 3) == 1) return {((tag >> 2) & 7) + size_t{4}, (size_t{tag} >> 5) << 8 | ip[0], 1};
  if ((tag & 3) == 2) return {(tag >> 2) + size_t{1}, LoadLE(ip, 2), 2};
  return {(tag >> 2) + size_t{1}, LoadLE(ip, 4), 4};
}

// Out of line so that the fast loop keeps `offset` in a register.
[[gnu::noinline, gnu::cold]] Status BadCopyOffset(size_t offset, size_t output_so_far) {
  return Malformed(Codec::kSnappy, StrCat("copy offset ", offset, " at output byte ", output_so_far));
}

}  // namespace

Status SnappyDecodeBlock(std::span<const uint8_t> in, std::span<uint8_t> out) {
  const uint8_t* ip = in.data();
  const uint8_t* const ip_end = ip + in.size();
  // The length header: a little-endian base-128 varint of at most 32 bits.
  uint64_t length = 0;
  for (int shift = 0;; shift += 7) {
    if (ip == ip_end || shift > 28) return Malformed(Codec::kSnappy, "unreadable length header");
    const uint8_t b = *ip++;
    length |= uint64_t{b & 0x7fu} << shift;
    if ((b & 0x80) == 0) break;
  }
  if (length > UINT32_MAX) return Malformed(Codec::kSnappy, "unreadable length header");
  if (length != out.size()) return SizeMismatch(Codec::kSnappy, out.size(), length);

  uint8_t* const base = out.data();
  uint8_t* op = base;
  uint8_t* const op_end = base + out.size();
  // The limits leave kSlack bytes of input and kOutputSlack of output; an
  // empty range skips the fast loop.
  const uint8_t* const ip_fast_end = static_cast<size_t>(ip_end - ip) > kSlack ? ip_end - kSlack : ip;
  uint8_t* const op_fast_end = out.size() > kOutputSlack ? op_end - kOutputSlack : base;

  while (ip < ip_fast_end && op < op_fast_end) {
    const uint8_t tag = *ip++;
    if ((tag & 3) == 0) {
      // Literal: length - 1 in the tag's upper six bits, or, from 60 on, in
      // the 1 to 4 little-endian bytes that follow.
      size_t len = (tag >> 2) + size_t{1};
      if (len <= 60) {
        Copy16(op, ip);
        for (size_t i = 16; i < len; i += 16) Copy16(op + i, ip + i);
        ip += len;
        op += len;
        continue;
      }
      const int extra = static_cast<int>(len) - 60;
      len = size_t{LoadLE(ip, extra)} + 1;
      ip += extra;
      if (len > static_cast<size_t>(ip_end - ip)) return Malformed(Codec::kSnappy, "literal runs past the input");
      if (len > static_cast<size_t>(op_end - op)) return TooLarge(Codec::kSnappy, out.size());
      std::memcpy(op, ip, len);
      ip += len;
      op += len;
      continue;
    }
    const auto [len, offset, offset_bytes] = ReadCopy(tag, ip);
    ip += offset_bytes;
    // offset - 1 wraps for offset 0, so one compare rejects both ends.
    if (offset - 1 >= static_cast<size_t>(op - base)) return BadCopyOffset(offset, static_cast<size_t>(op - base));
    CopyBackWide(op, offset, len);
    op += len;
  }

  // The exact loop: fewer than kSlack bytes of input or kOutputSlack of output remain.
  while (ip < ip_end) {
    const uint8_t tag = *ip++;
    const size_t in_left = static_cast<size_t>(ip_end - ip);
    const size_t out_left = static_cast<size_t>(op_end - op);
    if ((tag & 3) == 0) {
      size_t len = (tag >> 2) + size_t{1};
      if (len > 60) {
        const int extra = static_cast<int>(len) - 60;
        if (in_left < static_cast<size_t>(extra))
          return Malformed(Codec::kSnappy, "literal length runs past the input");
        len = size_t{LoadLE(ip, extra)} + 1;
        ip += extra;
      }
      if (len > static_cast<size_t>(ip_end - ip)) return Malformed(Codec::kSnappy, "literal runs past the input");
      if (len > out_left) return TooLarge(Codec::kSnappy, out.size());
      std::memcpy(op, ip, len);
      ip += len;
      op += len;
      continue;
    }
    if (in_left < static_cast<size_t>(CopyOffsetBytes(tag)))
      return Malformed(Codec::kSnappy, "copy runs past the input");
    const auto [len, offset, offset_bytes] = ReadCopy(tag, ip);
    ip += offset_bytes;
    if (offset == 0 || offset > static_cast<size_t>(op - base)) {
      return BadCopyOffset(offset, static_cast<size_t>(op - base));
    }
    if (len > out_left) return TooLarge(Codec::kSnappy, out.size());
    // Byte by byte, forwards: an overlapping copy repeats what it has just
    // written. `from` is computed once: op[i - offset] would add a wrapped
    // size_t to op, which is undefined for i < offset.
    const uint8_t* const from = op - offset;
    for (size_t i = 0; i < len; ++i) op[i] = from[i];
    op += len;
  }
  if (op != op_end) return SizeMismatch(Codec::kSnappy, out.size(), static_cast<uint64_t>(op - base));
  return Status::OK();
}

}  // namespace floe::compression::internal
