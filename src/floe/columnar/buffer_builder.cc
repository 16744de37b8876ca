#include "floe/columnar/buffer_builder.h"

#include <algorithm>

#include "floe/base/strings.h"

namespace floe {

Status BufferBuilder::Grow(int64_t additional) {
  int64_t needed;
  if (__builtin_add_overflow(size_, additional, &needed)) {
    return Status::InvalidArgument(StrCat("buffer of ", size_, " bytes cannot grow by ", additional));
  }
  const int64_t doubled = capacity_ > INT64_MAX / 2 ? INT64_MAX : capacity_ * 2;
  const int64_t capacity = std::max({needed, doubled, int64_t{64}});
  FLOE_ASSIGN_OR_RETURN(Buffer grown, Buffer::Allocate(capacity));
  if (size_ > 0) std::memcpy(grown.mutable_data(), data_, static_cast<size_t>(size_));
  buffer_ = std::move(grown);
  data_ = buffer_.mutable_data();
  capacity_ = capacity;
  return Status::OK();
}

Buffer BufferBuilder::Finish() {
  Buffer out = size_ == 0 ? Buffer() : buffer_.Slice(0, size_);
  buffer_ = Buffer();
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
  return out;
}

Status BitmapBuilder::AppendN(bool bit, int64_t n) {
  if (n <= 0) return Status::OK();
  const int64_t new_bytes = bit_util::BytesForBits(length_ + n) - bytes_.size();
  FLOE_RETURN_IF_ERROR(bytes_.AppendZeros(new_bytes));
  bit_util::SetBitsTo(bytes_.mutable_data(), length_, n, bit);
  length_ += n;
  return Status::OK();
}

Buffer BitmapBuilder::Finish() {
  length_ = 0;
  return bytes_.Finish();
}

Status ValidityBuilder::Materialise() {
  FLOE_RETURN_IF_ERROR(bitmap_.Reserve(std::max(reserved_, length_ + 1)));
  FLOE_RETURN_IF_ERROR(bitmap_.AppendN(true, length_));
  materialised_ = true;
  return Status::OK();
}

Status ValidityBuilder::AppendNull(int64_t n) {
  if (n <= 0) return Status::OK();
  if (keep_bitmap_) {
    if (!materialised_) FLOE_RETURN_IF_ERROR(Materialise());
    FLOE_RETURN_IF_ERROR(bitmap_.AppendN(false, n));
  }
  length_ += n;
  null_count_ += n;
  return Status::OK();
}

Status ValidityBuilder::AppendValidBytes(const uint8_t* valid_bytes, int64_t n) {
  const auto nulls = static_cast<int64_t>(std::count(valid_bytes, valid_bytes + n, uint8_t{0}));
  if (nulls == 0) return AppendValid(n);
  if (keep_bitmap_) {
    if (!materialised_) FLOE_RETURN_IF_ERROR(Materialise());
    FLOE_RETURN_IF_ERROR(bitmap_.Reserve(n));
    for (int64_t i = 0; i < n; ++i) bitmap_.UnsafeAppend(valid_bytes[i] != 0);
  }
  length_ += n;
  null_count_ += nulls;
  return Status::OK();
}

Buffer ValidityBuilder::Finish() {
  Buffer out = materialised_ ? bitmap_.Finish() : Buffer();
  materialised_ = false;
  length_ = 0;
  null_count_ = 0;
  reserved_ = 0;
  return out;
}

}  // namespace floe
