#include "floe/formats/parquet/column_path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace floe::parquet {
namespace {

TEST(ColumnPathTest, PartsComeBackInOrder) {
  const ColumnPath p{"tags", "list", "element"};
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0], "tags");
  EXPECT_EQ(p[2], "element");
  EXPECT_EQ(p.front(), "tags");
  EXPECT_EQ(p.back(), "element");
  EXPECT_EQ(p.ToVector(), (std::vector<std::string>{"tags", "list", "element"}));
  EXPECT_EQ(p.Dotted(), "tags.list.element");
  EXPECT_EQ(p, (std::vector<std::string>{"tags", "list", "element"}));
  EXPECT_FALSE(p == (std::vector<std::string>{"tags", "list"}));
}

TEST(ColumnPathTest, PackedFormIsTheCompactListBody) {
  const ColumnPath p{"a", "", std::string(200, 'x')};
  // One-byte lengths, then a two-byte varint (200 = 0xc8 0x01).
  const std::string want = std::string("\x01" "a" "\x00", 3) + "\xc8\x01" + std::string(200, 'x');
  EXPECT_EQ(p.packed(), want);
  const ColumnPath q = ColumnPath::FromPacked(want, 3);
  EXPECT_EQ(q, p);
  EXPECT_EQ(q[1], "");
  EXPECT_EQ(q.Dotted(), "a.." + std::string(200, 'x'));
}

TEST(ColumnPathTest, EqualityIgnoresOverlongLengthVarints) {
  // "ab" with its length written as two bytes (0x82 0x00): legal LEB128.
  const ColumnPath overlong = ColumnPath::FromPacked(std::string("\x82\x00" "ab", 4), 1);
  EXPECT_EQ(overlong[0], "ab");
  EXPECT_EQ(overlong, ColumnPath{"ab"});
  EXPECT_FALSE(overlong == ColumnPath{"ac"});
}

TEST(ColumnPathTest, EmptyPath) {
  const ColumnPath p;
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.begin(), p.end());
  EXPECT_EQ(p, std::vector<std::string>{});
  EXPECT_EQ(p.Dotted(), "");
}

}  // namespace
}  // namespace floe::parquet
