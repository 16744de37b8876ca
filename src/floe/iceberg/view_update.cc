#include "floe/iceberg/view_update.h"

#include <algorithm>
#include <set>

#include "floe/base/overloaded.h"
#include "floe/base/strings.h"

namespace floe::iceberg {
namespace {

Status Invalid(std::string_view action, std::string_view why) {
  return Status::InvalidArgument(StrCat("view update ", action, ": ", why));
}

bool SameSchema(const Schema& a, const Schema& b) {
  auto renumbered = Schema::Make(a.schema_id(), b.fields(), b.identifier_field_ids());
  return renumbered.ok() && *renumbered == a;
}

}  // namespace

std::string_view ViewUpdateAction(const ViewUpdate& update) {
  return std::visit(Overloaded{
                        [](const AssignUuid&) { return std::string_view("assign-uuid"); },
                        [](const UpgradeFormatVersion&) { return std::string_view("upgrade-format-version"); },
                        [](const AddSchema&) { return std::string_view("add-schema"); },
                        [](const SetLocation&) { return std::string_view("set-location"); },
                        [](const SetProperties&) { return std::string_view("set-properties"); },
                        [](const RemoveProperties&) { return std::string_view("remove-properties"); },
                        [](const AddViewVersion&) { return std::string_view("add-view-version"); },
                        [](const SetCurrentViewVersion&) { return std::string_view("set-current-view-version"); },
                    },
                    update);
}

Status ValidateViewRequirement(const ViewRequirement& requirement, const ViewMetadata* current) {
  const auto& assert_uuid = std::get<AssertViewUuid>(requirement);
  if (current == nullptr) {
    return Status::CommitConflict("requirement failed: the view does not exist")
        .WithConflictReason(ConflictReason::kRequirementFailed);
  }
  if (current->view_uuid != assert_uuid.uuid) {
    return Status::CommitConflict(
               StrCat("requirement failed: view uuid is ", current->view_uuid, ", expected ", assert_uuid.uuid))
        .WithConflictReason(ConflictReason::kRequirementFailed);
  }
  return Status::OK();
}

ViewMetadataBuilder::ViewMetadataBuilder(ViewMetadata base) : metadata_(std::move(base)) {}

Status ViewMetadataBuilder::ApplyAll(const std::vector<ViewUpdate>& updates) {
  for (const ViewUpdate& update : updates) FLOE_RETURN_IF_ERROR(Apply(update));
  return Status::OK();
}

Status ViewMetadataBuilder::Apply(const ViewUpdate& update) {
  return std::visit(
      Overloaded{
          [&](const AssignUuid& u) -> Status {
            if (u.uuid.empty()) return Invalid("assign-uuid", "the uuid is empty");
            if (!metadata_.view_uuid.empty() && metadata_.view_uuid != u.uuid) {
              return Invalid("assign-uuid", StrCat("cannot reassign the view's uuid ", metadata_.view_uuid));
            }
            metadata_.view_uuid = u.uuid;
            return Status::OK();
          },
          [&](const UpgradeFormatVersion& u) -> Status {
            if (u.format_version > ViewMetadata::kSupportedFormatVersion) {
              return Invalid("upgrade-format-version", StrCat("format version ", u.format_version, " is not supported"));
            }
            if (u.format_version < metadata_.format_version) {
              return Invalid("upgrade-format-version", StrCat("cannot downgrade from ", metadata_.format_version));
            }
            metadata_.format_version = u.format_version;
            return Status::OK();
          },
          [&](const AddSchema& u) { return ApplyAddSchema(u); },
          [&](const SetLocation& u) -> Status {
            if (u.location.empty()) return Invalid("set-location", "the location is empty");
            metadata_.location = u.location;
            return Status::OK();
          },
          [&](const SetProperties& u) -> Status {
            for (const auto& [k, v] : u.updates) metadata_.properties[k] = v;
            return Status::OK();
          },
          [&](const RemoveProperties& u) -> Status {
            for (const std::string& k : u.removals) metadata_.properties.erase(k);
            return Status::OK();
          },
          [&](const AddViewVersion& u) { return ApplyAddVersion(u); },
          [&](const SetCurrentViewVersion& u) { return ApplySetCurrent(u); },
      },
      update);
}

Status ViewMetadataBuilder::ApplyAddSchema(const AddSchema& update) {
  int32_t id = update.schema.schema_id();
  for (const Schema& existing : metadata_.schemas) {
    if (SameSchema(existing, update.schema)) {
      last_added_schema_id_ = existing.schema_id();
      return Status::OK();
    }
    if (existing.schema_id() >= id) id = existing.schema_id() + 1;
  }
  FLOE_ASSIGN_OR_RETURN(Schema schema,
                        Schema::Make(id, update.schema.fields(), update.schema.identifier_field_ids()));
  metadata_.schemas.push_back(std::move(schema));
  last_added_schema_id_ = id;
  return Status::OK();
}

Status ViewMetadataBuilder::ApplyAddVersion(const AddViewVersion& update) {
  ViewVersion version = update.view_version;
  if (version.schema_id == kLastAdded) {
    if (!last_added_schema_id_) return Invalid("add-view-version", "schema-id -1 but no schema was added");
    version.schema_id = *last_added_schema_id_;
  }
  if (metadata_.schema(version.schema_id) == nullptr) {
    return Invalid("add-view-version", StrCat("schema ", version.schema_id, " does not exist"));
  }
  if (version.representations.empty()) return Invalid("add-view-version", "the version has no representations");
  std::set<std::string> dialects;
  for (const ViewRepresentation& r : version.representations) {
    if (r.type == "sql" && !dialects.insert(ToLowerAscii(r.dialect)).second) {
      return Invalid("add-view-version", StrCat("two SQL representations for dialect ", r.dialect));
    }
  }
  int32_t id = version.version_id;
  for (const ViewVersion& existing : metadata_.versions) {
    if (existing.SameDefinition(version)) {
      last_added_version_id_ = existing.version_id;
      return Status::OK();
    }
    if (existing.version_id >= id) id = existing.version_id + 1;
  }
  version.version_id = id;
  metadata_.versions.push_back(std::move(version));
  last_added_version_id_ = id;
  added_version_ids_.push_back(id);
  return Status::OK();
}

Status ViewMetadataBuilder::ApplySetCurrent(const SetCurrentViewVersion& update) {
  int32_t id = update.view_version_id;
  if (id == kLastAdded) {
    if (!last_added_version_id_) return Invalid("set-current-view-version", "-1 but no version was added");
    id = *last_added_version_id_;
  }
  const ViewVersion* version = metadata_.version(id);
  if (version == nullptr) return Invalid("set-current-view-version", StrCat("version ", id, " does not exist"));
  if (metadata_.current_version_id == id && !metadata_.version_log.empty()) return Status::OK();
  metadata_.current_version_id = id;
  // Java logs the version's own timestamp.
  metadata_.version_log.push_back(ViewHistoryEntry{version->timestamp_ms, id});
  return Status::OK();
}

Result<ViewMetadata> ViewMetadataBuilder::Build() const {
  ViewMetadata out = metadata_;
  int64_t history = ViewMetadata::kDefaultVersionHistory;
  if (auto it = out.properties.find(std::string(ViewMetadata::kVersionHistoryProperty)); it != out.properties.end()) {
    if (!ParseInt64(it->second, &history) || history < 1) {
      return Status::InvalidArgument(
          StrCat("view property ", ViewMetadata::kVersionHistoryProperty, " is ", Quote(it->second),
                 ", expected a positive integer"));
    }
  }
  // Keep the versions this commit added and the current one, then the newest.
  std::set<int32_t> keep(added_version_ids_.begin(), added_version_ids_.end());
  keep.insert(out.current_version_id);
  const size_t to_keep = std::max(keep.size(), static_cast<size_t>(history));
  if (out.versions.size() > to_keep) {
    std::vector<int32_t> ids;
    for (const ViewVersion& v : out.versions) ids.push_back(v.version_id);
    std::sort(ids.rbegin(), ids.rend());
    for (int32_t id : ids) {
      if (keep.size() >= to_keep) break;
      keep.insert(id);
    }
    std::erase_if(out.versions, [&](const ViewVersion& v) { return !keep.contains(v.version_id); });
    // As Java: the log keeps only what follows its last entry for an expired
    // version, so it never names a version the metadata lacks.
    std::vector<ViewHistoryEntry> log;
    for (const ViewHistoryEntry& e : out.version_log) {
      if (keep.contains(e.version_id)) {
        log.push_back(e);
      } else {
        log.clear();
      }
    }
    out.version_log = std::move(log);
  }
  FLOE_RETURN_IF_ERROR(out.Validate());
  return out;
}

Result<ViewMetadata> ApplyViewChanges(const ViewMetadata* base, const std::vector<ViewRequirement>& requirements,
                                      const std::vector<ViewUpdate>& updates) {
  for (const ViewRequirement& requirement : requirements) FLOE_RETURN_IF_ERROR(ValidateViewRequirement(requirement, base));
  ViewMetadataBuilder builder(base != nullptr ? *base : ViewMetadata{});
  FLOE_RETURN_IF_ERROR(builder.ApplyAll(updates));
  return builder.Build();
}

}  // namespace floe::iceberg
