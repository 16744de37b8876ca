#include "floe/iceberg/expression/parquet_filter.h"

#include <gtest/gtest.h>

#include "expression_test_schema.h"
#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/parser.h"

namespace floe::iceberg {
namespace {

using expression_test::Orders;
using parquet::ColumnPredicate;
using parquet::FieldRepetitionType;
using parquet::SchemaElement;
using Op = ColumnPredicate::Op;

SchemaElement Leaf(std::string name, parquet::Type type, int32_t field_id,
                   std::optional<parquet::LogicalType> logical = std::nullopt,
                   FieldRepetitionType repetition = FieldRepetitionType::OPTIONAL) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = repetition;
  e.field_id = field_id;
  e.logicalType = std::move(logical);
  return e;
}

SchemaElement Group(std::string name, int32_t children, std::optional<int32_t> field_id,
                    FieldRepetitionType repetition = FieldRepetitionType::OPTIONAL) {
  SchemaElement e;
  e.name = std::move(name);
  e.num_children = children;
  e.repetition_type = repetition;
  e.field_id = field_id;
  return e;
}

// The file as a writer may have laid out the Orders table: millisecond
// timestamps, decimals as INT64 and FIXED, an int file column under the long
// `id` (written before the promotion), a float file column under `score`.
parquet::ParquetSchema FileSchema() {
  SchemaElement root;
  root.name = "schema";
  root.num_children = 11;
  SchemaElement price = Leaf("price", parquet::Type::FIXED_LEN_BYTE_ARRAY, 18, parquet::DecimalType{2, 9});
  price.type_length = 5;
  SchemaElement tags = Group("tags", 1, 10);
  tags.logicalType = parquet::ListType{};
  std::vector<SchemaElement> elements = {
      root,
      Leaf("id", parquet::Type::INT32, 1, std::nullopt, FieldRepetitionType::REQUIRED),
      Leaf("n", parquet::Type::INT32, 6),
      Leaf("city", parquet::Type::BYTE_ARRAY, 3, parquet::StringType{}),
      Leaf("ts", parquet::Type::INT64, 16, parquet::TimestampType{false, parquet::TimeUnit::MILLIS}),
      Leaf("amount", parquet::Type::INT64, 2, parquet::DecimalType{2, 18}),
      price,
      Leaf("score", parquet::Type::FLOAT, 5),
      Group("info", 1, 7),
      Leaf("zip", parquet::Type::BYTE_ARRAY, 8, parquet::StringType{}),
      tags,
      Group("list", 1, std::nullopt, FieldRepetitionType::REPEATED),
      Leaf("element", parquet::Type::BYTE_ARRAY, 11, parquet::StringType{}),
      Leaf("day", parquet::Type::INT32, 12, parquet::DateType{}),
      Leaf("ts_ns", parquet::Type::INT64, 17, parquet::TimestampType{false, parquet::TimeUnit::NANOS}),
  };
  Result<parquet::ParquetSchema> schema = parquet::ParquetSchema::Make(elements);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  return std::move(schema).value();
}

std::vector<ColumnPredicate> Translate(std::string_view text) {
  Result<ExpressionPtr> parsed = ParseExpression(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  Result<ExpressionPtr> bound = Bind(Orders(), *parsed);
  EXPECT_TRUE(bound.ok()) << bound.status().ToString();
  return ToParquetPredicates(**bound, FileSchema());
}

int ColumnOf(std::string_view dotted) {
  const parquet::ParquetSchema schema = FileSchema();
  for (int i = 0; i < schema.num_columns(); ++i) {
    if (schema.column(i).dotted_path() == dotted) return i;
  }
  return -1;
}

TEST(ParquetFilterTest, ConjunctsMapToLeafColumnsByFieldId) {
  const std::vector<ColumnPredicate> p = Translate("n >= 3 and city = 'Lisbon' and day < '1970-01-05' and n is null");
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].column, ColumnOf("n"));
  EXPECT_EQ(p[0].op, Op::kGtEq);
  EXPECT_EQ(p[0].values, std::vector<std::string>{parquet::PlainInt32(3)});
  EXPECT_EQ(p[1].column, ColumnOf("city"));
  EXPECT_EQ(p[1].op, Op::kEq);
  EXPECT_EQ(p[1].values, std::vector<std::string>{"Lisbon"});
  EXPECT_EQ(p[2].op, Op::kLt);
  EXPECT_EQ(p[2].values, std::vector<std::string>{parquet::PlainInt32(4)});
  EXPECT_EQ(p[3].op, Op::kIsNull);
  EXPECT_TRUE(p[3].values.empty());

  const std::vector<ColumnPredicate> nested = Translate("info.zip > '1000' and n in (2, 1)");
  ASSERT_EQ(nested.size(), 2u);
  EXPECT_EQ(nested[0].column, ColumnOf("info.zip"));
  EXPECT_EQ(nested[1].op, Op::kIn);
  EXPECT_EQ(nested[1].values, (std::vector<std::string>{parquet::PlainInt32(1), parquet::PlainInt32(2)}));
}

