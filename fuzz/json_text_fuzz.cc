// Fuzzes value_format::IsJsonText, the check behind JSON-text fields
// (columnar/data_type.h): any Arrow producer may mark a string field
// arrow.json, so its values are untrusted bytes the printer decides to embed
// as JSON or not. Properties checked:
//  - IsJsonText agrees with simdjson, an independent parser: a text
//    simdjson accepts is JSON text, and a text IsJsonText accepts may meet
//    only simdjson's refusals of what RFC 8259 allows (integers past 64 bits,
//    doubles past their range, nesting past its depth limit, escaped lone
//    surrogates);
//  - what AppendJsonText writes is JSON on one line, whatever the input, and
//    writing it again changes nothing.
// Any input is fine; a crash, a disagreement, UB or a leak is not.

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "floe/columnar/value_format.h"

namespace {

// Whether `text` holds a \u escape of a UTF-16 surrogate (\uD800-\uDFFF),
// which simdjson refuses when unpaired and RFC 8259's grammar allows.
bool HasSurrogateEscape(std::string_view text) {
  for (size_t i = 0; i + 3 < text.size(); ++i) {
    if (text[i] == '\\' && text[i + 1] == 'u' && (text[i + 2] == 'd' || text[i + 2] == 'D')) {
      const char c = text[i + 3];
      if ((c >= '8' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) return true;
    }
  }
  return false;
}

// The index of the quote that ends the string opening at text[open] (or the
// text's size when none does), skipping escaped characters.
size_t StringEnd(std::string_view text, size_t open) {
  size_t i = open + 1;
  for (; i < text.size() && text[i] != '"'; ++i) {
    if (text[i] == '\\') ++i;
  }
  return i;
}

// The deepest nesting of '[' and '{' outside strings.
int MaxDepth(std::string_view text) {
  int depth = 0;
  int deepest = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      i = StringEnd(text, i);
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// Whether `token` is a number by RFC 8259's grammar, judged by a state
// machine of its own rather than by the code under test:
// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
bool IsNumberToken(std::string_view token) {
  enum State { kStart, kMinus, kZero, kInt, kDot, kFrac, kE, kESign, kExp };
  State state = kStart;
  for (const char c : token) {
    const bool digit = c >= '0' && c <= '9';
    switch (state) {
      case kStart:
        state = c == '-' ? kMinus : c == '0' ? kZero : digit ? kInt : kStart;
        if (state == kStart) return false;
        break;
      case kMinus:
        if (!digit) return false;
        state = c == '0' ? kZero : kInt;
        break;
      case kZero:
      case kInt:
        if (digit && state == kInt) break;
        if (c == '.') {
          state = kDot;
        } else if (c == 'e' || c == 'E') {
          state = kE;
        } else {
          return false;
        }
        break;
      case kDot:
      case kFrac:
        if (digit) {
          state = kFrac;
        } else if (state == kFrac && (c == 'e' || c == 'E')) {
          state = kE;
        } else {
          return false;
        }
        break;
      case kE:
        if (c == '+' || c == '-') {
          state = kESign;
          break;
        }
        [[fallthrough]];
      case kESign:
      case kExp:
        if (!digit) return false;
        state = kExp;
        break;
    }
  }
  return state == kZero || state == kInt || state == kFrac || state == kExp;
}

// Whether every number outside strings (a run of number characters starting
// at '-' or a digit) is one by the grammar.
bool NumbersFollowTheGrammar(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      i = StringEnd(text, i);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t end = i;
      while (end < text.size() && std::string_view("0123456789+-.eE").find(text[end]) != std::string_view::npos) ++end;
      if (!IsNumberToken(text.substr(i, end - i))) return false;
      i = end - 1;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool valid = floe::value_format::IsJsonText(text);

  simdjson::dom::parser parser;
  simdjson::dom::element ignored;
  const simdjson::error_code parsed = parser.parse(simdjson::padded_string(text)).get(ignored);
  if (parsed == simdjson::SUCCESS && !valid) std::abort();
  if (parsed != simdjson::SUCCESS && valid) {
    // simdjson's NUMBER_ERROR also stands for a malformed number, so the
    // numbers are checked against the grammar on their own.
    const bool simdjson_stricter =
        (parsed == simdjson::NUMBER_ERROR && NumbersFollowTheGrammar(text)) ||
        (parsed == simdjson::DEPTH_ERROR && MaxDepth(text) > static_cast<int>(simdjson::DEFAULT_MAX_DEPTH)) ||
        (parsed == simdjson::STRING_ERROR && HasSurrogateEscape(text));
    if (!simdjson_stricter) std::abort();
  }

  std::string out;
  floe::value_format::AppendJsonText(text, &out);
  if (!floe::value_format::IsJsonText(out)) std::abort();
  if (out.find('\n') != std::string::npos || out.find('\r') != std::string::npos) std::abort();
  if (valid) {
    std::string again;
    floe::value_format::AppendJsonText(out, &again);
    if (again != out) std::abort();
  }
  return 0;
}
