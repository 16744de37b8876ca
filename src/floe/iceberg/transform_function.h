// Applying partition transforms to values (spec: "Partition Transforms",
// "Appendix B: 32-bit Hash Requirements"), and the human-readable partition
// path a data file is written under.
//
// Results follow the spec: bucket[N] → int in [0, N); truncate[W] → the
// source type; year/month/hour → int (years, months, hours from 1970-01-01
// 00:00, floored for earlier times); day → date; identity → the value; void
// → null. A null input gives a null output.
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/iceberg/literal.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"
#include "floe/iceberg/transform.h"

namespace floe::iceberg {

// 32-bit Murmur3, x86 variant, seed 0, over `bytes`.
int32_t Murmur3Hash32(std::string_view bytes);

// The spec's bucket hash of `value` (Appendix B): ints and longs hash as the
// 8-byte little-endian long (so promotion keeps buckets), dates as that of
// their day number, times and timestamps as their microseconds (nanosecond
// timestamps are floored to microseconds first, so promoting a column keeps
// its buckets), decimals as the minimal big-endian unscaled bytes, strings
// as UTF-8, uuid/fixed/binary as their bytes; booleans, floats and doubles
// as the spec's table for types not valid for bucketing.
int32_t BucketHash(const Literal& value);

// bucket[N] of a value: (BucketHash & INT32_MAX) % N.
int32_t BucketOf(const Literal& value, int32_t num_buckets);

// Applies `transform` to `value` (of the source column's type). Null in,
// null out; void always gives null. InvalidArgument when the transform does
// not apply to the value's type; Unsupported for unknown transforms.
Result<std::optional<Literal>> ApplyTransform(const Transform& transform, const std::optional<Literal>& value);

// The transform of a partition value as text, as Java's
// Transform.toHumanString writes it: year "2026", month "2026-10", day
// "2026-10-21", hour "2026-10-21-20", identity/truncate the value's text,
// bucket the number; null → "null".
std::string PartitionValueToHumanString(const Transform& transform, const std::optional<Literal>& value);

// The partition's relative path: "name=value/name=value", each name and
// value escaped the way URL form encoding does (Java uses URLEncoder), so a
// value with '/' or '=' or spaces stays one path segment. Empty for an
// unpartitioned spec. `values` holds one entry per spec field.
std::string PartitionPath(const PartitionSpec& spec, const PartitionValues& values);

// Percent-encodes `text` as application/x-www-form-urlencoded does: letters,
// digits and ".-*_" stay, a space becomes '+', everything else %XX of its
// UTF-8 bytes.
std::string UrlFormEncode(std::string_view text);

// The partition tuple of one row: the spec's transforms applied to the
// source values found by `source_value(field_id)` (nullopt for a null or
// missing value). InvalidArgument/Unsupported as ApplyTransform.
template <typename SourceValueFn>
Result<PartitionValues> PartitionTuple(const PartitionSpec& spec, SourceValueFn&& source_value) {
  PartitionValues tuple;
  tuple.reserve(spec.fields.size());
  for (const auto& field : spec.fields) {
    FLOE_ASSIGN_OR_RETURN(auto value, ApplyTransform(field.transform, source_value(field.source_id())));
    tuple.push_back(std::move(value));
  }
  return tuple;
}

// Floor division helpers for time transforms (exposed for vectorised
// callers that transform columns without Literals).
int32_t YearsFromEpochDays(int32_t days);
int32_t MonthsFromEpochDays(int32_t days);
int64_t FloorDiv(int64_t value, int64_t divisor);

}  // namespace floe::iceberg
