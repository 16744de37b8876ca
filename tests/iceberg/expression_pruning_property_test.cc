// Soundness of every pruning evaluator against the row evaluator, on random
// rows and random filters: projections, residuals and partition filters per
// row, manifest summaries and file metrics per group of rows.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

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

using expression_test::Orders;
using Row = std::map<int32_t, std::optional<Literal>>;

struct Col {
  std::string name;
  int32_t id;
  TypePtr type;
};

const std::vector<Col>& Columns() {
  static const std::vector<Col> kColumns = {
      {"id", 1, Type::Long()},          {"amount", 2, Type::Decimal(18, 2).value()}, {"city", 3, Type::String()},
      {"order_ts", 4, Type::TimestampTz()}, {"score", 5, Type::Double()},         {"n", 6, Type::Int()},
      {"day", 12, Type::Date()},        {"flag", 14, Type::Boolean()},               {"ts", 16, Type::Timestamp()},
      {"ts_ns", 17, Type::TimestampNs()}};
  return kColumns;
}

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

std::optional<Literal> RandomValue(std::mt19937& rng, const TypePtr& type, bool allow_null = true) {
  std::uniform_int_distribution<int> pick(0, 999);
  if (allow_null && pick(rng) < 120) return std::nullopt;
  constexpr int64_t kHour = int64_t{3600} * 1000000;
  static const int64_t kBases[] = {-400 * 24 * kHour, -40 * 24 * kHour, -24 * kHour, -1, 0, 1, 24 * kHour,
                                   40 * 24 * kHour, 400 * 24 * kHour};
  const int64_t micros = kBases[pick(rng) % 9] + (pick(rng) % 61 - 30) * kHour * (pick(rng) % 2);
  switch (type->id()) {
    case TypeId::kLong: return Literal::Long(pick(rng) % 11 - 5);
    case TypeId::kInt: return Literal::Int(pick(rng) % 25 - 12);
    case TypeId::kDecimal: return Literal::Make(type, Decimal128Value{pick(rng) % 17 - 8} * 37).value();
    case TypeId::kString: {
      static const char* kStrings[] = {"", "a", "ab", "abc", "abd", "b", "Li", "Lisbon", "\xc3\xa9", "\xc3\xa9" "a"};
      return Literal::String(kStrings[pick(rng) % 10]);
    }
    case TypeId::kTimestampTz: return Literal::TimestampTz(micros);
    case TypeId::kTimestamp: return Literal::Timestamp(micros);
    case TypeId::kTimestampNs: return Literal::TimestampNs(micros * 1000 + pick(rng) % 3 - 1);
    case TypeId::kDouble: {
      static const double kDoubles[] = {-1.5, -0.0, 0.0, 1.0, 2.5, std::nan("")};
      return Literal::Double(kDoubles[pick(rng) % 6]);
    }
    case TypeId::kDate: return Literal::Date(static_cast<int32_t>(micros / (24 * kHour)));
    case TypeId::kBoolean: return Literal::Boolean(pick(rng) % 2 == 0);
    default: return std::nullopt;
  }
}

std::string LiteralText(std::mt19937& rng, const TypePtr& type) {
  std::optional<Literal> v;
  while (!v || (type->id() == TypeId::kDouble && std::isnan(v->double_value()))) v = RandomValue(rng, type, false);
  if (type->id() == TypeId::kLong || type->id() == TypeId::kInt || type->id() == TypeId::kBoolean) return v->ToString();
  return "'" + v->ToString() + "'";  // no quotes in the domain
}

std::string RandomPredicate(std::mt19937& rng) {
  std::uniform_int_distribution<int> pick(0, 999);
  const Col& c = Columns()[static_cast<size_t>(pick(rng)) % Columns().size()];
  std::vector<std::string> forms = {"is null", "is not null", "<", "<=", ">", ">=", "=", "=", "!=", "in", "not in"};
  if (c.type->id() == TypeId::kDouble) forms.insert(forms.end(), {"is nan", "is not nan"});
  if (c.type->id() == TypeId::kString) forms.insert(forms.end(), {"starts with", "not starts with", "starts with"});
  const std::string& form = forms[static_cast<size_t>(pick(rng)) % forms.size()];
  if (form.starts_with("is")) return c.name + " " + form;
  if (form.find("starts") != std::string::npos) {
    static const char* kPrefixes[] = {"", "a", "ab", "abc", "L", "Lis", "\xc3\xa9", "z"};
    return c.name + " " + form + " '" + kPrefixes[pick(rng) % 8] + "'";
  }
  if (form.ends_with("in")) {
    std::string list = LiteralText(rng, c.type);
    for (int i = pick(rng) % 3; i > 0; --i) list += ", " + LiteralText(rng, c.type);
    return c.name + " " + form + " (" + list + ")";
  }
  return c.name + " " + form + " " + LiteralText(rng, c.type);
}

std::string RandomFilter(std::mt19937& rng, int depth) {
  std::uniform_int_distribution<int> pick(0, 99);
  if (depth == 0 || pick(rng) < 45) return RandomPredicate(rng);
  const int kind = pick(rng) % 4;
  if (kind == 0) return "not (" + RandomFilter(rng, depth - 1) + ")";
  return "(" + RandomFilter(rng, depth - 1) + (kind == 1 ? " or " : " and ") + RandomFilter(rng, depth - 1) + ")";
}

ValueGetter RowGetter(const Row& row) {
  return [&row](int32_t id) -> std::optional<Literal> {
    const auto it = row.find(id);
    return it == row.end() ? std::nullopt : it->second;
  };
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
