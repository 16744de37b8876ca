#include "floe/iceberg/expression/binder.h"

#include <gtest/gtest.h>

#include "expression_test_schema.h"
#include "floe/iceberg/expression/parser.h"

namespace floe::iceberg {
namespace {

using expression_test::Column;
using expression_test::Orders;

Result<ExpressionPtr> TryBind(std::string_view text, bool case_sensitive = true) {
  FLOE_ASSIGN_OR_RETURN(ExpressionPtr parsed, ParseExpression(text));
  return Bind(Orders(), parsed, case_sensitive);
}

std::string Bound(std::string_view text) {
  Result<ExpressionPtr> e = TryBind(text);
  return e.ok() ? ToString(**e) : "error: " + e.status().message();
}

TEST(ExpressionBinderTest, ResolvesColumnsAndCastsLiterals) {
  Result<ExpressionPtr> e = TryBind("n = 5");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_TRUE((*e)->is_bound());
  EXPECT_EQ((*e)->field_id(), 6);
  EXPECT_EQ((*e)->type()->id(), TypeId::kInt);
  EXPECT_EQ((*e)->literal(), Literal::Int(5));

  e = TryBind("amount < 12.50");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ((*e)->literal().decimal_value(), 1250);
  EXPECT_EQ((*e)->literal().type()->ToString(), "decimal(18,2)");

  e = TryBind("order_ts >= '2026-10-21T20:00:00' and day = '1969-12-31' and score > 1");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(ToString(**e), "((order_ts >= 2026-10-21T20:00:00.000000+00:00 and day = 1969-12-31) and score > 1)");
  const Expression& ts = *(*e)->left()->left();
  EXPECT_EQ(ts.literal().type()->id(), TypeId::kTimestampTz);
  EXPECT_EQ(ts.literal().long_value(), 1792612800000000);
  EXPECT_EQ((*e)->left()->right()->literal(), Literal::Date(-1));
  EXPECT_EQ((*e)->right()->literal(), Literal::Double(1.0));

  EXPECT_EQ(Bound("flag = true"), "flag = true");
  EXPECT_EQ(Bound("city starts with 'Li'"), "city starts with \"Li\"");
  EXPECT_EQ(Bound("bin = 'cafe'"), "bin = cafe");
}

TEST(ExpressionBinderTest, NestedStructFieldsBindByDottedName) {
  Result<ExpressionPtr> e = TryBind("info.zip = '1000'");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ((*e)->field_id(), 8);
  EXPECT_EQ((*e)->column(), "info.zip");
  EXPECT_EQ(Bound("tags.element = 'x'"), "error: cannot filter on column 'tags.element': it is inside a list or map");
  EXPECT_EQ(Bound("info is null"),
            "error: cannot filter on column 'info' of type struct<8: zip: optional string, 9: code: required int>: "
            "not a primitive column");
}

TEST(ExpressionBinderTest, CaseInsensitiveBindingUsesTheSchemaName) {
  EXPECT_EQ(Bound("CITY = 'x'"), "error: cannot find column 'CITY' in schema");
  Result<ExpressionPtr> e = TryBind("CITY = 'x' and Info.Zip is null", false);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(ToString(**e), "(city = \"x\" and info.zip is null)");
}

TEST(ExpressionBinderTest, ErrorsNameTheColumnAndValue) {
  EXPECT_EQ(Bound("missing = 1"), "error: cannot find column 'missing' in schema");
  EXPECT_EQ(Bound("amount = 'abc'"), "error: cannot compare column amount (decimal(18,2)) with 'abc'");
  EXPECT_EQ(Bound("amount = 1.234"), "error: cannot compare column amount (decimal(18,2)) with '1.234'");
  EXPECT_EQ(Bound("city = 5"), "error: cannot compare column city (string) with 5");
  EXPECT_EQ(Bound("score = 'nan'"), "error: cannot compare column score (double) with NaN (use 'is nan')");
  EXPECT_EQ(Bound("n is nan"), "error: 'is nan' needs a float or double column, not column n (int)");
  EXPECT_EQ(Bound("n starts with '1'"), "error: 'starts with' needs a string column, not column n (int)");
  EXPECT_TRUE(Bind(Orders(), Predicate(Operation::kLt, "n")).status().IsInvalidArgument());
  EXPECT_TRUE(Bind(Orders(), Predicate(Operation::kIsNull, "n", {Literal::Long(1)})).status().IsInvalidArgument());
}

TEST(ExpressionBinderTest, NullTestsOnRequiredFieldsFold) {
  EXPECT_EQ(Bound("qty is null"), "false");
  EXPECT_EQ(Bound("qty is not null"), "true");
  EXPECT_EQ(Bound("id is null or n is null"), "n is null");
  // info is optional, so its required field is null where info is.
  EXPECT_EQ(Bound("info.code is null"), "info.code is null");
}

TEST(ExpressionBinderTest, OutOfRangeLiteralsFoldLikeJava) {
  EXPECT_EQ(Bound("qty < 3000000000"), "true");
  EXPECT_EQ(Bound("qty <= 3000000000"), "true");
  EXPECT_EQ(Bound("qty > 3000000000"), "false");
  EXPECT_EQ(Bound("qty = 3000000000"), "false");
  EXPECT_EQ(Bound("qty != 3000000000"), "true");
  EXPECT_EQ(Bound("qty > -3000000000"), "true");
  EXPECT_EQ(Bound("qty < -3000000000"), "false");
  // An optional column keeps SQL's unknown on nulls.
  EXPECT_EQ(Bound("n < 3000000000"), "n is not null");
  EXPECT_EQ(Bound("n >= -3000000000"), "n is not null");
  EXPECT_EQ(Bound("id < 99999999999999999999"), "true");
  EXPECT_EQ(Bound("id > '-99999999999999999999'"), "true");
  EXPECT_EQ(Bound("f < 1e300"), "f is not null");
  EXPECT_EQ(Bound("f > '-1e300'"), "f is not null");
  EXPECT_EQ(Bound("f < 1e30"), "f < 1e+30");
  EXPECT_EQ(Bound("price < 10000000"), "price is not null");  // decimal(9,2) holds 7 whole digits
  EXPECT_EQ(Bound("price < 9999999"), "price < 9999999.00");
  EXPECT_EQ(Bound("price > '12345678.5'"), "false");
  EXPECT_EQ(Bound("n in (1, 3000000000)"), "n = 1");
  EXPECT_EQ(Bound("n in (3000000000)"), "false");
  EXPECT_EQ(Bound("n not in (3000000000, -3000000000)"), "n is not null");
  EXPECT_EQ(Bound("n not in (3, 3000000000)"), "n != 3");
}

TEST(ExpressionBinderTest, InListsAreDeduplicatedAndSorted) {
  EXPECT_EQ(Bound("n in (3, 1, 3, 2)"), "n in (1, 2, 3)");
  EXPECT_EQ(Bound("city not in ('b', 'a', 'b')"), "city not in (\"a\", \"b\")");
  EXPECT_EQ(Bound("n in (7, 7)"), "n = 7");
  EXPECT_EQ(ToString(*Bind(Orders(), In("n", {})).value()), "false");
  EXPECT_EQ(ToString(*Bind(Orders(), NotIn("n", {})).value()), "n is not null");
}

TEST(ExpressionBinderTest, BoundExpressionsRebindByFieldId) {
  Result<ExpressionPtr> bound = TryBind("city = 'x' and n < 4");
  ASSERT_TRUE(bound.ok());
  Schema renamed = Schema::Make(1, {Column(3, "town", Type::String()), Column(6, "count", Type::Long())}).value();
  Result<ExpressionPtr> rebound = Bind(renamed, *bound);
  ASSERT_TRUE(rebound.ok()) << rebound.status().ToString();
  EXPECT_EQ(ToString(**rebound), "(town = \"x\" and count < 4)");
  EXPECT_EQ((*rebound)->right()->literal(), Literal::Long(4));
  Schema without = Schema::Make(2, {Column(3, "town", Type::String())}).value();
  EXPECT_TRUE(Bind(without, *bound).status().IsInvalidArgument());
}

}  // namespace
}  // namespace floe::iceberg
