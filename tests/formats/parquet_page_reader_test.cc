// PageReader's reused decompression buffer: pages of changing sizes,
// a dictionary then data pages, v2 pages stored uncompressed inside a
// compressed chunk, pages held while the next is read, and page headers
// whose uncompressed_page_size lies.

#include "floe/formats/parquet/reader/page_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "floe/formats/compression/codec.h"
#include "floe/formats/parquet/metadata_codec.h"

namespace floe::parquet {
namespace {

using compression::Codec;

std::vector<uint8_t> Pattern(size_t size, uint8_t seed) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>((i / 8) * 31 + seed + (i % 8 == 0 ? i : 0));
  return bytes;
}

std::string Compressed(Codec codec, const std::vector<uint8_t>& raw) {
  auto out = compression::Compress(codec, raw);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return out.ok() ? std::string(out->view()) : std::string();
}

// Appends one page: its header, then `body` (already compressed as needed).
void AppendPage(PageHeader header, const std::string& body, std::string* chunk) {
  header.compressed_page_size = static_cast<int32_t>(body.size());
  ASSERT_TRUE(EncodePageHeader(header, chunk).ok());
  chunk->append(body);
}

PageHeader DataPage(int32_t uncompressed_size, int32_t num_values) {
  PageHeader header;
  header.type = PageType::DATA_PAGE;
  header.uncompressed_page_size = uncompressed_size;
  header.data_page_header = DataPageHeader{};
  header.data_page_header->num_values = num_values;
  return header;
}

PageReader ReaderOver(const std::string& chunk, Codec codec) {
  return PageReader(Buffer::CopyOf(chunk), 4, codec, PageReaderOptions{}, "f.parquet column x");
}

std::vector<uint8_t> Values(const Page& page) { return {page.values.begin(), page.values.end()}; }

class PageReaderCodecTest : public ::testing::TestWithParam<Codec> {};

TEST_P(PageReaderCodecTest, PagesOfDifferentSizesInARowDecompressIntoOneBuffer) {
  const Codec codec = GetParam();
  // Growing, shrinking, tiny and empty pages: each must come back whole,
  // whatever the previous page left in the buffer.
  const std::vector<size_t> sizes = {1000, 50000, 10, 70000, 3000, 0, 70000, 64, 65};
  std::string chunk;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const std::vector<uint8_t> raw = Pattern(sizes[i], static_cast<uint8_t>(i));
    AppendPage(DataPage(static_cast<int32_t>(raw.size()), static_cast<int32_t>(raw.size())), Compressed(codec, raw),
               &chunk);
  }
  PageReader reader = ReaderOver(chunk, codec);
  const uint8_t* biggest = nullptr;
  for (size_t i = 0; i < sizes.size(); ++i) {
    auto page = reader.Next();
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    ASSERT_TRUE(page->has_value());
    EXPECT_EQ(Values(**page), Pattern(sizes[i], static_cast<uint8_t>(i))) << "page " << i;
    // After the 70000-byte page (index 4 on), every page fits the buffer the
    // previous one used and, being dropped, leaves it free: same memory.
    if (i == 3) biggest = (*page)->values.data();
    if (i > 3 && sizes[i] > 0) {
      EXPECT_EQ((*page)->values.data(), biggest) << "page " << i << " was not reused";
    }
  }
  auto end = reader.Next();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
}

TEST_P(PageReaderCodecTest, AHeldPageKeepsItsBytesWhileTheNextIsRead) {
  const Codec codec = GetParam();
  const std::vector<uint8_t> first = Pattern(4000, 1);
  const std::vector<uint8_t> second = Pattern(3000, 2);
  std::string chunk;
  AppendPage(DataPage(4000, 4000), Compressed(codec, first), &chunk);
  AppendPage(DataPage(3000, 3000), Compressed(codec, second), &chunk);
  PageReader reader = ReaderOver(chunk, codec);
  auto held = reader.Next();
  ASSERT_TRUE(held.ok() && held->has_value());
  auto next = reader.Next();
  ASSERT_TRUE(next.ok() && next->has_value());
  EXPECT_NE((*held)->values.data(), (*next)->values.data());
  EXPECT_EQ(Values(**held), first);
  EXPECT_EQ(Values(**next), second);
}

TEST_P(PageReaderCodecTest, DictionaryThenDataPages) {
  const Codec codec = GetParam();
  const std::vector<uint8_t> dictionary = Pattern(800, 7);
  std::string chunk;
  PageHeader dict;
  dict.type = PageType::DICTIONARY_PAGE;
  dict.uncompressed_page_size = 800;
  dict.dictionary_page_header = DictionaryPageHeader{};
  dict.dictionary_page_header->num_values = 100;
  AppendPage(dict, Compressed(codec, dictionary), &chunk);
  const std::vector<uint8_t> indices = Pattern(20000, 9);
  AppendPage(DataPage(20000, 5000), Compressed(codec, indices), &chunk);
  const std::vector<uint8_t> more = Pattern(500, 11);
  AppendPage(DataPage(500, 100), Compressed(codec, more), &chunk);

  PageReader reader = ReaderOver(chunk, codec);
  {
    auto page = reader.Next();
    ASSERT_TRUE(page.ok() && page->has_value()) << page.status().ToString();
    EXPECT_EQ((*page)->type, PageType::DICTIONARY_PAGE);
    EXPECT_EQ((*page)->num_values, 100);
    EXPECT_EQ(Values(**page), dictionary);
  }
  auto data = reader.Next();
  ASSERT_TRUE(data.ok() && data->has_value());
  EXPECT_EQ((*data)->type, PageType::DATA_PAGE);
  EXPECT_EQ((*data)->num_values, 5000);
  EXPECT_EQ(Values(**data), indices);
  *data = std::nullopt;
  auto last = reader.Next();
  ASSERT_TRUE(last.ok() && last->has_value());
  EXPECT_EQ(Values(**last), more);
}

