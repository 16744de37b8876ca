// Zero-copy reads of fixed-width values (docs/decisions/0052-scan-zero-copy.md):
// a batch borrows PLAIN page bytes instead of copying them; such a batch must
// outlive its reader, keep its bytes while later pages decode into reused
// buffers, and read the same rows as copying would, with and without nulls,
// in v1 and v2 pages, across a dictionary that gives up mid-chunk. Pages
// whose sizes lie stay Corrupt.

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/formats/compression/codec.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/reader/column_reader.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/parquet/schema.h"
#include "floe/io/file_io.h"
#include "parquet_writer_test_util.h"

namespace floe::parquet {
namespace {

using compression::Codec;
using testing::Int64s;
using testing::MakeSchema;

// A value per row that differs between rows; null where `null_every` divides the row.
std::vector<std::optional<int64_t>> Rows(int64_t n, int64_t null_every = 0, int64_t nulls_from = 0) {
  std::vector<std::optional<int64_t>> rows;
  for (int64_t i = 0; i < n; ++i) {
    if (null_every > 0 && i >= nulls_from && i % null_every == 0) {
      rows.emplace_back();
    } else {
      rows.emplace_back(i * 7919 - 1000003);
    }
  }
  return rows;
}

struct Written {
  std::shared_ptr<FileIO> io;
  std::shared_ptr<const ParquetFileReader> file;
};

Written WriteColumn(const std::vector<std::optional<int64_t>>& rows, WriterOptions options, bool nullable = true) {
  Written w{NewMemoryFileIO(), nullptr};
  auto schema = MakeSchema({Field("x", DataType::Int64(), nullable)});
  auto writer = ParquetFileWriter::Open(w.io, "t.parquet", schema, std::move(options));
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return w;
  EXPECT_TRUE((*writer)->Write(testing::Batch(schema, {Int64s(rows)})).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  auto file = ParquetFileReader::Open(w.io, "t.parquet");
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  if (file.ok()) w.file = std::shared_ptr<const ParquetFileReader>(std::move(*file));
  return w;
}

std::vector<std::optional<int64_t>> Values(const std::vector<RecordBatch>& batches) {
  std::vector<std::optional<int64_t>> out;
  for (const RecordBatch& b : batches) {
    const Array& a = b.column(0);
    EXPECT_TRUE(a.Validate().ok()) << a.Validate().ToString();
    for (int64_t i = 0; i < a.length(); ++i) {
      if (a.IsNull(i)) {
        out.emplace_back();
      } else {
        out.emplace_back(a.Values<int64_t>()[i]);
      }
    }
  }
  return out;
}

WriterOptions Plain(Codec codec, int version, int64_t page_rows) {
  WriterOptions options;
  options.codec = codec;
  options.data_page_version = version;
  options.dictionary = false;
  options.page_rows = page_rows;
  return options;
}

struct ZeroCopyCase {
  Codec codec;
  int version;
};

class ZeroCopyTest : public ::testing::TestWithParam<ZeroCopyCase> {};

TEST_P(ZeroCopyTest, BatchesHeldPastTheReaderKeepTheirValues) {
  const auto rows = Rows(5000);
  Written w = WriteColumn(rows, Plain(GetParam().codec, GetParam().version, 1000));
  ASSERT_NE(w.file, nullptr);
  std::vector<RecordBatch> held;
  {
    ScanOptions options;
    options.batch_size = 1000;  // one batch per page: every batch can borrow
    auto reader = ParquetRecordBatchReader::Make(w.file, options);
    ASSERT_TRUE(reader.ok());
    while (true) {
      auto batch = (*reader)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (!batch->has_value()) break;
      held.push_back(std::move(**batch));
    }
  }
  // The reader, its page buffers' other users and the file are gone; the
  // batches, decoded while earlier ones were still held, read back exactly.
  w.file.reset();
  w.io.reset();
  EXPECT_EQ(Values(held), rows);
  for (const RecordBatch& b : held) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b.column(0).Values<int64_t>()) % alignof(int64_t), 0u);
  }
}

TEST_P(ZeroCopyTest, BatchesSpanningPagesAndNullsReadTheSameRows) {
  // Nulls only from row 2500 on: the first pages have no null (levels left
  // out), later ones do; batches of 700 rows straddle page boundaries.
  const auto rows = Rows(5000, 3, 2500);
  Written w = WriteColumn(rows, Plain(GetParam().codec, GetParam().version, 1000));
  ASSERT_NE(w.file, nullptr);
  for (const int64_t batch_size : {1, 700, 1000, 4096}) {
    SCOPED_TRACE(batch_size);
    ScanOptions options;
    options.batch_size = batch_size;
    auto batches = ReadAllBatches(w.file, options);
    ASSERT_TRUE(batches.ok()) << batches.status().ToString();
    EXPECT_EQ(Values(*batches), rows);
  }
}

