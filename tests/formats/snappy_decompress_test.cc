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
#include "floe/base/strings.h"
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

// A run (a copy whose offset is under 8) is stored as a 16-byte pattern
// that may reach 15 bytes past the copy's end. Each run here, of every
// offset and length, is followed by 22 one-byte copies with 4-byte offsets
// (5 input bytes each, so the fast loop, which needs 64 bytes of input
// left, decodes the run) and decoded into outputs that end 0 to 22 bytes
// after the run: too small, Corrupt, or, at 22, exactly its size. No
// output may be written past its end.
TEST(SnappyDecompressTest, RunsNearTheOutputsEndStayInside) {
  constexpr size_t kLiteral = 150;
  constexpr size_t kTail = 22;
  for (size_t offset = 1; offset < 8; ++offset) {
    for (size_t len = 1; len <= 64; ++len) {
      std::vector<uint8_t> raw;
      std::vector<uint8_t> elements = {60 << 2, kLiteral - 1};  // a literal, its length - 1 in the next byte
      for (size_t i = 0; i < kLiteral; ++i) raw.push_back(static_cast<uint8_t>(i * 7 + 1));
      elements.insert(elements.end(), raw.begin(), raw.end());
      elements.push_back(static_cast<uint8_t>(((len - 1) << 2) | 2));  // copy-2 of `len` from `offset`
      elements.push_back(static_cast<uint8_t>(offset));
      elements.push_back(0);
      for (size_t i = 0; i < len; ++i) raw.push_back(raw[raw.size() - offset]);
      for (size_t i = 0; i < kTail; ++i) {
        elements.insert(elements.end(), {3, 1, 0, 0, 0});  // copy-4 of 1 byte from offset 1
        raw.push_back(raw.back());
      }
      for (size_t after = 0; after <= kTail; ++after) {
        const size_t size = kLiteral + len + after;
        std::vector<uint8_t> block;
        for (size_t v = size;; v >>= 7) {
          block.push_back(static_cast<uint8_t>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0)));
          if (v < 0x80) break;
        }
        block.insert(block.end(), elements.begin(), elements.end());
        std::vector<uint8_t> out;
        const Status status = DecodeGuarded(block, size, &out);
        const std::string what = StrCat("offset ", offset, " length ", len, " ending ", after, " before the end");
        if (after < kTail) {
          ASSERT_TRUE(status.IsCorrupt()) << what << ": " << status.ToString();
        } else {
          ASSERT_TRUE(status.ok()) << what << ": " << status.ToString();
          ASSERT_EQ(out, raw) << what;
        }
      }
    }
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