TEST_P(PageReaderCodecTest, V2PagesStoredUncompressedInACompressedChunk) {
  const Codec codec = GetParam();
  const std::string def_levels = "\x02\x01";  // an RLE run: 1 x level 1
  const std::vector<uint8_t> plain = Pattern(1200, 3);
  const std::vector<uint8_t> packed = Pattern(900, 4);
  std::string chunk;
  for (const bool compressed : {false, true, false}) {
    const std::vector<uint8_t>& values = compressed ? packed : plain;
    PageHeader header;
    header.type = PageType::DATA_PAGE_V2;
    header.uncompressed_page_size = static_cast<int32_t>(def_levels.size() + values.size());
    header.data_page_header_v2 = DataPageHeaderV2{};
    header.data_page_header_v2->num_values = 1;
    header.data_page_header_v2->num_rows = 1;
    header.data_page_header_v2->definition_levels_byte_length = static_cast<int32_t>(def_levels.size());
    header.data_page_header_v2->is_compressed = compressed;
    const std::string stored = compressed ? Compressed(codec, values) : std::string(values.begin(), values.end());
    AppendPage(header, def_levels + stored, &chunk);
  }
  PageReader reader = ReaderOver(chunk, codec);
  for (const bool compressed : {false, true, false}) {
    auto page = reader.Next();
    ASSERT_TRUE(page.ok() && page->has_value()) << page.status().ToString();
    EXPECT_EQ(std::string((*page)->definition_levels.begin(), (*page)->definition_levels.end()), def_levels);
    EXPECT_TRUE((*page)->repetition_levels.empty());
    EXPECT_EQ(Values(**page), compressed ? packed : plain);
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, PageReaderCodecTest,
                         ::testing::Values(Codec::kSnappy, Codec::kZstd, Codec::kLz4Raw, Codec::kGzip),
                         [](const auto& info) { return std::string(compression::CodecName(info.param)); });

TEST(PageReaderTest, UncompressedPageSizeThatLiesIsCorruptNamingThePage) {
  const std::vector<uint8_t> raw = Pattern(5000, 5);
  struct Case {
    Codec codec;
    int32_t claimed;
    std::string message;
  };
  // The first page is honest, so the lie meets a buffer already in use.
  const std::vector<Case> cases = {
      {Codec::kSnappy, 6000, "snappy: input decompresses to 5000 bytes, expected 6000"},
      {Codec::kSnappy, 4000, "snappy: input decompresses to 5000 bytes, expected 4000"},
      {Codec::kZstd, 6000, "zstd: input decompresses to 5000 bytes, expected 6000"},
      {Codec::kLz4Raw, 6000, "lz4_raw: input decompresses to 5000 bytes, expected 6000"},
      {Codec::kLz4Raw, 4000, "lz4_raw: input decompresses to more than the expected 4000 bytes"},
  };
  for (const Case& c : cases) {
    std::string chunk;
    AppendPage(DataPage(5000, 5000), Compressed(c.codec, raw), &chunk);
    const int64_t second_at = 4 + static_cast<int64_t>(chunk.size());
    AppendPage(DataPage(c.claimed, 5000), Compressed(c.codec, raw), &chunk);
    PageReader reader = ReaderOver(chunk, c.codec);
    {
      auto first = reader.Next();
      ASSERT_TRUE(first.ok() && first->has_value());
      EXPECT_EQ(Values(**first), raw);
    }
    auto second = reader.Next();
    ASSERT_TRUE(second.status().IsCorrupt()) << c.message << " / " << second.status().ToString();
    EXPECT_EQ(second.status().message(),
              "f.parquet column x: page at byte " + std::to_string(second_at) + ": " + c.message);
  }
}

TEST(PageReaderTest, ASizeAboveTheBudgetIsRefusedBeforeDecompressing) {
  std::string chunk;
  AppendPage(DataPage(1 << 20, 10), Compressed(Codec::kLz4Raw, Pattern(100, 1)), &chunk);
  PageReaderOptions options;
  options.max_page_size = 1 << 16;
  PageReader reader(Buffer::CopyOf(chunk), 4, Codec::kLz4Raw, options, "f.parquet column x");
  auto page = reader.Next();
  ASSERT_TRUE(page.status().IsUnsupported()) << page.status().ToString();
  EXPECT_EQ(page.status().message(),
            "f.parquet column x: page at byte 4 declares 1048576 uncompressed bytes, above the 65536-byte page budget");
}

}  // namespace
}  // namespace floe::parquet
