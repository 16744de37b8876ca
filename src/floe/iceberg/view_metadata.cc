#include "floe/iceberg/view_metadata.h"

#include <set>

#include "floe/base/strings.h"

namespace floe::iceberg {

const ViewRepresentation* ViewVersion::SqlFor(std::string_view dialect) const {
  for (const ViewRepresentation& r : representations) {
    if (r.type == "sql" && EqualsIgnoreCase(r.dialect, dialect)) return &r;
  }
  return nullptr;
}

bool ViewVersion::SameDefinition(const ViewVersion& other) const {
  return schema_id == other.schema_id && summary == other.summary && representations == other.representations &&
         default_catalog == other.default_catalog && default_namespace == other.default_namespace &&
         storage_table == other.storage_table;
}

const ViewVersion* ViewMetadata::version(int32_t version_id) const {
  for (const ViewVersion& v : versions) {
    if (v.version_id == version_id) return &v;
  }
  return nullptr;
}

const Schema* ViewMetadata::schema(int32_t schema_id) const {
  for (const Schema& s : schemas) {
    if (s.schema_id() == schema_id) return &s;
  }
  return nullptr;
}

const Schema* ViewMetadata::current_schema() const {
  const ViewVersion* current = current_version();
  return current == nullptr ? nullptr : schema(current->schema_id);
}

Status ViewMetadata::Validate() const {
  if (view_uuid.empty()) return Status::Corrupt("view metadata: field 'view-uuid' is empty");
  if (format_version != kSupportedFormatVersion) {
    return Status::Corrupt(StrCat("view metadata: field 'format-version' is ", format_version, ", expected 1"));
  }
  if (location.empty()) return Status::Corrupt("view metadata: field 'location' is empty");
  std::set<int32_t> schema_ids;
  for (const Schema& s : schemas) {
    if (!schema_ids.insert(s.schema_id()).second) {
      return Status::Corrupt(StrCat("view metadata: schema id ", s.schema_id(), " appears twice in 'schemas'"));
    }
  }
  std::set<int32_t> version_ids;
  for (const ViewVersion& v : versions) {
    if (!version_ids.insert(v.version_id).second) {
      return Status::Corrupt(StrCat("view metadata: version id ", v.version_id, " appears twice in 'versions'"));
    }
    if (!schema_ids.contains(v.schema_id)) {
      return Status::Corrupt(
          StrCat("view metadata: version ", v.version_id, " names schema ", v.schema_id, ", which does not exist"));
    }
    if (v.representations.empty()) {
      return Status::Corrupt(StrCat("view metadata: version ", v.version_id, " has no representations"));
    }
    // spec: "only one SQL representation per dialect".
    std::set<std::string> dialects;
    for (const ViewRepresentation& r : v.representations) {
      if (r.type != "sql") continue;
      if (!dialects.insert(ToLowerAscii(r.dialect)).second) {
        return Status::Corrupt(
            StrCat("view metadata: version ", v.version_id, " has two SQL representations for dialect ", r.dialect));
      }
    }
  }
  if (!version_ids.contains(current_version_id)) {
    return Status::Corrupt(
        StrCat("view metadata: field 'current-version-id' is ", current_version_id, ", which is not a version"));
  }
  return Status::OK();
}

}  // namespace floe::iceberg
