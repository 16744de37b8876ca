#include "floe/io/tracing_file_io.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/temp_dir.h"

namespace floe {
namespace {

struct TracedBackend {
  std::string name;
  bool local;
};

class TracingFileIOTest : public ::testing::TestWithParam<TracedBackend> {
 protected:
  void SetUp() override {
    root_ = GetParam().local ? dir_.path() + "/" : "mem://trace/";
    base_ = GetParam().local ? NewLocalFileIO() : NewMemoryFileIO();
    trace_ = std::make_shared<IoTrace>();
    io_ = std::make_shared<TracingFileIO>(base_, trace_);
  }
  std::string At(const std::string& key) const { return root_ + key; }

  testing::TempDir dir_;
  std::string root_;
  std::shared_ptr<FileIO> base_;
  std::shared_ptr<IoTrace> trace_;
  std::shared_ptr<TracingFileIO> io_;
};

TEST_P(TracingFileIOTest, RecordsEachRequestWithBytesAndStatus) {
  ASSERT_TRUE(io_->PutIfAbsent(At("m/v1.json"), "0123456789").ok());
  EXPECT_TRUE(io_->PutIfAbsent(At("m/v1.json"), "x").IsAlreadyExists());
  auto file = io_->OpenRead(At("m/v1.json"));
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Read(2, 5).ok());
  ASSERT_TRUE(io_->List(At("m/")).ok());
  ASSERT_TRUE(io_->Delete(At("m/v1.json")).ok());

  const auto reqs = trace_->requests();
  ASSERT_EQ(reqs.size(), 6u);
  EXPECT_EQ(reqs[0].method, "PUT");
  EXPECT_EQ(reqs[0].bytes, 10);
  EXPECT_EQ(reqs[0].detail, "if-none-match=*");
  EXPECT_EQ(reqs[1].status, StatusCode::kAlreadyExists);
  EXPECT_EQ(reqs[2].method, "HEAD");
  EXPECT_EQ(reqs[3].method, "GET");
  EXPECT_EQ(reqs[3].offset, 2);
  EXPECT_EQ(reqs[3].length, 5);
  EXPECT_EQ(reqs[3].bytes, 5);
  EXPECT_EQ(reqs[4].method, "LIST");
  EXPECT_EQ(reqs[4].bytes, 1);
  EXPECT_EQ(reqs[5].method, "DELETE");

  const IoTotals t = trace_->totals();
  EXPECT_EQ(t.requests, 6);
  EXPECT_EQ(t.puts, 2);
  EXPECT_EQ(t.gets, 1);
  EXPECT_EQ(t.bytes_read, 5);
  EXPECT_EQ(t.bytes_written, 10);  // the refused PUT wrote nothing
  EXPECT_EQ(t.errors, 1);
}

TEST_P(TracingFileIOTest, VectoredReadShowsTheCoalescedRequests) {
  ASSERT_TRUE(base_->WriteAll(At("data.bin"), std::string(1 << 20, 'd')).ok());
  auto file = io_->OpenRead(At("data.bin"), OpenReadOptions{.size = 1 << 20});
  ASSERT_TRUE(file.ok());
  const std::vector<ReadRange> ranges = {{0, 1000}, {1500, 1000}, {4000, 100}, {900000, 5000}};
  auto parts = (*file)->ReadRanges(ranges, {.hole_size_limit = 4096, .range_size_limit = 1 << 20});
  ASSERT_TRUE(parts.ok());
  const auto reqs = trace_->requests();
  // Known size: no HEAD. Three nearby ranges became one GET; the far one its own.
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].method, "GET");
  EXPECT_EQ(reqs[0].offset, 0);
  EXPECT_EQ(reqs[0].length, 4100);
  EXPECT_EQ(reqs[1].offset, 900000);
  EXPECT_EQ(trace_->totals().bytes_read, 4100 + 5000);
}

TEST_P(TracingFileIOTest, FormatsOneLinePerRequestThenTotals) {
  ASSERT_TRUE(base_->WriteAll(At("data/x.parquet"), std::string(40000, 'p')).ok());
  auto file = io_->OpenRead(At("data/x.parquet"), OpenReadOptions{.size = 40000});
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Read(4160, 35840).ok());
  const std::string text = trace_->Format(root_);
  EXPECT_EQ(text.rfind("GET data/x.parquet bytes=4160-39999 (35840 B) ", 0), 0u) << text;
  EXPECT_NE(text.find(" ms\ntotals: 1 requests (GET 1), 35.0 KiB read, 0 B written, "), std::string::npos) << text;
}

TEST_P(TracingFileIOTest, ATotalsOnlyTraceCountsWithoutKeepingRequests) {
  auto counter = std::make_shared<IoTrace>(IoTrace::Keep::kTotals);
  TracingFileIO io(base_, counter);
  ASSERT_TRUE(io.PutIfAbsent(At("c.bin"), std::string(300, 'c')).ok());
  auto file = io.OpenRead(At("c.bin"));
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Read(0, 100).ok());
  ASSERT_TRUE((*file)->Read(200, 50).ok());
  EXPECT_TRUE(counter->requests().empty());
  IoTotals t = counter->totals();
  EXPECT_EQ(t.requests, 4);  // PUT, HEAD, two GETs
  EXPECT_EQ(t.gets, 2);
  EXPECT_EQ(t.heads, 1);
  EXPECT_EQ(t.bytes_read, 150);
  EXPECT_EQ(t.bytes_written, 300);
  counter->Clear();
  t = counter->totals();
  EXPECT_EQ(t.requests, 0);
  EXPECT_EQ(t.bytes_read, 0);
}

TEST(IoTraceFormatTest, FailedRequestsNameTheirErrorKind) {
  IoRequest r{.method = "HEAD", .path = "s3://b/k", .status = StatusCode::kNotFound, .duration_ms = 0.25};
  EXPECT_EQ(IoTrace::FormatRequest(r), "HEAD s3://b/k 0.2 ms -> NotFound");
  IoTotals t{.requests = 3, .heads = 1, .gets = 2, .bytes_read = 2048, .errors = 1, .duration_ms = 1.5};
  EXPECT_EQ(IoTrace::FormatTotals(t), "totals: 3 requests (GET 2, HEAD 1), 2.0 KiB read, 0 B written, 1.5 ms, 1 failed");
}

INSTANTIATE_TEST_SUITE_P(Backends, TracingFileIOTest,
                         ::testing::Values(TracedBackend{"Local", true}, TracedBackend{"Memory", false}),
                         [](const ::testing::TestParamInfo<TracedBackend>& info) { return info.param.name; });

}  // namespace
}  // namespace floe
