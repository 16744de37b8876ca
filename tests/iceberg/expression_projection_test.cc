// Projections per transform, after the cases of Java's TestProjection,
// TestTimestampsProjection, TestDatesProjection, TestTruncatesProjection and
// TestBucketingProjection (the expected predicates derived here).

#include "floe/iceberg/expression/projection.h"

#include <gtest/gtest.h>

#include "expression_test_schema.h"
#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/transform_function.h"

namespace floe::iceberg {
namespace {

using expression_test::Orders;

PartitionSpec SpecOf(int32_t source, Transform transform, std::string name = "p") {
  PartitionSpec spec;
  spec.fields = {PartitionField{{source}, 1000, std::move(name), std::move(transform)}};
  return spec;
}

using expression_test::BindText;

std::string Inclusive(const PartitionSpec& spec, std::string_view text) {
  Result<ExpressionPtr> p = ProjectInclusive(spec, Orders(), BindText(text));
  return p.ok() ? ToString(**p) : "error: " + p.status().message();
}

std::string Strict(const PartitionSpec& spec, std::string_view text) {
  Result<ExpressionPtr> p = ProjectStrict(spec, Orders(), BindText(text));
  return p.ok() ? ToString(**p) : "error: " + p.status().message();
}

TEST(ProjectionTest, IdentityKeepsEveryPredicate) {
  const PartitionSpec spec = SpecOf(3, Transform::Identity(), "city");
  for (const char* text : {"city = 'x'", "city != 'x'", "city < 'x'", "city in ('a', 'b')", "city not in ('a', 'b')",
                           "city starts with 'Li'", "city not starts with 'Li'", "city is null"}) {
    EXPECT_EQ(Inclusive(spec, text), ToString(*BindText(text))) << text;
    EXPECT_EQ(Strict(spec, text), ToString(*BindText(text))) << text;
  }
  const PartitionSpec scores = SpecOf(5, Transform::Identity(), "score");
  EXPECT_EQ(Inclusive(scores, "score is nan"), "score is nan");
  Result<ExpressionPtr> bound = ProjectInclusive(spec, Orders(), BindText("city = 'x'"));
  ASSERT_TRUE(bound.ok());
  EXPECT_EQ((*bound)->field_id(), 1000);
  EXPECT_EQ((*bound)->type()->id(), TypeId::kString);
}

TEST(ProjectionTest, OtherColumnsAndVoidProjectToTheConstants) {
  const PartitionSpec spec = SpecOf(3, Transform::Identity(), "city");
  EXPECT_EQ(Inclusive(spec, "n = 1"), "true");
  EXPECT_EQ(Strict(spec, "n = 1"), "false");
  EXPECT_EQ(Inclusive(spec, "n = 1 and city = 'x'"), "city = \"x\"");
  EXPECT_EQ(Strict(spec, "n = 1 or city = 'x'"), "city = \"x\"");
  EXPECT_EQ(Inclusive(spec, "not (n = 1 and city = 'x')"), "true");
  EXPECT_EQ(Inclusive(spec, "not (n = 1 or city = 'x')"), "city != \"x\"");
  const PartitionSpec voided = SpecOf(3, Transform::Void());
  EXPECT_EQ(Inclusive(voided, "city = 'x' and city is null"), "true");
  EXPECT_EQ(Strict(voided, "city is null"), "false");
  PartitionSpec wrong = SpecOf(99, Transform::Identity());
  EXPECT_TRUE(ProjectInclusive(wrong, Orders(), BindText("n = 1")).status().IsInvalidArgument());
  EXPECT_TRUE(ProjectInclusive(spec, Orders(), Equal("city", Literal::String("x"))).status().IsInvalidArgument());
}

TEST(ProjectionTest, BucketProjectsEqualityInclusivelyAndInequalityStrictly) {
  const PartitionSpec spec = SpecOf(1, Transform::Bucket(16).value(), "id_bucket");
  const int32_t b100 = BucketOf(Literal::Long(100), 16);
  const int32_t b101 = BucketOf(Literal::Long(101), 16);
  const std::string eq = "id_bucket = " + std::to_string(b100);
  EXPECT_EQ(Inclusive(spec, "id = 100"), eq);
  EXPECT_EQ(Strict(spec, "id = 100"), "false");
  EXPECT_EQ(Inclusive(spec, "id != 100"), "true");
  EXPECT_EQ(Strict(spec, "id != 100"), "id_bucket != " + std::to_string(b100));
  const std::string set = b100 < b101 ? std::to_string(b100) + ", " + std::to_string(b101)
                                      : std::to_string(b101) + ", " + std::to_string(b100);
  EXPECT_EQ(Inclusive(spec, "id in (100, 101)"), b100 == b101 ? eq : "id_bucket in (" + set + ")");
  EXPECT_EQ(Strict(spec, "id not in (100, 101)"),
            b100 == b101 ? "id_bucket != " + std::to_string(b100) : "id_bucket not in (" + set + ")");
  EXPECT_EQ(Inclusive(spec, "id < 100"), "true");
  EXPECT_EQ(Strict(spec, "id < 100"), "false");
  const PartitionSpec cities = SpecOf(3, Transform::Bucket(4).value(), "city_bucket");
  EXPECT_EQ(Inclusive(cities, "city is not null"), "city_bucket is not null");
  EXPECT_EQ(Strict(cities, "city is null"), "city_bucket is null");
}

TEST(ProjectionTest, TruncateIntegersMoveOpenBounds) {
  const PartitionSpec spec = SpecOf(6, Transform::Truncate(10).value(), "n_trunc");
  EXPECT_EQ(Inclusive(spec, "n < 100"), "n_trunc <= 90");
  EXPECT_EQ(Strict(spec, "n < 100"), "n_trunc < 100");
  EXPECT_EQ(Inclusive(spec, "n <= 100"), "n_trunc <= 100");
  EXPECT_EQ(Strict(spec, "n <= 100"), "n_trunc < 100");
  EXPECT_EQ(Inclusive(spec, "n > 100"), "n_trunc >= 100");
  EXPECT_EQ(Strict(spec, "n > 100"), "n_trunc > 100");
  EXPECT_EQ(Inclusive(spec, "n >= 100"), "n_trunc >= 100");
  EXPECT_EQ(Strict(spec, "n >= 100"), "n_trunc > 90");
  EXPECT_EQ(Inclusive(spec, "n = 105"), "n_trunc = 100");
  EXPECT_EQ(Strict(spec, "n = 105"), "false");
  EXPECT_EQ(Inclusive(spec, "n != 105"), "true");
  EXPECT_EQ(Strict(spec, "n != 105"), "n_trunc != 100");
  EXPECT_EQ(Inclusive(spec, "n in (99, 100, 101)"), "n_trunc in (90, 100)");
  EXPECT_EQ(Strict(spec, "n not in (99, 100, 101)"), "n_trunc not in (90, 100)");
  EXPECT_EQ(Inclusive(spec, "n < -5"), "n_trunc <= -10");
  EXPECT_EQ(Strict(spec, "n > -5"), "n_trunc > -10");
  // At the end of the range there is no neighbour: no projection.
  EXPECT_EQ(Inclusive(spec, "n < -2147483648"), "true");
  EXPECT_EQ(Strict(spec, "n <= 2147483647"), "false");
  const PartitionSpec amounts = SpecOf(2, Transform::Truncate(10).value(), "amount_trunc");
  EXPECT_EQ(Inclusive(amounts, "amount < 1.00"), "amount_trunc <= 0.90");
  EXPECT_EQ(Strict(amounts, "amount < 1.00"), "amount_trunc < 1.00");
  EXPECT_EQ(Inclusive(amounts, "amount > '-0.05'"), "amount_trunc >= -0.10");
  EXPECT_EQ(Inclusive(amounts, "amount = 12.34"), "amount_trunc = 12.30");
}

TEST(ProjectionTest, TruncateStringsHandlePrefixes) {
  const PartitionSpec spec = SpecOf(3, Transform::Truncate(5).value(), "c");
  EXPECT_EQ(Inclusive(spec, "city < 'abcdefg'"), "c <= \"abcde\"");
  EXPECT_EQ(Strict(spec, "city < 'abcdefg'"), "c < \"abcde\"");
  EXPECT_EQ(Inclusive(spec, "city >= 'abcdefg'"), "c >= \"abcde\"");
  EXPECT_EQ(Strict(spec, "city >= 'abcdefg'"), "c > \"abcde\"");
  EXPECT_EQ(Inclusive(spec, "city = 'abcdefg'"), "c = \"abcde\"");
  EXPECT_EQ(Strict(spec, "city = 'abcdefg'"), "false");
  EXPECT_EQ(Strict(spec, "city != 'abcdefg'"), "c != \"abcde\"");
  EXPECT_EQ(Inclusive(spec, "city in ('abcdefg', 'abcdexyz', 'b')"), "c in (\"abcde\", \"b\")");
  EXPECT_EQ(Inclusive(spec, "city starts with 'abc'"), "c starts with \"abc\"");
  EXPECT_EQ(Strict(spec, "city starts with 'abc'"), "c starts with \"abc\"");
  EXPECT_EQ(Inclusive(spec, "city starts with 'abcde'"), "c starts with \"abcde\"");
  EXPECT_EQ(Strict(spec, "city starts with 'abcde'"), "c = \"abcde\"");
  EXPECT_EQ(Inclusive(spec, "city starts with 'abcdefg'"), "c starts with \"abcde\"");
  EXPECT_EQ(Strict(spec, "city starts with 'abcdefg'"), "false");
  EXPECT_EQ(Inclusive(spec, "city not starts with 'abc'"), "c not starts with \"abc\"");
  EXPECT_EQ(Strict(spec, "city not starts with 'abc'"), "c not starts with \"abc\"");
  EXPECT_EQ(Inclusive(spec, "city not starts with 'abcde'"), "c != \"abcde\"");
  EXPECT_EQ(Strict(spec, "city not starts with 'abcde'"), "c != \"abcde\"");
  EXPECT_EQ(Inclusive(spec, "city not starts with 'abcdefg'"), "true");
  EXPECT_EQ(Strict(spec, "city not starts with 'abcdefg'"), "c not starts with \"abcde\"");
  // The width counts characters, not bytes.
  const PartitionSpec two = SpecOf(3, Transform::Truncate(2).value(), "c");
  EXPECT_EQ(Inclusive(two, "city = '\xc3\xa9\xc3\xa9\xc3\xa9'"), "c = \"\xc3\xa9\xc3\xa9\"");
  EXPECT_EQ(Strict(two, "city starts with '\xc3\xa9\xc3\xa9'"), "c = \"\xc3\xa9\xc3\xa9\"");
}

TEST(ProjectionTest, TimestampTransformsOnPositiveTimes) {
  const PartitionSpec day = SpecOf(4, Transform::Day(), "d");
  EXPECT_EQ(Inclusive(day, "order_ts < '2017-12-01T00:00:00'"), "d <= 2017-11-30");
  EXPECT_EQ(Strict(day, "order_ts < '2017-12-01T00:00:00'"), "d < 2017-12-01");
  EXPECT_EQ(Inclusive(day, "order_ts <= '2017-12-01T10:00:00'"), "d <= 2017-12-01");
  EXPECT_EQ(Strict(day, "order_ts <= '2017-12-01T10:00:00'"), "d < 2017-12-01");
  EXPECT_EQ(Inclusive(day, "order_ts > '2017-12-01T10:00:00'"), "d >= 2017-12-01");
  EXPECT_EQ(Strict(day, "order_ts > '2017-12-01T10:00:00'"), "d > 2017-12-01");
  EXPECT_EQ(Inclusive(day, "order_ts >= '2017-12-01T00:00:00'"), "d >= 2017-12-01");
  EXPECT_EQ(Strict(day, "order_ts >= '2017-12-01T00:00:00'"), "d > 2017-11-30");
  EXPECT_EQ(Inclusive(day, "order_ts = '2017-12-01T10:00:00'"), "d = 2017-12-01");
  EXPECT_EQ(Strict(day, "order_ts = '2017-12-01T10:00:00'"), "false");
  EXPECT_EQ(Inclusive(day, "order_ts != '2017-12-01T10:00:00'"), "true");
  EXPECT_EQ(Strict(day, "order_ts != '2017-12-01T10:00:00'"), "d != 2017-12-01");
  EXPECT_EQ(Inclusive(day, "order_ts in ('2017-12-01T10:00:00', '2017-12-02T10:00:00', '2017-12-01T11:00:00')"),
            "d in (2017-12-01, 2017-12-02)");
  EXPECT_EQ(Strict(day, "order_ts in ('2017-12-01T10:00:00', '2017-12-02T10:00:00')"), "false");
  const PartitionSpec month = SpecOf(4, Transform::Month(), "m");
  EXPECT_EQ(Inclusive(month, "order_ts < '2017-12-01T00:00:00'"), "m <= 574");
  EXPECT_EQ(Strict(month, "order_ts < '2017-12-01T00:00:00'"), "m < 575");
  const PartitionSpec year = SpecOf(16, Transform::Year(), "y");
  EXPECT_EQ(Inclusive(year, "ts >= '2017-01-01T00:00:00'"), "y >= 47");
  EXPECT_EQ(Strict(year, "ts >= '2017-01-01T00:00:00'"), "y > 46");
  const PartitionSpec hour = SpecOf(17, Transform::Hour(), "h");
  EXPECT_EQ(Inclusive(hour, "ts_ns > '1970-01-01T05:00:00'"), "h >= 5");
  EXPECT_EQ(Strict(hour, "ts_ns <= '1970-01-01T05:59:59.999999999'"), "h < 6");
  // Dates through month and day.
  const PartitionSpec date_month = SpecOf(12, Transform::Month(), "m");
  EXPECT_EQ(Inclusive(date_month, "day < '2017-12-01'"), "m <= 574");
  EXPECT_EQ(Strict(date_month, "day <= '2017-11-30'"), "m < 575");
  const PartitionSpec date_day = SpecOf(12, Transform::Day(), "d");
  EXPECT_EQ(Inclusive(date_day, "day = '2017-12-01'"), "d = 2017-12-01");
}

TEST(ProjectionTest, TimeProjectionsOfNegativeValuesAdmitTheOldWritersPartition) {
  const PartitionSpec day = SpecOf(4, Transform::Day(), "d");
  // x < 1969-12-31 00:00 is day <= -2; the old writers put those in -1 too.
  EXPECT_EQ(Inclusive(day, "order_ts < '1969-12-31T00:00:00'"), "d <= 1969-12-31");
  EXPECT_EQ(Strict(day, "order_ts < '1969-12-31T00:00:00'"), "d < 1969-12-31");
  EXPECT_EQ(Inclusive(day, "order_ts = '1969-12-31T10:00:00'"), "d in (1969-12-31, 1970-01-01)");
  EXPECT_EQ(Inclusive(day, "order_ts in ('1969-12-31T10:00:00', '2017-12-01T10:00:00')"),
            "d in (1969-12-31, 1970-01-01, 2017-12-01)");
  EXPECT_EQ(Inclusive(day, "order_ts > '1969-12-30T10:00:00'"), "d >= 1969-12-30");
  EXPECT_EQ(Strict(day, "order_ts > '1969-12-30T10:00:00'"), "d > 1969-12-31");
  EXPECT_EQ(Strict(day, "order_ts >= '1970-01-01T00:00:00'"), "d > 1970-01-01");
  EXPECT_EQ(Strict(day, "order_ts != '1969-12-31T10:00:00'"), "d not in (1969-12-31, 1970-01-01)");
  EXPECT_EQ(Strict(day, "order_ts not in ('1969-12-31T10:00:00', '2017-12-01T10:00:00')"),
            "d not in (1969-12-31, 1970-01-01, 2017-12-01)");
  const PartitionSpec month = SpecOf(12, Transform::Month(), "m");
  EXPECT_EQ(Inclusive(month, "day <= '1969-11-30'"), "m <= -1");  // month -2, admitted as -1
  EXPECT_EQ(Strict(month, "day >= '1969-11-01'"), "m > -2");     // > -3 is moved up one
  const PartitionSpec year = SpecOf(4, Transform::Year(), "y");
  EXPECT_EQ(Inclusive(year, "order_ts = '1969-06-01T00:00:00'"), "y in (-1, 0)");
}

TEST(ProjectionTest, SeveralFieldsOfOneColumnCombine) {
  PartitionSpec spec;
  spec.fields = {PartitionField{{4}, 1000, "d", Transform::Day()},
                 PartitionField{{4}, 1001, "b", Transform::Bucket(8).value()}};
  const int32_t bucket = BucketOf(Literal::Parse(Type::TimestampTz(), "2017-12-01T10:00:00").value(), 8);
  EXPECT_EQ(Inclusive(spec, "order_ts = '2017-12-01T10:00:00'"), "(d = 2017-12-01 and b = " + std::to_string(bucket) + ")");
  EXPECT_EQ(Strict(spec, "order_ts != '2017-12-01T10:00:00'"), "(d != 2017-12-01 or b != " + std::to_string(bucket) + ")");
  EXPECT_EQ(Inclusive(spec, "order_ts < '2017-12-01T00:00:00' or order_ts is null"), "(d <= 2017-11-30 or (d is null and b is null))");
}

}  // namespace
}  // namespace floe::iceberg
