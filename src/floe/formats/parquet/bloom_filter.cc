#include "floe/formats/parquet/bloom_filter.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "floe/base/strings.h"

namespace floe::parquet {
namespace {

// spec (BloomFilter.md): "the salt ... eight odd unsigned 32-bit integers".
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

inline uint64_t BlockIndex(uint64_t hash, uint64_t num_blocks) { return ((hash >> 32) * num_blocks) >> 32; }

inline uint32_t Mask(uint32_t key, int i) { return uint32_t{1} << ((key * kSalt[i]) >> 27); }

template <typename T>
uint64_t HashFixed(T value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // little-endian host: this is the PLAIN form
  return XXH64(bytes, sizeof(T), 0);
}

}  // namespace

int64_t SplitBlockBloomFilter::OptimalNumBytes(int64_t ndv, double fpp) {
  if (ndv < 1) ndv = 1;
  if (!(fpp > 0.0 && fpp < 1.0)) fpp = 0.01;
  const double bits = -8.0 * static_cast<double>(ndv) / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  const double bytes = std::ceil(bits / 8.0);
  if (!(bytes < static_cast<double>(kMaxBytes))) return kMaxBytes;
  const auto n = std::bit_ceil(static_cast<uint64_t>(bytes < 1 ? 1 : bytes));
  return std::clamp<int64_t>(static_cast<int64_t>(n), kMinBytes, kMaxBytes);
}

SplitBlockBloomFilter::SplitBlockBloomFilter(int64_t num_bytes) {
  const int64_t blocks = std::max<int64_t>(1, (num_bytes + kBytesPerBlock - 1) / kBytesPerBlock);
  words_.assign(static_cast<size_t>(blocks * 8), 0);
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::FromBytes(std::span<const uint8_t> bitset) {
  const auto size = static_cast<int64_t>(bitset.size());
  if (size <= 0 || size % kBytesPerBlock != 0 || size > kMaxBytes) {
    return Status::Corrupt(StrCat("bloom filter: bitset of ", size, " bytes (must be a positive multiple of 32, at most ",
                                  kMaxBytes, ")"));
  }
  SplitBlockBloomFilter f;
  f.words_.resize(static_cast<size_t>(size / 4));
  std::memcpy(f.words_.data(), bitset.data(), bitset.size());
  return f;
}

void SplitBlockBloomFilter::Insert(uint64_t hash) {
  uint32_t* block = words_.data() + BlockIndex(hash, words_.size() / 8) * 8;
  const auto key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) block[i] |= Mask(key, i);
}

bool SplitBlockBloomFilter::Check(uint64_t hash) const {
  const uint32_t* block = words_.data() + BlockIndex(hash, words_.size() / 8) * 8;
  const auto key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) {
    if ((block[i] & Mask(key, i)) == 0) return false;
  }
  return true;
}

uint64_t BloomHash(int32_t value) { return HashFixed(value); }
uint64_t BloomHash(int64_t value) { return HashFixed(value); }
uint64_t BloomHash(float value) { return HashFixed(value); }
uint64_t BloomHash(double value) { return HashFixed(value); }
uint64_t BloomHash(std::string_view bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

}  // namespace floe::parquet
