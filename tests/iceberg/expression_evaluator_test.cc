#include "floe/iceberg/expression/evaluator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>

#include "expression_test_schema.h"
#include "floe/columnar/builder.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_nested.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/iceberg/columnar_value.h"
#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/parser.h"

namespace floe::iceberg {
namespace {

using expression_test::Orders;
using Row = std::map<int32_t, Literal>;

ExpressionPtr BindOrDie(std::string_view text) {
  Result<ExpressionPtr> parsed = ParseExpression(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  Result<ExpressionPtr> bound = Bind(Orders(), *parsed);
  EXPECT_TRUE(bound.ok()) << bound.status().ToString();
  return bound.ok() ? *bound : AlwaysFalse();
}

bool Eval(std::string_view text, const Row& row) {
  return Evaluate(*BindOrDie(text), [&](int32_t id) -> std::optional<Literal> {
    const auto it = row.find(id);
    if (it == row.end()) return std::nullopt;
    return it->second;
  });
}

TEST(ExpressionEvaluatorTest, ComparesValuesOfTheColumnType) {
  const Row row = {{6, Literal::Int(5)}, {3, Literal::String("Lisbon")}, {2, Literal::Make(Type::Decimal(18, 2).value(), Decimal128Value{1250}).value()}};
  EXPECT_TRUE(Eval("n = 5", row));
  EXPECT_TRUE(Eval("n >= 5 and n <= 5 and n > 4 and n < 6 and n != 4", row));
  EXPECT_FALSE(Eval("n > 5", row));
  EXPECT_TRUE(Eval("n in (1, 5, 9)", row));
  EXPECT_FALSE(Eval("n not in (1, 5, 9)", row));
  EXPECT_TRUE(Eval("city starts with 'Lis' and city not starts with 'Por'", row));
  EXPECT_TRUE(Eval("city > 'Berlin' and city < 'lisbon'", row));  // byte order: upper case first
  EXPECT_TRUE(Eval("amount = 12.5 and amount < 12.51", row));
}

TEST(ExpressionEvaluatorTest, NullsMakeComparisonsUnknownEvenUnderNot) {
  const Row nulls;
  EXPECT_FALSE(Eval("n = 5", nulls));
  EXPECT_FALSE(Eval("n != 5", nulls));
  EXPECT_FALSE(Eval("not n = 5", nulls));
  EXPECT_FALSE(Eval("n not in (1, 2)", nulls));
  EXPECT_FALSE(Eval("city not starts with 'x'", nulls));
  EXPECT_TRUE(Eval("n is null", nulls));
  EXPECT_FALSE(Eval("not n is null", nulls));
  EXPECT_TRUE(Eval("n = 5 or n is null", nulls));
  EXPECT_FALSE(Eval("n = 5 or n > 3", nulls));
  // is nan is definite on null, as in Java.
  EXPECT_FALSE(Eval("score is nan", nulls));
  EXPECT_TRUE(Eval("score is not nan", nulls));
}

TEST(ExpressionEvaluatorTest, NaNComparesUnknownAndZerosAreEqual) {
  const Row nan = {{5, Literal::Double(std::nan(""))}};
  EXPECT_TRUE(Eval("score is nan", nan));
  EXPECT_FALSE(Eval("score is not nan", nan));
  EXPECT_FALSE(Eval("score > 1", nan));
  EXPECT_FALSE(Eval("score <= 1", nan));
  EXPECT_FALSE(Eval("score != 1", nan));
  EXPECT_FALSE(Eval("not score = 1", nan));
  EXPECT_FALSE(Eval("score not in (1, 2)", nan));
  const Row negative_zero = {{5, Literal::Double(-0.0)}, {13, Literal::Float(0.0f)}};
  EXPECT_TRUE(Eval("score = 0 and score >= 0 and not score < 0", negative_zero));
  EXPECT_TRUE(Eval("score in (0, 1)", negative_zero));
  EXPECT_TRUE(Eval("f = '-0.0'", negative_zero));
}

TEST(ExpressionEvaluatorTest, ValuesOfAnotherTypeAreCast) {
  // A long column read from a file that still stores int.
  const Row promoted = {{1, Literal::Int(7)}};
  EXPECT_TRUE(Eval("id = 7 and id > 6", promoted));
  EXPECT_FALSE(Evaluate(*Predicate(Operation::kIsNull, "id"), [](int32_t) { return std::nullopt; }));
}

// ---- the batch evaluator against the row evaluator -------------------------

Status Append(ArrayBuilder* b, const TypePtr& type, const std::optional<Literal>& v) {
  if (!v) return b->AppendNull();
  switch (type->id()) {
    case TypeId::kBoolean: return b->As<BoolBuilder>()->Append(v->bool_value());
    case TypeId::kInt:
    case TypeId::kDate: return b->As<PrimitiveBuilder<int32_t>>()->Append(v->int_value());
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return b->As<PrimitiveBuilder<int64_t>>()->Append(v->long_value());
    case TypeId::kFloat: return b->As<PrimitiveBuilder<float>>()->Append(v->float_value());
    case TypeId::kDouble: return b->As<PrimitiveBuilder<double>>()->Append(v->double_value());
    case TypeId::kDecimal: return b->As<PrimitiveBuilder<Decimal128Value>>()->Append(v->decimal_value());
    case TypeId::kString:
    case TypeId::kBinary: return b->As<BinaryBuilder>()->Append(v->bytes());
    default: return b->As<FixedSizeBinaryBuilder>()->Append(v->bytes());
  }
}

std::optional<Literal> RandomValue(std::mt19937& rng, const TypePtr& type) {
  std::uniform_int_distribution<int> pick(0, 99);
  if (pick(rng) < 15) return std::nullopt;
  const int k = pick(rng) % 7 - 3;  // a small domain, so that values repeat
  switch (type->id()) {
    case TypeId::kBoolean: return Literal::Boolean(k > 0);
    case TypeId::kInt: return Literal::Int(k);
    case TypeId::kDate: return Literal::Date(k);
    case TypeId::kLong: return Literal::Long(int64_t{k} * 1000000007);
    case TypeId::kTimestampTz: return Literal::TimestampTz(int64_t{k} * 3600000000 + 1);
    case TypeId::kTimestampNs: return Literal::TimestampNs(int64_t{k} * 999);
    case TypeId::kFloat: {
      static const float kFloats[] = {-1.5f, -0.0f, 0.0f, 1.0f, 2.5f, std::nanf(""), INFINITY};
      return Literal::Float(kFloats[k + 3]);
    }
    case TypeId::kDouble: {
      static const double kDoubles[] = {-1.5, -0.0, 0.0, 1.0, 2.5, std::nan(""), -INFINITY};
      return Literal::Double(kDoubles[k + 3]);
    }
    case TypeId::kDecimal: return Literal::Make(type, Decimal128Value{k} * 125).value();
    case TypeId::kString: {
      static const char* kStrings[] = {"", "a", "ab", "abc", "b", "Li", "Lisbon"};
      return Literal::String(kStrings[k + 3]);
    }
    case TypeId::kBinary: return Literal::Binary(std::string(static_cast<size_t>(k + 3), '\xfe'));
    default: return std::nullopt;
  }
}

// A text literal for `type` in the filter syntax.
std::string RandomLiteralText(std::mt19937& rng, const TypePtr& type) {
  std::optional<Literal> v;
  auto is_nan = [](const Literal& l) {
    return (l.type()->id() == TypeId::kFloat && std::isnan(l.float_value())) ||
           (l.type()->id() == TypeId::kDouble && std::isnan(l.double_value()));
  };
  while (!v || is_nan(*v)) v = RandomValue(rng, type);
  switch (type->id()) {
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kBoolean: return v->ToString();
    default: {
      std::string text = v->ToString();
      std::string quoted = "'";
      for (char c : text) {
        if (c == '\'') quoted += '\'';
        quoted += c;
      }
      return quoted + "'";
    }
  }
}

struct BatchColumn {
  std::string name;
  int32_t id;
  TypePtr type;
};

std::string RandomPredicate(std::mt19937& rng, const std::vector<BatchColumn>& columns) {
  std::uniform_int_distribution<int> pick(0, 999);
  const BatchColumn& c = columns[static_cast<size_t>(pick(rng)) % columns.size()];
  const bool floating = c.type->id() == TypeId::kFloat || c.type->id() == TypeId::kDouble;
  const bool string = c.type->id() == TypeId::kString;
  std::vector<std::string> forms = {"is null", "is not null", "<", "<=", ">", ">=", "=", "!=", "in", "not in"};
  if (floating) forms.insert(forms.end(), {"is nan", "is not nan"});
  if (string) forms.insert(forms.end(), {"starts with", "not starts with"});
  const std::string& form = forms[static_cast<size_t>(pick(rng)) % forms.size()];
  if (form.starts_with("is")) return c.name + " " + form;
  if (form.find("starts") != std::string::npos) {
    static const char* kPrefixes[] = {"", "a", "ab", "L", "Lis", "z"};
    return c.name + " " + form + " '" + kPrefixes[pick(rng) % 6] + "'";
  }
  if (form.ends_with("in")) {
    std::string list = RandomLiteralText(rng, c.type);
    for (int i = pick(rng) % 4; i > 0; --i) list += ", " + RandomLiteralText(rng, c.type);
    return c.name + " " + form + " (" + list + ")";
  }
  return c.name + " " + form + " " + RandomLiteralText(rng, c.type);
}

std::string RandomFilter(std::mt19937& rng, const std::vector<BatchColumn>& columns, int depth) {
  std::uniform_int_distribution<int> pick(0, 99);
  if (depth == 0 || pick(rng) < 40) return RandomPredicate(rng, columns);
  const int kind = pick(rng) % 3;
  if (kind == 0) return "not (" + RandomFilter(rng, columns, depth - 1) + ")";
  return "(" + RandomFilter(rng, columns, depth - 1) + (kind == 1 ? " and " : " or ") +
         RandomFilter(rng, columns, depth - 1) + ")";
}

TEST(ExpressionEvaluatorTest, BatchEvaluationEqualsRowEvaluationOnRandomBatches) {
  const Schema schema = Orders();
  const std::vector<BatchColumn> flat = {
      {"id", 1, Type::Long()},        {"amount", 2, Type::Decimal(18, 2).value()}, {"city", 3, Type::String()},
      {"order_ts", 4, Type::TimestampTz()}, {"score", 5, Type::Double()},     {"n", 6, Type::Int()},
      {"day", 12, Type::Date()},      {"f", 13, Type::Float()},                {"flag", 14, Type::Boolean()},
      {"ts_ns", 17, Type::TimestampNs()},   {"bin", 19, Type::Binary()}};
  std::vector<BatchColumn> filterable = flat;
  filterable.push_back({"info.zip", 8, Type::String()});
  filterable.push_back({"info.code", 9, Type::Int()});
  const TypePtr info_type = schema.FindFieldById(7)->type;
  std::mt19937 rng(7);
  int selected = 0, rows_seen = 0;
  for (int round = 0; round < 60; ++round) {
    const int64_t rows = rng() % 50;
    // Column-major random values; the struct "info" last, with null rows.
    std::vector<std::vector<std::optional<Literal>>> values(flat.size());
    std::vector<floe::Field> fields;
    std::vector<Array> arrays;
    for (size_t c = 0; c < flat.size(); ++c) {
      floe::TypePtr columnar = ToColumnarType(*flat[c].type).value();
      std::unique_ptr<ArrayBuilder> b = MakeBuilder(columnar);
      for (int64_t r = 0; r < rows; ++r) {
        values[c].push_back(RandomValue(rng, flat[c].type));
        ASSERT_TRUE(Append(b.get(), flat[c].type, values[c].back()).ok());
      }
      arrays.push_back(b->Finish().value());
      fields.emplace_back(flat[c].name, columnar, true, KeyValueMetadata{}, flat[c].id);
    }
    std::vector<bool> info_valid;
    std::vector<std::optional<Literal>> zips, codes;
    {
      floe::TypePtr columnar = ToColumnarType(*info_type).value();
      std::unique_ptr<ArrayBuilder> b = MakeBuilder(columnar);
      auto* s = b->As<StructBuilder>();
      for (int64_t r = 0; r < rows; ++r) {
        info_valid.push_back(rng() % 4 != 0);
        zips.push_back(info_valid.back() ? RandomValue(rng, Type::String()) : std::nullopt);
        codes.push_back(info_valid.back() ? Literal::Int(static_cast<int32_t>(rng() % 7) - 3) : Literal::Int(0));
        if (!info_valid.back()) {
          ASSERT_TRUE(s->AppendNull().ok());
          continue;
        }
        ASSERT_TRUE(s->AppendRow().ok());
        ASSERT_TRUE(Append(s->field_builder(0), Type::String(), zips.back()).ok());
        ASSERT_TRUE(Append(s->field_builder(1), Type::Int(), codes.back()).ok());
      }
      arrays.push_back(b->Finish().value());
      fields.emplace_back("info", columnar, true, KeyValueMetadata{}, 7);
    }
    const RecordBatch batch =
        RecordBatch::Make(std::make_shared<const floe::Schema>(std::move(fields)), std::move(arrays), rows).value();
    auto column_of = [&](int32_t id) {
      for (size_t c = 0; c < flat.size(); ++c) {
        if (flat[c].id == id) return static_cast<int>(c);
      }
      return -1;  // info's fields are found through the struct
    };
    for (int f = 0; f < 25; ++f) {
      const std::string text = RandomFilter(rng, filterable, 3);
      const ExpressionPtr bound = BindOrDie(text);
      Result<std::vector<uint8_t>> batch_result = EvaluateBatch(*bound, batch, column_of);
      ASSERT_TRUE(batch_result.ok()) << batch_result.status().ToString();
      ASSERT_EQ(batch_result->size(), static_cast<size_t>(rows));
      const ExpressionPtr rewritten = RewriteNot(bound);
      for (int64_t r = 0; r < rows; ++r) {
        auto getter = [&](int32_t id) -> std::optional<Literal> {
          if (id == 8) return zips[static_cast<size_t>(r)];
          if (id == 9) return info_valid[static_cast<size_t>(r)] ? codes[static_cast<size_t>(r)] : std::nullopt;
          const int c = column_of(id);
          return c < 0 ? std::nullopt : values[static_cast<size_t>(c)][static_cast<size_t>(r)];
        };
        const bool by_row = Evaluate(*bound, getter);
        ASSERT_EQ((*batch_result)[static_cast<size_t>(r)], by_row ? 1 : 0) << text << " at row " << r;
        ASSERT_EQ(Evaluate(*rewritten, getter), by_row) << text << " rewritten as " << ToString(*rewritten);
        // LiteralAt reads back what the getter holds.
        selected += by_row ? 1 : 0;
        ++rows_seen;
      }
    }
  }
  // The filters select some rows and reject others.
  EXPECT_GT(selected, rows_seen / 20);
  EXPECT_LT(selected, rows_seen - rows_seen / 20);
}

TEST(ExpressionEvaluatorTest, BatchEvaluationCastsPromotedColumnsAndRefusesBadIndexes) {
  PrimitiveBuilder<int32_t> ints;
  ASSERT_TRUE(ints.Append(5).ok());
  ASSERT_TRUE(ints.AppendNull().ok());
  ASSERT_TRUE(ints.Append(9).ok());
  const RecordBatch batch =
      RecordBatch::Make(std::make_shared<const floe::Schema>(std::vector<floe::Field>{
                            floe::Field("id", DataType::Int32(), true, {}, 1)}),
                        {ints.Finish().value()})
          .value();
  const ExpressionPtr bound = BindOrDie("id > 6 or id is null");  // id is a long
  Result<std::vector<uint8_t>> result = EvaluateBatch(*bound, batch, [](int32_t) { return 0; });
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(*result, (std::vector<uint8_t>{0, 0, 1}));  // id is required: "is null" folded to false
  result = EvaluateBatch(*BindOrDie("n is null"), batch, [](int32_t) { return -1; });
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(*result, (std::vector<uint8_t>{1, 1, 1}));  // a column the batch lacks is null
  EXPECT_TRUE(EvaluateBatch(*bound, batch, [](int32_t) { return 3; }).status().IsInvalidArgument());
  EXPECT_EQ(LiteralAt(batch.column(0), 2), Literal::Int(9));
  EXPECT_FALSE(LiteralAt(batch.column(0), 1).has_value());
}

TEST(ExpressionEvaluatorTest, BatchEvaluationReadsDictionaryEncodedStrings) {
  // city (field 3): ["NYC", "LA", null index, null value, "Boston"] over a
  // dictionary that holds a null and a value no row uses.
  const Array dictionary = [&] {
    StringBuilder b;
    for (const char* v : {"NYC", "LA", "Boston", "unused"}) EXPECT_TRUE(b.Append(v).ok());
    EXPECT_TRUE(b.AppendNull().ok());
    return b.Finish().value();
  }();
  const int32_t stored[] = {0, 1, 0, 4, 2};
  BitmapBuilder validity;
  for (bool valid : {true, true, false, true, true}) ASSERT_TRUE(validity.Append(valid).ok());
  auto data = std::make_shared<ArrayData>(
      DataType::Dictionary(DataType::Utf8()).value(), 5,
      std::vector<Buffer>{validity.Finish(),
                          Buffer::CopyOf(std::string_view(reinterpret_cast<const char*>(stored), sizeof stored))},
      std::vector<std::shared_ptr<const ArrayData>>{}, 1);
  data->dictionary = dictionary.data();
  const Array city(std::move(data));
  ASSERT_TRUE(city.Validate().ok()) << city.Validate().ToString();
  auto batch_of = [](const Array& column) {
    return RecordBatch::Make(std::make_shared<const floe::Schema>(
                                 std::vector<floe::Field>{floe::Field("city", column.type(), true, {}, 3)}),
                             {column})
        .value();
  };
  const auto column_of = [](int32_t id) { return id == 3 ? 0 : -1; };
  const std::vector<std::string> filters = {"city = 'NYC'",
                                            "city != 'LA'",
                                            "city in ('LA', 'Boston')",
                                            "city not in ('NYC')",
                                            "city starts with 'B'",
                                            "city not starts with 'N'",
                                            "city is null",
                                            "city is not null",
                                            "city < 'M'",
                                            "city >= 'LA' and city is not null"};
  for (const Array& column : {city, city.Slice(1, 3)}) {
    // A dictionary (5 values) longer than the slice (3 rows) is read per row
    // through the index; the whole column evaluates each value once.
    const RecordBatch encoded_batch = batch_of(column);
    const RecordBatch plain_batch = batch_of(DecodeDictionaries(column).value());
    for (const std::string& filter : filters) {
      const ExpressionPtr bound = BindOrDie(filter);
      Result<std::vector<uint8_t>> got = EvaluateBatch(*bound, encoded_batch, column_of);
      ASSERT_TRUE(got.ok()) << filter << ": " << got.status().ToString();
      EXPECT_EQ(*got, EvaluateBatch(*bound, plain_batch, column_of).value()) << filter;
    }
  }
  EXPECT_EQ(EvaluateBatch(*BindOrDie("city = 'NYC'"), batch_of(city), column_of).value(),
            (std::vector<uint8_t>{1, 0, 0, 0, 0}));
  EXPECT_EQ(EvaluateBatch(*BindOrDie("city is null"), batch_of(city), column_of).value(),
            (std::vector<uint8_t>{0, 0, 1, 1, 0}));
  EXPECT_EQ(EvaluateBatch(*BindOrDie("city in ('LA', 'Boston')"), batch_of(city), column_of).value(),
            (std::vector<uint8_t>{0, 1, 0, 0, 1}));
  EXPECT_EQ(LiteralAt(city, 4), Literal::String("Boston"));
  EXPECT_FALSE(LiteralAt(city, 3).has_value());
  EXPECT_EQ(BytesAt(city, 1), std::optional<std::string_view>("LA"));
  EXPECT_FALSE(BytesAt(city, 2).has_value());
}

}  // namespace
}  // namespace floe::iceberg
