#include "floe/formats/parquet/reader/dictionary_gather.h"

#include <cstring>

namespace floe::parquet {
namespace {

template <int kWidth>
void Gather(const uint32_t* index, int64_t n, const uint8_t* dictionary, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * kWidth, dictionary + int64_t{index[i]} * kWidth, kWidth);
}

}  // namespace

Status GatherFixedWidth(encoding::DictionaryIndexDecoder& indices, int64_t n, const uint8_t* dictionary,
                        int32_t width, std::vector<uint32_t>* scratch, uint8_t* out) {
  // 4- and 8-byte values go through the decoder's own gather, which fills
  // RLE runs without looking up each index.
  if (width == 4) {
    return indices.Decode(n, reinterpret_cast<const int32_t*>(dictionary), reinterpret_cast<int32_t*>(out));
  }
  if (width == 8) {
    return indices.Decode(n, reinterpret_cast<const int64_t*>(dictionary), reinterpret_cast<int64_t*>(out));
  }
  scratch->resize(static_cast<size_t>(n));
  FLOE_RETURN_IF_ERROR(indices.DecodeIndices(n, scratch->data()));
  const uint32_t* index = scratch->data();
  switch (width) {
    case 1: Gather<1>(index, n, dictionary, out); break;
    case 2: Gather<2>(index, n, dictionary, out); break;
    case 12: Gather<12>(index, n, dictionary, out); break;
    case 16: Gather<16>(index, n, dictionary, out); break;
    default:
      for (int64_t i = 0; i < n; ++i) {
        std::memcpy(out + i * width, dictionary + int64_t{index[i]} * width, static_cast<size_t>(width));
      }
  }
  return Status::OK();
}

}  // namespace floe::parquet
