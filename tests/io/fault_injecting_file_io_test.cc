#include "floe/io/fault_injecting_file_io.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>

#include "testing/temp_dir.h"

namespace floe {
namespace {

struct FaultBackend {
  std::string name;
  bool local;
};

class FaultInjectingFileIOTest : public ::testing::TestWithParam<FaultBackend> {
 protected:
  void SetUp() override {
    base_ = GetParam().local ? NewLocalFileIO() : NewMemoryFileIO();
    root_ = GetParam().local ? dir_.path() + "/" : "mem://faults/";
    io_ = std::make_shared<FaultInjectingFileIO>(base_, 42);
  }
  std::string At(const std::string& key) const { return root_ + key; }

  // A small "commit": write a data file, then publish metadata if absent.
  Status Commit(const std::string& name) {
    FLOE_RETURN_IF_ERROR(io_->WriteAll(At("data/" + name), std::string_view("rows of " + name)));
    return io_->PutIfAbsent(At("metadata/" + name + ".json"), "{\"data\":\"" + name + "\"}");
  }

  testing::TempDir dir_;
  std::shared_ptr<FileIO> base_;
  std::shared_ptr<FaultInjectingFileIO> io_;
  std::string root_;
};

TEST_P(FaultInjectingFileIOTest, CountsEveryCallByOperation) {
  ASSERT_TRUE(Commit("a").ok());
  EXPECT_EQ(io_->calls(kIoOpenWrite), 2);
  EXPECT_EQ(io_->calls(kIoAppend), 2);
  EXPECT_EQ(io_->calls(kIoClose), 2);
  EXPECT_EQ(io_->calls(), 6);
  ASSERT_TRUE(io_->ReadAll(At("data/a")).ok());
  EXPECT_EQ(io_->calls(kIoOpenRead | kIoRead), 2);
  EXPECT_EQ(io_->faults_injected(), 0);
}

TEST_P(FaultInjectingFileIOTest, FailingEachCallInTurnNeverPublishesMetadataWithoutItsData) {
  ASSERT_TRUE(Commit("probe").ok());
  const int64_t calls = io_->calls();
  ASSERT_EQ(calls, 6);
  for (int64_t nth = 1; nth <= calls; ++nth) {
    for (FaultKind kind : {FaultKind::kFailBefore, FaultKind::kFailAfter, FaultKind::kTornWrite}) {
      io_->ClearRules();
      io_->ResetCounters();
      io_->AddRule(FaultRule{.nth = nth, .kind = kind});
      const std::string name = "c" + std::to_string(nth) + "k" + std::to_string(static_cast<int>(kind));
      Status st = Commit(name);
      EXPECT_FALSE(st.ok()) << "call " << nth << " did not fail";
      EXPECT_TRUE(st.IsIOError()) << st.ToString();
      EXPECT_NE(st.message().find("injected fault"), std::string::npos);
      EXPECT_EQ(io_->faults_injected(), 1);
      // Invariant of the toy protocol: metadata visible implies data visible and whole.
      if (*base_->Exists(At("metadata/" + name + ".json"))) {
        EXPECT_EQ(kind, FaultKind::kFailAfter) << "metadata published although call " << nth << " failed first";
        EXPECT_EQ(base_->ReadAll(At("data/" + name))->view(), "rows of " + name);
      }
      if (*base_->Exists(At("data/" + name))) {
        EXPECT_EQ(base_->ReadAll(At("data/" + name))->view(), "rows of " + name) << "torn object visible";
      }
    }
  }
}

TEST_P(FaultInjectingFileIOTest, FailAfterPerformsTheCallThenReportsFailure) {
  io_->AddRule(FaultRule{.ops = kIoClose, .kind = FaultKind::kFailAfter, .code = StatusCode::kIOError});
  Status st = io_->PutIfAbsent(At("m.json"), "{}");
  EXPECT_TRUE(st.IsIOError());
  // The object landed: this is the "did my commit happen?" case callers must resolve.
  EXPECT_EQ(base_->ReadAll(At("m.json"))->view(), "{}");
}

TEST_P(FaultInjectingFileIOTest, TornWritePassesAPrefixThenFailsAndPublishesNothing) {
  io_->AddRule(FaultRule{.ops = kIoAppend, .kind = FaultKind::kTornWrite, .torn_bytes = 3});
  auto out = io_->OpenWrite(At("torn"));
  ASSERT_TRUE(out.ok());
  Status st = (*out)->Append(std::string_view("abcdefgh"));
  EXPECT_TRUE(st.IsIOError());
  EXPECT_EQ((*out)->bytes_written(), 3);
  (*out)->Abort();
  EXPECT_FALSE(*base_->Exists(At("torn")));
}

TEST_P(FaultInjectingFileIOTest, GlobAndOpsSelectWhichCallsFail) {
  io_->AddRule(FaultRule{.ops = kIoOpenWrite, .path_glob = "*/metadata/*", .code = StatusCode::kPermissionDenied});
  EXPECT_TRUE(io_->WriteAll(At("data/x"), std::string_view("x")).ok());
  Status st = io_->WriteAll(At("metadata/x.json"), std::string_view("x"));
  EXPECT_TRUE(st.IsPermissionDenied()) << st.ToString();
  EXPECT_TRUE(io_->ReadAll(At("data/x")).ok());  // reads were not selected
}

TEST_P(FaultInjectingFileIOTest, MaxFaultsLimitsHowOftenARuleFires) {
  io_->AddRule(FaultRule{.ops = kIoStat, .max_faults = 2});
  EXPECT_FALSE(io_->Stat(At("a")).status().IsNotFound());
  EXPECT_FALSE(io_->Stat(At("a")).status().IsNotFound());
  EXPECT_TRUE(io_->Stat(At("a")).status().IsNotFound());  // third call reaches storage
  EXPECT_EQ(io_->faults_injected(), 2);
}

TEST_P(FaultInjectingFileIOTest, ProbabilisticFaultsRepeatForTheSameSeed) {
  auto run = [&](uint64_t seed) {
    FaultInjectingFileIO io(base_, seed);
    io.AddRule(FaultRule{.ops = kIoStat, .probability = 0.3});
    std::string pattern;
    for (int i = 0; i < 200; ++i) pattern += io.Stat(At("p")).status().IsIOError() ? '1' : '0';
    return pattern;
  };
  const std::string a = run(1), b = run(1), c = run(2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  const auto ones = std::count(a.begin(), a.end(), '1');
  EXPECT_GT(ones, 30);
  EXPECT_LT(ones, 90);
}

TEST_P(FaultInjectingFileIOTest, LatencyDelaysButDoesNotFail) {
  io_->AddRule(FaultRule{.ops = kIoStat, .kind = FaultKind::kLatency, .latency = std::chrono::milliseconds(30)});
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(io_->Stat(At("none")).status().IsNotFound());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(30));
  EXPECT_EQ(io_->faults_injected(), 0);
}

TEST_P(FaultInjectingFileIOTest, EachRequestOfAVectoredReadCanFail) {
  ASSERT_TRUE(base_->WriteAll(At("v"), std::string(100000, 'v')).ok());
  auto file = io_->OpenRead(At("v"));
  ASSERT_TRUE(file.ok());
  io_->AddRule(FaultRule{.ops = kIoRead, .nth = 2});
  const std::vector<ReadRange> ranges = {{0, 10}, {50000, 10}, {99990, 10}};
  auto parts = (*file)->ReadRanges(ranges, {.hole_size_limit = 0, .range_size_limit = 1 << 20});
  EXPECT_TRUE(parts.status().IsIOError());
  EXPECT_EQ(io_->calls(kIoRead), 2);  // stopped at the failing request
}

TEST_P(FaultInjectingFileIOTest, DeleteManyFaultsHitSinglePaths) {
  for (const char* k : {"x1", "x2", "x3"}) ASSERT_TRUE(base_->WriteAll(At(k), std::string_view("x")).ok());
  io_->AddRule(FaultRule{.ops = kIoDelete, .path_glob = "*x2"});
  const std::vector<std::string> paths = {At("x1"), At("x2"), At("x3")};
  EXPECT_TRUE(io_->DeleteMany(paths).IsIOError());
  EXPECT_FALSE(*base_->Exists(At("x1")));
  EXPECT_TRUE(*base_->Exists(At("x2")));
  EXPECT_FALSE(*base_->Exists(At("x3")));
}

INSTANTIATE_TEST_SUITE_P(Backends, FaultInjectingFileIOTest,
                         ::testing::Values(FaultBackend{"Local", true}, FaultBackend{"Memory", false}),
                         [](const ::testing::TestParamInfo<FaultBackend>& info) { return info.param.name; });

}  // namespace
}  // namespace floe
