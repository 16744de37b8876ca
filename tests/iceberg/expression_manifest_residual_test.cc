#include <gtest/gtest.h>

#include <cmath>

#include "expression_test_schema.h"
#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/manifest_evaluator.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/expression/residual.h"

namespace floe::iceberg {
namespace {

using expression_test::Orders;

// city (identity), day(order_ts), score (identity).
PartitionSpec Spec() {
  PartitionSpec spec;
  spec.spec_id = 3;
  spec.fields = {PartitionField{{3}, 1000, "city", Transform::Identity()},
                 PartitionField{{4}, 1001, "order_day", Transform::Day()},
                 PartitionField{{5}, 1002, "score", Transform::Identity()}};
  return spec;
}

using expression_test::BindText;

PartitionFieldSummary Summary(bool nulls, std::optional<bool> nans, std::optional<Literal> lower,
                              std::optional<Literal> upper) {
  PartitionFieldSummary s;
  s.contains_null = nulls;
  s.contains_nan = nans;
  if (lower) s.lower_bound = lower->ToBytes();
  if (upper) s.upper_bound = upper->ToBytes();
  return s;
}

Literal Day(std::string_view text) { return Literal::Parse(Type::Date(), text).value(); }

ManifestFile November() {
  ManifestFile m;
  m.manifest_path = "metadata/m0.avro";
  m.partition_spec_id = 3;
  m.partitions = {Summary(false, std::nullopt, Literal::String("Berlin"), Literal::String("Madrid")),
                  Summary(false, std::nullopt, Day("2017-11-01"), Day("2017-11-30")),
                  Summary(false, true, Literal::Double(1), Literal::Double(2))};
  return m;
}

bool ManifestMightMatch(std::string_view text, const ManifestFile& m = November()) {
  Result<ManifestEvaluator> e = ManifestEvaluator::Make(Spec(), Orders(), BindText(text));
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return e.ok() && e->Eval(m);
}

TEST(ManifestEvaluatorTest, BoundsOfPartitionValuesPrune) {
  EXPECT_TRUE(ManifestMightMatch("city = 'Lisbon'"));
  EXPECT_FALSE(ManifestMightMatch("city = 'Porto'"));
  EXPECT_FALSE(ManifestMightMatch("city < 'Berlin'"));
  EXPECT_TRUE(ManifestMightMatch("city <= 'Berlin'"));
  EXPECT_FALSE(ManifestMightMatch("city > 'Madrid'"));
  EXPECT_FALSE(ManifestMightMatch("city in ('Aachen', 'Porto')"));
  EXPECT_TRUE(ManifestMightMatch("city in ('Aachen', 'Lisbon')"));
  EXPECT_TRUE(ManifestMightMatch("city starts with 'Li'"));
  EXPECT_FALSE(ManifestMightMatch("city starts with 'P'"));
  EXPECT_TRUE(ManifestMightMatch("city not starts with 'B'"));
  EXPECT_TRUE(ManifestMightMatch("city != 'Lisbon' and city not in ('Berlin')"));
  EXPECT_FALSE(ManifestMightMatch("city is null"));
  EXPECT_FALSE(ManifestMightMatch("order_ts >= '2017-12-01T00:00:00'"));
  EXPECT_TRUE(ManifestMightMatch("order_ts >= '2017-11-30T23:00:00'"));
  EXPECT_FALSE(ManifestMightMatch("order_ts < '2017-11-01T00:00:00'"));
  EXPECT_TRUE(ManifestMightMatch("score is nan"));
  EXPECT_TRUE(ManifestMightMatch("score is not nan"));
  EXPECT_FALSE(ManifestMightMatch("score > 2"));
  EXPECT_TRUE(ManifestMightMatch("score > 2 or city = 'Lisbon'"));
  EXPECT_FALSE(ManifestMightMatch("score > 2 and city = 'Lisbon'"));
  EXPECT_TRUE(ManifestMightMatch("n = 5"));  // not a partition source
  std::string many = "city in ('a0'";
  for (int i = 1; i < 201; ++i) many += ", 'a" + std::to_string(i) + "'";
  EXPECT_TRUE(ManifestMightMatch(many + ")"));
}

TEST(ManifestEvaluatorTest, AllNullAndAllNaNSummaries) {
  ManifestFile m = November();
  m.partitions[0] = Summary(true, std::nullopt, std::nullopt, std::nullopt);
  m.partitions[2] = Summary(false, true, std::nullopt, std::nullopt);
  EXPECT_FALSE(ManifestMightMatch("city is not null", m));
  EXPECT_FALSE(ManifestMightMatch("city = 'x'", m));
  EXPECT_FALSE(ManifestMightMatch("city starts with 'x'", m));
  EXPECT_TRUE(ManifestMightMatch("city is null", m));
  EXPECT_TRUE(ManifestMightMatch("city not starts with 'x'", m));
  EXPECT_FALSE(ManifestMightMatch("score is not nan", m));
  EXPECT_FALSE(ManifestMightMatch("score = 1 or score < 5", m));
  EXPECT_TRUE(ManifestMightMatch("score is nan", m));
  EXPECT_FALSE(ManifestMightMatch("score is null", m));
  // A float summary of nulls that does not rule out NaN.
  m.partitions[2] = Summary(true, std::nullopt, std::nullopt, std::nullopt);
  EXPECT_TRUE(ManifestMightMatch("score is not null", m));
  m.partitions[2] = Summary(true, false, std::nullopt, std::nullopt);
  EXPECT_FALSE(ManifestMightMatch("score is not null", m));
  EXPECT_FALSE(ManifestMightMatch("score is nan", m));
}

TEST(ManifestEvaluatorTest, MissingOrUnreadableSummariesMightMatch) {
  ManifestFile m = November();
  m.partitions[0] = Summary(false, std::nullopt, std::nullopt, std::nullopt);  // no nulls, no bounds: unknown
  EXPECT_TRUE(ManifestMightMatch("city = 'x'", m));
  m.partitions[0].lower_bound = "";
  m.partitions[1].lower_bound = "xy";  // not a date
  EXPECT_TRUE(ManifestMightMatch("order_ts < '2000-01-01T00:00:00'", m));
  m.partitions.resize(1);
  EXPECT_TRUE(ManifestMightMatch("score > 100", m));
  m.partitions.clear();
  EXPECT_TRUE(ManifestMightMatch("city = 'Porto'", m));
  EXPECT_FALSE(ManifestMightMatch("false", m));
  PartitionSpec bad = Spec();
  bad.fields[0].source_ids = {99};
  EXPECT_TRUE(ManifestEvaluator::Make(bad, Orders(), BindText("city = 'x'")).status().IsInvalidArgument());
  EXPECT_TRUE(ManifestMightMatch(bad, Orders(), BindText("city = 'x'"), November()));
  EXPECT_FALSE(ManifestMightMatch(Spec(), Orders(), BindText("city = 'Porto'"), November()));
}

std::string Residual(std::string_view text, PartitionValues partition, const PartitionSpec& spec = Spec()) {
  Result<ResidualEvaluator> r = ResidualEvaluator::Make(spec, Orders(), BindText(text));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? ToString(*r->ResidualFor(partition)) : "error";
}

TEST(ResidualEvaluatorTest, PartitionsInsideOrOutsideTheFilterNeedNoRowFilter) {
  const std::string filter = "order_ts >= '2017-12-01T10:00:00' and city = 'x'";
  EXPECT_EQ(Residual(filter, {Literal::String("x"), Day("2017-12-02"), std::nullopt}), "true");
  EXPECT_EQ(Residual(filter, {Literal::String("x"), Day("2017-12-01"), std::nullopt}),
            "order_ts >= 2017-12-01T10:00:00.000000+00:00");
  EXPECT_EQ(Residual(filter, {Literal::String("x"), Day("2017-11-30"), std::nullopt}), "false");
  EXPECT_EQ(Residual(filter, {Literal::String("y"), Day("2017-12-02"), std::nullopt}), "false");
  // A null partition value: city = 'x' is unknown on every row.
  EXPECT_EQ(Residual(filter, {std::nullopt, Day("2017-12-02"), std::nullopt}), "false");
  EXPECT_EQ(Residual("city is null or n > 3", {std::nullopt, std::nullopt, std::nullopt}), "true");
  EXPECT_EQ(Residual("city is null or n > 3", {Literal::String("x"), std::nullopt, std::nullopt}), "n > 3");
  EXPECT_EQ(Residual("score > 1.5", {std::nullopt, std::nullopt, Literal::Double(std::nan(""))}), "false");
  EXPECT_EQ(Residual("score is nan", {std::nullopt, std::nullopt, Literal::Double(std::nan(""))}), "true");
}

TEST(ResidualEvaluatorTest, NegationsAreRewrittenSoNullsStayUnknown) {
  EXPECT_EQ(Residual("not (city = 'x')", {Literal::String("y"), std::nullopt, std::nullopt}), "true");
  EXPECT_EQ(Residual("not (city = 'x')", {Literal::String("x"), std::nullopt, std::nullopt}), "false");
  // not(city = 'x') on a null city is unknown, not true.
  EXPECT_EQ(Residual("not (city = 'x')", {std::nullopt, std::nullopt, std::nullopt}), "false");
  EXPECT_EQ(Residual("not (city = 'x' or n = 1)", {Literal::String("y"), std::nullopt, std::nullopt}), "n != 1");
}

TEST(ResidualEvaluatorTest, UnpartitionedSpecsKeepTheFilter) {
  const ExpressionPtr filter = BindText("not (n = 1)");
  ResidualEvaluator r = ResidualEvaluator::Make(PartitionSpec{}, Orders(), filter).value();
  EXPECT_EQ(r.ResidualFor({}).get(), filter.get());
  PartitionSpec voided;
  voided.fields = {PartitionField{{6}, 1000, "n_void", Transform::Void()}};
  EXPECT_EQ(ResidualEvaluator::Make(voided, Orders(), filter)->ResidualFor({std::nullopt}).get(), filter.get());
}

TEST(PartitionEvaluatorTest, InclusiveProjectionOnPartitionTuples) {
  PartitionEvaluator e =
      PartitionEvaluator::Make(Spec(), Orders(), BindText("order_ts < '2017-12-01T00:00:00' and city != 'x'")).value();
  EXPECT_EQ(ToString(*e.partition_filter()), "(order_day <= 2017-11-30 and city != \"x\")");
  EXPECT_TRUE(e.MightMatch({Literal::String("y"), Day("2017-11-30"), std::nullopt}));
  EXPECT_FALSE(e.MightMatch({Literal::String("x"), Day("2017-11-30"), std::nullopt}));
  EXPECT_FALSE(e.MightMatch({Literal::String("y"), Day("2017-12-01"), std::nullopt}));
  // Day values given as ints (days since the epoch) read the same.
  EXPECT_TRUE(e.MightMatch({Literal::String("y"), Literal::Int(17500), std::nullopt}));
  EXPECT_FALSE(e.MightMatch({std::nullopt, Day("2017-11-30"), std::nullopt}));
}

}  // namespace
}  // namespace floe::iceberg