TEST_P(ZeroCopyTest, RequiredColumnBorrowsToo) {
  const auto rows = Rows(3000);
  Written w = WriteColumn(rows, Plain(GetParam().codec, GetParam().version, 1000), /*nullable=*/false);
  ASSERT_NE(w.file, nullptr);
  ScanOptions options;
  options.batch_size = 500;
  auto batches = ReadAllBatches(w.file, options);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Values(*batches), rows);
}

TEST_P(ZeroCopyTest, DictionaryGivingUpMidChunkSwitchesToBorrowedPlainPages) {
  // Few distinct values first (a dictionary pays), then only new ones, until
  // the dictionary passes its limit and later pages are PLAIN.
  auto rows = Rows(6000);
  for (size_t i = 0; i < 2000; ++i) rows[i] = static_cast<int64_t>(i % 10);
  WriterOptions options = Plain(GetParam().codec, GetParam().version, 1000);
  options.dictionary = true;
  options.dictionary_page_size_limit = 8 * 1500;  // full after ~1500 distinct values
  Written w = WriteColumn(rows, options);
  ASSERT_NE(w.file, nullptr);
  const ColumnMetaData* meta = w.file->ColumnChunkMeta(0, 0).value();
  bool dictionary = false, plain = false;
  for (const Encoding e : meta->encodings) {
    dictionary |= e == Encoding::RLE_DICTIONARY || e == Encoding::PLAIN_DICTIONARY;
    plain |= e == Encoding::PLAIN;
  }
  ASSERT_TRUE(dictionary && plain) << "the writer did not fall back mid-chunk";
  for (const int64_t batch_size : {999, 1000, 6000}) {
    SCOPED_TRACE(batch_size);
    ScanOptions scan;
    scan.batch_size = batch_size;
    auto batches = ReadAllBatches(w.file, scan);
    ASSERT_TRUE(batches.ok()) << batches.status().ToString();
    EXPECT_EQ(Values(*batches), rows);
  }
}

// The leaf level: which batches borrow, and that a borrowed batch keeps its
// bytes while the reader decodes the next page into its reused buffer.
TEST_P(ZeroCopyTest, LeafBatchesBorrowWithinAPageAndCopyAcrossPages) {
  const auto rows = Rows(3000);
  Written w = WriteColumn(rows, Plain(GetParam().codec, GetParam().version, 1000));
  ASSERT_NE(w.file, nullptr);
  auto range = w.file->ColumnChunkBytes(0, 0);
  ASSERT_TRUE(range.ok());
  auto chunk = w.file->file().Read(range->offset, range->length);
  ASSERT_TRUE(chunk.ok());
  const ColumnDescriptor& column = w.file->schema().column(0);
  auto reader = ColumnReader::Make(column, *w.file->ColumnChunkMeta(0, 0).value(), *chunk, range->offset,
                                   PageReaderOptions{}, "t.parquet column x");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();

  LeafBatch first;  // rows 0..999: exactly the first page
  ASSERT_TRUE((*reader)->ReadRecords(1000, &first).ok());
  LeafBatch straddling;  // rows 1000..2499: pages 2 and 3, copied
  ASSERT_TRUE((*reader)->ReadRecords(1500, &straddling).ok());
  LeafBatch rest;  // rows 2500..2999: inside page 3
  ASSERT_TRUE((*reader)->ReadRecords(1000, &rest).ok());
  EXPECT_EQ(rest.num_records, 500);
  reader->reset();

  // An uncompressed page's values sit wherever the chunk puts them; a batch
  // borrows only when they are aligned, and copies otherwise.
  // Compressed pages decompress where their values land aligned.
  if (GetParam().codec != Codec::kUncompressed) {
    EXPECT_FALSE(first.borrowed_values.empty());
    EXPECT_FALSE(rest.borrowed_values.empty());
  }
  EXPECT_TRUE(straddling.borrowed_values.empty());
  EXPECT_TRUE(first.def_levels.empty()) << "no null: the levels are left out";
  int64_t row = 0;
  for (LeafBatch* batch : {&first, &straddling, &rest}) {
    const Buffer values = batch->TakeValues();
    ASSERT_EQ(values.size(), batch->num_values * 8);
    const int64_t* v = reinterpret_cast<const int64_t*>(values.data());
    for (int64_t i = 0; i < batch->num_values; ++i, ++row) ASSERT_EQ(v[i], *rows[static_cast<size_t>(row)]) << row;
  }
  EXPECT_EQ(row, 3000);
}

