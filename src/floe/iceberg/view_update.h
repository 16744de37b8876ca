// ViewUpdate and ViewRequirement: the changes a view commit makes to view
// metadata and what it assumes of the base, with the names and semantics of
// the Iceberg REST catalog's view commits (assign-uuid,
// upgrade-format-version, add-schema, set-location, set-properties,
// remove-properties, add-view-version, set-current-view-version;
// assert-view-uuid), applied as Java's ViewMetadata.Builder does: a schema
// or version equal to an existing one reuses its id, -1 means "the one added
// last", the version log records every change of the current version, and
// only the newest `version.history.num-entries` versions are kept.
//
// Thread safety: plain values.

#pragma once

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/table_update.h"
#include "floe/iceberg/view_metadata.h"

namespace floe::iceberg {

struct AddViewVersion { ViewVersion view_version; };
struct SetCurrentViewVersion { int32_t view_version_id = kLastAdded; };

// The table updates of the same name carry the same fields.
using ViewUpdate = std::variant<AssignUuid, UpgradeFormatVersion, AddSchema, SetLocation, SetProperties,
                                RemoveProperties, AddViewVersion, SetCurrentViewVersion>;

struct AssertViewUuid { std::string uuid; };
using ViewRequirement = std::variant<AssertViewUuid>;

// The REST action name of an update ("add-view-version", ...).
std::string_view ViewUpdateAction(const ViewUpdate& update);

// CommitConflict "requirement failed: view uuid is X, expected Y" unless the
// requirement holds for `current` (nullptr: the view does not exist).
Status ValidateViewRequirement(const ViewRequirement& requirement, const ViewMetadata* current);

class ViewMetadataBuilder {
 public:
  // Starts from a copy of `base` (an empty ViewMetadata for a new view).
  explicit ViewMetadataBuilder(ViewMetadata base);

  // Applies one update. InvalidArgument naming the action when it cannot
  // apply: a uuid reassigned, a format version above 1 or below the
  // current one, an empty location, a version without a known schema or
  // with two SQL representations of one dialect, -1 with nothing added, an
  // unknown version id. The builder is unchanged on error.
  Status Apply(const ViewUpdate& update);
  Status ApplyAll(const std::vector<ViewUpdate>& updates);

  // The metadata so far, old versions expired, validated (Corrupt from
  // ViewMetadata::Validate, e.g. for a view without a current version);
  // InvalidArgument for a version.history.num-entries below 1.
  Result<ViewMetadata> Build() const;

 private:
  Status ApplyAddSchema(const AddSchema& update);
  Status ApplyAddVersion(const AddViewVersion& update);
  Status ApplySetCurrent(const SetCurrentViewVersion& update);

  ViewMetadata metadata_;
  std::optional<int32_t> last_added_schema_id_;
  std::optional<int32_t> last_added_version_id_;
  std::vector<int32_t> added_version_ids_;
};

// Validates `requirements` against `base` (nullptr: a new view), then applies
// `updates` to it (to an empty ViewMetadata when creating). Errors as above.
Result<ViewMetadata> ApplyViewChanges(const ViewMetadata* base, const std::vector<ViewRequirement>& requirements,
                                      const std::vector<ViewUpdate>& updates);

}  // namespace floe::iceberg
