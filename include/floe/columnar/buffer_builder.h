// BufferBuilder, BitmapBuilder and ValidityBuilder: the growable memory under
// the array builders (builder.h).
//
// Growth doubles the capacity, so appends are amortised O(1); Finish() hands
// the memory over as a Buffer without copying (capacity beyond the size stays
// allocated with it: Reserve() the exact count when it is known). The
// Unsafe* appends skip the capacity check; they require a prior Reserve().
// Memory comes from Buffer::Allocate (64-byte aligned), so a finished buffer
// can be exported through the Arrow C Data Interface as is.
//
// Thread safety: a builder is used by one thread at a time.

#pragma once

#include <cstdint>
#include <cstring>

#include "floe/base/buffer.h"
#include "floe/base/result.h"
#include "floe/columnar/bit_util.h"

namespace floe {

class BufferBuilder {
 public:
  BufferBuilder() = default;
  BufferBuilder(const BufferBuilder&) = delete;
  BufferBuilder& operator=(const BufferBuilder&) = delete;

  // Ensures room for `additional` more bytes. InvalidArgument when the size
  // would overflow; Internal when memory runs out.
  Status Reserve(int64_t additional) {
    if (additional <= capacity_ - size_) return Status::OK();
    return Grow(additional);
  }
  Status Append(const void* bytes, int64_t n) {
    FLOE_RETURN_IF_ERROR(Reserve(n));
    UnsafeAppend(bytes, n);
    return Status::OK();
  }
  // Appends `n` zero bytes.
  Status AppendZeros(int64_t n) {
    FLOE_RETURN_IF_ERROR(Reserve(n));
    if (n > 0) std::memset(data_ + size_, 0, static_cast<size_t>(n));
    size_ += n;
    return Status::OK();
  }
  void UnsafeAppend(const void* bytes, int64_t n) {
    if (n > 0) std::memcpy(data_ + size_, bytes, static_cast<size_t>(n));
    size_ += n;
  }
  // Claims `n` reserved bytes the caller wrote at mutable_data() + size(),
  // so decoders can fill the memory in place.
  void UnsafeAdvance(int64_t n) { size_ += n; }
  template <typename T>
  void UnsafeAppend(T value) {
    std::memcpy(data_ + size_, &value, sizeof(T));
    size_ += static_cast<int64_t>(sizeof(T));
  }

  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }
  // The bytes written so far; valid until the next growth.
  uint8_t* mutable_data() { return data_; }
  const uint8_t* data() const { return data_; }

  // The bytes written, as a Buffer of size(); the builder is empty afterwards.
  Buffer Finish();

 private:
  Status Grow(int64_t additional);

  Buffer buffer_;
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

// A growable bitmap in the Arrow bit order. Bits past length() in the last
// byte are zero in the finished buffer.
class BitmapBuilder {
 public:
  Status Reserve(int64_t additional_bits) {
    return bytes_.Reserve(bit_util::BytesForBits(length_ + additional_bits) - bytes_.size());
  }
  Status Append(bool bit) {
    FLOE_RETURN_IF_ERROR(Reserve(1));
    UnsafeAppend(bit);
    return Status::OK();
  }
  // Appends `n` copies of `bit`.
  Status AppendN(bool bit, int64_t n);
  void UnsafeAppend(bool bit) {
    if ((length_ & 7) == 0) UnsafeStartByte();
    bit_util::SetBitTo(bytes_.mutable_data(), length_, bit);
    ++length_;
  }

  int64_t length() const { return length_; }
  const uint8_t* data() const { return bytes_.data(); }

  // The bitmap of length() bits; the builder is empty afterwards.
  Buffer Finish();

 private:
  // Claims the next (reserved) byte, zeroed, so set and clear bits alike are defined.
  void UnsafeStartByte() { bytes_.UnsafeAppend(uint8_t{0}); }

  BufferBuilder bytes_;
  int64_t length_ = 0;
};

// The validity of an array under construction. The bitmap is materialised at
// the first null only, so a column without nulls finishes with no bitmap (the
// Arrow "all valid" form) and its appends only count.
class ValidityBuilder {
 public:
  // `bitmap` false: never materialise (the null type, whose elements are all null).
  explicit ValidityBuilder(bool bitmap = true) : keep_bitmap_(bitmap) {}

  // Makes the next `additional` UnsafeAppendValid() calls safe.
  Status Reserve(int64_t additional) {
    reserved_ = length_ + additional > reserved_ ? length_ + additional : reserved_;
    return materialised_ ? bitmap_.Reserve(additional) : Status::OK();
  }
  void UnsafeAppendValid() {
    if (materialised_) bitmap_.UnsafeAppend(true);
    ++length_;
  }
  Status AppendValid(int64_t n = 1) {
    if (materialised_) FLOE_RETURN_IF_ERROR(bitmap_.AppendN(true, n));
    length_ += n;
    return Status::OK();
  }
  Status AppendNull(int64_t n = 1);
  // Appends one bit per element of `valid_bytes` (nonzero = valid).
  Status AppendValidBytes(const uint8_t* valid_bytes, int64_t n);

  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }

  // The validity bitmap, empty when there was no null; the builder is empty afterwards.
  Buffer Finish();

 private:
  Status Materialise();

  BitmapBuilder bitmap_;
  bool keep_bitmap_;
  bool materialised_ = false;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  int64_t reserved_ = 0;  // the element count Reserve() promised room for
};

}  // namespace floe
