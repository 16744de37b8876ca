// DataType, Field and Schema: the logical types of floe's column batches.
//
// Types follow the Arrow type system (the memory layout of each is described in
// array.h), restricted to what lakehouse tables store: Iceberg's and Parquet's
// primitive, temporal and nested types. A type is an immutable value shared by
// pointer (TypePtr); parameterless types are process-wide singletons.
//
// Thread safety: every object here is immutable after construction (Field and
// Schema are plain values); const methods may be called from any thread.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/base/result.h"

namespace floe {

// A decimal128 value: the unscaled integer, stored little-endian in 16 bytes.
using Decimal128Value = __int128;

// An interval value as Arrow's interval_month_day_nano lays it out: calendar
// months, days and nanoseconds, each signed and independent of the others (a
// month is not a number of days, nor a day a number of nanoseconds).
struct MonthDayNano {
  int32_t months = 0;
  int32_t days = 0;
  int64_t nanoseconds = 0;
  bool operator==(const MonthDayNano&) const = default;
};
static_assert(sizeof(MonthDayNano) == 16, "Arrow's interval_month_day_nano is 16 bytes");

enum class TypeId : uint8_t {
  kNull,
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat32,
  kFloat64,
  kDecimal128,       // precision 1..38, scale 0..precision
  kDate32,           // days since 1970-01-01
  kTime64,           // time of day in micros or nanos
  kTimestamp,        // micros or nanos since 1970-01-01T00:00:00, optional zone
  kInterval,         // months, days and nanoseconds (MonthDayNano), Arrow's interval_month_day_nano
  kString,           // UTF-8, int32 offsets
  kBinary,           // bytes, int32 offsets
  kFixedSizeBinary,  // byte_width bytes per value
  kUuid,             // fixed_size_binary(16), Arrow extension `arrow.uuid`
  kList,             // one child field (conventionally "item")
  kMap,              // one child: non-null struct "entries" of key (non-null) and value
  kStruct,           // named child fields
  kDictionary,       // int32 indices into a dictionary of string or binary values
};

enum class TimeUnit : uint8_t { kMicro, kNano };

// "us" or "ns".
std::string_view TimeUnitSuffix(TimeUnit unit);

class DataType;
using TypePtr = std::shared_ptr<const DataType>;

// Key-value metadata in insertion order, as the Arrow C Data Interface and
// Parquet carry it. Keys are not required to be unique.
using KeyValueMetadata = std::vector<std::pair<std::string, std::string>>;

// A named, typed column or child. `field_id` is the Iceberg / Parquet field id;
// it travels through the Arrow C Data Interface as metadata `PARQUET:field_id`,
// which is why that key must not also appear in `metadata`.
struct Field {
  Field() = default;
  Field(std::string name, TypePtr type, bool nullable = true, KeyValueMetadata metadata = {},
        std::optional<int32_t> field_id = std::nullopt)
      : name(std::move(name)),
        type(std::move(type)),
        nullable(nullable),
        metadata(std::move(metadata)),
        field_id(field_id) {}

  std::string name;
  TypePtr type;
  bool nullable = true;
  KeyValueMetadata metadata;
  std::optional<int32_t> field_id;

  // "name: type", with " not null" when not nullable.
  std::string ToString() const;
  // Every member equal, types compared structurally.
  bool Equals(const Field& other) const;
  bool operator==(const Field& other) const { return Equals(other); }
};

// JSON text: a string field whose metadata names Arrow's canonical JSON
// extension type (ARROW:extension:name = arrow.json) holds one JSON text
// (RFC 8259) in each non-null value. It travels through the Arrow C Data
// Interface as that metadata. The batch printer embeds such values as JSON
// at any depth (a value that is not valid JSON prints as a JSON string).
bool IsJsonTextField(const Field& field);
// `field`, a string field, marked as JSON text.
Field MarkJsonText(Field field);

class DataType {
  // Lets the factories use make_shared while no one else can construct a type.
  struct Passkey {
    explicit Passkey() = default;
  };

 public:
  // Parameterless types (singletons).
  static TypePtr Null();
  static TypePtr Bool();
  static TypePtr Int8();
  static TypePtr Int16();
  static TypePtr Int32();
  static TypePtr Int64();
  static TypePtr UInt8();
  static TypePtr UInt16();
  static TypePtr UInt32();
  static TypePtr UInt64();
  static TypePtr Float32();
  static TypePtr Float64();
  static TypePtr Date32();
  static TypePtr Utf8();
  static TypePtr Binary();
  static TypePtr Uuid();
  static TypePtr Interval();

