#include "floe/catalog/rest/table_changes_json.h"

#include "floe/base/json_parse.h"
#include "floe/base/overloaded.h"
#include "floe/base/strings.h"
#include "floe/iceberg/json_reader.h"
#include "floe/iceberg/schema_json.h"
#include "floe/iceberg/table_metadata_json.h"

namespace floe::catalog::rest {

using iceberg::internal::JsonObject;
using iceberg::internal::JsonObjectReader;
using simdjson::dom::element;

namespace ib = iceberg;

namespace {

// The iceberg readers report malformed input as Corrupt (it is a file's
// fault there); in a request it is the caller's, so InvalidArgument.
Status AsInvalid(const Status& s) {
  if (s.ok() || !s.IsCorrupt()) return s;
  return Status::InvalidArgument(s.message());
}

template <typename T>
Result<T> AsInvalid(Result<T> r) {
  if (r.ok()) return r;
  return AsInvalid(r.status());
}

Result<std::vector<int64_t>> Int64List(const JsonObjectReader& obj, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(auto items, obj.Array(key));
  std::vector<int64_t> out;
  out.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(int64_t v, ib::internal::JsonInt64(items[i], StrCat(obj.PathOf(key), "[", i, "]")));
    out.push_back(v);
  }
  return out;
}

Result<ib::TableUpdate> ReadUpdate(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  FLOE_ASSIGN_OR_RETURN(std::string action, obj.String("action"));
  if (action == "assign-uuid") {
    FLOE_ASSIGN_OR_RETURN(std::string uuid, obj.String("uuid"));
    return ib::TableUpdate{ib::AssignUuid{std::move(uuid)}};
  }
  if (action == "upgrade-format-version") {
    FLOE_ASSIGN_OR_RETURN(int32_t v, obj.Int32("format-version"));
    return ib::TableUpdate{ib::UpgradeFormatVersion{v}};
  }
  if (action == "add-schema") {
    FLOE_ASSIGN_OR_RETURN(element schema, obj.Get("schema"));
    FLOE_ASSIGN_OR_RETURN(ib::Schema s, ib::internal::ReadSchema(schema, obj.PathOf("schema")));
    // spec: "last-column-id" is deprecated; the builder derives it.
    FLOE_ASSIGN_OR_RETURN(auto ignored, obj.OptionalInt32("last-column-id"));
    (void)ignored;
    return ib::TableUpdate{ib::AddSchema{std::move(s)}};
  }
  if (action == "set-current-schema") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, obj.Int32("schema-id"));
    return ib::TableUpdate{ib::SetCurrentSchema{id}};
  }
  if (action == "add-spec") {
    FLOE_ASSIGN_OR_RETURN(element spec, obj.Get("spec"));
    FLOE_ASSIGN_OR_RETURN(ib::PartitionSpec s,
                          ib::internal::ReadPartitionSpec(spec, obj.PathOf("spec"), /*require_field_ids=*/false,
                                                          /*require_spec_id=*/false));
    return ib::TableUpdate{ib::AddPartitionSpec{std::move(s)}};
  }
  if (action == "set-default-spec") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, obj.Int32("spec-id"));
    return ib::TableUpdate{ib::SetDefaultSpec{id}};
  }
  if (action == "add-sort-order") {
    FLOE_ASSIGN_OR_RETURN(element order, obj.Get("sort-order"));
    FLOE_ASSIGN_OR_RETURN(ib::SortOrder o, ib::internal::ReadSortOrder(order, obj.PathOf("sort-order")));
    return ib::TableUpdate{ib::AddSortOrder{std::move(o)}};
  }
  if (action == "set-default-sort-order") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, obj.Int32("sort-order-id"));
    return ib::TableUpdate{ib::SetDefaultSortOrder{id}};
  }
  if (action == "add-snapshot") {
    FLOE_ASSIGN_OR_RETURN(element snap, obj.Get("snapshot"));
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader snap_obj, JsonObject(snap, obj.PathOf("snapshot")));
    // A v1 table's snapshots have no sequence number; everything else the
    // REST Snapshot schema requires is required either way, though a v1
    // metadata file may leave out the summary and list manifests inline.
    for (const char* required : {"summary", "manifest-list"}) {
      if (!snap_obj.Has(required)) return snap_obj.Missing(required);
    }
    const int version = snap_obj.Has("sequence-number") ? 2 : 1;
    FLOE_ASSIGN_OR_RETURN(ib::Snapshot s, ib::internal::ReadSnapshot(snap, obj.PathOf("snapshot"), version));
    return ib::TableUpdate{ib::AddSnapshot{std::move(s)}};
  }
  if (action == "set-snapshot-ref") {
    FLOE_ASSIGN_OR_RETURN(std::string name, obj.String("ref-name"));
    // spec: SetSnapshotRefUpdate is BaseUpdate + SnapshotReference, inline.
    FLOE_ASSIGN_OR_RETURN(ib::SnapshotRef ref, ib::internal::ReadRef(e, path));
    return ib::TableUpdate{ib::SetSnapshotRef{std::move(name), ref}};
  }
  if (action == "remove-snapshots") {
    FLOE_ASSIGN_OR_RETURN(auto ids, Int64List(obj, "snapshot-ids"));
    return ib::TableUpdate{ib::RemoveSnapshots{std::move(ids)}};
  }
  if (action == "remove-snapshot-ref") {
    FLOE_ASSIGN_OR_RETURN(std::string name, obj.String("ref-name"));
    return ib::TableUpdate{ib::RemoveSnapshotRef{std::move(name)}};
  }
  if (action == "set-location") {
    FLOE_ASSIGN_OR_RETURN(std::string location, obj.String("location"));
    return ib::TableUpdate{ib::SetLocation{std::move(location)}};
  }
  if (action == "set-properties") {
    if (!obj.Has("updates")) return obj.Missing("updates");
    FLOE_ASSIGN_OR_RETURN(auto updates, obj.StringMap("updates"));
    return ib::TableUpdate{ib::SetProperties{std::move(updates)}};
  }
  if (action == "remove-properties") {
    FLOE_ASSIGN_OR_RETURN(auto removals, obj.StringList("removals"));
    return ib::TableUpdate{ib::RemoveProperties{std::move(removals)}};
  }
  if (action == "set-statistics") {
    FLOE_ASSIGN_OR_RETURN(element stats, obj.Get("statistics"));
    FLOE_ASSIGN_OR_RETURN(ib::StatisticsFile f, ib::internal::ReadStatisticsFile(stats, obj.PathOf("statistics")));
    // spec: the top-level "snapshot-id" is deprecated; statistics.snapshot-id wins.
    FLOE_ASSIGN_OR_RETURN(auto ignored, obj.OptionalSnapshotId("snapshot-id"));
    (void)ignored;
    return ib::TableUpdate{ib::SetStatistics{std::move(f)}};
  }
  if (action == "remove-statistics") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, obj.SnapshotId("snapshot-id"));
    return ib::TableUpdate{ib::RemoveStatistics{id}};
  }
  if (action == "set-partition-statistics") {
    FLOE_ASSIGN_OR_RETURN(element stats, obj.Get("partition-statistics"));
    FLOE_ASSIGN_OR_RETURN(ib::PartitionStatisticsFile f, ib::internal::ReadPartitionStatisticsFile(
                                                             stats, obj.PathOf("partition-statistics")));
    return ib::TableUpdate{ib::SetPartitionStatistics{std::move(f)}};
  }
  if (action == "remove-partition-statistics") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, obj.SnapshotId("snapshot-id"));
    return ib::TableUpdate{ib::RemovePartitionStatistics{id}};
  }
  if (action == "remove-partition-specs") {
    FLOE_ASSIGN_OR_RETURN(auto ids, obj.Int32List("spec-ids"));
    return ib::TableUpdate{ib::RemovePartitionSpecs{std::move(ids)}};
  }
  if (action == "remove-schemas") {
    FLOE_ASSIGN_OR_RETURN(auto ids, obj.Int32List("schema-ids"));
    return ib::TableUpdate{ib::RemoveSchemas{std::move(ids)}};
  }
  if (action == "add-encryption-key" || action == "remove-encryption-key") {
    return Status::Unsupported(StrCat("field ", Quote(obj.PathOf("action")), " is \"", action,
                                      "\": floe does not apply encryption-key updates"));
  }
  FLOE_ASSIGN_OR_RETURN(element action_value, obj.Get("action"));
  return obj.Bad("action", action_value, "not a known update action");
}

