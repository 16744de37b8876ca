// Facts of the Arrow physical layout per type, shared by validation, the
// builders and the C Data Interface (internal to columnar/).

#pragma once

#include <cstdint>

#include "floe/columnar/array.h"
#include "floe/columnar/data_type.h"

namespace floe::layout {

// Buffers of an array of this type, validity included (see array.h); a
// dictionary's are its validity and indices.
constexpr int NumBuffers(TypeId id) {
  switch (id) {
    case TypeId::kNull:
      return 0;
    case TypeId::kStruct:
      return 1;
    case TypeId::kString:
    case TypeId::kBinary:
      return 3;
    default:
      return 2;
  }
}

// The alignment the values buffer needs for Array::Values<T>() to be defined:
// the natural alignment of the C type; bytes (1) for fixed_size_binary and uuid.
inline int64_t ValueAlignment(const DataType& type) {
  switch (type.id()) {
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      return 1;
    case TypeId::kDecimal128:
      return alignof(Decimal128Value);
    case TypeId::kInterval:
      return alignof(MonthDayNano);
    default:
      return type.byte_width() > 0 ? type.byte_width() : 1;
  }
}

// The index of element `i` (a logical index) of a dictionary array.
inline int32_t DictionaryIndexAt(const ArrayData& data, int64_t i) {
  return reinterpret_cast<const int32_t*>(data.buffers[1].data())[data.offset + i];
}

// Whether `data` is logically null at index `i` (its offset not yet applied):
// Array::IsNull for code that walks ArrayData without handles, except that a
// dictionary element whose index refers to a null value is null too.
inline bool IsNullAt(const ArrayData& data, int64_t i) {
  if (data.buffers.empty()) return true;  // only the null type has no buffers
  if (!data.buffers[0].empty() && !bit_util::GetBit(data.buffers[0].data(), data.offset + i)) return true;
  if (data.dictionary == nullptr) return false;
  return IsNullAt(*data.dictionary, DictionaryIndexAt(data, i));
}

}  // namespace floe::layout
