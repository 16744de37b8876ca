// Small string helpers used for error messages and output.

#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace floe {

// Concatenates the streamed form of every argument: StrCat("file '", path, "' is ", n, " bytes").
template <typename... Args>
std::string StrCat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

// `s` in single quotes with control characters escaped, for naming a value in
// an error message without letting it break the one-line rule.
std::string Quote(std::string_view s);

// Human-readable byte count: "512 B", "35.0 KiB", "1.4 MiB".
std::string FormatBytes(int64_t bytes);

std::vector<std::string_view> Split(std::string_view s, char sep);
std::string_view Trim(std::string_view s);
bool StartsWith(std::string_view s, std::string_view prefix);
bool EndsWith(std::string_view s, std::string_view suffix);
// ASCII case-insensitive equality (keywords, type and transform names).
bool EqualsIgnoreCase(std::string_view a, std::string_view b);
// ASCII lower case (other bytes unchanged).
std::string ToLowerAscii(std::string_view s);
// The whole of `s` as a base-10 integer (optional leading '-'); false, with
// *out untouched, when it is empty, has other characters or overflows.
bool ParseInt64(std::string_view s, int64_t* out);

}  // namespace floe
