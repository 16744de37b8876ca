// ParquetSchema: the flat SchemaElement list of a footer as a tree, with the
// definition and repetition levels the Dremel encoding gives each node, and
// its mapping onto floe's columnar types.
//
// spec: parquet-format LogicalTypes.md. Nested types follow its rules,
// including the backward-compatibility rules for lists written before the
// 3-level layout ("Lists": rules 1-4) and unannotated repeated fields, so files
// from old parquet-mr, Hive, Impala and Spark read as their writers meant.
//
// Thread safety: immutable after Make(); share freely.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/data_type.h"
#include "floe/formats/parquet/metadata.h"

namespace floe::parquet {

// One SchemaElement, placed in the tree.
struct SchemaNode {
  std::string name;
  FieldRepetitionType repetition = FieldRepetitionType::REQUIRED;  // the root counts as REQUIRED
  std::optional<Type> physical_type;                               // leaves only
  int32_t type_length = 0;                                         // FIXED_LEN_BYTE_ARRAY width
  std::optional<ConvertedType> converted_type;
  std::optional<LogicalType> logical_type;
  int32_t precision = 0;
  int32_t scale = 0;
  std::optional<int32_t> field_id;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  int parent = -1;            // index into ParquetSchema::nodes(); -1 for the root
  std::vector<int> children;  // indices into nodes()
  int column = -1;            // leaves: the column chunk index

  bool is_leaf() const { return physical_type.has_value(); }
};

// How a leaf's physical values become its floe type's values.
enum class ValueConversion : uint8_t {
  kNone,              // same bits (also INT32 -> uint32, INT64 -> uint64, FLOAT, DOUBLE, bytes)
  kNarrowInt32,       // INT32 -> int8/int16/uint8/uint16 (value range checked)
  kMillisToMicros32,  // INT32 TIME_MILLIS -> time64[us]
  kMillisToMicros64,  // INT64 TIMESTAMP_MILLIS -> timestamp[us]
  kInt96ToMicros,     // INT96 (Julian day + nanos of day) -> timestamp[us], as Spark reads it
  kDecimalFromInt32,
  kDecimalFromInt64,
  kDecimalFromBytes,  // big-endian two's complement of 1..16 bytes
  kFloat16ToFloat32,
  kIntervalFromFixed,  // INTERVAL: FIXED_LEN_BYTE_ARRAY(12) of months, days, millis -> interval
};

// The order of a column's min_value/max_value statistics (and column index
// bounds), as far as a reader can use it. spec (parquet.thrift ColumnOrder):
// "If the reader does not support the value of this union, min and max stats
// for this column should be ignored."
enum class StatisticsOrder : uint8_t {
  // TYPE_ORDER: the order of the column's logical or physical type. Also
  // assumed for a footer without column_orders (files of writers that set
  // min_value without them read as those writers meant).
  kTypeDefined,
  kIeee754Total,    // IEEE_754_TOTAL_ORDER on FLOAT, DOUBLE or FLOAT16
  kInt96Timestamp,  // INT96_TIMESTAMP_ORDER on INT96: days, then nanoseconds, both signed
  // No usable order, min/max ignored: an order floe does not know, one the
  // spec does not allow for the column's type, INT96 under TYPE_ORDER, or a
  // type whose order the spec leaves undefined (INTERVAL, GEOMETRY, GEOGRAPHY).
  kNone,
};

// A leaf column: what one column chunk of every row group holds.
struct ColumnDescriptor {
  int node = -1;                  // index into nodes()
  std::vector<std::string> path;  // path_in_schema, root excluded
  Type physical_type = Type::INT32;
  int32_t type_length = 0;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  TypePtr type;  // the floe type of one value
  ValueConversion conversion = ValueConversion::kNone;
  StatisticsOrder statistics_order = StatisticsOrder::kTypeDefined;

  // "a.b.c"
  std::string dotted_path() const;
};

// How to rebuild one floe field from its leaf columns' levels (the plan a
// record reader follows; Arrow calls it the schema manifest).
struct FieldPlan {
  enum class Kind : uint8_t { kPrimitive, kStruct, kList, kMap };
  Kind kind = Kind::kPrimitive;
  Field field;  // name, type, nullability and field id as floe sees them
  int node = -1;
  // The value is non-null when a leaf's definition level is >= def_level.
  int16_t def_level = 0;
  // Lists and maps: an element exists when def >= repeated_def_level, and a
  // repetition level < rep_level starts a new list.
  int16_t repeated_def_level = 0;
  int16_t rep_level = 0;
  int column = -1;                  // kPrimitive: the leaf column
  std::vector<FieldPlan> children;  // struct: its fields; list: {element}; map: {key, value}
};

class ParquetSchema {
 public:
  // Builds the tree from a footer's schema list (depth-first, root first)
  // and its column_orders (one per leaf column; absent in old files).
  // Corrupt when the list is inconsistent (children counts, a leaf without a
  // type, a bad FIXED_LEN_BYTE_ARRAY width, nesting deeper than 128);
  // Unsupported for valid types floe does not read (decimal over 38 digits).
  // Fields whose Parquet annotation floe's types do not carry get it as
  // field metadata (field_annotation.h).
  static Result<ParquetSchema> Make(const std::vector<SchemaElement>& elements,
                                    const std::optional<std::vector<ColumnOrder>>& column_orders = std::nullopt);

  const std::vector<SchemaNode>& nodes() const { return nodes_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const ColumnDescriptor& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }

  // The floe schema: one field per top-level node.
  const Schema& schema() const { return schema_; }
  // The rebuild plan of each top-level field, parallel to schema().fields.
  const std::vector<FieldPlan>& fields() const { return fields_; }

  // The leaf columns under a top-level field, in column order.
  std::vector<int> ColumnsOf(const FieldPlan& field) const;

 private:
  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
  std::vector<FieldPlan> fields_;
  Schema schema_;
};

// The node's logical type: its LogicalType, or where that is absent or from
// a newer spec, the LogicalType its legacy ConvertedType stands for
// (TIMESTAMP_MILLIS -> TIMESTAMP(MILLIS, true), ...); nullopt for neither
// and for ConvertedTypes without one (INTERVAL, MAP_KEY_VALUE).
std::optional<LogicalType> EffectiveLogicalType(const SchemaNode& node);

// The floe type of a leaf node and the conversion its values need.
// Corrupt for an annotation that cannot apply to the physical type
// (e.g. DATE on BYTE_ARRAY), Unsupported for valid ones floe does not read.
Status LeafType(const SchemaNode& node, TypePtr* type, ValueConversion* conversion);

// The statistics order of leaf `column` (its type and conversion set) under
// `order`, its entry in FileMetaData.column_orders (nullopt: none given).
StatisticsOrder StatisticsOrderOf(const SchemaNode& node, const ColumnDescriptor& column,
                                  std::optional<ColumnOrder> order);

}  // namespace floe::parquet
