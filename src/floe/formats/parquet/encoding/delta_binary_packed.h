// DELTA_BINARY_PACKED (Encoding 5) for INT32 and INT64: a header
// `<block size> <miniblocks per block> <total value count> <first value>`,
// then blocks of `<min delta> <one bit-width byte per miniblock> <miniblocks>`
// where each miniblock bit-packs (delta - min delta) of its values.
//
// Arithmetic wraps in two's complement ("overflow should be allowed and
// handled as wrapping around"), in 32 bits for INT32: header values wider
// than 32 bits are truncated the same way, which restores the same values.
//
// Thread safety: a decoder is used by one thread at a time; encoders are pure.

#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "floe/base/result.h"
#include "floe/base/status.h"

namespace floe::parquet::encoding {

// Decodes one DELTA_BINARY_PACKED stream (T = int32_t or int64_t) over
// caller-owned bytes that must outlive it. Memory use is fixed: values are
// unpacked 32 at a time straight into the caller's output, whatever block
// size the header declares. After an error the decoder must not be used again.
template <typename T>
class DeltaBinaryPackedDecoder {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>);

 public:
  using Unsigned = std::make_unsigned_t<T>;
  static constexpr int kMaxBitWidth = 8 * static_cast<int>(sizeof(T));

  // Parses the header. Corrupt when it is truncated, the block size is not a
  // positive multiple of 128, the miniblocks do not hold a multiple of 32
  // values each, or the value count exceeds 2^31-1 or what the bytes can hold.
  Status Init(std::span<const uint8_t> data);

  int64_t num_values() const { return num_values_; }
  int64_t values_left() const { return values_left_; }

  // Writes the next n values to `out`. Corrupt when fewer than n remain or a
  // block is malformed (truncated, or a bit width above 32 for INT32 / 64 for
  // INT64).
  Status Decode(int64_t n, T* out);

  // Moves past n values (they are decoded, as each depends on the previous
  // one); Corrupt as for Decode().
  Status Skip(int64_t n);

  // The bytes the whole stream occupies, header to last miniblock, found by
  // walking the block headers without unpacking. DELTA_LENGTH_BYTE_ARRAY and
  // DELTA_BYTE_ARRAY use it to find what follows. Requires Init() and no
  // Decode() or Skip() since; Corrupt when a block is truncated or malformed.
  Result<int64_t> EncodedSize() const;

 private:
  static constexpr int kGroup = 32;

  Status ReadBlockHeader();
  Status StartMiniblock();
  void DecodeGroups(int64_t num_groups, Unsigned* out);
  void DecodeGroupToBuffer();

  const uint8_t* begin_ = nullptr;
  const uint8_t* end_ = nullptr;
  const uint8_t* blocks_begin_ = nullptr;
  const uint8_t* pos_ = nullptr;  // next block header or miniblock

  int64_t miniblocks_per_block_ = 0;
  int64_t values_per_miniblock_ = 0;
  int64_t num_values_ = 0;
  int64_t values_left_ = 0;           // not yet returned by Decode() or Skip()
  int64_t pending_block_values_ = 0;  // not yet assigned to a started miniblock
  bool first_value_pending_ = false;
  Unsigned last_value_ = 0;

  Unsigned min_delta_ = 0;
  const uint8_t* bit_widths_ = nullptr;  // of the current block, in the input
  int64_t next_miniblock_ = 0;
  int64_t block_index_ = -1;

  // The current miniblock: values still to decode, bytes from miniblock_pos_
  // to miniblock_end_ (fewer than a full group's when the input is cut short).
  int bit_width_ = 0;
  int64_t miniblock_left_ = 0;
  const uint8_t* miniblock_pos_ = nullptr;
  const uint8_t* miniblock_end_ = nullptr;

  Unsigned buffer_[kGroup];
  int64_t buffer_pos_ = 0;
  int64_t buffer_end_ = 0;
};

// Block layout for encoders. spec: the block size is a multiple of 128 and
// the values per miniblock (block size / miniblocks) a multiple of 32.
struct DeltaBinaryPackedOptions {
  int32_t block_size = 128;
  int32_t miniblocks_per_block = 4;
};

// Appends the encoding of `values` (T = int32_t or int64_t) with 128-value
// blocks of 4 miniblocks, the layout parquet-mr and Arrow write.
template <typename T>
void EncodeDeltaBinaryPacked(std::span<const T> values, std::vector<uint8_t>* out);

// The same with another block layout. InvalidArgument, with `out`
// unchanged, when `options` break the spec's rules above.
template <typename T>
Status EncodeDeltaBinaryPacked(std::span<const T> values, const DeltaBinaryPackedOptions& options,
                               std::vector<uint8_t>* out);

}  // namespace floe::parquet::encoding
