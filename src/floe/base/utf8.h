// UTF-8 helpers for truncating string bounds: Parquet statistics cut at a
// byte length on a code point boundary, Iceberg metrics at a count of code
// points; both then need "the smallest string above this prefix".
//
// Thread safety: pure functions.

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace floe {

// Appends the UTF-8 encoding of code point `cp` (<= 0x10FFFF).
void AppendUtf8(uint32_t cp, std::string* out);

// The byte length of the longest prefix of `s` of at most `max_bytes` bytes
// that ends on a code point boundary.
size_t Utf8PrefixWithinBytes(std::string_view s, size_t max_bytes);

// The byte length of the first `code_points` code points of `s` (all of it
// when shorter). Bytes that are not UTF-8 count as one code point each.
size_t Utf8PrefixOfCodePoints(std::string_view s, size_t code_points);

// `prefix` with its last code point incremented, dropping trailing code
// points that cannot be (U+10FFFF) and skipping the surrogate range;
// nullopt when none can be, or the bytes are not UTF-8.
std::optional<std::string> IncrementUtf8(std::string_view prefix);

// `prefix` with its last byte below 0xFF incremented and the 0xFF bytes after
// it dropped; nullopt when every byte is 0xFF (or it is empty).
std::optional<std::string> IncrementBytes(std::string_view prefix);

}  // namespace floe
