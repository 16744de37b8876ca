#include "floe/iceberg/default_value.h"

#include <gtest/gtest.h>

namespace floe::iceberg {
namespace {

Literal Parsed(const TypePtr& type, std::string_view json) {
  auto v = ParseDefaultValue(type, json);
  EXPECT_TRUE(v.ok()) << json << ": " << v.status().ToString();
  EXPECT_TRUE(v.ok() && v->has_value()) << json;
  return v.ok() && v->has_value() ? **v : Literal::Boolean(false);
}

TEST(DefaultValueTest, ReadsTheJsonSingleValueFormOfEveryPrimitive) {
  // The defaults PyIceberg wrote in duckdb-iceberg's add_columns_with_defaults_in_struct.
  EXPECT_EQ(Parsed(Type::Boolean(), "true"), Literal::Boolean(true));
  EXPECT_EQ(Parsed(Type::Int(), "342342"), Literal::Int(342342));
  EXPECT_EQ(Parsed(Type::Long(), "-9223372036854775808"), Literal::Long(INT64_MIN));
  EXPECT_EQ(Parsed(Type::Float(), "0.34234"), Literal::Float(0.34234f));
  EXPECT_EQ(Parsed(Type::Double(), "0.342343242342342"), Literal::Double(0.342343242342342));
  EXPECT_EQ(Parsed(Type::Double(), "2"), Literal::Double(2.0));
  EXPECT_EQ(Parsed(Type::Decimal(16, 2).value(), R"("12345.00")").decimal_value(), 1234500);
  EXPECT_EQ(Parsed(Type::Date(), R"("2003-10-20")"), Literal::Date(12345));
  EXPECT_EQ(Parsed(Type::Time(), R"("00:00:00.012345")"), Literal::Time(12345));
  EXPECT_EQ(Parsed(Type::Timestamp(), R"("1970-01-01T00:00:00.012345")"), Literal::Timestamp(12345));
  EXPECT_EQ(Parsed(Type::TimestampTz(), R"("1970-01-01T00:00:00.012345+00:00")"), Literal::TimestampTz(12345));
  EXPECT_EQ(Parsed(Type::String(), R"("HE\"LLO")"), Literal::String("HE\"LLO"));
  EXPECT_EQ(Parsed(Type::Uuid(), R"("f79c3e09-677c-4bbd-a479-3f349cb785e7")").bytes().size(), 16u);
  EXPECT_EQ(Parsed(Type::Fixed(5).value(), R"("010203ff03")").bytes(), std::string("\x01\x02\x03\xff\x03", 5));
  EXPECT_EQ(Parsed(Type::Binary(), R"("0102")").bytes(), std::string("\x01\x02", 2));
}

TEST(DefaultValueTest, NullIsNoValue) {
  auto v = ParseDefaultValue(Type::Int(), "null");
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_FALSE(v->has_value());
}

TEST(DefaultValueTest, RejectsValuesOfAnotherType) {
  for (auto [type, json] : {std::pair{Type::Int(), "\"1\""}, std::pair{Type::Int(), "4294967296"},
                            std::pair{Type::Boolean(), "1"}, std::pair{Type::Date(), "\"2003-13-40\""},
                            std::pair{Type::String(), "7"}, std::pair{Type::Long(), "{"}}) {
    auto v = ParseDefaultValue(type, json);
    ASSERT_TRUE(v.status().IsCorrupt()) << json << ": " << v.status().ToString();
    EXPECT_EQ(v.status().message(), std::string("default value ") + json + " is not a value of type " + type->ToString());
  }
  auto nested = ParseDefaultValue(Type::List(2, Type::Int(), false), "[1]");
  EXPECT_TRUE(nested.status().IsUnsupported()) << nested.status().ToString();
}

}  // namespace
}  // namespace floe::iceberg
