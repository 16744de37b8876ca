// Soundness of Parquet pruning under Iceberg filters, against the row
// evaluator: random rows written by floe's writer (row groups of 60 rows,
// pages of 20, dictionaries, bloom filters on two columns, the page index),
// random filters mapped by ToParquetPredicates, and a scan that prunes by
// statistics, bloom filters, dictionaries and the page index must return
// every row the filter matches. Each row group draws each column from a few
// values of its own, so its dictionary has gaps inside its bounds.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "expression_random.h"
#include "floe/columnar/take.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/parquet_filter.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/scan/column_projection.h"
#include "floe/iceberg/schema.h"
#include "floe/io/file_io.h"
#include "schema_test_util.h"

namespace floe::iceberg {
namespace parquet_pruning_property_test {  // the unity build merges anonymous namespaces
namespace {

using expression_test::Col;
using expression_test::Columns;
using expression_test::RandomFilter;
using expression_test::RandomValue;
using expression_test::Row;
using expression_test::RowGetter;

constexpr int32_t kPositionId = 100;  // a column no filter names: the row's place in the file
constexpr int kRowGroups = 10;
constexpr int kRowsPerGroup = 60;

Schema FlatOrders() {
  std::vector<NestedField> fields;
  for (const Col& c : Columns()) fields.push_back(testing::Column(c.id, c.name, c.type));
  fields.push_back(testing::Column(kPositionId, "position", Type::Long(), true));
  return Schema::Make(0, std::move(fields)).value();
}

// Row groups whose every column takes one of three values of its own, or null.
std::vector<Row> RandomRows(std::mt19937& rng) {
  std::vector<Row> rows;
  std::uniform_int_distribution<int> pick(0, 99);
  for (int g = 0; g < kRowGroups; ++g) {
    std::map<int32_t, std::vector<std::optional<Literal>>> choices;
    for (const Col& c : Columns()) {
      for (int k = 0; k < 3; ++k) choices[c.id].push_back(RandomValue(rng, c.type, false));
    }
    for (int r = 0; r < kRowsPerGroup; ++r) {
      Row row;
      for (const Col& c : Columns()) row[c.id] = pick(rng) < 10 ? std::nullopt : choices[c.id][pick(rng) % 3];
      row[kPositionId] = Literal::Long(static_cast<int64_t>(rows.size()));
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

Result<RecordBatch> ToBatch(const std::shared_ptr<const floe::Schema>& schema, const Schema& table,
                            const std::vector<Row>& rows) {
  std::vector<RecordBatch> singles;
  for (const Row& row : rows) {
    std::vector<Array> columns;
    for (int f = 0; f < schema->num_fields(); ++f) {
      const int32_t id = table.fields()[static_cast<size_t>(f)].field_id;
      FLOE_ASSIGN_OR_RETURN(Array one, ConstantArray(row.at(id), schema->field(f).type, 1));
      columns.push_back(std::move(one));
    }
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema, std::move(columns), 1));
    singles.push_back(std::move(batch));
  }
  return ConcatenateRows(singles);
}

TEST(ParquetPruningPropertyTest, EveryRowTheFilterMatchesSurvivesPruning) {
  const Schema table = FlatOrders();
  const auto schema = std::make_shared<const floe::Schema>(ToColumnarSchema(table).value());
  std::shared_ptr<FileIO> io = NewMemoryFileIO();
  std::mt19937 rng(20261207);
  int64_t matches = 0, pruned = 0, pruned_by_dictionary = 0, pruned_by_bloom = 0, pages_skipped = 0, mapped = 0;
  for (int round = 0; round < 12; ++round) {
    const std::vector<Row> rows = RandomRows(rng);
    auto batch = ToBatch(schema, table, rows);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    parquet::WriterOptions options;
    options.row_group_rows = kRowsPerGroup;
    options.page_rows = 20;
    options.columns["id"].bloom_filter = true;
    options.columns["city"].bloom_filter = true;
    const std::string path = StrCat("mem://pruning/", round, ".parquet");
    {
      auto writer = parquet::ParquetFileWriter::Open(io, path, schema, options);
      ASSERT_TRUE(writer.ok()) << writer.status().ToString();
      ASSERT_TRUE((*writer)->Write(*batch).ok());
      ASSERT_TRUE((*writer)->Close().ok());
    }
    auto opened = parquet::ParquetFileReader::Open(io, path);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    const std::shared_ptr<const parquet::ParquetFileReader> file(std::move(*opened));
    ASSERT_EQ(file->num_row_groups(), kRowGroups);

    for (int f = 0; f < 40; ++f) {
      const std::string text = RandomFilter(rng, 3);
      auto bound = Bind(table, ParseExpression(text).value());
      ASSERT_TRUE(bound.ok()) << text << ": " << bound.status().ToString();
      parquet::ScanOptions scan;
      scan.field_ids = std::vector<int32_t>{kPositionId};
      scan.filter = ToParquetPredicates(**bound, file->schema());
      mapped += scan.filter.empty() ? 0 : 1;
      auto read = parquet::ParquetRecordBatchReader::Make(file, scan);
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      std::set<int64_t> returned;
      while (true) {
        auto next = (*read)->Next();
        ASSERT_TRUE(next.ok()) << text << ": " << next.status().ToString();
        if (!next->has_value()) break;
        const Array& positions = (*next)->column(0);
        for (int64_t i = 0; i < positions.length(); ++i) returned.insert(positions.Values<int64_t>()[i]);
      }
      for (size_t r = 0; r < rows.size(); ++r) {
        if (!Evaluate(**bound, RowGetter(rows[r]))) continue;
        ++matches;
        ASSERT_TRUE(returned.contains(static_cast<int64_t>(r)))
            << text << ": row " << r << " (row group " << r / kRowsPerGroup << ") matches but was pruned";
      }
      const parquet::ScanMetrics& m = (*read)->metrics();
      pruned += m.row_groups_pruned;
      pruned_by_dictionary += m.row_groups_pruned_by_dictionary;
      pruned_by_bloom += m.row_groups_pruned_by_bloom;
      pages_skipped += m.pages_skipped;
    }
  }
  // Every pruner took part: 12 files x 40 filters x 10 row groups. When
  // this was written: 107,208 matches, 332 filters mapped, 1,479 row groups
  // pruned (320 by dictionary, 53 by bloom filter), 138 pages skipped.
  EXPECT_GT(matches, 80000);
  EXPECT_GT(mapped, 250);
  EXPECT_GT(pruned, 1000);
  EXPECT_GT(pruned_by_dictionary, 200);
  EXPECT_GT(pruned_by_bloom, 30);
  EXPECT_GT(pages_skipped, 90);
}

}  // namespace
}  // namespace parquet_pruning_property_test
}  // namespace floe::iceberg