Result<ib::TableRequirement> ReadRequirement(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  FLOE_ASSIGN_OR_RETURN(std::string type, obj.String("type"));
  if (type == "assert-create") return ib::TableRequirement{ib::AssertCreate{}};
  if (type == "assert-table-uuid") {
    FLOE_ASSIGN_OR_RETURN(std::string uuid, obj.String("uuid"));
    return ib::TableRequirement{ib::AssertTableUuid{std::move(uuid)}};
  }
  if (type == "assert-ref-snapshot-id") {
    FLOE_ASSIGN_OR_RETURN(std::string ref, obj.String("ref"));
    // spec: "snapshot-id" is required but may be null (the ref must not exist).
    // (Has() reads null as absent, so ask the object itself.)
    if (obj.object().at_key("snapshot-id").error() != simdjson::SUCCESS) return obj.Missing("snapshot-id");
    FLOE_ASSIGN_OR_RETURN(auto id, obj.OptionalSnapshotId("snapshot-id"));
    return ib::TableRequirement{ib::AssertRefSnapshotId{std::move(ref), id}};
  }
  if (type == "assert-last-assigned-field-id") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, obj.Int32("last-assigned-field-id"));
    return ib::TableRequirement{ib::AssertLastAssignedFieldId{id}};
  }
  if (type == "assert-current-schema-id") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, obj.Int32("current-schema-id"));
    return ib::TableRequirement{ib::AssertCurrentSchemaId{id}};
  }
  if (type == "assert-last-assigned-partition-id") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, obj.Int32("last-assigned-partition-id"));
    return ib::TableRequirement{ib::AssertLastAssignedPartitionId{id}};
  }
  if (type == "assert-default-spec-id") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, obj.Int32("default-spec-id"));
    return ib::TableRequirement{ib::AssertDefaultSpecId{id}};
  }
  if (type == "assert-default-sort-order-id") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, obj.Int32("default-sort-order-id"));
    return ib::TableRequirement{ib::AssertDefaultSortOrderId{id}};
  }
  FLOE_ASSIGN_OR_RETURN(element type_value, obj.Get("type"));
  return obj.Bad("type", type_value, "not a known requirement type");
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

