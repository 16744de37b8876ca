// Column metrics of a data file from its Parquet footer (spec: "Manifests" —
// column_sizes, value_counts, null_value_counts, nan_value_counts,
// lower_bounds, upper_bounds), under the table's metrics configuration
// (`write.metadata.metrics.default` and `write.metadata.metrics.column.<name>`:
// none, counts, truncate(N), full; default truncate(16), as Java).
//
// Bounds are the Appendix D bytes of the smallest and largest non-null,
// non-NaN value over all row groups, converted from the Parquet statistics
// through the column's Iceberg type; truncated string and binary lower
// bounds are prefixes, upper bounds prefixes with the last character (byte)
// incremented, and dropped when no such bound exists. Columns inside lists
// and maps get counts only, as Java writes them; a row group without
// statistics for a column drops that column's bounds.
//
// Thread safety: pure functions; MetricsConfig is a plain value.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/formats/parquet/metadata.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/schema.h"

namespace floe::iceberg {

struct MetricsMode {
  enum class Kind : uint8_t { kNone, kCounts, kTruncate, kFull };
  Kind kind = Kind::kTruncate;
  int32_t length = 16;  // kTruncate only
  bool operator==(const MetricsMode&) const = default;

  // "none", "counts", "truncate(16)", "full"; InvalidArgument otherwise.
  static Result<MetricsMode> Parse(std::string_view text);
};

struct MetricsConfig {
  MetricsMode default_mode;
  std::map<std::string, MetricsMode> column_modes;  // by full dotted column name

  // From table properties. InvalidArgument naming the property for a bad mode.
  static Result<MetricsConfig> FromProperties(const std::map<std::string, std::string>& properties);
  const MetricsMode& ModeFor(const std::string& column_name) const;
};

// Fills record_count, column_sizes, value_counts, null_value_counts,
// nan_value_counts, lower_bounds, upper_bounds and split_offsets (row group
// starts) of `file` from `footer`, whose leaf columns carry the field ids
// of `schema`; leaf columns without a field id or unknown to the schema
// are skipped. Corrupt when a statistics value has the wrong size for its
// column.
Status FillParquetMetrics(const parquet::FileMetaData& footer, const Schema& schema, const MetricsConfig& config,
                          DataFile* file);

// The truncation rules, exposed for tests and for other writers.
// Where a row group starts in its file: its file_offset when positive, else
// its first column chunk's dictionary (or first data) page. These are the
// data file's split_offsets, and a scan split reads the row groups whose
// start lies inside it.
int64_t RowGroupStartOffset(const parquet::RowGroup& row_group);

std::string TruncateLowerBound(const Literal& value, int32_t length);
// nullopt when no upper bound of that length exists (e.g. all 0xff bytes).
std::optional<std::string> TruncateUpperBound(const Literal& value, int32_t length);

}  // namespace floe::iceberg
