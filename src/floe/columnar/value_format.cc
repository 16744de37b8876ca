#include "floe/columnar/value_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "floe/base/hex.h"
#include "floe/columnar/civil_time.h"
#include "floe/columnar/layout.h"

namespace floe::value_format {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// `value` in decimal, at least `min_digits` digits (zero-padded).
void AppendUnsigned(unsigned __int128 value, int min_digits, std::string* out) {
  char digits[40];  // 2^128 has 39 decimal digits
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + static_cast<int>(value % 10));
    value /= 10;
  } while (value != 0);
  for (int i = n; i < min_digits; ++i) out->push_back('0');
  while (n > 0) out->push_back(digits[--n]);
}

template <typename T>
void AppendInteger(T value, std::string* out) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out->append(buffer, end);
}

template <typename T>
void AppendFloatImpl(T value, std::string* out) {
  if (std::isnan(value)) {
    out->append("NaN");
  } else if (std::isinf(value)) {
    out->append(value > 0 ? "Infinity" : "-Infinity");
  } else {
    char buffer[48];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out->append(buffer, end);
  }
}

// JSON has no NaN or infinities: they become strings there.
template <typename T>
void AppendFloatValue(T value, bool json, std::string* out) {
  const bool quote = json && !std::isfinite(value);
  if (quote) out->push_back('"');
  AppendFloatImpl(value, out);
  if (quote) out->push_back('"');
}

