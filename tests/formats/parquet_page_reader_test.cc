// PageReader's reused decompression buffer: pages of changing sizes,
// a dictionary then data pages, v2 pages stored uncompressed inside a
// compressed chunk, pages held while the next is read, and page headers
// whose uncompressed_page_size lies; encrypted v2 pages.

#include "floe/formats/parquet/reader/page_reader.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

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

TEST_P(PageReaderCodecTest, AnOfferedPageIsReturnedAtItsOffsetNotDecompressedAgain) {
  const Codec codec = GetParam();
  std::string chunk;
  for (uint8_t i = 0; i < 3; ++i) AppendPage(DataPage(3000, 3000), Compressed(codec, Pattern(3000, i)), &chunk);
  // A first reader of the chunk reaches page 1 and hands it on, as a batch
  // read again from an earlier row does.
  PageReader first = ReaderOver(chunk, codec);
  ASSERT_TRUE(first.Next().ok());
  auto held = first.Next();
  ASSERT_TRUE(held.ok() && held->has_value());
  const uint8_t* const held_bytes = (*held)->values.data();
  PageReader second = ReaderOver(chunk, codec);
  second.Offer(std::move(**held));
  for (uint8_t i = 0; i < 3; ++i) {
    auto page = second.Next();
    ASSERT_TRUE(page.ok() && page->has_value()) << page.status().ToString();
    EXPECT_EQ(Values(**page), Pattern(3000, i)) << "page " << i;
    // Page 1 is the offered one, its bytes where the first reader left them.
    EXPECT_EQ((*page)->values.data() == held_bytes, i == 1) << "page " << i;
  }

  // A page offered at an offset where no page starts is dropped once the
  // reader passes it; the pages read are the chunk's own.
  PageReader third = ReaderOver(chunk, codec);
  Page stray;
  stray.file_offset = 5;  // inside page 0's header
  const std::vector<uint8_t> stray_bytes(3000, 0xEE);
  stray.values = stray_bytes;
  third.Offer(std::move(stray));
  for (uint8_t i = 0; i < 3; ++i) {
    auto page = third.Next();
    ASSERT_TRUE(page.ok() && page->has_value()) << page.status().ToString();
    EXPECT_EQ(Values(**page), Pattern(3000, i)) << "page " << i;
  }
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

// ---- encrypted pages, with the spec's AAD written out by hand ---------------

// AES-128-GCM of `plain` as a Parquet module: length, nonce, ciphertext, tag.
std::string GcmModule(const std::string& key, const std::string& aad, const std::string& plain, uint8_t nonce_seed) {
  unsigned char nonce[12];
  for (int i = 0; i < 12; ++i) nonce[i] = static_cast<unsigned char>(nonce_seed + i);
  std::string cipher(plain.size(), '\0');
  unsigned char tag[16];
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  int n = 0;
  EXPECT_EQ(EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), nullptr, nullptr, nullptr), 1);
  EXPECT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, nullptr), 1);
  EXPECT_EQ(EVP_EncryptInit_ex(ctx, nullptr, nullptr, reinterpret_cast<const unsigned char*>(key.data()), nonce), 1);
  EXPECT_EQ(EVP_EncryptUpdate(ctx, nullptr, &n, reinterpret_cast<const unsigned char*>(aad.data()),
                              static_cast<int>(aad.size())),
            1);
  EXPECT_EQ(EVP_EncryptUpdate(ctx, reinterpret_cast<unsigned char*>(cipher.data()), &n,
                              reinterpret_cast<const unsigned char*>(plain.data()), static_cast<int>(plain.size())),
            1);
  EXPECT_EQ(EVP_EncryptFinal_ex(ctx, reinterpret_cast<unsigned char*>(cipher.data()) + n, &n), 1);
  EXPECT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag), 1);
  EVP_CIPHER_CTX_free(ctx);
  const auto length = static_cast<uint32_t>(12 + cipher.size() + 16);
  std::string module;
  for (int i = 0; i < 4; ++i) module.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
  module.append(reinterpret_cast<const char*>(nonce), 12);
  module += cipher;
  module.append(reinterpret_cast<const char*>(tag), 16);
  return module;
}

// spec 4.4.2: file AAD, module type, row group, column, [page], 16-bit LE.
std::string ModuleAad(const std::string& file_aad, uint8_t type, int row_group, int column, int page = -1) {
  std::string aad = file_aad;
  aad.push_back(static_cast<char>(type));
  for (const int v : {row_group, column, page}) {
    if (v < 0) break;
    aad.push_back(static_cast<char>(v & 0xff));
    aad.push_back(static_cast<char>(v >> 8));
  }
  return aad;
}