void WriteIntArray(JsonWriter& w, std::string_view key, const auto& ids) {
  w.Key(key);
  w.BeginArray();
  for (auto id : ids) w.Int(id);
  w.EndArray();
}

}  // namespace

namespace internal {

Result<ib::TableUpdate> ReadTableUpdate(element e, const std::string& path) { return AsInvalid(ReadUpdate(e, path)); }

Result<ib::TableRequirement> ReadTableRequirement(element e, const std::string& path) {
  return AsInvalid(ReadRequirement(e, path));
}

}  // namespace internal

Result<ib::TableUpdate> TableUpdateFromJson(std::string_view json) {
  return ParseOne<ib::TableUpdate>(json, "table update", internal::ReadTableUpdate);
}

Result<ib::TableRequirement> TableRequirementFromJson(std::string_view json) {
  return ParseOne<ib::TableRequirement>(json, "table requirement", internal::ReadTableRequirement);
}

void WriteTableUpdate(JsonWriter& w, const ib::TableUpdate& update) {
  w.BeginObject();
  w.Member("action", ib::TableUpdateAction(update));
  std::visit(Overloaded{
                 [&](const ib::AssignUuid& u) { w.Member("uuid", u.uuid); },
                 [&](const ib::UpgradeFormatVersion& u) { w.Member("format-version", int64_t{u.format_version}); },
                 [&](const ib::AddSchema& u) {
                   w.Key("schema");
                   ib::WriteSchema(w, u.schema);
                 },
                 [&](const ib::SetCurrentSchema& u) { w.Member("schema-id", u.schema_id); },
                 [&](const ib::AddPartitionSpec& u) {
                   w.Key("spec");
                   ib::WritePartitionSpec(w, u.spec);
                 },
                 [&](const ib::SetDefaultSpec& u) { w.Member("spec-id", u.spec_id); },
                 [&](const ib::AddSortOrder& u) {
                   w.Key("sort-order");
                   ib::WriteSortOrder(w, u.sort_order);
                 },
                 [&](const ib::SetDefaultSortOrder& u) { w.Member("sort-order-id", u.sort_order_id); },
                 [&](const ib::AddSnapshot& u) {
                   w.Key("snapshot");
                   // Writes sequence-number always: v1 snapshots carry 0, which
                   // the builder treats as "no sequence number".
                   ib::internal::WriteSnapshot(w, u.snapshot, 2);
                 },
                 [&](const ib::SetSnapshotRef& u) {
                   w.Member("ref-name", u.ref_name);
                   w.Member("snapshot-id", u.ref.snapshot_id);
                   w.Member("type", ib::SnapshotRefTypeName(u.ref.type));
                   if (u.ref.min_snapshots_to_keep) w.Member("min-snapshots-to-keep", *u.ref.min_snapshots_to_keep);
                   if (u.ref.max_snapshot_age_ms) w.Member("max-snapshot-age-ms", *u.ref.max_snapshot_age_ms);
                   if (u.ref.max_ref_age_ms) w.Member("max-ref-age-ms", *u.ref.max_ref_age_ms);
                 },
                 [&](const ib::RemoveSnapshots& u) { WriteIntArray(w, "snapshot-ids", u.snapshot_ids); },
                 [&](const ib::RemoveSnapshotRef& u) { w.Member("ref-name", u.ref_name); },
                 [&](const ib::SetLocation& u) { w.Member("location", u.location); },
                 [&](const ib::SetProperties& u) {
                   w.Key("updates");
                   ib::internal::WriteStringMap(w, u.updates);
                 },
                 [&](const ib::RemoveProperties& u) {
                   w.Key("removals");
                   w.BeginArray();
                   for (const auto& k : u.removals) w.String(k);
                   w.EndArray();
                 },
                 [&](const ib::SetStatistics& u) {
                   w.Key("statistics");
                   ib::internal::WriteStatisticsFile(w, u.statistics);
                 },
                 [&](const ib::RemoveStatistics& u) { w.Member("snapshot-id", u.snapshot_id); },
                 [&](const ib::SetPartitionStatistics& u) {
                   w.Key("partition-statistics");
                   ib::internal::WritePartitionStatisticsFile(w, u.statistics);
                 },
                 [&](const ib::RemovePartitionStatistics& u) { w.Member("snapshot-id", u.snapshot_id); },
                 [&](const ib::RemovePartitionSpecs& u) { WriteIntArray(w, "spec-ids", u.spec_ids); },
                 [&](const ib::RemoveSchemas& u) { WriteIntArray(w, "schema-ids", u.schema_ids); },
             },
             update);
  w.EndObject();
}