template <typename T>
T Load(const ArrayData& data, int64_t i) {
  T value;
  std::memcpy(&value, data.buffers[1].data() + (data.offset + i) * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return value;
}

std::string_view BinaryAt(const ArrayData& data, int64_t i) {
  const auto* offsets = reinterpret_cast<const int32_t*>(data.buffers[1].data()) + data.offset + i;
  return {reinterpret_cast<const char*>(data.buffers[2].data()) + offsets[0],
          static_cast<size_t>(offsets[1] - offsets[0])};
}

std::string_view FixedAt(const ArrayData& data, int64_t i) {
  const int64_t width = data.type->byte_width();
  return {reinterpret_cast<const char*>(data.buffers[1].data()) + (data.offset + i) * width,
          static_cast<size_t>(width)};
}

// Appends the time of day `value` (>= 0, in units of `per_second`) as HH:MM:SS.f...
void AppendClock(uint64_t value, uint64_t per_second, int fraction_digits, std::string* out) {
  const uint64_t seconds = value / per_second;
  AppendUnsigned(seconds / 3600, 2, out);
  out->push_back(':');
  AppendUnsigned(seconds / 60 % 60, 2, out);
  out->push_back(':');
  AppendUnsigned(seconds % 60, 2, out);
  out->push_back('.');
  AppendUnsigned(value % per_second, fraction_digits, out);
}

uint64_t PerSecond(TimeUnit unit) { return unit == TimeUnit::kMicro ? 1'000'000 : 1'000'000'000; }
int FractionDigits(TimeUnit unit) { return unit == TimeUnit::kMicro ? 6 : 9; }

// Scalars (every non-nested type); `json` quotes what JSON needs quoted.
void AppendScalar(const ArrayData& data, int64_t i, bool json, std::string* out) {
  const DataType& type = *data.type;
  auto quoted = [&](auto append) {
    if (json) out->push_back('"');
    append();
    if (json) out->push_back('"');
  };
  switch (type.id()) {
    case TypeId::kNull:  // never valid; callers render nulls themselves
      out->append("null");
      return;
    case TypeId::kBool:
      out->append(bit_util::GetBit(data.buffers[1].data(), data.offset + i) ? "true" : "false");
      return;
    case TypeId::kInt8:
      return AppendInteger(Load<int8_t>(data, i), out);
    case TypeId::kInt16:
      return AppendInteger(Load<int16_t>(data, i), out);
    case TypeId::kInt32:
      return AppendInteger(Load<int32_t>(data, i), out);
    case TypeId::kInt64:
      return AppendInteger(Load<int64_t>(data, i), out);
    case TypeId::kUInt8:
      return AppendInteger(Load<uint8_t>(data, i), out);
    case TypeId::kUInt16:
      return AppendInteger(Load<uint16_t>(data, i), out);
    case TypeId::kUInt32:
      return AppendInteger(Load<uint32_t>(data, i), out);
    case TypeId::kUInt64:
      return AppendInteger(Load<uint64_t>(data, i), out);
    case TypeId::kFloat32:
      return AppendFloatValue(Load<float>(data, i), json, out);
    case TypeId::kFloat64:
      return AppendFloatValue(Load<double>(data, i), json, out);
    case TypeId::kDecimal128:
      return AppendDecimal(Load<Decimal128Value>(data, i), type.scale(), out);
    case TypeId::kDate32:
      return quoted([&] { AppendDate(Load<int32_t>(data, i), out); });
    case TypeId::kTime64:
      return quoted([&] { AppendTime(Load<int64_t>(data, i), type.unit(), out); });
    case TypeId::kTimestamp:
      return quoted([&] { AppendTimestamp(Load<int64_t>(data, i), type.unit(), !type.timezone().empty(), out); });
    case TypeId::kInterval:
      return quoted([&] { AppendInterval(Load<MonthDayNano>(data, i), out); });
    case TypeId::kString:
      if (json) return AppendJsonString(BinaryAt(data, i), out);
      out->append(BinaryAt(data, i));
      return;
    case TypeId::kBinary:
      return quoted([&] { AppendHex(BinaryAt(data, i), out); });
    case TypeId::kFixedSizeBinary:
      return quoted([&] { AppendHex(FixedAt(data, i), out); });
    case TypeId::kUuid:
      return quoted([&] { AppendUuid(FixedAt(data, i), out); });
    case TypeId::kDictionary:  // printed as the value it refers to
      return AppendScalar(*data.dictionary, layout::DictionaryIndexAt(data, i), json, out);
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kStruct:
      return;  // handled by AppendJson
  }
}

// Element `i` of `data`, the values of `field` (a struct field, list item
// or map value) inside a nested value.
void AppendJsonElement(const Field& field, const ArrayData& data, int64_t i, std::string* out) {
  if (layout::IsNullAt(data, i)) {
    out->append("null");
  } else if (IsJsonTextField(field) && data.type->id() == TypeId::kString) {
    AppendJsonText(BinaryAt(data, i), out);
  } else {
    AppendJson(data, i, out);
  }
}

void SkipJsonSpace(const char*& p, const char* end) {
  while (p != end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
}

// A JSON string at *p (its opening quote); moves p past its closing quote.
bool SkipJsonString(const char*& p, const char* end) {
  ++p;
  while (p != end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"') {
      ++p;
      return true;
    }
    if (c == '\\') {
      if (++p == end) return false;
      if (*p == 'u') {
        if (end - p < 5 || HexDigitValue(p[1]) < 0 || HexDigitValue(p[2]) < 0 || HexDigitValue(p[3]) < 0 ||
            HexDigitValue(p[4]) < 0) {
          return false;
        }
        p += 5;
      } else if (std::string_view("\"\\/bfnrt").find(*p) != std::string_view::npos) {
        ++p;
      } else {
        return false;
      }
    } else if (c < 0x20) {
      return false;
    } else if (c < 0x80) {
      ++p;
    } else {
      const int length = Utf8SequenceLength(std::string_view(p, static_cast<size_t>(end - p)));
      if (length == 0) return false;
      p += length;
    }
  }
  return false;
}

bool SkipDigits(const char*& p, const char* end) {
  const char* start = p;
  while (p != end && *p >= '0' && *p <= '9') ++p;
  return p != start;
}

// A number: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?
bool SkipJsonNumber(const char*& p, const char* end) {
  if (p != end && *p == '-') ++p;
  if (p != end && *p == '0') {
    ++p;
  } else if (!SkipDigits(p, end)) {
    return false;
  }
  if (p != end && *p == '.' && !SkipDigits(++p, end)) return false;
  if (p != end && (*p == 'e' || *p == 'E')) {
    if (++p != end && (*p == '+' || *p == '-')) ++p;
    if (!SkipDigits(p, end)) return false;
  }
  return true;
}

bool SkipJsonWord(const char*& p, const char* end, std::string_view word) {
  if (static_cast<size_t>(end - p) < word.size() || std::string_view(p, word.size()) != word) return false;
  p += word.size();
  return true;
}

// An object member's key and colon, at *p after '{' or ','.
bool SkipJsonKey(const char*& p, const char* end) {
  SkipJsonSpace(p, end);
  if (p == end || *p != '"' || !SkipJsonString(p, end)) return false;
  SkipJsonSpace(p, end);
  if (p == end || *p != ':') return false;
  ++p;
  return true;
}

}  // namespace

void AppendDecimal(Decimal128Value value, int32_t scale, std::string* out) {
  const bool negative = value < 0;
  // Two's complement negation in unsigned arithmetic is defined for the minimum too.
  const unsigned __int128 magnitude =
      negative ? ~static_cast<unsigned __int128>(value) + 1 : static_cast<unsigned __int128>(value);
  std::string digits;
  AppendUnsigned(magnitude, scale + 1, &digits);
  if (negative) out->push_back('-');
  const size_t point = digits.size() - static_cast<size_t>(scale);
  out->append(digits, 0, point);
  if (scale > 0) {
    out->push_back('.');
    out->append(digits, point, std::string::npos);
  }
}

void AppendDate(int64_t days, std::string* out) {
  const civil::Date date = civil::CivilFromDays(days);
  if (date.year < 0) out->push_back('-');
  const uint64_t year = date.year < 0 ? 0 - static_cast<uint64_t>(date.year) : static_cast<uint64_t>(date.year);
  AppendUnsigned(year, 4, out);
  out->push_back('-');
  AppendUnsigned(static_cast<uint64_t>(date.month), 2, out);
  out->push_back('-');
  AppendUnsigned(static_cast<uint64_t>(date.day), 2, out);
}

void AppendTime(int64_t value, TimeUnit unit, std::string* out) {
  // A valid time64 lies in [0, 24h); others are still shown, never hidden.
  if (value < 0) out->push_back('-');
  const uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  AppendClock(magnitude, PerSecond(unit), FractionDigits(unit), out);
}

void AppendInterval(const MonthDayNano& value, std::string* out) {
  const size_t start = out->size();
  const auto part = [&](int64_t n, const char* unit) {
    if (n == 0) return;
    if (out->size() > start) out->push_back(' ');
    AppendInteger(n, out);
    out->push_back(' ');
    out->append(unit);
    if (n != 1 && n != -1) out->push_back('s');
  };
  part(value.months / 12, "year");
  part(value.months % 12, "month");
  part(value.days, "day");
  if (value.nanoseconds == 0 && out->size() > start) return;
  if (out->size() > start) out->push_back(' ');
  if (value.nanoseconds < 0) out->push_back('-');
  const uint64_t magnitude = value.nanoseconds < 0 ? 0 - static_cast<uint64_t>(value.nanoseconds)
                                                   : static_cast<uint64_t>(value.nanoseconds);
  constexpr uint64_t kPerSecond = 1'000'000'000;
  const uint64_t seconds = magnitude / kPerSecond;
  AppendUnsigned(seconds / 3600, 2, out);  // hours are not folded into days: a day is not 24 hours
  out->push_back(':');
  AppendUnsigned(seconds / 60 % 60, 2, out);
  out->push_back(':');
  AppendUnsigned(seconds % 60, 2, out);
  if (const uint64_t fraction = magnitude % kPerSecond; fraction != 0) {
    std::string digits;
    AppendUnsigned(fraction, 9, &digits);
    digits.erase(digits.find_last_not_of('0') + 1);
    out->push_back('.');
    out->append(digits);
  }
}

void AppendTimestamp(int64_t value, TimeUnit unit, bool with_zone, std::string* out) {
  const auto per_day = static_cast<int64_t>(PerSecond(unit)) * 86'400;
  int64_t time_of_day = value % per_day;
  int64_t days = value / per_day;
  if (time_of_day < 0) {  // floor, so instants before 1970 count back from midnight
    time_of_day += per_day;
    days -= 1;
  }
  AppendDate(days, out);
  out->push_back('T');
  AppendClock(static_cast<uint64_t>(time_of_day), PerSecond(unit), FractionDigits(unit), out);
  // The value is a UTC instant whatever the zone's name; say so.
  if (with_zone) out->append("+00:00");
}

void AppendUuid(std::string_view bytes, std::string* out) {
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out->push_back('-');
    AppendHex(bytes.substr(i, 1), out);
  }
}

