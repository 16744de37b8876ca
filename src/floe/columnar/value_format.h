// Rendering of single values as text and as JSON, shared by the batch
// printer's formats (batch_printer.h documents the rendering users see) and
// by the other layers that print values the same way: statistics and
// variants (formats/parquet/), Iceberg literals, Avro defaults.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/columnar/array.h"
#include "floe/columnar/data_type.h"

namespace floe::value_format {

// The unscaled `value` with `scale` digits after the point: -5, 2 -> "-0.05".
void AppendDecimal(Decimal128Value value, int32_t scale, std::string* out);
// days since 1970-01-01 -> "YYYY-MM-DD" (negative years as "-0044").
void AppendDate(int64_t days, std::string* out);
// time of day -> "HH:MM:SS.ffffff" (micros) or 9 fraction digits (nanos).
void AppendTime(int64_t value, TimeUnit unit, std::string* out);
// instant -> "YYYY-MM-DDTHH:MM:SS.ffffff[+00:00]".
void AppendTimestamp(int64_t value, TimeUnit unit, bool with_zone, std::string* out);
// An interval as PostgreSQL and DuckDB print one: "1 year 2 months 3 days
// 04:05:06.789", each part with its own sign ("-1 day -00:00:01.5"), the
// clock only when non-zero or alone ("00:00:00"), hours not folded into days.
void AppendInterval(const MonthDayNano& value, std::string* out);
// 16 bytes -> "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
void AppendUuid(std::string_view bytes, std::string* out);
// Shortest round-trip digits; NaN, Infinity, -Infinity as words.
void AppendFloat(double value, std::string* out);
void AppendFloat(float value, std::string* out);

// `bytes` as a JSON string (RFC 8259): quoted; '"', '\\' and control
// characters escaped; valid UTF-8 kept; each invalid byte becomes U+FFFD.
void AppendJsonString(std::string_view bytes, std::string* out);

// The length of the valid UTF-8 sequence at s[0], or 0 when it is invalid.
int Utf8SequenceLength(std::string_view s);

// Whether `text` is exactly one JSON value (RFC 8259's grammar, whitespace
// around it allowed) in valid UTF-8. Any depth: the check does not recurse.
bool IsJsonText(std::string_view text);
// `text` (a JSON-text field's value, data_type.h) into JSON output: when
// IsJsonText, as it is without the whitespace between its tokens (so it
// stays on one line); else as a JSON string, so that the output stays JSON.
void AppendJsonText(std::string_view text, std::string* out);

// Element `i` of `data` (a logical index, valid as layout::IsNullAt tells)
// as JSON: numbers, true/false, strings (dates, times, uuids, binary as hex),
// arrays (lists), objects (structs; maps with string keys), or arrays of
// {"key","value"} (other maps), null for null items inside them. Non-finite
// floats become the strings "NaN", "Infinity", "-Infinity". A dictionary
// element is rendered as the value it refers to. A struct field, list item
// or map value that is a JSON-text field is embedded (AppendJsonText).
void AppendJson(const ArrayData& data, int64_t i, std::string* out);

// Element `i` (valid) as plain text for table and CSV cells: scalars as
// AppendJson's without quotes (strings raw, floats' non-finite values as
// words), nested values as their compact JSON.
void AppendText(const ArrayData& data, int64_t i, std::string* out);

}  // namespace floe::value_format
