#include "floe/iceberg/expression/parser.h"

#include <gtest/gtest.h>

#include <random>

namespace floe::iceberg {
namespace {

std::string Parsed(std::string_view text) {
  Result<ExpressionPtr> e = ParseExpression(text);
  if (!e.ok()) return "error: " + e.status().message();
  return ToString(**e);
}

std::string ErrorOf(std::string_view text) {
  Result<ExpressionPtr> e = ParseExpression(text);
  return e.ok() ? "ok" : e.status().message();
}

TEST(ExpressionParserTest, ParsesComparisonOperators) {
  EXPECT_EQ(Parsed("a = 5"), "a = 5");
  EXPECT_EQ(Parsed("a == 5"), "a = 5");
  EXPECT_EQ(Parsed("a != 5"), "a != 5");
  EXPECT_EQ(Parsed("a <> 5"), "a != 5");
  EXPECT_EQ(Parsed("a<5"), "a < 5");
  EXPECT_EQ(Parsed("a <= 5"), "a <= 5");
  EXPECT_EQ(Parsed("a > -5"), "a > -5");
  EXPECT_EQ(Parsed("a >= +5"), "a >= 5");
}

TEST(ExpressionParserTest, AndBindsTighterThanOrAndKeywordsIgnoreCase) {
  EXPECT_EQ(Parsed("a = 1 or b = 2 and c = 3"), "(a = 1 or (b = 2 and c = 3))");
  EXPECT_EQ(Parsed("(a = 1 OR b = 2) AND c = 3"), "((a = 1 or b = 2) and c = 3)");
  EXPECT_EQ(Parsed("NOT a = 1 and b Is Not Null"), "(not(a = 1) and b is not null)");
  EXPECT_EQ(Parsed("not not a = 1"), "a = 1");
  EXPECT_EQ(Parsed("true"), "true");
  EXPECT_EQ(Parsed("a = 1 and FALSE"), "false");
  EXPECT_EQ(Parsed("a = 1 or true"), "true");
}

TEST(ExpressionParserTest, ParsesSetNullNanAndPrefixPredicates) {
  EXPECT_EQ(Parsed("city in ('x', 'y')"), "city in (\"x\", \"y\")");
  EXPECT_EQ(Parsed("n not in (1,2 , 3)"), "n not in (1, 2, 3)");
  EXPECT_EQ(Parsed("a is null"), "a is null");
  EXPECT_EQ(Parsed("a is not null"), "a is not null");
  EXPECT_EQ(Parsed("a is nan"), "a is nan");
  EXPECT_EQ(Parsed("a IS NOT NAN"), "a is not nan");
  EXPECT_EQ(Parsed("city starts with 'Li'"), "city starts with \"Li\"");
  EXPECT_EQ(Parsed("city not starts with 'Li'"), "city not starts with \"Li\"");
  EXPECT_EQ(Parsed("city like 'Lis%'"), "city starts with \"Lis\"");
  EXPECT_EQ(Parsed("city not like 'Lis%'"), "city not starts with \"Lis\"");
  EXPECT_EQ(Parsed("city like 'Lisbon'"), "city = \"Lisbon\"");
}

TEST(ExpressionParserTest, ValuesKeepTheirTextForTheBinder) {
  Result<ExpressionPtr> e = ParseExpression("amount = 12.50");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->literal().type()->id(), TypeId::kString);
  EXPECT_EQ((*e)->literal().bytes(), "12.50");
  e = ParseExpression("n = -42");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->literal(), Literal::Long(-42));
  e = ParseExpression("x = 1e3");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->literal(), Literal::String("1e3"));
  e = ParseExpression("x = -.5");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->literal(), Literal::String("-.5"));
  e = ParseExpression("x = 99999999999999999999");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->literal(), Literal::String("99999999999999999999"));
  e = ParseExpression("flag = TRUE");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->literal(), Literal::Boolean(true));
  e = ParseExpression("name = 'it''s'");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->literal(), Literal::String("it's"));
  EXPECT_EQ((*e)->column(), "name");
}

TEST(ExpressionParserTest, ColumnsMayBeQuotedAndDotted) {
  Result<ExpressionPtr> e = ParseExpression("\"order ts\" > 1");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->column(), "order ts");
  e = ParseExpression("info.zip = '1000'");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->column(), "info.zip");
  e = ParseExpression("\"info\".\"a\"\"b\" is null");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->column(), "info.a\"b");
  e = ParseExpression("\"and\" = 1");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->column(), "and");
}

