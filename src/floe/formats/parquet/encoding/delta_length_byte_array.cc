#include "floe/formats/parquet/encoding/delta_length_byte_array.h"

#include <algorithm>
#include <cstring>

#include "floe/base/strings.h"

namespace floe::parquet::encoding {
namespace {

constexpr int64_t kSkipChunk = 1024;

}  // namespace

Status DeltaLengthByteArrayDecoder::CheckCount(int64_t n) const {
  if (n < 0) return Status::InvalidArgument(StrCat("DELTA_LENGTH_BYTE_ARRAY: ", n, " values requested"));
  if (n > values_left()) {
    return Status::Corrupt(StrCat("DELTA_LENGTH_BYTE_ARRAY: ", n, " values requested but only ", values_left(), " of ",
                                  num_values(), " remain"));
  }
  return Status::OK();
}

Status DeltaLengthByteArrayDecoder::Start(std::span<const uint8_t> data) {
  FLOE_RETURN_IF_ERROR(lengths_.Init(data).WithContext("DELTA_LENGTH_BYTE_ARRAY lengths"));
  const Result<int64_t> lengths_size = lengths_.EncodedSize();
  if (!lengths_size.ok()) return lengths_size.status().WithContext("DELTA_LENGTH_BYTE_ARRAY lengths");
  data_pos_ = data.data() + *lengths_size;
  data_end_ = data.data() + data.size();
  return Status::OK();
}

Status DeltaLengthByteArrayDecoder::Init(std::span<const uint8_t> data) {
  page_ = Buffer();
  return Start(data);
}

Status DeltaLengthByteArrayDecoder::Init(const Buffer& page) {
  page_ = page;
  return Start(page.span());
}

Result<std::span<const uint8_t>> DeltaLengthByteArrayDecoder::DecodeLengths(int64_t n, int32_t* lengths) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  const int64_t first = num_values() - values_left();
  FLOE_RETURN_IF_ERROR(lengths_.Decode(n, lengths).WithContext("DELTA_LENGTH_BYTE_ARRAY lengths"));
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (lengths[i] < 0) {
      return Status::Corrupt(StrCat("DELTA_LENGTH_BYTE_ARRAY: value ", first + i, " has negative length ", lengths[i]));
    }
    total += lengths[i];
  }
  // n lengths below 2^31 sum below 2^62: no overflow before this check.
  if (total > data_end_ - data_pos_) {
    return Status::Corrupt(StrCat("DELTA_LENGTH_BYTE_ARRAY: values ", first, "..", first + n - 1, " need ", total,
                                  " bytes but only ", data_end_ - data_pos_, " remain"));
  }
  std::span<const uint8_t> bytes(data_pos_, static_cast<size_t>(total));
  data_pos_ += total;
  return bytes;
}

Result<ByteArrayBatch> DeltaLengthByteArrayDecoder::Decode(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  ByteArrayBatch batch;
  batch.num_values = n;
  FLOE_ASSIGN_OR_RETURN(batch.offsets, AllocateByteArrayOffsets(n));
  auto* offsets = reinterpret_cast<int32_t*>(batch.offsets.mutable_data());
  // The lengths land in offsets[1..n] and become offsets in place.
  FLOE_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, DecodeLengths(n, offsets + 1));
  FLOE_RETURN_IF_ERROR(CheckByteArrayDataSize("DELTA_LENGTH_BYTE_ARRAY", n, static_cast<int64_t>(bytes.size())));
  for (int64_t i = 1; i <= n; ++i) offsets[i] += offsets[i - 1];
  if (!page_.empty()) {
    batch.data = page_.Slice(bytes.data() - page_.data(), static_cast<int64_t>(bytes.size()));
  } else {
    batch.data = Buffer::CopyOf(bytes);
  }
  return batch;
}

Status DeltaLengthByteArrayDecoder::Skip(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  scratch_.resize(static_cast<size_t>(std::min(n, kSkipChunk)));
  while (n > 0) {
    const int64_t k = std::min(n, kSkipChunk);
    FLOE_RETURN_IF_ERROR(DecodeLengths(k, scratch_.data()).status());
    n -= k;
  }
  return Status::OK();
}

void EncodeDeltaLengthByteArray(const ByteArrayView& values, std::vector<uint8_t>* out) {
  std::vector<int32_t> lengths(static_cast<size_t>(values.num_values));
  for (int64_t i = 0; i < values.num_values; ++i) lengths[static_cast<size_t>(i)] = values.length(i);
  EncodeDeltaBinaryPacked<int32_t>(lengths, out);
  if (values.num_values > 0) {
    const int32_t begin = values.offsets[0];
    const int32_t end = values.offsets[values.num_values];
    out->insert(out->end(), values.data + begin, values.data + end);
  }
}

}  // namespace floe::parquet::encoding
