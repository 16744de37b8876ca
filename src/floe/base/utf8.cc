#include "floe/base/utf8.h"

#include <algorithm>

namespace floe {
namespace {

bool IsContinuation(uint8_t byte) { return (byte & 0xC0) == 0x80; }

// Decodes `s`, which must be exactly one code point; false otherwise.
bool DecodeOne(std::string_view s, uint32_t* cp) {
  const auto b0 = static_cast<uint8_t>(s[0]);
  size_t n;
  uint32_t v;
  if (b0 < 0x80) {
    n = 1, v = b0;
  } else if ((b0 & 0xE0) == 0xC0) {
    n = 2, v = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3, v = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4, v = b0 & 0x07;
  } else {
    return false;
  }
  if (s.size() != n) return false;
  for (size_t i = 1; i < n; ++i) {
    const auto b = static_cast<uint8_t>(s[i]);
    if (!IsContinuation(b)) return false;
    v = (v << 6) | (b & 0x3F);
  }
  *cp = v;
  return true;
}

}  // namespace

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

size_t Utf8PrefixWithinBytes(std::string_view s, size_t max_bytes) {
  size_t cut = std::min(s.size(), max_bytes);
  while (cut > 0 && cut < s.size() && IsContinuation(static_cast<uint8_t>(s[cut]))) --cut;
  return cut;
}

size_t Utf8PrefixOfCodePoints(std::string_view s, size_t code_points) {
  size_t pos = 0;
  for (size_t seen = 0; pos < s.size() && seen < code_points; ++seen) {
    ++pos;
    while (pos < s.size() && IsContinuation(static_cast<uint8_t>(s[pos]))) ++pos;
  }
  return pos;
}

std::optional<std::string> IncrementUtf8(std::string_view prefix) {
  size_t end = prefix.size();
  while (end > 0) {
    size_t start = end - 1;
    while (start > 0 && IsContinuation(static_cast<uint8_t>(prefix[start]))) --start;
    uint32_t cp;
    if (!DecodeOne(prefix.substr(start, end - start), &cp)) return std::nullopt;
    if (cp < 0x10FFFF) {
      uint32_t next = cp + 1;
      if (next == 0xD800) next = 0xE000;  // surrogates are not code points of UTF-8
      std::string out(prefix.substr(0, start));
      AppendUtf8(next, &out);
      return out;
    }
    end = start;
  }
  return std::nullopt;
}

std::optional<std::string> IncrementBytes(std::string_view prefix) {
  size_t end = prefix.size();
  while (end > 0 && static_cast<uint8_t>(prefix[end - 1]) == 0xFF) --end;
  if (end == 0) return std::nullopt;
  std::string out(prefix.substr(0, end));
  out.back() = static_cast<char>(static_cast<uint8_t>(out.back()) + 1);
  return out;
}

}  // namespace floe
