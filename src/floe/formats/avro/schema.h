// Avro schemas (spec: "Schema Declaration"): the parsed tree of a schema
// JSON, with named types, references, namespaces, logical types and every
// attribute the JSON carried (Iceberg's field-id, element-id, key-id,
// value-id, and logicalType "map" on arrays are kept verbatim).
//
// A Schema owns all of its nodes; nodes refer to each other by pointer, so a
// recursive record is a node that points at itself. Nodes are immutable after
// parsing or building.
//
// Thread safety: a Schema is immutable; share it across threads freely.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

namespace floe::avro {

enum class Type : uint8_t {
  kNull,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kBytes,
  kString,
  kRecord,
  kEnum,
  kArray,
  kMap,
  kUnion,
  kFixed,
};

// "null", "boolean", ..., "fixed": the spec's type names.
std::string_view TypeName(Type type);

// The logical types of the spec. An unknown or invalid logicalType is ignored
// (spec: "must ignore unknown logical types ... and use the underlying Avro
// type"); its attribute is still kept.
enum class LogicalType : uint8_t {
  kNone,
  kDecimal,  // bytes or fixed; precision() and scale()
  kUuid,     // string or fixed(16)
  kDate,     // int
  kTimeMillis,
  kTimeMicros,
  kTimestampMillis,
  kTimestampMicros,
  kTimestampNanos,
  kLocalTimestampMillis,
  kLocalTimestampMicros,
  kLocalTimestampNanos,
  kDuration,  // fixed(12)
};

std::string_view LogicalTypeName(LogicalType type);

// One extra JSON attribute of a type or field, kept as its minified JSON text.
struct Attribute {
  std::string name;
  std::string json;
};

class Node;

struct Field {
  std::string name;
  const Node* type = nullptr;
  std::optional<std::string> default_json;  // minified JSON of "default", if given
  std::string doc;
  std::vector<std::string> aliases;
  std::vector<Attribute> attributes;  // everything else, in JSON order

  // An attribute's JSON text, or nullptr.
  const std::string* FindAttribute(std::string_view attr) const;
  // Iceberg's "field-id" when it is an integer attribute.
  std::optional<int32_t> field_id() const;
};

class Node {
 public:
  Type type() const { return type_; }
  LogicalType logical_type() const { return logical_type_; }
  bool is_named() const { return type_ == Type::kRecord || type_ == Type::kEnum || type_ == Type::kFixed; }
  // Named types: the name as written, its namespace and the full name.
  const std::string& name() const { return name_; }
  const std::string& name_space() const { return namespace_; }
  std::string full_name() const { return namespace_.empty() ? name_ : namespace_ + "." + name_; }
  const std::string& doc() const { return doc_; }
  const std::vector<std::string>& aliases() const { return aliases_; }

  // Records.
  const std::vector<Field>& fields() const { return fields_; }
  // The index of the field named `field`, or -1.
  int FieldIndex(std::string_view field) const;
  // Enums.
  const std::vector<std::string>& symbols() const { return symbols_; }
  const std::optional<std::string>& enum_default() const { return enum_default_; }
  // Arrays (items) and maps (values).
  const Node* items() const { return child_; }
  const Node* values() const { return child_; }
  // Unions.
  const std::vector<const Node*>& branches() const { return branches_; }
  // The index of the "null" branch of a union, or -1.
  int NullBranch() const;
  // Fixed.
  int64_t fixed_size() const { return fixed_size_; }
  // Decimal.
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }

  // Attributes other than the spec's own keys, in JSON order (logicalType is
  // kept here too, so an unknown one survives a round trip).
  const std::vector<Attribute>& attributes() const { return attributes_; }
  const std::string* FindAttribute(std::string_view attr) const;
  // An integer attribute (Iceberg's element-id, key-id, value-id), if present.
  std::optional<int64_t> IntAttribute(std::string_view attr) const;

 private:
  friend class Schema;
  friend class SchemaBuilder;
  friend class SchemaParser;

  Type type_ = Type::kNull;
  LogicalType logical_type_ = LogicalType::kNone;
  std::string name_;
  std::string namespace_;
  std::string doc_;
  std::vector<std::string> aliases_;
  std::vector<Field> fields_;
  std::vector<std::string> symbols_;
  std::optional<std::string> enum_default_;
  const Node* child_ = nullptr;
  std::vector<const Node*> branches_;
  int64_t fixed_size_ = 0;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  std::vector<Attribute> attributes_;
};

// Nesting deeper than this is refused by the parser and the datum decoder.
inline constexpr int kMaxNestingDepth = 64;

class Schema {
 public:
  // Parses schema JSON. Corrupt (naming the path to the bad part, e.g.
  // "field 'data_file'.'partition': unknown type 'strnig'") for JSON that is
  // not a valid Avro schema: unknown or duplicate names, bad union
  // (nested union, duplicate branch types), missing keys, nesting past
  // kMaxNestingDepth.
  static Result<std::shared_ptr<const Schema>> Parse(std::string_view json);

  const Node& root() const { return *root_; }

  // The schema as JSON: full names on first use and references after, field
  // attributes and defaults kept. Parse(ToJson()) yields an equal schema.
  std::string ToJson() const;

  // The named type `full_name`, or nullptr.
  const Node* FindNamed(std::string_view full_name) const;

 private:
  friend class SchemaBuilder;
  friend class SchemaParser;
  std::vector<std::unique_ptr<Node>> nodes_;
  const Node* root_ = nullptr;
};

// Builds a schema in code (used by writers such as the Iceberg manifest
// writer). Nodes are created bottom-up and owned by the builder until
// Build(). Not thread-safe.
class SchemaBuilder {
 public:
  SchemaBuilder();
  const Node* Primitive(Type type, LogicalType logical = LogicalType::kNone);
  const Node* Decimal(const Node* underlying_fixed_or_bytes, int32_t precision, int32_t scale);
  const Node* Array(const Node* items, std::vector<Attribute> attributes = {});
  const Node* Map(const Node* values, std::vector<Attribute> attributes = {});
  const Node* Union(std::vector<const Node*> branches);
  // ["null", type]: an optional value.
  const Node* Optional(const Node* type) { return Union({Primitive(Type::kNull), type}); }
  const Node* Fixed(std::string full_name, int64_t size, LogicalType logical = LogicalType::kNone);
  const Node* Enum(std::string full_name, std::vector<std::string> symbols);
  const Node* Record(std::string full_name, std::vector<Field> fields, std::vector<Attribute> attributes = {});
  // A field with Iceberg's "field-id" attribute (and "default": null for an
  // optional field, as Iceberg writes it).
  static Field IdField(std::string name, const Node* type, int32_t field_id);

  // Checks the tree (names valid and unique, unions well formed) and returns
  // the schema rooted at `root`. InvalidArgument otherwise.
  Result<std::shared_ptr<const Schema>> Build(const Node* root);

 private:
  Node* NewNode(Type type);
  std::unique_ptr<Schema> schema_;
};

}  // namespace floe::avro
