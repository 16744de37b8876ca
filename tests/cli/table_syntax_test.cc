#include "floe/cli/table_syntax.h"

#include <gtest/gtest.h>

namespace floe::cli {
namespace {

using iceberg::TypeId;

TEST(TableSyntaxTest, ParsesTheOrdersSchema) {
  auto schema = ParseSchemaText(
                    "order_id long not null, order_ts timestamp, city string, amount decimal(18,2), address string")
                    .value();
  ASSERT_EQ(schema.fields().size(), 5u);
  EXPECT_EQ(schema.fields()[0].field_id, 1);
  EXPECT_TRUE(schema.fields()[0].required);
  EXPECT_EQ(schema.fields()[0].type->id(), TypeId::kLong);
  EXPECT_FALSE(schema.fields()[1].required);
  EXPECT_EQ(schema.fields()[3].type->ToString(), "decimal(18,2)");
}

TEST(TableSyntaxTest, ParsesNestedTypesAndAliases) {
  auto schema =
      ParseSchemaText("id BIGINT NOT NULL, tags list<varchar>, address struct<city: string, zip: int not null>, "
                      "attrs map<string, double>, ts timestamptz, raw fixed[16]")
          .value();
  EXPECT_EQ(schema.FindFieldByName("id")->type->id(), TypeId::kLong);
  EXPECT_EQ(schema.FindFieldByName("tags.element")->type->id(), TypeId::kString);
  EXPECT_TRUE(schema.FindFieldByName("address.zip")->required);
  EXPECT_EQ(schema.FindFieldByName("attrs.value")->type->id(), TypeId::kDouble);
  EXPECT_EQ(schema.FindFieldByName("ts")->type->id(), TypeId::kTimestampTz);
  EXPECT_EQ(schema.FindFieldByName("raw")->type->length(), 16);
  EXPECT_EQ(schema.HighestFieldId(), 11);
}

TEST(TableSyntaxTest, SchemaErrorsNameThePosition) {
  auto bad_type = ParseSchemaText("id lung");
  EXPECT_EQ(bad_type.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad_type.status().message().find("unknown type 'lung'"), std::string::npos);
  auto missing = ParseSchemaText("id long,");
  EXPECT_NE(missing.status().message().find("expected a column name at position 9"), std::string::npos);
  EXPECT_EQ(ParseSchemaText("a int, a long").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseSchemaText("d decimal(40,2)").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseSchemaText("x int not").status().code(), StatusCode::kInvalidArgument);
}

TEST(TableSyntaxTest, ParsesPartitionSpecs) {
  auto schema = ParseSchemaText("order_id long not null, order_ts timestamp, city string").value();
  auto spec = ParsePartitionText("day(order_ts), bucket(16, order_id), truncate(2, city), city", schema).value();
  ASSERT_EQ(spec.fields.size(), 4u);
  EXPECT_EQ(spec.fields[0].name, "order_ts_day");
  EXPECT_EQ(spec.fields[0].field_id, 1000);
  EXPECT_EQ(spec.fields[1].transform.ToString(), "bucket[16]");
  EXPECT_EQ(spec.fields[1].source_id(), 1);
  EXPECT_EQ(spec.fields[2].transform.ToString(), "truncate[2]");
  EXPECT_EQ(spec.fields[3].name, "city");
  EXPECT_TRUE(ParsePartitionText("", schema).value().fields.empty());
  EXPECT_NE(ParsePartitionText("day(nope)", schema).status().message().find("'nope'"), std::string::npos);
  EXPECT_NE(ParsePartitionText("weekly(order_ts)", schema).status().message().find("unknown transform"),
            std::string::npos);
  EXPECT_NE(ParsePartitionText("day(city)", schema).status().message().find("not defined for string"),
            std::string::npos);
  EXPECT_EQ(ParsePartitionText("bucket(0, order_id)", schema).status().code(), StatusCode::kInvalidArgument);
}

TEST(TableSyntaxTest, ParsesSortOrders) {
  auto schema = ParseSchemaText("order_id long not null, order_ts timestamp, city string").value();
  auto order = ParseSortText("order_ts, city desc, day(order_ts) asc nulls last", schema).value();
  EXPECT_EQ(order.order_id, 1);
  ASSERT_EQ(order.fields.size(), 3u);
  EXPECT_EQ(order.fields[0].source_id(), 2);
  EXPECT_EQ(order.fields[0].null_order, iceberg::NullOrder::kNullsFirst);
  EXPECT_EQ(order.fields[1].direction, iceberg::SortDirection::kDesc);
  EXPECT_EQ(order.fields[1].null_order, iceberg::NullOrder::kNullsLast);
  EXPECT_EQ(order.fields[2].transform.ToString(), "day");
  EXPECT_TRUE(ParseSortText("", schema).value().is_unsorted());
  EXPECT_EQ(ParseSortText("city sideways", schema).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace floe::cli
