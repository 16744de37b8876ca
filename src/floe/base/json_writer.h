// JsonWriter: a small streaming JSON (RFC 8259) writer into a string.
//
// Calls mirror the document: BeginObject() / Key() / value ... / EndObject().
// Strings are escaped per RFC 8259 section 7 (quote, backslash and control
// characters; bytes >= 0x80 are copied through, so UTF-8 stays UTF-8).
// Doubles are written in the shortest form that reads back to the same
// double. Misuse (a value where a key is due, unbalanced End*, a non-finite
// double, Take() before the document is complete) is a programming error and
// aborts through FLOE_CHECK.
//
// Thread safety: one writer belongs to one thread.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace floe {

class JsonWriter {
 public:
  // `pretty`: newline and `indent` spaces per level; otherwise no whitespace.
  explicit JsonWriter(bool pretty = false, int indent = 2);

  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // The next member's name; only directly inside an object.
  void Key(std::string_view key);

  void String(std::string_view value);
  void Int(int64_t value);
  // Aborts for NaN and infinities, which JSON cannot represent.
  void Double(double value);
  void Bool(bool value);
  void Null();
  // Inserts `json` verbatim as one value. The caller guarantees it is one
  // complete, valid JSON value (e.g. text produced by a JSON parser).
  void RawValue(std::string_view json);

  // Key(key) followed by the value.
  void Member(std::string_view key, std::string_view value) { Key(key), String(value); }
  void Member(std::string_view key, const char* value) { Key(key), String(value); }
  void Member(std::string_view key, int64_t value) { Key(key), Int(value); }
  void Member(std::string_view key, int32_t value) { Key(key), Int(value); }
  void Member(std::string_view key, bool value) { Key(key), Bool(value); }

  // The finished document; the writer is empty afterwards. Aborts unless
  // exactly one complete top-level value was written.
  std::string Take();

 private:
  enum class Frame : uint8_t { kObject, kArray };
  void BeforeValue();
  void Newline();

  bool pretty_;
  int indent_;
  std::string out_;
  std::vector<Frame> stack_;
  // Whether the innermost container has a member yet (for commas).
  std::vector<bool> has_member_;
  bool key_pending_ = false;
  bool done_ = false;
};

// `s` as a JSON string literal, quotes included.
std::string JsonQuote(std::string_view s);

}  // namespace floe
