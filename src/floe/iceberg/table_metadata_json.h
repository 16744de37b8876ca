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

#include <string>
#include <string_view>

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

}  // namespace floe::iceberg
