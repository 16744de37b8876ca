// DiffTableMetadata: a metadata change expressed as the Iceberg REST
// catalog's commit — the updates that turn `base` into `updated` and the
// requirements that make them safe to apply on the server's current
// metadata. A REST client needs this because the kernel's TableOperations
// hands it whole metadata (base and successor), while the catalog takes
// requirements and updates and builds the successor itself.
//
// Updates, in an order the builder accepts: upgrade-format-version,
// assign-uuid, add-schema / set-current-schema, add-spec / set-default-spec,
// add-sort-order / set-default-sort-order, add-snapshot, remove-snapshot-ref,
// set-snapshot-ref, remove-snapshots, set-location, set-properties /
// remove-properties, statistics, remove-partition-specs / remove-schemas. A
// newly added schema, spec or order that becomes current is named -1 ("the
// last added": the server assigns ids, as TableMetadataBuilder does). Fields
// the builder derives (last-updated-ms, last-sequence-number,
// last-column-id, last-partition-id, snapshot-log, metadata-log,
// next-row-id) produce no update.
//
// Requirements, as Java's UpdateRequirements.forUpdateTable derives them:
// assert-table-uuid (when base has one); assert-ref-snapshot-id with base's
// snapshot (or "must not exist") for every ref set or removed;
// assert-last-assigned-field-id for add-schema; assert-current-schema-id for
// set-current-schema and remove-schemas; assert-last-assigned-partition-id
// for add-spec; assert-default-spec-id for set-default-spec and
// remove-partition-specs; assert-default-sort-order-id for
// set-default-sort-order. A create (no base) is assert-create plus the full
// table as updates.
//
// Errors: Unsupported when the change touches what no update expresses
// (encryption keys, a rewritten existing schema, spec, order or snapshot).
// Thread safety: a pure function.

#pragma once

#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_update.h"

namespace floe::iceberg {

// `base` nullptr: `updated` is a new table.
Result<TableChanges> DiffTableMetadata(const TableMetadata* base, const TableMetadata& updated);

// Whether the change `changes.updates` already holds in `current`: every
// snapshot it adds is there, or (when it adds none) applying its updates to
// `current` changes nothing the updates control. For resolving a commit
// whose outcome is unknown.
bool ChangesVisible(const TableChanges& changes, const TableMetadata& current);

}  // namespace floe::iceberg
