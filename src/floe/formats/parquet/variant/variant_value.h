// VariantValue: one decoded Variant (spec: parquet-format VariantEncoding.md)
// as a tree of typed values — what a metadata + value pair means, or what a
// shredded variant rebuilds to (variant_shredding.h). floe reads VARIANT
// columns as their annotated binary; this tree is how it checks them.
//
// Thread safety: a plain value; const use from any thread.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace floe::parquet {

// The spec's Variant types: its primitive types (the two booleans as one,
// the short string folded into string, as the spec's equivalence classes
// allow), object and array.
enum class VariantKind : uint8_t {
  kNull,
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kDouble,
  kDecimal4,
  kDecimal8,
  kDecimal16,
  kDate,                // days since 1970-01-01
  kTimestamp,           // microseconds since the epoch, UTC
  kTimestampNtz,        // microseconds, no zone
  kFloat,
  kBinary,
  kString,              // UTF-8
  kTimeNtz,             // microseconds since midnight
  kTimestampNanos,      // nanoseconds since the epoch, UTC
  kTimestampNtzNanos,   // nanoseconds, no zone
  kUuid,                // 16 bytes, big-endian as stored
  kObject,
  kArray,
};

// The spec's name of a kind: "int8", "decimal16", "timestamp_ntz_nanos", "object".
std::string_view VariantKindName(VariantKind kind);

struct VariantField;

struct VariantValue {
  VariantKind kind = VariantKind::kNull;
  bool boolean = false;
  // int8..int64, date, time and timestamps; a decimal's unscaled value.
  __int128 integer = 0;
  int32_t scale = 0;  // decimals
  double number = 0;  // double; float (widened, exact)
  std::string bytes;  // string, binary, uuid
  // Object fields sorted by name (unsigned bytes), names unique.
  // A vector of a named struct, not of std::pair: pair<string, VariantValue>
  // needs VariantValue complete here, which clang refuses.
  std::vector<VariantField> fields;
  std::vector<VariantValue> elements;  // array

  // Canonical text: two values print the same exactly when they have the
  // same kind and value. Scalars print as kind(value) with the raw number
  // (int8(34), decimal4(12.34), date(20194), uuid(f24f9b64-...)), strings
  // as JSON strings, null/true/false as words, objects as {"name": value, ...}
  // and arrays as [value, ...].
  std::string ToString() const;
};

struct VariantField {
  std::string name;
  VariantValue value;
};

}  // namespace floe::parquet
