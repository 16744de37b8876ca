// Base64 (RFC 4648): the URL-safe form without padding that floe's tokens
// use, the standard form parquet-mr's key material uses, and a decoder for both alphabets, with or without padding
// (HTTP Basic credentials and parquet-mr's key material use the standard one).
//
// Thread safety: pure functions, safe from any thread.

#pragma once

#include <string>
#include <string_view>

#include "floe/base/result.h"

namespace floe {

// Base64url without padding (RFC 4648 section 5).
std::string Base64UrlEncode(std::string_view bytes);

// Standard base64 with padding (RFC 4648 section 4), as Java's
// Base64.getEncoder() writes it.
std::string Base64Encode(std::string_view bytes);

// Decodes either alphabet ('-' and '+' are 62, '_' and '/' are 63); stops at
// the first '='. InvalidArgument for any other character.
Result<std::string> Base64Decode(std::string_view text);

}  // namespace floe
