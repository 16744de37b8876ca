// View metadata JSON (apache/iceberg format/view-spec.md), read and written.
//
// Reading is strict: every required field must be there with its type
// (`view-uuid`, `format-version` 1, `location`, `schemas`,
// `current-version-id`, `versions`, `version-log`; per version `version-id`,
// `schema-id`, `timestamp-ms`, `summary`, `representations`,
// `default-namespace`), and the result must validate
// (ViewMetadata::Validate). Representations of a type other than "sql" are
// kept verbatim. Unknown keys are ignored.
//
// Errors: Unsupported for a format version above 1; Corrupt, one line naming
// the file and the field, for everything else:
// `view metadata 'v.json': field 'versions[0].representations' is missing`.
//
// Thread safety: free functions; they share nothing.

#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "floe/base/json_writer.h"
#include "floe/base/result.h"
#include "floe/iceberg/view_metadata.h"

namespace floe::iceberg {

// Parses and validates one view metadata document. `name` (the file's
// location, or empty) is used in error messages only.
Result<ViewMetadata> ViewMetadataFromJson(std::string_view json, std::string_view name = "");

// Serializes `metadata`; Corrupt (nothing written) when it does not validate.
Result<std::string> ViewMetadataToJson(const ViewMetadata& metadata, bool pretty = false);

// One view version object, as the REST add-view-version update carries it
// (its schema-id may be -1 there).
Result<ViewVersion> ViewVersionFromJson(std::string_view json);
void WriteViewVersion(JsonWriter& w, const ViewVersion& version);

namespace internal {
Result<ViewVersion> ReadViewVersion(simdjson::dom::element e, const std::string& path);
// The whole document, Validate()d; errors as ViewMetadataFromJson's, without
// the file's name (for messages that embed view metadata).
Result<ViewMetadata> ReadViewMetadata(simdjson::dom::element root);
}  // namespace internal

}  // namespace floe::iceberg