void WriteTableRequirement(JsonWriter& w, const ib::TableRequirement& requirement) {
  w.BeginObject();
  w.Member("type", ib::TableRequirementType(requirement));
  std::visit(Overloaded{
                 [&](const ib::AssertCreate&) {},
                 [&](const ib::AssertTableUuid& r) { w.Member("uuid", r.uuid); },
                 [&](const ib::AssertRefSnapshotId& r) {
                   w.Member("ref", r.ref);
                   w.Key("snapshot-id");
                   if (r.snapshot_id) {
                     w.Int(*r.snapshot_id);
                   } else {
                     w.Null();
                   }
                 },
                 [&](const ib::AssertLastAssignedFieldId& r) {
                   w.Member("last-assigned-field-id", r.last_assigned_field_id);
                 },
                 [&](const ib::AssertCurrentSchemaId& r) { w.Member("current-schema-id", r.current_schema_id); },
                 [&](const ib::AssertLastAssignedPartitionId& r) {
                   w.Member("last-assigned-partition-id", r.last_assigned_partition_id);
                 },
                 [&](const ib::AssertDefaultSpecId& r) { w.Member("default-spec-id", r.default_spec_id); },
                 [&](const ib::AssertDefaultSortOrderId& r) {
                   w.Member("default-sort-order-id", r.default_sort_order_id);
                 },
             },
             requirement);
  w.EndObject();
}

std::string TableUpdateToJson(const ib::TableUpdate& update) {
  JsonWriter w;
  WriteTableUpdate(w, update);
  return w.Take();
}

std::string TableRequirementToJson(const ib::TableRequirement& requirement) {
  JsonWriter w;
  WriteTableRequirement(w, requirement);
  return w.Take();
}

}  // namespace floe::catalog::rest
