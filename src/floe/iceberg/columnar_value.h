// One element of a columnar array as an Iceberg Literal: the bridge from
// batches (what readers produce and writers take) to the value model of
// partition transforms, sort keys and row-level expression fallbacks.
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "floe/columnar/array.h"
#include "floe/iceberg/literal.h"

namespace floe::iceberg {

// Element `row` of `array` as a Literal of the Iceberg type its columnar
// type stands for (the inverse of ToColumnarType: int8/16/32 -> int, int64
// -> long, float32/64, decimal128 -> decimal(p, s), date32 -> date, time64
// -> time (nanoseconds floored to micros), timestamp -> timestamp[tz][_ns]
// by unit and zone, utf8 -> string, binary, fixed_size_binary -> fixed,
// uuid). nullopt for a null element and for nested or unsigned types.
// Variant and geo columns are binary here, so they read as binary values. A
// dictionary element reads as the value it refers to.
std::optional<Literal> LiteralAt(const Array& array, int64_t row);

// Element `row` of a string or binary array, or of a dictionary of them, as
// its bytes (a view into the array); nullopt for a null element (a
// dictionary's also when its value is null) and for other types.
std::optional<std::string_view> BytesAt(const Array& array, int64_t row);

}  // namespace floe::iceberg
