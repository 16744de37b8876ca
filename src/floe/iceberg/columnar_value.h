// One element of a columnar array as an Iceberg Literal: the bridge from
// batches (what readers produce and writers take) to the value model of
// partition transforms, sort keys and row-level expression fallbacks.
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <optional>

#include "floe/columnar/array.h"
#include "floe/iceberg/literal.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg {

// Element `row` of `array`, whose columnar type is ToColumnarType(*type), as
// a Literal of `type`; nullopt for a null element, and for nested or
// semi-structured types, which have no single Literal.
std::optional<Literal> LiteralAt(const Array& array, int64_t row, const TypePtr& type);

}  // namespace floe::iceberg
