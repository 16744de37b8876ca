// Files of parquet-mr 1.2.8 and older, whose total_compressed_size left out
// the dictionary page header (PARQUET-816, IMPALA-694): floe reads their
// chunks on past the stated size and ends them by their values. The files
// are floe's own, with the footer rewritten as such a writer left it: the
// sizes short by each dictionary page header, created_by naming it. The
// same footer naming parquet-mr 1.2.9 is Corrupt, as the sizes say.

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/strings.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/page_headers.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace old_parquet_mr_test {  // the unity build merges anonymous namespaces
namespace {

// floe's file at `path` with its footer rewritten: created_by `created_by`,
// each chunk's total_compressed_size less its dictionary page header.
std::string AsOldParquetMr(const std::string& path, const std::string& created_by) {
  const std::string bytes = testing::ReadFileBytes(path);
  uint32_t footer_length = 0;
  std::memcpy(&footer_length, bytes.data() + bytes.size() - 8, 4);
  const size_t footer_start = bytes.size() - 8 - footer_length;
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  auto metadata = DecodeFileMetaData(std::span<const uint8_t>(data + footer_start, footer_length));
  EXPECT_TRUE(metadata.ok()) << metadata.status().ToString();
  metadata->created_by = created_by;
  for (RowGroup& row_group : metadata->row_groups) {
    for (ColumnChunk& chunk : row_group.columns) {
      ColumnMetaData& meta = *chunk.meta_data;
      if (!meta.dictionary_page_offset) continue;
      size_t header_size = 0;
      const auto offset = static_cast<size_t>(*meta.dictionary_page_offset);
      EXPECT_TRUE(DecodePageHeader(std::span<const uint8_t>(data + offset, bytes.size() - offset), &header_size).ok());
      meta.total_compressed_size -= static_cast<int64_t>(header_size);
    }
  }
  std::string footer;
  EXPECT_TRUE(EncodeFileMetaData(*metadata, &footer).ok());
  std::string out = bytes.substr(0, footer_start) + footer;
  const auto length = static_cast<uint32_t>(footer.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  out += "PAR1";
  const std::string old_path = path + "." + std::to_string(std::hash<std::string>{}(created_by)) + ".parquet";
  EXPECT_TRUE(NewLocalFileIO()->WriteAll(old_path, out).ok());
  return old_path;
}

Result<std::vector<RecordBatch>> ReadAll(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto file, ParquetFileReader::Open(NewLocalFileIO(), path));
  return ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(file)));
}

TEST(OldParquetMrTest, ChunksShortByTheirDictionaryHeaderReadWhole) {
  floe::testing::TempDir dir;
  // Two row groups of dictionary-encoded int64s and strings, several pages
  // each, no page index (those writers had none).
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<std::string>> names;
  for (int64_t i = 0; i < 3000; ++i) {
    ids.push_back(i % 7);
    names.push_back(i % 11 == 0 ? std::nullopt : std::optional<std::string>(StrCat("name-", i % 13)));
  }
  auto schema = testing::MakeSchema({Field("id", DataType::Int64(), false), Field("name", DataType::Utf8())});
  WriterOptions options;
  options.page_index = false;
  options.page_rows = 500;
  options.row_group_rows = 2000;
  const std::string path = dir.Join("new.parquet");
  ASSERT_TRUE(testing::WriteFile(path, schema,
                                 {testing::Batch(schema, {testing::Int64s(ids), testing::Strings(names)})}, options)
                  .ok());
  auto expected = ReadAll(path);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();

  for (const std::string created_by : {"parquet-mr version 1.2.8 (build 0)", "parquet-mr"}) {
    const std::string old = AsOldParquetMr(path, created_by);
    auto batches = ReadAll(old);
    ASSERT_TRUE(batches.ok()) << created_by << ": " << batches.status().ToString();
    ASSERT_EQ(batches->size(), expected->size()) << created_by;
    for (size_t b = 0; b < batches->size(); ++b) {
      EXPECT_TRUE(ArrayEquals((*batches)[b].column(0), (*expected)[b].column(0))) << created_by << " batch " << b;
      EXPECT_TRUE(ArrayEquals((*batches)[b].column(1), (*expected)[b].column(1))) << created_by << " batch " << b;
    }
    // `floe parquet pages` walks the same pages, and no more.
    auto file = ParquetFileReader::Open(NewLocalFileIO(), old);
    ASSERT_TRUE(file.ok());
    auto original = ParquetFileReader::Open(NewLocalFileIO(), path);
    ASSERT_TRUE(original.ok());
    for (int g = 0; g < 2; ++g) {
      for (int c = 0; c < 2; ++c) {
        auto pages = ReadPageHeaders(**file, g, c);
        ASSERT_TRUE(pages.ok()) << created_by << ": " << pages.status().ToString();
        auto original_pages = ReadPageHeaders(**original, g, c);
        ASSERT_TRUE(original_pages.ok()) << original_pages.status().ToString();
        ASSERT_EQ(pages->size(), original_pages->size()) << created_by;
        for (size_t p = 0; p < pages->size(); ++p) {
          EXPECT_EQ((*pages)[p].file_offset, (*original_pages)[p].file_offset) << created_by << " page " << p;
        }
      }
    }
  }

  // parquet-mr 1.2.9 counted the header: the same sizes are then short.
  auto fixed = ReadAll(AsOldParquetMr(path, "parquet-mr version 1.2.9 (build 0)"));
  ASSERT_FALSE(fixed.ok());
  EXPECT_TRUE(fixed.status().IsCorrupt()) << fixed.status().ToString();
  EXPECT_NE(fixed.status().message().find("runs past the column chunk"), std::string::npos)
      << fixed.status().ToString();
}

}  // namespace
}  // namespace old_parquet_mr_test
}  // namespace floe::parquet
