#include "floe/iceberg/literal.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "floe/base/hex.h"
#include "floe/base/strings.h"
#include "floe/columnar/civil_time.h"
#include "floe/columnar/value_format.h"

namespace floe::iceberg {
namespace {

constexpr int64_t kMicrosPerDay = int64_t{86400} * 1000000;

// Which Value alternative a primitive type uses; -1 for nested types.
int AlternativeFor(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
      return 0;
    case TypeId::kInt:
    case TypeId::kDate:
      return 1;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return 2;
    case TypeId::kFloat:
      return 3;
    case TypeId::kDouble:
      return 4;
    case TypeId::kDecimal:
      return 5;
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return 6;
    default:
      return -1;
  }
}

// Floats in the spec's bound order: NaN sorts above +inf, -NaN below -inf,
// -0 below +0. Mapping the IEEE bits to a signed integer gives exactly that.
int64_t TotalOrderKey(double v) {
  const auto bits = std::bit_cast<int64_t>(v);
  return bits < 0 ? bits ^ std::numeric_limits<int64_t>::max() : bits;
}

template <typename T>
int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

Decimal128Value MaxUnscaled(int32_t precision) {
  Decimal128Value max = 1;
  for (int32_t i = 0; i < precision; ++i) max *= 10;
  return max - 1;
}

template <typename T>
void AppendLittleEndian(T value, std::string* out) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  if constexpr (std::endian::native == std::endian::big) std::reverse(bytes, bytes + sizeof(T));
  out->append(bytes, sizeof(T));
}

template <typename T>
T ReadLittleEndian(std::string_view bytes) {
  char buf[sizeof(T)];
  std::memcpy(buf, bytes.data(), sizeof(T));
  if constexpr (std::endian::native == std::endian::big) std::reverse(buf, buf + sizeof(T));
  T value;
  std::memcpy(&value, buf, sizeof(T));
  return value;
}

Status BadText(std::string_view text, const Type& type, std::string_view why = "") {
  std::string message = "cannot read '" + std::string(text) + "' as " + type.ToString();
  if (!why.empty()) message += ": " + std::string(why);
  return Status::InvalidArgument(std::move(message));
}

template <typename T>
bool ParseInteger(std::string_view text, T* out) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

// Fixed-width digits at text[pos, pos+n).
bool Digits(std::string_view text, size_t pos, size_t n, int64_t* out) {
  if (pos + n > text.size()) return false;
  int64_t v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    v = v * 10 + (text[i] - '0');
  }
  *out = v;
  return true;
}

// "YYYY-MM-DD" (a leading '-' for years before 1 AD) → days since epoch.
bool ParseDate(std::string_view text, int64_t* days) {
  bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  int64_t year = 0, month = 0, day = 0;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !Digits(text, 0, 4, &year) ||
      !Digits(text, 5, 2, &month) || !Digits(text, 8, 2, &day)) {
    return false;
  }
  if (negative) year = -year;
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  *days = civil::DaysFromCivil(year, static_cast<int32_t>(month), static_cast<int32_t>(day));
  // Reject 2026-02-30 and the like: the day must survive the round trip.
  return civil::CivilFromDays(*days).day == day;
}

// "HH:MM[:SS[.fraction]]" → units since midnight, `digits` fraction digits
// (6 micros, 9 nanos); longer fractions are refused rather than rounded.
bool ParseTimeOfDay(std::string_view text, int digits, int64_t* out) {
  int64_t hour = 0, minute = 0, second = 0, fraction = 0;
  if (text.size() < 5 || text[2] != ':' || !Digits(text, 0, 2, &hour) || !Digits(text, 3, 2, &minute)) return false;
  size_t pos = 5;
  if (pos < text.size()) {
    if (text[pos] != ':' || !Digits(text, pos + 1, 2, &second)) return false;
    pos += 3;
  }
  if (pos < text.size()) {
    if (text[pos] != '.') return false;
    const size_t n = text.size() - pos - 1;
    if (n == 0 || n > static_cast<size_t>(digits) || !Digits(text, pos + 1, n, &fraction)) return false;
    for (size_t i = n; i < static_cast<size_t>(digits); ++i) fraction *= 10;
  }
  if (hour > 23 || minute > 59 || second > 59) return false;
  int64_t per_second = 1;
  for (int i = 0; i < digits; ++i) per_second *= 10;
  *out = ((hour * 60 + minute) * 60 + second) * per_second + fraction;
  return true;
}

