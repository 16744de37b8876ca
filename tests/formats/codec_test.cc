#include "floe/formats/compression/codec.h"

#include <gtest/gtest.h>
#include <lz4.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

#include "floe/base/buffer.h"

namespace floe::compression {
namespace {

std::span<const uint8_t> Bytes(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }
std::string ToString(const Buffer& b) { return std::string(b.view()); }

// Text-like bytes that compress, then random bytes that do not.
std::string MixedData(size_t size, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string s;
  s.reserve(size);
  const std::string words[] = {"lakehouse ", "parquet ", "floe ", "snapshot ", "manifest "};
  while (s.size() < size / 2) s += words[rng() % 5];
  while (s.size() < size) s.push_back(static_cast<char>(rng()));
  s.resize(size);
  return s;
}

const Codec kCompressingCodecs[] = {Codec::kUncompressed, Codec::kSnappy, Codec::kGzip,
                                    Codec::kZstd,         Codec::kLz4Raw, Codec::kLz4Hadoop,
                                    Codec::kLz4Legacy,    Codec::kBrotli, Codec::kLz4Frame};

std::string Compressed(Codec codec, const std::string& data, std::optional<int> level = std::nullopt) {
  auto c = Compress(codec, Bytes(data), level);
  EXPECT_TRUE(c.ok()) << CodecName(codec) << ": " << c.status().ToString();
  return c.ok() ? ToString(*c) : std::string();
}

class CodecRoundTripTest : public ::testing::TestWithParam<Codec> {};

TEST_P(CodecRoundTripTest, RoundTripsEmptyTinyAndOneMebibyte) {
  const Codec codec = GetParam();
  for (const std::string& data : {std::string(), std::string("a"), MixedData(1 << 20, 1)}) {
    const std::string compressed = Compressed(codec, data);
    auto bound = MaxCompressedLength(codec, static_cast<int64_t>(data.size()));
    ASSERT_TRUE(bound.ok());
    EXPECT_LE(static_cast<int64_t>(compressed.size()), *bound);
    std::string out(data.size(), '\0');
    const Status s = Decompress(codec, Bytes(compressed), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
    ASSERT_TRUE(s.ok()) << CodecName(codec) << " size " << data.size() << ": " << s.ToString();
    EXPECT_EQ(out, data);
    auto buffer = DecompressToBuffer(codec, Bytes(compressed), static_cast<int64_t>(data.size()), 1 << 21);
    ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
    EXPECT_EQ(ToString(*buffer), data);
  }
}

TEST_P(CodecRoundTripTest, WrongDecompressedSizeIsCorruptNamingCodecAndSizes) {
  const Codec codec = GetParam();
  const std::string data = MixedData(5000, 2);
  const std::string compressed = Compressed(codec, data);
  for (size_t wrong : {data.size() - 1, data.size() + 1}) {
    std::string out(wrong, '\0');
    const Status s = Decompress(codec, Bytes(compressed), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
    ASSERT_TRUE(s.IsCorrupt()) << CodecName(codec) << " " << s.ToString();
    EXPECT_EQ(s.message().rfind(std::string(CodecName(codec)) + ":", 0), 0u) << s.message();
    if (codec != Codec::kLz4Legacy && codec != Codec::kLz4Raw) {
      EXPECT_NE(s.message().find(std::to_string(wrong)), std::string::npos) << s.message();
    }
  }
}

TEST_P(CodecRoundTripTest, GarbageInputIsCorruptNeverACrash) {
  const Codec codec = GetParam();
  std::mt19937_64 rng(3);
  int rejected = 0;
  for (int iter = 0; iter < 200; ++iter) {
    std::string garbage(1 + rng() % 300, '\0');
    for (char& c : garbage) c = static_cast<char>(rng());
    std::string out(1 + rng() % 2000, '\0');
    const Status s = Decompress(codec, Bytes(garbage), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
    if (!s.ok()) {
      ++rejected;
      EXPECT_TRUE(s.IsCorrupt()) << s.ToString();
    }
  }
  EXPECT_GT(rejected, 190) << CodecName(codec);
}

TEST_P(CodecRoundTripTest, TruncatedInputIsCorrupt) {
  const Codec codec = GetParam();
  const std::string data = MixedData(10000, 4);
  const std::string compressed = Compressed(codec, data);
  std::string out(data.size(), '\0');
  for (size_t cut : {compressed.size() / 2, compressed.size() - 1}) {
    const Status s =
        Decompress(codec, Bytes(compressed.substr(0, cut)), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
    EXPECT_TRUE(s.IsCorrupt()) << CodecName(codec) << " cut at " << cut << ": " << s.ToString();
  }
}

INSTANTIATE_TEST_SUITE_P(AllCodecs, CodecRoundTripTest, ::testing::ValuesIn(kCompressingCodecs),
                         [](const auto& info) { return std::string(CodecName(info.param)); });

TEST(CodecTest, LevelsAreHonouredAndChecked) {
  const std::string data = MixedData(100000, 5);
  const std::string fast = Compressed(Codec::kZstd, data, 1);
  const std::string small = Compressed(Codec::kZstd, data, 19);
  EXPECT_LE(small.size(), fast.size());
  EXPECT_FALSE(Compressed(Codec::kGzip, data, 9).empty());
  EXPECT_FALSE(Compressed(Codec::kGzip, data, 0).empty());
  EXPECT_FALSE(Compressed(Codec::kBrotli, data, 11).empty());
  EXPECT_TRUE(Compress(Codec::kGzip, Bytes(data), 10).status().IsInvalidArgument());
  EXPECT_TRUE(Compress(Codec::kBrotli, Bytes(data), 12).status().IsInvalidArgument());
  EXPECT_TRUE(Compress(Codec::kZstd, Bytes(data), 1000).status().IsInvalidArgument());
  const Status snappy = Compress(Codec::kSnappy, Bytes(data), 3).status();
  ASSERT_TRUE(snappy.IsInvalidArgument());
  EXPECT_EQ(snappy.message(), "snappy: the codec takes no compression level (got 3)");
}

TEST(CodecTest, CompressIntoRejectsAShortOutput) {
  const std::string data = MixedData(1000, 6);
  std::string out(10, '\0');
  auto r = CompressInto(Codec::kZstd, Bytes(data), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
  EXPECT_TRUE(r.status().IsInvalidArgument()) << r.status().ToString();
}

TEST(CodecTest, BudgetIsCheckedBeforeAllocating) {
  const std::string compressed = Compressed(Codec::kZstd, "x");
  const int64_t live = Buffer::LiveAllocatedBytes();
  auto r = DecompressToBuffer(Codec::kZstd, Bytes(compressed), int64_t{1} << 50, int64_t{1} << 30);
  ASSERT_TRUE(r.status().IsUnsupported()) << r.status().ToString();
  EXPECT_EQ(r.status().message(), "zstd: input would decompress to 1024.0 TiB, more than the memory budget of 1.0 GiB");
  EXPECT_EQ(Buffer::LiveAllocatedBytes(), live);
  EXPECT_TRUE(DecompressToBuffer(Codec::kZstd, Bytes(compressed), -1, 100).status().IsInvalidArgument());
}

TEST(CodecTest, FrameContentSizeReadsZstdAndLz4FrameHeaders) {
  const std::string data = MixedData(70000, 7);
  for (Codec codec : {Codec::kZstd, Codec::kLz4Frame}) {
    auto size = FrameContentSize(codec, Bytes(Compressed(codec, data)));
    ASSERT_TRUE(size.ok()) << CodecName(codec) << ": " << size.status().ToString();
    EXPECT_EQ(*size, 70000);
    // liblz4 writes no size for empty input; zstd states 0.
    auto empty = FrameContentSize(codec, Bytes(Compressed(codec, "")));
    ASSERT_TRUE(empty.ok()) << CodecName(codec) << ": " << empty.status().ToString();
    EXPECT_EQ(*empty, 0);
    EXPECT_TRUE(FrameContentSize(codec, Bytes("not a frame")).status().IsCorrupt()) << CodecName(codec);
    EXPECT_TRUE(FrameContentSize(codec, {}).status().IsCorrupt()) << CodecName(codec);
  }
  // The LZ4 frame magic starts the stream; the size rides in its header.
  EXPECT_EQ(Compressed(Codec::kLz4Frame, data).substr(0, 4), std::string("\x04\x22\x4d\x18", 4));
  // A zstd frame written without its size cannot be sized.
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ASSERT_EQ(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0), 0u);
  std::string sizeless(ZSTD_compressBound(data.size()), '\0');
  const size_t n = ZSTD_compress2(cctx, sizeless.data(), sizeless.size(), data.data(), data.size());
  ZSTD_freeCCtx(cctx);
  ASSERT_FALSE(ZSTD_isError(n));
  sizeless.resize(n);
  EXPECT_TRUE(FrameContentSize(Codec::kZstd, Bytes(sizeless)).status().IsCorrupt());
  EXPECT_TRUE(FrameContentSize(Codec::kSnappy, Bytes(data)).status().IsInvalidArgument());
}

TEST(CodecTest, SizeStatedByTheInputIsCheckedBeforeAllocating) {
  // Within the budget but not what the stream says: refused without allocating.
  const int64_t live = Buffer::LiveAllocatedBytes();
  for (Codec codec : {Codec::kSnappy, Codec::kZstd, Codec::kUncompressed, Codec::kLz4Frame}) {
    const std::string compressed = Compressed(codec, "hello");
    auto r = DecompressToBuffer(codec, Bytes(compressed), int64_t{1} << 30, int64_t{1} << 31);
    ASSERT_TRUE(r.status().IsCorrupt()) << CodecName(codec) << ": " << r.status().ToString();
    EXPECT_NE(r.status().message().find("expected 1073741824"), std::string::npos) << r.status().message();
  }
  EXPECT_EQ(Buffer::LiveAllocatedBytes(), live);
}

TEST(CodecTest, GzipReadsConcatenatedMembers) {
  const std::string a = MixedData(3000, 7);
  const std::string b = "second member";
  const std::string both = Compressed(Codec::kGzip, a) + Compressed(Codec::kGzip, b) + Compressed(Codec::kGzip, "");
  std::string out(a.size() + b.size(), '\0');
  const Status s = Decompress(Codec::kGzip, Bytes(both), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(out, a + b);
}

TEST(CodecTest, GzipReadsZlibWrappedStreams) {
  const std::string data = MixedData(4000, 8);
  uLongf size = compressBound(data.size());
  std::string zlib(size, '\0');
  ASSERT_EQ(compress2(reinterpret_cast<Bytef*>(zlib.data()), &size, reinterpret_cast<const Bytef*>(data.data()),
                      data.size(), 6),
            Z_OK);
  zlib.resize(size);
  std::string out(data.size(), '\0');
  ASSERT_TRUE(Decompress(Codec::kGzip, Bytes(zlib), {reinterpret_cast<uint8_t*>(out.data()), out.size()}).ok());
  EXPECT_EQ(out, data);
}

TEST(CodecTest, GzipRejectsTrailingGarbageAfterAMember) {
  const std::string data = "payload";
  const std::string bytes = Compressed(Codec::kGzip, data) + "junk";
  std::string out(data.size(), '\0');
  EXPECT_TRUE(Decompress(Codec::kGzip, Bytes(bytes), {reinterpret_cast<uint8_t*>(out.data()), out.size()}).IsCorrupt());
}

std::string BigEndian32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

std::string RawLz4(const std::string& data) {
  std::string out(LZ4_compressBound(static_cast<int>(data.size())), '\0');
  const int n =
      LZ4_compress_default(data.data(), out.data(), static_cast<int>(data.size()), static_cast<int>(out.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

TEST(CodecTest, Lz4HadoopFramingWritesBigEndianSizesAndReadsSeveralBlocks) {
  const std::string data = "hadoop framed lz4";
  const std::string framed = Compressed(Codec::kLz4Hadoop, data);
  EXPECT_EQ(framed.substr(0, 4), BigEndian32(static_cast<uint32_t>(data.size())));
  EXPECT_EQ(framed.substr(4, 4), BigEndian32(static_cast<uint32_t>(framed.size() - 8)));

  // Two blocks, the second holding two chunks (Hadoop's BlockCompressorStream
  // splits a large write that way).
  const std::string a = MixedData(700, 9), b = MixedData(300, 10), c = MixedData(500, 11);
  const std::string block1 = BigEndian32(700) + BigEndian32(static_cast<uint32_t>(RawLz4(a).size())) + RawLz4(a);
  const std::string block2 = BigEndian32(800) + BigEndian32(static_cast<uint32_t>(RawLz4(b).size())) + RawLz4(b) +
                             BigEndian32(static_cast<uint32_t>(RawLz4(c).size())) + RawLz4(c);
  for (Codec codec : {Codec::kLz4Hadoop, Codec::kLz4Legacy}) {
    std::string out(1500, '\0');
    const Status s = Decompress(codec, Bytes(block1 + block2), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
    ASSERT_TRUE(s.ok()) << CodecName(codec) << ": " << s.ToString();
    EXPECT_EQ(out, a + b + c);
  }
  // A chunk that runs past the input is Corrupt, not a read past the end.
  const std::string lying = BigEndian32(700) + BigEndian32(100000) + RawLz4(a);
  std::string out(700, '\0');
  const Status s = Decompress(Codec::kLz4Hadoop, Bytes(lying), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
  ASSERT_TRUE(s.IsCorrupt());
  EXPECT_NE(s.message().find("runs past the input"), std::string::npos) << s.message();

  // A block that holds more than its header says: the message names the
  // Hadoop block, not only the span the LZ4 decoder was handed.
  const std::string understated = BigEndian32(600) + BigEndian32(static_cast<uint32_t>(RawLz4(a).size())) + RawLz4(a);
  const Status over =
      Decompress(Codec::kLz4Hadoop, Bytes(understated), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
  ASSERT_TRUE(over.IsCorrupt());
  EXPECT_NE(over.message().find("more than the expected 600 bytes"), std::string::npos) << over.message();
  EXPECT_NE(
      over.message().find("(the LZ4 block at input byte 8, into the last 600 bytes of a Hadoop block of 600 bytes)"),
      std::string::npos)
      << over.message();
}

TEST(CodecTest, Lz4LegacyFallsBackToFrameAndRawBlock) {
  const std::string data = MixedData(2000, 12);
  std::string frame(LZ4F_compressFrameBound(data.size(), nullptr), '\0');
  const size_t n = LZ4F_compressFrame(frame.data(), frame.size(), data.data(), data.size(), nullptr);
  ASSERT_FALSE(LZ4F_isError(n));
  frame.resize(n);
  for (const std::string& input : {frame, RawLz4(data)}) {
    std::string out(data.size(), '\0');
    const Status s = Decompress(Codec::kLz4Legacy, Bytes(input), {reinterpret_cast<uint8_t*>(out.data()), out.size()});
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(out, data);
  }
  // Hadoop framing alone does not guess.
  std::string out(data.size(), '\0');
  EXPECT_TRUE(
      Decompress(Codec::kLz4Hadoop, Bytes(frame), {reinterpret_cast<uint8_t*>(out.data()), out.size()}).IsCorrupt());
}

TEST(CodecTest, EmptyInputForEmptyOutputIsAcceptedByEveryCodec) {
  for (Codec codec : kCompressingCodecs) {
    EXPECT_TRUE(Decompress(codec, {}, {}).ok()) << CodecName(codec);
  }
}

TEST(CodecTest, LzoIsUnsupported) {
  std::string out(4, '\0');
  EXPECT_TRUE(Decompress(Codec::kLzo, Bytes("abcd"), {reinterpret_cast<uint8_t*>(out.data()), 4}).IsUnsupported());
  EXPECT_TRUE(Compress(Codec::kLzo, Bytes("abcd")).status().IsUnsupported());
  EXPECT_TRUE(MaxCompressedLength(Codec::kLzo, 4).status().IsUnsupported());
  EXPECT_TRUE(DecompressToBuffer(Codec::kLzo, Bytes("abcd"), 4, 100).status().IsUnsupported());
}

TEST(CodecTest, NamesMapToCodecsAndBack) {
  EXPECT_EQ(*CodecFromName("none"), Codec::kUncompressed);
  EXPECT_EQ(*CodecFromName("uncompressed"), Codec::kUncompressed);
  EXPECT_EQ(*CodecFromName("SNAPPY"), Codec::kSnappy);
  EXPECT_EQ(*CodecFromName("gzip"), Codec::kGzip);
  EXPECT_EQ(*CodecFromName("Zstd"), Codec::kZstd);
  EXPECT_EQ(*CodecFromName("lz4_raw"), Codec::kLz4Raw);
  EXPECT_EQ(*CodecFromName("brotli"), Codec::kBrotli);
  for (Codec codec :
       {Codec::kUncompressed, Codec::kSnappy, Codec::kGzip, Codec::kZstd, Codec::kLz4Raw, Codec::kBrotli}) {
    EXPECT_EQ(*CodecFromName(CodecName(codec)), codec);
  }
  const Status lz4 = CodecFromName("lz4").status();
  EXPECT_TRUE(lz4.IsInvalidArgument());
  EXPECT_NE(lz4.message().find("lz4_raw"), std::string::npos);
  const Status unknown = CodecFromName("bzip2").status();
  ASSERT_TRUE(unknown.IsInvalidArgument());
  EXPECT_EQ(unknown.message(),
            "unknown compression codec 'bzip2' (expected none, snappy, gzip, zstd, lz4_raw or brotli)");
}

TEST(CodecTest, ConcurrentCallsAreIndependent) {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 50; ++i) {
        const std::string data =
            MixedData(2000 + static_cast<size_t>(t * 100 + i), static_cast<uint64_t>(t * 1000 + i));
        for (Codec codec : {Codec::kZstd, Codec::kGzip, Codec::kSnappy}) {
          auto c = Compress(codec, Bytes(data));
          if (!c.ok()) {
            ++failures[static_cast<size_t>(t)];
            continue;
          }
          auto d = DecompressToBuffer(codec, c->span(), static_cast<int64_t>(data.size()), 1 << 20);
          if (!d.ok() || ToString(*d) != data) ++failures[static_cast<size_t>(t)];
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace floe::compression
