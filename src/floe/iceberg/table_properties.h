// Table property names floe's commit path reads, with Java's defaults
// (org.apache.iceberg.TableProperties), so a table behaves the same whoever
// commits to it.
//
// Thread safety: constants and pure functions.

#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "floe/base/result.h"

namespace floe::iceberg {

// "none" or "gzip": how new metadata files are compressed.
inline constexpr std::string_view kMetadataCompression = "write.metadata.compression-codec";
inline constexpr std::string_view kMetadataCompressionDefault = "none";
// Where metadata files go instead of <table location>/metadata.
inline constexpr std::string_view kWriteMetadataPath = "write.metadata.path";
// Delete metadata files that drop out of the metadata log after a commit.
inline constexpr std::string_view kMetadataDeleteAfterCommit = "write.metadata.delete-after-commit.enabled";
inline constexpr bool kMetadataDeleteAfterCommitDefault = false;
// How many previous metadata files the metadata log keeps.
inline constexpr std::string_view kMetadataPreviousVersionsMax = "write.metadata.previous-versions-max";
inline constexpr int32_t kMetadataPreviousVersionsMaxDefault = 100;
// The Parquet codec of new data files; new tables get zstd, as Java's do.
inline constexpr std::string_view kParquetCompression = "write.parquet.compression-codec";
inline constexpr std::string_view kParquetCompressionNewTableDefault = "zstd";
// How a commit whose answer was lost learns its outcome (Java's
// commit.status-check.*): reads of the catalog that fail are retried this many
// times, waiting from min-wait doubling up to max-wait.
inline constexpr std::string_view kCommitStatusCheckNumRetries = "commit.status-check.num-retries";
inline constexpr int32_t kCommitStatusCheckNumRetriesDefault = 3;
inline constexpr std::string_view kCommitStatusCheckMinWaitMs = "commit.status-check.min-wait-ms";
inline constexpr int32_t kCommitStatusCheckMinWaitMsDefault = 1000;
inline constexpr std::string_view kCommitStatusCheckMaxWaitMs = "commit.status-check.max-wait-ms";
inline constexpr int32_t kCommitStatusCheckMaxWaitMsDefault = 60'000;
// Scan planning (Java's TableProperties.SPLIT_*): the byte size of a
// combined scan task, the weight of opening a file, and how many open bins
// the bin packing looks back at.
inline constexpr std::string_view kSplitSize = "read.split.target-size";
inline constexpr int64_t kSplitSizeDefault = int64_t{128} * 1024 * 1024;
inline constexpr std::string_view kSplitOpenFileCost = "read.split.open-file-cost";
inline constexpr int64_t kSplitOpenFileCostDefault = int64_t{4} * 1024 * 1024;
inline constexpr std::string_view kSplitLookback = "read.split.planning-lookback";
inline constexpr int32_t kSplitLookbackDefault = 10;
// Snapshot expiry defaults (Java's history.expire.*): the oldest snapshot
// age a branch keeps, the fewest snapshots it keeps, the oldest a ref may
// be (unlimited by default).
inline constexpr std::string_view kMaxSnapshotAgeMs = "history.expire.max-snapshot-age-ms";
inline constexpr int64_t kMaxSnapshotAgeMsDefault = int64_t{5} * 24 * 3600 * 1000;
inline constexpr std::string_view kMinSnapshotsToKeep = "history.expire.min-snapshots-to-keep";
inline constexpr int32_t kMinSnapshotsToKeepDefault = 1;
inline constexpr std::string_view kMaxRefAgeMs = "history.expire.max-ref-age-ms";
inline constexpr int64_t kMaxRefAgeMsDefault = INT64_MAX;
// Asks for a format version at create time; never stored (reserved).
inline constexpr std::string_view kFormatVersionProperty = "format-version";

// The property's value as an int32, or `fallback` when absent.
// InvalidArgument naming the property and value when it is not an integer.
Result<int32_t> IntProperty(const std::map<std::string, std::string>& properties, std::string_view key,
                            int32_t fallback);

// The property's value as an int64, or `fallback` when absent.
// InvalidArgument naming the property and value when it is not an integer.
Result<int64_t> LongProperty(const std::map<std::string, std::string>& properties, std::string_view key,
                             int64_t fallback);

// The property's value as a boolean, or `fallback` when absent. As Java's
// Boolean.parseBoolean: "true" in any case is true, anything else false.
bool BoolProperty(const std::map<std::string, std::string>& properties, std::string_view key, bool fallback);

}  // namespace floe::iceberg
