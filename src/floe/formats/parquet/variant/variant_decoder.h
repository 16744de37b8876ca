// The Variant binary encoding (spec: parquet-format VariantEncoding.md):
// metadata (the dictionary of object field names) and value (a primitive,
// short string, object or array), validated and decoded into a
// VariantValue. Both are untrusted bytes: every size, offset and field id is
// bounds-checked, nesting depth is capped, and the decoded values are at
// most as many as the value's bytes (each takes at least its header byte, so
// fields that share bytes — a way to make a small input decode to an
// exponential tree — are refused).
//
// Thread safety: pure functions; a VariantMetadata is immutable.

#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/parquet/variant/variant_value.h"

namespace floe::parquet {

// Nesting of objects and arrays beyond this is refused (Corrupt).
inline constexpr int kMaxVariantDepth = 128;

class VariantMetadata {
 public:
  // Parses the metadata at the start of `bytes`, which must outlive the
  // result (the keys point into it). With `consumed`, trailing bytes are
  // allowed and *consumed is set to the metadata's length (a metadata
  // followed by a value, as in a serialized variant); without it they are
  // Corrupt. Corrupt for a truncated dictionary, offsets that decrease or
  // overrun, keys that are not UTF-8, or keys that are not sorted and unique
  // while the header says sorted_strings; Unsupported for a version other
  // than 1.
  static Result<VariantMetadata> Parse(std::string_view bytes, size_t* consumed = nullptr);

  size_t size() const { return keys_.size(); }
  // The key with dictionary id `id` (< size()).
  std::string_view key(size_t id) const { return keys_[id]; }
  bool sorted_strings() const { return sorted_strings_; }

 private:
  std::vector<std::string_view> keys_;
  bool sorted_strings_ = false;
};

// Decodes `value`, which must be exactly one encoded value, against
// `metadata`. Corrupt (naming what is wrong) for truncated or trailing
// bytes, offsets outside their object or array, field ids outside the
// dictionary, object fields not in the spec's order or duplicated, strings
// that are not UTF-8, a decimal scale above 38 or an unscaled value wider
// than its decimal type allows, nesting beyond kMaxVariantDepth, or shared
// bytes; Unsupported for a primitive type id the spec does not define.
Result<VariantValue> DecodeVariant(const VariantMetadata& metadata, std::string_view value);

// A serialized variant: its metadata immediately followed by its value (the
// form of parquet-testing's *.variant.bin files). Errors as above.
Result<VariantValue> DecodeSerializedVariant(std::string_view metadata_then_value);

}  // namespace floe::parquet
