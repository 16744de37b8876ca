// ParquetRecordBatchReader on other engines' files: projection, batching,
// row groups, request counts, damaged input and storage faults. Values of
// every parquet-testing file are checked against DuckDB by
// parquet_conformance.mjs; here the API's behaviour is pinned down.

#include "floe/formats/parquet/record_batch_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "floe/base/strings.h"

#include "floe/columnar/batch_printer.h"
#include "floe/io/fault_injecting_file_io.h"
#include "floe/io/file_io.h"
#include "floe/io/tracing_file_io.h"
#include "floe/formats/parquet/page_index.h"
#include "parquet_fixtures.h"

namespace floe::parquet {
namespace {

using testing::FilesEndingWith;
using testing::ParquetTestingDir;
using testing::ShortName;

std::string Data(const std::string& name) { return ParquetTestingDir() + "/data/" + name; }

std::shared_ptr<const ParquetFileReader> OpenOrDie(const std::string& path, ReaderOptions options = {},
                                                   std::shared_ptr<FileIO> io = NewLocalFileIO()) {
  auto reader = ParquetFileReader::Open(std::move(io), path, options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::shared_ptr<const ParquetFileReader>(std::move(*reader)) : nullptr;
}

// The batches as JSON lines, for exact comparisons.
std::string AsJsonLines(const std::shared_ptr<const Schema>& schema, const std::vector<RecordBatch>& batches) {
  auto text = FormatBatches(schema, batches, PrintOptions{OutputFormat::kJsonl});
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  return text.ok() ? *text : "";
}

int64_t TotalRows(const std::vector<RecordBatch>& batches) {
  int64_t rows = 0;
  for (const RecordBatch& b : batches) rows += b.num_rows();
  return rows;
}

// The rows as JSON lines, one string each.
std::vector<std::string> JsonRows(const std::shared_ptr<const Schema>& schema, const std::vector<RecordBatch>& batches) {
  std::vector<std::string> rows;
  const std::string text = AsJsonLines(schema, batches);
  for (const std::string_view line : Split(text, '\n')) {
    if (!line.empty()) rows.emplace_back(line);
  }
  return rows;
}

TEST(ParquetReaderTest, ReadsNestedImpalaFileWithExactValues) {
  auto file = OpenOrDie(Data("nullable.impala.parquet"));
  ASSERT_NE(file, nullptr);
  ScanOptions options;
  options.columns = std::vector<std::string>{"id", "int_array", "int_map"};
  auto batches = ReadAllBatches(file, options);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(TotalRows(*batches), 7);
  auto reader = ParquetRecordBatchReader::Make(file, options);
  ASSERT_TRUE(reader.ok());
  const std::string json = AsJsonLines((*reader)->schema(), *batches);
  // Null list vs empty list vs list of nulls, and a map with a null value.
  EXPECT_NE(json.find(R"({"id":1,"int_array":[1,2,3],"int_map":{"k1":1,"k2":100}})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"({"id":2,"int_array":[null,1,2,null,3,null],"int_map":{"k1":2,"k2":null}})"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"({"id":3,"int_array":[],"int_map":{}})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"({"id":4,"int_array":null,"int_map":{}})"), std::string::npos) << json;
  for (const RecordBatch& batch : *batches) {
    for (const Array& column : batch.columns()) EXPECT_TRUE(column.Validate().ok()) << column.Validate().ToString();
  }
}

TEST(ParquetReaderTest, BatchSizeDoesNotChangeTheRows) {
  for (const char* name : {"nested_lists.snappy.parquet", "nullable.impala.parquet", "alltypes_tiny_pages.parquet",
                           "repeated_no_annotation.parquet", "datapage_v2.snappy.parquet"}) {
    SCOPED_TRACE(name);
    auto file = OpenOrDie(Data(name));
    ASSERT_NE(file, nullptr);
    auto whole = ReadAllBatches(file);
    ASSERT_TRUE(whole.ok()) << whole.status().ToString();
    for (const int64_t batch_size : {1, 3, 1000}) {
      ScanOptions options;
      options.batch_size = batch_size;
      auto small = ReadAllBatches(file, options);
      ASSERT_TRUE(small.ok()) << small.status().ToString();
      for (const RecordBatch& b : *small) EXPECT_LE(b.num_rows(), batch_size);
      auto schema = std::make_shared<const Schema>(file->schema().schema());
      EXPECT_EQ(AsJsonLines(schema, *small), AsJsonLines(schema, *whole)) << "batch size " << batch_size;
    }
  }
}

TEST(ParquetReaderTest, ProjectsByNameAndFieldIdInTheGivenOrder) {
  auto file = OpenOrDie(Data("alltypes_plain.parquet"));
  ASSERT_NE(file, nullptr);
  ScanOptions by_name;
  by_name.columns = std::vector<std::string>{"string_col", "id"};
  auto reader = ParquetRecordBatchReader::Make(file, by_name);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->schema()->ToString(), "string_col: binary, id: int32");
  auto batch = (*reader)->Next();
  ASSERT_TRUE(batch.ok() && batch->has_value());
  EXPECT_EQ((*batch)->num_rows(), 8);
  EXPECT_EQ((*batch)->column(1).Values<int32_t>()[0], 4);

  ScanOptions unknown;
  unknown.columns = std::vector<std::string>{"nope"};
  auto bad = ParquetRecordBatchReader::Make(file, unknown);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("'nope'"), std::string::npos) << bad.status().ToString();