void AppendFloat(double value, std::string* out) { AppendFloatImpl(value, out); }
void AppendFloat(float value, std::string* out) { AppendFloatImpl(value, out); }

int Utf8SequenceLength(std::string_view s) {
  if (s.empty()) return 0;
  const auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 < 0x80) return 1;
  // RFC 3629 section 4: the well-formed sequences, which exclude overlong
  // forms, surrogates (ED A0..BF) and code points past U+10FFFF.
  int length;
  unsigned char low = 0x80;
  unsigned char high = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    length = 2;
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    length = 3;
    if (b0 == 0xe0) low = 0xa0;
    if (b0 == 0xed) high = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    length = 4;
    if (b0 == 0xf0) low = 0x90;
    if (b0 == 0xf4) high = 0x8f;
  } else {
    return 0;
  }
  if (s.size() < static_cast<size_t>(length)) return 0;
  const auto b1 = static_cast<unsigned char>(s[1]);
  if (b1 < low || b1 > high) return 0;
  for (int k = 2; k < length; ++k) {
    const auto b = static_cast<unsigned char>(s[static_cast<size_t>(k)]);
    if (b < 0x80 || b > 0xbf) return 0;
  }
  return length;
}

void AppendJsonString(std::string_view bytes, std::string* out) {
  out->push_back('"');
  size_t i = 0;
  while (i < bytes.size()) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x80) {
      const int length = Utf8SequenceLength(bytes.substr(i));
      if (length == 0) {
        out->append("\xef\xbf\xbd");  // U+FFFD REPLACEMENT CHARACTER
        i += 1;
      } else {
        out->append(bytes.substr(i, static_cast<size_t>(length)));
        i += static_cast<size_t>(length);
      }
      continue;
    }
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20) {
          out->append("\\u00");
          out->push_back(kHexDigits[c >> 4]);
          out->push_back(kHexDigits[c & 15]);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

bool IsJsonText(std::string_view text) {
  const char* p = text.data();
  const char* end = p + text.size();
  std::vector<char> open;  // the '{' and '[' the value at p is inside, innermost last
  while (true) {
    // A value.
    SkipJsonSpace(p, end);
    if (p == end) return false;
    bool scalar = true;
    switch (*p) {
      case '{':
      case '[': {
        const char opener = *p++;
        SkipJsonSpace(p, end);
        if (p != end && *p == (opener == '{' ? '}' : ']')) {
          ++p;  // empty
          break;
        }
        if (opener == '{' && !SkipJsonKey(p, end)) return false;
        open.push_back(opener);
        scalar = false;
        break;
      }
      case '"':
        if (!SkipJsonString(p, end)) return false;
        break;
      case 't':
        if (!SkipJsonWord(p, end, "true")) return false;
        break;
      case 'f':
        if (!SkipJsonWord(p, end, "false")) return false;
        break;
      case 'n':
        if (!SkipJsonWord(p, end, "null")) return false;
        break;
      default:
        if (!SkipJsonNumber(p, end)) return false;
    }
    if (!scalar) continue;  // the first element or member's value follows
    // After a value: a separator, or the ends of the containers it closes.
    while (true) {
      SkipJsonSpace(p, end);
      if (open.empty()) return p == end;
      if (p == end) return false;
      if (*p == ',') {
        ++p;
        if (open.back() == '{' && !SkipJsonKey(p, end)) return false;
        break;
      }
      if (*p != (open.back() == '{' ? '}' : ']')) return false;
      ++p;
      open.pop_back();
    }
  }
}

void AppendJsonText(std::string_view text, std::string* out) {
  if (!IsJsonText(text)) {
    AppendJsonString(text, out);
    return;
  }
  // Without the whitespace between tokens: a pretty-printed value must not
  // break JSON Lines' one record per line (a valid string holds no raw
  // newline).
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      out->push_back(c);
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      out->push_back(c);
      in_string = c == '"';
    }
  }
}

