#include "floe/base/small_vector.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "floe/base/boxed.h"

namespace floe {
namespace {

struct Pair {
  int32_t a = 7;
  int32_t b = 0;
  bool operator==(const Pair&) const = default;
};

TEST(SmallVectorTest, StaysInlineUpToItsCapacityAndIsAsSmallAsAVector) {
  static_assert(sizeof(SmallVector<int64_t, 2>) == sizeof(std::vector<int64_t>));
  SmallVector<int64_t, 2> v;
  v.push_back(1);
  v.push_back(2);
  EXPECT_TRUE(v.is_inline());
  EXPECT_EQ(v, (std::vector<int64_t>{1, 2}));
  v.push_back(3);  // spills to the heap, keeping the values
  EXPECT_FALSE(v.is_inline());
  EXPECT_EQ(v, (std::vector<int64_t>{1, 2, 3}));
  for (int64_t i = 4; i <= 100; ++i) v.push_back(i);
  ASSERT_EQ(v.size(), 100u);
  EXPECT_EQ(v.front(), 1);
  EXPECT_EQ(v.back(), 100);
  EXPECT_EQ(v[49], 50);
}

TEST(SmallVectorTest, CopiesAndMovesInlineAndHeapElements) {
  SmallVector<int32_t, 3> small{1, 2};
  SmallVector<int32_t, 3> big{1, 2, 3, 4, 5};
  SmallVector<int32_t, 3> small_copy = small;
  SmallVector<int32_t, 3> big_copy = big;
  EXPECT_EQ(small_copy, small);
  EXPECT_EQ(big_copy, big);
  big_copy[0] = 9;  // a deep copy
  EXPECT_EQ(big[0], 1);

  SmallVector<int32_t, 3> moved = std::move(big);
  EXPECT_EQ(moved, (std::vector<int32_t>{1, 2, 3, 4, 5}));
  EXPECT_TRUE(big.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty and reusable
  big.push_back(8);
  EXPECT_EQ(big, (std::vector<int32_t>{8}));

  moved = small;  // heap -> inline
  EXPECT_EQ(moved, (std::vector<int32_t>{1, 2}));
  moved = std::vector<int32_t>{4, 5, 6, 7};
  EXPECT_EQ(moved, (std::vector<int32_t>{4, 5, 6, 7}));
}

TEST(SmallVectorTest, EmplaceValueInitializesAndInsertShifts) {
  SmallVector<Pair, 2> v;
  v.emplace_back();
  EXPECT_EQ(v[0], (Pair{7, 0}));  // member initializers ran
  v.push_back({1, 1});
  v.insert(v.begin(), {2, 2});
  v.insert(v.begin(), v[2]);  // an element of v itself
  EXPECT_EQ(v.ToVector(), (std::vector<Pair>{{1, 1}, {2, 2}, {7, 0}, {1, 1}}));
  v.resize(1);
  EXPECT_EQ(v.size(), 1u);
  v.clear();
  EXPECT_TRUE(v.empty());
}

TEST(SmallVectorTest, ResizeForOverwriteKeepsTheElementsBeforeAndGrowsToTheHeap) {
  SmallVector<int64_t, 2> v{10, 11};
  v.resize_for_overwrite(5);  // past the inline capacity
  EXPECT_EQ(v.size(), 5u);
  EXPECT_FALSE(v.is_inline());
  for (size_t i = 2; i < 5; ++i) v[i] = static_cast<int64_t>(i) * 100;
  EXPECT_EQ(v.ToVector(), (std::vector<int64_t>{10, 11, 200, 300, 400}));
  v.resize_for_overwrite(1);
  EXPECT_EQ(v.ToVector(), (std::vector<int64_t>{10}));

  std::optional<SmallVector<int64_t, 2>> emplaced;
  emplaced.emplace().resize_for_overwrite(2);
  (*emplaced)[0] = -1;
  (*emplaced)[1] = 1;
  EXPECT_TRUE(emplaced->is_inline());
  EXPECT_EQ(emplaced->ToVector(), (std::vector<int64_t>{-1, 1}));
}

TEST(BoxedTest, ReadsLikeAnOptionalAndCopiesDeeply) {
  static_assert(sizeof(Boxed<std::vector<int>>) == sizeof(void*));
  Boxed<std::string> a;
  EXPECT_FALSE(a.has_value());
  EXPECT_EQ(a, std::nullopt);
  EXPECT_EQ(a.value_or("none"), "none");
  a = "x.parquet";
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, "x.parquet");
  EXPECT_EQ(a->size(), 9u);
  Boxed<std::string> b = a;
  b->push_back('!');
  EXPECT_EQ(*a, "x.parquet");
  EXPECT_FALSE(a == b);
  b = a;
  EXPECT_TRUE(a == b);
  a.reset();
  EXPECT_FALSE(a == b);
  a.emplace(3, 'z');
  EXPECT_EQ(*a, "zzz");
}

}  // namespace
}  // namespace floe
