// ArrayEquals: value-wise comparison of two arrays of the same type; a
// dictionary element compares as the value it refers to.

#include <cmath>
#include <cstring>

#include "floe/columnar/array.h"
#include "floe/columnar/layout.h"

namespace floe {
namespace {

using layout::IsNullAt;

template <typename T>
bool FloatsEqual(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi) {
  T x;
  T y;
  std::memcpy(&x, a.buffers[1].data() + (a.offset + ai) * sizeof(T), sizeof(T));
  std::memcpy(&y, b.buffers[1].data() + (b.offset + bi) * sizeof(T), sizeof(T));
  return x == y || (std::isnan(x) && std::isnan(y));
}

std::string_view BinaryAt(const ArrayData& d, int64_t i) {
  const auto* offsets = reinterpret_cast<const int32_t*>(d.buffers[1].data()) + d.offset + i;
  return {reinterpret_cast<const char*>(d.buffers[2].data()) + offsets[0],
          static_cast<size_t>(offsets[1] - offsets[0])};
}

bool RangeEquals(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start, int64_t length);

// Element `ai` of `a` equals element `bi` of `b`; both are valid.
bool ValidElementEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi) {
  const DataType& type = *a.type;
  switch (type.id()) {
    case TypeId::kNull:
      return true;
    case TypeId::kBool:
      return bit_util::GetBit(a.buffers[1].data(), a.offset + ai) ==
             bit_util::GetBit(b.buffers[1].data(), b.offset + bi);
    case TypeId::kFloat32:
      return FloatsEqual<float>(a, ai, b, bi);
    case TypeId::kFloat64:
      return FloatsEqual<double>(a, ai, b, bi);
    case TypeId::kString:
    case TypeId::kBinary:
      return BinaryAt(a, ai) == BinaryAt(b, bi);
    case TypeId::kList:
    case TypeId::kMap: {
      const auto* ao = reinterpret_cast<const int32_t*>(a.buffers[1].data()) + a.offset + ai;
      const auto* bo = reinterpret_cast<const int32_t*>(b.buffers[1].data()) + b.offset + bi;
      const int64_t length = ao[1] - ao[0];
      return length == bo[1] - bo[0] && RangeEquals(*a.children[0], ao[0], *b.children[0], bo[0], length);
    }
    case TypeId::kStruct:
      for (size_t f = 0; f < a.children.size(); ++f) {
        if (!RangeEquals(*a.children[f], a.offset + ai, *b.children[f], b.offset + bi, 1)) return false;
      }
      return true;
    case TypeId::kDictionary:
      // Logically valid (IsNullAt looks through the index), so both values are valid.
      return BinaryAt(*a.dictionary, layout::DictionaryIndexAt(a, ai)) ==
             BinaryAt(*b.dictionary, layout::DictionaryIndexAt(b, bi));
    default: {
      const auto width = static_cast<size_t>(type.byte_width());
      return std::memcmp(a.buffers[1].data() + (a.offset + ai) * static_cast<int64_t>(width),
                         b.buffers[1].data() + (b.offset + bi) * static_cast<int64_t>(width), width) == 0;
    }
  }
}

bool RangeEquals(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start, int64_t length) {
  for (int64_t i = 0; i < length; ++i) {
    const bool a_null = IsNullAt(a, a_start + i);
    if (a_null != IsNullAt(b, b_start + i)) return false;
    if (!a_null && !ValidElementEquals(a, a_start + i, b, b_start + i)) return false;
  }
  return true;
}

}  // namespace

bool ArrayEquals(const Array& a, const Array& b) {
  if (a.data() == b.data()) return true;
  if (!TypeEquals(a.type(), b.type()) || a.length() != b.length()) return false;
  // A dictionary's null count leaves out indices that refer to null values.
  if (a.type_id() != TypeId::kDictionary && a.null_count() != b.null_count()) return false;
  return RangeEquals(*a.data(), 0, *b.data(), 0, a.length());
}

}  // namespace floe
