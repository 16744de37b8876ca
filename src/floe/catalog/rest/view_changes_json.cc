#include "floe/catalog/rest/view_changes_json.h"

#include "floe/base/json_parse.h"
#include "floe/base/overloaded.h"
#include "floe/base/strings.h"
#include "floe/catalog/rest/table_changes_json.h"
#include "floe/iceberg/json_reader.h"
#include "floe/iceberg/view_metadata_json.h"

namespace floe::catalog::rest {

using iceberg::internal::JsonObject;
using iceberg::internal::JsonObjectReader;
using simdjson::dom::element;

namespace ib = iceberg;

namespace {

// The actions a view shares with tables, which table_changes_json reads.
bool IsSharedAction(std::string_view action) {
  return action == "assign-uuid" || action == "upgrade-format-version" || action == "add-schema" ||
         action == "set-location" || action == "set-properties" || action == "remove-properties";
}

Status AsInvalid(const Status& s) {
  if (s.ok() || !s.IsCorrupt()) return s;
  return Status::InvalidArgument(s.message());
}

// Moves `update` into `out` when it holds one of `Shared` (the actions views
// share with tables); false when it holds another.
template <typename... Shared>
bool MoveShared(ib::TableUpdate& update, ib::ViewUpdate* out) {
  return ((std::holds_alternative<Shared>(update) &&
           (out->template emplace<Shared>(std::move(std::get<Shared>(update))), true)) ||
          ...);
}

Result<ib::ViewUpdate> ReadUpdate(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  FLOE_ASSIGN_OR_RETURN(std::string action, obj.String("action"));
  if (action == "add-view-version") {
    FLOE_ASSIGN_OR_RETURN(element version, obj.Get("view-version"));
    auto v = ib::internal::ReadViewVersion(version, obj.PathOf("view-version"));
    if (!v.ok()) return AsInvalid(v.status());
    return ib::ViewUpdate{ib::AddViewVersion{std::move(*v)}};
  }
  if (action == "set-current-view-version") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, obj.Int32("view-version-id"));
    return ib::ViewUpdate{ib::SetCurrentViewVersion{id}};
  }
  if (IsSharedAction(action)) {
    FLOE_ASSIGN_OR_RETURN(ib::TableUpdate update, internal::ReadTableUpdate(e, path));
    // Moved alternative by alternative into the caller's variant: building
    // a Result<ViewUpdate> per alternative in a std::visit trips GCC 12's
    // -Wmaybe-uninitialized at -O3.
    ib::ViewUpdate view_update;
    if (!MoveShared<ib::AssignUuid, ib::UpgradeFormatVersion, ib::AddSchema, ib::SetLocation, ib::SetProperties,
                    ib::RemoveProperties>(update, &view_update)) {
      return Status::Internal(StrCat("view update ", action, " read as another table update"));
    }
    return view_update;
  }
  FLOE_ASSIGN_OR_RETURN(element action_value, obj.Get("action"));
  return obj.Bad("action", action_value, "not a view update action");
}

Result<ib::ViewRequirement> ReadRequirement(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  FLOE_ASSIGN_OR_RETURN(std::string type, obj.String("type"));
  if (type == "assert-view-uuid") {
    FLOE_ASSIGN_OR_RETURN(std::string uuid, obj.String("uuid"));
    return ib::ViewRequirement{ib::AssertViewUuid{std::move(uuid)}};
  }
  FLOE_ASSIGN_OR_RETURN(element type_value, obj.Get("type"));
  return obj.Bad("type", type_value, "not a view requirement type");
}

template <typename T, typename ReadFn>
Result<T> ParseOne(std::string_view json, std::string_view what, ReadFn read) {
  simdjson::dom::parser parser;
  element root;
  if (auto error = ParseJson(parser, json).get(root); error != simdjson::SUCCESS) {
    return Status::InvalidArgument(StrCat(what, ": not valid JSON (", simdjson::error_message(error), ")"));
  }
  auto r = read(root, std::string());
  if (!r.ok()) return r.status().WithContext(what);
  return r;
}

}  // namespace

namespace internal {

Result<ib::ViewUpdate> ReadViewUpdate(element e, const std::string& path) {
  auto r = ReadUpdate(e, path);
  if (!r.ok()) return AsInvalid(r.status());
  return r;
}

Result<ib::ViewRequirement> ReadViewRequirement(element e, const std::string& path) {
  auto r = ReadRequirement(e, path);
  if (!r.ok()) return AsInvalid(r.status());
  return r;
}

}  // namespace internal

Result<ib::ViewUpdate> ViewUpdateFromJson(std::string_view json) {
  return ParseOne<ib::ViewUpdate>(json, "view update", internal::ReadViewUpdate);
}

Result<ib::ViewRequirement> ViewRequirementFromJson(std::string_view json) {
  return ParseOne<ib::ViewRequirement>(json, "view requirement", internal::ReadViewRequirement);
}

void WriteViewUpdate(JsonWriter& w, const ib::ViewUpdate& update) {
  std::visit(Overloaded{
                 [&](const ib::AddViewVersion& u) {
                   w.BeginObject();
                   w.Member("action", ib::ViewUpdateAction(update));
                   w.Key("view-version");
                   ib::WriteViewVersion(w, u.view_version);
                   w.EndObject();
                 },
                 [&](const ib::SetCurrentViewVersion& u) {
                   w.BeginObject();
                   w.Member("action", ib::ViewUpdateAction(update));
                   w.Member("view-version-id", u.view_version_id);
                   w.EndObject();
                 },
                 // The actions shared with tables, in their table form.
                 [&](const auto& u) { WriteTableUpdate(w, ib::TableUpdate{u}); },
             },
             update);
}

void WriteViewRequirement(JsonWriter& w, const ib::ViewRequirement& requirement) {
  const auto& assert_uuid = std::get<ib::AssertViewUuid>(requirement);
  w.BeginObject();
  w.Member("type", "assert-view-uuid");
  w.Member("uuid", assert_uuid.uuid);
  w.EndObject();
}

std::string ViewUpdateToJson(const ib::ViewUpdate& update) {
  JsonWriter w;
  WriteViewUpdate(w, update);
  return w.Take();
}

std::string ViewRequirementToJson(const ib::ViewRequirement& requirement) {
  JsonWriter w;
  WriteViewRequirement(w, requirement);
  return w.Take();
}

}  // namespace floe::catalog::rest
