// DELTA_BYTE_ARRAY (Encoding 7), "incremental encoding or front
// compression", for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: the length of the
// prefix each value shares with the previous one as a DELTA_BINARY_PACKED
// stream, then the remaining suffixes as DELTA_LENGTH_BYTE_ARRAY.
//
// Values are rebuilt from their predecessors, so decoded bytes are always
// copied, and a page of a few bytes can expand into many (a long value
// repeated): each Decode(n) is bounded by int32 offsets, and readers bound n.
//
// Thread safety: a decoder is used by one thread at a time; encoders are pure.

#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "floe/base/result.h"
#include "floe/base/status.h"
#include "floe/formats/parquet/encoding/byte_array.h"
#include "floe/formats/parquet/encoding/delta_binary_packed.h"
#include "floe/formats/parquet/encoding/delta_length_byte_array.h"

namespace floe::parquet::encoding {

// Decodes one stream over caller-owned bytes that must outlive it. After an
// error the decoder must not be used again.
class DeltaByteArrayDecoder {
 public:
  // Corrupt when either stream's header is malformed or they disagree on the
  // value count.
  Status Init(std::span<const uint8_t> data);

  int64_t num_values() const { return prefix_lengths_.num_values(); }
  int64_t values_left() const { return prefix_lengths_.values_left(); }

  // The next n values. Corrupt when fewer remain, a prefix is longer than the
  // previous value or the suffixes are malformed; InvalidArgument when the
  // values pass int32 offsets (decode fewer per call).
  Result<ByteArrayBatch> Decode(int64_t n);

  // The next n FIXED_LEN_BYTE_ARRAY(width) values, n * width bytes, to `out`.
  // Corrupt as for Decode() or when a value is not `width` bytes long.
  Status DecodeFixedLenByteArray(int64_t n, int32_t width, uint8_t* out);

  // Moves past n values, keeping only the last (the next value's prefix
  // source); Corrupt as for Decode().
  Status Skip(int64_t n);

 private:
  Status CheckCount(int64_t n) const;
  // Decodes the next n prefix and suffix lengths into the scratch vectors and
  // returns the suffixes' bytes.
  Result<std::span<const uint8_t>> DecodeLengths(int64_t n);
  Status PrefixTooLong(int64_t index, int32_t prefix, int64_t previous) const;

  DeltaBinaryPackedDecoder<int32_t> prefix_lengths_;
  DeltaLengthByteArrayDecoder suffixes_;
  std::vector<int32_t> prefixes_;
  std::vector<int32_t> suffix_lengths_;
  std::vector<uint8_t> last_value_;
};

// Appends the encoding of `values`.
void EncodeDeltaByteArray(const ByteArrayView& values, std::vector<uint8_t>* out);

// Appends the encoding of FIXED_LEN_BYTE_ARRAY(width) values, `values` being
// whole values of width bytes. InvalidArgument, with `out` unchanged, when
// width <= 0 or values is not a multiple of it.
Status EncodeDeltaByteArray(std::span<const uint8_t> values, int32_t width, std::vector<uint8_t>* out);

}  // namespace floe::parquet::encoding
