// The JSON forms of iceberg::ViewUpdate ("action" discriminator) and
// iceberg::ViewRequirement ("type" discriminator), as the Iceberg REST
// catalog's CommitViewRequest carries them (spec: rest-catalog-open-api.yaml,
// components ViewUpdate and ViewRequirement). Shared by the REST server and
// the REST client.
//
// The actions a view shares with tables (assign-uuid, upgrade-format-version,
// add-schema, set-location, set-properties, remove-properties) are read and
// written by table_changes_json.h, so both kinds of commit spell them alike;
// add-view-version carries a view version (iceberg/view_metadata_json.h),
// set-current-view-version its id (-1: the one added last).
//
// Reading is strict, as table_changes_json.h: an action that is not a view
// update (a table's "add-snapshot" too), an unknown requirement type, a
// missing or mistyped field is InvalidArgument with one line naming the
// field's path: "field 'updates[0].action' is \"add-snapshot\", not a view
// update action".
//
// Thread safety: free functions on values. The element readers use a
// document owned by the caller's simdjson parser, on the caller's thread.

#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "floe/base/json_writer.h"
#include "floe/base/result.h"
#include "floe/iceberg/view_update.h"

namespace floe::catalog::rest {

// One update / requirement as a standalone JSON document.
Result<iceberg::ViewUpdate> ViewUpdateFromJson(std::string_view json);
std::string ViewUpdateToJson(const iceberg::ViewUpdate& update);
Result<iceberg::ViewRequirement> ViewRequirementFromJson(std::string_view json);
std::string ViewRequirementToJson(const iceberg::ViewRequirement& requirement);

// Streaming forms, for the messages that embed them.
void WriteViewUpdate(JsonWriter& w, const iceberg::ViewUpdate& update);
void WriteViewRequirement(JsonWriter& w, const iceberg::ViewRequirement& requirement);

namespace internal {
// Readers on a parsed element; `path` names it in errors ("updates[0]").
// Errors are InvalidArgument.
Result<iceberg::ViewUpdate> ReadViewUpdate(simdjson::dom::element e, const std::string& path);
Result<iceberg::ViewRequirement> ReadViewRequirement(simdjson::dom::element e, const std::string& path);
}  // namespace internal

}  // namespace floe::catalog::rest
