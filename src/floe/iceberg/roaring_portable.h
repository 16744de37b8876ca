// A full check of one 32-bit Roaring bitmap in the portable serialization
// (RoaringFormatSpec, "General layout"), before CRoaring reads it. Internal
// to iceberg/deletion_vector.cc.
//
// CRoaring 0.2.66 (Debian 12) bounds-checks the bytes it reads but trusts
// their content: a bitset whose popcount is not its stated cardinality, or
// unsorted arrays and overlapping runs, make later operations read and write
// out of bounds. A deletion vector comes from a file, so every such fact is
// checked here first.
//
// Thread safety: a pure function.

#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "floe/base/result.h"

namespace floe::iceberg::internal {

struct PortableBitmapInfo {
  size_t size_bytes = 0;     // bytes the bitmap takes at the start of the input
  uint64_t cardinality = 0;  // values it holds
};

// Checks the bitmap at the start of `bytes` (trailing bytes are the
// caller's): the cookie, at most 65536 containers with strictly ascending
// keys, the offset header (when present) pointing at each container,
// strictly ascending array values, bitsets whose popcount is their
// cardinality, runs in order, disjoint and inside 0..65535, and each
// container holding its stated cardinality. Corrupt naming the first
// violation and its container.
Result<PortableBitmapInfo> CheckPortableBitmap(std::span<const uint8_t> bytes);

}  // namespace floe::iceberg::internal
