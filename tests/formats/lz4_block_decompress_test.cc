// floe's own LZ4 block decoder (formats/compression/lz4_block_decompress.cc),
// reached through compression::Decompress: liblz4 compresses, floe must give
// back the same bytes for every shape of sequence, refuse damaged blocks as
// Corrupt without touching memory outside the spans, and read every block
// liblz4's LZ4_decompress_safe reads (offset 0 aside, which the format calls
// invalid and liblz4 lets through).

#include <gtest/gtest.h>
#include <lz4.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "codec_test_util.h"
#include "floe/formats/compression/codec.h"

namespace floe::compression {
namespace {

std::vector<uint8_t> Lz4(const std::vector<uint8_t>& raw) {
  std::vector<uint8_t> out(static_cast<size_t>(LZ4_compressBound(static_cast<int>(raw.size()))));
  const int n = LZ4_compress_default(reinterpret_cast<const char*>(raw.data()), reinterpret_cast<char*>(out.data()),
                                     static_cast<int>(raw.size()), static_cast<int>(out.size()));
  EXPECT_GT(n, 0);
  out.resize(static_cast<size_t>(n));
  return out;
}

Status DecodeGuarded(const std::vector<uint8_t>& block, size_t size, std::vector<uint8_t>* out) {
  return codec_testing::DecodeGuarded(Codec::kLz4Raw, block, size, out);
}

void ExpectRoundTrip(const std::vector<uint8_t>& raw, const std::string& what) {
  codec_testing::ExpectDecodesTo(Codec::kLz4Raw, Lz4(raw), raw, what);
}

TEST(Lz4BlockDecompressTest, MatchesLiblz4ForEverySequenceShape) {
  std::mt19937_64 rng(63);
  for (const size_t size :
       {size_t{1}, size_t{12}, size_t{13}, size_t{15}, size_t{16}, size_t{17}, size_t{63}, size_t{64}, size_t{65},
        size_t{66}, size_t{129}, size_t{200}, size_t{4096}, size_t{70000}, size_t{1} << 20}) {
    for (const auto& [what, raw] : codec_testing::BlockShapes(size, rng)) ExpectRoundTrip(raw, what);
  }
}

struct BadCase {
  std::vector<uint8_t> block;
  size_t size;
  std::string message;
};

void ExpectCorrupt(const std::vector<BadCase>& cases) {
  for (const BadCase& c : cases) {
    std::vector<uint8_t> out;
    const Status status = DecodeGuarded(c.block, c.size, &out);
    ASSERT_TRUE(status.IsCorrupt()) << c.message << " / " << status.ToString();
    EXPECT_EQ(status.message(), c.message);
  }
}

// 8 literals "abcdefgh", a match of `match_nibble` + 4 bytes from `offset`,
// then 8 literals that end the block: 20 bytes of output for nibble 0.
std::vector<uint8_t> LiteralsMatchLiterals(uint16_t offset, uint8_t match_nibble) {
  std::vector<uint8_t> b = {static_cast<uint8_t>(0x80 | match_nibble), 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
  b.push_back(static_cast<uint8_t>(offset & 0xff));
  b.push_back(static_cast<uint8_t>(offset >> 8));
  b.push_back(0x80);
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>('1' + i));
  return b;
}

TEST(Lz4BlockDecompressTest, ReadsAHandWrittenBlock) {
  std::vector<uint8_t> out;
  ASSERT_TRUE(DecodeGuarded(LiteralsMatchLiterals(8, 0), 20, &out).ok());
  EXPECT_EQ(std::string(out.begin(), out.end()), "abcdefghabcd12345678");
  // A run: offset 1 repeats 'h'.
  ASSERT_TRUE(DecodeGuarded(LiteralsMatchLiterals(1, 1), 21, &out).ok());
  EXPECT_EQ(std::string(out.begin(), out.end()), "abcdefghhhhhh12345678");
  // The empty block is one zero token.
  ASSERT_TRUE(DecodeGuarded({0x00}, 0, &out).ok());
  // Blocks that break the format's end conditions for encoders (a match
  // ending 4 bytes before the end, literals within 12 bytes of the end that
  // do not end the block) decode: a decoder may accept them, and liblz4
  // reads some of them.
  ASSERT_TRUE(DecodeGuarded(LiteralsMatchLiterals(8, 5), 25, &out).ok());
  EXPECT_EQ(std::string(out.begin(), out.end()), "abcdefghabcdefgha12345678");
  ASSERT_TRUE(DecodeGuarded({0x10, 'a', 1, 0, 0x10, 'b'}, 6, &out).ok());
  EXPECT_EQ(std::string(out.begin(), out.end()), "aaaaab");
  // liblz4 reads this one through a shortcut that skips its end checks: 14
  // literals, an 18-byte match from offset 8, 4 literals ending 8 bytes in.
  const std::vector<uint8_t> shortcut = {0xEE, 'a', 'b', 'c', 'd', 'e', 'f',  'g', 'h', 'i', 'j',
                                         'k',  'l', 'm', 'n', 8,   0,   0x40, 'w', 'x', 'y', 'z'};
  std::string theirs(36, '\0');
  ASSERT_EQ(LZ4_decompress_safe(reinterpret_cast<const char*>(shortcut.data()), theirs.data(),
                                static_cast<int>(shortcut.size()), 36),
            36);
  ASSERT_TRUE(DecodeGuarded(shortcut, 36, &out).ok());
  EXPECT_EQ(std::string(out.begin(), out.end()), theirs);
}

TEST(Lz4BlockDecompressTest, DamagedBlocksAreCorruptNamingTheCause) {
  std::vector<uint8_t> ends_after_match = {0x8F, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 8, 0};
  ends_after_match.insert(ends_after_match.end(), {255, 255, 255, 255, 255, 0});  // a 1,294-byte match
  std::vector<uint8_t> match_length_cut = {0x8F, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 8, 0};
  match_length_cut.insert(match_length_cut.end(), 6, uint8_t{255});
  ExpectCorrupt({
      {{}, 4, "lz4_raw: malformed input: empty LZ4 block"},
      {{0x10, 'a'}, 0, "lz4_raw: input decompresses to more than the expected 0 bytes"},
      {{0x50, 'a', 'b', 'c', 'd'}, 5, "lz4_raw: malformed input: literals run past the input"},
      {{0xF0}, 20, "lz4_raw: malformed input: literal length runs past the input"},
      {{0xF0, 255, 255}, 600, "lz4_raw: malformed input: literal length runs past the input"},
      {{0x40, 'a', 'b', 'c', 'd'}, 3, "lz4_raw: input decompresses to more than the expected 3 bytes"},
      {{0x30, 'a', 'b', 'c'}, 4, "lz4_raw: input decompresses to 3 bytes, expected 4"},
      {{0x10, 'a', 1}, 10, "lz4_raw: malformed input: match offset runs past the input"},
      {LiteralsMatchLiterals(0, 0), 20, "lz4_raw: malformed input: match offset 0 at output byte 8"},
      {LiteralsMatchLiterals(9, 0), 20, "lz4_raw: malformed input: match offset 9 at output byte 8"},
      {LiteralsMatchLiterals(8, 14), 20, "lz4_raw: input decompresses to more than the expected 20 bytes"},
      {ends_after_match, 2000, "lz4_raw: malformed input: LZ4 block ends after a match, not with literals"},
      {match_length_cut, 5000, "lz4_raw: malformed input: match length runs past the input"},
  });
}

// The cases above are shorter than the decoder's slack, so only its exact
// loop sees them. These put the damage after 200 good bytes with more than
// the slack still to come, where the fast loop decodes.
TEST(Lz4BlockDecompressTest, DamageFarFromTheEndsIsCorruptNamingTheCause) {
  // A token of 15 + 185 literals and a 4-byte match, then the 200 literals;
  // the tail starts with that match's offset.
  std::vector<uint8_t> prefix = {0xF0, 185};
  for (int i = 0; i < 200; ++i) prefix.push_back(static_cast<uint8_t>(i));
  const auto damaged = [&](std::vector<uint8_t> tail) {
    std::vector<uint8_t> b = prefix;
    b.insert(b.end(), tail.begin(), tail.end());
    b.insert(b.end(), 100, uint8_t{0});  // padding: the fast loop is still running
    return b;
  };
  ExpectCorrupt({
      {damaged({0x2c, 0x01}), 1000, "lz4_raw: malformed input: match offset 300 at output byte 200"},
      {damaged({0x00, 0x00}), 1000, "lz4_raw: malformed input: match offset 0 at output byte 200"},
      // After a good match: literals of 15 + 1,275 + 10 bytes with ~100 left.
      {damaged({8, 0, 0xF0, 255, 255, 255, 255, 255, 10}), 3000,
       "lz4_raw: malformed input: literals run past the input"},
      // After a good match: a match of 1,804 bytes with 796 left.
      {damaged({8, 0, 0x0F, 8, 0, 255, 255, 255, 255, 255, 255, 255}), 1000,
       "lz4_raw: input decompresses to more than the expected 1000 bytes"},
  });
}

// In the fast loop a match may reach back to the output's first byte, and
// not one byte further.
TEST(Lz4BlockDecompressTest, FastLoopMatchesReachBackToTheFirstByteOnly) {
  std::vector<uint8_t> raw;
  std::vector<uint8_t> block = {0xF0, 185};  // 200 literals, then a 4-byte match
  for (int i = 0; i < 200; ++i) {
    block.push_back(static_cast<uint8_t>(i + 1));
    raw.push_back(static_cast<uint8_t>(i + 1));
  }
  const size_t offset_at = block.size();
  block.insert(block.end(), {200, 0, 0xF0, 85});  // offset 200; the last 100 literals
  raw.insert(raw.end(), {1, 2, 3, 4});
  for (int i = 0; i < 100; ++i) {
    block.push_back(static_cast<uint8_t>(255 - i));
    raw.push_back(static_cast<uint8_t>(255 - i));
  }
  codec_testing::ExpectDecodesTo(Codec::kLz4Raw, block, raw, "offset 200 at output byte 200");
  block[offset_at] = 201;
  std::vector<uint8_t> out;
  const Status status = DecodeGuarded(block, raw.size(), &out);
  ASSERT_TRUE(status.IsCorrupt()) << status.ToString();
  EXPECT_EQ(status.message(), "lz4_raw: malformed input: match offset 201 at output byte 200");
}

TEST(Lz4BlockDecompressTest, EveryTruncationOfARealBlockIsCorrupt) {
  std::vector<uint8_t> raw(5000);
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<uint8_t>((i / 8) ^ (i % 13));
  const std::vector<uint8_t> block = Lz4(raw);
  for (size_t cut = 0; cut < block.size(); ++cut) {
    const std::vector<uint8_t> truncated(block.begin(), block.begin() + static_cast<ptrdiff_t>(cut));
    std::vector<uint8_t> out;
    EXPECT_TRUE(DecodeGuarded(truncated, raw.size(), &out).IsCorrupt()) << "cut at " << cut;
  }
}

// Damaged blocks of every kind of page content: every block liblz4 reads,
// floe reads to the same bytes (offset 0 aside, refused by floe). floe may
// also read blocks liblz4 refuses for its end-of-block rules.
TEST(Lz4BlockDecompressTest, ReadsWhatLiblz4ReadsOnRandomDamage) {
  std::mt19937_64 rng(6302);
  int accepted = 0;
  int refused = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const size_t size = 1 + rng() % 3000;
    std::vector<uint8_t> raw(size);
    const int kind = static_cast<int>(rng() % 3);
    for (size_t i = 0; i < size; ++i) {
      raw[i] = kind == 0   ? static_cast<uint8_t>(rng() % 4)
               : kind == 1 ? static_cast<uint8_t>(i / 8 + (i % 8 == 0))
                           : static_cast<uint8_t>(rng());
    }
    std::vector<uint8_t> block = Lz4(raw);
    const int damage = 1 + static_cast<int>(rng() % 3);
    for (int d = 0; d < damage; ++d) block[rng() % block.size()] = static_cast<uint8_t>(rng());
    if (rng() % 4 == 0) block.resize(rng() % (block.size() + 1));
    // liblz4 into exactly `size` bytes, as floe decodes a page.
    std::vector<uint8_t> theirs(size);
    const int n =
        LZ4_decompress_safe(reinterpret_cast<const char*>(block.data()), reinterpret_cast<char*>(theirs.data()),
                            static_cast<int>(block.size()), static_cast<int>(size));
    std::vector<uint8_t> ours;
    const Status status = DecodeGuarded(block, size, &ours);
    SCOPED_TRACE("trial " + std::to_string(trial));
    if (status.ok()) {
      ++accepted;
      if (n == static_cast<int>(size)) {
        ASSERT_EQ(ours, theirs);
      }
    } else {
      ++refused;
      ASSERT_TRUE(status.IsCorrupt()) << status.ToString();
      if (n == static_cast<int>(size)) {
        EXPECT_NE(status.message().find("match offset 0 "), std::string::npos) << status.ToString();
      }
    }
  }
  // Both outcomes must occur, or the comparison above tested nothing.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(refused, 100);
}

}  // namespace
}  // namespace floe::compression
