#include "floe/base/uuid.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace floe {
namespace {

TEST(UuidTest, RandomUuidsAreVersion4AndDistinct) {
  const std::regex form("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string uuid = RandomUuid();
    EXPECT_TRUE(std::regex_match(uuid, form)) << uuid;
    seen.insert(uuid);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(UuidTest, RandomIdsArePositive) {
  std::set<int64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const int64_t id = RandomPositiveId();
    EXPECT_GT(id, 0);
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

}  // namespace
}  // namespace floe
