// A small table for scan tests: `id long, name string`, unpartitioned, on
// memory storage through MemoryTableOperations, with helpers that append
// id ranges and read the ids a scan returns.

#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/base/strings.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/iceberg/new_table_metadata.h"
#include "floe/iceberg/table.h"
#include "memory_table_operations.h"

namespace floe::iceberg::testing {

struct ScanTestTable {
  explicit ScanTestTable(std::map<std::string, std::string> properties = {}, int format_version = 2) {
    TableDefinition def;
    NestedField id{1, "id", Type::Long(), true, {}, {}, {}};
    NestedField name{2, "name", Type::String(), false, {}, {}, {}};
    def.schema = Schema::Make(0, {id, name}).value();
    def.location = "mem://wh/db/t";
    def.properties = std::move(properties);
    def.format_version = format_version;
    ops = std::make_shared<MemoryTableOperations>(io, NewTableMetadata(def).value());
    table = std::make_unique<Table>(ops);
  }

  // Appends ids [first, first + count) (name "n<id>") as one commit; returns its snapshot id.
  int64_t Append(int64_t first, int64_t count) {
    auto schema = table->WriteSchema().value();
    Int64Builder ids;
    StringBuilder names;
    for (int64_t i = first; i < first + count; ++i) {
      EXPECT_TRUE(ids.Append(i).ok());
      EXPECT_TRUE(names.Append(StrCat("n", i)).ok());
    }
    auto batch = RecordBatch::Make(schema, {ids.Finish().value(), names.Finish().value()}, count).value();
    bool given = false;
    auto result = table->Append([&]() -> Result<std::optional<RecordBatch>> {
      if (given) return std::optional<RecordBatch>();
      given = true;
      return std::optional<RecordBatch>(batch);
    });
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? result->state.metadata->current_snapshot()->snapshot_id : -1;
  }

  std::shared_ptr<const TableMetadata> metadata() { return table->Refresh().value().metadata; }

  std::shared_ptr<FileIO> io = NewMemoryFileIO();
  std::shared_ptr<MemoryTableOperations> ops;
  std::unique_ptr<Table> table;
};

// The sorted ids (column 0) of every batch `reader` returns, or its error.
inline Result<std::vector<int64_t>> ReadIds(RecordBatchReader& reader) {
  std::vector<int64_t> ids;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader.Next());
    if (!batch.has_value()) break;
    const Array& column = batch->column(0);
    for (int64_t i = 0; i < batch->num_rows(); ++i) ids.push_back(column.Values<int64_t>()[i]);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

inline std::vector<int64_t> Range(int64_t first, int64_t count) {
  std::vector<int64_t> ids;
  for (int64_t i = first; i < first + count; ++i) ids.push_back(i);
  return ids;
}

}  // namespace floe::iceberg::testing
