// `floe io ...` on s3:// through the environment, as a user runs it.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "s3_fixture.h"
#include "testing/run_process.h"

namespace floe::testing {
namespace {

std::vector<std::string> S3Env() {
  return {"FLOE_WAREHOUSE=", "FLOE_CATALOG=", "FLOE_LOG=", "AWS_PROFILE=", "HOME=/nonexistent",
          "AWS_ENDPOINT_URL_S3=" + S3TestServer::endpoint(), "AWS_ENDPOINT_URL=",
          "AWS_ACCESS_KEY_ID=floe-test", "AWS_SECRET_ACCESS_KEY=floe-test-secret", "AWS_SESSION_TOKEN=",
          "AWS_REGION=us-east-1"};
}

TEST_F(S3Test, CliPutCatStatLsCpRmOnS3) {
  const std::string obj = At("cli/hello.txt");
  auto put = RunFloe({"io", "put", obj}, S3Env(), "", "hello from the cli\n");
  ASSERT_EQ(put.exit_code, 0) << put.err;
  auto cat = RunFloe({"io", "cat", obj, "--offset", "6", "--length", "4"}, S3Env());
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_EQ(cat.out, "from");
  auto stat = RunFloe({"io", "stat", obj, "--format", "csv"}, S3Env());
  ASSERT_EQ(stat.exit_code, 0) << stat.err;
  EXPECT_NE(stat.out.find(obj + ",19,"), std::string::npos) << stat.out;
  auto cp = RunFloe({"io", "cp", obj, "s3a://" + bucket_ + "/cli/copy.txt", "--if-absent"}, S3Env());
  ASSERT_EQ(cp.exit_code, 0) << cp.err;
  auto again = RunFloe({"io", "cp", obj, "s3a://" + bucket_ + "/cli/copy.txt", "--if-absent"}, S3Env());
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.err.find("AlreadyExists"), std::string::npos) << again.err;
  auto ls = RunFloe({"io", "ls", At("cli/"), "--format", "csv", "--max", "1"}, S3Env());
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  EXPECT_NE(ls.out.find(At("cli/copy.txt") + ",19,"), std::string::npos) << ls.out;
  EXPECT_NE(ls.out.find(obj + ",19,"), std::string::npos) << ls.out;
  auto rm = RunFloe({"io", "rm", obj, At("cli/copy.txt")}, S3Env());
  ASSERT_EQ(rm.exit_code, 0) << rm.err;
  EXPECT_TRUE(io_->ListAll(At("cli/"))->empty());
}

TEST_F(S3Test, CliTraceIoShowsS3RequestsAndErrorsAreOneLine) {
  ASSERT_TRUE(io_->WriteAll(At("t.bin"), std::string_view(std::string(5000, 'z'))).ok());
  auto r = RunFloe({"--trace-io", "io", "cat", At("t.bin"), "--offset", "100", "--length", "1000"}, S3Env());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(1000, 'z'));
  EXPECT_NE(r.err.find("HEAD " + At("t.bin")), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("GET " + At("t.bin") + " bytes=100-1099 (1000 B) "), std::string::npos) << r.err;
  auto missing = RunFloe({"io", "cat", At("missing.bin")}, S3Env());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "floe: NotFound: object '" + At("missing.bin") + "' does not exist\n");
}

}  // namespace
}  // namespace floe::testing