void AppendJson(const ArrayData& data, int64_t i, std::string* out) {
  const DataType& type = *data.type;
  switch (type.id()) {
    case TypeId::kList:
    case TypeId::kMap: {
      const auto* offsets = reinterpret_cast<const int32_t*>(data.buffers[1].data()) + data.offset + i;
      const ArrayData& entries = *data.children[0];
      if (type.id() == TypeId::kList) {
        out->push_back('[');
        for (int64_t j = offsets[0]; j < offsets[1]; ++j) {
          if (j > offsets[0]) out->push_back(',');
          AppendJsonElement(type.item_field(), entries, j, out);
        }
        out->push_back(']');
        return;
      }
      // Entry j's key and value are element (entries.offset + j) of the entries' children.
      const ArrayData& keys = *entries.children[0];
      const ArrayData& values = *entries.children[1];
      const DataType& key_type = *type.key_field().type;
      const bool object = key_type.id() == TypeId::kString ||
                          (key_type.id() == TypeId::kDictionary && key_type.value_type()->id() == TypeId::kString);
      out->push_back(object ? '{' : '[');
      for (int64_t j = offsets[0]; j < offsets[1]; ++j) {
        if (j > offsets[0]) out->push_back(',');
        const int64_t k = entries.offset + j;
        if (object) {
          // An object's key is a JSON string even when it holds JSON text.
          AppendJson(keys, k, out);
          out->push_back(':');
        } else {
          out->append("{\"key\":");
          AppendJsonElement(type.key_field(), keys, k, out);
          out->append(",\"value\":");
        }
        AppendJsonElement(type.value_field(), values, k, out);
        if (!object) out->push_back('}');
      }
      out->push_back(object ? '}' : ']');
      return;
    }
    case TypeId::kStruct:
      out->push_back('{');
      for (size_t f = 0; f < data.children.size(); ++f) {
        if (f > 0) out->push_back(',');
        AppendJsonString(type.fields()[f].name, out);
        out->push_back(':');
        AppendJsonElement(type.fields()[f], *data.children[f], data.offset + i, out);
      }
      out->push_back('}');
      return;
    default:
      AppendScalar(data, i, /*json=*/true, out);
  }
}

void AppendText(const ArrayData& data, int64_t i, std::string* out) {
  if (data.type->is_nested()) {
    AppendJson(data, i, out);
  } else {
    AppendScalar(data, i, /*json=*/false, out);
  }
}

}  // namespace floe::value_format
