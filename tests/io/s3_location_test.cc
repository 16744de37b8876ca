#include "floe/io/s3_location.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(S3LocationTest, SplitsBucketAndKey) {
  auto l = ParseS3Location("s3://bucket/warehouse/db/t/data/a b.parquet");
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->scheme, "s3");
  EXPECT_EQ(l->bucket, "bucket");
  EXPECT_EQ(l->key, "warehouse/db/t/data/a b.parquet");
  EXPECT_EQ(l->ToString(), "s3://bucket/warehouse/db/t/data/a b.parquet");
  auto a = ParseS3Location("s3a://my.bucket");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->scheme, "s3a");
  EXPECT_EQ(a->key, "");
  EXPECT_TRUE(ParseS3Location("s3://x/k").status().IsInvalidArgument());
  EXPECT_TRUE(ParseS3Location("s3://-bad-/k").status().IsInvalidArgument());
  EXPECT_TRUE(ParseS3Location("gs://bucket/k").status().IsInvalidArgument());
}

TEST(S3LocationTest, VirtualHostedAndPathStyleUrls) {
  auto aws = S3Endpoint::Make("", "eu-west-1", nullptr);
  ASSERT_TRUE(aws.ok());
  EXPECT_FALSE(aws->path_style);
  EXPECT_EQ(aws->Url("bucket", "a b/c", {}), "https://bucket.s3.eu-west-1.amazonaws.com/a%20b/c");
  EXPECT_EQ(aws->HostFor("bucket"), "bucket.s3.eu-west-1.amazonaws.com");
  // A name that is not a DNS label falls back to the path.
  EXPECT_EQ(aws->Url("My_Bucket", "k", {}), "https://s3.eu-west-1.amazonaws.com/My_Bucket/k");

  auto ip = S3Endpoint::Make("http://127.0.0.1:9000", "us-east-1", nullptr);
  ASSERT_TRUE(ip.ok());
  EXPECT_TRUE(ip->path_style);
  EXPECT_EQ(ip->Url("b1b", "k", {{"uploads", ""}}), "http://127.0.0.1:9000/b1b/k?uploads=");
  const bool no = false, yes = true;
  // An IP address cannot carry a bucket subdomain, whatever the setting says.
  EXPECT_TRUE(S3Endpoint::Make("http://127.0.0.1:9000", "us-east-1", &no)->path_style);
  auto local_virtual = S3Endpoint::Make("http://localhost:9000", "us-east-1", &no);
  ASSERT_TRUE(local_virtual.ok());
  EXPECT_EQ(local_virtual->Url("bkt", "k", {}), "http://bkt.localhost:9000/k");
  auto minio = S3Endpoint::Make("https://minio.internal/s3/", "us-east-1", &yes);
  ASSERT_TRUE(minio.ok());
  EXPECT_EQ(minio->PathFor("bkt", "x/y"), "/s3/bkt/x/y");
  EXPECT_EQ(minio->Url("bkt", "", {{"list-type", "2"}, {"prefix", "a/"}}),
            "https://minio.internal/s3/bkt/?list-type=2&prefix=a%2F");
  EXPECT_TRUE(S3Endpoint::Make("ftp://x", "us-east-1", nullptr).status().IsInvalidArgument());
}

}  // namespace
}  // namespace floe