TEST(PageReaderTest, EncryptedCompressedV2PagesKeepTheirLevelsAndCountTheirOrdinals) {
  // Three compressed v2 data pages of one chunk (row group 3, column 5),
  // encrypted as a writer would: the levels stay with the decrypted page
  // while the values inflate elsewhere, and each page decrypts only under
  // its own ordinal.
  const std::string key = "abcdefghijklmnop";
  const std::string file_aad = "prefix-file-unique";
  std::string chunk;
  std::vector<std::string> levels, values;
  for (int page = 0; page < 3; ++page) {
    levels.push_back(std::string(6, static_cast<char>(0x10 + page)));
    values.push_back(std::string(3000, static_cast<char>('a' + page)));
    auto compressed = compression::Compress(compression::Codec::kSnappy,
                                            {reinterpret_cast<const uint8_t*>(values.back().data()), 3000});
    ASSERT_TRUE(compressed.ok());
    const std::string body = GcmModule(key, ModuleAad(file_aad, 2, 3, 5, page),
                                       levels.back() + std::string(compressed->view()), static_cast<uint8_t>(page));
    PageHeader header;
    header.type = PageType::DATA_PAGE_V2;
    header.uncompressed_page_size = static_cast<int32_t>(levels.back().size() + values.back().size());
    header.compressed_page_size = static_cast<int32_t>(body.size());
    header.data_page_header_v2 = DataPageHeaderV2{};
    header.data_page_header_v2->num_values = 3;
    header.data_page_header_v2->num_rows = 3;
    header.data_page_header_v2->definition_levels_byte_length = static_cast<int32_t>(levels.back().size());
    std::string encoded_header;
    ASSERT_TRUE(EncodePageHeader(header, &encoded_header).ok());
    chunk += GcmModule(key, ModuleAad(file_aad, 4, 3, 5, page), encoded_header, static_cast<uint8_t>(100 + page));
    chunk += body;
  }
  PageReaderOptions options;
  options.decryptor = ModuleDecryptor(key, file_aad, /*ctr_pages=*/false, 3, 5);
  PageReader reader(Buffer::CopyOf(chunk), 4, compression::Codec::kSnappy, options, "hand.parquet column x");
  std::vector<Page> pages;  // all held at once: each page's buffers stay its own
  for (int page = 0; page < 3; ++page) {
    auto next = reader.Next();
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    ASSERT_TRUE(next->has_value());
    pages.push_back(std::move(**next));
  }
  for (int page = 0; page < 3; ++page) {
    const Page& p = pages[static_cast<size_t>(page)];
    EXPECT_EQ(std::string(p.definition_levels.begin(), p.definition_levels.end()), levels[static_cast<size_t>(page)]);
    EXPECT_EQ(std::string(p.values.begin(), p.values.end()), values[static_cast<size_t>(page)]);
  }

  // Seeking to the third page with the wrong ordinal fails its tag; with the
  // right one it reads.
  size_t third = 0;
  for (int skip = 0; skip < 2; ++skip) {
    for (int module = 0; module < 2; ++module) {
      const auto* p = reinterpret_cast<const uint8_t*>(chunk.data()) + third;
      third += 4 + (size_t{p[0]} | size_t{p[1]} << 8 | size_t{p[2]} << 16 | size_t{p[3]} << 24);
    }
  }
  PageReader seeking(Buffer::CopyOf(chunk), 4, compression::Codec::kSnappy, options, "hand.parquet column x");
  ASSERT_TRUE(seeking.SeekTo(4 + static_cast<int64_t>(third), 1).ok());
  auto wrong = seeking.Next();
  ASSERT_FALSE(wrong.ok());
  EXPECT_TRUE(wrong.status().IsPermissionDenied()) << wrong.status().ToString();
  ASSERT_TRUE(seeking.SeekTo(4 + static_cast<int64_t>(third), 2).ok());
  auto right = seeking.Next();
  ASSERT_TRUE(right.ok()) << right.status().ToString();
  ASSERT_TRUE(right->has_value());
  EXPECT_EQ(std::string((*right)->values.begin(), (*right)->values.end()), values[2]);
}

}  // namespace
}  // namespace floe::parquet
