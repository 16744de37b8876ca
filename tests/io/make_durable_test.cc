// FileIO::MakeDurable on every FileIO: local disk fsyncs (and reports
// missing objects), object stores and memory do nothing, the wrappers
// forward, trace and fault-inject it.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "floe/io/fault_injecting_file_io.h"
#include "floe/io/file_io.h"
#include "floe/io/tracing_file_io.h"
#include "testing/temp_dir.h"

namespace floe {
namespace {

// Files under new nested folders (as a partitioned append creates them)
// and under an existing one.
std::vector<std::string> WriteFiles(FileIO& io, const testing::TempDir& dir) {
  std::vector<std::string> paths = {
      dir.Join("t/data/region=eu/day=1/a.parquet"), dir.Join("t/data/region=eu/day=1/b.parquet"),
      dir.Join("t/data/region=us/c.parquet"),       dir.Join("t/metadata/m0.avro"),
      "file://" + dir.Join("t/metadata/snap-1.avro"),
  };
  for (const auto& p : paths) EXPECT_TRUE(io.WriteAll(p, std::string_view("bytes of " + p)).ok()) << p;
  return paths;
}

TEST(MakeDurableTest, LocalDiskSyncsWrittenFilesUnderNewFoldersAndKeepsThemReadable) {
  testing::TempDir dir;
  auto io = NewLocalFileIO();
  auto paths = WriteFiles(*io, dir);
  paths.push_back(paths.front());  // a duplicate is synced once, not an error
  ASSERT_TRUE(io->MakeDurable(paths).ok());
  // Syncing again (nothing dirty) is fine, and the bytes are unchanged.
  ASSERT_TRUE(io->MakeDurable(paths).ok());
  auto data = io->ReadAll(paths[2]);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->view(), "bytes of " + paths[2]);
  EXPECT_TRUE(io->MakeDurable({}).ok());
}

TEST(MakeDurableTest, LocalDiskMissingObjectIsNotFoundNamingIt) {
  testing::TempDir dir;
  auto io = NewLocalFileIO();
  auto paths = WriteFiles(*io, dir);
  const std::string missing = dir.Join("t/data/region=eu/never-written.parquet");
  paths.push_back(missing);
  Status st = io->MakeDurable(paths);
  EXPECT_EQ(st.code(), StatusCode::kNotFound) << st.ToString();
  EXPECT_NE(st.message().find("never-written.parquet"), std::string::npos) << st.ToString();
  // A missing folder too; and a folder is not an object.
  st = io->MakeDurable(std::vector<std::string>{dir.Join("nowhere/x.parquet")});
  EXPECT_EQ(st.code(), StatusCode::kNotFound) << st.ToString();
  st = io->MakeDurable(std::vector<std::string>{dir.Join("t/data")});
  EXPECT_EQ(st.code(), StatusCode::kNotFound) << st.ToString();
  EXPECT_NE(st.message().find("folder"), std::string::npos) << st.ToString();
}

TEST(MakeDurableTest, MemoryHasNothingToDo) {
  auto io = NewMemoryFileIO();
  ASSERT_TRUE(io->WriteAll("mem://durable/a", std::string_view("a")).ok());
  // No request is made, so even a name never written is OK.
  EXPECT_TRUE(io->MakeDurable(std::vector<std::string>{"mem://durable/a", "mem://durable/none"}).ok());
}

TEST(MakeDurableTest, ResolvingFileIOForwardsByScheme) {
  testing::TempDir dir;
  auto io = NewResolvingFileIO();
  const std::string local = dir.Join("x/a.bin");
  ASSERT_TRUE(io->WriteAll(local, std::string_view("a")).ok());
  EXPECT_TRUE(io->MakeDurable(std::vector<std::string>{local, "mem://durable/b"}).ok());
  // The local FileIO saw the call: a missing local file is reported.
  Status st = io->MakeDurable(std::vector<std::string>{"mem://durable/b", dir.Join("x/missing.bin")});
  EXPECT_EQ(st.code(), StatusCode::kNotFound) << st.ToString();
}

TEST(MakeDurableTest, TracingRecordsOneSyncPerCallApartFromRequests) {
  testing::TempDir dir;
  auto trace = std::make_shared<IoTrace>();
  TracingFileIO io(NewLocalFileIO(), trace);
  auto paths = WriteFiles(io, dir);
  trace->Clear();
  ASSERT_TRUE(io.MakeDurable(paths).ok());
  const auto requests = trace->requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "SYNC");
  EXPECT_EQ(requests[0].path, paths[0]);
  EXPECT_EQ(requests[0].bytes, 5);
  const IoTotals totals = trace->totals();
  EXPECT_EQ(totals.requests, 0);  // an object store would send nothing
  EXPECT_EQ(totals.syncs, 1);
  EXPECT_EQ(totals.synced_objects, 5);
  const std::string text = trace->Format(dir.path());
  EXPECT_NE(text.find("SYNC t/data/region=eu/day=1/a.parquet (5 objects)"), std::string::npos) << text;
  EXPECT_NE(text.find("5 objects synced in 1 calls"), std::string::npos) << text;
}

TEST(MakeDurableTest, FaultInjectorCountsAndFailsEachPath) {
  testing::TempDir dir;
  auto base = NewLocalFileIO();
  auto paths = WriteFiles(*base, dir);
  FaultInjectingFileIO io(base);
  ASSERT_TRUE(io.MakeDurable(paths).ok());
  EXPECT_EQ(io.calls(kIoSync), 5);
  EXPECT_EQ(io.calls(), 5);
  EXPECT_STREQ(IoOpName(kIoSync), "sync");

  // The third path fails before storage sees the call.
  io.ResetCounters();
  io.AddRule(FaultRule{.ops = kIoSync, .nth = 3});
  Status st = io.MakeDurable(paths);
  EXPECT_EQ(st.code(), StatusCode::kIOError) << st.ToString();
  EXPECT_NE(st.message().find("injected fault: sync"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("c.parquet"), std::string::npos) << st.ToString();
  EXPECT_EQ(io.faults_injected(), 1);

  // kFailAfter syncs, then reports the failure; a glob picks the path.
  io.ClearRules();
  io.ResetCounters();
  io.AddRule(FaultRule{.ops = kIoSync, .path_glob = "*/metadata/*", .kind = FaultKind::kFailAfter,
                       .code = StatusCode::kCommitStateUnknown});
  st = io.MakeDurable(paths);
  EXPECT_EQ(st.code(), StatusCode::kCommitStateUnknown) << st.ToString();
  EXPECT_EQ(io.faults_injected(), 2);  // m0.avro and snap-1.avro
  // Other ops' rules do not see it.
  io.ClearRules();
  io.AddRule(FaultRule{.ops = kIoWriteOps});
  EXPECT_TRUE(io.MakeDurable(paths).ok());
}

}  // namespace
}  // namespace floe
