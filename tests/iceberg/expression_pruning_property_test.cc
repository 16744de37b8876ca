// Soundness of every pruning evaluator against the row evaluator, on random
// rows and random filters: projections, residuals and partition filters per
// row, manifest summaries and file metrics per group of rows.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

#include "expression_random.h"
#include "expression_test_schema.h"
#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/evaluator.h"
#include "floe/iceberg/expression/manifest_evaluator.h"
#include "floe/iceberg/expression/metrics_evaluator.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/expression/projection.h"
#include "floe/iceberg/expression/residual.h"
#include "floe/iceberg/transform_function.h"

namespace floe::iceberg {
namespace {

using expression_test::Col;
using expression_test::Columns;
using expression_test::Orders;
using expression_test::RandomFilter;
using expression_test::RandomValue;
using expression_test::Row;
using expression_test::RowGetter;
PartitionSpec WideSpec() {
  PartitionSpec spec;
  spec.fields = {PartitionField{{3}, 1000, "city", Transform::Identity()},
                 PartitionField{{1}, 1001, "id_bucket", Transform::Bucket(4).value()},
                 PartitionField{{6}, 1002, "n_trunc", Transform::Truncate(3).value()},
                 PartitionField{{4}, 1003, "order_day", Transform::Day()},
                 PartitionField{{12}, 1004, "day_month", Transform::Month()},
                 PartitionField{{3}, 1005, "city_trunc", Transform::Truncate(2).value()},
                 PartitionField{{16}, 1006, "ts_hour", Transform::Hour()},
                 PartitionField{{5}, 1007, "score", Transform::Identity()},
                 PartitionField{{2}, 1008, "amount_trunc", Transform::Truncate(50).value()},
                 PartitionField{{14}, 1009, "flag_void", Transform::Void()},
                 PartitionField{{17}, 1010, "ts_ns_year", Transform::Year()},
                 PartitionField{{12}, 1011, "day_day", Transform::Day()}};
  return spec;
}

ValueGetter TupleGetter(const PartitionSpec& spec, const PartitionValues& tuple) {
  return [&spec, &tuple](int32_t id) -> std::optional<Literal> {
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      if (spec.fields[i].field_id == id) return tuple[i];
    }
    return std::nullopt;
  };
}

bool IsNaN(const Literal& v) {
  return (v.type()->id() == TypeId::kDouble && std::isnan(v.double_value())) ||
         (v.type()->id() == TypeId::kFloat && std::isnan(v.float_value()));
}

// Bounds as a writer records them: the total-order min and max of the
// non-null, non-NaN values.
void Extend(const Literal& v, std::optional<Literal>* lower, std::optional<Literal>* upper) {
  if (!*lower || v.Compare(**lower) < 0) *lower = v;
  if (!*upper || v.Compare(**upper) > 0) *upper = v;
}

ManifestFile Summarize(const std::vector<PartitionValues>& tuples, const TypePtr& partition_type) {
  ManifestFile m;
  for (size_t f = 0; f < partition_type->fields().size(); ++f) {
    PartitionFieldSummary s;
    const TypeId id = partition_type->fields()[f].type->id();
    if (id == TypeId::kDouble) s.contains_nan = false;
    std::optional<Literal> lower, upper;
    for (const PartitionValues& t : tuples) {
      if (!t[f]) {
        s.contains_null = true;
      } else if (IsNaN(*t[f])) {
        s.contains_nan = true;
      } else {
        Extend(*t[f], &lower, &upper);
      }
    }
    if (lower) s.lower_bound = lower->ToBytes();
    if (upper) s.upper_bound = upper->ToBytes();
    m.partitions.push_back(std::move(s));
  }
  return m;
}

// Metrics of rows, string bounds optionally truncated to two bytes (the
// upper one incremented, as writers do).
DataFile Metrics(const std::vector<Row>& rows, bool truncate) {
  DataFile f;
  f.record_count = static_cast<int64_t>(rows.size());
  for (const Col& c : Columns()) {
    int64_t nulls = 0, nans = 0;
    std::optional<Literal> lower, upper;
    for (const Row& r : rows) {
      const std::optional<Literal>& v = r.at(c.id);
      if (!v) {
        ++nulls;
      } else if (IsNaN(*v)) {
        ++nans;
      } else {
        Extend(*v, &lower, &upper);
      }
    }
    f.value_counts[c.id] = static_cast<int64_t>(rows.size());
    f.null_value_counts[c.id] = nulls;
    if (c.type->id() == TypeId::kDouble) f.nan_value_counts[c.id] = nans;
    if (lower) f.lower_bounds[c.id] = lower->ToBytes();
    if (upper) f.upper_bounds[c.id] = upper->ToBytes();
    if (truncate && c.type->id() == TypeId::kString && upper) {
      std::string& lo = f.lower_bounds[c.id];
      if (lo.size() > 2) lo.resize(2);
      std::string up = f.upper_bounds[c.id];
      if (up.size() > 2) {
        up.resize(2);
        while (!up.empty() && static_cast<uint8_t>(up.back()) == 0xff) up.pop_back();
        if (up.empty()) {
          f.upper_bounds.erase(c.id);
          continue;
        }
        up.back() = static_cast<char>(static_cast<uint8_t>(up.back()) + 1);
      }
      f.upper_bounds[c.id] = up;
    }
  }
  return f;
}

TEST(PruningPropertyTest, EveryPrunerIsSoundAgainstTheRowEvaluator) {
  const Schema schema = Orders();
  const PartitionSpec spec = WideSpec();
  const TypePtr partition_type = spec.PartitionType(schema).value();
  std::mt19937 rng(1021);
  int64_t checks = 0, pruned_manifests = 0, pruned_files = 0, all_match_files = 0, exact_residuals = 0;
  for (int round = 0; round < 40; ++round) {
    std::vector<Row> rows;
    std::vector<PartitionValues> tuples;
    for (int r = 0; r < 60; ++r) {
      Row row;
      for (const Col& c : Columns()) row[c.id] = RandomValue(rng, c.type);
      Result<PartitionValues> tuple = PartitionTuple(spec, [&](int32_t id) { return row.at(id); });
      ASSERT_TRUE(tuple.ok()) << tuple.status().ToString();
      rows.push_back(std::move(row));
      tuples.push_back(std::move(tuple).value());
    }
    for (int f = 0; f < 30; ++f) {
      const std::string text = RandomFilter(rng, 3);
      Result<ExpressionPtr> parsed = ParseExpression(text);
      ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
      Result<ExpressionPtr> bound = Bind(schema, *parsed);
      ASSERT_TRUE(bound.ok()) << text << ": " << bound.status().ToString();
      const ExpressionPtr inclusive = ProjectInclusive(spec, schema, *bound).value();
      const ExpressionPtr strict = ProjectStrict(spec, schema, *bound).value();
      const ResidualEvaluator residuals = ResidualEvaluator::Make(spec, schema, *bound).value();
      const PartitionEvaluator partitions = PartitionEvaluator::Make(spec, schema, *bound).value();
      const ManifestEvaluator manifests = ManifestEvaluator::Make(spec, schema, *bound).value();
      const InclusiveMetricsEvaluator might(schema, *bound);
      const StrictMetricsEvaluator all(schema, *bound);
      std::vector<bool> matches;
      for (size_t r = 0; r < rows.size(); ++r) {
        const bool match = Evaluate(**bound, RowGetter(rows[r]));
        matches.push_back(match);
        const ValueGetter tuple = TupleGetter(spec, tuples[r]);
        if (match) {
          ASSERT_TRUE(Evaluate(*inclusive, tuple)) << text << " projects to " << ToString(*inclusive);
        }
        if (Evaluate(*strict, tuple)) {
          ASSERT_TRUE(match) << text << " strictly projects to " << ToString(*strict);
        }
        ASSERT_EQ(partitions.MightMatch(tuples[r]), Evaluate(*inclusive, tuple));
        const ExpressionPtr residual = residuals.ResidualFor(tuples[r]);
        ASSERT_EQ(Evaluate(*residual, RowGetter(rows[r])), match)
            << text << " has residual " << ToString(*residual) << " at row " << r;
        exact_residuals += residual->op() == Operation::kTrue || residual->op() == Operation::kFalse;
        ++checks;
      }
      // Groups of rows as manifests (by partition summaries) and as files.
      for (size_t begin = 0; begin < rows.size(); begin += 6) {
        const size_t end = std::min(rows.size(), begin + 6);
        const bool any = std::any_of(matches.begin() + begin, matches.begin() + end, [](bool b) { return b; });
        const bool every = std::all_of(matches.begin() + begin, matches.begin() + end, [](bool b) { return b; });
        const ManifestFile manifest =
            Summarize(std::vector<PartitionValues>(tuples.begin() + begin, tuples.begin() + end), partition_type);
        if (any) {
          ASSERT_TRUE(manifests.Eval(manifest)) << text << " pruned a manifest holding a match";
        }
        pruned_manifests += !manifests.Eval(manifest);
        const std::vector<Row> group(rows.begin() + begin, rows.begin() + end);
        for (bool truncate : {false, true}) {
          const DataFile file = Metrics(group, truncate);
          if (any) {
            ASSERT_TRUE(might.Eval(file)) << text << " pruned a file holding a match (truncate " << truncate << ")";
          }
          if (all.Eval(file)) {
            ASSERT_TRUE(every) << text << " claims all rows of a file match (truncate " << truncate << ")";
          }
          pruned_files += !might.Eval(file);
          all_match_files += all.Eval(file);
        }
      }
    }
  }
  // The pruners did decide things, not merely answer "maybe".
  EXPECT_GT(pruned_manifests, 100);
  EXPECT_GT(pruned_files, 100);
  EXPECT_GT(all_match_files, 100);
  EXPECT_GT(exact_residuals, checks / 4);
}

}  // namespace
}  // namespace floe::iceberg
