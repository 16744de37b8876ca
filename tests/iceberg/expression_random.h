// Random rows and filters over the top-level primitive columns of
// Orders(), for the property tests that check pruning against the row
// evaluator (expression_pruning_property_test.cc,
// parquet_pruning_property_test.cc).

#pragma once

#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "floe/iceberg/expression/evaluator.h"

namespace floe::iceberg::expression_test {

// One row: a value (or null) per field id.
using Row = std::map<int32_t, std::optional<Literal>>;

struct Col {
  std::string name;
  int32_t id;
  TypePtr type;
};

inline const std::vector<Col>& Columns() {
  static const std::vector<Col> kColumns = {{"id", 1, Type::Long()},       {"amount", 2, Type::Decimal(18, 2).value()},
                                            {"city", 3, Type::String()},   {"order_ts", 4, Type::TimestampTz()},
                                            {"score", 5, Type::Double()},  {"n", 6, Type::Int()},
                                            {"day", 12, Type::Date()},     {"flag", 14, Type::Boolean()},
                                            {"ts", 16, Type::Timestamp()}, {"ts_ns", 17, Type::TimestampNs()}};
  return kColumns;
}

inline std::optional<Literal> RandomValue(std::mt19937& rng, const TypePtr& type, bool allow_null = true) {
  std::uniform_int_distribution<int> pick(0, 999);
  if (allow_null && pick(rng) < 120) return std::nullopt;
  constexpr int64_t kHour = int64_t{3600} * 1000000;
  static const int64_t kBases[] = {-400 * 24 * kHour, -40 * 24 * kHour, -24 * kHour,     -1, 0, 1,
                                   24 * kHour,        40 * 24 * kHour,  400 * 24 * kHour};
  const int64_t micros = kBases[pick(rng) % 9] + (pick(rng) % 61 - 30) * kHour * (pick(rng) % 2);
  switch (type->id()) {
    case TypeId::kLong: return Literal::Long(pick(rng) % 11 - 5);
    case TypeId::kInt: return Literal::Int(pick(rng) % 25 - 12);
    case TypeId::kDecimal: return Literal::Make(type, Decimal128Value{pick(rng) % 17 - 8} * 37).value();
    case TypeId::kString: {
      static const char* kStrings[] = {"",
                                       "a",
                                       "ab",
                                       "abc",
                                       "abd",
                                       "b",
                                       "Li",
                                       "Lisbon",
                                       "\xc3\xa9",
                                       "\xc3\xa9"
                                       "a"};
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

inline std::string LiteralText(std::mt19937& rng, const TypePtr& type) {
  std::optional<Literal> v;
  while (!v || (type->id() == TypeId::kDouble && std::isnan(v->double_value()))) v = RandomValue(rng, type, false);
  if (type->id() == TypeId::kLong || type->id() == TypeId::kInt || type->id() == TypeId::kBoolean) return v->ToString();
  return "'" + v->ToString() + "'";  // no quotes in the domain
}

inline std::string RandomPredicate(std::mt19937& rng) {
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

inline std::string RandomFilter(std::mt19937& rng, int depth) {
  std::uniform_int_distribution<int> pick(0, 99);
  if (depth == 0 || pick(rng) < 45) return RandomPredicate(rng);
  const int kind = pick(rng) % 4;
  if (kind == 0) return "not (" + RandomFilter(rng, depth - 1) + ")";
  return "(" + RandomFilter(rng, depth - 1) + (kind == 1 ? " or " : " and ") + RandomFilter(rng, depth - 1) + ")";
}

inline ValueGetter RowGetter(const Row& row) {
  return [&row](int32_t id) -> std::optional<Literal> {
    const auto it = row.find(id);
    return it == row.end() ? std::nullopt : it->second;
  };
}

}  // namespace floe::iceberg::expression_test
