// Helpers shared by the Parquet encoding tests: byte-array values built from
// strings, and the seeded value patterns the property tests run over.

#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "floe/formats/parquet/encoding/byte_array.h"

namespace floe::parquet::encoding::testing {

// Byte arrays owned by the test, viewable as the encoders take them.
struct OwnedByteArrays {
  std::vector<int32_t> offsets{0};
  std::string data;

  explicit OwnedByteArrays(const std::vector<std::string>& values) {
    for (const std::string& v : values) {
      data += v;
      offsets.push_back(static_cast<int32_t>(data.size()));
    }
  }
  ByteArrayView view() const {
    return {offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), static_cast<int64_t>(offsets.size()) - 1};
  }
};

inline std::vector<std::string> ToStrings(const ByteArrayView& values) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < values.num_values; ++i) out.emplace_back(values.Value(i));
  return out;
}
inline std::vector<std::string> ToStrings(const ByteArrayBatch& batch) {
  EXPECT_EQ(batch.offsets_data()[0], 0);
  return ToStrings(batch.view());
}

// Random strings that often share prefixes with their neighbours.
inline std::vector<std::string> RandomStrings(std::mt19937_64& rng, int64_t n, int max_length) {
  std::vector<std::string> out;
  std::string previous;
  for (int64_t i = 0; i < n; ++i) {
    std::string v;
    if (!previous.empty() && rng() % 2 == 0) v = previous.substr(0, rng() % (previous.size() + 1));
    const auto extra = static_cast<int>(rng() % static_cast<uint64_t>(max_length + 1));
    for (int k = 0; k < extra; ++k) v.push_back(static_cast<char>(rng()));
    out.push_back(v);
    previous = v;
  }
  return out;
}

// The integer shapes the property tests cover.
enum class Pattern { kRandom, kExtremes, kRuns, kSorted, kStep, kSmall, kConstant };
inline constexpr Pattern kAllPatterns[] = {Pattern::kRandom, Pattern::kExtremes, Pattern::kRuns,    Pattern::kSorted,
                                           Pattern::kStep,   Pattern::kSmall,    Pattern::kConstant};
inline const char* PatternName(Pattern p) {
  switch (p) {
    case Pattern::kRandom: return "random";
    case Pattern::kExtremes: return "extremes";
    case Pattern::kRuns: return "runs";
    case Pattern::kSorted: return "sorted";
    case Pattern::kStep: return "step";
    case Pattern::kSmall: return "small";
    case Pattern::kConstant: return "constant";
  }
  return "?";
}

template <typename T>
std::vector<T> MakeIntegers(std::mt19937_64& rng, Pattern pattern, int64_t n) {
  using Limits = std::numeric_limits<T>;
  std::vector<T> out(static_cast<size_t>(n));
  T run_value = 0;
  for (int64_t i = 0; i < n; ++i) {
    T v = 0;
    switch (pattern) {
      case Pattern::kRandom: v = static_cast<T>(rng()); break;
      case Pattern::kExtremes: {
        const T choices[] = {Limits::min(), Limits::max(), 0, static_cast<T>(-1), 1, static_cast<T>(Limits::min() + 1)};
        v = choices[rng() % 6];
        break;
      }
      case Pattern::kRuns:
        if (i == 0 || rng() % 20 == 0) run_value = static_cast<T>(rng());
        v = run_value;
        break;
      case Pattern::kSorted: v = static_cast<T>(i * 3 + static_cast<int64_t>(rng() % 3)); break;
      case Pattern::kStep: v = static_cast<T>(i * 7 - 1000); break;  // one constant nonzero delta
      case Pattern::kSmall: v = static_cast<T>(static_cast<int64_t>(rng() % 200) - 100); break;
      case Pattern::kConstant: v = 42; break;
    }
    out[static_cast<size_t>(i)] = v;
  }
  return out;
}

// Value counts around the group, miniblock and block boundaries (8, 32, 128).
inline constexpr int64_t kCounts[] = {0, 1, 2, 7, 8, 9, 31, 32, 33, 127, 128, 129, 300, 1000, 4099};

}  // namespace floe::parquet::encoding::testing
