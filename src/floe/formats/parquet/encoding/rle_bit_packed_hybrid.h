// The RLE/bit-packing hybrid (Encoding RLE = 3): definition and repetition
// levels, dictionary indices (after their bit-width byte, see dictionary.h)
// and RLE-encoded booleans. A stream is a sequence of runs, each either
// `varint(count << 1)` then one value in ceil(bit_width / 8) bytes, or
// `varint(groups << 1 | 1)` then groups * 8 values bit-packed.
//
// Whether a 4-byte length precedes the runs depends on the page (spec table):
// data page v1 levels and RLE booleans (v1 and v2) carry it, data page v2
// levels and dictionary indices do not. Init() reads unprefixed runs,
// InitWithLengthPrefix() the prefixed form.
//
// Thread safety: a decoder is used by one thread at a time; encoders are pure.

#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "floe/base/result.h"
#include "floe/base/status.h"
#include "floe/base/strings.h"

namespace floe::parquet::encoding {

// Decodes a hybrid stream over caller-owned bytes that must outlive it. The
// stream does not record its value count: the caller asks for exactly as many
// values as the page holds, and asking for more than the runs hold is Corrupt.
// After an error the decoder must not be used again.
class RleBitPackedHybridDecoder {
 public:
  static constexpr int kMaxBitWidth = 32;

  // Starts decoding `data`, runs of `bit_width`-bit values. InvalidArgument
  // when bit_width is outside 0..32.
  Status Init(std::span<const uint8_t> data, int bit_width);

  // Reads the 4-byte little-endian length, then starts decoding that many
  // bytes. Returns the bytes the stream occupies (4 + length), where the next
  // section of the page begins. Corrupt when the length is truncated or longer
  // than `data`; InvalidArgument as for Init().
  Result<int64_t> InitWithLengthPrefix(std::span<const uint8_t> data, int bit_width);

  int bit_width() const { return bit_width_; }

  // Writes the next n values to `out`. T is bool, uint8_t, int16_t, uint16_t,
  // int32_t or uint32_t; InvalidArgument when T cannot hold bit_width bits.
  // Corrupt when the runs end first or a run is malformed.
  template <typename T>
  Status Decode(int64_t n, T* out);

  // Moves past n values without materialising them; Corrupt as for Decode().
  Status Skip(int64_t n);

  // Hands the next n values to the callbacks run by run, so an RLE run costs
  // one call whatever its length: on_repeat(uint32_t value, int64_t count) and
  // on_literal(const uint32_t* values, int64_t count), both returning Status;
  // the first error stops the visit and is returned. Corrupt as for Decode().
  template <typename OnRepeat, typename OnLiteral>
  Status Visit(int64_t n, OnRepeat&& on_repeat, OnLiteral&& on_literal);

 private:
  // Unpacked literals are staged here when the caller takes part of a group
  // or needs a type other than 32-bit.
  static constexpr int kBufferSize = 512;

  Status ReadRunHeader();
  void UnpackLiteralsToBuffer();
  Status CheckCount(int64_t n) const;

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;  // next run header
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;

  int64_t repeat_left_ = 0;
  uint32_t repeat_value_ = 0;

  // The current bit-packed run: literal_left_ values still packed at
  // literal_pos_, whose bytes end at literal_end_.
  int64_t literal_left_ = 0;
  const uint8_t* literal_pos_ = nullptr;
  const uint8_t* literal_end_ = nullptr;

  uint32_t buffer_[kBufferSize];
  int64_t buffer_pos_ = 0;
  int64_t buffer_end_ = 0;
};

// Appends the hybrid encoding of `values` with `bit_width` bits per value:
// runs of 8 or more equal values become RLE runs, the rest bit-packed runs
// (the last padded with zeros). T as for Decode(). InvalidArgument when
// bit_width is outside 0..32 or a value is negative or needs more bits; `out`
// is then unchanged.
template <typename T>
Status EncodeRleBitPackedHybrid(std::span<const T> values, int bit_width, std::vector<uint8_t>* out);

// The same, preceded by the 4-byte little-endian length of the runs.
template <typename T>
Status EncodeRleBitPackedHybridWithLengthPrefix(std::span<const T> values, int bit_width, std::vector<uint8_t>* out);

template <typename OnRepeat, typename OnLiteral>
Status RleBitPackedHybridDecoder::Visit(int64_t n, OnRepeat&& on_repeat, OnLiteral&& on_literal) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  while (n > 0) {
    if (buffer_pos_ < buffer_end_) {
      const int64_t k = std::min(n, buffer_end_ - buffer_pos_);
      FLOE_RETURN_IF_ERROR(on_literal(static_cast<const uint32_t*>(buffer_ + buffer_pos_), k));
      buffer_pos_ += k;
      n -= k;
    } else if (repeat_left_ > 0) {
      const int64_t k = std::min(n, repeat_left_);
      FLOE_RETURN_IF_ERROR(on_repeat(repeat_value_, k));
      repeat_left_ -= k;
      n -= k;
    } else if (literal_left_ > 0) {
      UnpackLiteralsToBuffer();
    } else {
      FLOE_RETURN_IF_ERROR(ReadRunHeader());
    }
  }
  return Status::OK();
}

}  // namespace floe::parquet::encoding
