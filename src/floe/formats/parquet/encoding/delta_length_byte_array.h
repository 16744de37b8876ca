// DELTA_LENGTH_BYTE_ARRAY (Encoding 6) for BYTE_ARRAY: the lengths of all
// values as one DELTA_BINARY_PACKED stream, then "the byte array data ...
// just concatenated back to back". The data is contiguous in the page, so a
// decoder over a Buffer hands out batches that share the page's memory.
//
// Thread safety: a decoder is used by one thread at a time; encoders are pure.

#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "floe/base/buffer.h"
#include "floe/base/result.h"
#include "floe/base/status.h"
#include "floe/formats/parquet/encoding/byte_array.h"
#include "floe/formats/parquet/encoding/delta_binary_packed.h"

namespace floe::parquet::encoding {

// Decodes one stream. After an error the decoder must not be used again.
class DeltaLengthByteArrayDecoder {
 public:
  // Starts decoding caller-owned bytes that must outlive the decoder; decoded
  // batches copy their bytes. Corrupt when the lengths' stream is malformed.
  Status Init(std::span<const uint8_t> data);
  // Starts decoding `page`; decoded batches are slices of it (no copy).
  Status Init(const Buffer& page);

  int64_t num_values() const { return lengths_.num_values(); }
  int64_t values_left() const { return lengths_.values_left(); }

  // The next n values. Corrupt when fewer remain, a length is negative or the
  // lengths run past the data; Internal when memory runs out.
  Result<ByteArrayBatch> Decode(int64_t n);

  // Writes the next n lengths to `lengths` and returns their bytes, which are
  // contiguous in the input (DELTA_BYTE_ARRAY's suffixes). Corrupt as for
  // Decode().
  Result<std::span<const uint8_t>> DecodeLengths(int64_t n, int32_t* lengths);

  // Moves past n values; Corrupt as for Decode().
  Status Skip(int64_t n);

 private:
  Status Start(std::span<const uint8_t> data);
  Status CheckCount(int64_t n) const;

  Buffer page_;  // empty when decoding a caller-owned span
  DeltaBinaryPackedDecoder<int32_t> lengths_;
  const uint8_t* data_pos_ = nullptr;  // the next value's bytes
  const uint8_t* data_end_ = nullptr;
  std::vector<int32_t> scratch_;  // lengths for Skip()
};

// Appends the encoding of `values`: their lengths (128-value blocks of 4
// miniblocks), then their bytes.
void EncodeDeltaLengthByteArray(const ByteArrayView& values, std::vector<uint8_t>* out);

}  // namespace floe::parquet::encoding
