#include "floe/io/aws_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "testing/temp_dir.h"

namespace floe {
namespace {

class AwsConfigTest : public ::testing::Test {
 protected:
  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_.Join(name)) << text; }
  EnvLookup Env() {
    return [this](std::string_view name) -> std::optional<std::string> {
      auto it = env_.find(std::string(name));
      if (it == env_.end()) return std::nullopt;
      return it->second;
    };
  }
  testing::TempDir dir_;
  std::map<std::string, std::string> env_{{"HOME", dir_.path()}};
};

TEST_F(AwsConfigTest, DefaultsWithNothingConfigured) {
  auto c = ResolveS3Config({}, Env());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->endpoint, "");
  EXPECT_EQ(c->region, "us-east-1");
  EXPECT_EQ(c->credentials.access_key_id, "");
  EXPECT_FALSE(c->path_style.has_value());
}

TEST_F(AwsConfigTest, ProfilesFromHomeAndAwsProfile) {
  std::filesystem::create_directories(dir_.Join(".aws"));
  Write(".aws/credentials",
        "# comment\n[default]\naws_access_key_id = AKID\naws_secret_access_key = SECRET\n"
        "[work]\naws_access_key_id=WORK\naws_secret_access_key=WSECRET\naws_session_token = TOKEN\n");
  Write(".aws/config", "[default]\nregion = eu-west-1\n[profile work]\nregion = ap-south-1\n"
                       "endpoint_url = http://127.0.0.1:9000/\ns3 =\n  addressing_style = path\n");
  auto c = ResolveS3Config({}, Env());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->credentials.access_key_id, "AKID");
  EXPECT_EQ(c->credentials.secret_access_key, "SECRET");
  EXPECT_EQ(c->region, "eu-west-1");
  env_["AWS_PROFILE"] = "work";
  c = ResolveS3Config({}, Env());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->credentials.access_key_id, "WORK");
  EXPECT_EQ(c->credentials.session_token, "TOKEN");
  EXPECT_EQ(c->region, "ap-south-1");
  EXPECT_EQ(c->endpoint, "http://127.0.0.1:9000");
}

TEST_F(AwsConfigTest, EnvironmentOverridesFilesAndPropertiesOverrideEnvironment) {
  Write("creds", "[default]\naws_access_key_id = FILE\naws_secret_access_key = FILESECRET\n");
  env_["AWS_SHARED_CREDENTIALS_FILE"] = dir_.Join("creds");
  env_["AWS_ACCESS_KEY_ID"] = "ENV";
  env_["AWS_SECRET_ACCESS_KEY"] = "ENVSECRET";
  env_["AWS_REGION"] = "us-west-2";
  env_["AWS_ENDPOINT_URL"] = "http://generic:1";
  env_["AWS_ENDPOINT_URL_S3"] = "http://s3-specific:2";
  auto c = ResolveS3Config({}, Env());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->credentials.access_key_id, "ENV");
  EXPECT_EQ(c->region, "us-west-2");
  EXPECT_EQ(c->endpoint, "http://s3-specific:2");

  c = ResolveS3Config({{"s3.endpoint", "https://props:3"},
                       {"s3.access-key-id", "PROP"},
                       {"s3.secret-access-key", "PROPSECRET"},
                       {"s3.session-token", "PTOKEN"},
                       {"s3.path-style-access", "true"},
                       {"client.region", "eu-central-1"},
                       {"s3.multipart.part-size-bytes", "6291456"}},
                      Env());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->endpoint, "https://props:3");
  EXPECT_EQ(c->credentials.access_key_id, "PROP");
  EXPECT_EQ(c->credentials.secret_access_key, "PROPSECRET");
  EXPECT_EQ(c->credentials.session_token, "PTOKEN");
  EXPECT_EQ(c->region, "eu-central-1");
  EXPECT_EQ(c->path_style, std::optional<bool>(true));
  EXPECT_EQ(c->part_size, 6291456);
}

TEST_F(AwsConfigTest, MalformedValuesNameTheProperty) {
  auto bad_style = ResolveS3Config({{"s3.path-style-access", "yes"}}, Env());
  EXPECT_TRUE(bad_style.status().IsInvalidArgument());
  EXPECT_NE(bad_style.status().message().find("s3.path-style-access"), std::string::npos);
  auto small_part = ResolveS3Config({{"s3.multipart.part-size-bytes", "1024"}}, Env());
  EXPECT_TRUE(small_part.status().IsInvalidArgument());
  EXPECT_NE(small_part.status().message().find("s3.multipart.part-size-bytes"), std::string::npos);
  auto half = ResolveS3Config({{"s3.access-key-id", "only"}}, Env());
  EXPECT_TRUE(half.status().IsInvalidArgument());
  EXPECT_NE(half.status().message().find("secret"), std::string::npos);
  auto endpoint = ResolveS3Config({{"s3.endpoint", "127.0.0.1:9000"}}, Env());
  EXPECT_TRUE(endpoint.status().IsInvalidArgument());
  Write("broken", "[default\n");
  env_["AWS_CONFIG_FILE"] = dir_.Join("broken");
  auto corrupt = ResolveS3Config({}, Env());
  EXPECT_TRUE(corrupt.status().IsCorrupt());
  EXPECT_NE(corrupt.status().message().find("line 1"), std::string::npos);
}

}  // namespace
}  // namespace floe