  // No field of this file has ids: nothing is selected, rows still count.
  ScanOptions by_id;
  by_id.field_ids = std::vector<int32_t>{1, 2};
  auto none = ReadAllBatches(file, by_id);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(TotalRows(*none), 8);
  for (const RecordBatch& b : *none) EXPECT_EQ(b.num_columns(), 0);
}

TEST(ParquetReaderTest, ReadsChosenRowGroupsOnly) {
  auto file = OpenOrDie(Data("alltypes_tiny_pages.parquet"));
  ASSERT_NE(file, nullptr);
  ScanOptions options;
  // emplace(), not assignment: GCC 12 sees a false maybe-uninitialized in
  // optional<vector>'s move-assignment here.
  options.row_groups.emplace();
  auto none = ReadAllBatches(file, options);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(TotalRows(*none), 0);
  options.row_groups.emplace(1, file->num_row_groups());
  EXPECT_EQ(ParquetRecordBatchReader::Make(file, options).status().code(), StatusCode::kInvalidArgument);
  options.row_groups.emplace(1, 0);
  auto one = ReadAllBatches(file, options);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(TotalRows(*one), file->metadata().row_groups[0].num_rows);
}

TEST(ParquetReaderTest, ReadersSharingARowGroupCounterReadEachRowGroupOnce) {
  auto file = OpenOrDie(Data("floating_orders_nan_count.parquet"));
  ASSERT_NE(file, nullptr);
  ASSERT_GT(file->num_row_groups(), 2);
  auto whole = ReadAllBatches(file);
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  auto schema = std::make_shared<const Schema>(file->schema().schema());
  std::vector<std::string> expected = JsonRows(schema, *whole);

  // Two readers take turns pulling from one counter, as two threads would;
  // between them they return every row exactly once.
  std::atomic<int> next{0};
  std::vector<int> handed_out;
  ScanOptions options;
  options.next_row_group = [&]() -> std::optional<int> {
    const int rg = next.fetch_add(1);
    if (rg >= file->num_row_groups()) return std::nullopt;
    handed_out.push_back(rg);
    return rg;
  };
  auto first = ParquetRecordBatchReader::Make(file, options);
  auto second = ParquetRecordBatchReader::Make(file, options);
  ASSERT_TRUE(first.ok() && second.ok());
  std::vector<RecordBatch> batches;
  bool first_done = false, second_done = false;
  while (!first_done || !second_done) {
    for (auto* reader : {first->get(), second->get()}) {
      bool& done = reader == first->get() ? first_done : second_done;
      if (done) continue;
      auto batch = reader->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (!*batch) {
        done = true;
      } else {
        batches.push_back(std::move(**batch));
      }
    }
  }
  EXPECT_EQ(handed_out.size(), static_cast<size_t>(file->num_row_groups()));
  std::vector<std::string> got = JsonRows(schema, batches);
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
  EXPECT_EQ((*first)->metrics().row_groups + (*second)->metrics().row_groups, file->num_row_groups());
  EXPECT_GT((*first)->metrics().row_groups, 0);
  EXPECT_GT((*second)->metrics().row_groups, 0);

  // An index the file does not have is the caller's error, named as such.
  ScanOptions bad;
  bad.next_row_group = [&]() -> std::optional<int> { return file->num_row_groups(); };
  auto reader = ParquetRecordBatchReader::Make(file, bad);
  ASSERT_TRUE(reader.ok());
  auto batch = (*reader)->Next();
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(batch.status().message().find("next_row_group"), std::string::npos) << batch.status().ToString();
}

TEST(ParquetReaderTest, FetchesEachRowGroupWithOneCoalescedRequest) {
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewLocalFileIO(), trace);
  // Five row groups; the smallest tail read, so that they are not in it.
  ReaderOptions options;
  options.footer_read_size = 8;
  auto file = OpenOrDie(Data("floating_orders_nan_count.parquet"), options, io);
  ASSERT_NE(file, nullptr);
  ASSERT_GT(file->num_row_groups(), 1);
  const int64_t open_requests = trace->totals().gets;
  auto batches = ReadAllBatches(file);
  ASSERT_TRUE(batches.ok());
  EXPECT_EQ(trace->totals().gets - open_requests, file->num_row_groups()) << trace->Format();
}

