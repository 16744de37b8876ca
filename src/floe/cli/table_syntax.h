// The text forms `floe table create` and `floe table evolve` accept for
// schemas, partition specs and sort orders (docs/cli.md):
//
//   --schema    'order_id long not null, order_ts timestamp, amount decimal(18,2),
//                tags list<string>, address struct<city: string, zip: int>,
//                attrs map<string, string>'
//   --partition 'day(order_ts), bucket(16, order_id), truncate(4, city), city'
//   --sort      'order_ts, amount desc nulls last, day(order_ts) asc'
//
// Types are Iceberg's words ("long", "timestamptz", "decimal(P,S)",
// "fixed[L]", ...) plus the SQL aliases bigint, integer, smallint→int,
// varchar/text→string, bool, real→float, float8→double. Keywords are
// case-insensitive; column names are as written.
//
// Thread safety: pure functions.

#pragma once

#include <string_view>

#include "floe/base/result.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"
#include "floe/iceberg/sort_order.h"

namespace floe::cli {

// A schema with field ids 1, 2, ... in reading order (the catalog assigns
// the table's ids again when it creates the table). InvalidArgument naming
// the position and what was expected.
Result<iceberg::Schema> ParseSchemaText(std::string_view text);

// One column definition ("channel string"), for --add-column.
Result<iceberg::NestedField> ParseColumnText(std::string_view text);

// A partition spec over `schema`: each term is `column`, `transform(column)`
// or `bucket|truncate(N, column)`. Errors as PartitionSpecUpdate::AddField
// or a syntax error naming the position.
Result<iceberg::PartitionSpec> ParsePartitionText(std::string_view text, const iceberg::Schema& schema);

// One partition term: the column and its transform.
struct PartitionTerm {
  std::string column;
  iceberg::Transform transform = iceberg::Transform::Identity();
};
Result<std::vector<PartitionTerm>> ParsePartitionTerms(std::string_view text);

// A sort order over `schema` (order id 1 unless empty).
Result<iceberg::SortOrder> ParseSortText(std::string_view text, const iceberg::Schema& schema);

}  // namespace floe::cli
