// Multipart uploads: large objects byte-exact, parts in parallel, and no
// object and no upload left behind when anything fails.

#include <gtest/gtest.h>

#include <string>

#include "s3_fixture.h"

namespace floe::testing {
namespace {

TEST_F(S3Test, LargeStreamedWriteIsUploadedInPartsAndByteExact) {
  const std::string data = Pattern((12 << 20) + 12345, 11);
  auto out = io_->OpenWrite(At("data/big.parquet"));
  ASSERT_TRUE(out.ok());
  const int64_t before = client_->stats().requests;
  // Irregular appends: parts are cut at the part size, not at append edges.
  size_t pos = 0;
  for (int i = 0; pos < data.size(); ++i) {
    const size_t n = std::min(data.size() - pos, static_cast<size_t>(1 + (i * 7919) % 900000));
    ASSERT_TRUE((*out)->Append(std::string_view(data).substr(pos, n)).ok());
    pos += n;
  }
  EXPECT_FALSE(*io_->Exists(At("data/big.parquet")));
  ASSERT_TRUE((*out)->Close().ok());
  // Create, 3 parts, Complete (and the Exists HEAD above).
  EXPECT_EQ(client_->stats().requests - before, 6);
  EXPECT_EQ(io_->Stat(At("data/big.parquet"))->size, static_cast<int64_t>(data.size()));
  EXPECT_EQ(ReadString(At("data/big.parquet")) == data, true);
  auto file = io_->OpenRead(At("data/big.parquet"));
  ASSERT_TRUE(file.ok());
  // Across the part boundary at 5 MiB.
  EXPECT_EQ((*file)->Read((5 << 20) - 3, 6)->view(), std::string_view(data).substr((5 << 20) - 3, 6));
  auto uploads = client_->ListMultipartUploads(bucket_, "");
  ASSERT_TRUE(uploads.ok());
  EXPECT_TRUE(uploads->empty());
}

TEST_F(S3Test, AbortedMultipartUploadLeavesNoObjectAndNoUpload) {
  auto out = io_->OpenWrite(At("aborted"));
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Append(std::string_view(Pattern(11 << 20))).ok());
  auto during = client_->ListMultipartUploads(bucket_, "");
  ASSERT_TRUE(during.ok());
  EXPECT_EQ(during->size(), 1u);  // parts are already on the server
  (*out)->Abort();
  EXPECT_FALSE(*io_->Exists(At("aborted")));
  auto after = client_->ListMultipartUploads(bucket_, "");
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(after->empty());
  EXPECT_TRUE((*out)->Close().IsInvalidArgument());
}

TEST_F(S3Test, ServerStoppedMidMultipartGivesCleanErrorAndNoObject) {
  if (S3TestServer::kind() != "rgw") GTEST_SKIP() << "needs a server that keeps its data across a restart (rgw)";
  auto client = ClientWith([](S3Config& c) {
    c.max_attempts = 3;
    c.connect_timeout_ms = 500;
  });
  auto io = NewS3FileIOWithClient(client);
  auto out = io->OpenWrite(At("interrupted"));
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Append(std::string_view(Pattern(5 << 20))).ok());  // part 1 goes up
  auto during = client_->ListMultipartUploads(bucket_, "");
  ASSERT_TRUE(during.ok());
  ASSERT_EQ(during->size(), 1u);

  S3TestServer::StopGateway();
  Status append = (*out)->Append(std::string_view(Pattern(5 << 20, 2)));
  Status close = append.ok() ? (*out)->Close() : append;
  S3TestServer::StartGateway();

  RecordProperty("close_error", close.ToString());
  ASSERT_TRUE(close.IsIOError()) << close.ToString();
  EXPECT_EQ(close.message().find('\n'), std::string::npos) << close.message();
  EXPECT_NE(close.message().find(At("interrupted")), std::string::npos) << close.message();
  EXPECT_NE(close.message().find("abort"), std::string::npos) << close.message();
  // The server is back: Abort() finishes what Close() could not.
  (*out)->Abort();
  EXPECT_FALSE(*io_->Exists(At("interrupted")));
  auto after = client_->ListMultipartUploads(bucket_, "");
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_TRUE(after->empty());
}

}  // namespace
}  // namespace floe::testing
