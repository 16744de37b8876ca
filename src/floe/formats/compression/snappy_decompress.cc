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
// Fast paths only run while at least kSlack bytes of output and input remain,
// so they never read or write past either span; the last bytes go through
// the exact, byte-precise path.

#include <cstdint>
#include <cstring>

#include "floe/base/strings.h"
#include "floe/formats/compression/codec_internal.h"

namespace floe::compression::internal {
namespace {

// The widest over-copy a fast path makes: a literal of up to 16 bytes is
// copied as 16, a copy of up to 64 bytes as up to 64 in 16-byte steps.
constexpr size_t kSlack = 64;

inline void Copy16(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 16); }
inline void Copy8(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 8); }

inline uint32_t LoadLE(const uint8_t* p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}

// Copies `len` bytes from `offset` bytes back in the output to `op`. The
// regions may overlap (offset < len repeats the last `offset` bytes), which
// is how snappy encodes runs. With `wide`, op has kSlack bytes of room past
// op + len and len <= 64.
inline void CopyBack(uint8_t* op, size_t offset, size_t len, bool wide) {
  const uint8_t* src = op - offset;
  if (wide && offset >= 16) {
    // Each 16-byte step reads bytes at least 16 behind what it writes: all
    // of them are final by then.
    for (size_t i = 0; i < len; i += 16) Copy16(op + i, src + i);
    return;
  }
  if (wide && offset >= 8) {
    for (size_t i = 0; i < len; i += 8) Copy8(op + i, src + i);
    return;
  }
  for (size_t i = 0; i < len; ++i) op[i] = src[i];
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
  while (ip < ip_end) {
    const uint8_t tag = *ip++;
    const size_t in_left = static_cast<size_t>(ip_end - ip);
    const size_t out_left = static_cast<size_t>(op_end - op);
    if ((tag & 3) == 0) {
      // Literal: length - 1 in the tag's upper six bits, or, from 60 on, in
      // the 1 to 4 little-endian bytes that follow.
      size_t len = (tag >> 2) + size_t{1};
      if (len <= 16 && in_left >= kSlack && out_left >= kSlack) {
        Copy16(op, ip);
        ip += len;
        op += len;
        continue;
      }
      if (len > 60) {
        const int extra = static_cast<int>(len) - 60;
        if (in_left < static_cast<size_t>(extra)) return Malformed(Codec::kSnappy, "literal length runs past the input");
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
    size_t len = 0;
    size_t offset = 0;
    switch (tag & 3) {
      case 1:  // copy with a 1-byte offset: length 4..11, offset 0..2047
        if (in_left < 1) return Malformed(Codec::kSnappy, "copy runs past the input");
        len = ((tag >> 2) & 7) + size_t{4};
        offset = (size_t{tag} >> 5) << 8 | ip[0];
        ip += 1;
        break;
      case 2:  // copy with a 2-byte offset: length 1..64
        if (in_left < 2) return Malformed(Codec::kSnappy, "copy runs past the input");
        len = (tag >> 2) + size_t{1};
        offset = LoadLE(ip, 2);
        ip += 2;
        break;
      default:  // copy with a 4-byte offset: length 1..64
        if (in_left < 4) return Malformed(Codec::kSnappy, "copy runs past the input");
        len = (tag >> 2) + size_t{1};
        offset = LoadLE(ip, 4);
        ip += 4;
        break;
    }
    if (offset == 0 || offset > static_cast<size_t>(op - base)) {
      return Malformed(Codec::kSnappy, StrCat("copy offset ", offset, " at output byte ", op - base));
    }
    if (len > out_left) return TooLarge(Codec::kSnappy, out.size());
    CopyBack(op, offset, len, out_left >= len + kSlack);
    op += len;
  }
  if (op != op_end) return SizeMismatch(Codec::kSnappy, out.size(), static_cast<uint64_t>(op - base));
  return Status::OK();
}

}  // namespace floe::compression::internal
