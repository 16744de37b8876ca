// Avro binary encoding (spec: "Binary Encoding"): zigzag varints, IEEE
// floats little-endian, length-prefixed bytes and strings, and the block
// framing of arrays and maps.
//
// Decoder reads from a caller-owned span and never reads past it: every
// varint is bounded to 10 bytes, every length is checked against the bytes
// left. Errors are Corrupt with the offset of the bad value. Encoder appends
// to a caller-owned std::string.
//
// Thread safety: a Decoder or Encoder belongs to one thread.

#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "floe/base/result.h"

namespace floe::avro {

class Decoder {
 public:
  Decoder() = default;
  explicit Decoder(std::span<const uint8_t> bytes) : data_(bytes.data()), size_(bytes.size()) {}

  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }
  bool at_end() const { return pos_ == size_; }

  // A zigzag varint of at most 10 bytes; an int must also fit in 32 bits.
  Status ReadLong(int64_t* out) {
    // Most values in manifests (ids, counts, lengths) fit in one byte.
    if (pos_ < size_ && data_[pos_] < 0x80) {
      const uint64_t v = data_[pos_++];
      *out = static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
      return Status::OK();
    }
    // Two bytes (values up to +-8191: column ids, sizes, most lengths).
    if (size_ - pos_ >= 2 && data_[pos_ + 1] < 0x80) {
      const uint64_t v = (uint64_t{data_[pos_]} & 0x7f) | (uint64_t{data_[pos_ + 1]} << 7);
      pos_ += 2;
      *out = static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
      return Status::OK();
    }
    return ReadLongSlow(out);
  }
  Status ReadInt(int32_t* out);
  // One byte, 0 or 1 (anything else is Corrupt).
  Status ReadBoolean(bool* out);
  Status ReadFloat(float* out);
  Status ReadDouble(double* out);
  // A long length then that many bytes; the view points into the input.
  Status ReadBytes(std::string_view* out);
  Status ReadFixed(size_t size, std::string_view* out);
  // The count of the next array/map block. A negative count is followed by
  // the block's byte size (spec); `byte_size` receives it, or -1 when absent.
  // Corrupt when the count cannot be real: each item takes at least
  // `min_item_bytes` bytes (0 for items that may take none).
  Status ReadBlockCount(int64_t* count, int64_t* byte_size, size_t min_item_bytes);
  Status Skip(size_t n);

 private:
  Status ReadLongSlow(int64_t* out);
  Status Truncated(std::string_view what) const;

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;
};

class Encoder {
 public:
  explicit Encoder(std::string* out) : out_(out) {}

  void WriteLong(int64_t v) {
    uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
    char buf[10];
    size_t n = 0;
    while (z >= 0x80) {
      buf[n++] = static_cast<char>((z & 0x7f) | 0x80);
      z >>= 7;
    }
    buf[n++] = static_cast<char>(z);
    out_->append(buf, n);
  }
  void WriteInt(int32_t v) { WriteLong(v); }
  void WriteBoolean(bool v) { out_->push_back(v ? 1 : 0); }
  void WriteFloat(float v) { WriteRaw(&v, sizeof v); }
  void WriteDouble(double v) { WriteRaw(&v, sizeof v); }
  void WriteBytes(std::string_view v) {
    WriteLong(static_cast<int64_t>(v.size()));
    out_->append(v);
  }
  void WriteFixed(std::string_view v) { out_->append(v); }

 private:
  static_assert(std::endian::native == std::endian::little, "Avro floats are little-endian");
  void WriteRaw(const void* p, size_t n) { out_->append(static_cast<const char*>(p), n); }
  std::string* out_;
};

}  // namespace floe::avro