TEST(ExpressionParserTest, ErrorsNameTheOffset) {
  EXPECT_EQ(ErrorOf("amount > and x"), "--where: expected a value at offset 9 in \"amount > and x\"");
  EXPECT_EQ(ErrorOf("a = 1 b = 2"), "--where: unexpected 'b' at offset 6 in \"a = 1 b = 2\"");
  EXPECT_EQ(ErrorOf(""), "--where: expected a column name at offset 0 in \"\"");
  EXPECT_EQ(ErrorOf("(a = 1"), "--where: expected ')' at offset 6 in \"(a = 1\"");
  EXPECT_EQ(ErrorOf("a = 'open"), "--where: unterminated string at offset 4 in \"a = 'open\"");
  EXPECT_EQ(ErrorOf("a is maybe"), "--where: expected 'null' or 'nan' at offset 5 in \"a is maybe\"");
  EXPECT_EQ(ErrorOf("a in 1"), "--where: expected '(' at offset 5 in \"a in 1\"");
  EXPECT_EQ(ErrorOf("a in (1 2)"), "--where: expected ',' or ')' at offset 8 in \"a in (1 2)\"");
  EXPECT_EQ(ErrorOf("a = null"), "--where: null is not a value (use 'is null') at offset 4 in \"a = null\"");
  EXPECT_EQ(ErrorOf("a # 1"), "--where: unexpected character '#' at offset 2 in \"a # 1\"");
  EXPECT_EQ(ErrorOf("a starts 'x'"), "--where: expected 'with' at offset 9 in \"a starts 'x'\"");
  EXPECT_EQ(ErrorOf("a starts with 5"),
            "--where: expected a quoted string after starts with at offset 14 in \"a starts with 5\"");
  EXPECT_EQ(ErrorOf("a not = 1"), "--where: expected 'in', 'starts with' or 'like' after 'not' at offset 6 in \"a not = 1\"");
  EXPECT_EQ(ErrorOf("a."), "--where: expected a field name after '.' at offset 2 in \"a.\"");
  EXPECT_TRUE(ParseExpression("a = 1 )").status().IsInvalidArgument());
}

TEST(ExpressionParserTest, LikeWithOtherWildcardsIsUnsupported) {
  Result<ExpressionPtr> e = ParseExpression("city like '%bon'");
  EXPECT_TRUE(e.status().IsUnsupported());
  EXPECT_EQ(e.status().message(),
            "--where: like pattern '%bon' is not a prefix match ('abc%') at offset 10 in \"city like '%bon'\"");
  EXPECT_TRUE(ParseExpression("city like 'a_c%'").status().IsUnsupported());
}

TEST(ExpressionParserTest, DeepNestingIsRefusedAndLongChainsStayShallow) {
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "(";
  deep += "a = 1";
  for (int i = 0; i < 300; ++i) deep += ")";
  EXPECT_TRUE(ParseExpression(deep).status().IsInvalidArgument());

  std::string chain = "a = 0";
  for (int i = 1; i < 5000; ++i) chain += " and a = " + std::to_string(i);
  Result<ExpressionPtr> e = ParseExpression(chain);
  ASSERT_TRUE(e.ok());
  int depth = 0;
  for (const Expression* node = e->get(); node->op() == Operation::kAnd; node = node->left().get()) ++depth;
  EXPECT_LE(depth, 13);  // log2(5000) rounded up
}

// Random unbound expressions survive ToFilterText -> ParseExpression.
ExpressionPtr RandomExpression(std::mt19937& rng, int depth) {
  static const std::vector<std::string> kColumns = {"a", "city", "info.zip", "order ts", "and", "x\"y", "_n1"};
  std::uniform_int_distribution<int> pick(0, 99);
  if (depth > 0 && pick(rng) < 45) {
    ExpressionPtr left = RandomExpression(rng, depth - 1);
    const int kind = pick(rng) % 3;
    if (kind == 2) return Not(left);
    ExpressionPtr right = RandomExpression(rng, depth - 1);
    return kind == 0 ? And(left, right) : Or(left, right);
  }
  const std::string& column = kColumns[static_cast<size_t>(pick(rng)) % kColumns.size()];
  auto literal = [&]() {
    switch (pick(rng) % 4) {
      case 0: return Literal::Long(static_cast<int64_t>(rng()) - (int64_t{1} << 31));
      case 1: return Literal::Boolean(pick(rng) % 2 == 0);
      case 2: return Literal::String("s'q\"" + std::to_string(pick(rng)));
      default: return Literal::String("12." + std::to_string(pick(rng)));
    }
  };
  static const Operation kOps[] = {Operation::kIsNull, Operation::kNotNull, Operation::kIsNan, Operation::kNotNan,
                                   Operation::kLt,     Operation::kLtEq,    Operation::kGt,    Operation::kGtEq,
                                   Operation::kEq,     Operation::kNotEq,   Operation::kIn,    Operation::kNotIn,
                                   Operation::kStartsWith, Operation::kNotStartsWith};
  const Operation op = kOps[static_cast<size_t>(pick(rng)) % std::size(kOps)];
  if (IsUnaryOp(op)) return Predicate(op, column);
  if (IsSetOp(op)) return Predicate(op, column, {literal(), literal(), literal()});
  if (op == Operation::kStartsWith || op == Operation::kNotStartsWith) {
    return Predicate(op, column, {Literal::String("pre'" + std::to_string(pick(rng)))});
  }
  return Predicate(op, column, {literal()});
}

TEST(ExpressionParserTest, FilterTextRoundTripsRandomExpressions) {
  std::mt19937 rng(20261021);
  for (int i = 0; i < 500; ++i) {
    ExpressionPtr e = RandomExpression(rng, 4);
    const std::string text = ToFilterText(*e);
    Result<ExpressionPtr> back = ParseExpression(text);
    ASSERT_TRUE(back.ok()) << text << ": " << back.status().ToString();
    EXPECT_TRUE((*back)->Equals(*e)) << text << " read back as " << ToFilterText(**back);
  }
}

TEST(ExpressionParserTest, RewriteNotPushesNegationsToPredicates) {
  Result<ExpressionPtr> e = ParseExpression("not (a < 1 and (b in (1, 2) or not c starts with 'x')) or not d is nan");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(ToString(*RewriteNot(*e)),
            "((a >= 1 or (b not in (1, 2) and c starts with \"x\")) or d is not nan)");
  EXPECT_EQ(ToString(*RewriteNot(Not(AlwaysTrue()))), "false");
}

}  // namespace
}  // namespace floe::iceberg
