#include "floe/io/s3_xml.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(S3XmlTest, ParsesListObjectsV2PageWithEscapedKeys) {
  const std::string xml = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>t/</Prefix>
<KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>
<Contents><Key>t/a&amp;b &lt;1&gt;</Key><LastModified>2026-12-02T19:02:02.123Z</LastModified>
<ETag>&quot;abc&quot;</ETag><Size>11</Size><StorageClass>STANDARD</StorageClass></Contents>
<Contents><Key>t/&#233;&#x4E2D;</Key><LastModified>1970-01-01T00:00:01.000Z</LastModified><Size>0</Size></Contents>
<NextContinuationToken>tok==</NextContinuationToken></ListBucketResult>)";
  auto r = ParseListObjectsV2(xml);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->objects.size(), 2u);
  EXPECT_EQ(r->objects[0].key, "t/a&b <1>");
  EXPECT_EQ(r->objects[0].size, 11);
  EXPECT_EQ(r->objects[0].etag, "\"abc\"");
  EXPECT_EQ(r->objects[0].mtime_ms, 1796238122123);
  EXPECT_EQ(r->objects[1].key, "t/\xC3\xA9\xE4\xB8\xAD");
  EXPECT_EQ(r->objects[1].mtime_ms, 1000);
  EXPECT_TRUE(r->is_truncated);
  EXPECT_EQ(r->next_continuation_token, "tok==");
}

TEST(S3XmlTest, EmptyListingAndErrors) {
  auto empty = ParseListObjectsV2("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->objects.empty());
  EXPECT_FALSE(empty->is_truncated);
  EXPECT_TRUE(ParseListObjectsV2("<Error/>").status().IsCorrupt());
  EXPECT_TRUE(ParseListObjectsV2("<ListBucketResult><Contents><Key>k</Key><Size>-4</Size></Contents>"
                                 "</ListBucketResult>")
                  .status()
                  .IsCorrupt());
  EXPECT_TRUE(ParseListObjectsV2("<ListBucketResult><Contents><Key>k</Key>").status().IsCorrupt());
  EXPECT_TRUE(XmlUnescape("a &bogus; b").status().IsCorrupt());
  EXPECT_TRUE(XmlUnescape("&#x110000;").status().IsCorrupt());
}

TEST(S3XmlTest, ParsesErrorBodiesAndDeleteFailures) {
  auto e = ParseS3Error("<Error><Code>NoSuchKey</Code><Message>The key does not exist</Message></Error>");
  EXPECT_EQ(e.code, "NoSuchKey");
  EXPECT_EQ(e.message, "The key does not exist");
  EXPECT_EQ(ParseS3Error("").code, "");
  auto d = ParseDeleteResult("<DeleteResult><Error><Key>a</Key><Code>AccessDenied</Code><Message>no</Message></Error>"
                             "</DeleteResult>");
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->size(), 1u);
  EXPECT_EQ((*d)[0].key, "a");
  EXPECT_EQ((*d)[0].code, "AccessDenied");
}

TEST(S3XmlTest, RequestBodiesEscapeKeys) {
  EXPECT_EQ(DeleteObjectsBody({"a<b", "c&d"}),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete><Quiet>true</Quiet>"
            "<Object><Key>a&lt;b</Key></Object><Object><Key>c&amp;d</Key></Object></Delete>");
  EXPECT_EQ(CompleteMultipartUploadBody({{1, "\"e1\""}, {2, "\"e2\""}}),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><CompleteMultipartUpload>"
            "<Part><PartNumber>1</PartNumber><ETag>&quot;e1&quot;</ETag></Part>"
            "<Part><PartNumber>2</PartNumber><ETag>&quot;e2&quot;</ETag></Part></CompleteMultipartUpload>");
}

}  // namespace
}  // namespace floe
