// TableUpdate and TableRequirement: the changes a commit makes to table
// metadata and the assumptions it makes about the base, with the names and
// semantics of the Iceberg REST catalog's commit request ("updates" with an
// "action", "requirements" with a "type"). Every floe write — a local
// operation or a REST commit — is a list of requirements plus a list of
// updates, applied by TableMetadataBuilder.
//
// Thread safety: plain values.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

// -1 in a set-current/default update means "the one added last in this
// commit" (spec: REST SetCurrentSchemaUpdate).
inline constexpr int32_t kLastAdded = -1;

struct AssignUuid { std::string uuid; };
struct UpgradeFormatVersion { int format_version = 2; };
struct AddSchema { Schema schema; };
struct SetCurrentSchema { int32_t schema_id = kLastAdded; };
struct AddPartitionSpec { PartitionSpec spec; };
struct SetDefaultSpec { int32_t spec_id = kLastAdded; };
struct AddSortOrder { SortOrder sort_order; };
struct SetDefaultSortOrder { int32_t sort_order_id = kLastAdded; };
struct AddSnapshot { Snapshot snapshot; };
struct SetSnapshotRef { std::string ref_name; SnapshotRef ref; };
struct RemoveSnapshots { std::vector<int64_t> snapshot_ids; };
struct RemoveSnapshotRef { std::string ref_name; };
struct SetLocation { std::string location; };
struct SetProperties { std::map<std::string, std::string> updates; };
struct RemoveProperties { std::vector<std::string> removals; };
struct SetStatistics { StatisticsFile statistics; };
struct RemoveStatistics { int64_t snapshot_id = 0; };
struct SetPartitionStatistics { PartitionStatisticsFile statistics; };
struct RemovePartitionStatistics { int64_t snapshot_id = 0; };
struct RemovePartitionSpecs { std::vector<int32_t> spec_ids; };
struct RemoveSchemas { std::vector<int32_t> schema_ids; };

using TableUpdate =
    std::variant<AssignUuid, UpgradeFormatVersion, AddSchema, SetCurrentSchema, AddPartitionSpec, SetDefaultSpec,
                 AddSortOrder, SetDefaultSortOrder, AddSnapshot, SetSnapshotRef, RemoveSnapshots, RemoveSnapshotRef,
                 SetLocation, SetProperties, RemoveProperties, SetStatistics, RemoveStatistics,
                 SetPartitionStatistics, RemovePartitionStatistics, RemovePartitionSpecs, RemoveSchemas>;

// The REST "action" word of an update ("add-snapshot", ...).
std::string_view TableUpdateAction(const TableUpdate& update);

struct AssertCreate {};
struct AssertTableUuid { std::string uuid; };
// snapshot_id nullopt: the ref must not exist.
struct AssertRefSnapshotId { std::string ref; std::optional<int64_t> snapshot_id; };
struct AssertLastAssignedFieldId { int32_t last_assigned_field_id = 0; };
struct AssertCurrentSchemaId { int32_t current_schema_id = 0; };
struct AssertLastAssignedPartitionId { int32_t last_assigned_partition_id = 0; };
struct AssertDefaultSpecId { int32_t default_spec_id = 0; };
struct AssertDefaultSortOrderId { int32_t default_sort_order_id = 0; };

using TableRequirement =
    std::variant<AssertCreate, AssertTableUuid, AssertRefSnapshotId, AssertLastAssignedFieldId, AssertCurrentSchemaId,
                 AssertLastAssignedPartitionId, AssertDefaultSpecId, AssertDefaultSortOrderId>;

// The REST "type" word of a requirement ("assert-ref-snapshot-id", ...).
std::string_view TableRequirementType(const TableRequirement& requirement);

// Checks one requirement against the table's current metadata (nullptr: the
// table does not exist yet). CommitConflict naming what differs, e.g.
// "requirement failed: branch main is at snapshot 5, expected 4".
Status ValidateRequirement(const TableRequirement& requirement, const TableMetadata* current);

// Builds the next version of a table from a base and updates, keeping the
// derived fields right: last-updated-ms, the snapshot log (when main moves),
// last-sequence-number, last-column-id, last-partition-id, v3 next-row-id.
// (The metadata log is the committer's: it knows the base's file name.)
class TableMetadataBuilder {
 public:
  // Starts from a copy of `base`.
  explicit TableMetadataBuilder(TableMetadata base);

  // Applies one update. InvalidArgument naming the action when it cannot
  // apply: an unknown id, a duplicate snapshot id, a snapshot whose sequence
  // number is not above the table's (v2+), a format downgrade, a schema that
  // reuses field ids for other types... The builder is unchanged on error.
  Status Apply(const TableUpdate& update);
  Status ApplyAll(const std::vector<TableUpdate>& updates);

  // The metadata so far, validated (TableMetadata::Validate).
  Result<TableMetadata> Build() const;

  // Overrides "now" (ms since the epoch) for deterministic tests.
  void set_now_ms(int64_t now_ms) { now_ms_ = now_ms; }

 private:
  Status ApplySnapshot(const AddSnapshot& update);
  Status ApplyRef(const SetSnapshotRef& update);
  Status ApplyRemoveSnapshots(const RemoveSnapshots& update);

  TableMetadata metadata_;
  std::optional<int32_t> last_added_schema_id_;
  std::optional<int32_t> last_added_spec_id_;
  std::optional<int32_t> last_added_order_id_;
  int64_t now_ms_ = 0;
  bool changed_ = false;
};

// Applies updates to `base` after validating requirements against it: the
// whole of a commit's metadata change. Errors as above.
Result<TableMetadata> ApplyTableChanges(const TableMetadata* base, const std::vector<TableRequirement>& requirements,
                                        const std::vector<TableUpdate>& updates);

// A commit's requirements and updates.
struct TableChanges {
  std::vector<TableRequirement> requirements;
  std::vector<TableUpdate> updates;
};

// The change pointing ref `name` (a branch or a tag, created or moved) at
// `snapshot_id` in `metadata`, keeping the ref's retention settings: the ref
// must not have moved since `metadata`. NotFound "snapshot N does not exist";
// InvalidArgument when `name` is the other kind of ref.
Result<TableChanges> SetRefChange(const TableMetadata& metadata, const std::string& name, SnapshotRefType type,
                                 int64_t snapshot_id);

}  // namespace floe::iceberg
