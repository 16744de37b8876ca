// ArrayData and Array: one column of values in the Arrow columnar layout.
//
// ArrayData is the raw layout: a type, a length, an `offset` (in elements,
// applied to every buffer, so a slice shares its parent's buffers), a null
// count, buffers and child arrays. Buffers per type, as the Arrow spec lays
// them out ("Physical memory layout"):
//
//   null                     no buffers (every value is null)
//   bool                     [validity, values bitmap]
//   ints, floats, decimal128, date32, time64, timestamp,
//   fixed_size_binary, uuid  [validity, values]  (byte_width bytes per value)
//   string, binary           [validity, int32 offsets (length + 1), data]
//   list                     [validity, int32 offsets (length + 1)], child: the values
//   map                      [validity, int32 offsets (length + 1)], child: non-null
//                            struct "entries" of [key, value]
//   struct                   [validity], one child per field
//   dictionary               [validity, int32 indices], `dictionary`: the values
//                            (string or binary), indexed from its element 0 and
//                            not sliced with the indices; it may hold
//                            duplicates, nulls and values no index uses. The
//                            index of a null element is unspecified; a valid
//                            one is in [0, dictionary length).
//
// The validity buffer may be empty: every value is valid. Element i of a list
// or map spans child elements [offsets[offset + i], offsets[offset + i + 1]).
// Children of a struct are indexed like their parent: element i of a struct
// is element `offset + i` of each child, so slicing a struct leaves its
// children alone (as in Arrow). A dictionary element is logically null where
// its index is null or refers to a null value; its null count (and IsNull)
// counts only the null indices, as Arrow's does.
//
// Array is a cheap, copyable handle on an immutable ArrayData.
//
// Thread safety: ArrayData is immutable once shared (its null count is
// computed at most once, atomically); an Array may be read from any thread.

#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "floe/base/buffer.h"
#include "floe/base/status.h"
#include "floe/columnar/bit_util.h"
#include "floe/columnar/data_type.h"

namespace floe {

struct ArrayData {
  ArrayData() = default;
  ArrayData(TypePtr type, int64_t length, std::vector<Buffer> buffers,
            std::vector<std::shared_ptr<const ArrayData>> children = {}, int64_t null_count = -1,
            int64_t offset = 0)
      : type(std::move(type)),
        length(length),
        offset(offset),
        null_count(null_count),
        buffers(std::move(buffers)),
        children(std::move(children)) {}
  ArrayData(const ArrayData& other)
      : type(other.type),
        length(other.length),
        offset(other.offset),
        null_count(other.null_count.load(std::memory_order_relaxed)),
        buffers(other.buffers),
        children(other.children),
        dictionary(other.dictionary) {}
  ArrayData& operator=(const ArrayData&) = delete;

  // The number of nulls in [offset, offset + length): the stored count, or,
  // when it is -1 (unknown), counted from the validity bitmap and cached.
  int64_t GetNullCount() const;

  TypePtr type;
  int64_t length = 0;
  int64_t offset = 0;
  // -1 means not yet known. Mutable so that a shared ArrayData can cache it.
  mutable std::atomic<int64_t> null_count{-1};
  std::vector<Buffer> buffers;
  std::vector<std::shared_ptr<const ArrayData>> children;
  // dictionary only: the values the indices refer to; null otherwise.
  std::shared_ptr<const ArrayData> dictionary;
};

class Array {
 public:
  // An empty handle: only assignment and data() may be used on it.
  Array() = default;
  explicit Array(std::shared_ptr<const ArrayData> data) : data_(std::move(data)) {}

  const std::shared_ptr<const ArrayData>& data() const { return data_; }
  const TypePtr& type() const { return data_->type; }
  TypeId type_id() const { return data_->type->id(); }
  int64_t length() const { return data_->length; }
  int64_t offset() const { return data_->offset; }
  int64_t null_count() const { return data_->GetNullCount(); }

  // The validity bitmap (bit `offset() + i` is element i), or null when every
  // element is valid or the type is null.
  const uint8_t* validity_bitmap() const {
    return data_->buffers.empty() || data_->buffers[0].empty() ? nullptr : data_->buffers[0].data();
  }
  // Requires 0 <= i < length() (unchecked).
  bool IsNull(int64_t i) const {
    if (data_->buffers.empty()) return true;  // only the null type has no buffers
    const Buffer& validity = data_->buffers[0];
    return !validity.empty() && !bit_util::GetBit(validity.data(), data_->offset + i);
  }
  bool IsValid(int64_t i) const { return !IsNull(i); }

