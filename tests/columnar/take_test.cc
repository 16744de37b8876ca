#include "floe/columnar/take.h"

#include <gtest/gtest.h>

#include "floe/columnar/builder.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_nested.h"
#include "floe/columnar/builder_primitive.h"

namespace floe {
namespace {

Array Int64s(std::initializer_list<std::optional<int64_t>> values) {
  Int64Builder builder;
  for (const auto& v : values) {
    EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  }
  return builder.Finish().value();
}

Array Strings(std::initializer_list<std::optional<std::string>> values) {
  StringBuilder builder;
  for (const auto& v : values) {
    EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  }
  return builder.Finish().value();
}

TEST(TakeTest, TakesPrimitiveAndStringRowsInOrderWithNulls) {
  const Array ints = Int64s({10, std::nullopt, 30, 40});
  const int64_t order[] = {3, 1, 0, 0};
  const Array taken = TakeArray(ints, order).value();
  ASSERT_EQ(taken.length(), 4);
  EXPECT_EQ(taken.Values<int64_t>()[0], 40);
  EXPECT_TRUE(taken.IsNull(1));
  EXPECT_EQ(taken.Values<int64_t>()[2], 10);
  EXPECT_EQ(taken.Values<int64_t>()[3], 10);
  EXPECT_EQ(taken.null_count(), 1);

  const Array strings = Strings({"a", "bb", std::nullopt});
  const int64_t pick[] = {2, 1};
  const Array s = TakeArray(strings, pick).value();
  EXPECT_TRUE(s.IsNull(0));
  EXPECT_EQ(s.GetString(1), "bb");
}

TEST(TakeTest, TakesNestedListsAndStructs) {
  auto list_type = DataType::List(DataType::Int64());
  ListBuilder lists(list_type, MakeBuilder(DataType::Int64()));
  auto* items = lists.value_builder()->As<Int64Builder>();
  ASSERT_TRUE(lists.StartList().ok());
  ASSERT_TRUE(items->Append(1).ok());
  ASSERT_TRUE(items->Append(2).ok());
  ASSERT_TRUE(lists.AppendNull().ok());
  ASSERT_TRUE(lists.StartList().ok());
  ASSERT_TRUE(items->Append(3).ok());
  const Array list = lists.Finish().value();
  const int64_t order[] = {2, 0, 1};
  const Array taken = TakeArray(list, order).value();
  ASSERT_TRUE(taken.Validate().ok());
  EXPECT_EQ(taken.ValueOffsets()[1] - taken.ValueOffsets()[0], 1);
  EXPECT_EQ(taken.list_values().Values<int64_t>()[0], 3);
  EXPECT_EQ(taken.ValueOffsets()[2] - taken.ValueOffsets()[1], 2);
  EXPECT_TRUE(taken.IsNull(2));

  auto struct_type = DataType::Struct({Field("x", DataType::Int64()), Field("s", DataType::Utf8())});
  auto builder = MakeBuilder(struct_type);
  auto* row = builder->As<StructBuilder>();
  ASSERT_TRUE(row->AppendRow().ok());
  ASSERT_TRUE(row->field_builder(0)->As<Int64Builder>()->Append(7).ok());
  ASSERT_TRUE(row->field_builder(1)->As<StringBuilder>()->Append("seven").ok());
  ASSERT_TRUE(row->AppendNull().ok());
  const Array structs = row->Finish().value();
  const int64_t back[] = {1, 0};
  const Array t = TakeArray(structs, back).value();
  ASSERT_TRUE(t.Validate().ok());
  EXPECT_TRUE(t.IsNull(0));
  EXPECT_EQ(t.field(0).Values<int64_t>()[1], 7);
  EXPECT_EQ(t.field(1).GetString(1), "seven");
}

TEST(TakeTest, FilterRowsKeepsFlaggedRowsAndRejectsBadIndexes) {
  auto schema = std::make_shared<const Schema>(
      Schema({Field("id", DataType::Int64()), Field("name", DataType::Utf8())}));
  auto batch = RecordBatch::Make(schema, {Int64s({1, 2, 3}), Strings({"a", "b", "c"})}).value();
  const uint8_t keep[] = {1, 0, 1};
  auto filtered = FilterRows(batch, keep).value();
  ASSERT_EQ(filtered.num_rows(), 2);
  EXPECT_EQ(filtered.column(0).Values<int64_t>()[1], 3);
  EXPECT_EQ(filtered.column(1).GetString(0), "a");
  const uint8_t wrong[] = {1};
  EXPECT_EQ(FilterRows(batch, wrong).status().code(), StatusCode::kInvalidArgument);
  const int64_t out_of_range[] = {3};
  EXPECT_EQ(TakeArray(batch.column(0), out_of_range).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace floe