INSTANTIATE_TEST_SUITE_P(CodecsAndPageVersions, ZeroCopyTest,
                         ::testing::Values(ZeroCopyCase{Codec::kUncompressed, 1}, ZeroCopyCase{Codec::kUncompressed, 2},
                                           ZeroCopyCase{Codec::kSnappy, 1}, ZeroCopyCase{Codec::kSnappy, 2}, ZeroCopyCase{Codec::kZstd, 1},
                                           ZeroCopyCase{Codec::kZstd, 2}, ZeroCopyCase{Codec::kLz4Raw, 1}),
                         [](const ::testing::TestParamInfo<ZeroCopyCase>& info) {
                           return std::string(compression::CodecName(info.param.codec)) + "_v" +
                                  std::to_string(info.param.version);
                         });

// A hand-made chunk of one v1 page of `values` int64s, its header claiming
// `num_values` levels; the column is required (no levels in the page).
Status ReadHandMadePage(int64_t values, int32_t num_values, Codec codec, int32_t stated_size, LeafBatch* out) {
  std::string raw(static_cast<size_t>(values) * 8, '\0');
  for (int64_t i = 0; i < values; ++i) raw[static_cast<size_t>(i * 8)] = static_cast<char>(i);
  std::string body = raw;
  if (codec != Codec::kUncompressed) {
    FLOE_ASSIGN_OR_RETURN(Buffer compressed, compression::Compress(codec, std::span<const uint8_t>(
                                                                               reinterpret_cast<const uint8_t*>(raw.data()), raw.size())));
    body = std::string(compressed.view());
  }
  PageHeader header;
  header.type = PageType::DATA_PAGE;
  header.uncompressed_page_size = stated_size;
  header.compressed_page_size = static_cast<int32_t>(body.size());
  header.data_page_header = DataPageHeader{};
  header.data_page_header->num_values = num_values;
  std::string chunk;
  FLOE_RETURN_IF_ERROR(EncodePageHeader(header, &chunk));
  chunk += body;

  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  SchemaElement leaf;
  leaf.name = "x";
  leaf.type = Type::INT64;
  leaf.repetition_type = FieldRepetitionType::REQUIRED;
  FLOE_ASSIGN_OR_RETURN(ParquetSchema schema, ParquetSchema::Make({root, leaf}));
  ColumnMetaData meta;
  meta.type = Type::INT64;
  meta.codec = codec == Codec::kUncompressed ? CompressionCodec::UNCOMPRESSED : CompressionCodec::SNAPPY;
  meta.num_values = num_values;
  FLOE_ASSIGN_OR_RETURN(auto reader, ColumnReader::Make(schema.column(0), meta, Buffer::CopyOf(chunk), 4,
                                                        PageReaderOptions{}, "hand.parquet column x"));
  return reader->ReadRecords(num_values, out);
}

TEST(ZeroCopyCorruptTest, PagesWhoseSizesLieAreCorrupt) {
  // Sound pages first, so the cases below fail for their lie alone.
  LeafBatch sound;
  const Status ok = ReadHandMadePage(100, 100, Codec::kSnappy, 800, &sound);
  ASSERT_TRUE(ok.ok()) << ok.ToString();
  EXPECT_EQ(sound.num_values, 100);
  EXPECT_FALSE(sound.borrowed_values.empty()) << "aligned values in the decompression buffer are borrowed";
  LeafBatch plain;
  ASSERT_TRUE(ReadHandMadePage(100, 100, Codec::kUncompressed, 800, &plain).ok());

  // More values claimed than the page holds: uncompressed and compressed.
  for (const Codec codec : {Codec::kUncompressed, Codec::kSnappy}) {
    LeafBatch out;
    const Status more = ReadHandMadePage(100, 101, codec, 800, &out);
    ASSERT_FALSE(more.ok());
    EXPECT_EQ(more.code(), StatusCode::kCorrupt) << more.ToString();
    EXPECT_NE(more.message().find("hand.parquet column x"), std::string::npos) << more.ToString();
  }
  // A decompressed size the compressed bytes contradict, larger and smaller.
  for (const int32_t stated : {808, 792}) {
    LeafBatch out;
    const Status lie = ReadHandMadePage(100, 100, Codec::kSnappy, stated, &out);
    ASSERT_FALSE(lie.ok()) << stated;
    EXPECT_EQ(lie.code(), StatusCode::kCorrupt) << lie.ToString();
  }
}

}  // namespace
}  // namespace floe::parquet
