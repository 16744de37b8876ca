#include "floe/formats/parquet/encoding/delta_byte_array.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "floe/base/strings.h"

namespace floe::parquet::encoding {
namespace {

constexpr int64_t kSkipChunk = 1024;

// Encodes values given by `value(i)` (a std::string_view) for i in [0, n).
template <typename ValueAt>
void Encode(int64_t n, ValueAt&& value, std::vector<uint8_t>* out) {
  std::vector<int32_t> prefixes(static_cast<size_t>(n));
  std::vector<int32_t> suffixes(static_cast<size_t>(n));
  std::string_view previous;
  for (int64_t i = 0; i < n; ++i) {
    const std::string_view current = value(i);
    const size_t limit = std::min(previous.size(), current.size());
    size_t prefix = 0;
    while (prefix < limit && previous[prefix] == current[prefix]) ++prefix;
    prefixes[static_cast<size_t>(i)] = static_cast<int32_t>(prefix);
    suffixes[static_cast<size_t>(i)] = static_cast<int32_t>(current.size() - prefix);
    previous = current;
  }
  EncodeDeltaBinaryPacked<int32_t>(prefixes, out);
  EncodeDeltaBinaryPacked<int32_t>(suffixes, out);
  for (int64_t i = 0; i < n; ++i) {
    const std::string_view suffix = value(i).substr(static_cast<size_t>(prefixes[static_cast<size_t>(i)]));
    out->insert(out->end(), suffix.begin(), suffix.end());
  }
}

}  // namespace

Status DeltaByteArrayDecoder::Init(std::span<const uint8_t> data) {
  FLOE_RETURN_IF_ERROR(prefix_lengths_.Init(data).WithContext("DELTA_BYTE_ARRAY prefix lengths"));
  const Result<int64_t> prefixes_size = prefix_lengths_.EncodedSize();
  if (!prefixes_size.ok()) return prefixes_size.status().WithContext("DELTA_BYTE_ARRAY prefix lengths");
  FLOE_RETURN_IF_ERROR(
      suffixes_.Init(data.subspan(static_cast<size_t>(*prefixes_size))).WithContext("DELTA_BYTE_ARRAY suffixes"));
  if (suffixes_.num_values() != prefix_lengths_.num_values()) {
    return Status::Corrupt(StrCat("DELTA_BYTE_ARRAY: ", prefix_lengths_.num_values(), " prefix lengths but ",
                                  suffixes_.num_values(), " suffixes"));
  }
  last_value_.clear();
  return Status::OK();
}

Status DeltaByteArrayDecoder::CheckCount(int64_t n) const {
  if (n < 0) return Status::InvalidArgument(StrCat("DELTA_BYTE_ARRAY: ", n, " values requested"));
  if (n > values_left()) {
    return Status::Corrupt(
        StrCat("DELTA_BYTE_ARRAY: ", n, " values requested but only ", values_left(), " of ", num_values(), " remain"));
  }
  return Status::OK();
}

Status DeltaByteArrayDecoder::PrefixTooLong(int64_t index, int32_t prefix, int64_t previous) const {
  return Status::Corrupt(StrCat("DELTA_BYTE_ARRAY: value ", index, " has prefix length ", prefix,
                                " but the previous value has ", previous, " bytes"));
}

Result<std::span<const uint8_t>> DeltaByteArrayDecoder::DecodeLengths(int64_t n) {
  prefixes_.resize(static_cast<size_t>(n));
  suffix_lengths_.resize(static_cast<size_t>(n));
  FLOE_RETURN_IF_ERROR(prefix_lengths_.Decode(n, prefixes_.data()).WithContext("DELTA_BYTE_ARRAY prefix lengths"));
  auto suffixes = suffixes_.DecodeLengths(n, suffix_lengths_.data());
  if (!suffixes.ok()) return suffixes.status().WithContext("DELTA_BYTE_ARRAY suffixes");
  return suffixes;
}

Result<ByteArrayBatch> DeltaByteArrayDecoder::Decode(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  const int64_t first = num_values() - values_left();
  FLOE_ASSIGN_OR_RETURN(std::span<const uint8_t> suffixes, DecodeLengths(n));

  // Pass 1 validates the prefixes and sizes the output exactly.
  ByteArrayBatch batch;
  batch.num_values = n;
  FLOE_ASSIGN_OR_RETURN(batch.offsets, AllocateByteArrayOffsets(n));
  auto* offsets = reinterpret_cast<int32_t*>(batch.offsets.mutable_data());
  int64_t previous = static_cast<int64_t>(last_value_.size());
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t prefix = prefixes_[static_cast<size_t>(i)];
    if (prefix < 0 || prefix > previous) return PrefixTooLong(first + i, prefix, previous);
    previous = prefix + static_cast<int64_t>(suffix_lengths_[static_cast<size_t>(i)]);
    total += previous;
    FLOE_RETURN_IF_ERROR(CheckByteArrayDataSize("DELTA_BYTE_ARRAY", n, total));
    offsets[i + 1] = static_cast<int32_t>(total);
  }