TEST(ParquetReaderTest, SmallFileIsReadByItsTailReadAlone) {
  // The default 8 KiB tail read holds the whole of a small file: its row
  // groups come from those bytes, not from more requests.
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewLocalFileIO(), trace);
  auto file = OpenOrDie(Data("alltypes_plain.snappy.parquet"), {}, io);
  ASSERT_NE(file, nullptr);
  ASSERT_LT(file->file_size(), 8 * 1024);
  auto batches = ReadAllBatches(file);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(TotalRows(*batches), file->num_rows());
  EXPECT_EQ(trace->totals().gets, 1) << trace->Format();
  EXPECT_EQ(trace->totals().bytes_read, file->file_size());
}

TEST(ParquetReaderTest, EveryBadDataFileGetsAClearError) {
  const auto files = FilesEndingWith(ParquetTestingDir() + "/bad_data", ".parquet");
  ASSERT_GE(files.size(), 8u);
  for (const std::string& path : files) {
    SCOPED_TRACE(ShortName(path));
    if (ShortName(path) == "bad_data/ARROW-GH-43605.parquet") continue;  // valid data; see the next test
    auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
    Status status = file.status();
    if (file.ok()) status = ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(*file))).status();
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.code(), StatusCode::kCorrupt) << status.ToString();
    EXPECT_NE(status.message().find(path), std::string::npos) << "the message names the file: " << status.ToString();
    EXPECT_EQ(status.message().find('\n'), std::string::npos) << "one line: " << status.ToString();
  }
}

TEST(ParquetReaderTest, ReadsDictionaryPageWithZeroBitWidthIndices) {
  // ARROW-GH-43605 crashed Arrow: RLE_DICTIONARY indices of bit width 0 are
  // all 0, which is valid. DuckDB reads 21186 zeros too.
  auto file = OpenOrDie(ParquetTestingDir() + "/bad_data/ARROW-GH-43605.parquet");
  ASSERT_NE(file, nullptr);
  auto batches = ReadAllBatches(file);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(TotalRows(*batches), 21186);
  for (const RecordBatch& b : *batches) {
    const Array& column = b.column(0);
    ASSERT_EQ(column.type_id(), TypeId::kUInt16);
    for (int64_t i = 0; i < column.length(); ++i) ASSERT_EQ(column.Values<uint16_t>()[i], 0);
  }
}

TEST(ParquetReaderTest, ChecksumsAreVerifiedUnlessTurnedOff) {
  auto strict = OpenOrDie(Data("datapage_v1-corrupt-checksum.parquet"));
  ASSERT_NE(strict, nullptr);
  const Status status = ReadAllBatches(strict).status();
  EXPECT_EQ(status.code(), StatusCode::kCorrupt);
  EXPECT_NE(status.message().find("CRC mismatch"), std::string::npos) << status.ToString();

  ReaderOptions lax;
  lax.verify_page_checksums = false;
  auto file = OpenOrDie(Data("datapage_v1-corrupt-checksum.parquet"), lax);
  ASSERT_NE(file, nullptr);
  auto batches = ReadAllBatches(file);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(TotalRows(*batches), file->num_rows());

  // Valid checksums pass.
  auto good = OpenOrDie(Data("datapage_v1-snappy-compressed-checksum.parquet"));
  ASSERT_NE(good, nullptr);
  EXPECT_TRUE(ReadAllBatches(good).ok());
}

