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
#include "floe/formats/parquet/reader/column_reader.h"
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

// `path` again with the first chunk's column index (or offset index)
// replaced by `encoded`: the new index goes where the footer was, and the
// footer after it points there.
std::string WithIndexReplaced(const floe::testing::TempDir& dir, const std::string& path, bool offset_index,
                              const std::string& encoded) {
  const std::string bytes = testing::ReadFileBytes(path);
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  FileMetaData md = (*file)->metadata();
  ColumnChunk& chunk = md.row_groups[0].columns[0];
  uint32_t footer_length = 0;
  std::memcpy(&footer_length, bytes.data() + bytes.size() - 8, 4);  // little-endian, as the file
  const size_t footer_start = bytes.size() - 8 - footer_length;
  (offset_index ? chunk.offset_index_offset : chunk.column_index_offset) = static_cast<int64_t>(footer_start);
  (offset_index ? chunk.offset_index_length : chunk.column_index_length) = static_cast<int32_t>(encoded.size());
  std::string footer;
  EXPECT_TRUE(EncodeFileMetaData(md, &footer).ok());
  std::string out = bytes.substr(0, footer_start) + encoded + footer;
  const auto length = static_cast<uint32_t>(footer.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  out += "PAR1";
  const std::string edited = dir.Join("edited.parquet");
  std::ofstream(edited, std::ios::binary) << out;
  return edited;
}

// The bytes of the first chunk's index of `path` that `offset` and `length` locate.
std::span<const uint8_t> IndexBytes(const std::string& bytes, std::optional<int64_t> offset,
                                    std::optional<int32_t> length) {
  return testing::AsBytes(std::string_view(bytes).substr(static_cast<size_t>(*offset), static_cast<size_t>(*length)));
}

// `path` again with the first chunk's column index changed by `edit`.
std::string WithColumnIndex(const floe::testing::TempDir& dir, const std::string& path,
                            const std::function<void(ColumnIndex*)>& edit) {
  const std::string bytes = testing::ReadFileBytes(path);
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  const ColumnChunk& chunk = (*file)->metadata().row_groups[0].columns[0];
  auto index = DecodeColumnIndex(IndexBytes(bytes, chunk.column_index_offset, chunk.column_index_length));
  EXPECT_TRUE(index.ok()) << index.status().ToString();
  edit(&*index);
  std::string encoded;
  EXPECT_TRUE(EncodeColumnIndex(*index, &encoded).ok());
  return WithIndexReplaced(dir, path, /*offset_index=*/false, encoded);
}

// `path` again with the first chunk's offset index changed by `edit`.
std::string WithOffsetIndex(const floe::testing::TempDir& dir, const std::string& path,
                            const std::function<void(OffsetIndex*)>& edit) {
  const std::string bytes = testing::ReadFileBytes(path);
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  const ColumnChunk& chunk = (*file)->metadata().row_groups[0].columns[0];
  auto index = DecodeOffsetIndex(IndexBytes(bytes, chunk.offset_index_offset, chunk.offset_index_length));
  EXPECT_TRUE(index.ok()) << index.status().ToString();
  edit(&*index);
  std::string encoded;
  EXPECT_TRUE(EncodeOffsetIndex(*index, &encoded).ok());
  return WithIndexReplaced(dir, path, /*offset_index=*/true, encoded);
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
      {"page 3 of the required column marked null", &required, [](ColumnIndex* ci) { ci->null_pages[3] = true; },
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

TEST(ParquetPageIndexTest, ARowSelectionRefusesPagesTheOffsetIndexMisplaces) {
  floe::testing::TempDir dir;
  const std::string path = WriteTenPages(dir);
  const ColumnPredicate id_350{0, ColumnPredicate::Op::kEq, {PlainInt64(350)}};
  // The control: the edit itself keeps a sound offset index sound.
  const std::string unedited = WithOffsetIndex(dir, path, [](OffsetIndex*) {});
  EXPECT_EQ(RowsKept(unedited, id_350).size(), 100u);

  // Page 3 said to start at row 250 (it starts at 300): the scan of rows
  // 250..399 jumps to page 3, which holds 100 rows where the index gives it
  // 150 (250..399), and would have read values 300..399 as rows 250..349.
  const std::string misplaced =
      WithOffsetIndex(dir, path, [](OffsetIndex* index) { index->page_locations[3].first_row_index = 250; });
  auto file = ParquetFileReader::Open(NewLocalFileIO(), misplaced);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ScanOptions options;
  options.filter = {id_350};
  const auto batches = ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(*file)), options);
  EXPECT_EQ(batches.status().code(), StatusCode::kCorrupt) << batches.status().ToString();
  EXPECT_NE(batches.status().message().find("column 'id' in row group 0: page at byte "), std::string::npos)
      << batches.status().ToString();
  EXPECT_NE(batches.status().message().find("data page 3 holds 100 rows, the offset index says 150"), std::string::npos)
      << batches.status().ToString();
  // Read whole, without a selection, the file's rows are all there.
  EXPECT_EQ(RowsKept(misplaced, ColumnPredicate{0, ColumnPredicate::Op::kIsNotNull, {}}).size(), 1000u);
}

// A chunk of `repeated int32 x` in two v1 pages, the second of which starts
// inside the record the first began: [1, 2], [3, 4], [5] as levels
// rep 0 1 0 | 1 0, all defined.
struct RecordSplitAcrossPages {
  ParquetSchema schema;
  ColumnMetaData meta;
  std::string chunk;
  OffsetIndex index;
  static constexpr int64_t kChunkOffset = 4;

  static Result<RecordSplitAcrossPages> Make() {
    RecordSplitAcrossPages out;
    SchemaElement root;
    root.name = "schema";
    root.num_children = 1;
    SchemaElement leaf;
    leaf.name = "x";
    leaf.type = Type::INT32;
    leaf.repetition_type = FieldRepetitionType::REPEATED;
    FLOE_ASSIGN_OR_RETURN(out.schema, ParquetSchema::Make({root, leaf}));
    // v1 levels: each section behind its 4-byte length. A bit-packed run of
    // one group (header 0x03) of 1-bit levels, or an RLE run of ones.
    const auto page = [](std::string rep_bits, int32_t values, std::vector<int32_t> ints) {
      std::string body = std::string("\x02\x00\x00\x00\x03", 5) + rep_bits;
      body += std::string("\x02\x00\x00\x00", 4) + static_cast<char>(values << 1) + '\x01';
      for (const int32_t v : ints) body += PlainInt32(v);
      PageHeader header;
      header.type = PageType::DATA_PAGE;
      header.uncompressed_page_size = static_cast<int32_t>(body.size());
      header.compressed_page_size = static_cast<int32_t>(body.size());
      header.data_page_header = DataPageHeader{};
      header.data_page_header->num_values = values;
      std::string bytes;
      EXPECT_TRUE(EncodePageHeader(header, &bytes).ok());
      return bytes + body;
    };
    const std::string first = page("\x02", 3, {1, 2, 3});  // rep 0 1 0
    const std::string second = page("\x01", 2, {4, 5});    // rep 1 0
    out.chunk = first + second;
    out.meta.type = Type::INT32;
    out.meta.codec = CompressionCodec::UNCOMPRESSED;
    out.meta.num_values = 5;
    // What such a writer's index says: the second page's first record is row 2.
    out.index.page_locations = {
        PageLocation{kChunkOffset, static_cast<int32_t>(first.size()), 0},
        PageLocation{kChunkOffset + static_cast<int64_t>(first.size()), static_cast<int32_t>(second.size()), 2}};
    return out;
  }

  // Skips `skip` records, then reads `read` into `out`.
  Status Read(const OffsetIndex* offset_index, int64_t skip, int64_t read, LeafBatch* out) const {
    FLOE_ASSIGN_OR_RETURN(auto reader, ColumnReader::Make(schema.column(0), meta, Buffer::CopyOf(chunk), kChunkOffset,
                                                          PageReaderOptions{}, "hand.parquet column x"));
    reader->SetOffsetIndex(offset_index);
    FLOE_ASSIGN_OR_RETURN(const int64_t skipped, reader->SkipRecords(skip));
    if (skipped != skip) return Status::Internal(StrCat("skipped ", skipped, " of ", skip, " records"));
    return reader->ReadRecords(read, out);
  }
};

TEST(ParquetPageIndexTest, APageStartingInsideARecordIsRefusedToRowSelection) {
  auto split = RecordSplitAcrossPages::Make();
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  // Without an offset index, records are found by their levels: the third
  // record is [5].
  LeafBatch third;
  const Status read = split->Read(nullptr, 2, 1, &third);
  ASSERT_TRUE(read.ok()) << read.ToString();
  EXPECT_EQ(third.num_records, 1);
  EXPECT_EQ(third.rep_levels, (std::vector<int16_t>{0}));
  // Through the offset index the reader jumps to the second page for row 2,
  // whose first level continues the second record: it would have read
  // [4, 5] as rows. Corrupt instead.
  LeafBatch jumped;
  const Status refused = split->Read(&split->index, 2, 1, &jumped);
  EXPECT_EQ(refused.code(), StatusCode::kCorrupt) << refused.ToString();
  EXPECT_NE(refused.message().find("data page 1 starts inside a record"), std::string::npos) << refused.ToString();
  // An index that puts the second page at row 3 is refused when the reader
  // gets there from the first, which holds 2.
  OffsetIndex late = split->index;
  late.page_locations[1].first_row_index = 3;
  LeafBatch all;
  const Status misplaced = split->Read(&late, 0, 3, &all);
  EXPECT_EQ(misplaced.code(), StatusCode::kCorrupt) << misplaced.ToString();
  EXPECT_NE(
      misplaced.message().find("the offset index says data page 1 starts at row 3, the pages before it hold 2 rows"),
      std::string::npos)
      << misplaced.ToString();
}

}  // namespace
}  // namespace page_index_test
}  // namespace floe::parquet
