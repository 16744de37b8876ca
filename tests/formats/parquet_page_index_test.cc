// The page index as untrusted input: a column index whose lists do not
// have one entry per page is Corrupt when read, not indexed past its end by
// the readers that walk the pages (page skipping, `floe parquet pages`).

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/page_index.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace page_index_test {  // the unity build merges anonymous namespaces
namespace {

// A 1,000-row int64 column in pages of 100 rows, written by floe.
std::string WriteTenPages(const floe::testing::TempDir& dir) {
  const auto schema = testing::MakeSchema({Field("id", DataType::Int64(), false)});
  std::vector<std::optional<int64_t>> ids;
  for (int64_t i = 0; i < 1000; ++i) ids.push_back(i);
  WriterOptions options;
  options.page_rows = 100;
  const std::string path = dir.Join("ten_pages.parquet");
  EXPECT_TRUE(testing::WriteFile(path, schema, {testing::Batch(schema, {testing::Int64s(ids)})}, options).ok());
  return path;
}

// `path` again with the first chunk's column index changed by `edit`: the
// new index goes where the footer was, and the footer after it points there.
std::string WithColumnIndex(const floe::testing::TempDir& dir, const std::string& path,
                            const std::function<void(ColumnIndex*)>& edit) {
  const std::string bytes = testing::ReadFileBytes(path);
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  FileMetaData md = (*file)->metadata();
  ColumnChunk& chunk = md.row_groups[0].columns[0];
  const auto at = static_cast<size_t>(*chunk.column_index_offset);
  auto index = DecodeColumnIndex(testing::AsBytes(bytes.substr(at, static_cast<size_t>(*chunk.column_index_length))));
  EXPECT_TRUE(index.ok()) << index.status().ToString();
  edit(&*index);
  std::string encoded_index;
  EXPECT_TRUE(EncodeColumnIndex(*index, &encoded_index).ok());

  uint32_t footer_length = 0;
  std::memcpy(&footer_length, bytes.data() + bytes.size() - 8, 4);  // little-endian, as the file
  const size_t footer_start = bytes.size() - 8 - footer_length;
  chunk.column_index_offset = static_cast<int64_t>(footer_start);
  chunk.column_index_length = static_cast<int32_t>(encoded_index.size());
  std::string footer;
  EXPECT_TRUE(EncodeFileMetaData(md, &footer).ok());
  std::string out = bytes.substr(0, footer_start) + encoded_index + footer;
  const auto length = static_cast<uint32_t>(footer.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  out += "PAR1";
  const std::string edited = dir.Join("edited.parquet");
  std::ofstream(edited, std::ios::binary) << out;
  return edited;
}

Status ReadFirstChunksIndex(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto file, ParquetFileReader::Open(NewLocalFileIO(), path));
  const int columns[] = {0};
  return ReadPageIndex(*file, 0, columns).status();
}

TEST(ParquetPageIndexTest, AColumnIndexWhoseListsMissAPageIsCorrupt) {
  floe::testing::TempDir dir;
  const std::string path = WriteTenPages(dir);
  // The edit itself keeps a well-formed index readable: the control.
  EXPECT_TRUE(ReadFirstChunksIndex(WithColumnIndex(dir, path, [](ColumnIndex*) {})).ok());

  const std::vector<std::pair<std::string, std::function<void(ColumnIndex*)>>> edits = {
      {"9 min_values", [](ColumnIndex* ci) { ci->min_values.pop_back(); }},
      {"9 max_values", [](ColumnIndex* ci) { ci->max_values.pop_back(); }},
      {"11 null_counts", [](ColumnIndex* ci) { ci->null_counts.value().push_back(0); }},
  };
  for (const auto& [what, edit] : edits) {
    SCOPED_TRACE(what);
    const Status status = ReadFirstChunksIndex(WithColumnIndex(dir, path, edit));
    EXPECT_EQ(status.code(), StatusCode::kCorrupt) << status.ToString();
    EXPECT_NE(status.message().find("10 null_pages but "), std::string::npos) << status.ToString();
    EXPECT_NE(status.message().find(what), std::string::npos) << status.ToString();
  }
}

}  // namespace
}  // namespace page_index_test
}  // namespace floe::parquet
