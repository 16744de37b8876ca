// The metadata layout of the Arrow C Data Interface and the metadata keys
// floe gives meaning to (internal to columnar/).
//
// spec: "int32: number of key/value pairs (noted N below); then for each pair
// int32: byte length of key, key (not null-terminated), int32: byte length of
// value, value (not null-terminated)", native endian.

#pragma once

#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/columnar/data_type.h"

namespace floe::c_data {

inline constexpr std::string_view kFieldIdKey = "PARQUET:field_id";
inline constexpr std::string_view kExtensionNameKey = "ARROW:extension:name";
inline constexpr std::string_view kExtensionMetadataKey = "ARROW:extension:metadata";
inline constexpr std::string_view kUuidExtensionName = "arrow.uuid";
// Arrow's canonical JSON extension on string storage (data_type.h, IsJsonTextField).
inline constexpr std::string_view kJsonExtensionName = "arrow.json";

// The encoded metadata; empty when there are no pairs (exported as NULL).
std::string EncodeMetadata(const KeyValueMetadata& metadata);

// Decodes the metadata at `bytes` (may be null: no metadata). The layout has
// no total size, so the producer is trusted for the extent; counts and
// lengths are checked (negative or above 2^24 pairs / 2^30 bytes:
// InvalidArgument).
Result<KeyValueMetadata> DecodeMetadata(const char* bytes);

}  // namespace floe::c_data
