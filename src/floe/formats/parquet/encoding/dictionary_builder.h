// The writer's side of dictionary encoding: a builder maps each distinct
// value of a column chunk to its index, in first-seen order, and writes the
// PLAIN dictionary page. spec: "If the dictionary grows too big, whether in
// size or number of distinct values, the encoding will fall back to the plain
// encoding" -- ShouldFallBack() is that signal.
//
// Values are compared by their bytes: FLOAT and DOUBLE keep -0.0 apart from
// 0.0 and every NaN payload apart, so the round trip is bit-exact.
//
// Thread safety: a builder is used by one thread at a time.

#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "floe/base/status.h"
#include "floe/formats/parquet/encoding/byte_array.h"

namespace floe::parquet::encoding {

// parquet-mr's and Arrow's default dictionary page size limit.
inline constexpr int64_t kDefaultMaxDictionaryBytes = int64_t{1} << 20;

// Open-addressing hash table from a value's hash to its dictionary index; the
// builders own the values and supply the equality test.
class DictionaryHashTable {
 public:
  DictionaryHashTable();

  // The index of the entry with `hash` for which equal(index) holds, or -1.
  template <typename Equal>
  int64_t Find(uint64_t hash, Equal&& equal) const {
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.index_plus_one == 0) return -1;
      if (slot.hash == hash && equal(slot.index_plus_one - 1)) return slot.index_plus_one - 1;
    }
  }

  // Adds `index` under `hash`; the caller has checked Find() returns -1.
  void Insert(uint64_t hash, uint32_t index);
  // Removes every entry, keeping the slots' memory unless the table is large.
  void Clear();

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t index_plus_one = 0;  // 0 marks an empty slot
  };
  void Grow();

  std::vector<Slot> slots_;
  size_t mask_;
  size_t count_ = 0;
};

// Dictionary of INT32, INT64, FLOAT or DOUBLE values (T = int32_t, int64_t,
// float, double). Its hash table holds the values' bits in the slots, so a
// probe touches one cache line and never the value array.
template <typename T>
class DictionaryBuilder {
 public:
  explicit DictionaryBuilder(int64_t max_dictionary_bytes = kDefaultMaxDictionaryBytes);

  // Writes the index of each value to indices[0..values.size()), adding the
  // values not seen before. InvalidArgument when the dictionary would pass
  // 2^31-1 entries; the values before that one stay added.
  Status Put(std::span<const T> values, uint32_t* indices);

  int64_t size() const { return static_cast<int64_t>(values_.size()); }
  // The size of the PLAIN dictionary page.
  int64_t dictionary_bytes() const { return size() * static_cast<int64_t>(sizeof(T)); }
  // True once dictionary_bytes() exceeds the limit: finish the current page
  // with these indices and write the chunk's later pages PLAIN.
  bool ShouldFallBack() const { return dictionary_bytes() > max_dictionary_bytes_; }
  // The bit width for the data pages' indices.
  int index_bit_width() const;
  // The distinct values in index order.
  std::span<const T> values() const { return values_; }
  // Appends the PLAIN dictionary page body.
  void WriteDictionaryPage(std::vector<uint8_t>* out) const;
  // Empties the dictionary for the next column chunk, keeping its memory
  // (a hash table of up to 64 Ki slots; a larger one is freed).
  void Clear();

 private:
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  struct Slot {
    Bits bits = 0;
    uint32_t index_plus_one = 0;  // 0 marks an empty slot
  };
  void Grow();

  std::vector<Slot> slots_;
  int shift_;  // 64 - log2(slots_.size())
  std::vector<T> values_;
  int64_t max_dictionary_bytes_;
};

// Dictionary of BYTE_ARRAY values.
class ByteArrayDictionaryBuilder {
 public:
  explicit ByteArrayDictionaryBuilder(int64_t max_dictionary_bytes = kDefaultMaxDictionaryBytes)
      : max_dictionary_bytes_(max_dictionary_bytes) {}

  // As DictionaryBuilder::Put(); also InvalidArgument when the distinct
  // values would pass 2^31-1 bytes.
  Status Put(const ByteArrayView& values, uint32_t* indices);

  int64_t size() const { return static_cast<int64_t>(offsets_.size()) - 1; }
  // The size of the PLAIN dictionary page: a 4-byte length per value plus the bytes.
  int64_t dictionary_bytes() const { return 4 * size() + static_cast<int64_t>(data_.size()); }
  bool ShouldFallBack() const { return dictionary_bytes() > max_dictionary_bytes_; }
  int index_bit_width() const;
  // The distinct values in index order; valid until the next Put().
  ByteArrayView values() const { return {offsets_.data(), data_.data(), size()}; }
  void WriteDictionaryPage(std::vector<uint8_t>* out) const;
  // Empties the dictionary for the next column chunk, keeping its memory
  // (a hash table of up to 64 Ki slots; a larger one is freed).
  void Clear();

 private:
  DictionaryHashTable table_;
  std::vector<int32_t> offsets_{0};
  std::vector<uint8_t> data_;
  int64_t max_dictionary_bytes_;
};

// Dictionary of FIXED_LEN_BYTE_ARRAY(width) values, and of INT96 (width 12,
// whose PLAIN form is the same bytes).
class FixedLenByteArrayDictionaryBuilder {
 public:
  // `width` must be positive (a caller bug otherwise: Put() then fails).
  explicit FixedLenByteArrayDictionaryBuilder(int32_t width, int64_t max_dictionary_bytes = kDefaultMaxDictionaryBytes)
      : width_(width), max_dictionary_bytes_(max_dictionary_bytes) {}

  // `values` holds whole values of width bytes. InvalidArgument when it does
  // not, or as for DictionaryBuilder::Put().
  Status Put(std::span<const uint8_t> values, uint32_t* indices);

  int64_t size() const { return width_ > 0 ? static_cast<int64_t>(data_.size()) / width_ : 0; }
  int64_t dictionary_bytes() const { return static_cast<int64_t>(data_.size()); }
  bool ShouldFallBack() const { return dictionary_bytes() > max_dictionary_bytes_; }
  int index_bit_width() const;
  // The distinct values in index order, width bytes each.
  std::span<const uint8_t> values() const { return data_; }
  void WriteDictionaryPage(std::vector<uint8_t>* out) const;
  // Empties the dictionary for the next column chunk, keeping its memory
  // (a hash table of up to 64 Ki slots; a larger one is freed).
  void Clear();

 private:
  DictionaryHashTable table_;
  std::vector<uint8_t> data_;
  int32_t width_;
  int64_t max_dictionary_bytes_;
};

}  // namespace floe::parquet::encoding
