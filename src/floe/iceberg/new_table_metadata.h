// The first version of a new table's metadata, built as Java's
// TableMetadata.newTableMetadata builds it, so a table floe creates looks
// like one Java or PyIceberg created:
//  - column ids assigned afresh from 1 in Java's order (a struct's own fields
//    first, then each field's children; list element and map key/value ids
//    before their children), identifier fields and the partition spec's and
//    sort order's source ids remapped to them;
//  - partition field ids from 1000 in order (spec 0); sort order id 1, or 0
//    when unsorted;
//  - a random table-uuid, last-sequence-number 0, no current snapshot, v3
//    next-row-id 0;
//  - properties as given, minus the reserved ones (format-version, which
//    picks the version, uuid, snapshot-count, current-snapshot-*,
//    current-schema, default-partition-spec, default-sort-order), plus
//    write.parquet.compression-codec=zstd unless set.
// It is expressed as the updates of a REST create transaction (AssertCreate
// plus these updates), so a catalog and a REST server build it one way.
//
// Thread safety: pure functions.

#pragma once

#include <map>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"
#include "floe/iceberg/sort_order.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_update.h"

namespace floe::iceberg {

struct TableDefinition {
  // Field ids only need to be unique: they are replaced. The partition spec's
  // and sort order's source ids refer to these ids.
  Schema schema;
  PartitionSpec partition_spec;  // field ids and spec id are reassigned
  SortOrder sort_order;          // order id is reassigned
  std::string location;          // a trailing '/' is dropped
  std::map<std::string, std::string> properties;
  int format_version = 2;  // the property "format-version", when present, wins
};

// The create transaction's updates for `definition`, in the order a REST
// client sends them. InvalidArgument when the location is empty, the format
// version is not an integer from 1 (Unsupported above 3), or a partition or
// sort field's source id is not a column of the schema.
Result<std::vector<TableUpdate>> NewTableUpdates(const TableDefinition& definition);

// The metadata those updates build from nothing: ApplyTableChanges(nullptr,
// {AssertCreate}, NewTableUpdates(definition)). Errors as NewTableUpdates,
// and InvalidArgument when the result does not validate (e.g. a v3 type in a
// v2 table, a transform that does not apply to its source column).
Result<TableMetadata> NewTableMetadata(const TableDefinition& definition);

}  // namespace floe::iceberg
