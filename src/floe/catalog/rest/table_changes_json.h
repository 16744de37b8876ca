// The JSON forms of iceberg::TableUpdate ("action" discriminator) and
// iceberg::TableRequirement ("type" discriminator), as the Iceberg REST
// catalog's CommitTableRequest carries them (spec: rest-catalog-open-api.yaml,
// components TableUpdate and TableRequirement). Shared by the REST server and
// the REST client; schemas, specs, sort orders, snapshots, refs and statistics
// files use the table-metadata JSON forms (iceberg/schema_json.h,
// iceberg/table_metadata_json.h).
//
// Reading is strict: an unknown action or type, a missing or mistyped field,
// or a value out of range is InvalidArgument with one line naming the field's
// path, e.g. "field 'updates[1].action' is \"add-foo\", not a known update
// action". The spec's add-encryption-key / remove-encryption-key actions are
// recognised and refused with Unsupported (floe's metadata builder does not
// apply them yet). Fields the spec marks deprecated (add-schema's
// last-column-id, set-statistics' snapshot-id) are accepted and ignored.
//
// Writing emits every field the spec requires, in the spec's names.
//
// Thread safety: free functions on values. The element readers use a
// document owned by the caller's simdjson parser, on the caller's thread.

#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

#include "floe/base/json_writer.h"
#include "floe/base/result.h"
#include "floe/iceberg/table_update.h"

namespace floe::catalog::rest {

// One update / requirement as a standalone JSON document.
Result<iceberg::TableUpdate> TableUpdateFromJson(std::string_view json);
std::string TableUpdateToJson(const iceberg::TableUpdate& update);
Result<iceberg::TableRequirement> TableRequirementFromJson(std::string_view json);
std::string TableRequirementToJson(const iceberg::TableRequirement& requirement);

// Streaming forms, for the messages that embed them.
void WriteTableUpdate(JsonWriter& w, const iceberg::TableUpdate& update);
void WriteTableRequirement(JsonWriter& w, const iceberg::TableRequirement& requirement);

namespace internal {
// Readers on a parsed element; `path` names it in errors ("updates[0]").
// Errors are InvalidArgument (Unsupported for the encryption-key actions).
Result<iceberg::TableUpdate> ReadTableUpdate(simdjson::dom::element e, const std::string& path);
Result<iceberg::TableRequirement> ReadTableRequirement(simdjson::dom::element e, const std::string& path);
}  // namespace internal

}  // namespace floe::catalog::rest
