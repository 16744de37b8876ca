// Export and import of floe types, arrays, record batches and batch streams
// through the Arrow C Data Interface and C Stream Interface (the ABI structs
// are in c_data_interface.h), so that any Arrow implementation (pyarrow,
// DuckDB, Polars, arrow-rs, nanoarrow) can share floe's batches without a copy.
//
// Type mapping: every floe type has an Arrow format string (ArrowFormat()).
// uuid travels as "w:16" with the canonical extension metadata
// ARROW:extension:name=arrow.uuid; a field id as metadata PARQUET:field_id.
// A record batch is a non-nullable struct array ("+s") with one child per
// column and the batch's schema as its ArrowSchema. A dictionary travels as
// the spec lays one out: format "i" (its int32 indices) with the value type
// as the ArrowSchema's `dictionary` (not ordered) and the values as the
// ArrowArray's `dictionary`.
//
// Ownership, as the spec requires:
// - Export fills a caller-provided struct whose release callback owns shared
//   references to floe's buffers: the memory stays valid until the consumer
//   calls release (children are released with their parent, and may be moved
//   out first). Release may run on any thread. Export cannot fail.
// - Import MOVES the producer's struct (the source is marked released, its
//   release callback is not called) and calls the producer's release exactly
//   once, when the last floe Buffer over the imported memory is dropped -- or
//   before returning when the import fails. Every import consumes its input,
//   success or failure; passing an already released struct is InvalidArgument.
// - The C interface carries no buffer sizes: import trusts the producer's
//   pointers to span what length, offset and offsets imply, and checks
//   everything else: format strings, n_buffers and n_children for the type,
//   null buffers where data is required (InvalidArgument), and then the whole
//   layout with Array::Validate (Corrupt). Buffers not aligned for their C
//   type are copied into aligned memory. Arrow types floe does not model
//   (e.g. "U", "+L", "tss:"), and dictionaries with indices other than int32
//   or values other than string and binary, are Unsupported.
//
// Thread safety: the functions are reentrant; a struct is used by one thread
// at a time (a stream's callbacks too).

#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/array.h"
#include "floe/columnar/c_data_interface.h"
#include "floe/columnar/data_type.h"
#include "floe/columnar/record_batch.h"

namespace floe {

// The Arrow format string of `type`: "l", "d:18,2", "tsu:UTC", "w:16", "+l", ...
// (a dictionary's is its indices', "i").
std::string ArrowFormat(const DataType& type);

// The floe type of an Arrow format string. Nested formats take their child
// fields from `children` ("+l" one, "+m" one non-null struct of key and value,
// "+s" any number); other formats take none. InvalidArgument for a malformed
// string or wrong children, Unsupported for a valid Arrow type floe does not
// model. Never reads past `format`; safe on any input.
Result<TypePtr> ParseArrowFormat(std::string_view format, std::vector<Field> children = {},
                                 bool map_keys_sorted = false);

// Fill `out` (which must not hold a live struct) with the schema of a type
// (name "", nullable), a field, or a record batch schema ("+s" whose children
// are the fields, carrying the schema metadata).
void ExportType(const DataType& type, ArrowSchema* out);
void ExportField(const Field& field, ArrowSchema* out);
void ExportSchema(const Schema& schema, ArrowSchema* out);

// Fill `out` with `array`, sharing its buffers (a slice keeps its offset).
void ExportArray(const Array& array, ArrowArray* out);
// Fill `out_array` with `batch` as a struct array and, when `out_schema` is
// not null, `out_schema` with its schema.
void ExportRecordBatch(const RecordBatch& batch, ArrowArray* out_array, ArrowSchema* out_schema = nullptr);

// Fill `out` with a stream that pulls batches from `reader`, which it owns
// until released. get_next reports a reader error as an errno value (EINVAL
// for InvalidArgument and Corrupt, ENOSYS for Unsupported, EIO otherwise)
// with the Status text from get_last_error.
void ExportRecordBatchReader(std::unique_ptr<RecordBatchReader> reader, ArrowArrayStream* out);

// Import a schema; consumes (releases) `schema`. ImportType reads the format
// and children of the top level; ImportField also its name, nullability,
// metadata and field id; ImportSchema requires a struct ("+s") and returns its
// children as fields, with its metadata.
Result<TypePtr> ImportType(ArrowSchema* schema);
Result<Field> ImportField(ArrowSchema* schema);
Result<Schema> ImportSchema(ArrowSchema* schema);

// Import an array of `type`, or of the type `schema` describes (consuming
// both). The result is validated.
Result<Array> ImportArray(ArrowArray* array, const TypePtr& type);
Result<Array> ImportArray(ArrowArray* array, ArrowSchema* schema);

// Import a record batch: a struct array without nulls whose children are the
// columns. Consumes `array` (and `schema`).
Result<RecordBatch> ImportRecordBatch(ArrowArray* array, std::shared_ptr<const Schema> schema);
Result<RecordBatch> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema);

// A reader over an Arrow stream; moves `stream` (marking it released) and
// releases it when the reader is destroyed. The schema is read here (its
// failure is returned); each Next() imports one batch. A producer error
// becomes InvalidArgument (EINVAL), Unsupported (ENOSYS), Internal (ENOMEM)
// or IOError (other codes), with the producer's get_last_error text.
Result<std::unique_ptr<RecordBatchReader>> ImportArrayStream(ArrowArrayStream* stream);

}  // namespace floe
