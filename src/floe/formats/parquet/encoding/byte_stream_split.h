// BYTE_STREAM_SPLIT (Encoding 9) for FLOAT, DOUBLE, INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY: "K byte-streams of length N where K is the size in
// bytes of the data type and N is the number of elements"; byte k of value i
// is byte i of stream k. There is no header, so "the end of the streams is
// also the end of data page" and the value count is the page size / K.
//
// Thread safety: a decoder is used by one thread at a time; encoders are pure.

#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "floe/base/status.h"
#include "floe/base/strings.h"

namespace floe::parquet::encoding {

// Decodes one page's streams, caller-owned bytes that must outlive the
// decoder. After an error it must not be used again.
class ByteStreamSplitDecoder {
 public:
  // `width` is K: 4 for FLOAT and INT32, 8 for DOUBLE and INT64, n for
  // FIXED_LEN_BYTE_ARRAY(n). InvalidArgument when width <= 0; Corrupt when
  // the size of `data` is not a multiple of width.
  Status Init(std::span<const uint8_t> data, int32_t width);

  int32_t width() const { return width_; }
  int64_t num_values() const { return num_values_; }
  int64_t values_left() const { return num_values_ - next_; }

  // Writes the next n values, width bytes each, to `out`. Corrupt when fewer
  // than n remain.
  Status Decode(int64_t n, uint8_t* out);

  // The same for T = float, double, int32_t or int64_t; InvalidArgument when
  // sizeof(T) is not the width.
  template <typename T>
  Status Decode(int64_t n, T* out) {
    if (static_cast<int32_t>(sizeof(T)) != width_) {
      return Status::InvalidArgument(
          StrCat("BYTE_STREAM_SPLIT: ", sizeof(T), "-byte output for ", width_, "-byte values"));
    }
    return Decode(n, reinterpret_cast<uint8_t*>(out));
  }

  // Corrupt when fewer than n values remain.
  Status Skip(int64_t n);

 private:
  Status CheckCount(int64_t n) const;

  const uint8_t* data_ = nullptr;
  int32_t width_ = 0;
  int64_t num_values_ = 0;
  int64_t next_ = 0;
};

// Appends the streams of `values`, whole values of `width` bytes each.
// InvalidArgument, with `out` unchanged, when width <= 0 or values.size() is
// not a multiple of it.
Status EncodeByteStreamSplit(std::span<const uint8_t> values, int32_t width, std::vector<uint8_t>* out);

// The same for T = float, double, int32_t or int64_t (width sizeof(T)).
template <typename T>
void EncodeByteStreamSplit(std::span<const T> values, std::vector<uint8_t>* out) {
  // Whole values of sizeof(T) bytes: the checked overload cannot fail.
  static_cast<void>(EncodeByteStreamSplit(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(values.data()), values.size_bytes()),
      static_cast<int32_t>(sizeof(T)), out));
}

}  // namespace floe::parquet::encoding
