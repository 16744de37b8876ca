#include "floe/formats/parquet/encoding/rle_bit_packed_hybrid.h"

#include <cstring>
#include <limits>
#include <type_traits>

#include "floe/formats/parquet/encoding/bit_util.h"
#include "floe/formats/parquet/encoding/varint.h"

namespace floe::parquet::encoding {
namespace {

// spec: "bit-packed-run-len and rle-run-len must be in the range [1, 2^31 - 1]".
constexpr uint64_t kMaxRunLength = std::numeric_limits<int32_t>::max();

// Value bits a T holds: 1 for bool, 15 for int16_t, 32 for uint32_t.
template <typename T>
constexpr int kValueBits = std::numeric_limits<T>::digits;

}  // namespace

Status RleBitPackedHybridDecoder::Init(std::span<const uint8_t> data, int bit_width) {
  if (bit_width < 0 || bit_width > kMaxBitWidth) {
    return Status::InvalidArgument(StrCat("RLE: bit width ", bit_width, " is outside 0..", kMaxBitWidth));
  }
  begin_ = data.data();
  pos_ = data.data();
  end_ = data.data() + data.size();
  bit_width_ = bit_width;
  repeat_left_ = 0;
  literal_left_ = 0;
  literal_pos_ = literal_end_ = nullptr;
  buffer_pos_ = buffer_end_ = 0;
  return Status::OK();
}

Result<int64_t> RleBitPackedHybridDecoder::InitWithLengthPrefix(std::span<const uint8_t> data, int bit_width) {
  if (data.size() < 4) {
    return Status::Corrupt(StrCat("RLE: 4-byte length prefix expected but only ", data.size(), " bytes remain"));
  }
  const uint32_t length = LoadLittleEndian<uint32_t>(data.data());
  if (length > data.size() - 4) {
    return Status::Corrupt(StrCat("RLE: length prefix is ", length, " bytes but only ", data.size() - 4, " follow"));
  }
  FLOE_RETURN_IF_ERROR(Init(data.subspan(4, length), bit_width));
  return int64_t{4} + length;
}

Status RleBitPackedHybridDecoder::CheckCount(int64_t n) const {
  if (n < 0) return Status::InvalidArgument(StrCat("RLE: ", n, " values requested"));
  return Status::OK();
}

Status RleBitPackedHybridDecoder::ReadRunHeader() {
  const int64_t offset = pos_ - begin_;
  if (pos_ == end_) {
    return Status::Corrupt(StrCat("RLE: the runs end after ", offset, " bytes, before the requested values"));
  }
  uint64_t header;
  if (!ReadUleb128(&pos_, end_, &header)) {
    return Status::Corrupt(StrCat("RLE: run header at byte ", offset, " is truncated or overflows 64 bits"));
  }
  const uint64_t count = header >> 1;
  if ((header & 1) != 0) {
    if (count > kMaxRunLength / 8) {
      return Status::Corrupt(
          StrCat("RLE: bit-packed run at byte ", offset, " of ", count, " groups exceeds 2^31-1 values"));
    }
    const int64_t bytes = static_cast<int64_t>(count) * bit_width_;  // groups of 8 values take bit_width bytes each
    const int64_t available = end_ - pos_;
    literal_pos_ = pos_;
    if (bytes <= available) {
      literal_left_ = static_cast<int64_t>(count) * 8;
      literal_end_ = pos_ + bytes;
    } else {
      // The input ends inside this run (a page cut short, or a writer that
      // left out the padding bytes of the last group): the values whose bits
      // are present are returned, and asking for more fails at the next
      // header because the input is used up.
      literal_left_ = available * 8 / bit_width_;
      literal_end_ = end_;
    }
    pos_ = literal_end_;
    return Status::OK();
  }
  if (count > kMaxRunLength) {
    return Status::Corrupt(StrCat("RLE: run at byte ", offset, " of ", count, " values exceeds 2^31-1"));
  }
  const int value_bytes = (bit_width_ + 7) / 8;
  if (end_ - pos_ < value_bytes) {
    return Status::Corrupt(StrCat("RLE: run at byte ", offset, " ends inside its ", value_bytes, "-byte value"));
  }
  uint32_t value = 0;
  std::memcpy(&value, pos_, static_cast<size_t>(value_bytes));
  pos_ += value_bytes;
  if (value > LowBitsMask(bit_width_)) {
    return Status::Corrupt(
        StrCat("RLE: run at byte ", offset, " repeats ", value, ", which exceeds bit width ", bit_width_));
  }
  repeat_value_ = value;
  repeat_left_ = static_cast<int64_t>(count);
  return Status::OK();
}

void RleBitPackedHybridDecoder::UnpackLiteralsToBuffer() {
  const int64_t count = std::min<int64_t>(literal_left_, kBufferSize);
  const int64_t whole = count & ~int64_t{7};
  Unpack(literal_pos_, whole, bit_width_, buffer_);
  literal_pos_ += whole * bit_width_ / 8;
  if (whole < count) {
    // Only a run cut short by the input ends inside a group: unpack that group
    // from a zero-padded copy of the bytes that are there.
    uint8_t group[kMaxBitWidth] = {};
    std::memcpy(group, literal_pos_, static_cast<size_t>(literal_end_ - literal_pos_));
    Unpack(group, 8, bit_width_, buffer_ + whole);
    literal_pos_ = literal_end_;
  }
  literal_left_ -= count;
  buffer_pos_ = 0;
  buffer_end_ = count;
}

template <typename T>
Status RleBitPackedHybridDecoder::Decode(int64_t n, T* out) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  if (bit_width_ > kValueBits<T>) {
    return Status::InvalidArgument(
        StrCat("RLE: bit width ", bit_width_, " does not fit a ", kValueBits<T>, "-bit output"));
  }
  while (n > 0) {
    if (buffer_pos_ < buffer_end_) {
      const int64_t k = std::min(n, buffer_end_ - buffer_pos_);
      const uint32_t* src = buffer_ + buffer_pos_;
      for (int64_t i = 0; i < k; ++i) out[i] = static_cast<T>(src[i]);
      buffer_pos_ += k;
      out += k;
      n -= k;
    } else if (repeat_left_ > 0) {
      const int64_t k = std::min(n, repeat_left_);
      std::fill(out, out + k, static_cast<T>(repeat_value_));
      repeat_left_ -= k;
      out += k;
      n -= k;
    } else if (literal_left_ > 0) {
      if constexpr (sizeof(T) == sizeof(uint32_t)) {
        // Whole groups unpack straight into the caller's memory.
        const int64_t direct = std::min(n, literal_left_) & ~int64_t{7};
        if (direct > 0) {
          Unpack(literal_pos_, direct, bit_width_, reinterpret_cast<uint32_t*>(out));
          literal_pos_ += direct * bit_width_ / 8;
          literal_left_ -= direct;
          out += direct;
          n -= direct;
          continue;
        }
      }
      UnpackLiteralsToBuffer();
    } else {
      FLOE_RETURN_IF_ERROR(ReadRunHeader());
    }
  }
  return Status::OK();
}

