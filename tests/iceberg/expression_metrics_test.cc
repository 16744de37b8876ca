#include "floe/iceberg/expression/metrics_evaluator.h"

#include <gtest/gtest.h>

#include <cmath>

#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/parser.h"
#include "schema_test_util.h"

namespace floe::iceberg {
namespace {

using testing::Column;

// After Java's TestInclusiveMetricsEvaluator: one column per situation.
Schema MetricsSchema() {
  return Schema::Make(0, {Column(1, "id", Type::Int(), true),
                          Column(2, "no_stats", Type::Int()),
                          Column(3, "all_nulls", Type::String()),
                          Column(4, "some_nulls", Type::String()),
                          Column(5, "no_nulls", Type::String()),
                          Column(6, "all_nans", Type::Double()),
                          Column(7, "some_nans", Type::Float()),
                          Column(8, "no_nans", Type::Float()),
                          Column(9, "nan_bounds", Type::Double()),
                          Column(10, "trunc", Type::String()),
                          Column(11, "no_nan_count", Type::Double()),
                          Column(12, "null_floats", Type::Float()),
                          Column(13, "wide", Type::Long()),
                          Column(14, "moment", Type::Timestamp()),
                          Column(15, "zero", Type::Double()),
                          Column(16, "info", Type::Struct({Column(17, "zip", Type::String())}))})
      .value();
}

DataFile File() {
  DataFile f;
  f.file_path = "data/file.parquet";
  f.record_count = 50;
  f.value_counts = {{1, 50}, {3, 50}, {4, 50}, {5, 50}, {6, 50}, {7, 50}, {8, 50}, {9, 50}, {10, 50},
                    {11, 50}, {12, 50}, {13, 50}, {14, 50}, {15, 50}, {17, 50}};
  f.null_value_counts = {{1, 0}, {3, 50}, {4, 10}, {5, 0}, {6, 0}, {7, 0}, {8, 0}, {9, 0}, {10, 0},
                         {11, 0}, {12, 50}, {13, 0}, {14, 0}, {15, 0}, {17, 0}};
  f.nan_value_counts = {{6, 50}, {7, 1}, {8, 0}, {9, 1}, {15, 0}};
  f.lower_bounds = {{1, Literal::Int(30).ToBytes()},
                    {4, "bbb"},
                    {5, "abc"},
                    {7, Literal::Float(2).ToBytes()},
                    {8, Literal::Float(-1).ToBytes()},
                    {9, Literal::Double(std::nan("")).ToBytes()},
                    {10, "abc"},
                    {11, Literal::Double(1).ToBytes()},
                    // Written when the columns were int and date.
                    {13, Literal::Int(100).ToBytes()},
                    {14, Literal::Date(1).ToBytes()},
                    {15, Literal::Double(0.0).ToBytes()},
                    {17, "1000"}};
  f.upper_bounds = {{1, Literal::Int(79).ToBytes()},
                    {4, "eee"},
                    {5, "abe"},
                    {7, Literal::Float(4).ToBytes()},
                    {8, Literal::Float(2).ToBytes()},
                    {9, Literal::Double(std::nan("")).ToBytes()},
                    {10, "abd"},  // truncated from "abc..." and incremented
                    {11, Literal::Double(2).ToBytes()},
                    {13, Literal::Int(200).ToBytes()},
                    {14, Literal::Date(2).ToBytes()},
                    {15, Literal::Double(-0.0).ToBytes()},
                    {17, "1000"}};
  return f;
}

ExpressionPtr BindToMetricsSchema(std::string_view text) {
  Result<ExpressionPtr> parsed = ParseExpression(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  Result<ExpressionPtr> bound = Bind(MetricsSchema(), *parsed);
  EXPECT_TRUE(bound.ok()) << text << ": " << bound.status().ToString();
  return bound.ok() ? *bound : AlwaysTrue();
}

bool FileMightMatch(std::string_view text, const DataFile& file = File()) {
  return InclusiveMetricsMightMatch(MetricsSchema(), BindToMetricsSchema(text), file);
}

bool All(std::string_view text, const DataFile& file = File()) {
  return StrictMetricsAllMatch(MetricsSchema(), BindToMetricsSchema(text), file);
}

TEST(InclusiveMetricsTest, IntegerBoundsExcludeEachComparison) {
  EXPECT_FALSE(FileMightMatch("id < 30"));
  EXPECT_TRUE(FileMightMatch("id < 31"));
  EXPECT_FALSE(FileMightMatch("id <= 29"));
  EXPECT_TRUE(FileMightMatch("id <= 30"));
  EXPECT_FALSE(FileMightMatch("id > 79"));
  EXPECT_TRUE(FileMightMatch("id > 78"));
  EXPECT_FALSE(FileMightMatch("id >= 80"));
  EXPECT_TRUE(FileMightMatch("id >= 79"));
  EXPECT_FALSE(FileMightMatch("id = 5"));
  EXPECT_TRUE(FileMightMatch("id = 30"));
  EXPECT_FALSE(FileMightMatch("id = 80"));
  EXPECT_TRUE(FileMightMatch("id != 30"));  // bounds need not be values
  EXPECT_FALSE(FileMightMatch("id in (5, 6, 80)"));
  EXPECT_TRUE(FileMightMatch("id in (5, 31)"));
  EXPECT_TRUE(FileMightMatch("id not in (30, 31)"));
  EXPECT_FALSE(FileMightMatch("not id >= 5"));  // NOT is rewritten: id < 5
  EXPECT_TRUE(FileMightMatch("id < 5 or id = 40"));
  EXPECT_FALSE(FileMightMatch("id < 5 and id = 40"));
  std::string many = "id in (0";
  for (int i = 1; i < 300; ++i) many += ", " + std::to_string(i * 1000);
  EXPECT_TRUE(FileMightMatch(many + ")"));  // beyond 200 values the bounds are not consulted
}

TEST(InclusiveMetricsTest, NullCountsDecideNullTests) {
  EXPECT_FALSE(FileMightMatch("all_nulls is not null"));
  EXPECT_TRUE(FileMightMatch("all_nulls is null"));
  EXPECT_FALSE(FileMightMatch("no_nulls is null"));
  EXPECT_TRUE(FileMightMatch("some_nulls is null and some_nulls is not null"));
  EXPECT_FALSE(FileMightMatch("all_nulls < 'a'"));
  EXPECT_FALSE(FileMightMatch("all_nulls = 'a'"));
  EXPECT_FALSE(FileMightMatch("all_nulls in ('a', 'b')"));
  EXPECT_FALSE(FileMightMatch("all_nulls starts with 'a'"));
  EXPECT_FALSE(FileMightMatch("all_nulls not starts with 'a'"));  // unknown on every row
}

TEST(InclusiveMetricsTest, MissingStatisticsMightMatch) {
  EXPECT_TRUE(FileMightMatch("no_stats < 0 and no_stats is null and no_stats is not null and no_stats in (1, 2)"));
  DataFile bare;
  bare.record_count = 10;
  EXPECT_TRUE(FileMightMatch("id < 0 and all_nulls is not null", bare));
  DataFile empty = File();
  empty.record_count = 0;
  EXPECT_FALSE(FileMightMatch("id > 0", empty));
  EXPECT_FALSE(FileMightMatch("true", empty));
  DataFile unknown = File();
  unknown.record_count = -1;
  EXPECT_TRUE(FileMightMatch("id < 0", unknown));
  DataFile corrupt = File();
  corrupt.lower_bounds[1] = "x";  // not 4 bytes: ignored, not trusted
  EXPECT_TRUE(FileMightMatch("id < 0", corrupt));
}

TEST(InclusiveMetricsTest, NaNCountsAndUnreliableNaNBounds) {
  EXPECT_FALSE(FileMightMatch("no_nans is nan"));
  EXPECT_TRUE(FileMightMatch("some_nans is nan"));
  EXPECT_FALSE(FileMightMatch("all_nans is not nan"));
  EXPECT_TRUE(FileMightMatch("some_nans is not nan"));
  EXPECT_FALSE(FileMightMatch("all_nans < 1 or all_nans > 1 or all_nans = 1 or all_nans in (1, 2)"));
  EXPECT_TRUE(FileMightMatch("all_nans != 1"));
  EXPECT_FALSE(FileMightMatch("null_floats is nan"));  // only nulls, so no NaN either
  EXPECT_FALSE(FileMightMatch("some_nans < 2"));
  EXPECT_TRUE(FileMightMatch("some_nans <= 2"));
  EXPECT_TRUE(FileMightMatch("nan_bounds < -1000 and nan_bounds > 1000 and nan_bounds = 3"));
  EXPECT_TRUE(FileMightMatch("no_nan_count is nan"));
}

TEST(InclusiveMetricsTest, StartsWithOnTruncatedBounds) {
  EXPECT_TRUE(FileMightMatch("trunc starts with 'ab'"));
  EXPECT_TRUE(FileMightMatch("trunc starts with 'abc'"));
  EXPECT_TRUE(FileMightMatch("trunc starts with 'abcdef'"));
  EXPECT_TRUE(FileMightMatch("trunc starts with 'abd'"));
  EXPECT_FALSE(FileMightMatch("trunc starts with 'abe'"));
  EXPECT_FALSE(FileMightMatch("trunc starts with 'aa'"));
  EXPECT_FALSE(FileMightMatch("trunc starts with 'b'"));
  EXPECT_FALSE(FileMightMatch("no_nulls not starts with 'ab'"));  // both bounds start with it
  EXPECT_TRUE(FileMightMatch("no_nulls not starts with 'abc'"));
  EXPECT_TRUE(FileMightMatch("no_nulls not starts with 'abcdef'"));
  EXPECT_TRUE(FileMightMatch("some_nulls not starts with 'b'"));
}

TEST(InclusiveMetricsTest, BoundsFromBeforeATypePromotionAndSignedZeros) {
  EXPECT_FALSE(FileMightMatch("wide < 100"));
  EXPECT_TRUE(FileMightMatch("wide = 150"));
  EXPECT_FALSE(FileMightMatch("wide > 200"));
  EXPECT_FALSE(FileMightMatch("moment < '1970-01-02T00:00:00'"));
  EXPECT_TRUE(FileMightMatch("moment = '1970-01-02T00:00:00'"));
  EXPECT_FALSE(FileMightMatch("moment > '1970-01-03T00:00:00'"));
  // Bounds [0.0, -0.0] (as a total-order writer records a file of zeros):
  // -0 = 0, so both = 0 and = -0 may match.
  EXPECT_TRUE(FileMightMatch("zero = 0"));
  EXPECT_TRUE(FileMightMatch("zero = '-0.0'"));
  EXPECT_FALSE(FileMightMatch("zero > 0"));
}

TEST(StrictMetricsTest, IntegerBoundsProveEachComparison) {
  EXPECT_TRUE(All("id < 80"));
  EXPECT_FALSE(All("id < 79"));
  EXPECT_TRUE(All("id <= 79"));
  EXPECT_TRUE(All("id > 29"));
  EXPECT_FALSE(All("id > 30"));
  EXPECT_TRUE(All("id >= 30"));
  EXPECT_FALSE(All("id = 30"));
  EXPECT_TRUE(All("id != 5"));
  EXPECT_TRUE(All("id != 80"));
  EXPECT_FALSE(All("id != 40"));
  EXPECT_TRUE(All("id not in (5, 85)"));
  EXPECT_FALSE(All("id not in (5, 31)"));
  EXPECT_FALSE(All("id in (30, 79)"));
  EXPECT_TRUE(All("id < 80 and id >= 30"));
  EXPECT_TRUE(All("id < 5 or id > 0"));
  EXPECT_FALSE(All("not id < 80"));
  DataFile single = File();
  single.lower_bounds[1] = single.upper_bounds[1] = Literal::Int(42).ToBytes();
  EXPECT_TRUE(All("id = 42", single));
  EXPECT_TRUE(All("id in (41, 42)", single));
  EXPECT_FALSE(All("id in (41, 43)", single));
}

TEST(StrictMetricsTest, NullsAndNaNsKeepComparisonsFromAllMatching) {
  EXPECT_TRUE(All("all_nulls is null"));
  EXPECT_FALSE(All("some_nulls is null"));
  EXPECT_TRUE(All("no_nulls is not null"));
  EXPECT_FALSE(All("some_nulls is not null"));
  // SQL: a null is not != anything, unlike Java's strict evaluator.
  EXPECT_FALSE(All("all_nulls != 'x'"));
  EXPECT_FALSE(All("some_nulls not in ('a', 'zz')"));
  EXPECT_TRUE(All("no_nulls != 'x'"));
  EXPECT_TRUE(All("all_nans is nan"));
  EXPECT_FALSE(All("some_nans is nan"));
  EXPECT_TRUE(All("no_nans is not nan"));
  EXPECT_TRUE(All("null_floats is not nan"));
  EXPECT_FALSE(All("some_nans is not nan"));
  EXPECT_TRUE(All("no_nans < 3"));
  EXPECT_FALSE(All("some_nans < 10"));
  EXPECT_FALSE(All("all_nans != 1"));
  EXPECT_FALSE(All("no_nan_count < 10"));  // a missing NaN count is no proof of none
  EXPECT_FALSE(All("nan_bounds > -1000"));
}

TEST(StrictMetricsTest, PrefixesMissingStatsNestedColumnsAndCounts) {
  EXPECT_TRUE(All("no_nulls starts with 'ab'"));
  EXPECT_FALSE(All("no_nulls starts with 'abc'"));
  EXPECT_FALSE(All("some_nulls starts with ''"));
  EXPECT_TRUE(All("no_nulls not starts with 'b'"));
  EXPECT_TRUE(All("no_nulls not starts with 'aa'"));
  EXPECT_FALSE(All("no_nulls not starts with 'a'"));
  EXPECT_FALSE(All("no_stats < 100 or no_stats is not null"));
  EXPECT_FALSE(All("info.zip = '1000'"));  // nested: not decided, as in Java
  DataFile empty = File();
  empty.record_count = 0;
  EXPECT_TRUE(All("id < 0", empty));
  DataFile unknown = File();
  unknown.record_count = -1;
  EXPECT_FALSE(All("id < 80", unknown));
  // Signed zeros: bounds [0.0, -0.0] do not prove zero > -0.
  EXPECT_FALSE(All("zero > '-0.0'"));
  EXPECT_FALSE(All("zero < 0"));
  EXPECT_TRUE(All("zero <= 0 and zero >= '-0.0' and zero < 1"));
  EXPECT_TRUE(All("wide >= 100 and wide <= 200"));
  EXPECT_TRUE(All("moment >= '1970-01-02'"));
}

}  // namespace
}  // namespace floe::iceberg