  // InvalidArgument unless 1 <= precision <= 38 and 0 <= scale <= precision.
  static Result<TypePtr> Decimal128(int32_t precision, int32_t scale);
  static TypePtr Time64(TimeUnit unit);
  // `timezone` empty means a local (zone-less) timestamp; "UTC" for Iceberg's timestamptz.
  static TypePtr Timestamp(TimeUnit unit, std::string timezone = "");
  // InvalidArgument when byte_width < 0.
  static Result<TypePtr> FixedSizeBinary(int32_t byte_width);
  // A list whose elements are described by `item`.
  static TypePtr List(Field item);
  // A list of nullable elements named "item".
  static TypePtr List(TypePtr item_type);
  // A map of `key` (must be non-nullable: InvalidArgument otherwise) to `value`;
  // the entries struct child is named "entries", as Arrow requires.
  static Result<TypePtr> Map(Field key, Field value, bool keys_sorted = false);
  // A map with a non-null child "key" and a nullable child "value".
  static TypePtr Map(TypePtr key_type, TypePtr value_type, bool keys_sorted = false);
  static TypePtr Struct(std::vector<Field> fields);
  // Values stored once in a dictionary and referenced by int32 indices, as
  // Arrow's dictionary<int32, value_type> (not ordered). The value type must
  // be string or binary: InvalidArgument otherwise.
  static Result<TypePtr> Dictionary(TypePtr value_type);

  TypeId id() const { return id_; }

  // decimal128 only.
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }
  // time64 and timestamp only.
  TimeUnit unit() const { return unit_; }
  // timestamp only; empty when the timestamp has no zone.
  const std::string& timezone() const { return timezone_; }
  // map only.
  bool keys_sorted() const { return keys_sorted_; }
  // dictionary only: the type of the dictionary's values (string or binary).
  const TypePtr& value_type() const { return value_type_; }

  // Child fields: list one ("item"), map one (the "entries" struct), struct its
  // fields; empty for other types.
  const std::vector<Field>& fields() const { return fields_; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  const Field& field(int i) const { return fields_[static_cast<size_t>(i)]; }
  // list only: the element field.
  const Field& item_field() const { return fields_[0]; }
  // map only: the key and value fields of the entries struct.
  const Field& key_field() const { return fields_[0].type->fields_[0]; }
  const Field& value_field() const { return fields_[0].type->fields_[1]; }

  // Bytes per value in the values buffer of a fixed-width type (ints, floats,
  // decimal128 16, date32 4, time64 and timestamp 8, interval 16,
  // fixed_size_binary its width, uuid 16); -1 for bool (bit-packed), null,
  // variable-width, nested and dictionary (whose indices are not its values).
  int32_t byte_width() const { return byte_width_; }
  bool is_fixed_width() const { return byte_width_ >= 0; }
  bool is_nested() const { return id_ == TypeId::kList || id_ == TypeId::kMap || id_ == TypeId::kStruct; }

  // "int64", "decimal(18,2)", "timestamp[us, tz=UTC]", "interval", "list<item: int64>",
  // "struct<a: int32, b: string>", "map<string, int64>", "dictionary<string>".
  std::string ToString() const;

  // Structural equality: same id, parameters and child fields.
  bool Equals(const DataType& other) const;
  bool operator==(const DataType& other) const { return Equals(other); }

  explicit DataType(Passkey, TypeId id) : id_(id), byte_width_(ByteWidthOf(id)) {}

 private:
  static int32_t ByteWidthOf(TypeId id);

  TypeId id_;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  int32_t byte_width_;
  TimeUnit unit_ = TimeUnit::kMicro;
  bool keys_sorted_ = false;
  std::string timezone_;
  std::vector<Field> fields_;
  TypePtr value_type_;
};

// Whether `type` is a dictionary or holds one at any depth.
bool HasDictionary(const TypePtr& type);
// `type` with every dictionary, at any depth, replaced by its value type
// (field names, nullability, ids and metadata kept); `type` itself when it
// holds none.
TypePtr WithoutDictionaries(const TypePtr& type);

// Whether both pointers are null or point to equal types.
bool TypeEquals(const TypePtr& a, const TypePtr& b);

// The columns of a record batch, plus key-value metadata.
struct Schema {
  Schema() = default;
  explicit Schema(std::vector<Field> fields, KeyValueMetadata metadata = {})
      : fields(std::move(fields)), metadata(std::move(metadata)) {}

  std::vector<Field> fields;
  KeyValueMetadata metadata;

  int num_fields() const { return static_cast<int>(fields.size()); }
  const Field& field(int i) const { return fields[static_cast<size_t>(i)]; }
  // The index of the first field named `name`, or -1.
  int FieldIndex(std::string_view name) const;

  // The fields on one line: "a: int32, b: string not null".
  std::string ToString() const;
  bool Equals(const Schema& other) const { return fields == other.fields && metadata == other.metadata; }
  bool operator==(const Schema& other) const { return Equals(other); }
};

}  // namespace floe
