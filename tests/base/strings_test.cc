#include "floe/base/strings.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(StringsTest, StrCatStreamsEveryArgument) {
  EXPECT_EQ(StrCat("file '", "x", "' is ", 42, " bytes, ratio ", 0.5), "file 'x' is 42 bytes, ratio 0.5");
}

TEST(StringsTest, QuoteEscapesWhatWouldBreakALine) {
  EXPECT_EQ(Quote("a.parquet"), "'a.parquet'");
  EXPECT_EQ(Quote("it's\n\ttab\\"), "'it\\'s\\n\\ttab\\\\'");
  EXPECT_EQ(Quote(std::string_view("\x01\x7f", 2)), "'\\x01\\x7f'");
}

TEST(StringsTest, FormatBytesPicksAReadableUnit) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(1023), "1023 B");
  EXPECT_EQ(FormatBytes(35840), "35.0 KiB");
  EXPECT_EQ(FormatBytes(int64_t{3} << 30), "3.0 GiB");
}

TEST(StringsTest, SplitKeepsEmptyParts) {
  EXPECT_EQ(Split("a,,b", ','), (std::vector<std::string_view>{"a", "", "b"}));
  EXPECT_EQ(Split("", ','), (std::vector<std::string_view>{""}));
}

TEST(StringsTest, TrimAndAffixes) {
  EXPECT_EQ(Trim("  x y \n"), "x y");
  EXPECT_TRUE(StartsWith("s3://b", "s3://"));
  EXPECT_FALSE(StartsWith("s3", "s3://"));
  EXPECT_TRUE(EndsWith("x.parquet", ".parquet"));
  EXPECT_FALSE(EndsWith("x", ".parquet"));
}

}  // namespace
}  // namespace floe