template Status RleBitPackedHybridDecoder::Decode<bool>(int64_t, bool*);
template Status RleBitPackedHybridDecoder::Decode<uint8_t>(int64_t, uint8_t*);
template Status RleBitPackedHybridDecoder::Decode<int16_t>(int64_t, int16_t*);
template Status RleBitPackedHybridDecoder::Decode<uint16_t>(int64_t, uint16_t*);
template Status RleBitPackedHybridDecoder::Decode<int32_t>(int64_t, int32_t*);
template Status RleBitPackedHybridDecoder::Decode<uint32_t>(int64_t, uint32_t*);

Status RleBitPackedHybridDecoder::Skip(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  while (n > 0) {
    if (buffer_pos_ < buffer_end_) {
      const int64_t k = std::min(n, buffer_end_ - buffer_pos_);
      buffer_pos_ += k;
      n -= k;
    } else if (repeat_left_ > 0) {
      const int64_t k = std::min(n, repeat_left_);
      repeat_left_ -= k;
      n -= k;
    } else if (literal_left_ > 0) {
      // Whole groups are skipped by moving the pointer; a partial one is staged.
      const int64_t whole = std::min(n, literal_left_) & ~int64_t{7};
      if (whole > 0) {
        literal_pos_ += whole * bit_width_ / 8;
        literal_left_ -= whole;
        n -= whole;
      } else {
        UnpackLiteralsToBuffer();
      }
    } else {
      FLOE_RETURN_IF_ERROR(ReadRunHeader());
    }
  }
  return Status::OK();
}

namespace {

template <typename T>
class HybridWriter {
 public:
  HybridWriter(std::span<const T> values, int bit_width, std::vector<uint8_t>* out)
      : values_(values), bit_width_(bit_width), out_(out) {}

