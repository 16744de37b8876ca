#include "floe/formats/parquet/encoding/plain.h"

#include <array>
#include <cstring>

#include "floe/base/strings.h"
#include "floe/formats/parquet/encoding/bit_util.h"

namespace floe::parquet::encoding {
namespace {

// InvalidArgument for a negative count (a caller bug), Corrupt when the input
// holds fewer values than requested.
Status CheckCount(std::string_view type, int64_t requested, int64_t left) {
  if (requested < 0) return Status::InvalidArgument(StrCat("PLAIN: ", requested, " ", type, " values requested"));
  if (requested > left) {
    return Status::Corrupt(StrCat("PLAIN: ", requested, " ", type, " values requested but ", left, " remain"));
  }
  return Status::OK();
}

// kSpreadBits[b] has byte k equal to bit k of b: eight booleans for one byte.
constexpr std::array<uint64_t, 256> kSpreadBits = [] {
  std::array<uint64_t, 256> table{};
  for (int b = 0; b < 256; ++b) {
    for (int k = 0; k < 8; ++k) table[b] |= static_cast<uint64_t>((b >> k) & 1) << (8 * k);
  }
  return table;
}();

}  // namespace

template <typename T>
void PlainDecoder<T>::Init(std::span<const uint8_t> data) {
  pos_ = data.data();
  values_left_ = static_cast<int64_t>(data.size() / sizeof(T));
}

template <typename T>
Status PlainDecoder<T>::CheckAvailable(int64_t n) const {
  return CheckCount(PhysicalTypeName<T>(), n, values_left_);
}

template <typename T>
Status PlainDecoder<T>::Decode(int64_t n, T* out) {
  FLOE_RETURN_IF_ERROR(CheckAvailable(n));
  if (n > 0) std::memcpy(out, pos_, static_cast<size_t>(n) * sizeof(T));
  pos_ += n * static_cast<int64_t>(sizeof(T));
  values_left_ -= n;
  return Status::OK();
}

template <typename T>
Status PlainDecoder<T>::Skip(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckAvailable(n));
  pos_ += n * static_cast<int64_t>(sizeof(T));
  values_left_ -= n;
  return Status::OK();
}

template class PlainDecoder<int32_t>;
template class PlainDecoder<int64_t>;
template class PlainDecoder<Int96>;
template class PlainDecoder<float>;
template class PlainDecoder<double>;

void PlainBooleanDecoder::Init(std::span<const uint8_t> data) {
  data_ = data.data();
  num_bits_ = static_cast<int64_t>(data.size()) * 8;
  bit_pos_ = 0;
}

Status PlainBooleanDecoder::CheckAvailable(int64_t n) const { return CheckCount("BOOLEAN", n, values_left()); }

Status PlainBooleanDecoder::Decode(int64_t n, bool* out) {
  FLOE_RETURN_IF_ERROR(CheckAvailable(n));
  int64_t i = 0;
  for (; i < n && (bit_pos_ & 7) != 0; ++i, ++bit_pos_) out[i] = (data_[bit_pos_ >> 3] >> (bit_pos_ & 7)) & 1;
  const uint8_t* byte = data_ + (bit_pos_ >> 3);
  for (; i + 8 <= n; i += 8, ++byte, bit_pos_ += 8) std::memcpy(out + i, &kSpreadBits[*byte], 8);
  for (; i < n; ++i, ++bit_pos_) out[i] = (data_[bit_pos_ >> 3] >> (bit_pos_ & 7)) & 1;
  return Status::OK();
}

Status PlainBooleanDecoder::Skip(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckAvailable(n));
  bit_pos_ += n;
  return Status::OK();
}

void PlainByteArrayDecoder::Init(std::span<const uint8_t> data) {
  pos_ = data.data();
  end_ = data.data() + data.size();
}

Result<ByteArrayBatch> PlainByteArrayDecoder::Decode(int64_t n) {
  // Every value costs at least its 4-byte length, which bounds n by the input
  // before anything is allocated.
  if (n < 0) return CheckCount("BYTE_ARRAY", n, 0);
  if (n > bytes_left() / 4) {
    return Status::Corrupt(
        StrCat("PLAIN: ", n, " BYTE_ARRAY values requested but only ", bytes_left(), " bytes remain"));
  }
  ByteArrayBatch batch;
  batch.num_values = n;
  FLOE_ASSIGN_OR_RETURN(batch.offsets, AllocateByteArrayOffsets(n));
  auto* offsets = reinterpret_cast<int32_t*>(batch.offsets.mutable_data());
  // Pass 1 validates the lengths and writes the offsets; pass 2 copies, since
  // value i starts after i + 1 length prefixes and offsets[i] bytes of data.
  const uint8_t* p = pos_;
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (end_ - p < 4) {
      return Status::Corrupt(StrCat("PLAIN: BYTE_ARRAY value ", i, " of ", n, " starts past the end of the input"));
    }
    const uint32_t length = LoadLittleEndian<uint32_t>(p);
    p += 4;
    if (length > static_cast<uint64_t>(end_ - p)) {
      return Status::Corrupt(
          StrCat("PLAIN: BYTE_ARRAY value ", i, " has length ", length, " but only ", end_ - p, " bytes remain"));
    }
    p += length;
    total += length;
    FLOE_RETURN_IF_ERROR(CheckByteArrayDataSize("PLAIN", n, total));
    offsets[i + 1] = static_cast<int32_t>(total);
  }
  FLOE_ASSIGN_OR_RETURN(batch.data, Buffer::Allocate(total));
  uint8_t* data = batch.data.mutable_data();
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(data + offsets[i], pos_ + 4 * (i + 1) + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
  }
  pos_ = p;
  return batch;
}

