#include "floe/columnar/record_batch.h"

#include <gtest/gtest.h>

#include <vector>

#include "floe/columnar/builder.h"

namespace floe {
namespace {

Array Int64s(std::vector<int64_t> values) {
  Int64Builder builder;
  EXPECT_TRUE(builder.AppendValues(values).ok());
  return builder.Finish().value();
}

Array Strings(std::vector<std::string_view> values) {
  StringBuilder builder;
  EXPECT_TRUE(builder.AppendValues(values).ok());
  return builder.Finish().value();
}

std::shared_ptr<const Schema> IdName() {
  return std::make_shared<Schema>(std::vector<Field>{Field("id", DataType::Int64(), false), Field("name", DataType::Utf8())},
                                  KeyValueMetadata{{"origin", "test"}});
}

TEST(RecordBatchTest, MakeChecksColumnsAgainstTheSchema) {
  RecordBatch batch = RecordBatch::Make(IdName(), {Int64s({1, 2}), Strings({"a", "b"})}).value();
  EXPECT_EQ(batch.num_rows(), 2);
  EXPECT_EQ(batch.num_columns(), 2);
  EXPECT_EQ(batch.column(1).GetString(1), "b");

  Result<RecordBatch> short_column = RecordBatch::Make(IdName(), {Int64s({1, 2}), Strings({"a"})});
  EXPECT_TRUE(short_column.status().IsInvalidArgument());
  EXPECT_EQ(short_column.status().message(), "record batch column 1 ('name') has 1 rows, expected 2");

  Result<RecordBatch> wrong_type = RecordBatch::Make(IdName(), {Strings({"a"}), Strings({"a"})});
  EXPECT_EQ(wrong_type.status().message(), "record batch column 0 ('id') has type string, the schema says int64");

  Result<RecordBatch> missing = RecordBatch::Make(IdName(), {Int64s({1})});
  EXPECT_EQ(missing.status().message(), "record batch has 1 columns, its schema has 2 fields");

  Result<RecordBatch> explicit_rows = RecordBatch::Make(IdName(), {Int64s({1}), Strings({"a"})}, 3);
  EXPECT_EQ(explicit_rows.status().message(), "record batch column 0 ('id') has 1 rows, expected 3");
}

TEST(RecordBatchTest, ZeroColumnBatchesKeepTheirRowCount) {
  RecordBatch batch = RecordBatch::Make(std::make_shared<Schema>(), {}, 5).value();
  EXPECT_EQ(batch.num_rows(), 5);
  EXPECT_EQ(batch.num_columns(), 0);
  EXPECT_EQ(RecordBatch::Make(std::make_shared<Schema>(), {}).value().num_rows(), 0);
}

TEST(RecordBatchTest, ColumnByName) {
  RecordBatch batch = RecordBatch::Make(IdName(), {Int64s({4}), Strings({"x"})}).value();
  EXPECT_EQ(batch.column_by_name("id")->Values<int64_t>()[0], 4);
  Result<Array> missing = batch.column_by_name("age");
  EXPECT_TRUE(missing.status().IsNotFound());
  EXPECT_EQ(missing.status().message(), "record batch has no column 'age'");
}

TEST(RecordBatchTest, SliceAndProject) {
  RecordBatch batch = RecordBatch::Make(IdName(), {Int64s({1, 2, 3}), Strings({"a", "b", "c"})}).value();
  RecordBatch slice = batch.Slice(1, 2);
  EXPECT_EQ(slice.num_rows(), 2);
  EXPECT_EQ(slice.column(0).Values<int64_t>()[0], 2);
  EXPECT_EQ(slice.column(1).GetString(1), "c");

  RecordBatch projected = slice.Project(std::vector<int>{1, 1, 0}).value();
  EXPECT_EQ(projected.schema().ToString(), "name: string, name: string, id: int64 not null");
  EXPECT_EQ(projected.schema().metadata, batch.schema().metadata);
  EXPECT_EQ(projected.num_rows(), 2);
  EXPECT_EQ(projected.column(2).Values<int64_t>()[1], 3);

  Result<RecordBatch> bad = batch.Project(std::vector<int>{2});
  EXPECT_TRUE(bad.status().IsInvalidArgument());
  EXPECT_EQ(bad.status().message(), "projection index 2 is outside the batch's 2 columns");
}

TEST(RecordBatchTest, EqualsComparesValues) {
  RecordBatch a = RecordBatch::Make(IdName(), {Int64s({1, 2, 3}), Strings({"a", "b", "c"})}).value();
  RecordBatch b = RecordBatch::Make(IdName(), {Int64s({0, 2, 3}), Strings({"", "b", "c"})}).value();
  EXPECT_FALSE(a.Equals(b));
  EXPECT_TRUE(a.Slice(1, 2).Equals(b.Slice(1, 2)));
}

TEST(RecordBatchReaderTest, VectorReaderYieldsItsBatchesThenEnds) {
  RecordBatch batch = RecordBatch::Make(IdName(), {Int64s({1, 2}), Strings({"a", "b"})}).value();
  auto reader = VectorRecordBatchReader::Make(IdName(), {batch, batch.Slice(1, 1)}).value();
  EXPECT_EQ(*reader->schema(), *IdName());
  std::optional<RecordBatch> first = reader->Next().value();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->num_rows(), 2);
  std::vector<RecordBatch> rest = reader->ReadAll().value();
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].column(1).GetString(0), "b");
  EXPECT_FALSE(reader->Next().value().has_value());
  EXPECT_FALSE(reader->Next().value().has_value());
}

TEST(RecordBatchReaderTest, VectorReaderRejectsABatchOfAnotherSchema) {
  auto other = std::make_shared<Schema>(std::vector<Field>{Field("id", DataType::Int64(), false)});
  RecordBatch batch = RecordBatch::Make(other, {Int64s({1})}).value();
  auto reader = VectorRecordBatchReader::Make(IdName(), {batch});
  EXPECT_TRUE(reader.status().IsInvalidArgument());
  EXPECT_EQ(reader.status().message(),
            "batch 0 has schema {id: int64 not null}, the reader's is {id: int64 not null, name: string}");
}

}  // namespace
}  // namespace floe
