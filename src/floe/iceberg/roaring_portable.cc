// The portable 32-bit Roaring layout (RoaringFormatSpec):
//   cookie: u32 12346 then u32 container count (no run containers), or
//           u16 12347 then u16 count-1, then a bitset of run containers;
//   descriptive header: per container u16 key, u16 cardinality-1;
//   offset header (u32 per container): always with 12346, with 12347 only
//           from 4 containers on;
//   containers: run (u16 count, then u16 start, u16 length-1 pairs), array
//           (cardinality <= 4096 u16 values) or bitset (1024 u64 words).
// All integers little-endian.

#include "floe/iceberg/roaring_portable.h"

#include <bit>
#include <vector>

#include "floe/base/strings.h"

namespace floe::iceberg::internal {
namespace {

constexpr uint32_t kSerialCookieNoRunContainer = 12346;
constexpr uint16_t kSerialCookie = 12347;
constexpr uint32_t kNoOffsetThreshold = 4;
constexpr uint32_t kMaxContainers = 65536;
constexpr uint32_t kMaxArrayCardinality = 4096;
constexpr size_t kBitsetBytes = 8192;

uint16_t Load16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t Load32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}
uint64_t Load64(const uint8_t* p) { return uint64_t{Load32(p)} | (uint64_t{Load32(p + 4)} << 32); }

Status Bad(std::string_view what) { return Status::Corrupt(StrCat("32-bit Roaring bitmap: ", what)); }

}  // namespace

Result<PortableBitmapInfo> CheckPortableBitmap(std::span<const uint8_t> bytes) {
  const uint8_t* data = bytes.data();
  const size_t size = bytes.size();
  size_t pos = 0;
  const auto need = [&](size_t n, std::string_view what) -> Status {
    if (size - pos < n) return Bad(StrCat(what, " needs ", n, " bytes at byte ", pos, ", ", size - pos, " are left"));
    return Status::OK();
  };

  FLOE_RETURN_IF_ERROR(need(4, "the cookie"));
  const uint32_t cookie = Load32(data);
  pos = 4;
  uint32_t containers = 0;
  bool has_runs = false;
  const uint8_t* run_flags = nullptr;
  if (cookie == kSerialCookieNoRunContainer) {
    FLOE_RETURN_IF_ERROR(need(4, "the container count"));
    containers = Load32(data + pos);
    pos += 4;
    if (containers > kMaxContainers) return Bad(StrCat("container count ", containers, " is above 65536"));
  } else if ((cookie & 0xffff) == kSerialCookie) {
    has_runs = true;
    containers = (cookie >> 16) + 1;
    FLOE_RETURN_IF_ERROR(need((containers + 7) / 8, "the run container bitset"));
    run_flags = data + pos;
    pos += (containers + 7) / 8;
  } else {
    return Bad(StrCat("unknown cookie ", cookie, " (expected 12346, or 12347 in the low 16 bits)"));
  }

  FLOE_RETURN_IF_ERROR(need(size_t{4} * containers, "the descriptive header"));
  const uint8_t* header = data + pos;
  pos += size_t{4} * containers;
  const uint8_t* offsets = nullptr;
  if (!has_runs || containers >= kNoOffsetThreshold) {
    FLOE_RETURN_IF_ERROR(need(size_t{4} * containers, "the offset header"));
    offsets = data + pos;
    pos += size_t{4} * containers;
  }

  PortableBitmapInfo info;
  int64_t previous_key = -1;
  for (uint32_t i = 0; i < containers; ++i) {
    const uint16_t key = Load16(header + 4 * i);
    const uint32_t cardinality = uint32_t{Load16(header + 4 * i + 2)} + 1;
    const std::string name = StrCat("container ", i, " (key ", key, ")");
    if (key <= previous_key) return Bad(StrCat(name, ": keys are not ascending (after ", previous_key, ")"));
    previous_key = key;
    if (offsets != nullptr && Load32(offsets + 4 * i) != pos) {
      return Bad(StrCat(name, ": offset header says byte ", Load32(offsets + 4 * i), ", the container is at ", pos));
    }
    const bool is_run = has_runs && ((run_flags[i / 8] >> (i % 8)) & 1) != 0;
    if (is_run) {
      FLOE_RETURN_IF_ERROR(need(2, name + " run count"));
      const uint32_t runs = Load16(data + pos);
      pos += 2;
      FLOE_RETURN_IF_ERROR(need(size_t{4} * runs, name + " runs"));
      uint64_t count = 0;
      int64_t previous_end = -1;
      for (uint32_t r = 0; r < runs; ++r) {
        const uint32_t start = Load16(data + pos + 4 * r);
        const uint32_t end = start + Load16(data + pos + 4 * r + 2);  // inclusive
        if (end > 0xffff) return Bad(StrCat(name, ": run ", r, " ends at ", end, ", past 65535"));
        if (static_cast<int64_t>(start) <= previous_end) {
          return Bad(StrCat(name, ": run ", r, " starts at ", start, ", not after the previous run's end"));
        }
        previous_end = end;
        count += end - start + 1;
      }
      pos += size_t{4} * runs;
      if (count != cardinality) {
        return Bad(StrCat(name, ": runs hold ", count, " values, the header says ", cardinality));
      }
    } else if (cardinality <= kMaxArrayCardinality) {
      FLOE_RETURN_IF_ERROR(need(size_t{2} * cardinality, name + " array"));
      int32_t previous = -1;
      for (uint32_t v = 0; v < cardinality; ++v) {
        const uint16_t value = Load16(data + pos + 2 * v);
        if (value <= previous) return Bad(StrCat(name, ": array values are not ascending at index ", v));
        previous = value;
      }
      pos += size_t{2} * cardinality;
    } else {
      FLOE_RETURN_IF_ERROR(need(kBitsetBytes, name + " bitset"));
      uint64_t count = 0;
      for (size_t w = 0; w < kBitsetBytes; w += 8) count += std::popcount(Load64(data + pos + w));
      pos += kBitsetBytes;
      if (count != cardinality) {
        return Bad(StrCat(name, ": bitset holds ", count, " values, the header says ", cardinality));
      }
    }
    info.cardinality += cardinality;
  }
  info.size_bytes = pos;
  return info;
}

}  // namespace floe::iceberg::internal
