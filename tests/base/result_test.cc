#include "floe/base/result.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace floe {
namespace {

Result<int> Half(int v) {
  if (v % 2 != 0) return Status::InvalidArgument("odd value " + std::to_string(v));
  return v / 2;
}

Result<int> Quarter(int v) {
  FLOE_ASSIGN_OR_RETURN(int half, Half(v));
  FLOE_ASSIGN_OR_RETURN(auto quarter, Half(half));
  return quarter;
}

TEST(ResultTest, HoldsValue) {
  Result<int> r = Half(8);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 4);
  EXPECT_TRUE(r.status().ok());
}

TEST(ResultTest, HoldsError) {
  Result<int> r = Half(3);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalidArgument());
  EXPECT_EQ(r.status().message(), "odd value 3");
  EXPECT_EQ(r.value_or(-1), -1);
}

TEST(ResultTest, AssignOrReturnPropagatesFirstError) {
  EXPECT_EQ(*Quarter(16), 4);
  Result<int> r = Quarter(6);  // 6/2 = 3 is odd
  EXPECT_EQ(r.status().message(), "odd value 3");
}

TEST(ResultTest, OkStatusWithoutValueBecomesInternal) {
  Result<int> r(Status::OK());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInternal());
}

TEST(ResultTest, MoveOnlyValues) {
  Result<std::unique_ptr<std::string>> r(std::make_unique<std::string>("x"));
  ASSERT_TRUE(r.ok());
  std::unique_ptr<std::string> owned = std::move(r).value();
  EXPECT_EQ(*owned, "x");
}

TEST(ResultDeathTest, ValueOfErrorAborts) {
  Result<int> r = Half(1);
  EXPECT_DEATH({ (void)r.value(); }, "value of an errored Result accessed: InvalidArgument: odd value 1");
}

}  // namespace
}  // namespace floe
