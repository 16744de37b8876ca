#include "floe/base/hex.h"

#include <gtest/gtest.h>

#include <string>

namespace floe {
namespace {

TEST(HexTest, EveryByteRoundTripsThroughLowercaseDigits) {
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  const std::string hex = Hex(all);
  ASSERT_EQ(hex.size(), 512u);
  EXPECT_EQ(hex.substr(0, 6), "000102");
  EXPECT_EQ(hex.substr(2 * 0xab, 2), "ab");
  EXPECT_EQ(hex.substr(510), "ff");
  std::string back;
  ASSERT_TRUE(DecodeHex(hex, &back));
  EXPECT_EQ(back, all);
}

TEST(HexTest, DecodingTakesEitherCaseAndRejectsOddLengthsAndNonDigits) {
  std::string bytes = "left over";
  ASSERT_TRUE(DecodeHex("DeAdBEEF", &bytes));
  EXPECT_EQ(bytes, "\xde\xad\xbe\xef");
  ASSERT_TRUE(DecodeHex("", &bytes));
  EXPECT_EQ(bytes, "");
  EXPECT_FALSE(DecodeHex("abc", &bytes));
  EXPECT_FALSE(DecodeHex("0g", &bytes));
  EXPECT_FALSE(DecodeHex("-1", &bytes));
  EXPECT_FALSE(DecodeHex(" 1", &bytes));
}

TEST(HexTest, DigitValues) {
  EXPECT_EQ(HexDigitValue('0'), 0);
  EXPECT_EQ(HexDigitValue('9'), 9);
  EXPECT_EQ(HexDigitValue('a'), 10);
  EXPECT_EQ(HexDigitValue('F'), 15);
  EXPECT_EQ(HexDigitValue('g'), -1);
  EXPECT_EQ(HexDigitValue('/'), -1);
  EXPECT_EQ(HexDigitValue(':'), -1);
  EXPECT_EQ(HexDigitValue('@'), -1);
  EXPECT_EQ(HexDigitValue('`'), -1);
}

TEST(HexTest, AppendKeepsWhatWasThere) {
  std::string out = "key=";
  AppendHex("\x01\xfe", &out);
  EXPECT_EQ(out, "key=01fe");
}

}  // namespace
}  // namespace floe
