// Data pages of RLE_DICTIONARY (8) and the deprecated PLAIN_DICTIONARY (2):
// "the bit width used to encode the entry ids stored as 1 byte (max bit
// width = 32), followed by the values encoded using the RLE/Bit-Packing
// described above". The dictionary page itself is PLAIN (plain.h); the
// writer's side, which builds dictionaries, is dictionary_builder.h.
//
// Thread safety: a decoder is used by one thread at a time; encoders are pure.

#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "floe/base/result.h"
#include "floe/base/status.h"
#include "floe/formats/parquet/encoding/byte_array.h"
#include "floe/formats/parquet/encoding/rle_bit_packed_hybrid.h"

namespace floe::parquet::encoding {

// Decodes dictionary indices and gathers the values they name. Every index is
// checked against the dictionary size before it is used. The page bytes are
// caller-owned and must outlive the decoder; after an error it must not be
// used again.
class DictionaryIndexDecoder {
 public:
  // Reads the bit-width byte of a data page for a dictionary of
  // `dictionary_size` entries. Corrupt when `data` is empty or the width
  // exceeds 32; InvalidArgument when dictionary_size is negative.
  Status Init(std::span<const uint8_t> data, int64_t dictionary_size);

  int bit_width() const { return indices_.bit_width(); }
  int64_t dictionary_size() const { return dictionary_size_; }

  // Writes the next n indices to `out`. Corrupt when the runs end first or an
  // index is not below the dictionary size.
  Status DecodeIndices(int64_t n, uint32_t* out);

  // Writes dictionary[index] for the next n indices to `out`; `dictionary`
  // holds dictionary_size() values (T = bool, int32_t, int64_t, Int96, float
  // or double). Corrupt as for DecodeIndices(); an RLE run is validated once
  // and filled, not gathered.
  template <typename T>
  Status Decode(int64_t n, const T* dictionary, T* out);

  // The same for FIXED_LEN_BYTE_ARRAY(width): `dictionary` holds
  // dictionary_size() * width bytes, `out` receives n * width bytes.
  // InvalidArgument when width <= 0.
  Status DecodeFixedLenByteArray(int64_t n, const uint8_t* dictionary, int32_t width, uint8_t* out);

  // The next n BYTE_ARRAY values, copied into a new batch. InvalidArgument when
  // `dictionary` does not hold dictionary_size() values or the result exceeds
  // int32 offsets; Corrupt as for DecodeIndices().
  Result<ByteArrayBatch> DecodeByteArrays(int64_t n, const ByteArrayView& dictionary);

  // Moves past n indices; Corrupt when the runs end first.
  Status Skip(int64_t n);

 private:
  Status OutOfRange(uint32_t index) const;

  RleBitPackedHybridDecoder indices_;
  int64_t dictionary_size_ = 0;
};

// Appends a data page body: the bit-width byte, then `indices` in the hybrid
// encoding. InvalidArgument when bit_width is outside 0..32 or an index needs
// more bits; `out` is then unchanged.
Status EncodeDictionaryIndices(std::span<const uint32_t> indices, int bit_width, std::vector<uint8_t>* out);

}  // namespace floe::parquet::encoding