Result<Literal> ParseTimestamp(const TypePtr& type, std::string_view text) {
  const bool nanos = type->id() == TypeId::kTimestampNs || type->id() == TypeId::kTimestampTzNs;
  const bool with_zone = type->id() == TypeId::kTimestampTz || type->id() == TypeId::kTimestampTzNs;
  std::string_view body = text;
  if (with_zone) {
    if (body.ends_with("Z")) {
      body.remove_suffix(1);
    } else if (body.ends_with("+00:00") || body.ends_with("-00:00")) {
      body.remove_suffix(6);
    }
  }
  const size_t split = body.find_first_of("T ", 1);
  int64_t days = 0;
  if (!ParseDate(body.substr(0, split), &days)) return BadText(text, *type);
  int64_t time_of_day = 0;
  if (split != std::string_view::npos && !ParseTimeOfDay(body.substr(split + 1), nanos ? 9 : 6, &time_of_day)) {
    return BadText(text, *type);
  }
  const int64_t per_day = nanos ? kMicrosPerDay * 1000 : kMicrosPerDay;
  if (nanos && (days > std::numeric_limits<int64_t>::max() / per_day - 1 ||
                days < std::numeric_limits<int64_t>::min() / per_day + 1)) {
    return BadText(text, *type, "out of range");
  }
  return Literal::Make(type, days * per_day + time_of_day);
}

Result<Literal> ParseDecimal(const TypePtr& type, std::string_view text) {
  std::string_view digits = text;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  const size_t point = digits.find('.');
  std::string_view whole = digits.substr(0, point);
  std::string_view fraction = point == std::string_view::npos ? std::string_view() : digits.substr(point + 1);
  if ((whole.empty() && fraction.empty()) || fraction.size() > static_cast<size_t>(type->scale())) {
    return BadText(text, *type, fraction.size() > static_cast<size_t>(type->scale()) ? "too many digits after the point" : "");
  }
  Decimal128Value unscaled = 0;
  int digit_count = 0;
  auto take = [&](char c) {
    unscaled = unscaled * 10 + (c - '0');
    if (unscaled != 0) ++digit_count;
  };
  for (char c : whole) {
    if (c < '0' || c > '9' || digit_count > 38) return BadText(text, *type);
    take(c);
  }
  for (char c : fraction) {
    if (c < '0' || c > '9' || digit_count > 38) return BadText(text, *type);
    take(c);
  }
  for (size_t i = fraction.size(); i < static_cast<size_t>(type->scale()); ++i) {
    if (digit_count > 38) return BadText(text, *type);
    take('0');
  }
  if (unscaled > MaxUnscaled(type->precision())) return BadText(text, *type, "too many digits");
  return Literal::Make(type, negative ? -unscaled : unscaled);
}

}  // namespace

Literal Literal::Boolean(bool value) { return Literal(Type::Boolean(), value); }
Literal Literal::Int(int32_t value) { return Literal(Type::Int(), value); }
Literal Literal::Long(int64_t value) { return Literal(Type::Long(), value); }
Literal Literal::Float(float value) { return Literal(Type::Float(), value); }
Literal Literal::Double(double value) { return Literal(Type::Double(), value); }
Literal Literal::Date(int32_t days) { return Literal(Type::Date(), days); }
Literal Literal::Time(int64_t micros) { return Literal(Type::Time(), micros); }
Literal Literal::Timestamp(int64_t micros) { return Literal(Type::Timestamp(), micros); }
Literal Literal::TimestampTz(int64_t micros) { return Literal(Type::TimestampTz(), micros); }
Literal Literal::TimestampNs(int64_t nanos) { return Literal(Type::TimestampNs(), nanos); }
Literal Literal::TimestampTzNs(int64_t nanos) { return Literal(Type::TimestampTzNs(), nanos); }
Literal Literal::String(std::string value) { return Literal(Type::String(), std::move(value)); }
Literal Literal::Binary(std::string bytes) { return Literal(Type::Binary(), std::move(bytes)); }

