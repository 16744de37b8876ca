// Hexadecimal text for bytes: AES keys on the command line, REST page
// tokens, %-escapes in URLs and connection strings, binary literals.
//
// Thread safety: pure functions, safe from any thread.

#pragma once

#include <string>
#include <string_view>

namespace floe {

// The value 0-15 of one hex digit, either case; -1 when c is not one.
int HexDigitValue(char c);

// Decodes pairs of hex digits (either case) into *bytes, replacing what it
// held. Returns false, with *bytes unspecified, on an odd length or a
// character that is not a hex digit; the empty text decodes to no bytes.
bool DecodeHex(std::string_view hex, std::string* bytes);

// Appends two lowercase hex digits per byte.
void AppendHex(std::string_view bytes, std::string* out);

// The bytes as lowercase hex digits.
std::string Hex(std::string_view bytes);

}  // namespace floe
