// A variant as JSON text, for people and for JSON tools: how `floe parquet
// cat` prints a VARIANT column.
//
// The Variant spec defines no JSON form, so this follows the values floe
// prints everywhere else (columnar/batch_printer.h) and, for binary,
// parquet-testing's variant/data_dictionary.json: Base64, where the batch
// printer's binary columns print as hex:
//   null, true, false; integers as numbers; decimals as numbers with their
//   exact digits and scale (12.34, -0.05); float and double as numbers in
//   their shortest round-trip form, NaN and the infinities as the strings
//   "NaN", "Infinity", "-Infinity"; strings as strings; binary as a Base64
//   string (RFC 4648, padded); uuid "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
//   date "YYYY-MM-DD"; time "HH:MM:SS.ffffff"; timestamps
//   "YYYY-MM-DDTHH:MM:SS.ffffff" (9 fraction digits for nanos), ending in
//   "+00:00" when adjusted to UTC; objects as objects in the variant's field
//   order (sorted by name); arrays as arrays.
// The output is always valid JSON (strings escaped per RFC 8259, invalid
// UTF-8 replaced by U+FFFD). Kinds that share a JSON form (int8 and int64,
// a date and a string) print alike: this is for reading, not a round trip.
//
// Thread safety: pure functions.

#pragma once

#include <string>

#include "floe/base/result.h"
#include "floe/columnar/array.h"
#include "floe/formats/parquet/variant/variant_value.h"

namespace floe::parquet {

// Appends `value`'s JSON text to *out.
void AppendVariantJson(const VariantValue& value, std::string* out);
std::string VariantToJson(const VariantValue& value);

// A variant column as floe's reader gives it (variant_shredding.h: a struct
// of metadata, value and typed_value) to a string column of each row's JSON
// text, rebuilt from its shredded parts; a null variant is null. The
// result's length equals `column`'s. Errors as UnshredVariant's, naming the
// row, counted from `first_row` (the column's first row in its file).
Result<Array> VariantColumnToJson(const Array& column, int64_t first_row = 0);

// Variants anywhere in a column: a top-level one, a struct's field, a list's
// items, a map's values, at any depth.
//
// Whether `field` is a variant as floe's reader gives one: a struct whose
// file annotates it VARIANT (field metadata PARQUET:logical_type, schema.cc).
bool IsVariantField(const Field& field);
// Whether `field` is a variant or holds one at any depth.
bool HoldsVariant(const Field& field);
// `field` with each variant in it a JSON-text string field (data_type.h:
// MarkJsonText) of the same name, nullability and field id; the rest as it
// was.
Field VariantsAsJsonField(const Field& field);
// `column`, of `field`'s type, as VariantsAsJsonField(field)'s type: each
// variant in it as its JSON text (VariantColumnToJson), the rest shared with
// `column` or copied around it. Errors as VariantColumnToJson's, naming a
// nested variant's path ("s.tags.element") and the row of `column` it is in,
// counted from `first_row`.
Result<Array> VariantsAsJson(const Field& field, const Array& column, int64_t first_row = 0);

}  // namespace floe::parquet
