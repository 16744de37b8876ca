// Schema: an Iceberg schema (spec: "Schemas"), a struct of NestedFields with
// a schema id and optional identifier fields.
//
// Lookups by field id and by full dotted name ("a.b", "l.element",
// "m.key", "m.value") are indexed when the schema is made.
//
// Thread safety: immutable after construction; copies share the index.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/data_type.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg {

class Schema {
 public:
  static constexpr int32_t kInitialSchemaId = 0;

  // An empty schema with id 0.
  Schema();

  // Builds and validates a schema. InvalidArgument, naming the field, when a
  // field id is repeated or negative, a name is repeated within a struct
  // or empty, or an identifier field does not exist or cannot identify rows
  // (spec: identifier fields must be required primitives, not float or
  // double, and not nested in an optional struct, a list or a map).
  static Result<Schema> Make(int32_t schema_id, std::vector<NestedField> fields,
                             std::vector<int32_t> identifier_field_ids = {});

  int32_t schema_id() const { return schema_id_; }
  const std::vector<NestedField>& fields() const { return struct_->fields(); }
  // The schema as a struct type.
  const TypePtr& as_struct() const { return struct_; }
  const std::vector<int32_t>& identifier_field_ids() const { return identifier_field_ids_; }

  // The field (at any depth) with this id, or nullptr. The pointer lives as
  // long as any copy of this schema.
  const NestedField* FindFieldById(int32_t field_id) const;
  // The field with this full dotted name, or nullptr. Case-insensitively,
  // nullptr too when several fields' names differ only in case.
  const NestedField* FindFieldByName(std::string_view name, bool case_sensitive = true) const;
  // The full dotted name of a field id, or "" when there is none.
  std::string FindColumnName(int32_t field_id) const;
  // The largest field id at any depth; 0 for an empty schema.
  int32_t HighestFieldId() const { return highest_field_id_; }

  // Same id, fields and identifier fields.
  bool operator==(const Schema& other) const;

  // The lookup tables; internal to schema.cc.
  struct Index;

 private:
  Schema(int32_t schema_id, TypePtr as_struct, std::vector<int32_t> identifier_field_ids,
         std::shared_ptr<const Index> index, int32_t highest_field_id);

  int32_t schema_id_;
  TypePtr struct_;
  std::vector<int32_t> identifier_field_ids_;
  std::shared_ptr<const Index> index_;
  int32_t highest_field_id_ = 0;
};

// floe's columnar schema for an Iceberg schema, every field carrying its
// field id: boolean → bool, int/long → int32/int64, float/double,
// decimal(P,S) → decimal128, date → date32, time → time64[us],
// timestamp[tz] → timestamp[us] (tz "UTC"), timestamp[tz]_ns → timestamp[ns],
// string → utf8, uuid → uuid, fixed[L] → fixed_size_binary(L), binary,
// unknown → null, variant/geometry/geography → binary annotated with field
// metadata "iceberg.type" = the type string. Required fields are non-nullable.
Result<floe::Schema> ToColumnarSchema(const Schema& schema);
// The columnar type for one Iceberg type, as above.
Result<floe::TypePtr> ToColumnarType(const Type& type);

}  // namespace floe::iceberg
