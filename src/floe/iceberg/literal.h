// Literal: one typed, non-null Iceberg value — a partition value, a column
// bound, a default or an expression's constant. Null is the absence of a
// Literal (std::optional<Literal>).
//
// Representation per type (spec: "Primitive Types"):
//   boolean → bool; int, date (days since 1970-01-01) → int32_t;
//   long, time (µs of day), timestamp[tz] (µs), timestamp[tz]_ns (ns) → int64_t;
//   float, double; decimal(P,S) → the unscaled __int128;
//   string (UTF-8), binary, fixed[L] and uuid (16 bytes, big-endian) → the
//   bytes in a std::string.
//
// The binary form is the spec's "Binary single-value serialization"
// (Appendix D), used by manifest bounds; Compare is the order of the spec's
// bounds: signed for numbers, unsigned byte order for strings, binary and
// uuid, and for floats the total order -NaN < -inf < ... < -0 < 0 < ... <
// inf < NaN.
//
// Thread safety: a plain value.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "floe/base/result.h"
#include "floe/columnar/data_type.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg {

class Literal {
 public:
  using Value = std::variant<bool, int32_t, int64_t, float, double, Decimal128Value, std::string>;

  static Literal Boolean(bool value);
  static Literal Int(int32_t value);
  static Literal Long(int64_t value);
  static Literal Float(float value);
  static Literal Double(double value);
  static Literal Date(int32_t days);
  static Literal Time(int64_t micros);
  static Literal Timestamp(int64_t micros);
  static Literal TimestampTz(int64_t micros);
  static Literal TimestampNs(int64_t nanos);
  static Literal TimestampTzNs(int64_t nanos);
  static Literal String(std::string value);
  static Literal Binary(std::string bytes);

  // InvalidArgument when the alternative held by `value` is not the one
  // `type` uses (see above), the type is not primitive, a fixed value has
  // the wrong length, a uuid is not 16 bytes, or a decimal's unscaled value
  // has more digits than the precision.
  static Result<Literal> Make(TypePtr type, Value value);

  const TypePtr& type() const { return type_; }
  const Value& value() const { return value_; }

  bool bool_value() const { return std::get<bool>(value_); }
  int32_t int_value() const { return std::get<int32_t>(value_); }     // int, date
  int64_t long_value() const { return std::get<int64_t>(value_); }    // long, time, timestamps
  float float_value() const { return std::get<float>(value_); }
  double double_value() const { return std::get<double>(value_); }
  Decimal128Value decimal_value() const { return std::get<Decimal128Value>(value_); }
  std::string_view bytes() const { return std::get<std::string>(value_); }  // string, binary, fixed, uuid

  // Three-way comparison with a literal of the same type (decimals of the
  // same scale): < 0, 0, > 0. Comparing other types is a caller bug; it
  // compares the type ids.
  int Compare(const Literal& other) const;
  bool operator==(const Literal& other) const { return TypeEquals(type_, other.type_) && Compare(other) == 0; }

  // Appendix D binary form: little-endian numbers (int for date, long for
  // time and timestamps), float/double IEEE little-endian, decimal as the
  // minimal big-endian two's complement unscaled value, strings as UTF-8,
  // uuid as 16 big-endian bytes, fixed and binary as is.
  std::string ToBytes() const;
  // The inverse for a value of `type`. Corrupt naming the type when the
  // length is wrong for it. Bounds written before a type promotion still
  // read: a 4-byte int as long, a 4-byte float as double; a decimal may use
  // 1..16 bytes.
  static Result<Literal> FromBytes(const TypePtr& type, std::string_view bytes);

  // Parses the text form of a value of `type`, as a user types it in a
  // filter: true/false, integers, decimals ("12.30" for decimal(18,2),
  // rounding refused), floats (also "NaN", "inf", "-inf"), dates
  // "2026-10-21", times "20:00:00[.ffffff]", timestamps
  // "2026-10-21T20:00:00[.ffffff]" or with a space instead of 'T', and for
  // timestamptz optionally a trailing "Z" or "+00:00"; a bare date is
  // midnight; strings as is, uuids in 8-4-4-4-12 hex, binary/fixed as hex.
  // InvalidArgument naming the text and type.
  static Result<Literal> Parse(const TypePtr& type, std::string_view text);

  // The value as `type`, for binding a constant to a column: int ↔ long
  // (range-checked), int/long → float/double/decimal, float → double, date →
  // timestamp types (midnight), timestamp ↔ timestamp_ns, string → any type
  // through Parse. InvalidArgument when the value does not fit or the cast
  // is not allowed.
  Result<Literal> CastTo(const TypePtr& type) const;

  // Human-readable text: 2026-10-21, 2026-10-21T20:00:00, 12.30, abc,
  // uuids with dashes, binary as hex. Partition paths escape this text.
  std::string ToString() const;

 private:
  Literal(TypePtr type, Value value) : type_(std::move(type)), value_(std::move(value)) {}

  TypePtr type_;
  Value value_;
};

}  // namespace floe::iceberg
