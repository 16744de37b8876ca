#include "floe/base/base64.h"

#include <gtest/gtest.h>

#include <string>

namespace floe {
namespace {

TEST(Base64Test, Rfc4648VectorsEncodeUrlSafeWithoutPaddingAndDecodeEitherWay) {
  // RFC 4648 section 10, padding dropped.
  const std::pair<std::string, std::string> vectors[] = {
      {"", ""},           {"f", "Zg"},          {"fo", "Zm8"},          {"foo", "Zm9v"},
      {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(Base64UrlEncode(plain), encoded);
    EXPECT_EQ(*Base64Decode(encoded), plain);
  }
  EXPECT_EQ(*Base64Decode("Zm9vYg=="), "foob");  // padded
  // 0xfb 0xff: '+' and '/' in the standard alphabet, '-' and '_' in the URL-safe one.
  EXPECT_EQ(Base64UrlEncode("\xfb\xff"), "-_8");
  EXPECT_EQ(*Base64Decode("-_8"), "\xfb\xff");
  EXPECT_EQ(*Base64Decode("+/8="), "\xfb\xff");
}

TEST(Base64Test, Rfc4648VectorsEncodeStandardWithPadding) {
  // RFC 4648 section 10, as written there.
  const std::pair<std::string, std::string> vectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(Base64Encode(plain), encoded);
    EXPECT_EQ(*Base64Decode(encoded), plain);
  }
  EXPECT_EQ(Base64Encode("\xfb\xff"), "+/8=");
}

TEST(Base64Test, CharactersOutsideBothAlphabetsAreRefused) {
  EXPECT_EQ(Base64Decode("Zm9v YmFy").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Base64Decode("Zm9v*").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace floe