TEST(ParquetFilterTest, DropsWhatStatisticsCannotDecide) {
  EXPECT_TRUE(Translate("n = 1 or city = 'x'").empty());
  EXPECT_TRUE(Translate("n != 1 and n not in (1, 2) and city not starts with 'a' and score is nan").empty());
  EXPECT_TRUE(Translate("flag = true").empty());  // no such column in the file
  // Not negations: RewriteNot first, so not(n < 3) is n >= 3.
  const std::vector<ColumnPredicate> p = Translate("not (n < 3)");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].op, Op::kGtEq);
  // A list element is never a flat column.
  const ExpressionPtr element = BoundPredicate(Operation::kEq, "tags.element", 11, Type::String(), {Literal::String("x")});
  EXPECT_TRUE(ToParquetPredicates(*element, FileSchema()).empty());
}

TEST(ParquetFilterTest, CoarserFileUnitsRoundTheBoundOutward) {
  // 1500 microseconds against a millisecond column.
  const std::string lit = "'1970-01-01T00:00:00.001500'";
  std::vector<ColumnPredicate> p = Translate("ts < " + lit + " and ts <= " + lit + " and ts > " + lit + " and ts >= " + lit);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].values[0], parquet::PlainInt64(2));  // x < 1.5 ms: x < 2 ms
  EXPECT_EQ(p[1].values[0], parquet::PlainInt64(1));  // x <= 1.5 ms: x <= 1 ms
  EXPECT_EQ(p[2].values[0], parquet::PlainInt64(1));  // x > 1.5 ms: x > 1 ms
  EXPECT_EQ(p[3].values[0], parquet::PlainInt64(2));  // x >= 1.5 ms: x >= 2 ms
  EXPECT_TRUE(Translate("ts = " + lit).empty());      // no millisecond equals it: dropped, conservatively
  p = Translate("ts = '1970-01-01T00:00:00.002' and ts < '1969-12-31T23:59:59.998500'");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].values[0], parquet::PlainInt64(2));
  EXPECT_EQ(p[1].values[0], parquet::PlainInt64(-1));  // ceil(-1.5 ms)
  // A finer file unit scales exactly.
  p = Translate("ts_ns > '1970-01-01T00:00:00.000000002'");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].values[0], parquet::PlainInt64(2));
}

TEST(ParquetFilterTest, PromotedAndDecimalColumnsUseTheFilesEncoding) {
  std::vector<ColumnPredicate> p = Translate("id < 7 and id < 3000000000 and id in (1, 3000000000)");
  ASSERT_EQ(p.size(), 2u);  // beyond int32 the int file column cannot hold the bound
  EXPECT_EQ(p[0].values[0], parquet::PlainInt32(7));
  EXPECT_EQ(p[1].op, Op::kIn);
  EXPECT_EQ(p[1].values, std::vector<std::string>{parquet::PlainInt32(1)});
  p = Translate("amount > 12.50 and price = '-1.00' and price > 5");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].values[0], parquet::PlainInt64(1250));
  EXPECT_EQ(p[1].values[0], std::string("\xff\xff\xff\xff\x9c", 5));  // -100, sign-extended to 5 bytes
  EXPECT_EQ(p[2].values[0], std::string("\x00\x00\x00\x01\xf4", 5));  // 500
  p = Translate("score < 1.5 and score > 0.1");  // float file, double table column
  ASSERT_EQ(p.size(), 1u);                       // 0.1 is no float: dropped
  EXPECT_EQ(p[0].values[0], parquet::PlainFloat(1.5f));
}

TEST(ParquetFilterTest, StartsWithBecomesARange) {
  std::vector<ColumnPredicate> p = Translate("city starts with 'Lis'");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].op, Op::kGtEq);
  EXPECT_EQ(p[0].values[0], "Lis");
  EXPECT_EQ(p[1].op, Op::kLt);
  EXPECT_EQ(p[1].values[0], "Lit");
  p = ToParquetPredicates(*Bind(Orders(), StartsWith("city", "a\xff")).value(), FileSchema());
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1].values[0], "b");
  // Row groups whose statistics exclude the range are pruned.
  const parquet::ParquetSchema schema = FileSchema();
  parquet::ColumnStatistics stats;
  stats.min = "Madrid";
  stats.max = "Porto";
  stats.null_count = 0;
  p = Translate("city starts with 'Lis'");
  const parquet::ColumnDescriptor& city = schema.column(ColumnOf("city"));
  EXPECT_FALSE(parquet::MayMatch(city, p[0], stats, 10) && parquet::MayMatch(city, p[1], stats, 10));
  stats.min = "Lisbon";
  EXPECT_TRUE(parquet::MayMatch(city, p[0], stats, 10) && parquet::MayMatch(city, p[1], stats, 10));
}

}  // namespace
}  // namespace floe::iceberg
