// IEEE 754 binary16 ("half") <-> float, for FLOAT16 columns (spec:
// LogicalTypes.md, FLOAT16: a FIXED_LEN_BYTE_ARRAY(2) "stored in
// little-endian byte order"). Pure functions.

#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace floe::parquet::encoding {

// Exact: every half is a float.
inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1;
  const int exponent = (h >> 10) & 0x1f;
  const uint32_t mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // subnormal
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::quiet_NaN();
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  return sign ? -magnitude : magnitude;
}

// Rounded to the nearest half, ties to even; beyond the half range to
// +-infinity; NaN stays a (quiet) NaN with the sign kept.
inline uint16_t FloatToHalf(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t exponent = (x >> 23) & 0xff;
  uint32_t mantissa = x & 0x7fffff;
  if (exponent == 0xff) {  // infinity or NaN
    return static_cast<uint16_t>(sign | 0x7c00 | (mantissa != 0 ? 0x200 | (mantissa >> 13) : 0));
  }
  const int e = static_cast<int>(exponent) - 127 + 15;  // the half's biased exponent
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10) return sign;  // below half the smallest subnormal: zero
    // A subnormal half: the 24-bit significand scaled by 2^(e - 14).
    mantissa |= 0x800000;
    const int shift = 14 - e;
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((uint32_t{1} << shift) - 1);
    const uint32_t halfway = uint32_t{1} << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1) != 0)) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fff;
  // A carry out of the mantissa steps the exponent, up to infinity: still right.
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1) != 0)) ++half;
  return static_cast<uint16_t>(sign | half);
}

}  // namespace floe::parquet::encoding
