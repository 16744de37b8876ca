// Field metadata that carries what a Parquet schema says beyond floe's types,
// so that a file read and written again keeps its schema
// (docs/decisions/0056-parquet-annotations-and-intervals.md):
//
//   PARQUET:logical_type   an annotation floe's type does not imply: ENUM,
//                          JSON, BSON, VARIANT, GEOMETRY, GEOGRAPHY, a time
//                          unit coarser than the type's (TIME(MILLIS,false),
//                          TIMESTAMP(MILLIS,true)), a TIME adjusted to UTC,
//                          FLOAT16, an explicit INTEGER(32,true).
//   PARQUET:physical_type  a physical type other than the writer's default for
//                          the floe type: INT96 timestamps, decimals in INT64,
//                          BYTE_ARRAY or a wider FIXED_LEN_BYTE_ARRAY, the
//                          physical type of an all-null (UNKNOWN) column.
//
// The reader (ParquetSchema) sets them on exactly the fields whose annotation
// the writer's default mapping (schema_writer.h) would not reproduce; the
// writer applies them, after checking that they fit the field's type.
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/columnar/data_type.h"
#include "floe/formats/parquet/metadata.h"

namespace floe::parquet {

inline constexpr std::string_view kLogicalTypeKey = "PARQUET:logical_type";
inline constexpr std::string_view kPhysicalTypeKey = "PARQUET:physical_type";

// A logical type as text, the way `floe parquet schema` prints it: the spec's
// name, with its parameters where it has any: "DECIMAL(18,2)",
// "TIME(MILLIS,true)", "TIMESTAMP(NANOS,false)", "INTEGER(8,true)",
// "VARIANT(1)", "GEOMETRY(crs=OGC:CRS84)",
// "GEOGRAPHY(algorithm=KARNEY, crs=EPSG:4326)" (the crs last: it is free text).
std::string LogicalTypeText(const LogicalType& type);
// The inverse of LogicalTypeText. InvalidArgument naming the text when it is
// not one.
Result<LogicalType> ParseLogicalType(std::string_view text);

// "INT96", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY(11)".
std::string PhysicalTypeText(Type type, int32_t type_length);
struct PhysicalTypeSpec {
  Type type = Type::INT32;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY only, 1 and up
};
// The inverse of PhysicalTypeText. InvalidArgument naming the text when it is not one.
Result<PhysicalTypeSpec> ParsePhysicalType(std::string_view text);

// The value of `key` in `metadata`, if present.
std::optional<std::string_view> FindMetadata(const KeyValueMetadata& metadata, std::string_view key);

}  // namespace floe::parquet
