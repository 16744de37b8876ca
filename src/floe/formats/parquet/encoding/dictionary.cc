#include "floe/formats/parquet/encoding/dictionary.h"

#include <algorithm>
#include <cstring>

#include "floe/base/strings.h"
#include "floe/formats/parquet/encoding/plain.h"

namespace floe::parquet::encoding {
namespace {

// The largest index in `indices`, to validate a literal run with one compare.
inline uint32_t MaxIndex(const uint32_t* indices, int64_t n) {
  uint32_t max = 0;
  for (int64_t i = 0; i < n; ++i) max = std::max(max, indices[i]);
  return max;
}

}  // namespace

Status DictionaryIndexDecoder::Init(std::span<const uint8_t> data, int64_t dictionary_size) {
  if (dictionary_size < 0) {
    return Status::InvalidArgument(StrCat("RLE_DICTIONARY: dictionary size ", dictionary_size, " is negative"));
  }
  if (data.empty()) return Status::Corrupt("RLE_DICTIONARY: data page has no bit-width byte");
  if (data[0] > RleBitPackedHybridDecoder::kMaxBitWidth) {
    return Status::Corrupt(StrCat("RLE_DICTIONARY: index bit width ", static_cast<int>(data[0]), " exceeds 32"));
  }
  dictionary_size_ = dictionary_size;
  return indices_.Init(data.subspan(1), data[0]);
}

Status DictionaryIndexDecoder::OutOfRange(uint32_t index) const {
  return Status::Corrupt(
      StrCat("RLE_DICTIONARY: index ", index, " is out of range for a dictionary of ", dictionary_size_, " entries"));
}

Status DictionaryIndexDecoder::DecodeIndices(int64_t n, uint32_t* out) {
  FLOE_RETURN_IF_ERROR(indices_.Decode(n, out));
  const uint32_t max = MaxIndex(out, n);
  if (n > 0 && max >= dictionary_size_) return OutOfRange(max);
  return Status::OK();
}

template <typename T>
Status DictionaryIndexDecoder::Decode(int64_t n, const T* dictionary, T* out) {
  return indices_.Visit(
      n,
      [&](uint32_t index, int64_t count) {
        if (index >= dictionary_size_) return OutOfRange(index);
        std::fill(out, out + count, dictionary[index]);
        out += count;
        return Status::OK();
      },
      [&](const uint32_t* indices, int64_t count) {
        const uint32_t max = MaxIndex(indices, count);
        if (max >= dictionary_size_) return OutOfRange(max);
        for (int64_t i = 0; i < count; ++i) out[i] = dictionary[indices[i]];
        out += count;
        return Status::OK();
      });
}

template Status DictionaryIndexDecoder::Decode<bool>(int64_t, const bool*, bool*);
template Status DictionaryIndexDecoder::Decode<int32_t>(int64_t, const int32_t*, int32_t*);
template Status DictionaryIndexDecoder::Decode<int64_t>(int64_t, const int64_t*, int64_t*);
template Status DictionaryIndexDecoder::Decode<Int96>(int64_t, const Int96*, Int96*);
template Status DictionaryIndexDecoder::Decode<float>(int64_t, const float*, float*);
template Status DictionaryIndexDecoder::Decode<double>(int64_t, const double*, double*);

Status DictionaryIndexDecoder::DecodeFixedLenByteArray(int64_t n, const uint8_t* dictionary, int32_t width,
                                                       uint8_t* out) {
  if (width <= 0) {
    return Status::InvalidArgument(StrCat("RLE_DICTIONARY: FIXED_LEN_BYTE_ARRAY width ", width, " is not positive"));
  }
  const auto w = static_cast<size_t>(width);
  return indices_.Visit(
      n,
      [&](uint32_t index, int64_t count) {
        if (index >= dictionary_size_) return OutOfRange(index);
        for (int64_t i = 0; i < count; ++i, out += w) std::memcpy(out, dictionary + index * w, w);
        return Status::OK();
      },
      [&](const uint32_t* indices, int64_t count) {
        const uint32_t max = MaxIndex(indices, count);
        if (max >= dictionary_size_) return OutOfRange(max);
        for (int64_t i = 0; i < count; ++i, out += w) std::memcpy(out, dictionary + indices[i] * w, w);
        return Status::OK();
      });
}

Result<ByteArrayBatch> DictionaryIndexDecoder::DecodeByteArrays(int64_t n, const ByteArrayView& dictionary) {
  if (dictionary.num_values != dictionary_size_) {
    return Status::InvalidArgument(StrCat("RLE_DICTIONARY: dictionary holds ", dictionary.num_values,
                                          " values, not the ", dictionary_size_, " it was declared with"));
  }
  if (n < 0) return Status::InvalidArgument(StrCat("RLE_DICTIONARY: ", n, " values requested"));

  // Pass 1, on a copy of the decoder, checks that the runs hold n valid
  // indices and sums their lengths, so nothing is allocated for a bad page
  // and the data is allocated once at its exact size. Pass 2 replays the same
  // runs, writing offsets and copying. No index buffer of size n is needed.
  RleBitPackedHybridDecoder first_pass = indices_;
  int64_t total = 0;
  FLOE_RETURN_IF_ERROR(first_pass.Visit(
      n,
      [&](uint32_t index, int64_t count) {
        if (index >= dictionary_size_) return OutOfRange(index);
        total += dictionary.length(index) * count;  // below 2^31 + 2^62: cannot overflow
        return CheckByteArrayDataSize("RLE_DICTIONARY", n, total);
      },
      [&](const uint32_t* indices, int64_t count) {
        const uint32_t max = MaxIndex(indices, count);
        if (max >= dictionary_size_) return OutOfRange(max);
        for (int64_t k = 0; k < count; ++k) total += dictionary.length(indices[k]);
        return CheckByteArrayDataSize("RLE_DICTIONARY", n, total);
      }));

  ByteArrayBatch batch;
  batch.num_values = n;
  FLOE_ASSIGN_OR_RETURN(batch.offsets, AllocateByteArrayOffsets(n));
  FLOE_ASSIGN_OR_RETURN(batch.data, Buffer::Allocate(total));
  int32_t* offsets = reinterpret_cast<int32_t*>(batch.offsets.mutable_data()) + 1;
  uint8_t* const data = batch.data.mutable_data();
  int32_t end = 0;
  auto append = [&](uint32_t index) {
    const int32_t length = dictionary.length(index);
    if (length > 0) std::memcpy(data + end, dictionary.data + dictionary.offsets[index], static_cast<size_t>(length));
    end += length;
    *offsets++ = end;
  };
  FLOE_RETURN_IF_ERROR(indices_.Visit(
      n,
      [&](uint32_t index, int64_t count) {
        for (int64_t k = 0; k < count; ++k) append(index);
        return Status::OK();
      },
      [&](const uint32_t* indices, int64_t count) {
        for (int64_t k = 0; k < count; ++k) append(indices[k]);
        return Status::OK();
      }));
  return batch;
}

Status DictionaryIndexDecoder::Skip(int64_t n) { return indices_.Skip(n); }

Status EncodeDictionaryIndices(std::span<const uint32_t> indices, int bit_width, std::vector<uint8_t>* out) {
  if (bit_width < 0 || bit_width > RleBitPackedHybridDecoder::kMaxBitWidth) {
    return Status::InvalidArgument(StrCat("RLE_DICTIONARY: index bit width ", bit_width, " is outside 0..32"));
  }
  const size_t start = out->size();
  out->push_back(static_cast<uint8_t>(bit_width));
  Status status = EncodeRleBitPackedHybrid(indices, bit_width, out);
  if (!status.ok()) out->resize(start);
  return status;
}

}  // namespace floe::parquet::encoding
