#include "floe/iceberg/transform.h"

#include <gtest/gtest.h>

namespace floe::iceberg {
namespace {

TEST(TransformTest, ParsesAndFormatsEveryTransform) {
  for (std::string_view name :
       {"identity", "bucket[16]", "truncate[10]", "year", "month", "day", "hour", "void", "bucket[1]"}) {
    auto t = Transform::Parse(name);
    ASSERT_TRUE(t.ok()) << name;
    EXPECT_EQ(t->ToString(), name);
    EXPECT_FALSE(t->is_unknown());
  }
  auto bucket = Transform::Parse("bucket[4]").value();
  EXPECT_EQ(bucket.type(), TransformType::kBucket);
  EXPECT_EQ(bucket.param(), 4);
  EXPECT_EQ(Transform::Parse("truncate[3]").value().param(), 3);
  EXPECT_EQ(Transform::Parse("Day").value(), Transform::Day());
  EXPECT_EQ(Transform::Parse(" bucket[ 8 ] ").value().ToString(), "bucket[8]");
}

TEST(TransformTest, KeepsUnknownTransformsVerbatim) {
  auto t = Transform::Parse("zorder[3]");
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->is_unknown());
  EXPECT_EQ(t->ToString(), "zorder[3]");
  EXPECT_FALSE(t->CanTransform(*Type::Long()));
  EXPECT_FALSE(t->ResultType(Type::Long()).ok());
}

TEST(TransformTest, RejectsBadParameters) {
  for (std::string_view bad : {"bucket", "bucket[]", "bucket[0]", "bucket[-2]", "bucket[x]", "truncate[1.5]",
                               "truncate", "bucket[99999999999]", ""}) {
    auto t = Transform::Parse(bad);
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_TRUE(t.status().IsInvalidArgument()) << bad;
  }
  EXPECT_FALSE(Transform::Bucket(0).ok());
  EXPECT_FALSE(Transform::Truncate(-1).ok());
}

TEST(TransformTest, SourceTypesAndResultTypesFollowTheSpec) {
  EXPECT_EQ(Transform::Bucket(16).value().ResultType(Type::String()).value()->id(), TypeId::kInt);
  EXPECT_EQ(Transform::Truncate(4).value().ResultType(Type::String()).value()->id(), TypeId::kString);
  EXPECT_EQ(Transform::Day().ResultType(Type::TimestampTz()).value()->id(), TypeId::kDate);
  EXPECT_EQ(Transform::Month().ResultType(Type::Date()).value()->id(), TypeId::kInt);
  EXPECT_EQ(Transform::Hour().ResultType(Type::TimestampNs()).value()->id(), TypeId::kInt);
  EXPECT_EQ(Transform::Identity().ResultType(Type::Decimal(9, 2).value()).value()->ToString(), "decimal(9,2)");
  EXPECT_FALSE(Transform::Hour().CanTransform(*Type::Date()));
  EXPECT_FALSE(Transform::Bucket(2).value().CanTransform(*Type::Float()));
  EXPECT_FALSE(Transform::Truncate(2).value().CanTransform(*Type::Uuid()));
  EXPECT_FALSE(Transform::Identity().CanTransform(*Type::Variant()));
  EXPECT_TRUE(Transform::Void().CanTransform(*Type::Variant()));
  auto bad = Transform::Year().ResultType(Type::String());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "transform 'year' cannot be applied to type 'string'");
}

}  // namespace
}  // namespace floe::iceberg
