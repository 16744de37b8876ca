#include "floe/base/buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace floe {
namespace {

TEST(BufferTest, AllocateIsAlignedAndPaddingIsZeroed) {
  auto b = Buffer::Allocate(100);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->size(), 100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b->data()) % 64, 0u);
  for (int i = 100; i < 128; ++i) EXPECT_EQ(b->data()[i], 0) << i;
}

TEST(BufferTest, NegativeSizeIsInvalidArgument) {
  auto b = Buffer::Allocate(-1);
  EXPECT_TRUE(b.status().IsInvalidArgument());
  EXPECT_EQ(b.status().message(), "buffer size -1 is negative");
}

TEST(BufferTest, SliceSharesMemoryAndOutlivesParent) {
  Buffer slice;
  {
    Buffer whole = Buffer::CopyOf(std::string_view("0123456789"));
    slice = whole.Slice(3, 4);
    EXPECT_EQ(slice.data(), whole.data() + 3);
  }
  EXPECT_EQ(slice.view(), "3456");
  EXPECT_EQ(slice.Slice(1, 2).view(), "45");
  EXPECT_EQ(slice.Slice(4, 0).size(), 0);
}

TEST(BufferTest, LiveBytesReturnToBaselineWhenLastOwnerGoes) {
  const int64_t before = Buffer::LiveAllocatedBytes();
  {
    Buffer a = Buffer::Allocate(1000).value();
    Buffer b = a.Slice(10, 10);
    EXPECT_EQ(Buffer::LiveAllocatedBytes(), before + 1024);
    a = Buffer();
    EXPECT_EQ(Buffer::LiveAllocatedBytes(), before + 1024);  // the slice still holds it
  }
  EXPECT_EQ(Buffer::LiveAllocatedBytes(), before);
}

TEST(BufferTest, FromStringTakesTheBytesWithoutCopying) {
  std::string s(1000, 'q');
  const char* p = s.data();
  Buffer b = Buffer::FromString(std::move(s));
  EXPECT_EQ(reinterpret_cast<const char*>(b.data()), p);
  EXPECT_EQ(b.size(), 1000);
}

TEST(BufferTest, ALargeFreedBlockIsReusedWithItsPaddingZeroedAgain) {
  // Blocks of 4 MiB and more are kept when freed and handed to the next
  // Allocate they fit (up to half as large again), so a scan's chunk
  // buffers are not faulted in anew for every row group.
  const int64_t baseline = Buffer::LiveAllocatedBytes();
  const int64_t big = (int64_t{6} << 20) + 1;
  const uint8_t* first = nullptr;
  {
    auto b = Buffer::Allocate(big);
    ASSERT_TRUE(b.ok());
    first = b->data();
    std::memset(b->mutable_data(), 0xff, static_cast<size_t>(big + 63));  // the data and its padding
  }
  EXPECT_EQ(Buffer::LiveAllocatedBytes(), baseline);  // a cached block is not live
  const int64_t smaller = (int64_t{5} << 20) + 3;
  auto again = Buffer::Allocate(smaller);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->data(), first);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(again->data()) % 64, 0u);
  for (int64_t i = smaller; i < (smaller + 63) / 64 * 64; ++i) EXPECT_EQ(again->data()[i], 0) << i;
  // Live bytes count the whole block it holds, and return when it goes.
  EXPECT_EQ(Buffer::LiveAllocatedBytes() - baseline, (big + 63) / 64 * 64);
  again = Buffer();
  EXPECT_EQ(Buffer::LiveAllocatedBytes(), baseline);
  // A block more than half as large again as the request is left for
  // requests nearer its size.
  auto small = Buffer::Allocate(int64_t{4} << 20);
  ASSERT_TRUE(small.ok());
  EXPECT_NE(small->data(), first);
}

TEST(BufferDeathTest, SliceOutsideAborts) {
  Buffer b = Buffer::CopyOf(std::string_view("abc"));
  EXPECT_DEATH({ (void)b.Slice(2, 2); }, "outside a buffer of 3 bytes");
}

}  // namespace
}  // namespace floe
