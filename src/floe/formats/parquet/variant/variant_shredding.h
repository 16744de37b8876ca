// Rebuilding a shredded Variant (spec: parquet-format VariantShredding.md,
// "Reconstructing a Shredded Variant") from the columns floe's reader gives
// for a variant group: a struct of a binary `metadata`, an optional binary
// `value` and an optional `typed_value` — a primitive column, a list of
// {value, typed_value} elements, or a struct of {value, typed_value} fields.
// Fields are found by name, as the spec requires.
//
// Thread safety: pure functions over immutable arrays.

#pragma once

#include <cstdint>
#include <optional>

#include "floe/base/result.h"
#include "floe/columnar/array.h"
#include "floe/formats/parquet/variant/variant_value.h"

namespace floe::parquet {

// The variant at `row` of `column`; nullopt when the variant itself is null.
// A variant or array element whose value and typed_value are both null is
// the Variant null (the spec's rule for a missing value where one is
// required); such an object field is missing, left out of its object.
// InvalidArgument when `column` is not shaped as above; Corrupt for what the
// spec calls invalid: a typed_value beside a value that is not a partially
// shredded object ("conflicting value and typed_value", "non-object value
// with shredded fields"), a field both shredded and in `value`, or bad
// metadata / value bytes (variant_decoder.h);
// Unsupported for a typed_value of a type the spec's "Shredded Value Types"
// table does not list (unsigned integers, fixed-size binary other than
// uuid, time in nanoseconds, ...).
Result<std::optional<VariantValue>> UnshredVariant(const Array& column, int64_t row);

}  // namespace floe::parquet
