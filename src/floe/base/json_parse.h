// Parsing JSON text with simdjson's DOM parser from a string_view.
//
// simdjson copies the input into its padded buffer with memcpy, which must
// not be given a null pointer, even for 0 bytes; an empty string_view may
// carry one (a default-constructed view, an empty request body). ParseJson
// hands simdjson a valid pointer in that case, so empty input is simdjson's
// EMPTY error, not undefined behaviour.
//
// Thread safety: as simdjson's parser: one thread per parser at a time.

#pragma once

#include <simdjson.h>

#include <string_view>

namespace floe {

// Parses `json` with `parser`; the element lives in the parser's document
// until its next parse.
inline simdjson::simdjson_result<simdjson::dom::element> ParseJson(simdjson::dom::parser& parser,
                                                                   std::string_view json) {
  return parser.parse(json.empty() ? "" : json.data(), json.size());
}

}  // namespace floe
