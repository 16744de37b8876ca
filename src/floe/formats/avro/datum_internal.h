// Internal to formats/avro: helpers shared by the generic datum decoder and
// the resolving reader.

#pragma once

#include <cstddef>
#include <cstdint>

#include "floe/base/result.h"
#include "floe/formats/avro/binary.h"
#include "floe/formats/avro/datum.h"
#include "floe/formats/avro/schema.h"

namespace floe::avro::internal {

// Arrays of a type that encodes in zero bytes (null, empty records) cannot be
// bounded by the bytes left; they are capped at this many items.
inline constexpr int64_t kMaxZeroSizeItems = int64_t{1} << 20;

// The fewest bytes any value of `n` encodes to (a lower bound).
size_t MinEncodedBytes(const Node& n, int depth);

// Corrupt when `count` more items (after `total`) cannot be real.
Status CheckItemCount(const Node& item, int64_t count, int64_t total, const Decoder& d);

// SkipDatum with a starting depth.
Status Skip(const Node& n, Decoder* d, int depth);

}  // namespace floe::avro::internal

namespace floe::avro::internal {

// DecodeDatum with a starting depth.
Status Decode(const Node& n, Decoder* d, Datum* out, int depth);

}  // namespace floe::avro::internal
