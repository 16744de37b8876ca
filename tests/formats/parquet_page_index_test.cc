// The page index as untrusted input: a column index whose lists do not
// have one entry per page is Corrupt when read, not indexed past its end by
// the readers that walk the pages (page skipping, `floe parquet pages`).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/page_index.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/parquet/statistics_filter.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace page_index_test {  // the unity build merges anonymous namespaces
namespace {

// A 1,000-row int64 column (ids 0..999, no nulls) in pages of 100 rows,
// written by floe.
std::string WriteTenPages(const floe::testing::TempDir& dir, bool nullable = false) {
  const auto schema = testing::MakeSchema({Field("id", DataType::Int64(), nullable)});
  std::vector<std::optional<int64_t>> ids;
  for (int64_t i = 0; i < 1000; ++i) ids.push_back(i);
  WriterOptions options;
  options.page_rows = 100;
  const std::string path = dir.Join(nullable ? "ten_pages_nullable.parquet" : "ten_pages.parquet");
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

// The values of column 0 (int32 or int64) in the rows a scan filtered by
// `predicate` keeps, in the order read.
std::vector<int64_t> RowsKept(const std::string& path, ColumnPredicate predicate) {
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  if (!file.ok()) return {};
  ScanOptions options;
  options.filter = {std::move(predicate)};
  auto batches = ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(*file)), options);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  std::vector<int64_t> values;
  for (const RecordBatch& batch : batches.ok() ? *batches : std::vector<RecordBatch>()) {
    const Array& column = batch.column(0);
    for (int64_t i = 0; i < column.length(); ++i) {
      values.push_back(column.type_id() == TypeId::kInt32 ? column.Values<int32_t>()[i] : column.Values<int64_t>()[i]);
    }
  }
  return values;
}

TEST(ParquetPageIndexTest, AColumnIndexContradictingItsColumnIsNotUsedToPrune) {
  floe::testing::TempDir dir;
  const std::string required = WriteTenPages(dir);
  const std::string nullable = WriteTenPages(dir, /*nullable=*/true);
  const ColumnPredicate id_350{0, ColumnPredicate::Op::kEq, {PlainInt64(350)}};
  // The control: a sound index keeps page 3 alone.
  EXPECT_EQ(RowsKept(required, id_350).size(), 100u);

  struct Case {
    std::string what;
    const std::string* file;
    std::function<void(ColumnIndex*)> edit;
    std::string why;
  };
  const std::vector<Case> cases = {
      {"page 3 of the required column marked null", &required,
       [](ColumnIndex* ci) { ci->null_pages[3] = true; },
       "page 3 of a column without nulls is marked as holding only nulls"},
      {"a negative null count, as parquet-mr 1.13 wrote", &required,
       [](ColumnIndex* ci) { (*ci->null_counts)[3] = -1; }, "page 3 has a null count of -1"},
      {"page 3 of the nullable column marked null, with no nulls counted", &nullable,
       [](ColumnIndex* ci) { ci->null_pages[3] = true; },
       "page 3 is marked as holding only nulls but counts 0 nulls in 100 rows"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string edited = WithColumnIndex(dir, *c.file, c.edit);
    auto file = ParquetFileReader::Open(NewLocalFileIO(), edited);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    const int columns[] = {0};
    auto index = ReadPageIndex(**file, 0, columns);
    ASSERT_TRUE(index.ok()) << index.status().ToString();
    EXPECT_FALSE((*index)[0].column_index.has_value());
    EXPECT_TRUE((*index)[0].offset_index.has_value());
    EXPECT_EQ((*index)[0].column_index_unused, c.why);
    // Trusted, the index would drop the page that holds 350; unused, every
    // page is read and the caller's filter finds the row.
    const std::vector<int64_t> kept = RowsKept(edited, id_350);
    EXPECT_EQ(kept.size(), 1000u);
    EXPECT_NE(std::find(kept.begin(), kept.end(), 350), kept.end());
  }

  // parquet-mr's checksum files: every page of required column 'a' marked
  // null with a null count of -1. Their first value is found all the same.
  const std::string checksum = testing::ParquetTestingDir() + "/data/datapage_v1-uncompressed-checksum.parquet";
  const std::vector<int64_t> all = RowsKept(checksum, ColumnPredicate{0, ColumnPredicate::Op::kIsNotNull, {}});
  ASSERT_EQ(all.size(), 5120u);
  const std::vector<int64_t> first =
      RowsKept(checksum, ColumnPredicate{0, ColumnPredicate::Op::kEq, {PlainInt32(static_cast<int32_t>(all[0]))}});
  EXPECT_EQ(first.size(), 5120u);
}

}  // namespace
}  // namespace page_index_test
}  // namespace floe::parquet