TEST(ParquetReaderTest, PageLargerThanTheBudgetIsRefusedBeforeAllocating) {
  // 4 KiB of brotli that declare a 1 GiB page.
  const int64_t before = Buffer::LiveAllocatedBytes();
  ReaderOptions options;
  options.max_page_size = 64 << 20;
  auto file = OpenOrDie(Data("large_string_map.brotli.parquet"), options);
  ASSERT_NE(file, nullptr);
  const Status status = ReadAllBatches(file).status();
  EXPECT_EQ(status.code(), StatusCode::kUnsupported);
  EXPECT_NE(status.message().find("page budget"), std::string::npos) << status.ToString();
  EXPECT_LT(Buffer::LiveAllocatedBytes() - before, 1 << 20);
}

TEST(ParquetReaderTest, StorageFaultsSurfaceAsErrorsAtEveryRead) {
  // Fail each read of the scan in turn: every one returns the injected error.
  auto probe = std::make_shared<FaultInjectingFileIO>(NewLocalFileIO());
  auto file = OpenOrDie(Data("alltypes_tiny_pages.parquet"), {}, probe);
  ASSERT_NE(file, nullptr);
  ASSERT_TRUE(ReadAllBatches(file).ok());
  const int64_t reads = probe->calls(kIoRead);
  ASSERT_GT(reads, 1);
  for (int64_t nth = 1; nth <= reads; ++nth) {
    auto io = std::make_shared<FaultInjectingFileIO>(NewLocalFileIO());
    FaultRule rule;
    rule.ops = kIoRead;
    rule.nth = nth;
    rule.code = StatusCode::kIOError;
    io->AddRule(rule);
    auto opened = ParquetFileReader::Open(io, Data("alltypes_tiny_pages.parquet"));
    Status status = opened.status();
    if (opened.ok()) status = ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(*opened))).status();
    EXPECT_EQ(status.code(), StatusCode::kIOError) << "read " << nth << ": " << status.ToString();
  }
}

}  // namespace
}  // namespace floe::parquet

namespace floe::parquet {
namespace {

// Reads `selection` and checks it returns exactly those rows of a full read.
void ExpectSelectionMatchesFullRead(const std::shared_ptr<const ParquetFileReader>& file,
                                    const std::map<int, std::vector<RowRange>>& selection, int64_t batch_size) {
  auto schema = std::make_shared<const Schema>(file->schema().schema());
  auto full = ReadAllBatches(file);
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  const std::vector<std::string> all = JsonRows(schema, *full);
  std::vector<std::string> expected;
  int64_t group_start = 0;
  for (int rg = 0; rg < file->num_row_groups(); ++rg) {
    const int64_t rows = file->metadata().row_groups[static_cast<size_t>(rg)].num_rows;
    auto it = selection.find(rg);
    if (it == selection.end()) {
      for (int64_t r = 0; r < rows; ++r) expected.push_back(all[static_cast<size_t>(group_start + r)]);
    } else {
      for (const RowRange& range : it->second) {
        for (int64_t r = range.begin; r < range.end; ++r) expected.push_back(all[static_cast<size_t>(group_start + r)]);
      }
    }
    group_start += rows;
  }
  ScanOptions options;
  options.row_selection = selection;
  options.batch_size = batch_size;
  auto selected = ReadAllBatches(file, options);
  ASSERT_TRUE(selected.ok()) << selected.status().ToString();
  for (const RecordBatch& b : *selected) EXPECT_LE(b.num_rows(), batch_size);
  EXPECT_EQ(JsonRows(schema, *selected), expected);
}

TEST(ParquetRowSelectionTest, ReturnsExactlyTheSelectedRows) {
  for (const char* name : {"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet",
                           "datapage_v2.snappy.parquet", "nullable.impala.parquet", "nested_lists.snappy.parquet",
                           "data_index_bloom_encoding_stats.parquet"}) {
    SCOPED_TRACE(name);
    if (!std::filesystem::exists(Data(name))) continue;
    auto file = OpenOrDie(Data(name));
    ASSERT_NE(file, nullptr);
    const int64_t rows = file->metadata().row_groups[0].num_rows;
    ASSERT_GE(rows, 3);
    std::vector<RowRange> ranges{{0, 1}, {2, std::min<int64_t>(rows, 3)}};
    if (rows > 700) ranges.push_back({500, 650});
    if (rows > 10) ranges.push_back({rows - 7, rows - 2});
    for (const int64_t batch_size : {int64_t{4}, int64_t{64 * 1024}}) {
      ExpectSelectionMatchesFullRead(file, {{0, ranges}}, batch_size);
    }
  }
}

TEST(ParquetRowSelectionTest, SkipsUnselectedPagesWithoutReadingThem) {
  // alltypes_tiny_pages: one row group of 7300 rows in many small pages,
  // with a page index.
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewLocalFileIO(), trace);
  auto file = OpenOrDie(Data("alltypes_tiny_pages.parquet"), {}, io);
  ASSERT_NE(file, nullptr);
  ScanOptions options;
  options.columns = std::vector<std::string>{"id", "string_col"};
  trace->Clear();
  auto full = ReadAllBatches(file, options);
  ASSERT_TRUE(full.ok());
  const int64_t full_bytes = trace->totals().bytes_read;

