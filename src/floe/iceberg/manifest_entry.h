// DataFile and ManifestEntry: the rows of a manifest (spec: "Manifests",
// "Manifest Entry Fields", "Data File Fields"), v1–v3.
//
// A DataFile describes one data file, position/equality delete file or
// deletion vector with its partition tuple and column metrics. Metrics maps
// are keyed by field id; bounds hold the Appendix D single-value bytes
// (Literal::ToBytes), possibly truncated for strings and binary. Reading and
// writing manifests lives in manifest_reader.h / manifest_writer.h.
//
// Thread safety: plain values.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/iceberg/literal.h"

namespace floe::iceberg {

// spec: data_file.content.
enum class DataFileContent : int32_t { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };

// spec: manifest_entry.status.
enum class ManifestEntryStatus : int32_t { kExisting = 0, kAdded = 1, kDeleted = 2 };

// spec: data_file.file_format, as written ("PARQUET", "AVRO", "ORC", "PUFFIN").
inline constexpr std::string_view kFileFormatParquet = "PARQUET";
inline constexpr std::string_view kFileFormatAvro = "AVRO";
inline constexpr std::string_view kFileFormatOrc = "ORC";
inline constexpr std::string_view kFileFormatPuffin = "PUFFIN";

// One partition tuple: a value per field of the partition spec, in the
// spec's field order; nullopt is a null partition value.
using PartitionValues = std::vector<std::optional<Literal>>;

struct DataFile {
  DataFileContent content = DataFileContent::kData;
  std::string file_path;
  std::string file_format{kFileFormatParquet};
  // The id of the partition spec the file was written with (not stored in
  // the file's manifest entry: it is the manifest's spec id).
  int32_t spec_id = 0;
  PartitionValues partition;
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  std::map<int32_t, int64_t> column_sizes;
  std::map<int32_t, int64_t> value_counts;
  std::map<int32_t, int64_t> null_value_counts;
  std::map<int32_t, int64_t> nan_value_counts;
  std::map<int32_t, std::string> lower_bounds;
  std::map<int32_t, std::string> upper_bounds;
  std::optional<std::string> key_metadata;
  std::vector<int64_t> split_offsets;
  std::vector<int32_t> equality_ids;  // equality delete files only
  std::optional<int32_t> sort_order_id;
  // v3 row lineage: the first row id of the file's rows (null: inherit).
  std::optional<int64_t> first_row_id;
  // v3: the data file a position delete file or DV applies to.
  std::optional<std::string> referenced_data_file;
  // v3 deletion vectors: the blob's place in its Puffin file.
  std::optional<int64_t> content_offset;
  std::optional<int64_t> content_size_in_bytes;

  bool is_deletion_vector() const {
    return content == DataFileContent::kPositionDeletes && file_format == kFileFormatPuffin;
  }
  bool operator==(const DataFile&) const = default;
};

struct ManifestEntry {
  ManifestEntryStatus status = ManifestEntryStatus::kAdded;
  // Null in a written entry means "inherit from the manifest list" (spec:
  // "Sequence Number Inheritance"); readers fill them in, so after reading
  // they are set except in v1, where sequence numbers are 0.
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> sequence_number;       // the data sequence number
  std::optional<int64_t> file_sequence_number;  // v2+
  DataFile data_file;

  bool is_live() const { return status != ManifestEntryStatus::kDeleted; }
  bool operator==(const ManifestEntry&) const = default;
};

}  // namespace floe::iceberg
