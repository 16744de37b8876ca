#include "floe/formats/avro/binary.h"

#include <bit>

#include "floe/base/strings.h"

namespace floe::avro {

Status Decoder::Truncated(std::string_view what) const {
  return Status::Corrupt(StrCat(what, " at offset ", pos_, " runs past the end (", remaining(), " bytes left)"));
}

Status Decoder::ReadLongSlow(int64_t* out) {
  uint64_t v = 0;
  for (int shift = 0, i = 0; i < 10; ++i, shift += 7) {
    if (pos_ >= size_) return Truncated("varint");
    const uint8_t b = data_[pos_++];
    if (i == 9 && b > 1) return Status::Corrupt(StrCat("varint at offset ", pos_ - 10, " overflows 64 bits"));
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *out = static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
      return Status::OK();
    }
  }
  return Status::Corrupt(StrCat("varint at offset ", pos_ - 10, " is longer than 10 bytes"));
}

Status Decoder::ReadInt(int32_t* out) {
  const size_t start = pos_;
  int64_t v;
  FLOE_RETURN_IF_ERROR(ReadLong(&v));
  if (v < INT32_MIN || v > INT32_MAX) {
    return Status::Corrupt(StrCat("int at offset ", start, " is ", v, ", outside 32 bits"));
  }
  *out = static_cast<int32_t>(v);
  return Status::OK();
}

Status Decoder::ReadBoolean(bool* out) {
  if (pos_ >= size_) return Truncated("boolean");
  const uint8_t b = data_[pos_];
  if (b > 1) return Status::Corrupt(StrCat("boolean at offset ", pos_, " is byte ", int{b}));
  ++pos_;
  *out = b == 1;
  return Status::OK();
}

Status Decoder::ReadFloat(float* out) {
  if (remaining() < 4) return Truncated("float");
  std::memcpy(out, data_ + pos_, 4);
  pos_ += 4;
  return Status::OK();
}

Status Decoder::ReadDouble(double* out) {
  if (remaining() < 8) return Truncated("double");
  std::memcpy(out, data_ + pos_, 8);
  pos_ += 8;
  return Status::OK();
}

Status Decoder::ReadBytes(std::string_view* out) {
  const size_t start = pos_;
  int64_t len;
  FLOE_RETURN_IF_ERROR(ReadLong(&len));
  if (len < 0) return Status::Corrupt(StrCat("length at offset ", start, " is negative (", len, ")"));
  if (static_cast<uint64_t>(len) > remaining()) {
    return Status::Corrupt(
        StrCat("bytes/string of length ", len, " at offset ", start, " runs past the end (", remaining(), " bytes left)"));
  }
  *out = std::string_view(reinterpret_cast<const char*>(data_ + pos_), static_cast<size_t>(len));
  pos_ += static_cast<size_t>(len);
  return Status::OK();
}

Status Decoder::ReadFixed(size_t size, std::string_view* out) {
  if (remaining() < size) return Truncated(StrCat("fixed(", size, ")"));
  *out = std::string_view(reinterpret_cast<const char*>(data_ + pos_), size);
  pos_ += size;
  return Status::OK();
}

Status Decoder::ReadBlockCount(int64_t* count, int64_t* byte_size, size_t min_item_bytes) {
  const size_t start = pos_;
  int64_t n;
  FLOE_RETURN_IF_ERROR(ReadLong(&n));
  *byte_size = -1;
  if (n < 0) {
    if (n == INT64_MIN) return Status::Corrupt(StrCat("block count at offset ", start, " is ", n));
    n = -n;
    int64_t bytes;
    FLOE_RETURN_IF_ERROR(ReadLong(&bytes));
    if (bytes < 0 || static_cast<uint64_t>(bytes) > remaining()) {
      return Status::Corrupt(StrCat("block at offset ", start, " declares ", bytes, " bytes, ", remaining(), " left"));
    }
    *byte_size = bytes;
  }
  if (min_item_bytes > 0 && static_cast<uint64_t>(n) > remaining() / min_item_bytes) {
    return Status::Corrupt(StrCat("block at offset ", start, " declares ", n, " items, more than the ", remaining(),
                                  " bytes left can hold"));
  }
  *count = n;
  return Status::OK();
}

Status Decoder::Skip(size_t n) {
  if (remaining() < n) return Truncated(StrCat("skip of ", n, " bytes"));
  pos_ += n;
  return Status::OK();
}

}  // namespace floe::avro
