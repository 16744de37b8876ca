#include "floe/base/uuid.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

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

TEST(UuidTest, ForkedProcessesDrawDifferentIds) {
  (void)RandomUuid();  // the generator is seeded before the fork
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string uuid = RandomUuid();
    (void)!write(fds[1], uuid.data(), uuid.size());
    _exit(0);
  }
  close(fds[1]);
  const std::string parent = RandomUuid();
  char child[36];
  ASSERT_EQ(read(fds[0], child, sizeof(child)), 36);
  close(fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_NE(parent, std::string(child, sizeof(child)));
}

}  // namespace
}  // namespace floe
