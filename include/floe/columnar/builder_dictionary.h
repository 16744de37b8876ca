// DictionaryBuilder: builds dictionary arrays (int32 indices into string or
// binary values; see array.h). See array_builder.h for the contract common to
// all builders.
//
// Elements come two ways, which may be mixed:
//   Append(value)           the value is looked up among those this builder
//                           added itself and added when new;
//   AppendFrom(array, ...)  elements of dictionary arrays of the same type,
//                           whose indices are kept when they can be.
// Finish() shares the source dictionary (no copy) when every element came
// from arrays with the same dictionary (the same ArrayData) and Append() was
// not used: taking rows of one dictionary array keeps its dictionary. Other
// mixes finish with a new dictionary holding every value of each source
// dictionary (used or not, in the order first met) and each distinct
// appended value, the indices shifted to match.

#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/columnar/array_builder.h"
#include "floe/columnar/builder_binary.h"

namespace floe {

class DictionaryBuilder final : public ArrayBuilder {
 public:
  // `type` must be a dictionary type.
  explicit DictionaryBuilder(TypePtr type);

  // Appends `value` (of the value type). InvalidArgument when the dictionary
  // would pass 2^31 - 1 values or bytes.
  Status Append(std::string_view value);
  // Appends element `i` (0 <= i < array.length(), unchecked) of `array`, a
  // dictionary array of this builder's type (InvalidArgument otherwise); a
  // null element stays null. InvalidArgument when the dictionary would pass
  // 2^31 - 1 values or bytes.
  Status AppendFrom(const Array& array, int64_t i);
  // AppendFrom for each of `positions`, in order.
  Status AppendFrom(const Array& array, std::span<const int64_t> positions);

  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Array> Finish() override;

 private:
  Status CheckSource(const Array& array) const;
  // Appends element `i` of `array` (type already checked).
  Status AppendFromUnchecked(const Array& array, int64_t i);
  // Switches from sharing a source dictionary to building one: the shared
  // dictionary's values are copied first, so the indices so far stay right.
  Status StartOwnDictionary();
  // The index in the built dictionary of value 0 of `source`, whose values
  // are copied in at its first use.
  Result<int32_t> BaseOf(const std::shared_ptr<const ArrayData>& source);
  void AppendIndex(int32_t index) {
    indices_.UnsafeAppend(index);
    validity_.UnsafeAppendValid();
  }

  BufferBuilder indices_;
  // While not owning: the one dictionary every element so far refers to
  // (null before the first valid element).
  std::shared_ptr<const ArrayData> shared_;
  // When owning: the values of the dictionary being built, where each source
  // dictionary starts in it (held, so that its address stays unique), and
  // each appended value's index.
  std::unique_ptr<BinaryBuilder> values_;
  std::unordered_map<const ArrayData*, std::pair<std::shared_ptr<const ArrayData>, int32_t>> bases_;
  const ArrayData* last_source_ = nullptr;  // the last BaseOf() lookup, for runs from one source
  int32_t last_base_ = 0;
  struct StringHash {
    using is_transparent = void;  // lookups by string_view, without a copy
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, int32_t, StringHash, std::equal_to<>> memo_;
};

}  // namespace floe
