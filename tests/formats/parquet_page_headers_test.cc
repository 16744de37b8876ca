// ReadPageHeaders (page_headers.h): every page of a column chunk from its
// header, without reading a page. Checked against the offset index of every
// parquet-testing file that has one (the writers' own record of where their
// data pages are), against parquet-mr's checksum files, and on encrypted
// chunks with and without their key.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/formats/parquet/page_headers.h"
#include "floe/formats/parquet/page_index.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"

namespace floe::parquet {
namespace page_headers_test {  // the unity build merges anonymous namespaces
namespace {

std::string Data(const std::string& name) { return testing::ParquetTestingDir() + "/data/" + name; }

std::unique_ptr<ParquetFileReader> OpenOrDie(const std::string& path, ReaderOptions options = {}) {
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path, std::move(options));
  EXPECT_TRUE(file.ok()) << path << ": " << file.status().ToString();
  return file.ok() ? std::move(*file) : nullptr;
}

TEST(ParquetPageHeadersTest, DataPagesAreWhereEveryWritersOffsetIndexSays) {
  int chunks_checked = 0;
  int pages_checked = 0;
  for (const std::string& path : testing::FilesEndingWith(testing::ParquetTestingDir() + "/data", ".parquet")) {
    auto opened = ParquetFileReader::Open(NewLocalFileIO(), path);
    if (!opened.ok()) continue;  // encrypted footers, which need keys; read elsewhere
    const ParquetFileReader& file = **opened;
    const bool malformed = testing::ShortName(path) == "data/nation.dict-malformed.parquet";
    for (int g = 0; g < file.num_row_groups(); ++g) {
      for (int c = 0; c < file.schema().num_columns(); ++c) {
        SCOPED_TRACE(testing::ShortName(path) + " row group " + std::to_string(g) + " column " + std::to_string(c));
        auto meta = file.ColumnChunkMeta(g, c);
        if (!meta.ok() || (*meta)->num_values == 0 || !file.ColumnDecryptor(g, c).ok()) continue;
        auto headers = ReadPageHeaders(file, g, c);
        if (malformed && !headers.ok()) {  // its string columns' pages run past their chunks
          EXPECT_EQ(headers.status().code(), StatusCode::kCorrupt) << headers.status().ToString();
          continue;
        }
        ASSERT_TRUE(headers.ok()) << headers.status().ToString();
        ASSERT_FALSE(headers->empty());
        // Data pages are numbered from 0 in file order; other pages are not numbered.
        std::vector<const StoredPageHeader*> data_pages;
        int64_t end = headers->front().file_offset;
        for (const StoredPageHeader& page : *headers) {
          EXPECT_EQ(page.file_offset, end) << "pages follow one another";
          end = page.file_offset + page.stored_size;
          const bool is_data = page.header.type == PageType::DATA_PAGE || page.header.type == PageType::DATA_PAGE_V2;
          EXPECT_EQ(page.data_page_ordinal, is_data ? static_cast<int32_t>(data_pages.size()) : -1);
          if (is_data) data_pages.push_back(&page);
        }
        const int one[] = {c};
        auto index = ReadPageIndex(file, g, one);
        ASSERT_TRUE(index.ok()) << index.status().ToString();
        if (!(*index)[0].offset_index) continue;
        const std::vector<PageLocation>& locations = (*index)[0].offset_index->page_locations;
        ASSERT_EQ(data_pages.size(), locations.size());
        for (size_t p = 0; p < locations.size(); ++p) {
          EXPECT_EQ(data_pages[p]->file_offset, locations[p].offset) << "page " << p;
          EXPECT_EQ(data_pages[p]->stored_size, locations[p].compressed_page_size) << "page " << p;
          ++pages_checked;
        }
        EXPECT_TRUE(OffsetIndexLocates(*(*index)[0].offset_index, *headers));
        // One page moved, dropped or added is not the same index.
        OffsetIndex moved = *(*index)[0].offset_index;
        moved.page_locations.back().offset += 1;
        EXPECT_FALSE(OffsetIndexLocates(moved, *headers));
        OffsetIndex shorter = *(*index)[0].offset_index;
        shorter.page_locations.pop_back();
        EXPECT_FALSE(OffsetIndexLocates(shorter, *headers));
        OffsetIndex longer = *(*index)[0].offset_index;
        longer.page_locations.push_back(longer.page_locations.back());
        EXPECT_FALSE(OffsetIndexLocates(longer, *headers));
        ++chunks_checked;
      }
    }
  }
  // Files from parquet-mr, parquet-cpp and arrow-rs have offset indexes.
  EXPECT_GE(chunks_checked, 100);
  EXPECT_GE(pages_checked, 1000);
}

TEST(ParquetPageHeadersTest, EachPageSaysWhetherItsBytesMatchItsCrc) {
  const auto crcs = [](const std::string& name, int column) {
    std::vector<std::string> out;
    auto file = OpenOrDie(Data(name));
    if (!file) return out;
    auto headers = ReadPageHeaders(*file, 0, column);
    EXPECT_TRUE(headers.ok()) << headers.status().ToString();
    if (!headers.ok()) return out;
    for (const StoredPageHeader& page : *headers) {
      out.push_back(!page.crc_matches ? "none" : *page.crc_matches ? "ok" : "mismatch");
    }
    return out;
  };
  using Crcs = std::vector<std::string>;
  EXPECT_EQ(crcs("datapage_v1-uncompressed-checksum.parquet", 0), (Crcs{"ok", "ok"}));
  EXPECT_EQ(crcs("datapage_v1-snappy-compressed-checksum.parquet", 1), (Crcs{"ok", "ok"}));
  // The altered page is listed, not refused: the walk never reads a page.
  EXPECT_EQ(crcs("datapage_v1-corrupt-checksum.parquet", 0), (Crcs{"mismatch", "ok"}));
  EXPECT_EQ(crcs("rle-dict-uncompressed-corrupt-checksum.parquet", 0), (Crcs{"mismatch", "none"}));
  EXPECT_EQ(crcs("alltypes_plain.parquet", 0), (Crcs{"none", "none"}));
}

TEST(ParquetPageHeadersTest, EncryptedHeadersDecryptWithTheColumnKeyAndAreRefusedWithout) {
  const std::string path = Data("encrypt_columns_and_footer.parquet.encrypted");
  auto keys = std::make_shared<DecryptionKeys>();
  keys->footer_key = "0123456789012345";  // data/README.md's keys
  ReaderOptions footer_only;
  footer_only.decryption = keys;
  auto file = OpenOrDie(path, footer_only);
  ASSERT_NE(file, nullptr);
  int double_field = -1;  // encrypted with its own key
  for (int c = 0; c < file->schema().num_columns(); ++c) {
    if (file->schema().column(c).dotted_path() == "double_field") double_field = c;
  }
  ASSERT_GE(double_field, 0);
  auto refused = ReadPageHeaders(*file, 0, double_field);
  EXPECT_EQ(refused.status().code(), StatusCode::kPermissionDenied) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("'double_field'"), std::string::npos) << refused.status().ToString();