  // Pass 2 copies each value's prefix from its predecessor, which is the
  // previous output value (or, for the first, the last value of the previous
  // call), then its suffix.
  FLOE_ASSIGN_OR_RETURN(batch.data, Buffer::Allocate(total));
  uint8_t* data = batch.data.mutable_data();
  const uint8_t* predecessor = last_value_.data();
  const uint8_t* suffix = suffixes.data();
  for (int64_t i = 0; i < n; ++i) {
    uint8_t* value = data + offsets[i];
    const auto prefix = static_cast<size_t>(prefixes_[static_cast<size_t>(i)]);
    const auto suffix_length = static_cast<size_t>(suffix_lengths_[static_cast<size_t>(i)]);
    if (prefix > 0) std::memcpy(value, predecessor, prefix);
    if (suffix_length > 0) std::memcpy(value + prefix, suffix, suffix_length);
    suffix += suffix_length;
    predecessor = value;
  }
  if (n > 0) last_value_.assign(predecessor, predecessor + (offsets[n] - offsets[n - 1]));
  return batch;
}

Status DeltaByteArrayDecoder::DecodeFixedLenByteArray(int64_t n, int32_t width, uint8_t* out) {
  if (width <= 0) {
    return Status::InvalidArgument(StrCat("DELTA_BYTE_ARRAY: FIXED_LEN_BYTE_ARRAY width ", width, " is not positive"));
  }
  const int64_t first = num_values() - values_left();
  FLOE_ASSIGN_OR_RETURN(ByteArrayBatch batch, Decode(n));
  const int32_t* offsets = batch.offsets_data();
  for (int64_t i = 0; i < n; ++i) {
    if (offsets[i + 1] - offsets[i] != width) {
      return Status::Corrupt(StrCat("DELTA_BYTE_ARRAY: FIXED_LEN_BYTE_ARRAY(", width, ") value ", first + i, " is ",
                                    offsets[i + 1] - offsets[i], " bytes long"));
    }
  }
  if (n > 0) std::memcpy(out, batch.data.data(), static_cast<size_t>(n) * static_cast<size_t>(width));
  return Status::OK();
}

Status DeltaByteArrayDecoder::Skip(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  while (n > 0) {
    const int64_t k = std::min(n, kSkipChunk);
    const int64_t first = num_values() - values_left();
    FLOE_ASSIGN_OR_RETURN(std::span<const uint8_t> suffixes, DecodeLengths(k));
    const uint8_t* suffix = suffixes.data();
    for (int64_t i = 0; i < k; ++i) {
      const int32_t prefix = prefixes_[static_cast<size_t>(i)];
      const auto previous = static_cast<int64_t>(last_value_.size());
      if (prefix < 0 || prefix > previous) return PrefixTooLong(first + i, prefix, previous);
      const auto suffix_length = static_cast<size_t>(suffix_lengths_[static_cast<size_t>(i)]);
      last_value_.resize(static_cast<size_t>(prefix));
      last_value_.insert(last_value_.end(), suffix, suffix + suffix_length);
      suffix += suffix_length;
    }
    n -= k;
  }
  return Status::OK();
}

void EncodeDeltaByteArray(const ByteArrayView& values, std::vector<uint8_t>* out) {
  Encode(
      values.num_values, [&](int64_t i) { return values.Value(i); }, out);
}

Status EncodeDeltaByteArray(std::span<const uint8_t> values, int32_t width, std::vector<uint8_t>* out) {
  if (width <= 0 || values.size() % static_cast<size_t>(width) != 0) {
    return Status::InvalidArgument(
        StrCat("DELTA_BYTE_ARRAY: ", values.size(), " bytes are not whole FIXED_LEN_BYTE_ARRAY(", width, ") values"));
  }
  const auto w = static_cast<size_t>(width);
  Encode(
      static_cast<int64_t>(values.size() / w),
      [&](int64_t i) { return std::string_view(reinterpret_cast<const char*>(values.data()) + i * w, w); }, out);
  return Status::OK();
}

}  // namespace floe::parquet::encoding