  // Elements [offset, offset + length) sharing this array's buffers. The range
  // must lie inside the array (checked; aborts otherwise, a caller bug).
  Array Slice(int64_t offset, int64_t length) const;

  // The values of a fixed-width array, starting at element 0 of this (sliced)
  // array. T must have the type's byte width (checked once per call; aborts
  // otherwise): int32_t for int32 and date32, int64_t for time64 and
  // timestamp, Decimal128Value for decimal128, and so on.
  template <typename T>
  const T* Values() const {
    CheckValueWidth(sizeof(T));
    return reinterpret_cast<const T*>(data_->buffers[1].data()) + data_->offset;
  }

  // Per-value readers. Each requires the named type and 0 <= i < length()
  // (unchecked, for inner loops); the value of a null element is unspecified.
  bool GetBool(int64_t i) const { return bit_util::GetBit(data_->buffers[1].data(), data_->offset + i); }
  // string and binary.
  std::string_view GetString(int64_t i) const {
    const int32_t* offsets = ValueOffsets();
    return {reinterpret_cast<const char*>(data_->buffers[2].data()) + offsets[i],
            static_cast<size_t>(offsets[i + 1] - offsets[i])};
  }
  // fixed_size_binary and uuid.
  std::string_view GetFixedSizeBinary(int64_t i) const {
    const auto width = static_cast<size_t>(data_->type->byte_width());
    return {reinterpret_cast<const char*>(data_->buffers[1].data()) + (data_->offset + i) * width, width};
  }
  // decimal128: the unscaled value.
  Decimal128Value GetDecimal128(int64_t i) const {
    Decimal128Value v;
    std::memcpy(&v, data_->buffers[1].data() + (data_->offset + i) * 16, sizeof v);
    return v;
  }
  // string, binary, list and map: length() + 1 offsets from element 0 of this
  // array; element i spans [ValueOffsets()[i], ValueOffsets()[i + 1]) of the
  // data buffer or of list_values().
  const int32_t* ValueOffsets() const {
    return reinterpret_cast<const int32_t*>(data_->buffers[1].data()) + data_->offset;
  }

  // dictionary: length() indices from element 0 of this array; element i
  // is dictionary().GetString(DictionaryIndices()[i]) where valid.
  const int32_t* DictionaryIndices() const {
    return reinterpret_cast<const int32_t*>(data_->buffers[1].data()) + data_->offset;
  }
  // dictionary: the values array (not sliced with this array).
  Array dictionary() const { return Array(data_->dictionary); }

  // list: the values array; map: the "entries" struct array. Unsliced: index
  // it with ValueOffsets().
  Array list_values() const { return Array(data_->children[0]); }
  // struct: field i, sliced to this array's elements (a new handle; hoist it
  // out of per-row loops).
  Array field(int i) const;
  int num_fields() const { return static_cast<int>(data_->children.size()); }

  // Checks the layout for the type: buffer count and sizes, offsets
  // non-decreasing and inside the data or child, children count, types and
  // lengths, null count against the bitmap, map keys non-null, a dictionary
  // of the value type with every valid index inside it; recursively.
  // Returns Corrupt naming the first violation. String contents are not
  // checked to be UTF-8. Used on every array from untrusted producers.
  Status Validate() const;

 private:
  void CheckValueWidth(size_t width) const;

  std::shared_ptr<const ArrayData> data_;
};

// Whether `a` and `b` have equal types and lengths, and per element equal
// nullness and, where valid, equal values (offsets and the contents of null
// slots do not matter). Floats compare by value, except that NaN equals NaN.
// Dictionary elements compare by the values they refer to (logical nulls
// included), so arrays with different dictionaries or indices may be equal.
bool ArrayEquals(const Array& a, const Array& b);

// `array` with every dictionary-encoded part, at any depth, replaced by the
// values its indices refer to (type WithoutDictionaries(array.type())), an
// element null where it is logically null; `array` itself when it holds
// none. Works on slices. InvalidArgument when one decoded array's values pass
// 2^31 - 1 bytes (int32 offsets) or, for an array that was not validated, a
// valid index lies outside its dictionary; Internal when memory runs out.
Result<Array> DecodeDictionaries(const Array& array);

// An array of `length` nulls of `type` (a struct's children are null arrays
// too; a dictionary's dictionary is empty). InvalidArgument when length < 0;
// Internal when memory runs out.
Result<Array> MakeArrayOfNull(const TypePtr& type, int64_t length);

}  // namespace floe
