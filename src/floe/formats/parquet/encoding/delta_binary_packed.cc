#include "floe/formats/parquet/encoding/delta_binary_packed.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "floe/base/strings.h"
#include "floe/formats/parquet/encoding/bit_util.h"
#include "floe/formats/parquet/encoding/varint.h"

namespace floe::parquet::encoding {
namespace {

// A stream lives in one page, whose value count is a Thrift i32.
constexpr uint64_t kMaxValueCount = std::numeric_limits<int32_t>::max();

// Values unpacked and prefix-summed per step, so both passes stay in L1.
constexpr int64_t kChunk = 256;

Status TruncatedVarint(std::string_view what) {
  return Status::Corrupt(StrCat("DELTA_BINARY_PACKED: ", what, " is truncated or overflows 64 bits"));
}

Status BadBitWidth(int bit_width, int max_bit_width, int64_t block, int64_t miniblock) {
  return Status::Corrupt(StrCat("DELTA_BINARY_PACKED: miniblock bit width ", bit_width, " exceeds ", max_bit_width,
                                " (block ", block, ", miniblock ", miniblock, ")"));
}

Status TruncatedMiniblock(int64_t needed, int64_t available, int64_t block, int64_t miniblock) {
  return Status::Corrupt(StrCat("DELTA_BINARY_PACKED: miniblock ", miniblock, " of block ", block, " needs ", needed,
                                " bytes but only ", available, " remain"));
}

Status TruncatedBitWidths(int64_t miniblocks, int64_t available, int64_t block) {
  return Status::Corrupt(StrCat("DELTA_BINARY_PACKED: block ", block, " needs ", miniblocks,
                                " bit-width bytes but only ", available, " remain"));
}

Status CheckLayout(uint64_t block_size, uint64_t miniblocks) {
  if (block_size == 0 || block_size % 128 != 0 || block_size > kMaxValueCount) {
    return Status::Corrupt(
        StrCat("DELTA_BINARY_PACKED: block size ", block_size, " is not a positive multiple of 128 below 2^31"));
  }
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    return Status::Corrupt(StrCat("DELTA_BINARY_PACKED: ", miniblocks, " miniblocks do not split a block of ",
                                  block_size, " values into multiples of 32"));
  }
  return Status::OK();
}

}  // namespace

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Init(std::span<const uint8_t> data) {
  begin_ = data.data();
  end_ = data.data() + data.size();
  pos_ = begin_;
  uint64_t block_size, miniblocks, count, first_value;
  if (!ReadUleb128(&pos_, end_, &block_size)) return TruncatedVarint("header block size");
  if (!ReadUleb128(&pos_, end_, &miniblocks)) return TruncatedVarint("header miniblock count");
  if (!ReadUleb128(&pos_, end_, &count)) return TruncatedVarint("header value count");
  if (!ReadUleb128(&pos_, end_, &first_value)) return TruncatedVarint("header first value");
  FLOE_RETURN_IF_ERROR(CheckLayout(block_size, miniblocks));
  if (count > kMaxValueCount) {
    return Status::Corrupt(StrCat("DELTA_BINARY_PACKED: value count ", count, " exceeds 2^31-1"));
  }
  // Every block the count needs carries at least a min delta byte and its
  // bit-width bytes, which checks the count against the bytes present.
  const int64_t blocks = count > 1 ? static_cast<int64_t>((count - 2) / block_size + 1) : 0;
  const int64_t min_bytes = blocks * (1 + static_cast<int64_t>(miniblocks));
  if (min_bytes > end_ - pos_) {
    return Status::Corrupt(StrCat("DELTA_BINARY_PACKED: ", count, " values need at least ", min_bytes,
                                  " bytes of blocks but only ", end_ - pos_, " remain"));
  }
  blocks_begin_ = pos_;
  miniblocks_per_block_ = static_cast<int64_t>(miniblocks);
  values_per_miniblock_ = static_cast<int64_t>(block_size / miniblocks);
  num_values_ = values_left_ = static_cast<int64_t>(count);
  first_value_pending_ = count > 0;
  last_value_ = static_cast<Unsigned>(ZigZagDecode(first_value));
  pending_block_values_ = count > 0 ? num_values_ - 1 : 0;
  block_index_ = -1;
  next_miniblock_ = miniblocks_per_block_;
  miniblock_left_ = 0;
  buffer_pos_ = buffer_end_ = 0;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::ReadBlockHeader() {
  ++block_index_;
  uint64_t min_delta;
  if (!ReadUleb128(&pos_, end_, &min_delta)) return TruncatedVarint(StrCat("min delta of block ", block_index_));
  min_delta_ = static_cast<Unsigned>(ZigZagDecode(min_delta));
  if (end_ - pos_ < miniblocks_per_block_) return TruncatedBitWidths(miniblocks_per_block_, end_ - pos_, block_index_);
  bit_widths_ = pos_;
  pos_ += miniblocks_per_block_;
  next_miniblock_ = 0;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::StartMiniblock() {
  if (next_miniblock_ == miniblocks_per_block_) FLOE_RETURN_IF_ERROR(ReadBlockHeader());
  const int64_t miniblock = next_miniblock_++;
  // Only the widths of miniblocks that hold values are checked: spec, "the
  // bytes storing the bit widths of the unneeded miniblocks ... readers must
  // accept arbitrary values as well".
  const int bit_width = bit_widths_[miniblock];
  if (bit_width > kMaxBitWidth) return BadBitWidth(bit_width, kMaxBitWidth, block_index_, miniblock);
  miniblock_left_ = std::min(values_per_miniblock_, pending_block_values_);
  pending_block_values_ -= miniblock_left_;
  // A stream's last miniblock is padded to full size; a writer that leaves
  // the padding out loses nothing, so only the bytes of real values are
  // required.
  const int64_t full = values_per_miniblock_ * bit_width / 8;
  const int64_t needed = BytesForBits(miniblock_left_ * bit_width);
  const int64_t available = end_ - pos_;
  if (available < needed) return TruncatedMiniblock(needed, available, block_index_, miniblock);
  bit_width_ = bit_width;
  miniblock_pos_ = pos_;
  miniblock_end_ = pos_ + std::min(full, available);
  pos_ = miniblock_end_;
  return Status::OK();
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::DecodeGroups(int64_t num_groups, Unsigned* out) {
  const Unsigned min_delta = min_delta_;
  Unsigned value = last_value_;
  for (int64_t done = 0, total = num_groups * kGroup; done < total;) {
    const int64_t k = std::min(kChunk, total - done);
    Unsigned* chunk = out + done;
    if (bit_width_ == 0) {
      // Every delta is the min delta (sequences, constants): no dependency
      // between iterations, so the loop vectorises.
      for (int64_t i = 0; i < k; ++i) chunk[i] = value + static_cast<Unsigned>(i + 1) * min_delta;
      value += static_cast<Unsigned>(k) * min_delta;
    } else {
      Unpack(miniblock_pos_, k, bit_width_, chunk);
      miniblock_pos_ += k * bit_width_ / 8;
      for (int64_t i = 0; i < k; ++i) {
        value += min_delta + chunk[i];
        chunk[i] = value;
      }
    }
    done += k;
  }
  last_value_ = value;
  miniblock_left_ -= num_groups * kGroup;
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::DecodeGroupToBuffer() {
  const int64_t valid = std::min<int64_t>(kGroup, miniblock_left_);
  if (bit_width_ == 0) {
    std::fill(buffer_, buffer_ + kGroup, Unsigned{0});
  } else if (miniblock_end_ - miniblock_pos_ >= 4 * bit_width_) {
    Unpack(miniblock_pos_, kGroup, bit_width_, buffer_);
    miniblock_pos_ += 4 * bit_width_;
  } else {
    // The input ends inside this group (an unpadded last miniblock).
    uint8_t group[4 * kMaxBitWidth] = {};
    std::memcpy(group, miniblock_pos_, static_cast<size_t>(miniblock_end_ - miniblock_pos_));
    Unpack(group, kGroup, bit_width_, buffer_);
    miniblock_pos_ = miniblock_end_;
  }
  Unsigned value = last_value_;
  for (int64_t i = 0; i < valid; ++i) {
    value += min_delta_ + buffer_[i];
    buffer_[i] = value;
  }
  last_value_ = value;
  miniblock_left_ -= valid;
  buffer_pos_ = 0;
  buffer_end_ = valid;
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Decode(int64_t n, T* out) {
  if (n < 0) return Status::InvalidArgument(StrCat("DELTA_BINARY_PACKED: ", n, " values requested"));
  if (n > values_left_) {
    return Status::Corrupt(StrCat("DELTA_BINARY_PACKED: ", n, " values requested but only ", values_left_, " of ",
                                  num_values_, " remain"));
  }
  values_left_ -= n;
  // Signed and unsigned variants of a type may alias.
  auto* u = reinterpret_cast<Unsigned*>(out);
  if (n > 0 && first_value_pending_) {
    *u++ = last_value_;
    --n;
    first_value_pending_ = false;
  }
  while (n > 0) {
    if (buffer_pos_ < buffer_end_) {
      const int64_t k = std::min(n, buffer_end_ - buffer_pos_);
      std::memcpy(u, buffer_ + buffer_pos_, static_cast<size_t>(k) * sizeof(Unsigned));
      buffer_pos_ += k;
      u += k;
      n -= k;
      continue;
    }
    if (miniblock_left_ == 0) FLOE_RETURN_IF_ERROR(StartMiniblock());
    int64_t groups = std::min(n, miniblock_left_) / kGroup;
    if (bit_width_ > 0) groups = std::min(groups, (miniblock_end_ - miniblock_pos_) / (4 * bit_width_));
    if (groups > 0) {
      DecodeGroups(groups, u);
      u += groups * kGroup;
      n -= groups * kGroup;
    } else {
      DecodeGroupToBuffer();
    }
  }
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Skip(int64_t n) {
  if (n < 0) return Status::InvalidArgument(StrCat("DELTA_BINARY_PACKED: cannot skip ", n, " values"));
  T scratch[kChunk];
  while (n > 0) {
    const int64_t k = std::min(n, kChunk);
    FLOE_RETURN_IF_ERROR(Decode(k, scratch));
    n -= k;
  }
  return Status::OK();
}

template <typename T>
Result<int64_t> DeltaBinaryPackedDecoder<T>::EncodedSize() const {
  const uint8_t* p = blocks_begin_;
  int64_t pending = num_values_ > 0 ? num_values_ - 1 : 0;
  for (int64_t block = 0; pending > 0; ++block) {
    uint64_t min_delta;
    if (!ReadUleb128(&p, end_, &min_delta)) return TruncatedVarint(StrCat("min delta of block ", block));
    if (end_ - p < miniblocks_per_block_) return TruncatedBitWidths(miniblocks_per_block_, end_ - p, block);
    const uint8_t* widths = p;
    p += miniblocks_per_block_;
    for (int64_t m = 0; m < miniblocks_per_block_ && pending > 0; ++m) {
      if (widths[m] > kMaxBitWidth) return BadBitWidth(widths[m], kMaxBitWidth, block, m);
      const int64_t bytes = values_per_miniblock_ * widths[m] / 8;
      if (end_ - p < bytes) return TruncatedMiniblock(bytes, end_ - p, block, m);
      p += bytes;
      pending -= std::min(values_per_miniblock_, pending);
    }
  }
  return p - begin_;
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;

template <typename T>
Status EncodeDeltaBinaryPacked(std::span<const T> values, const DeltaBinaryPackedOptions& options,
                               std::vector<uint8_t>* out) {
  using U = std::make_unsigned_t<T>;
  if (options.block_size <= 0 || options.miniblocks_per_block <= 0) {
    return Status::InvalidArgument(StrCat("DELTA_BINARY_PACKED: block size ", options.block_size, " and ",
                                          options.miniblocks_per_block, " miniblocks must be positive"));
  }
  if (Status layout =
          CheckLayout(static_cast<uint64_t>(options.block_size), static_cast<uint64_t>(options.miniblocks_per_block));
      !layout.ok()) {
    return Status::InvalidArgument(layout.message());
  }
  const auto n = static_cast<int64_t>(values.size());
  const int64_t block_size = options.block_size;
  const int64_t miniblocks = options.miniblocks_per_block;
  const int64_t per_miniblock = block_size / miniblocks;
  WriteUleb128(static_cast<uint64_t>(block_size), out);
  WriteUleb128(static_cast<uint64_t>(miniblocks), out);
  WriteUleb128(static_cast<uint64_t>(n), out);
  WriteUleb128(ZigZagEncode(n > 0 ? static_cast<int64_t>(values[0]) : 0), out);

  std::vector<U> deltas(static_cast<size_t>(block_size));
  for (int64_t start = 1; start < n; start += block_size) {
    const int64_t count = std::min(block_size, n - start);
    T min_delta = std::numeric_limits<T>::max();
    for (int64_t i = 0; i < count; ++i) {
      const U delta = static_cast<U>(values[start + i]) - static_cast<U>(values[start + i - 1]);
      deltas[i] = delta;
      min_delta = std::min(min_delta, static_cast<T>(delta));
    }
    // Padding deltas equal the min delta, so they pack as zero bits.
    std::fill(deltas.begin() + count, deltas.end(), static_cast<U>(min_delta));
    for (U& delta : deltas) delta -= static_cast<U>(min_delta);
    WriteUleb128(ZigZagEncode(static_cast<int64_t>(min_delta)), out);

    const int64_t used = (count + per_miniblock - 1) / per_miniblock;
    const size_t widths_pos = out->size();
    out->resize(widths_pos + static_cast<size_t>(miniblocks), 0);  // unused miniblocks get width 0
    for (int64_t m = 0; m < used; ++m) {
      U bits = 0;
      for (int64_t i = m * per_miniblock; i < (m + 1) * per_miniblock; ++i) bits |= deltas[i];
      const int bit_width = BitWidth(bits);
      (*out)[widths_pos + static_cast<size_t>(m)] = static_cast<uint8_t>(bit_width);
      const size_t body = out->size();
      out->resize(body + static_cast<size_t>(per_miniblock * bit_width / 8));
      Pack(deltas.data() + m * per_miniblock, per_miniblock, bit_width, out->data() + body);
    }
  }
  return Status::OK();
}

template <typename T>
void EncodeDeltaBinaryPacked(std::span<const T> values, std::vector<uint8_t>* out) {
  // The default layout always passes the checks.
  static_cast<void>(EncodeDeltaBinaryPacked(values, DeltaBinaryPackedOptions{}, out));
}

template void EncodeDeltaBinaryPacked<int32_t>(std::span<const int32_t>, std::vector<uint8_t>*);
template void EncodeDeltaBinaryPacked<int64_t>(std::span<const int64_t>, std::vector<uint8_t>*);
template Status EncodeDeltaBinaryPacked<int32_t>(std::span<const int32_t>, const DeltaBinaryPackedOptions&,
                                                 std::vector<uint8_t>*);
template Status EncodeDeltaBinaryPacked<int64_t>(std::span<const int64_t>, const DeltaBinaryPackedOptions&,
                                                 std::vector<uint8_t>*);

}  // namespace floe::parquet::encoding
