#include "floe/formats/parquet/encoding/dictionary_builder.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "floe/base/strings.h"
#include "floe/formats/parquet/encoding/bit_util.h"
#include "floe/formats/parquet/encoding/plain.h"

namespace floe::parquet::encoding {
namespace {

constexpr int64_t kMaxEntries = std::numeric_limits<int32_t>::max();
constexpr size_t kInitialSlots = 64;
// Clear() keeps a table up to this many slots (1 MiB of 16-byte slots) for
// the next chunk; a larger one is freed, so that a writer of many columns
// does not hold every column's largest dictionary for its whole life.
constexpr size_t kMaxKeptSlots = size_t{1} << 16;

inline uint64_t HashBytes(const uint8_t* data, size_t size) { return XXH3_64bits(data, size); }

Status TooManyEntries(std::string_view type) {
  return Status::InvalidArgument(StrCat("dictionary of ", type, " values would pass ", kMaxEntries, " entries"));
}

int IndexBitWidth(int64_t size) { return size <= 1 ? 0 : BitWidth(static_cast<uint64_t>(size - 1)); }

}  // namespace

DictionaryHashTable::DictionaryHashTable() : slots_(kInitialSlots), mask_(kInitialSlots - 1) {}

void DictionaryHashTable::Insert(uint64_t hash, uint32_t index) {
  size_t i = hash & mask_;
  while (slots_[i].index_plus_one != 0) i = (i + 1) & mask_;
  slots_[i] = {hash, index + 1};
  // A load factor of at most 1/2 keeps linear probes short.
  if (++count_ * 2 > slots_.size()) Grow();
}

void DictionaryHashTable::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{});
  mask_ = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.index_plus_one == 0) continue;
    size_t i = slot.hash & mask_;
    while (slots_[i].index_plus_one != 0) i = (i + 1) & mask_;
    slots_[i] = slot;
  }
}

void DictionaryHashTable::Clear() {
  if (count_ == 0) return;
  if (slots_.size() > kMaxKeptSlots) {
    slots_.assign(kInitialSlots, Slot{});
    slots_.shrink_to_fit();
    mask_ = kInitialSlots - 1;
  } else {
    std::fill(slots_.begin(), slots_.end(), Slot{});
  }
  count_ = 0;
}

// Fibonacci hashing for the fixed-width values: one multiply, the slot from
// the product's top bits, which every input bit reaches (sequential integers
// land far apart). A load factor of at most 1/4 keeps most probes to one slot,
// so the probe loop's branch is predictable; the table stays small (16 bytes
// a slot for 8-byte values, at most 8 MiB at the 1 MiB dictionary limit).
constexpr uint64_t kFibonacci = 0x9E3779B97F4A7C15ULL;
constexpr int kInitialShift = 64 - 6;  // 64 slots

template <typename T>
DictionaryBuilder<T>::DictionaryBuilder(int64_t max_dictionary_bytes)
    : slots_(size_t{1} << (64 - kInitialShift)), shift_(kInitialShift), max_dictionary_bytes_(max_dictionary_bytes) {}

template <typename T>
Status DictionaryBuilder<T>::Put(std::span<const T> values, uint32_t* indices) {
  const size_t mask = slots_.size() - 1;
  for (size_t i = 0; i < values.size(); ++i) {
    const auto bits = std::bit_cast<Bits>(values[i]);
    for (size_t s = (bits * kFibonacci) >> shift_;; s = (s + 1) & mask) {
      Slot& slot = slots_[s];
      if (slot.index_plus_one == 0) {
        if (size() == kMaxEntries) return TooManyEntries(PhysicalTypeName<T>());
        const auto index = static_cast<uint32_t>(values_.size());
        slot = {bits, index + 1};
        values_.push_back(values[i]);
        indices[i] = index;
        if (values_.size() * 4 > slots_.size()) {
          Grow();
          return Put(values.subspan(i + 1), indices + i + 1);
        }
        break;
      }
      if (slot.bits == bits) {
        indices[i] = slot.index_plus_one - 1;
        break;
      }
    }
  }
  return Status::OK();
}

