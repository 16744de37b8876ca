// Gathering dictionary values of any fixed width by the indices of a
// dictionary-encoded data page, shared by the value decoders.
//
// Thread safety: pure functions over caller state.

#pragma once

#include <cstdint>
#include <vector>

#include "floe/base/status.h"
#include "floe/formats/parquet/encoding/dictionary.h"

namespace floe::parquet {

// Writes the dictionary values (`width` bytes each, `dictionary` holding
// indices.dictionary_size() of them) named by the next n indices to `out`.
// `scratch` is reused between calls. Corrupt for an index out of range.
Status GatherFixedWidth(encoding::DictionaryIndexDecoder& indices, int64_t n, const uint8_t* dictionary,
                        int32_t width, std::vector<uint32_t>* scratch, uint8_t* out);

}  // namespace floe::parquet
