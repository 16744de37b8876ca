// Datum: one generic Avro value (a record, an array, a long, ...), the shape
// that container files are read into and written from.
//
// A record holds its fields in schema order; an array its items; a map its
// keys and values side by side. A union value is the value of its branch,
// with branch() saying which one. Decoding into a Datum that already holds a
// value reuses its strings and vectors, so reading a file row by row into
// one Datum allocates only when a row is larger than any before it.
//
// Thread safety: a value; distinct objects may be used from distinct threads.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/avro/binary.h"
#include "floe/formats/avro/schema.h"

namespace floe::avro {

enum class DatumKind : uint8_t {
  kNull,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kBytes,
  kString,
  kFixed,
  kEnum,
  kRecord,
  kArray,
  kMap,
};

class Datum {
 public:
  Datum() = default;
  static Datum Null() { return Datum(); }
  static Datum Boolean(bool v) { return Scalar(DatumKind::kBoolean, v ? 1 : 0); }
  static Datum Int(int32_t v) { return Scalar(DatumKind::kInt, v); }
  static Datum Long(int64_t v) { return Scalar(DatumKind::kLong, v); }
  static Datum Float(float v);
  static Datum Double(double v);
  static Datum Bytes(std::string v) { return Text(DatumKind::kBytes, std::move(v)); }
  static Datum String(std::string v) { return Text(DatumKind::kString, std::move(v)); }
  static Datum Fixed(std::string v) { return Text(DatumKind::kFixed, std::move(v)); }
  // An enum value by symbol index.
  static Datum Enum(int32_t index) { return Scalar(DatumKind::kEnum, index); }
  static Datum Record(std::vector<Datum> fields);
  static Datum Array(std::vector<Datum> items);
  static Datum Map(std::vector<std::string> keys, std::vector<Datum> values);

  DatumKind kind() const { return kind_; }
  bool is_null() const { return kind_ == DatumKind::kNull; }

  // Accessors of the value's kind (checked in debug builds only: calling one
  // of another kind returns an unspecified value, not an error).
  bool boolean_value() const { return int_ != 0; }
  int32_t int_value() const { return static_cast<int32_t>(int_); }
  int64_t long_value() const { return int_; }
  int32_t enum_index() const { return static_cast<int32_t>(int_); }
  float float_value() const { return static_cast<float>(double_); }
  double double_value() const { return double_; }
  // bytes, string, fixed
  const std::string& bytes_value() const { return text_; }
  std::string_view string_value() const { return text_; }

  // Record fields, array items, map values.
  const std::vector<Datum>& children() const { return children_; }
  std::vector<Datum>& mutable_children() { return children_; }
  const Datum& field(size_t i) const { return children_[i]; }
  const std::vector<std::string>& map_keys() const { return keys_; }
  std::vector<std::string>& mutable_map_keys() { return keys_; }
  // The map value under `key`, or nullptr.
  const Datum* MapValue(std::string_view key) const;

  // For a value read from a union: the branch index in the schema it was
  // read with (-1 otherwise). Writers use it to pick a branch; when -1 the
  // writer picks the first branch that fits the value's kind.
  int branch() const { return branch_; }
  void set_branch(int b) { branch_ = b; }

  // A short JSON-like rendering for test failure messages and debugging.
  std::string ToString() const;

  bool operator==(const Datum& o) const;

 private:
  friend class DatumDecoder;
  static Datum Scalar(DatumKind k, int64_t v) {
    Datum d;
    d.kind_ = k;
    d.int_ = v;
    return d;
  }
  static Datum Text(DatumKind k, std::string v) {
    Datum d;
    d.kind_ = k;
    d.text_ = std::move(v);
    return d;
  }

  DatumKind kind_ = DatumKind::kNull;
  int16_t branch_ = -1;
  int64_t int_ = 0;
  double double_ = 0;
  std::string text_;
  std::vector<Datum> children_;
  std::vector<std::string> keys_;
};

// Decodes one value of `schema` from `decoder` into `out`. Corrupt for bytes
// that do not encode such a value (bad varint, string past the end, union
// branch out of range, enum index out of range, nesting past kMaxNestingDepth).
Status DecodeDatum(const Node& schema, Decoder* decoder, Datum* out);

// Skips one value of `schema`, using the byte sizes of array and map blocks
// when the writer gave them. Errors as DecodeDatum.
Status SkipDatum(const Node& schema, Decoder* decoder);

// Appends the encoding of `datum` as a value of `schema`. InvalidArgument,
// naming the path to the offending value, when the datum does not fit the
// schema (wrong kind, a record with a wrong field count, an int out of range,
// a fixed of the wrong size, no union branch fits).
Status EncodeDatum(const Node& schema, const Datum& datum, Encoder* encoder);

// A datum of `schema` from a JSON default value (spec: "default values for
// union fields correspond to the first schema in the union"; bytes and fixed
// are strings of code points 0-255). Corrupt when the JSON does not fit.
Result<Datum> DatumFromJsonDefault(const Node& schema, std::string_view json);

}  // namespace floe::avro
