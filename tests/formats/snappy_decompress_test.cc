// floe's own snappy block decoder (formats/compression/snappy_decompress.cc),
// reached through compression::Decompress: libsnappy compresses, floe must
// give back the same bytes for every shape of element, and refuse damaged
// blocks as Corrupt without touching memory outside the spans.

#include <gtest/gtest.h>
#include <snappy.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "codec_test_util.h"
#include "floe/formats/compression/codec.h"

namespace floe::compression {
namespace {

std::vector<uint8_t> Snappy(const std::vector<uint8_t>& raw) {
  std::string out;
  snappy::Compress(reinterpret_cast<const char*>(raw.data()), raw.size(), &out);
  return std::vector<uint8_t>(out.begin(), out.end());
}

Status DecodeGuarded(const std::vector<uint8_t>& block, size_t size, std::vector<uint8_t>* out) {
  return codec_testing::DecodeGuarded(Codec::kSnappy, block, size, out);
}

void ExpectRoundTrip(const std::vector<uint8_t>& raw, const std::string& what) {
  codec_testing::ExpectDecodesTo(Codec::kSnappy, Snappy(raw), raw, what);
}

TEST(SnappyDecompressTest, MatchesLibsnappyForEveryElementShape) {
  std::mt19937_64 rng(44);
  for (const size_t size : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{63}, size_t{64},
                            size_t{65}, size_t{200}, size_t{4096}, size_t{70000}, size_t{1} << 20}) {
    for (const auto& [what, raw] : codec_testing::BlockShapes(size, rng)) ExpectRoundTrip(raw, what);
  }
}

TEST(SnappyDecompressTest, ReadsCopiesWithFourByteOffsets) {
  // libsnappy never writes them (its blocks are 64 KiB), other writers may:
  // "ab" then a copy-4 of length 6 from offset 2 gives "abababab".
  const std::vector<uint8_t> block = {8, 0x04, 'a', 'b', (5 << 2) | 3, 2, 0, 0, 0};
  std::vector<uint8_t> out;
  ASSERT_TRUE(DecodeGuarded(block, 8, &out).ok());
  EXPECT_EQ(std::string(out.begin(), out.end()), "abababab");
}

TEST(SnappyDecompressTest, ReadsLiteralLengthsInExtraBytes) {
  // Tag 60 << 2: the length - 1 follows in one byte; tag 61 << 2: two bytes.
  std::vector<uint8_t> raw(300);
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<uint8_t>(i * 7);
  std::vector<uint8_t> two = {0xAC, 0x02, 61 << 2, 299 & 0xff, 299 >> 8};  // varint 300 = 0xAC 0x02
  two.insert(two.end(), raw.begin(), raw.end());
  std::vector<uint8_t> out;
  ASSERT_TRUE(DecodeGuarded(two, raw.size(), &out).ok());
  EXPECT_EQ(out, raw);
  std::vector<uint8_t> short_raw(raw.begin(), raw.begin() + 100);
  std::vector<uint8_t> single = {100, 60 << 2, 99};
  single.insert(single.end(), short_raw.begin(), short_raw.end());
  ASSERT_TRUE(DecodeGuarded(single, short_raw.size(), &out).ok());
  EXPECT_EQ(out, short_raw);
}

TEST(SnappyDecompressTest, DamagedBlocksAreCorruptNamingTheCause) {
  struct Case {
    std::vector<uint8_t> block;
    size_t size;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{}, 4, "snappy: malformed input: unreadable length header"},
      {{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 4, "snappy: malformed input: unreadable length header"},
      {{5, 0x04, 'a'}, 5, "snappy: malformed input: literal runs past the input"},
      {{4, 60 << 2}, 4, "snappy: malformed input: literal length runs past the input"},
      // A copy before any output, and one reaching before the start.
      {{4, (0 << 2) | 1, 1}, 4, "snappy: malformed input: copy offset 1 at output byte 0"},
      {{6, 0x04, 'a', 'b', (1 << 2) | 2, 3, 0}, 6, "snappy: malformed input: copy offset 3 at output byte 2"},
      {{6, 0x04, 'a', 'b', (1 << 2) | 2, 0, 0}, 6, "snappy: malformed input: copy offset 0 at output byte 2"},
      {{6, 0x04, 'a', 'b', (1 << 2) | 2}, 6, "snappy: malformed input: copy runs past the input"},
      {{6, 0x04, 'a', 'b', 3, 1, 0}, 6, "snappy: malformed input: copy runs past the input"},
      // More output than the header said, and less.
      {{4, 0x04, 'a', 'b', (4 << 2) | 2, 2, 0}, 4, "snappy: input decompresses to more than the expected 4 bytes"},
      {{4, 0x04, 'a', 'b'}, 4, "snappy: input decompresses to 2 bytes, expected 4"},
      {{4, 0x0c, 'a', 'b', 'c', 'd'}, 5, "snappy: input decompresses to 4 bytes, expected 5"},
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> out;
    const Status status = DecodeGuarded(c.block, c.size, &out);
    ASSERT_TRUE(status.IsCorrupt()) << c.message << " / " << status.ToString();
    EXPECT_EQ(status.message(), c.message);
  }
}

// The cases above are shorter than the decoder's slack, so only its exact
// loop sees them. These put the damage after 200 good bytes with more than
// the slack still to come, where the fast loop decodes.
TEST(SnappyDecompressTest, DamageFarFromTheEndsIsCorruptNamingTheCause) {
  // Varint of `size`, then a 200-byte literal (tag 60 << 2, length - 1 in one byte).
  const auto good_prefix = [](size_t size) {
    std::vector<uint8_t> block;
    for (size_t v = size;; v >>= 7) {
      block.push_back(static_cast<uint8_t>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0)));
      if (v < 0x80) break;
    }
    block.push_back(60 << 2);
    block.push_back(199);
    for (int i = 0; i < 200; ++i) block.push_back(static_cast<uint8_t>(i));
    return block;
  };
  // Padding after the damaged element, so the fast loop is still running.
  const auto padded = [](std::vector<uint8_t> block) {
    block.insert(block.end(), 100, uint8_t{0});
    return block;
  };
  struct Case {
    std::vector<uint8_t> block;
    size_t size;
    std::string message;
  };
  std::vector<Case> cases;
  {
    std::vector<uint8_t> b = good_prefix(1000);
    b.insert(b.end(), {(3 << 2) | 2, 0x2c, 0x01});  // copy-2, offset 300 > 200 bytes written
    cases.push_back({padded(b), 1000, "snappy: malformed input: copy offset 300 at output byte 200"});
  }
  {
    std::vector<uint8_t> b = good_prefix(1000);
    b.insert(b.end(), {(3 << 2) | 1, 0});  // copy-1, offset 0
    cases.push_back({padded(b), 1000, "snappy: malformed input: copy offset 0 at output byte 200"});
  }
  {
    std::vector<uint8_t> b = good_prefix(1000);
    b.insert(b.end(), {61 << 2, 0x87, 0x13});  // a literal of 5000 bytes with 100 left
    cases.push_back({padded(b), 1000, "snappy: malformed input: literal runs past the input"});
  }
  {
    std::vector<uint8_t> b = good_prefix(300);
    b.insert(b.end(), {60 << 2, 199});  // 200 more bytes of literal, 100 bytes of room
    b.insert(b.end(), 200, uint8_t{7});
    cases.push_back({b, 300, "snappy: input decompresses to more than the expected 300 bytes"});
  }
  for (const Case& c : cases) {
    std::vector<uint8_t> out;
    const Status status = DecodeGuarded(c.block, c.size, &out);
    ASSERT_TRUE(status.IsCorrupt()) << c.message << " / " << status.ToString();
    EXPECT_EQ(status.message(), c.message);
  }
}

TEST(SnappyDecompressTest, EveryTruncationOfARealBlockIsCorrupt) {
  std::vector<uint8_t> raw(5000);
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<uint8_t>((i / 8) ^ (i % 13));
  const std::vector<uint8_t> block = Snappy(raw);
  for (size_t cut = 0; cut < block.size(); ++cut) {
    const std::vector<uint8_t> truncated(block.begin(), block.begin() + static_cast<ptrdiff_t>(cut));
    std::vector<uint8_t> out;
    EXPECT_TRUE(DecodeGuarded(truncated, raw.size(), &out).IsCorrupt()) << "cut at " << cut;
  }
}

}  // namespace
}  // namespace floe::compression