Result<Literal> Literal::Make(TypePtr type, Value value) {
  if (type == nullptr) return Status::InvalidArgument("literal without a type");
  const int alternative = AlternativeFor(type->id());
  if (alternative < 0) return Status::InvalidArgument("a literal of nested type " + type->ToString());
  if (static_cast<int>(value.index()) != alternative) {
    return Status::InvalidArgument("literal value does not match its type " + type->ToString());
  }
  if (type->id() == TypeId::kFixed && std::get<std::string>(value).size() != static_cast<size_t>(type->length())) {
    return Status::InvalidArgument("a " + type->ToString() + " value of " +
                                   std::to_string(std::get<std::string>(value).size()) + " bytes");
  }
  if (type->id() == TypeId::kUuid && std::get<std::string>(value).size() != 16) {
    return Status::InvalidArgument("a uuid value of " + std::to_string(std::get<std::string>(value).size()) +
                                   " bytes");
  }
  if (type->id() == TypeId::kDecimal) {
    const Decimal128Value unscaled = std::get<Decimal128Value>(value);
    const Decimal128Value max = MaxUnscaled(type->precision());
    if (unscaled > max || unscaled < -max) {
      return Status::InvalidArgument("a value with more than " + std::to_string(type->precision()) +
                                     " digits for " + type->ToString());
    }
  }
  return Literal(std::move(type), std::move(value));
}

