#include "floe/iceberg/literal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace floe::iceberg {

// gtest prints literals by their text and type.
void PrintTo(const Literal& literal, std::ostream* os) { *os << literal.type()->ToString() << " " << literal.ToString(); }

namespace {

std::string Hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

TypePtr Decimal(int p, int s) { return Type::Decimal(p, s).value(); }

TEST(LiteralTest, SingleValueBytesFollowAppendixD) {
  EXPECT_EQ(Hex(Literal::Boolean(true).ToBytes()), "01");
  EXPECT_EQ(Hex(Literal::Int(1).ToBytes()), "01000000");
  EXPECT_EQ(Hex(Literal::Long(-2).ToBytes()), "feffffffffffffff");
  EXPECT_EQ(Hex(Literal::Date(20747).ToBytes()), "0b510000");
  EXPECT_EQ(Hex(Literal::Float(1.0f).ToBytes()), "0000803f");
  EXPECT_EQ(Hex(Literal::Double(-2.5).ToBytes()), "00000000000004c0");
  EXPECT_EQ(Literal::String("héllo").ToBytes(), "héllo");
  // Decimals: minimal big-endian two's complement.
  EXPECT_EQ(Hex(Literal::Make(Decimal(9, 2), Decimal128Value{1234}).value().ToBytes()), "04d2");
  EXPECT_EQ(Hex(Literal::Make(Decimal(9, 2), Decimal128Value{-1}).value().ToBytes()), "ff");
  EXPECT_EQ(Hex(Literal::Make(Decimal(9, 2), Decimal128Value{128}).value().ToBytes()), "0080");
  EXPECT_EQ(Hex(Literal::Make(Decimal(9, 2), Decimal128Value{-128}).value().ToBytes()), "80");
  EXPECT_EQ(Hex(Literal::Make(Decimal(9, 2), Decimal128Value{0}).value().ToBytes()), "00");
}

TEST(LiteralTest, BytesRoundTripForEveryPrimitiveType) {
  const std::vector<Literal> literals = {
      Literal::Boolean(false),
      Literal::Int(std::numeric_limits<int32_t>::min()),
      Literal::Long(std::numeric_limits<int64_t>::max()),
      Literal::Float(-0.0f),
      Literal::Double(std::numeric_limits<double>::infinity()),
      Literal::Make(Decimal(38, 10), Decimal128Value{-123456789012345} * 1000000000).value(),
      Literal::Date(-719162),
      Literal::Time(86399999999),
      Literal::Timestamp(1761076800000000),
      Literal::TimestampTz(-1),
      Literal::TimestampNs(1761076800000000123),
      Literal::String(""),
      Literal::Binary(std::string("\x00\xff", 2)),
      Literal::Make(Type::Uuid(), std::string(16, '\x7f')).value(),
      Literal::Make(Type::Fixed(3).value(), std::string("abc")).value(),
  };
  for (const Literal& literal : literals) {
    auto back = Literal::FromBytes(literal.type(), literal.ToBytes());
    ASSERT_TRUE(back.ok()) << literal.type()->ToString() << ": " << back.status().ToString();
    EXPECT_EQ(*back, literal) << literal.type()->ToString();
  }
}

TEST(LiteralTest, FromBytesRejectsWrongLengthsButReadsPromotedBounds) {
  EXPECT_EQ(Literal::FromBytes(Type::Int(), "abc").status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(Literal::FromBytes(Type::Timestamp(), "abcd").status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(Literal::FromBytes(Type::Uuid(), "abcd").status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(Literal::FromBytes(Decimal(9, 2), std::string(17, '\1')).status().code(), StatusCode::kCorrupt);
  // An int bound read after int → long, a float bound after float → double.
  EXPECT_EQ(Literal::FromBytes(Type::Long(), Literal::Int(-7).ToBytes()).value(), Literal::Long(-7));
  EXPECT_EQ(Literal::FromBytes(Type::Double(), Literal::Float(0.5f).ToBytes()).value(), Literal::Double(0.5));
  // Decimal digits beyond the precision are corrupt bounds.
  EXPECT_EQ(Literal::FromBytes(Decimal(2, 0), "\x03\xe8").status().code(), StatusCode::kCorrupt);
}

TEST(LiteralTest, ComparesInTheSpecsBoundOrder) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_LT(Literal::Double(-inf).Compare(Literal::Double(-1)), 0);
  EXPECT_LT(Literal::Double(-0.0).Compare(Literal::Double(0.0)), 0);
  EXPECT_LT(Literal::Double(inf).Compare(Literal::Double(nan)), 0);
  EXPECT_LT(Literal::Double(-nan).Compare(Literal::Double(-inf)), 0);
  EXPECT_EQ(Literal::Double(nan).Compare(Literal::Double(nan)), 0);
  // Strings in unsigned byte order: 'é' (0xC3 0xA9) sorts after 'z'.
  EXPECT_GT(Literal::String("é").Compare(Literal::String("z")), 0);
  EXPECT_LT(Literal::String("ab").Compare(Literal::String("abc")), 0);
  EXPECT_LT(Literal::Long(-5).Compare(Literal::Long(3)), 0);
  EXPECT_GT(Literal::Make(Decimal(9, 2), Decimal128Value{5}).value().Compare(
                Literal::Make(Decimal(9, 2), Decimal128Value{-500}).value()),
            0);
}

TEST(LiteralTest, ParsesWhatUsersTypeInFilters) {
  EXPECT_EQ(Literal::Parse(Type::Long(), " 42 ").value(), Literal::Long(42));
  EXPECT_EQ(Literal::Parse(Type::Boolean(), "TRUE").value(), Literal::Boolean(true));
  EXPECT_EQ(Literal::Parse(Type::Date(), "2026-10-21").value(), Literal::Date(20747));
  EXPECT_EQ(Literal::Parse(Type::Timestamp(), "2026-10-21T20:00:00").value(),
            Literal::Timestamp(int64_t{20747} * 86400000000 + int64_t{20} * 3600000000));
  EXPECT_EQ(Literal::Parse(Type::Timestamp(), "2026-10-21 20:00:00.5").value(),
            Literal::Timestamp(int64_t{20747} * 86400000000 + int64_t{20} * 3600000000 + 500000));
  EXPECT_EQ(Literal::Parse(Type::Timestamp(), "2026-10-21").value(), Literal::Timestamp(int64_t{20747} * 86400000000));
  EXPECT_EQ(Literal::Parse(Type::TimestampTz(), "1970-01-01T00:00:01Z").value(), Literal::TimestampTz(1000000));
  EXPECT_EQ(Literal::Parse(Type::TimestampNs(), "1970-01-01T00:00:00.000000001").value(), Literal::TimestampNs(1));
  EXPECT_EQ(Literal::Parse(Type::Time(), "20:00").value(), Literal::Time(int64_t{20} * 3600000000));
  EXPECT_EQ(Literal::Parse(Decimal(18, 2), "12.3").value().decimal_value(), 1230);
  EXPECT_EQ(Literal::Parse(Decimal(18, 2), "-0.05").value().decimal_value(), -5);
  EXPECT_TRUE(std::isnan(Literal::Parse(Type::Double(), "NaN").value().double_value()));
  EXPECT_EQ(Literal::Parse(Type::Uuid(), "00112233-4455-6677-8899-aabbccddeeff").value().bytes(),
            std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16));
  EXPECT_EQ(Literal::Parse(Type::Binary(), "00ff").value().bytes(), std::string("\x00\xff", 2));
}

TEST(LiteralTest, ParseRejectsMalformedText) {
  for (const auto& [type, text] : std::vector<std::pair<TypePtr, std::string>>{
           {Type::Int(), "4x"},
           {Type::Int(), "3000000000"},
           {Type::Date(), "2026-02-30"},
           {Type::Date(), "2026-1-01"},
           {Type::Timestamp(), "2026-10-21T25:00:00"},
           {Type::Timestamp(), "2026-10-21T20:00:00.1234567"},
           {Type::Timestamp(), "2026-10-21T20:00:00Z"},
           {Decimal(4, 2), "123.45"},
           {Decimal(9, 2), "1.234"},
           {Type::Boolean(), "yes"},
           {Type::Uuid(), "0011"},
           {Type::Binary(), "0g"},
       }) {
    auto literal = Literal::Parse(type, text);
    EXPECT_EQ(literal.status().code(), StatusCode::kInvalidArgument) << type->ToString() << " " << text;
  }
  EXPECT_NE(Literal::Parse(Type::Int(), "4x").status().message().find("'4x'"), std::string::npos);
}

TEST(LiteralTest, CastsForBinding) {
  EXPECT_EQ(Literal::Long(7).CastTo(Type::Int()).value(), Literal::Int(7));
  EXPECT_EQ(Literal::Long(int64_t{1} << 40).CastTo(Type::Int()).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Literal::Int(3).CastTo(Decimal(9, 2)).value().decimal_value(), 300);
  EXPECT_EQ(Literal::Date(1).CastTo(Type::Timestamp()).value(), Literal::Timestamp(86400000000));
  EXPECT_EQ(Literal::TimestampNs(-1).CastTo(Type::Timestamp()).value(), Literal::Timestamp(-1));
  EXPECT_EQ(Literal::String("2026-10-21").CastTo(Type::Date()).value(), Literal::Date(20747));
  EXPECT_EQ(Literal::Boolean(true).CastTo(Type::Int()).status().code(), StatusCode::kInvalidArgument);
}

TEST(LiteralTest, MakeChecksTheValueAgainstTheType) {
  EXPECT_EQ(Literal::Make(Type::Int(), int64_t{1}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Literal::Make(Type::Fixed(4).value(), std::string("abc")).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Literal::Make(Decimal(2, 0), Decimal128Value{100}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Literal::Make(Type::Struct({}), true).status().code(), StatusCode::kInvalidArgument);
}

TEST(LiteralTest, PrintsReadably) {
  EXPECT_EQ(Literal::Date(20747).ToString(), "2026-10-21");
  EXPECT_EQ(Literal::Make(Decimal(18, 2), Decimal128Value{-5}).value().ToString(), "-0.05");
  EXPECT_EQ(Literal::Timestamp(int64_t{20747} * 86400000000).ToString().substr(0, 19), "2026-10-21T00:00:00");
  EXPECT_EQ(Literal::Binary("\x01\xab").ToString(), "01ab");
}

}  // namespace
}  // namespace floe::iceberg
