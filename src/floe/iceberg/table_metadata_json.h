// Table metadata JSON (spec: "Table Metadata" and "Appendix C: JSON
// serialization"), format versions 1 to 3, read and written.
//
// Reading applies each version's rules: v1's legacy `schema`,
// `partition-spec` (field ids assigned from 1000 when absent) and derived
// `last-partition-id` are accepted when the newer lists are absent, and v2+
// files must carry `schemas`, `partition-specs`, `last-partition-id`,
// `sort-orders`, `last-sequence-number` and `table-uuid`; v3 files
// `next-row-id`. `current-snapshot-id` -1 (or absent) means no current
// snapshot. Without `refs`, a current snapshot implies the `main` branch (as
// Java reads old files). Unknown top-level keys are ignored.
//
// Errors: Unsupported for a format version above 3; Corrupt, one line naming
// the file and the field, for everything else wrong with the bytes:
// `table metadata 'x.json': field 'last-column-id' is missing`.
//
// Thread safety: free functions; they share nothing.

#pragma once

#include <simdjson.h>

#include <map>
#include <string>
#include <string_view>

#include "floe/base/json_writer.h"
#include "floe/base/result.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

// Parses and validates (TableMetadata::Validate) one metadata document.
// `name` (the file's location, or empty) is used in error messages only.
Result<TableMetadata> TableMetadataFromJson(std::string_view json, std::string_view name = "");

struct TableMetadataJsonOptions {
  bool pretty = false;  // two-space indentation, as Java writes
};

// Serializes `metadata` in the form its format version prescribes (v1 also
// writes the legacy `schema` and `partition-spec`, as Java does).
// InvalidArgument when the metadata does not validate; nothing is written.
Result<std::string> TableMetadataToJson(const TableMetadata& metadata, const TableMetadataJsonOptions& options = {});

// The parts of a metadata document on their own, for the REST catalog's
// messages (catalog/rest/), which carry snapshots, refs and statistics files
// in the same JSON form. Readers return Corrupt naming the field by `path`.
namespace internal {
// The whole document (not validated against a file name; Validate()d).
Result<TableMetadata> ReadTableMetadata(simdjson::dom::element root);
// `format_version` 1 makes `sequence-number`, `manifest-list` and `summary`
// optional, as v1 files have them.
Result<Snapshot> ReadSnapshot(simdjson::dom::element e, const std::string& path, int format_version);
Result<SnapshotRef> ReadRef(simdjson::dom::element e, const std::string& path);
Result<StatisticsFile> ReadStatisticsFile(simdjson::dom::element e, const std::string& path);
Result<PartitionStatisticsFile> ReadPartitionStatisticsFile(simdjson::dom::element e, const std::string& path);
Result<EncryptedKey> ReadEncryptedKey(simdjson::dom::element e, const std::string& path);

void WriteStringMap(JsonWriter& w, const std::map<std::string, std::string>& map);
// `sequence-number` is written from format version 2.
void WriteSnapshot(JsonWriter& w, const Snapshot& snapshot, int format_version);
void WriteRef(JsonWriter& w, const SnapshotRef& ref);
void WriteStatisticsFile(JsonWriter& w, const StatisticsFile& file);
void WritePartitionStatisticsFile(JsonWriter& w, const PartitionStatisticsFile& file);
void WriteEncryptedKey(JsonWriter& w, const EncryptedKey& key);
}  // namespace internal

}  // namespace floe::iceberg
