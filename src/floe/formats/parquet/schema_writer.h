// The writer's schema mapping: a floe Schema -> the flat SchemaElement list
// of a footer, plus, per leaf column, what the writer needs to shred and
// encode it. It inverts the reader's mapping (schema.h, LeafType): for every
// floe type, ParquetSchema::Make(elements).schema() is the same Schema, with
// the two exceptions that follow from the spec's fixed names (LogicalTypes.md,
// "Lists" and "Maps"): a list element is written as `element`, map entries as
// `key_value` { `key`, `value` }, so a floe list item named "item" reads back
// as "element", and a timestamp with any zone reads back with zone "UTC"
// (Parquet records only isAdjustedToUTC).
//
// Layout written (spec: LogicalTypes.md):
//   list   <rep> group <name> (LIST) { repeated group list { <rep> <type> element; } }
//   map    <rep> group <name> (MAP)  { repeated group key_value { required <k> key; <rep> <v> value; } }
//   struct <rep> group <name> { fields... }
// Each element carries the logicalType and, where the spec lists one, the
// legacy converted_type; field ids come from Field::field_id. A field's
// annotation metadata (field_annotation.h: PARQUET:logical_type,
// PARQUET:physical_type) replaces the default annotation or physical type
// when the result reads back as the same floe type; an interval is written
// FIXED_LEN_BYTE_ARRAY(12) annotated INTERVAL (months, days, milliseconds).
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/data_type.h"
#include "floe/formats/parquet/metadata.h"

namespace floe::parquet {

// One step on the way from a top-level column down to a leaf, as the
// shredder walks the floe arrays (level_shredder.h).
struct ShredStep {
  enum class Kind : uint8_t {
    kLeaf,    // the leaf values
    kStruct,  // descend into struct child `child`
    kList,    // a list or a map: descend into its child (the items, or the entries struct)
  };
  Kind kind = Kind::kLeaf;
  bool nullable = false;  // this node is OPTIONAL: a null adds no definition level
  int child = 0;          // kStruct: the field index
  // kList: the repetition level of this list's repeated node.
  int16_t rep_level = 0;
};

// How a leaf is stored where Parquet offers a second, legacy or narrower form.
enum class LeafStorage : uint8_t {
  kDefault,
  // A timestamp as INT96 (8 bytes of nanoseconds in the day, then the 4-byte
  // Julian day, little-endian), unannotated, as Spark and Impala write it.
  // Reads back as a timestamp in microseconds without a zone (decision 0017).
  kInt96,
  // A float32 as FLOAT16 (FIXED_LEN_BYTE_ARRAY(2), IEEE 754 half,
  // little-endian), rounded to the nearest half, ties to even.
  kFloat16,
};

struct WriterSchemaOptions {
  // By dotted leaf path; leaves not listed are kDefault.
  std::map<std::string, LeafStorage> storage;
};

// A leaf column as the writer sees it.
struct WriterColumn {
  std::vector<std::string> path;  // path_in_schema
  int top_level_field = 0;        // index into Schema::fields
  Type physical_type = Type::INT32;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  TypePtr type;                  // the floe type of the leaf values
  LeafStorage storage = LeafStorage::kDefault;
  std::optional<LogicalType> logical_type;  // the leaf's annotation as written
  // The Parquet values are the floe values divided by this: 1000 for a
  // time64[us] or timestamp[us] written in MILLIS. Values it does not divide
  // are rejected (InvalidArgument), never rounded.
  int64_t unit_divisor = 1;
  std::vector<ShredStep> steps;  // from the top-level field (steps[0]) to the leaf (last, kLeaf)

  // "a.b.c"
  std::string dotted_path() const;
};

struct WriterSchema {
  std::vector<SchemaElement> elements;  // depth-first, the root ("schema") first
  std::vector<WriterColumn> columns;    // in column-chunk order
};

// The Parquet schema of `schema`. Unsupported for what Parquet cannot hold
// (a struct without fields, fixed_size_binary of width 0) and for a map whose
// key is nullable; InvalidArgument for an empty field name. A null-typed
// field is written OPTIONAL INT32 annotated UNKNOWN, whatever its
// nullability. InvalidArgument when `options` give kInt96 to a leaf that is
// no timestamp or kFloat16 to one that is no float32, and for annotation
// metadata that does not parse or does not fit the field's type (JSON on an
// int32, TIMESTAMP(MILLIS,true) on a timestamp without zone).
Result<WriterSchema> MakeWriterSchema(const Schema& schema, const WriterSchemaOptions& options = {});

// The leaf element (type, type_length, logicalType, converted_type, scale,
// precision) the writer gives a field of `type` without annotation metadata.
// Unsupported for nested types and what Parquet cannot hold.
Status DefaultLeafElement(const DataType& type, SchemaElement* element);

// Bytes of a FIXED_LEN_BYTE_ARRAY that holds every decimal of `precision`
// digits (two's complement): 1 for 1-2 digits ... 16 for 37-38.
int32_t DecimalByteWidth(int32_t precision);

}  // namespace floe::parquet
