// Iceberg types (spec: "Schemas and Data Types"), v1–v3.
//
// A Type is an immutable value shared by pointer (TypePtr); primitive types
// without parameters are process-wide singletons. Nested types carry their
// children as NestedFields with field ids: a struct its fields, a list its
// "element", a map its "key" and "value".
//
// Thread safety: every object here is immutable after construction; const
// methods may be called from any thread.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

namespace floe::iceberg {

enum class TypeId : uint8_t {
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,  // decimal(P,S), 1 <= P <= 38, 0 <= S <= P
  kDate,
  kTime,           // microseconds
  kTimestamp,      // microseconds, no zone
  kTimestampTz,    // microseconds, UTC
  kTimestampNs,    // v3: nanoseconds, no zone
  kTimestampTzNs,  // v3: nanoseconds, UTC
  kString,
  kUuid,
  kFixed,  // fixed[L]
  kBinary,
  kUnknown,    // v3: a type not yet known; values are always null
  kVariant,    // v3: semi-structured value
  kGeometry,   // v3: geometry(C), carried as WKB binary
  kGeography,  // v3: geography(C, A), carried as WKB binary
  kStruct,
  kList,
  kMap,
};

class Type;
using TypePtr = std::shared_ptr<const Type>;

// A struct field, list element or map key/value. `initial_default` and
// `write_default` (v3) hold the default's JSON single-value serialization
// (spec Appendix D) as compact JSON text, or nullopt when there is none.
struct NestedField {
  int32_t field_id = 0;
  std::string name;
  TypePtr type;
  bool required = false;
  std::string doc;  // empty: no doc
  std::optional<std::string> initial_default;
  std::optional<std::string> write_default;

  // "1: x: required long", children inline.
  std::string ToString() const;
  // Every member equal, types structurally.
  bool operator==(const NestedField& other) const;
};

class Type {
  struct Passkey {
    explicit Passkey() = default;
  };

 public:
  static TypePtr Boolean();
  static TypePtr Int();
  static TypePtr Long();
  static TypePtr Float();
  static TypePtr Double();
  static TypePtr Date();
  static TypePtr Time();
  static TypePtr Timestamp();
  static TypePtr TimestampTz();
  static TypePtr TimestampNs();
  static TypePtr TimestampTzNs();
  static TypePtr String();
  static TypePtr Uuid();
  static TypePtr Binary();
  static TypePtr Unknown();
  static TypePtr Variant();
  // InvalidArgument unless 1 <= precision <= 38 and 0 <= scale <= precision.
  static Result<TypePtr> Decimal(int32_t precision, int32_t scale);
  // InvalidArgument when length < 1.
  static Result<TypePtr> Fixed(int64_t length);
  // `crs` empty means the spec's default (OGC:CRS84) and formats as "geometry".
  static TypePtr Geometry(std::string crs = "");
  // `crs` / `algorithm` empty mean the defaults (OGC:CRS84, spherical).
  static TypePtr Geography(std::string crs = "", std::string algorithm = "");
  static TypePtr Struct(std::vector<NestedField> fields);
  // The element field is named "element".
  static TypePtr List(int32_t element_id, TypePtr element, bool element_required);
  // The key (always required) is named "key", the value "value".
  static TypePtr Map(int32_t key_id, TypePtr key, int32_t value_id, TypePtr value, bool value_required);

  TypeId id() const { return id_; }
  bool is_primitive() const { return id_ < TypeId::kStruct; }
  bool is_nested() const { return !is_primitive(); }

  int32_t precision() const { return precision_; }             // decimal
  int32_t scale() const { return scale_; }                     // decimal
  int64_t length() const { return length_; }                   // fixed
  const std::string& crs() const { return crs_; }              // geometry, geography
  const std::string& algorithm() const { return algorithm_; }  // geography

  // struct: its fields; list: the element; map: key then value.
  const std::vector<NestedField>& fields() const { return fields_; }
  const NestedField& element_field() const { return fields_[0]; }  // list
  const NestedField& key_field() const { return fields_[0]; }      // map
  const NestedField& value_field() const { return fields_[1]; }    // map

  // The spec's type string for primitives ("long", "decimal(9,2)",
  // "fixed[16]", "geography(srid:4326, planar)"); for nested types a readable
  // "struct<1: a: optional int>", "list<2: element: required string>".
  std::string ToString() const;
  bool Equals(const Type& other) const;
  bool operator==(const Type& other) const { return Equals(other); }

  explicit Type(Passkey, TypeId id) : id_(id) {}

 private:
  TypeId id_;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  int64_t length_ = 0;
  std::string crs_;
  std::string algorithm_;
  std::vector<NestedField> fields_;
};

bool TypeEquals(const TypePtr& a, const TypePtr& b);

// Parses a primitive type string as it appears in metadata JSON: "boolean",
// "int", "long", "float", "double", "date", "time", "timestamp",
// "timestamptz", "timestamp_ns", "timestamptz_ns", "string", "uuid",
// "binary", "unknown", "variant", "decimal(P, S)", "fixed[L]",
// "geometry[(C)]", "geography[(C[, A])]" (whitespace inside the parentheses
// is allowed). InvalidArgument naming the string otherwise.
Result<TypePtr> ParsePrimitiveType(std::string_view text);

// The lowest format version that allows `type` anywhere in it: 3 for
// timestamp_ns, timestamptz_ns, unknown, variant, geometry, geography, else 1.
int MinFormatVersion(const Type& type);

}  // namespace floe::iceberg
