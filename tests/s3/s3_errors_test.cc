// Errors on S3 are one line each, of the right kind, naming bucket and key.

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <string>

#include "s3_fixture.h"
#include "testing/tcp_proxy.h"

namespace floe::testing {
namespace {

void ExpectOneLine(const Status& st) { EXPECT_EQ(st.message().find('\n'), std::string::npos) << st.message(); }

TEST_F(S3Test, MissingKeyAndMissingBucketAreNotFoundNamingThem) {
  auto key = io_->Stat(At("nope/x.parquet"));
  EXPECT_TRUE(key.status().IsNotFound()) << key.status().ToString();
  EXPECT_NE(key.status().message().find(At("nope/x.parquet")), std::string::npos) << key.status().message();
  ExpectOneLine(key.status());
  EXPECT_TRUE(io_->OpenRead(At("nope")).status().IsNotFound());
  EXPECT_FALSE(*io_->Exists(At("nope")));

  const std::string missing = "s3://floe-no-such-bucket-" + std::to_string(getpid()) + "/k";
  auto bucket = io_->ReadAll(missing);
  EXPECT_TRUE(bucket.status().IsNotFound()) << bucket.status().ToString();
  EXPECT_NE(bucket.status().message().find("bucket 'floe-no-such-bucket-"), std::string::npos)
      << bucket.status().message();
  ExpectOneLine(bucket.status());
  auto list = io_->List("s3://floe-no-such-bucket-" + std::to_string(getpid()) + "/");
  EXPECT_TRUE(list.status().IsNotFound()) << list.status().ToString();
  Status write = io_->WriteAll(missing, std::string_view("x"));
  EXPECT_TRUE(write.IsNotFound()) << write.ToString();
}

TEST_F(S3Test, WrongCredentialsArePermissionDeniedSayingWhichOne) {
  if (!S3TestServer::checks_signatures()) GTEST_SKIP() << "moto does not check signatures";
  ASSERT_TRUE(io_->WriteAll(At("secret.txt"), std::string_view("s")).ok());
  auto wrong_secret = NewS3FileIOWithClient(ClientWith([](S3Config& c) { c.credentials.secret_access_key = "nope"; }));
  auto a = wrong_secret->ReadAll(At("secret.txt"));
  EXPECT_TRUE(a.status().IsPermissionDenied()) << a.status().ToString();
  EXPECT_NE(a.status().message().find("secret access key"), std::string::npos) << a.status().message();
  EXPECT_NE(a.status().message().find(At("secret.txt")), std::string::npos) << a.status().message();
  ExpectOneLine(a.status());

  auto unknown_key = NewS3FileIOWithClient(ClientWith([](S3Config& c) { c.credentials.access_key_id = "AKIDUNKNOWN"; }));
  auto b = unknown_key->Stat(At("secret.txt"));
  EXPECT_TRUE(b.status().IsPermissionDenied()) << b.status().ToString();
  EXPECT_NE(b.status().message().find("'AKIDUNKNOWN'"), std::string::npos) << b.status().message();
  ExpectOneLine(b.status());
}

TEST_F(S3Test, AnotherAccountsBucketIsAccessDenied) {
  if (!S3TestServer::checks_signatures()) GTEST_SKIP() << "moto does not enforce bucket ownership";
  ASSERT_TRUE(io_->WriteAll(At("private.txt"), std::string_view("p")).ok());
  auto other = NewS3FileIOWithClient(
      ClientWith([](S3Config& c) { c.credentials = {"floe-other", "floe-other-secret", ""}; }));
  auto read = other->ReadAll(At("private.txt"));
  EXPECT_TRUE(read.status().IsPermissionDenied()) << read.status().ToString();
  EXPECT_NE(read.status().message().find("access denied"), std::string::npos) << read.status().message();
  EXPECT_NE(read.status().message().find(At("private.txt")), std::string::npos) << read.status().message();
  ExpectOneLine(read.status());
  Status write = other->WriteAll(At("intruder"), std::string_view("x"));
  EXPECT_TRUE(write.IsPermissionDenied()) << write.ToString();
}

TEST_F(S3Test, HungServerTimesOutInsteadOfBlocking) {
  TcpProxy proxy(S3TestServer::port());
  proxy.Queue(TcpProxy::Mode::kHang, 2);
  auto io = NewS3FileIOWithClient(ClientWith([&](S3Config& c) {
    c.endpoint = "http://127.0.0.1:" + std::to_string(proxy.port());
    c.request_timeout_ms = 300;
    c.max_attempts = 2;
  }));
  const auto start = std::chrono::steady_clock::now();
  auto st = io->Stat(At("k"));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(st.status().IsIOError()) << st.status().ToString();
  EXPECT_NE(st.status().message().find("timed out"), std::string::npos) << st.status().message();
  EXPECT_LT(elapsed, std::chrono::seconds(5));
  ExpectOneLine(st.status());
}

TEST_F(S3Test, UnreachableEndpointIsAnIOErrorNamingTheObject) {
  auto io = NewS3FileIOWithClient(ClientWith([](S3Config& c) {
    c.endpoint = "http://127.0.0.1:9";  // discard port: nothing listens
    c.max_attempts = 2;
  }));
  auto st = io->Stat(At("k"));
  EXPECT_TRUE(st.status().IsIOError()) << st.status().ToString();
  EXPECT_NE(st.status().message().find(At("k")), std::string::npos) << st.status().message();
  EXPECT_NE(st.status().message().find("after 2 attempts"), std::string::npos) << st.status().message();
  ExpectOneLine(st.status());
}

}  // namespace
}  // namespace floe::testing