  void Write() {
    const int64_t n = static_cast<int64_t>(values_.size());
    int64_t i = 0;
    while (i < n) {
      const int64_t run = RunLength(i, static_cast<int64_t>(kMaxRunLength));
      if (run >= 8) {
        WriteRepeat(values_[i], run);
        i += run;
        continue;
      }
      // A bit-packed run covers whole groups of 8 and ends where a group would
      // begin with 8 equal values, which then become an RLE run.
      int64_t end = i;
      do {
        end += 8;
      } while (end < n && end - i < static_cast<int64_t>(kMaxRunLength & ~uint64_t{7}) && RunLength(end, 8) < 8);
      WriteLiterals(i, std::min(end, n));
      i = std::min(end, n);
    }
  }

 private:
  int64_t RunLength(int64_t start, int64_t limit) const {
    const int64_t end = std::min(static_cast<int64_t>(values_.size()), start + limit);
    int64_t i = start + 1;
    while (i < end && values_[i] == values_[start]) ++i;
    return i - start;
  }

  void WriteRepeat(T value, int64_t count) {
    WriteUleb128(static_cast<uint64_t>(count) << 1, out_);
    const auto v = static_cast<uint32_t>(value);
    for (int b = 0; b < (bit_width_ + 7) / 8; ++b) out_->push_back(static_cast<uint8_t>(v >> (8 * b)));
  }

  void WriteLiterals(int64_t begin, int64_t end) {
    const int64_t groups = (end - begin + 7) / 8;
    WriteUleb128(static_cast<uint64_t>(groups) << 1 | 1, out_);
    scratch_.assign(static_cast<size_t>(groups * 8), 0);  // the last group is padded with zeros
    for (int64_t i = begin; i < end; ++i) scratch_[static_cast<size_t>(i - begin)] = static_cast<uint32_t>(values_[i]);
    const size_t pos = out_->size();
    out_->resize(pos + static_cast<size_t>(groups * bit_width_));
    Pack(scratch_.data(), groups * 8, bit_width_, out_->data() + pos);
  }

  std::span<const T> values_;
  int bit_width_;
  std::vector<uint8_t>* out_;
  std::vector<uint32_t> scratch_;
};

}  // namespace

template <typename T>
Status EncodeRleBitPackedHybrid(std::span<const T> values, int bit_width, std::vector<uint8_t>* out) {
  if (bit_width < 0 || bit_width > RleBitPackedHybridDecoder::kMaxBitWidth) {
    return Status::InvalidArgument(StrCat("RLE: bit width ", bit_width, " is outside 0..32"));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if constexpr (std::is_signed_v<T>) {
      if (values[i] < 0) return Status::InvalidArgument(StrCat("RLE: value ", i, " is negative: ", values[i]));
    }
    if (static_cast<uint64_t>(values[i]) > LowBitsMask(bit_width)) {
      return Status::InvalidArgument(
          StrCat("RLE: value ", i, " is ", static_cast<uint64_t>(values[i]), ", which exceeds bit width ", bit_width));
    }
  }
  HybridWriter<T>(values, bit_width, out).Write();
  return Status::OK();
}

template <typename T>
Status EncodeRleBitPackedHybridWithLengthPrefix(std::span<const T> values, int bit_width, std::vector<uint8_t>* out) {
  const size_t prefix = out->size();
  out->resize(prefix + 4);
  if (Status status = EncodeRleBitPackedHybrid(values, bit_width, out); !status.ok()) {
    out->resize(prefix);
    return status;
  }
  StoreLittleEndian<uint32_t>(static_cast<uint32_t>(out->size() - prefix - 4), out->data() + prefix);
  return Status::OK();
}

#define FLOE_INSTANTIATE_HYBRID_ENCODER(T)                                                     \
  template Status EncodeRleBitPackedHybrid<T>(std::span<const T>, int, std::vector<uint8_t>*); \
  template Status EncodeRleBitPackedHybridWithLengthPrefix<T>(std::span<const T>, int, std::vector<uint8_t>*);
FLOE_INSTANTIATE_HYBRID_ENCODER(bool)
FLOE_INSTANTIATE_HYBRID_ENCODER(uint8_t)
FLOE_INSTANTIATE_HYBRID_ENCODER(int16_t)
FLOE_INSTANTIATE_HYBRID_ENCODER(uint16_t)
FLOE_INSTANTIATE_HYBRID_ENCODER(int32_t)
FLOE_INSTANTIATE_HYBRID_ENCODER(uint32_t)
#undef FLOE_INSTANTIATE_HYBRID_ENCODER

}  // namespace floe::parquet::encoding