  options.row_selection = {{0, {{4000, 4010}}}};
  trace->Clear();
  auto selected = ReadAllBatches(file, options);
  ASSERT_TRUE(selected.ok()) << selected.status().ToString();
  ASSERT_EQ(TotalRows(*selected), 10);
  ASSERT_GT(full->front().num_rows(), 4000);
  EXPECT_EQ(selected->front().column(0).Values<int32_t>()[0], full->front().column(0).Values<int32_t>()[4000]);
  const int64_t selected_bytes = trace->totals().bytes_read;
  // What the page index itself costs (this file's pages are tiny, so its
  // index is large); the rest is data pages.
  trace->Clear();
  const std::vector<int> columns{0, 9};
  ASSERT_EQ(file->schema().column(9).dotted_path(), "string_col");
  ASSERT_TRUE(ReadPageIndex(*file, 0, columns).ok());
  const int64_t index_bytes = trace->totals().bytes_read;
  EXPECT_LT((selected_bytes - index_bytes) * 5, full_bytes)
      << "selected " << selected_bytes << " bytes (" << index_bytes << " of page index) of " << full_bytes;
}

TEST(ParquetReaderTest, OpeningReadsASmallTail) {
  // A tail read past the footer fetches bytes a scan may not need (data of
  // the last row group); floe's reads 8 KiB (docs/decisions/0040).
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewLocalFileIO(), trace);
  const std::string path = Data("alltypes_tiny_pages.parquet");
  auto file = OpenOrDie(path, {}, io);
  ASSERT_NE(file, nullptr);
  ASSERT_GT(file->file_size(), 64 * 1024);
  ASSERT_EQ(trace->totals().gets, 1) << trace->Format();
  EXPECT_EQ(trace->totals().bytes_read, 8 * 1024);
}

TEST(ParquetPageIndexTest, ReadsColumnIndexesOnlyWhereAsked) {
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewLocalFileIO(), trace);
  auto file = OpenOrDie(Data("alltypes_tiny_pages.parquet"), {}, io);
  ASSERT_NE(file, nullptr);
  const std::vector<int> columns{0, 9};
  trace->Clear();
  auto both = ReadPageIndex(*file, 0, columns);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  const int64_t both_bytes = trace->totals().bytes_read;
  trace->Clear();
  auto some = ReadPageIndex(*file, 0, columns, {true, false});
  ASSERT_TRUE(some.ok()) << some.status().ToString();
  EXPECT_LT(trace->totals().bytes_read, both_bytes) << trace->Format();
  ASSERT_EQ(some->size(), 2u);
  ASSERT_TRUE((*some)[0].column_index.has_value());
  EXPECT_EQ((*some)[0].column_index->null_pages.size(), (*both)[0].column_index->null_pages.size());
  EXPECT_TRUE((*some)[0].offset_index.has_value());
  EXPECT_FALSE((*some)[1].column_index.has_value());
  ASSERT_TRUE((*some)[1].offset_index.has_value());
  EXPECT_EQ((*some)[1].offset_index->page_locations.size(), (*both)[1].offset_index->page_locations.size());
  EXPECT_EQ(ReadPageIndex(*file, 0, columns, {true}).status().code(), StatusCode::kInvalidArgument);
}

