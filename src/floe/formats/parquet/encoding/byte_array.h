// BYTE_ARRAY values in the Arrow binary layout, as the byte-array decoders
// produce them and the encoders take them: value i is the bytes
// data[offsets[i], offsets[i + 1]) with int32 offsets. A reader can hand the
// two buffers to a string column as they are.
//
// Thread safety: both types are values; a ByteArrayBatch's buffers are
// immutable once returned and may be read from any thread.

#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#include "floe/base/buffer.h"
#include "floe/base/result.h"
#include "floe/base/strings.h"

namespace floe::parquet::encoding {

// A non-owning view of `num_values` byte arrays. offsets has num_values + 1
// entries, non-decreasing; offsets[0] need not be 0 (a sliced Arrow array).
struct ByteArrayView {
  const int32_t* offsets = nullptr;
  const uint8_t* data = nullptr;
  int64_t num_values = 0;

  std::string_view Value(int64_t i) const {
    return {reinterpret_cast<const char*>(data) + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])};
  }
  int32_t length(int64_t i) const { return offsets[i + 1] - offsets[i]; }
};

// Decoded byte arrays: `offsets` holds num_values + 1 int32 entries starting
// at 0, `data` the bytes. `data` may share the memory of the page it was
// decoded from (see each decoder), which then stays alive with the batch.
struct ByteArrayBatch {
  Buffer offsets;
  Buffer data;
  int64_t num_values = 0;

  const int32_t* offsets_data() const { return reinterpret_cast<const int32_t*>(offsets.data()); }
  ByteArrayView view() const { return {offsets_data(), data.data(), num_values}; }
  std::string_view Value(int64_t i) const { return view().Value(i); }
};

// Largest byte count the int32 offsets can address.
inline constexpr int64_t kMaxByteArrayDataSize = std::numeric_limits<int32_t>::max();

// A buffer for the offsets of `num_values` values with offsets[0] = 0.
// Internal when memory runs out.
inline Result<Buffer> AllocateByteArrayOffsets(int64_t num_values) {
  FLOE_ASSIGN_OR_RETURN(Buffer offsets, Buffer::Allocate((num_values + 1) * static_cast<int64_t>(sizeof(int32_t))));
  std::memset(offsets.mutable_data(), 0, sizeof(int32_t));
  return offsets;
}

// InvalidArgument when `num_values` byte arrays totalling `data_size` bytes
// do not fit int32 offsets: the caller decodes fewer values per call. Only
// decoders that rebuild values (DELTA_BYTE_ARRAY, dictionary gathers) can
// produce more bytes than their input holds.
inline Status CheckByteArrayDataSize(std::string_view encoding, int64_t num_values, int64_t data_size) {
  if (data_size <= kMaxByteArrayDataSize) return Status::OK();
  return Status::InvalidArgument(StrCat(encoding, ": ", num_values, " values decode to at least ", data_size,
                                        " bytes, more than int32 offsets address; decode fewer values per call"));
}

}  // namespace floe::parquet::encoding
