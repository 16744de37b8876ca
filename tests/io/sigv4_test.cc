// SigV4 against AWS's published vectors: the generic aws-sig-v4-test-suite
// (service "service", 2015-08-30) and the S3 examples of the S3 API
// reference (examplebucket, 2013-05-24). The vectors' requests are rebuilt
// here; the expected signatures are AWS's.

#include "floe/io/sigv4.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

const AwsCredentials kSuiteCredentials{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};
constexpr const char* kSuiteDate = "20150830T123600Z";

SigV4Output SignSuite(SigV4Input input, AwsCredentials credentials = kSuiteCredentials) {
  input.headers.insert(input.headers.begin(), {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", kSuiteDate}});
  if (input.payload_sha256.empty()) input.payload_sha256 = std::string(kEmptyPayloadSha256);
  return SigV4Signer(std::move(credentials), "us-east-1", "service").Sign(input, kSuiteDate);
}

TEST(SigV4Test, GetVanilla) {
  const auto out = SignSuite({.method = "GET", .canonical_uri = "/"});
  EXPECT_EQ(out.canonical_request,
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(out.string_to_sign,
            "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
            "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63");
  EXPECT_EQ(out.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(SigV4Test, QueryParametersSortByNameThenValue) {
  auto key_case = SignSuite({.method = "GET", .canonical_uri = "/", .query = {{"Param2", "value2"}, {"Param1", "value1"}}});
  EXPECT_EQ(key_case.signature, "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
  auto value_order =
      SignSuite({.method = "GET", .canonical_uri = "/", .query = {{"Param1", "value2"}, {"Param1", "value1"}}});
  EXPECT_EQ(value_order.signature, "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694");
}

TEST(SigV4Test, Utf8QueryNameIsPercentEncodedBytes) {
  auto out = SignSuite({.method = "GET", .canonical_uri = "/", .query = {{"\xE1\x88\xB4", "bar"}}});
  EXPECT_NE(out.canonical_request.find("\n%E1%88%B4=bar\n"), std::string::npos);
  EXPECT_EQ(out.signature, "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04");
}

TEST(SigV4Test, UnreservedPathCharactersStay) {
  const std::string path = "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  EXPECT_EQ(UriEncode(path, false), path);
  EXPECT_EQ(SignSuite({.method = "GET", .canonical_uri = path}).signature,
            "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f");
}

TEST(SigV4Test, HeaderValuesAreTrimmedAndRepeatsJoinedInOrder) {
  auto trim = SignSuite({.method = "GET",
                         .canonical_uri = "/",
                         .headers = {{"My-Header1", " value1"}, {"My-Header2", "\"a   b   c\""}}});
  EXPECT_NE(trim.canonical_request.find("my-header1:value1\nmy-header2:\"a b c\"\n"), std::string::npos);
  EXPECT_EQ(trim.signature, "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736");
  auto order = SignSuite({.method = "GET",
                          .canonical_uri = "/",
                          .headers = {{"My-Header1", "value4"}, {"My-Header1", "value1"}, {"My-Header1", "value3"},
                                      {"My-Header1", "value2"}}});
  EXPECT_EQ(order.signature, "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01");
}

TEST(SigV4Test, PostWithFormBodySignsContentTypeAndPayload) {
  auto out = SignSuite({.method = "POST",
                        .canonical_uri = "/",
                        .headers = {{"Content-Type", "application/x-www-form-urlencoded"}},
                        .payload_sha256 = Sha256Hex(std::string_view("Param1=value1"))});
  EXPECT_EQ(out.signed_headers, "content-type;host;x-amz-date");
  EXPECT_EQ(out.signature, "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a");
}

TEST(SigV4Test, SessionTokenIsASignedHeader) {
  const std::string token = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267";
  auto out = SignSuite({.method = "GET", .canonical_uri = "/", .headers = {{"X-Amz-Security-Token", token}}},
                       AwsCredentials{kSuiteCredentials.access_key_id, kSuiteCredentials.secret_access_key, token});
  EXPECT_EQ(out.signed_headers, "host;x-amz-date;x-amz-security-token");
  EXPECT_EQ(out.signature, "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8");
}

// The S3 API reference's examples: examplebucket, virtual-hosted, with the
// x-amz-content-sha256 header S3 requires.
const AwsCredentials kS3Credentials{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
constexpr const char* kS3Date = "20130524T000000Z";

SigV4Output SignS3(SigV4Input input) {
  input.headers.insert(input.headers.begin(), {{"Host", "examplebucket.s3.amazonaws.com"},
                                               {"x-amz-date", kS3Date},
                                               {"x-amz-content-sha256", input.payload_sha256}});
  return SigV4Signer(kS3Credentials, "us-east-1", "s3").Sign(input, kS3Date);
}

TEST(SigV4Test, S3GetObjectWithRange) {
  auto out = SignS3({.method = "GET",
                     .canonical_uri = "/test.txt",
                     .headers = {{"Range", "bytes=0-9"}},
                     .payload_sha256 = std::string(kEmptyPayloadSha256)});
  EXPECT_EQ(out.string_to_sign,
            "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  EXPECT_EQ(out.signature, "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4Test, S3PutObjectEncodesTheKeyOnce) {
  const std::string body = "Welcome to Amazon S3.";
  EXPECT_EQ(Sha256Hex(body), "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  auto out = SignS3({.method = "PUT",
                     .canonical_uri = "/" + UriEncode("test$file.text", false),
                     .headers = {{"Date", "Fri, 24 May 2013 00:00:00 GMT"}, {"x-amz-storage-class", "REDUCED_REDUNDANCY"}},
                     .payload_sha256 = Sha256Hex(body)});
  EXPECT_NE(out.canonical_request.find("\n/test%24file.text\n"), std::string::npos);
  EXPECT_EQ(out.signed_headers, "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class");
  EXPECT_EQ(out.signature, "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

TEST(SigV4Test, S3SubresourceWithoutValueAndSortedListQuery) {
  auto lifecycle = SignS3({.method = "GET",
                           .canonical_uri = "/",
                           .query = {{"lifecycle", ""}},
                           .payload_sha256 = std::string(kEmptyPayloadSha256)});
  EXPECT_NE(lifecycle.canonical_request.find("\nlifecycle=\n"), std::string::npos);
  EXPECT_EQ(lifecycle.signature, "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  auto list = SignS3({.method = "GET",
                      .canonical_uri = "/",
                      .query = {{"prefix", "J"}, {"max-keys", "2"}},
                      .payload_sha256 = std::string(kEmptyPayloadSha256)});
  EXPECT_NE(list.canonical_request.find("\nmax-keys=2&prefix=J\n"), std::string::npos);
  EXPECT_EQ(list.signature, "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

TEST(SigV4Test, UriEncodeAndCanonicalQuery) {
  EXPECT_EQ(UriEncode("a b/c+d=e&f"), "a%20b%2Fc%2Bd%3De%26f");
  EXPECT_EQ(UriEncode("dir/key name.parquet", false), "dir/key%20name.parquet");
  EXPECT_EQ(UriEncode("\xC3\xA9"), "%C3%A9");
  // Sorted by the encoded form, bytewise: "1" precedes "9", "%" precedes ".".
  EXPECT_EQ(CanonicalQueryString({{"a", "9"}, {"a", "10"}}), "a=10&a=9");
  EXPECT_EQ(CanonicalQueryString({{"x", "a.b"}, {"x", "a/b"}}), "x=a%2Fb&x=a.b");
  EXPECT_EQ(CanonicalQueryString({{"uploads", ""}, {"prefix", "t/a b"}}), "prefix=t%2Fa%20b&uploads=");
  EXPECT_EQ(CanonicalQueryString({}), "");
}

}  // namespace
}  // namespace floe
