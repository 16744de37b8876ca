// Split-block bloom filters (spec: parquet-format BloomFilter.md), the
// filters a column chunk may carry at ColumnMetaData.bloom_filter_offset.
//
// The bitset is z blocks of 256 bits, each eight little-endian 32-bit words.
// A value's 64-bit XXH64 hash (seed 0) picks a block with its upper 32 bits
// ("((hash >> 32) * z) >> 32") and, with its lower 32 bits multiplied by the
// spec's eight salts, one bit in each word of that block. Insert sets the
// eight bits, Check tests them: a false answer proves the value absent.
//
// Values are hashed in their PLAIN encoding; BYTE_ARRAY without its length
// prefix (BloomHash() overloads below).
//
// Thread safety: Check() may run concurrently; Insert() needs exclusive use.

#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

namespace floe::parquet {

class SplitBlockBloomFilter {
 public:
  static constexpr int64_t kBytesPerBlock = 32;
  // parquet-mr's and Arrow's bounds on a filter's size.
  static constexpr int64_t kMinBytes = 32;
  static constexpr int64_t kMaxBytes = int64_t{128} << 20;

  // The bitset size for `ndv` distinct values at false-positive probability
  // `fpp` (0 < fpp < 1): spec "m = -8 * ndv / ln(1 - fpp ^ (1/8))" bits,
  // rounded up to a power of two bytes within [kMinBytes, kMaxBytes].
  static int64_t OptimalNumBytes(int64_t ndv, double fpp);

  // An empty filter of `num_bytes` (a positive multiple of 32, the caller's
  // bug otherwise: it is rounded up).
  explicit SplitBlockBloomFilter(int64_t num_bytes);

  // A filter over a bitset read from a file (copied). Corrupt when the size
  // is not a positive multiple of 32 or exceeds kMaxBytes.
  static Result<SplitBlockBloomFilter> FromBytes(std::span<const uint8_t> bitset);

  void Insert(uint64_t hash);
  // false: no inserted value has this hash.
  bool Check(uint64_t hash) const;

  // The bitset as stored in the file (after the BloomFilterHeader).
  std::span<const uint8_t> bytes() const {
    return {reinterpret_cast<const uint8_t*>(words_.data()), words_.size() * sizeof(uint32_t)};
  }
  int64_t num_bytes() const { return static_cast<int64_t>(words_.size() * sizeof(uint32_t)); }

 private:
  SplitBlockBloomFilter() = default;

  std::vector<uint32_t> words_;  // 8 per block; little-endian host (see encoding/bit_util.h)
};

// XXH64 (seed 0) of a value's PLAIN encoding.
uint64_t BloomHash(int32_t value);
uint64_t BloomHash(int64_t value);
uint64_t BloomHash(float value);
uint64_t BloomHash(double value);
// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: the bytes.
uint64_t BloomHash(std::string_view bytes);

}  // namespace floe::parquet