Status PlainByteArrayDecoder::Skip(int64_t n) {
  if (n < 0) return CheckCount("BYTE_ARRAY", n, 0);
  for (int64_t i = 0; i < n; ++i) {
    if (end_ - pos_ < 4) {
      return Status::Corrupt(StrCat("PLAIN: skipping ", n, " BYTE_ARRAY values: value ", i, " starts past the end"));
    }
    const uint32_t length = LoadLittleEndian<uint32_t>(pos_);
    if (length > static_cast<uint64_t>(end_ - pos_ - 4)) {
      return Status::Corrupt(StrCat("PLAIN: BYTE_ARRAY value ", i, " has length ", length, " but only ",
                                    end_ - pos_ - 4, " bytes remain"));
    }
    pos_ += 4 + static_cast<int64_t>(length);
  }
  return Status::OK();
}

Status PlainFixedLenByteArrayDecoder::Init(std::span<const uint8_t> data, int32_t width) {
  if (width <= 0)
    return Status::InvalidArgument(StrCat("PLAIN: FIXED_LEN_BYTE_ARRAY width ", width, " is not positive"));
  pos_ = data.data();
  width_ = width;
  values_left_ = static_cast<int64_t>(data.size()) / width;
  return Status::OK();
}

Status PlainFixedLenByteArrayDecoder::CheckAvailable(int64_t n) const {
  return CheckCount(StrCat("FIXED_LEN_BYTE_ARRAY(", width_, ")"), n, values_left_);
}

Status PlainFixedLenByteArrayDecoder::Decode(int64_t n, uint8_t* out) {
  FLOE_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, DecodeView(n));
  if (!bytes.empty()) std::memcpy(out, bytes.data(), bytes.size());
  return Status::OK();
}

Result<std::span<const uint8_t>> PlainFixedLenByteArrayDecoder::DecodeView(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckAvailable(n));
  std::span<const uint8_t> bytes(pos_, static_cast<size_t>(n * width_));
  pos_ += n * width_;
  values_left_ -= n;
  return bytes;
}

Status PlainFixedLenByteArrayDecoder::Skip(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckAvailable(n));
  pos_ += n * width_;
  values_left_ -= n;
  return Status::OK();
}

template <typename T>
void EncodePlain(std::span<const T> values, std::vector<uint8_t>* out) {
  const size_t start = out->size();
  out->resize(start + values.size_bytes());
  if (!values.empty()) std::memcpy(out->data() + start, values.data(), values.size_bytes());
}

template void EncodePlain<int32_t>(std::span<const int32_t>, std::vector<uint8_t>*);
template void EncodePlain<int64_t>(std::span<const int64_t>, std::vector<uint8_t>*);
template void EncodePlain<Int96>(std::span<const Int96>, std::vector<uint8_t>*);
template void EncodePlain<float>(std::span<const float>, std::vector<uint8_t>*);
template void EncodePlain<double>(std::span<const double>, std::vector<uint8_t>*);

void EncodePlainBoolean(std::span<const bool> values, std::vector<uint8_t>* out) {
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(BytesForBits(static_cast<int64_t>(values.size()))), 0);
  uint8_t* bytes = out->data() + start;
  for (size_t i = 0; i < values.size(); ++i) bytes[i >> 3] |= static_cast<uint8_t>(values[i] << (i & 7));
}

void EncodePlainByteArray(const ByteArrayView& values, std::vector<uint8_t>* out) {
  const int64_t data_size = values.num_values == 0 ? 0 : values.offsets[values.num_values] - values.offsets[0];
  size_t pos = out->size();
  out->resize(pos + static_cast<size_t>(4 * values.num_values + data_size));
  for (int64_t i = 0; i < values.num_values; ++i) {
    const int32_t length = values.length(i);
    StoreLittleEndian<uint32_t>(static_cast<uint32_t>(length), out->data() + pos);
    if (length > 0) std::memcpy(out->data() + pos + 4, values.data + values.offsets[i], static_cast<size_t>(length));
    pos += 4 + static_cast<size_t>(length);
  }
}

Status EncodePlainFixedLenByteArray(std::span<const uint8_t> values, int32_t width, std::vector<uint8_t>* out) {
  if (width <= 0 || values.size() % static_cast<size_t>(width) != 0) {
    return Status::InvalidArgument(
        StrCat("PLAIN: ", values.size(), " bytes are not whole FIXED_LEN_BYTE_ARRAY(", width, ") values"));
  }
  out->insert(out->end(), values.begin(), values.end());
  return Status::OK();
}

}  // namespace floe::parquet::encoding
