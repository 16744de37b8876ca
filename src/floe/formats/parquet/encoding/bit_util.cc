#include "floe/formats/parquet/encoding/bit_util.h"

#include <array>
#include <utility>

namespace floe::parquet::encoding {
namespace {

// Value I of a group of 32 W-bit values. The group is exactly W little-endian
// 32-bit words, so every load stays inside it; a value starting at bit s of a
// word spills into the next word when s + W > 32 (and into a third when
// s + W > 64, for W > 32).
template <typename T, int W, int I>
inline T Extract32(const uint8_t* in) {
  constexpr int kBit = I * W;
  constexpr int kWord = kBit / 32;
  constexpr int kShift = kBit % 32;
  using Acc = std::conditional_t<(W > 32), uint64_t, uint32_t>;
  Acc v = static_cast<Acc>(LoadLittleEndian<uint32_t>(in + 4 * kWord)) >> kShift;
  if constexpr (kShift + W > 32)
    v |= static_cast<Acc>(LoadLittleEndian<uint32_t>(in + 4 * (kWord + 1))) << (32 - kShift);
  if constexpr (kShift + W > 64)
    v |= static_cast<Acc>(LoadLittleEndian<uint32_t>(in + 4 * (kWord + 2))) << (64 - kShift);
  if constexpr (W < 8 * static_cast<int>(sizeof(Acc))) v &= static_cast<Acc>(LowBitsMask(W));
  return static_cast<T>(v);
}

template <typename T, int W>
inline void Unpack32Group(const uint8_t* in, T* out) {
  if constexpr (W == 0) {
    for (int i = 0; i < 32; ++i) out[i] = 0;
  } else {
    [&]<int... I>(std::integer_sequence<int, I...>) { ((out[I] = Extract32<T, W, I>(in)), ...); }
    (std::make_integer_sequence<int, 32>{});
  }
}

// Value I of a group of 8 W-bit values (W >= 8), which is exactly W bytes. It
// is read from an 8-byte window starting at its first byte, or ending at the
// group's last byte when that start is too close to the end; a value that
// starts at bit s of its window spills into one more byte when s + W > 64.
template <typename T, int W, int I>
inline T Extract8(const uint8_t* in) {
  constexpr int kBit = I * W;
  constexpr int kByte = kBit / 8;
  constexpr int kWindow = kByte < W - 8 ? kByte : W - 8;
  constexpr int kShift = kBit - 8 * kWindow;
  uint64_t v = LoadLittleEndian<uint64_t>(in + kWindow) >> kShift;
  if constexpr (kShift + W > 64) v |= static_cast<uint64_t>(in[kWindow + 8]) << (64 - kShift);
  if constexpr (W < 64) v &= LowBitsMask(W);
  return static_cast<T>(v);
}

template <typename T, int W>
inline void Unpack8Group(const uint8_t* in, T* out) {
  if constexpr (W == 0) {
    for (int i = 0; i < 8; ++i) out[i] = 0;
  } else if constexpr (W < 8) {
    // The whole group is fewer than 8 bytes: one load, then shifts.
    uint64_t bits = 0;
    std::memcpy(&bits, in, W);
    [&]<int... I>(std::integer_sequence<int, I...>) {
      ((out[I] = static_cast<T>((bits >> (I * W)) & LowBitsMask(W))), ...);
    }
    (std::make_integer_sequence<int, 8>{});
  } else {
    [&]<int... I>(std::integer_sequence<int, I...>) { ((out[I] = Extract8<T, W, I>(in)), ...); }
    (std::make_integer_sequence<int, 8>{});
  }
}

template <typename T, int W>
void UnpackWidth(const uint8_t* in, int64_t num_values, T* out) {
  int64_t i = 0;
  for (; i + 32 <= num_values; i += 32, in += 4 * W) Unpack32Group<T, W>(in, out + i);
  for (; i + 8 <= num_values; i += 8, in += W) Unpack8Group<T, W>(in, out + i);
}

// Eight values into W bytes: OR each value into 64-bit words (spilling into
// the next word when it crosses one), then copy the W bytes out.
template <typename T, int W>
inline void Pack8Group(const T* in, uint8_t* out) {
  if constexpr (W > 0) {
    uint64_t words[(W + 7) / 8 + 1] = {};
    [&]<int... I>(std::integer_sequence<int, I...>) {
      (
          [&] {
            constexpr int kBit = I * W;
            constexpr int kWord = kBit / 64;
            constexpr int kShift = kBit % 64;
            const uint64_t v = static_cast<uint64_t>(in[I]) & LowBitsMask(W);
            words[kWord] |= v << kShift;
            if constexpr (kShift + W > 64) words[kWord + 1] |= v >> (64 - kShift);
          }(),
          ...);
    }
    (std::make_integer_sequence<int, 8>{});
    std::memcpy(out, words, W);
  }
}

template <typename T, int W>
void PackWidth(const T* in, int64_t num_values, uint8_t* out) {
  for (int64_t i = 0; i + 8 <= num_values; i += 8, out += W) Pack8Group<T, W>(in + i, out);
}

template <typename T>
using UnpackFn = void (*)(const uint8_t*, int64_t, T*);
template <typename T>
using PackFn = void (*)(const T*, int64_t, uint8_t*);

// One entry per bit width, so a call dispatches once per run, not per value.
template <typename T, int... W>
constexpr std::array<UnpackFn<T>, sizeof...(W)> MakeUnpackTable(std::integer_sequence<int, W...>) {
  return {&UnpackWidth<T, W>...};
}
template <typename T, int... W>
constexpr std::array<PackFn<T>, sizeof...(W)> MakePackTable(std::integer_sequence<int, W...>) {
  return {&PackWidth<T, W>...};
}

constexpr auto kUnpack32 = MakeUnpackTable<uint32_t>(std::make_integer_sequence<int, 33>{});
constexpr auto kUnpack64 = MakeUnpackTable<uint64_t>(std::make_integer_sequence<int, 65>{});
constexpr auto kPack32 = MakePackTable<uint32_t>(std::make_integer_sequence<int, 33>{});
constexpr auto kPack64 = MakePackTable<uint64_t>(std::make_integer_sequence<int, 65>{});

}  // namespace

void Unpack(const uint8_t* in, int64_t num_values, int bit_width, uint32_t* out) {
  kUnpack32[bit_width](in, num_values, out);
}
void Unpack(const uint8_t* in, int64_t num_values, int bit_width, uint64_t* out) {
  kUnpack64[bit_width](in, num_values, out);
}
void Pack(const uint32_t* in, int64_t num_values, int bit_width, uint8_t* out) {
  kPack32[bit_width](in, num_values, out);
}
void Pack(const uint64_t* in, int64_t num_values, int bit_width, uint8_t* out) {
  kPack64[bit_width](in, num_values, out);
}

}  // namespace floe::parquet::encoding
