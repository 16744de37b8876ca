// A field's default value (spec: "Default values"; v3 `initial-default` and
// `write-default`) as a Literal, from the JSON single-value serialization
// the schema keeps verbatim (NestedField::initial_default).
//
// spec: "initial-default: the value to use when reading the field from data
// files that were written before the field was added". Readers use it for
// every field a data file lacks (scan/column_projection.h).
//
// Thread safety: pure functions.

#pragma once

#include <optional>
#include <string_view>

#include "floe/base/result.h"
#include "floe/iceberg/literal.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg {

// The value of `json` (JSON single-value form: booleans and numbers bare;
// decimals, dates, times, timestamps, strings and uuids as JSON strings;
// fixed and binary as hex strings) for a primitive `type`; nullopt for JSON
// null. Corrupt naming the text and type when it is not such a value;
// Unsupported for nested types (their defaults are applied field by field).
Result<std::optional<Literal>> ParseDefaultValue(const TypePtr& type, std::string_view json);

}  // namespace floe::iceberg
