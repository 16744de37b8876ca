#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "floe/io/file_io.h"
#include "testing/temp_dir.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> FolderEntries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

TEST(LocalFileIOTest, SixteenProcessesRacingPutIfAbsentHaveExactlyOneWinner) {
  testing::TempDir dir;
  const std::string target = dir.Join("metadata/v1.metadata.json");
  constexpr int kWriters = 16;
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  std::vector<pid_t> children;
  for (int i = 0; i < kWriters; ++i) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(go[1]);
      char c;
      // Every writer blocks here until the parent closes the pipe: one start line.
      if (read(go[0], &c, 1) < 0) _exit(9);
      auto io = NewLocalFileIO();
      Status st = io->PutIfAbsent(target, "writer " + std::to_string(i));
      _exit(st.ok() ? 0 : st.IsAlreadyExists() ? 3 : 4);
    }
    children.push_back(pid);
  }
  close(go[0]);
  close(go[1]);
  int winners = 0, losers = 0, others = 0, winner_index = -1;
  for (int i = 0; i < kWriters; ++i) {
    int status = 0;
    ASSERT_EQ(waitpid(children[i], &status, 0), children[i]);
    ASSERT_TRUE(WIFEXITED(status));
    switch (WEXITSTATUS(status)) {
      case 0: ++winners; winner_index = i; break;
      case 3: ++losers; break;
      default: ++others;
    }
  }
  EXPECT_EQ(winners, 1);
  EXPECT_EQ(losers, kWriters - 1);
  EXPECT_EQ(others, 0);
  auto content = NewLocalFileIO()->ReadAll(target);
  ASSERT_TRUE(content.ok());
  EXPECT_EQ(content->view(), "writer " + std::to_string(winner_index));
  // Losers cleaned up their temporaries: only the published object remains.
  EXPECT_EQ(FolderEntries(dir.Join("metadata")), std::vector<std::string>{"v1.metadata.json"});
}

TEST(LocalFileIOTest, WriterKilledMidWriteLeavesNothingUnderTheFinalName) {
  testing::TempDir dir;
  const std::string target = dir.Join("data/part-0.parquet");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(ready[0]);
    auto io = NewLocalFileIO();
    auto out = io->OpenWrite(target, WriteOptions{.if_absent = false, .durable = true});
    if (!out.ok()) _exit(4);
    const std::string chunk(1 << 20, 'x');
    for (int i = 0; i < 3; ++i) {
      if (!(*out)->Append(std::string_view(chunk)).ok()) _exit(5);
    }
    if (write(ready[1], "r", 1) != 1) _exit(6);
    pause();  // killed here, mid-write, before Close()
    _exit(7);
  }
  close(ready[1]);
  char c;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status));

  auto io = NewLocalFileIO();
  EXPECT_FALSE(*io->Exists(target));
  EXPECT_TRUE(io->ListAll(dir.path() + "/")->empty());
  // The abandoned temporary is hidden, in the same folder, and holds the bytes.
  const auto entries = FolderEntries(dir.Join("data"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].rfind(".part-0.parquet.floe-tmp-", 0), 0u) << entries[0];
  // A later writer is not blocked by the leftover.
  EXPECT_TRUE(io->PutIfAbsent(target, "complete").ok());
  EXPECT_EQ(io->ReadAll(target)->view(), "complete");
}

TEST(LocalFileIOTest, FileUrisAndPlainPathsNameTheSameObject) {
  testing::TempDir dir;
  auto io = NewLocalFileIO();
  const std::string plain = dir.Join("x/y.json");
  ASSERT_TRUE(io->WriteAll("file://" + plain, std::string_view("{}")).ok());
  EXPECT_EQ(io->ReadAll(plain)->view(), "{}");
  EXPECT_EQ(io->ReadAll("file:" + plain)->view(), "{}");
  EXPECT_EQ(io->ReadAll("file://localhost" + plain)->view(), "{}");
  auto listed = io->ListAll("file://" + dir.path() + "/");
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].path, "file://" + plain);  // given back in the caller's form
  EXPECT_TRUE(io->Stat("file://otherhost/etc/passwd").status().IsInvalidArgument());
  EXPECT_TRUE(io->Stat("file:relative/path").status().IsInvalidArgument());
  EXPECT_TRUE(io->Stat("").status().IsInvalidArgument());
}

TEST(LocalFileIOTest, FolderIsNotAnObject) {
  testing::TempDir dir;
  auto io = NewLocalFileIO();
  ASSERT_TRUE(io->WriteAll(dir.Join("f/g"), std::string_view("x")).ok());
  auto st = io->Stat(dir.Join("f"));
  EXPECT_TRUE(st.status().IsNotFound());
  EXPECT_NE(st.status().message().find("is a folder"), std::string::npos);
  EXPECT_TRUE(io->OpenRead(dir.Join("f")).status().IsNotFound());
}

TEST(LocalFileIOTest, WritingBelowAFileIsAClearError) {
  testing::TempDir dir;
  auto io = NewLocalFileIO();
  ASSERT_TRUE(io->WriteAll(dir.Join("plain"), std::string_view("x")).ok());
  auto out = io->OpenWrite(dir.Join("plain/child"));
  EXPECT_TRUE(out.status().IsInvalidArgument()) << out.status().ToString();
  EXPECT_NE(out.status().message().find("plain"), std::string::npos);
}

TEST(LocalFileIOTest, ListSkipsForeignTemporariesButKeepsOrdinaryDotFiles) {
  testing::TempDir dir;
  std::ofstream(dir.Join(".v3.json.floe-tmp-123-0-abc")) << "partial";
  std::ofstream(dir.Join(".hidden")) << "visible";
  std::ofstream(dir.Join("v2.json")) << "done";
  auto listed = NewLocalFileIO()->ListAll(dir.path() + "/");
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].path, dir.Join(".hidden"));
  EXPECT_EQ((*listed)[1].path, dir.Join("v2.json"));
}

TEST(LocalFileIOTest, DurablePutIfAbsentIsReadableAtOnce) {
  testing::TempDir dir;
  auto io = NewLocalFileIO();
  ASSERT_TRUE(io->PutIfAbsent(dir.Join("d/commit.json"), "{\"v\":1}", /*durable=*/true).ok());
  std::ifstream in(dir.Join("d/commit.json"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "{\"v\":1}");
}

}  // namespace
}  // namespace floe