  auto with_column_key = std::make_shared<DecryptionKeys>(*keys);
  with_column_key->column_keys = {{"double_field", "1234567890123450"}};
  ReaderOptions all_keys;
  all_keys.decryption = with_column_key;
  auto keyed = OpenOrDie(path, all_keys);
  ASSERT_NE(keyed, nullptr);
  auto headers = ReadPageHeaders(*keyed, 0, double_field);
  ASSERT_TRUE(headers.ok()) << headers.status().ToString();
  const int one[] = {double_field};
  auto index = ReadPageIndex(*keyed, 0, one);
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  ASSERT_TRUE((*index)[0].offset_index);
  const std::vector<PageLocation>& locations = (*index)[0].offset_index->page_locations;
  size_t data_pages = 0;
  int64_t values = 0;
  for (const StoredPageHeader& page : *headers) {
    if (page.data_page_ordinal < 0) continue;
    ASSERT_LT(data_pages, locations.size());
    EXPECT_EQ(page.file_offset, locations[data_pages].offset);
    EXPECT_EQ(page.stored_size, locations[data_pages].compressed_page_size);
    values += page.header.data_page_header ? page.header.data_page_header->num_values
                                           : page.header.data_page_header_v2->num_values;
    ++data_pages;
  }
  EXPECT_EQ(data_pages, locations.size());
  EXPECT_EQ(values, (*keyed->ColumnChunkMeta(0, double_field))->num_values);
}

TEST(ParquetPageHeadersTest, BadRowGroupsColumnsAndPagesAreNamed) {
  auto file = OpenOrDie(Data("alltypes_plain.parquet"));
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(ReadPageHeaders(*file, 1, 0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadPageHeaders(*file, 0, -1).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadPageHeaders(*file, 0, file->schema().num_columns()).status().code(), StatusCode::kInvalidArgument);

  auto malformed = OpenOrDie(Data("nation.dict-malformed.parquet"));
  ASSERT_NE(malformed, nullptr);
  const Status status = ReadPageHeaders(*malformed, 0, 1).status();
  EXPECT_EQ(status.code(), StatusCode::kCorrupt);
  EXPECT_NE(status.message().find("column 'name' in row group 0: page at byte 421: compressed_page_size 28 runs past"),
            std::string::npos)
      << status.ToString();
}

}  // namespace
}  // namespace page_headers_test
}  // namespace floe::parquet
