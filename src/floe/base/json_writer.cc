#include "floe/base/json_writer.h"

#include <charconv>
#include <cmath>

#include "floe/base/check.h"

namespace floe {
namespace {

void AppendEscaped(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  // Runs of characters that need no escape are appended at once: metadata
  // JSON is mostly such runs (paths, names, numbers in summaries).
  size_t plain = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && c != '"' && c != '\\') continue;
    if (i > plain) out.append(s.data() + plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20) {
          // RFC 8259: "All Unicode characters may be placed within the quotation
          // marks, except for ... the control characters (U+0000 through U+001F)."
          out += "\\u00";
          out.push_back(kHex[u >> 4]);
          out.push_back(kHex[u & 0xf]);
        }
    }
  }
  if (s.size() > plain) out.append(s.data() + plain, s.size() - plain);
  out.push_back('"');
}

}  // namespace

std::string JsonQuote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  AppendEscaped(out, s);
  return out;
}

JsonWriter::JsonWriter(bool pretty, int indent) : pretty_(pretty), indent_(indent) {}

void JsonWriter::Newline() {
  if (!pretty_) return;
  out_.push_back('\n');
  out_.append(static_cast<size_t>(indent_) * stack_.size(), ' ');
}

void JsonWriter::BeforeValue() {
  FLOE_CHECK(!done_, "JsonWriter: a second top-level value");
  if (stack_.empty()) return;
  if (stack_.back() == Frame::kObject) {
    FLOE_CHECK(key_pending_, "JsonWriter: a value inside an object needs a Key() first");
    key_pending_ = false;
    return;
  }
  if (has_member_.back()) out_.push_back(',');
  has_member_.back() = true;
  Newline();
}

void JsonWriter::Key(std::string_view key) {
  FLOE_CHECK(!stack_.empty() && stack_.back() == Frame::kObject, "JsonWriter: Key() outside an object");
  FLOE_CHECK(!key_pending_, "JsonWriter: two keys without a value");
  if (has_member_.back()) out_.push_back(',');
  has_member_.back() = true;
  Newline();
  AppendEscaped(out_, key);
  out_ += pretty_ ? ": " : ":";
  key_pending_ = true;
}

void JsonWriter::BeginObject() {
  BeforeValue();
  out_.push_back('{');
  stack_.push_back(Frame::kObject);
  has_member_.push_back(false);
}

void JsonWriter::BeginArray() {
  BeforeValue();
  out_.push_back('[');
  stack_.push_back(Frame::kArray);
  has_member_.push_back(false);
}

void JsonWriter::EndObject() {
  FLOE_CHECK(!stack_.empty() && stack_.back() == Frame::kObject && !key_pending_,
             "JsonWriter: EndObject() without a matching BeginObject() or after a dangling Key()");
  const bool had_members = has_member_.back();
  stack_.pop_back();
  has_member_.pop_back();
  if (had_members) Newline();
  out_.push_back('}');
  if (stack_.empty()) done_ = true;
}

void JsonWriter::EndArray() {
  FLOE_CHECK(!stack_.empty() && stack_.back() == Frame::kArray,
             "JsonWriter: EndArray() without a matching BeginArray()");
  const bool had_members = has_member_.back();
  stack_.pop_back();
  has_member_.pop_back();
  if (had_members) Newline();
  out_.push_back(']');
  if (stack_.empty()) done_ = true;
}

void JsonWriter::String(std::string_view value) {
  BeforeValue();
  AppendEscaped(out_, value);
  if (stack_.empty()) done_ = true;
}

void JsonWriter::Int(int64_t value) {
  BeforeValue();
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out_.append(buf, end);
  if (stack_.empty()) done_ = true;
}

void JsonWriter::Double(double value) {
  FLOE_CHECK(std::isfinite(value), "JsonWriter: JSON cannot represent ", value);
  BeforeValue();
  // std::to_chars without a precision writes the shortest text that parses
  // back to exactly `value`.
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  std::string_view text(buf, static_cast<size_t>(end - buf));
  out_ += text;
  // Keep a double recognisable as one ("1.0", not "1") for readers that type
  // numbers by their text.
  if (text.find_first_of(".eE") == std::string_view::npos) out_ += ".0";
  if (stack_.empty()) done_ = true;
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ += value ? "true" : "false";
  if (stack_.empty()) done_ = true;
}

void JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
  if (stack_.empty()) done_ = true;
}

void JsonWriter::RawValue(std::string_view json) {
  BeforeValue();
  out_ += json;
  if (stack_.empty()) done_ = true;
}

std::string JsonWriter::Take() {
  FLOE_CHECK(done_ && stack_.empty(), "JsonWriter: Take() before the document is complete");
  std::string result = std::move(out_);
  out_.clear();
  done_ = false;
  if (pretty_) result.push_back('\n');
  return result;
}

}  // namespace floe
