#include "floe/base/uuid.h"

#include <gtest/gtest.h>

#include <set>

namespace floe {
namespace {

TEST(UuidTest, RandomUuidsAreVersion4AndDistinct) {
  // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx with y in 8, 9, a, b.
  auto well_formed = [](const std::string& u) {
    if (u.size() != 36 || u[14] != '4' || std::string("89ab").find(u[19]) == std::string::npos) return false;
    for (size_t i = 0; i < u.size(); ++i) {
      const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash != (u[i] == '-')) return false;
      if (!dash && std::string("0123456789abcdef").find(u[i]) == std::string::npos) return false;
    }
    return true;
  };
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string uuid = RandomUuid();
    EXPECT_TRUE(well_formed(uuid)) << uuid;
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
