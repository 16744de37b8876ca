#include "floe/iceberg/transform_function.h"

#include <gtest/gtest.h>

namespace floe::iceberg {
namespace {

Literal Parse(const TypePtr& type, std::string_view text) { return Literal::Parse(type, text).value(); }

Literal Apply(const Transform& transform, const Literal& value) {
  auto result = ApplyTransform(transform, value);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_TRUE(result->has_value());
  return **result;
}

TEST(TransformFunctionTest, BucketHashesMatchSpecAppendixB) {
  EXPECT_EQ(BucketHash(Literal::Int(34)), 2017239379);
  EXPECT_EQ(BucketHash(Literal::Long(34)), 2017239379);
  EXPECT_EQ(BucketHash(Parse(Type::Decimal(9, 2).value(), "14.20")), -500754589);
  EXPECT_EQ(BucketHash(Parse(Type::Date(), "2017-11-16")), -653330422);
  EXPECT_EQ(BucketHash(Parse(Type::Time(), "22:31:08")), -662762989);
  EXPECT_EQ(BucketHash(Parse(Type::Timestamp(), "2017-11-16T22:31:08")), -2047944441);
  EXPECT_EQ(BucketHash(Parse(Type::TimestampTz(), "2017-11-16T22:31:08Z")), -2047944441);
  // Nanosecond timestamps hash as their microseconds: promotion keeps buckets.
  EXPECT_EQ(BucketHash(Parse(Type::TimestampNs(), "2017-11-16T22:31:08")), -2047944441);
  EXPECT_EQ(BucketHash(Literal::String("iceberg")), 1210000089);
  EXPECT_EQ(BucketHash(Parse(Type::Uuid(), "f79c3e09-677c-4bbd-a479-3f349cb785e7")), 1488055340);
  EXPECT_EQ(BucketHash(Literal::Binary(std::string("\x00\x01\x02\x03", 4))), -188683207);
  EXPECT_EQ(BucketHash(Literal::Boolean(true)), 1392991556);
  EXPECT_EQ(BucketHash(Literal::Float(1.0f)), -142385009);
  EXPECT_EQ(BucketHash(Literal::Double(1.0)), -142385009);
  EXPECT_EQ(BucketHash(Literal::Double(-0.0)), 1669671676);
  EXPECT_EQ(BucketHash(Literal::Float(0.0f)), 1669671676);
}

TEST(TransformFunctionTest, BucketIsNonNegativeModulo) {
  const auto bucket16 = Transform::Bucket(16).value();
  // -653330422 & INT32_MAX = 1494153226; % 16 = 10.
  EXPECT_EQ(Apply(bucket16, Parse(Type::Date(), "2017-11-16")).int_value(), 1494153226 % 16);
  EXPECT_EQ(Apply(Transform::Bucket(100).value(), Literal::Long(34)).int_value(), 79);
  EXPECT_EQ(Apply(Transform::Bucket(16).value(), Literal::String("iceberg")).int_value(), 1210000089 % 16);
}

TEST(TransformFunctionTest, TruncateFloorsNumbersAndCutsText) {
  const auto t10 = Transform::Truncate(10).value();
  EXPECT_EQ(Apply(t10, Literal::Int(11)).int_value(), 10);
  EXPECT_EQ(Apply(t10, Literal::Int(-11)).int_value(), -20);
  EXPECT_EQ(Apply(t10, Literal::Long(-1)).long_value(), -10);
  EXPECT_EQ(Apply(Transform::Truncate(7).value(), Literal::Int(22)).int_value(), 21);
  // spec: decimal truncation works on the unscaled value: 10.65 → 10.50 for W=50.
  const auto dec = Type::Decimal(9, 2).value();
  EXPECT_EQ(Apply(Transform::Truncate(50).value(), Parse(dec, "10.65")).ToString(), "10.50");
  EXPECT_EQ(Apply(Transform::Truncate(3).value(), Literal::String("iceberg")).bytes(), "ice");
  // Code points, not bytes.
  EXPECT_EQ(Apply(Transform::Truncate(1).value(), Literal::String("\xE6\xB5\x8B\xE8\xAF\x95")).bytes(), "\xE6\xB5\x8B");
  EXPECT_EQ(Apply(Transform::Truncate(2).value(), Literal::Binary("\x01\x02\x03")).bytes(), "\x01\x02");
  // Overflow below INT32_MIN is refused, not wrapped.
  EXPECT_FALSE(ApplyTransform(t10, Literal::Int(std::numeric_limits<int32_t>::min())).ok());
}

TEST(TransformFunctionTest, TimeTransformsFloorBeforeTheEpoch) {
  const auto ts = Parse(Type::Timestamp(), "2026-10-21T20:15:00");
  EXPECT_EQ(Apply(Transform::Year(), ts).int_value(), 56);
  EXPECT_EQ(Apply(Transform::Month(), ts).int_value(), 56 * 12 + 9);
  EXPECT_EQ(Apply(Transform::Day(), ts).int_value(), 20747);
  EXPECT_EQ(Apply(Transform::Day(), ts).type()->id(), TypeId::kDate);
  EXPECT_EQ(Apply(Transform::Hour(), ts).int_value(), 20747 * 24 + 20);
  const auto before = Parse(Type::Timestamp(), "1969-12-31T23:59:59");
  EXPECT_EQ(Apply(Transform::Year(), before).int_value(), -1);
  EXPECT_EQ(Apply(Transform::Month(), before).int_value(), -1);
  EXPECT_EQ(Apply(Transform::Day(), before).int_value(), -1);
  EXPECT_EQ(Apply(Transform::Hour(), before).int_value(), -1);
  const auto ns = Parse(Type::TimestampNs(), "1969-12-31T23:59:59.999999");
  EXPECT_EQ(Apply(Transform::Day(), ns).int_value(), -1);
  EXPECT_EQ(Apply(Transform::Month(), Parse(Type::Date(), "2017-11-16")).int_value(), 47 * 12 + 10);
}

TEST(TransformFunctionTest, NullVoidAndWrongTypes) {
  auto null_result = ApplyTransform(Transform::Day(), std::nullopt);
  ASSERT_TRUE(null_result.ok());
  EXPECT_FALSE(null_result->has_value());
  auto void_result = ApplyTransform(Transform::Void(), Literal::Int(3));
  ASSERT_TRUE(void_result.ok());
  EXPECT_FALSE(void_result->has_value());
  auto wrong = ApplyTransform(Transform::Hour(), Parse(Type::Date(), "2017-11-16"));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().message().find("hour"), std::string::npos);
  auto unknown = ApplyTransform(Transform::Parse("zorder").value(), Literal::Int(1));
  EXPECT_EQ(unknown.status().code(), StatusCode::kUnsupported);
}

TEST(TransformFunctionTest, HumanStringsAndEscapedPartitionPaths) {
  EXPECT_EQ(PartitionValueToHumanString(Transform::Year(), Literal::Int(56)), "2026");
  EXPECT_EQ(PartitionValueToHumanString(Transform::Month(), Literal::Int(56 * 12 + 9)), "2026-10");
  EXPECT_EQ(PartitionValueToHumanString(Transform::Month(), Literal::Int(-1)), "1969-12");
  EXPECT_EQ(PartitionValueToHumanString(Transform::Day(), Literal::Date(20747)), "2026-10-21");
  EXPECT_EQ(PartitionValueToHumanString(Transform::Hour(), Literal::Int(20747 * 24 + 20)), "2026-10-21-20");
  EXPECT_EQ(PartitionValueToHumanString(Transform::Hour(), Literal::Int(-1)), "1969-12-31-23");
  EXPECT_EQ(PartitionValueToHumanString(Transform::Identity(), std::nullopt), "null");

  PartitionSpec spec;
  spec.fields.push_back({{2}, 1000, "order_ts_day", Transform::Day()});
  spec.fields.push_back({{3}, 1001, "city", Transform::Identity()});
  spec.fields.push_back({{1}, 1002, "order_id_bucket", Transform::Bucket(16).value()});
  EXPECT_EQ(PartitionPath(spec, {Literal::Date(20747), Literal::String("a/b=c d%"), Literal::Int(3)}),
            "order_ts_day=2026-10-21/city=a%2Fb%3Dc+d%25/order_id_bucket=3");
  EXPECT_EQ(PartitionPath(spec, {std::nullopt, std::nullopt, std::nullopt}),
            "order_ts_day=null/city=null/order_id_bucket=null");
  EXPECT_EQ(PartitionPath(PartitionSpec{}, {}), "");
}

TEST(TransformFunctionTest, PartitionTupleAppliesEveryField) {
  PartitionSpec spec;
  spec.fields.push_back({{2}, 1000, "ts_day", Transform::Day()});
  spec.fields.push_back({{1}, 1001, "id_bucket", Transform::Bucket(16).value()});
  const auto ts = Parse(Type::Timestamp(), "2026-10-21T20:15:00");
  auto tuple = PartitionTuple(spec, [&](int32_t id) -> std::optional<Literal> {
    if (id == 2) return ts;
    return std::nullopt;
  });
  ASSERT_TRUE(tuple.ok());
  ASSERT_EQ(tuple->size(), 2u);
  EXPECT_EQ((*tuple)[0]->int_value(), 20747);
  EXPECT_FALSE((*tuple)[1].has_value());
}

}  // namespace
}  // namespace floe::iceberg
