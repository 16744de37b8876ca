#include "floe/io/retry_policy.h"

#include <gtest/gtest.h>

#include <set>

namespace floe {
namespace {

TEST(RetryPolicyTest, TransientAnswersAreRetryableOthersAreNot) {
  for (long status : {500L, 502L, 503L, 504L, 429L}) EXPECT_TRUE(RetryPolicy::IsRetryableAnswer(status, "")) << status;
  EXPECT_TRUE(RetryPolicy::IsRetryableAnswer(503, "SlowDown"));
  EXPECT_TRUE(RetryPolicy::IsRetryableAnswer(400, "RequestTimeout"));
  EXPECT_TRUE(RetryPolicy::IsRetryableAnswer(200, "InternalError"));  // Complete's 200-with-error
  for (long status : {400L, 403L, 404L, 409L, 412L, 416L}) {
    EXPECT_FALSE(RetryPolicy::IsRetryableAnswer(status, "")) << status;
  }
  EXPECT_FALSE(RetryPolicy::IsRetryableAnswer(403, "SignatureDoesNotMatch"));
  EXPECT_FALSE(RetryPolicy::IsRetryableAnswer(404, "NoSuchKey"));
}

TEST(RetryPolicyTest, DelaysGrowExponentiallyToTheCapWithFullJitter) {
  const RetryPolicy policy{.max_attempts = 10, .base_delay_ms = 50, .max_delay_ms = 2000};
  EXPECT_EQ(policy.MaxDelay(1).count(), 50);
  EXPECT_EQ(policy.MaxDelay(2).count(), 100);
  EXPECT_EQ(policy.MaxDelay(3).count(), 200);
  EXPECT_EQ(policy.MaxDelay(6).count(), 1600);
  EXPECT_EQ(policy.MaxDelay(7).count(), 2000);
  EXPECT_EQ(policy.MaxDelay(60).count(), 2000);  // no overflow
  std::set<int64_t> seen;
  for (int i = 0; i < 200; ++i) {
    const int64_t d = policy.Delay(4).count();
    EXPECT_GE(d, 0);
    EXPECT_LE(d, 400);
    seen.insert(d);
  }
  EXPECT_GT(seen.size(), 20u);  // jittered, not a fixed pause
  const RetryPolicy immediate{.max_attempts = 3, .base_delay_ms = 0, .max_delay_ms = 0};
  EXPECT_EQ(immediate.Delay(2).count(), 0);
}

}  // namespace
}  // namespace floe
