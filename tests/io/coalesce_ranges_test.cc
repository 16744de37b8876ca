#include <gtest/gtest.h>

#include <vector>

#include "floe/io/file_io.h"

namespace floe {
namespace {

TEST(CoalesceRangesTest, MergesAcrossSmallHolesOnly) {
  const std::vector<ReadRange> ranges = {{0, 100}, {150, 50}, {10000, 10}};
  const auto merged = CoalesceRanges(ranges, {.hole_size_limit = 64, .range_size_limit = 1 << 20});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0], (ReadRange{0, 200}));
  EXPECT_EQ(merged[1], (ReadRange{10000, 10}));
}

TEST(CoalesceRangesTest, SortsAndAbsorbsOverlapsAndDropsEmpty) {
  const std::vector<ReadRange> ranges = {{500, 100}, {0, 10}, {520, 10}, {5, 20}, {300, 0}};
  const auto merged = CoalesceRanges(ranges, {.hole_size_limit = 0, .range_size_limit = 1 << 20});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0], (ReadRange{0, 25}));
  EXPECT_EQ(merged[1], (ReadRange{500, 100}));
}

TEST(CoalesceRangesTest, NeverGrowsPastRangeSizeLimit) {
  std::vector<ReadRange> ranges;
  for (int i = 0; i < 10; ++i) ranges.push_back({i * 100, 100});  // contiguous 0..1000
  const auto merged = CoalesceRanges(ranges, {.hole_size_limit = 1000, .range_size_limit = 300});
  ASSERT_EQ(merged.size(), 4u);
  int64_t covered = 0;
  for (const auto& m : merged) {
    EXPECT_LE(m.length, 300);
    EXPECT_EQ(m.offset, covered);
    covered = m.end();
  }
  EXPECT_EQ(covered, 1000);
}

TEST(CoalesceRangesTest, OverlapPastLimitReadsOnlyTheUncoveredTail) {
  const std::vector<ReadRange> ranges = {{0, 100}, {50, 200}};
  const auto merged = CoalesceRanges(ranges, {.hole_size_limit = 0, .range_size_limit = 150});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0], (ReadRange{0, 100}));
  EXPECT_EQ(merged[1], (ReadRange{100, 150}));
}

}  // namespace
}  // namespace floe
