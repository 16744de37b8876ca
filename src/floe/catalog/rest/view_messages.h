// The Iceberg REST catalog's view messages (spec: rest-catalog-open-api.yaml,
// components CreateViewRequest, LoadViewResult, CommitViewRequest), shared
// by floe's REST server and REST client, with the conventions of
// rest_messages.h: strict parsers returning one InvalidArgument line naming
// the message and the field, writers emitting every required field.
//
// The view routes reuse two table messages (rest_messages.h): listViews
// answers a ListTablesResponse, renameView takes a RenameTableRequest.
//
// Thread safety: plain values and free functions.

#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"
#include "floe/iceberg/view_metadata.h"
#include "floe/iceberg/view_update.h"

namespace floe::catalog::rest {

// POST /v1/{prefix}/namespaces/{namespace}/views. Every field but
// "location" is required ("properties" too, as the spec says).
struct CreateViewRequest {
  std::string name;
  catalog::CreateViewRequest view;  // schema, view-version, location, properties
};
Result<CreateViewRequest> ParseCreateViewRequest(std::string_view json);
std::string ToJson(const CreateViewRequest& request);

// LoadViewResult: the answer to create, load and replace. The metadata is
// read and validated as a view metadata file is (iceberg/view_metadata_json.h).
struct LoadViewResult {
  std::string metadata_location;
  iceberg::ViewMetadata metadata;
  Properties config;
};
Result<LoadViewResult> ParseLoadViewResult(std::string_view json);
// InvalidArgument when the metadata does not validate.
Result<std::string> ToJson(const LoadViewResult& result);

// POST /v1/{prefix}/namespaces/{namespace}/views/{view}: replaceView.
// "requirements" may be absent (none); "updates" is required.
struct CommitViewRequest {
  std::optional<TableIdentifier> identifier;
  std::vector<iceberg::ViewRequirement> requirements;
  std::vector<iceberg::ViewUpdate> updates;
};
Result<CommitViewRequest> ParseCommitViewRequest(std::string_view json);
std::string ToJson(const CommitViewRequest& request);

}  // namespace floe::catalog::rest
