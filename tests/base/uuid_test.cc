#include "floe/base/uuid.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>

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

TEST(UuidTest, Version7UuidsCarryTheTimeAndSortByIt) {
  const auto now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  const int64_t before = now_ms();
  const std::string u = RandomUuidV7();
  const int64_t after = now_ms();
  ASSERT_EQ(u.size(), 36u);
  EXPECT_EQ(u[8], '-');
  EXPECT_EQ(u[13], '-');
  EXPECT_EQ(u[14], '7');  // version
  EXPECT_NE(std::string("89ab").find(u[19]), std::string::npos) << u;  // variant 10
  // The first 48 bits are the Unix time in milliseconds.
  const int64_t ms = std::stoll(u.substr(0, 8) + u.substr(9, 4), nullptr, 16);
  EXPECT_GE(ms, before);
  EXPECT_LE(ms, after);
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(RandomUuidV7());
  EXPECT_EQ(seen.size(), 1000u);
  // Later keys sort after earlier ones (a different millisecond at least).
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_LT(u, RandomUuidV7());
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
