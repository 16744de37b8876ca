// ColumnProjection: a data file's column as the table's field (spec:
// "Column Projection" and "Schema Evolution"), at every nesting level.
//
// Fields are matched by field id, or, in a file written without ids, through
// the table's name mapping (else by the field's name), struct children as
// well as top-level columns. Promoted primitives are widened (int → long,
// float → double, decimal(P,S) → decimal(P',S) with P' > P), and a 16-byte
// fixed without the UUID annotation reads as uuid. A field the file
// lacks reads, per the spec, as
//   1. the identity partition value of the file's partition tuple, when the
//      field is the source of an identity partition field;
//   2. the field's initial-default;
//   3. null.
// A struct the file lacks whose initial-default is `{}` reads as a struct of
// its children's defaults.
//
// Thread safety: immutable after construction; Project may be called from any thread.

#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "floe/base/result.h"
#include "floe/columnar/array.h"
#include "floe/iceberg/literal.h"
#include "floe/iceberg/name_mapping.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg {

class ColumnProjection {
 public:
  // `file_has_ids`: the file's columns carry field ids. `mapping` (may be
  // null; not owned, must outlive this) resolves files without ids.
  // `constants`: values by field id for fields the file lacks (identity
  // partition values, see IdentityPartitionValues).
  ColumnProjection(bool file_has_ids, const NameMapping* mapping, std::map<int32_t, std::optional<Literal>> constants);

  // `column` as `field`, whose columnar type is `type` (ToColumnarType of
  // field.type, or a child type of one). `column` null: the file lacks the
  // field; the result then has `length` elements. `mapped` is the field's
  // name mapping entry (null when none). InvalidArgument naming the field
  // when the file's type cannot be read as the field's; Corrupt for a default
  // that is not a value of its type; Unsupported for a non-empty default of
  // a nested type.
  Result<Array> Project(const Array* column, const NestedField& field, const floe::TypePtr& type,
                        const MappedField* mapped, int64_t length) const;

  // The mapping entry of a top-level field, or null.
  const MappedField* TopLevelMapping(int32_t field_id) const;

 private:
  Result<Array> Missing(const NestedField& field, const floe::TypePtr& type, int64_t length) const;
  Result<Array> ProjectStruct(const Array& column, const NestedField& field, const floe::TypePtr& type,
                              const MappedField* mapped) const;
  // The index of `child` among the children of the file's struct type, or -1.
  int FindChild(const floe::DataType& file_struct, const NestedField& child, const MappedField* mapped_child) const;

  bool file_has_ids_;
  const NameMapping* mapping_;
  std::map<int32_t, std::optional<Literal>> constants_;
};

// The identity partition values of a file's partition tuple, by source field
// id (spec: "Return the value from partition metadata if an Identity
// Transform exists for the field"), cast to the source field's type in
// `schema`. Fields whose value does not cast are left out.
std::map<int32_t, std::optional<Literal>> IdentityPartitionValues(const PartitionSpec& spec, const Schema& schema,
                                                                  const PartitionValues& partition);

// `length` copies of `value` (null when nullopt) as an array of `type`, the
// columnar type of value's type. InvalidArgument for a nested type.
Result<Array> ConstantArray(const std::optional<Literal>& value, const floe::TypePtr& type, int64_t length);

}  // namespace floe::iceberg