template <typename T>
void DictionaryBuilder<T>::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{});
  --shift_;
  const size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.index_plus_one == 0) continue;
    size_t i = (slot.bits * kFibonacci) >> shift_;
    while (slots_[i].index_plus_one != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

template <typename T>
void DictionaryBuilder<T>::Clear() {
  if (values_.empty()) return;
  if (slots_.size() > kMaxKeptSlots) {
    slots_.assign(size_t{1} << (64 - kInitialShift), Slot{});
    slots_.shrink_to_fit();
    shift_ = kInitialShift;
    values_ = {};
  } else {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    values_.clear();
  }
}

template <typename T>
int DictionaryBuilder<T>::index_bit_width() const {
  return IndexBitWidth(size());
}

template <typename T>
void DictionaryBuilder<T>::WriteDictionaryPage(std::vector<uint8_t>* out) const {
  EncodePlain<T>(values_, out);
}

template class DictionaryBuilder<int32_t>;
template class DictionaryBuilder<int64_t>;
template class DictionaryBuilder<float>;
template class DictionaryBuilder<double>;

Status ByteArrayDictionaryBuilder::Put(const ByteArrayView& values, uint32_t* indices) {
  for (int64_t i = 0; i < values.num_values; ++i) {
    const uint8_t* bytes = values.data + values.offsets[i];
    const auto length = static_cast<size_t>(values.length(i));
    const uint64_t hash = HashBytes(bytes, length);
    int64_t index = table_.Find(hash, [&](uint32_t candidate) {
      const size_t begin = static_cast<size_t>(offsets_[candidate]);
      return static_cast<size_t>(offsets_[candidate + 1]) - begin == length &&
             (length == 0 || std::memcmp(data_.data() + begin, bytes, length) == 0);
    });
    if (index < 0) {
      if (size() == kMaxEntries) return TooManyEntries("BYTE_ARRAY");
      if (static_cast<int64_t>(data_.size() + length) > kMaxByteArrayDataSize) {
        return Status::InvalidArgument(
            StrCat("dictionary of BYTE_ARRAY values would pass ", kMaxByteArrayDataSize, " bytes"));
      }
      index = size();
      data_.insert(data_.end(), bytes, bytes + length);
      offsets_.push_back(static_cast<int32_t>(data_.size()));
      table_.Insert(hash, static_cast<uint32_t>(index));
    }
    indices[i] = static_cast<uint32_t>(index);
  }
  return Status::OK();
}

int ByteArrayDictionaryBuilder::index_bit_width() const { return IndexBitWidth(size()); }

void ByteArrayDictionaryBuilder::WriteDictionaryPage(std::vector<uint8_t>* out) const {
  EncodePlainByteArray(values(), out);
}

void ByteArrayDictionaryBuilder::Clear() {
  table_.Clear();
  offsets_.assign(1, 0);
  data_.clear();
}

Status FixedLenByteArrayDictionaryBuilder::Put(std::span<const uint8_t> values, uint32_t* indices) {
  if (width_ <= 0 || values.size() % static_cast<size_t>(width_) != 0) {
    return Status::InvalidArgument(
        StrCat("dictionary: ", values.size(), " bytes are not whole FIXED_LEN_BYTE_ARRAY(", width_, ") values"));
  }
  const auto width = static_cast<size_t>(width_);
  for (size_t i = 0; i * width < values.size(); ++i) {
    const uint8_t* bytes = values.data() + i * width;
    const uint64_t hash = HashBytes(bytes, width);
    int64_t index = table_.Find(
        hash, [&](uint32_t candidate) { return std::memcmp(data_.data() + candidate * width, bytes, width) == 0; });
    if (index < 0) {
      if (size() == kMaxEntries) return TooManyEntries("FIXED_LEN_BYTE_ARRAY");
      index = size();
      data_.insert(data_.end(), bytes, bytes + width);
      table_.Insert(hash, static_cast<uint32_t>(index));
    }
    indices[i] = static_cast<uint32_t>(index);
  }
  return Status::OK();
}

int FixedLenByteArrayDictionaryBuilder::index_bit_width() const { return IndexBitWidth(size()); }

void FixedLenByteArrayDictionaryBuilder::WriteDictionaryPage(std::vector<uint8_t>* out) const {
  out->insert(out->end(), data_.begin(), data_.end());
}

void FixedLenByteArrayDictionaryBuilder::Clear() {
  table_.Clear();
  data_.clear();
}

}  // namespace floe::parquet::encoding
