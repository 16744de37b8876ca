#include "floe/formats/parquet/encoding/dictionary_builder.h"

#include <xxhash.h>

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

// MurmurHash3's 64-bit finaliser: every input bit affects every output bit,
// so sequential integers spread over the table.
inline uint64_t MixBits(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

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

template <typename T>
Status DictionaryBuilder<T>::Put(std::span<const T> values, uint32_t* indices) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  for (size_t i = 0; i < values.size(); ++i) {
    const auto bits = std::bit_cast<Bits>(values[i]);
    const uint64_t hash = MixBits(bits);
    int64_t index =
        table_.Find(hash, [&](uint32_t candidate) { return std::bit_cast<Bits>(values_[candidate]) == bits; });
    if (index < 0) {
      if (size() == kMaxEntries) return TooManyEntries(PhysicalTypeName<T>());
      index = size();
      values_.push_back(values[i]);
      table_.Insert(hash, static_cast<uint32_t>(index));
    }
    indices[i] = static_cast<uint32_t>(index);
  }
  return Status::OK();
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

}  // namespace floe::parquet::encoding