TEST(ParquetRowSelectionTest, FilteredRowGroupReadsItsPageIndexWithOneRequest) {
  // The filter column's column and offset index and the projected columns'
  // offset indexes come in one request.
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewLocalFileIO(), trace);
  auto file = OpenOrDie(Data("alltypes_tiny_pages.parquet"), {}, io);
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(file->num_row_groups(), 1);
  ASSERT_EQ(file->schema().column(0).dotted_path(), "id");
  ScanOptions options;
  options.columns = std::vector<std::string>{"string_col"};
  options.filter = {ColumnPredicate{0, ColumnPredicate::Op::kEq, {PlainInt32(4000)}}};
  trace->Clear();
  auto batches = ReadAllBatches(file, options);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_GT(TotalRows(*batches), 0);
  EXPECT_LT(TotalRows(*batches), 7300);
  // Requests at or past the first page index byte (it sits after the data).
  int64_t index_start = file->file_size();
  for (const ColumnChunk& chunk : file->metadata().row_groups[0].columns) {
    if (chunk.column_index_offset) index_start = std::min(index_start, *chunk.column_index_offset);
    if (chunk.offset_index_offset) index_start = std::min(index_start, *chunk.offset_index_offset);
  }
  int64_t index_requests = 0;
  for (const IoRequest& r : trace->requests()) index_requests += r.method == "GET" && r.offset >= index_start;
  // As many as one ReadPageIndex call of exactly those indexes makes (the
  // coalescer may split far-apart ranges), not a second round for the
  // projected columns.
  ASSERT_EQ(file->schema().column(9).dotted_path(), "string_col");
  trace->Clear();
  ASSERT_TRUE(ReadPageIndex(*file, 0, std::vector<int>{9, 0}, {false, true}).ok());
  EXPECT_GE(index_requests, 1);
  EXPECT_EQ(index_requests, trace->totals().gets) << trace->Format();
}

TEST(ParquetRowSelectionTest, RejectsBadRanges) {
  auto file = OpenOrDie(Data("alltypes_plain.parquet"));
  ASSERT_NE(file, nullptr);
  for (const std::vector<RowRange>& ranges :
       {std::vector<RowRange>{{3, 2}}, std::vector<RowRange>{{0, 5}, {4, 6}}, std::vector<RowRange>{{0, 9}}}) {
    ScanOptions options;
    options.row_selection = {{0, ranges}};
    EXPECT_EQ(ParquetRecordBatchReader::Make(file, options).status().code(), StatusCode::kInvalidArgument);
  }
  ScanOptions options;
  options.row_selection = {{5, {{0, 1}}}};
  EXPECT_EQ(ParquetRecordBatchReader::Make(file, options).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace floe::parquet

namespace floe::parquet {
namespace {

TEST(ParquetProjectionTest, NestedPathsPruneStructs) {
  auto file = OpenOrDie(Data("nullable.impala.parquet"));
  ASSERT_NE(file, nullptr);
  ScanOptions options;
  options.columns = std::vector<std::string>{"nested_struct.C", "id", "nested_struct.A"};
  auto reader = ParquetRecordBatchReader::Make(file, options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  // Top-level fields in the order first named; the struct keeps A and C in
  // the file's order.
  EXPECT_EQ((*reader)->schema()->ToString(),
            "nested_struct: struct<A: int32, C: struct<d: list<element: list<element: struct<E: int32, F: string>>>>>, "
            "id: int64");
  auto batches = ReadAllBatches(file, options);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  const std::string json = AsJsonLines((*reader)->schema(), *batches);
  EXPECT_NE(json.find(R"({"nested_struct":{"A":1,"C":{"d":[[{"E":10,"F":"aaa"},{"E":-10,"F":"bbb"}],[{"E":11,"F":"c"}]]}},"id":1})"),
            std::string::npos)
      << json;

  ScanOptions bad;
  bad.columns = std::vector<std::string>{"nested_struct.nope"};
  auto error = ParquetRecordBatchReader::Make(file, bad);
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(error.status().message().find("'nested_struct.nope'"), std::string::npos) << error.status().ToString();
}

TEST(ParquetProjectionTest, FieldIdsSelectInTheGivenOrder) {
  // shredded_variant files carry Iceberg field ids: id = 1, var = 2.
  auto file = OpenOrDie(ParquetTestingDir() + "/shredded_variant/case-001.parquet");
  ASSERT_NE(file, nullptr);
  ScanOptions options;
  options.field_ids = std::vector<int32_t>{2, 99, 1};
  auto reader = ParquetRecordBatchReader::Make(file, options);
  ASSERT_TRUE(reader.ok());
  ASSERT_EQ((*reader)->schema()->num_fields(), 2);
  EXPECT_EQ((*reader)->schema()->field(0).name, "var");
  EXPECT_EQ((*reader)->schema()->field(0).field_id, 2);
  EXPECT_EQ((*reader)->schema()->field(1).name, "id");
}

}  // namespace
}  // namespace floe::parquet