int Literal::Compare(const Literal& other) const {
  if (value_.index() != other.value_.index()) {
    return Cmp(static_cast<int>(type_->id()), static_cast<int>(other.type_->id()));
  }
  switch (value_.index()) {
    case 0:
      return Cmp(bool_value(), other.bool_value());
    case 1:
      return Cmp(int_value(), other.int_value());
    case 2:
      return Cmp(long_value(), other.long_value());
    case 3:
      return Cmp(TotalOrderKey(float_value()), TotalOrderKey(other.float_value()));
    case 4:
      return Cmp(TotalOrderKey(double_value()), TotalOrderKey(other.double_value()));
    case 5:
      return Cmp(decimal_value(), other.decimal_value());
    default: {
      // std::string_view compares chars through char_traits<char>, which
      // compares as unsigned char: UTF-8 byte order, as the spec asks.
      const int c = bytes().compare(other.bytes());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
  }
}

std::string Literal::ToBytes() const {
  std::string out;
  switch (value_.index()) {
    case 0:
      out.push_back(bool_value() ? '\x01' : '\x00');
      break;
    case 1:
      AppendLittleEndian(int_value(), &out);
      break;
    case 2:
      AppendLittleEndian(long_value(), &out);
      break;
    case 3:
      AppendLittleEndian(float_value(), &out);
      break;
    case 4:
      AppendLittleEndian(double_value(), &out);
      break;
    case 5: {
      // spec: "Stores the unscaled value as a two's-complement big-endian
      // binary, using the minimum number of bytes for the value".
      const auto bits = static_cast<unsigned __int128>(decimal_value());
      int length = 16;
      while (length > 1) {
        const auto top = static_cast<uint8_t>(bits >> ((length - 1) * 8));
        const auto next = static_cast<uint8_t>(bits >> ((length - 2) * 8));
        const bool redundant = (top == 0x00 && (next & 0x80) == 0) || (top == 0xff && (next & 0x80) != 0);
        if (!redundant) break;
        --length;
      }
      for (int i = length - 1; i >= 0; --i) out.push_back(static_cast<char>(bits >> (i * 8)));
      break;
    }
    default:
      out = std::string(bytes());
  }
  return out;
}

Result<Literal> Literal::FromBytes(const TypePtr& type, std::string_view bytes) {
  if (type == nullptr || AlternativeFor(type->id()) < 0) {
    return Status::InvalidArgument("no single-value form for " + (type ? type->ToString() : std::string("null")));
  }
  auto wrong_length = [&]() {
    return Status::Corrupt("a " + type->ToString() + " value of " + std::to_string(bytes.size()) + " bytes");
  };
  switch (type->id()) {
    case TypeId::kBoolean:
      if (bytes.size() != 1) return wrong_length();
      return Literal(type, bytes[0] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      if (bytes.size() != 4) return wrong_length();
      return Literal(type, ReadLittleEndian<int32_t>(bytes));
    case TypeId::kLong:
      // A bound written while the column was still an int.
      if (bytes.size() == 4) return Literal(type, int64_t{ReadLittleEndian<int32_t>(bytes)});
      [[fallthrough]];
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (bytes.size() != 8) return wrong_length();
      return Literal(type, ReadLittleEndian<int64_t>(bytes));
    case TypeId::kFloat:
      if (bytes.size() != 4) return wrong_length();
      return Literal(type, ReadLittleEndian<float>(bytes));
    case TypeId::kDouble:
      if (bytes.size() == 4) return Literal(type, double{ReadLittleEndian<float>(bytes)});
      if (bytes.size() != 8) return wrong_length();
      return Literal(type, ReadLittleEndian<double>(bytes));
    case TypeId::kDecimal: {
      if (bytes.empty() || bytes.size() > 16) return wrong_length();
      // Sign-extend the big-endian two's complement value.
      unsigned __int128 bits = (static_cast<uint8_t>(bytes[0]) & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
      for (char c : bytes) bits = (bits << 8) | static_cast<uint8_t>(c);
      auto literal = Make(type, static_cast<Decimal128Value>(bits));
      if (!literal.ok()) return Status::Corrupt(literal.status().message());
      return literal;
    }
    case TypeId::kFixed:
    case TypeId::kUuid: {
      auto literal = Make(type, std::string(bytes));
      if (!literal.ok()) return Status::Corrupt(literal.status().message());
      return literal;
    }
    default:
      return Literal(type, std::string(bytes));
  }
}

Result<Literal> Literal::Parse(const TypePtr& type, std::string_view raw) {
  if (type == nullptr) return Status::InvalidArgument("literal without a type");
  const std::string_view text = type->id() == TypeId::kString ? raw : Trim(raw);
  switch (type->id()) {
    case TypeId::kBoolean:
      if (EqualsIgnoreCase(text, "true")) return Boolean(true);
      if (EqualsIgnoreCase(text, "false")) return Boolean(false);
      return BadText(raw, *type);
    case TypeId::kInt: {
      int32_t v = 0;
      if (!ParseInteger(text, &v)) return BadText(raw, *type);
      return Int(v);
    }
    case TypeId::kLong: {
      int64_t v = 0;
      if (!ParseInteger(text, &v)) return BadText(raw, *type);
      return Long(v);
    }
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double v = 0;
      if (EqualsIgnoreCase(text, "nan")) {
        v = std::numeric_limits<double>::quiet_NaN();
      } else if (EqualsIgnoreCase(text, "inf") || EqualsIgnoreCase(text, "infinity")) {
        v = std::numeric_limits<double>::infinity();
      } else if (EqualsIgnoreCase(text, "-inf") || EqualsIgnoreCase(text, "-infinity")) {
        v = -std::numeric_limits<double>::infinity();
      } else {
        std::string_view digits = text;
        if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
        if (ec != std::errc() || end != digits.data() + digits.size()) return BadText(raw, *type);
      }
      if (type->id() == TypeId::kFloat) return Float(static_cast<float>(v));
      return Double(v);
    }
    case TypeId::kDecimal:
      return ParseDecimal(type, text);
    case TypeId::kDate: {
      int64_t days = 0;
      if (!ParseDate(text, &days) || days < std::numeric_limits<int32_t>::min() ||
          days > std::numeric_limits<int32_t>::max()) {
        return BadText(raw, *type);
      }
      return Date(static_cast<int32_t>(days));
    }
    case TypeId::kTime: {
      int64_t micros = 0;
      if (!ParseTimeOfDay(text, 6, &micros)) return BadText(raw, *type);
      return Time(micros);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return ParseTimestamp(type, text);
    case TypeId::kString:
      return String(std::string(text));
    case TypeId::kUuid: {
      std::string hex;
      for (char c : text) {
        if (c != '-') hex.push_back(c);
      }
      std::string bytes;
      if (hex.size() != 32 || text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' ||
          text[23] != '-' || !DecodeHex(hex, &bytes)) {
        return BadText(raw, *type);
      }
      return Make(type, std::move(bytes));
    }
    case TypeId::kFixed:
    case TypeId::kBinary: {
      std::string bytes;
      if (!DecodeHex(text, &bytes)) return BadText(raw, *type, "expected hex digits");
      return Make(type, std::move(bytes));
    }
    default:
      return Status::InvalidArgument("no literal form for " + type->ToString());
  }
}

Result<Literal> Literal::CastTo(const TypePtr& type) const {
  if (type == nullptr) return Status::InvalidArgument("cast to no type");
  if (TypeEquals(type_, type)) return *this;
  const TypeId from = type_->id();
  const TypeId to = type->id();
  auto out_of_range = [&]() {
    return Status::InvalidArgument(ToString() + " is out of range for " + type->ToString());
  };
  auto not_allowed = [&]() {
    return Status::InvalidArgument("cannot use " + type_->ToString() + " value " + ToString() + " as " +
                                   type->ToString());
  };
  if (from == TypeId::kString) return Parse(type, bytes());
  if (from == TypeId::kInt || from == TypeId::kLong) {
    const int64_t v = from == TypeId::kInt ? int_value() : long_value();
    switch (to) {
      case TypeId::kInt:
        if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) return out_of_range();
        return Int(static_cast<int32_t>(v));
      case TypeId::kLong:
        return Long(v);
      case TypeId::kFloat:
        return Float(static_cast<float>(v));
      case TypeId::kDouble:
        return Double(static_cast<double>(v));
      case TypeId::kDecimal: {
        Decimal128Value unscaled = v;
        for (int32_t i = 0; i < type->scale(); ++i) unscaled *= 10;
        auto literal = Make(type, unscaled);
        if (!literal.ok()) return out_of_range();
        return literal;
      }
      default:
        return not_allowed();
    }
  }
  if (from == TypeId::kFloat && to == TypeId::kDouble) return Double(float_value());
  if (from == TypeId::kDouble && to == TypeId::kFloat) return Float(static_cast<float>(double_value()));
  if (from == TypeId::kDecimal && to == TypeId::kDecimal) {
    // Widening only: more precision, the same scale (spec's decimal promotion).
    if (type->scale() != type_->scale()) return not_allowed();
    auto literal = Make(type, decimal_value());
    if (!literal.ok()) return out_of_range();
    return literal;
  }
  if (from == TypeId::kDate) {
    const int64_t days = int_value();
    switch (to) {
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
        return Make(type, days * kMicrosPerDay);
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs:
        return Make(type, days * kMicrosPerDay * 1000);
      default:
        return not_allowed();
    }
  }
  const bool from_micros = from == TypeId::kTimestamp || from == TypeId::kTimestampTz;
  const bool from_nanos = from == TypeId::kTimestampNs || from == TypeId::kTimestampTzNs;
  const bool to_micros = to == TypeId::kTimestamp || to == TypeId::kTimestampTz;
  const bool to_nanos = to == TypeId::kTimestampNs || to == TypeId::kTimestampTzNs;
  if ((from_micros || from_nanos) && (to_micros || to_nanos)) {
    int64_t v = long_value();
    if (from_micros && to_nanos) {
      if (v > std::numeric_limits<int64_t>::max() / 1000 || v < std::numeric_limits<int64_t>::min() / 1000) {
        return out_of_range();
      }
      v *= 1000;
    } else if (from_nanos && to_micros) {
      // Floor, so that a bound stays a bound.
      v = v / 1000 - ((v % 1000 < 0) ? 1 : 0);
    }
    return Make(type, v);
  }
  return not_allowed();
}

std::string Literal::ToString() const {
  std::string out;
  switch (type_->id()) {
    case TypeId::kBoolean:
      return bool_value() ? "true" : "false";
    case TypeId::kInt:
      return std::to_string(int_value());
    case TypeId::kLong:
      return std::to_string(long_value());
    case TypeId::kFloat:
      value_format::AppendFloat(float_value(), &out);
      return out;
    case TypeId::kDouble:
      value_format::AppendFloat(double_value(), &out);
      return out;
    case TypeId::kDecimal:
      value_format::AppendDecimal(decimal_value(), type_->scale(), &out);
      return out;
    case TypeId::kDate:
      value_format::AppendDate(int_value(), &out);
      return out;
    case TypeId::kTime:
      value_format::AppendTime(long_value(), TimeUnit::kMicro, &out);
      return out;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      value_format::AppendTimestamp(long_value(), TimeUnit::kMicro, type_->id() == TypeId::kTimestampTz, &out);
      return out;
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      value_format::AppendTimestamp(long_value(), TimeUnit::kNano, type_->id() == TypeId::kTimestampTzNs, &out);
      return out;
    case TypeId::kString:
      return std::string(bytes());
    case TypeId::kUuid:
      value_format::AppendUuid(bytes(), &out);
      return out;
    default:
      AppendHex(bytes(), &out);
      return out;
  }
}

}  // namespace floe::iceberg
