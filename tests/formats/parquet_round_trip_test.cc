// floe's writer and floe's reader agree: random schemas (every type, nested
// lists, maps and structs) x random data (nulls, empty strings, extremes,
// NaN, -0.0) x random writer options (codecs, page versions, dictionary and
// fallback, every per-column encoding, tiny pages and row groups) -> write
// -> read -> the same schema and the same values. Then bloom-filter pruning
// and the rewrite command on files floe wrote.

#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "floe/columnar/batch_printer.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"
#include "parquet_writer_test_util.h"
#include "testing/run_process.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace {

std::string Json(const std::shared_ptr<const Schema>& schema, const std::vector<RecordBatch>& batches) {
  auto text = FormatBatches(schema, batches, PrintOptions{OutputFormat::kJsonl});
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  return text.ok() ? *text : "";
}

// The encodings a leaf of `type` may take besides dictionary and PLAIN.
std::vector<Encoding> EncodingsFor(const DataType& type) {
  switch (type.id()) {
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kDate32:
    case TypeId::kTimestamp: return {Encoding::DELTA_BINARY_PACKED, Encoding::BYTE_STREAM_SPLIT};
    case TypeId::kFloat32:
    case TypeId::kFloat64: return {Encoding::BYTE_STREAM_SPLIT};
    case TypeId::kBool: return {Encoding::RLE};
    case TypeId::kString:
    case TypeId::kBinary: return {Encoding::DELTA_LENGTH_BYTE_ARRAY, Encoding::DELTA_BYTE_ARRAY};
    case TypeId::kUuid:
    case TypeId::kFixedSizeBinary: return {Encoding::BYTE_STREAM_SPLIT, Encoding::DELTA_BYTE_ARRAY};
    default: return {};
  }
}

TEST(ParquetRoundTripTest, RandomSchemasDataAndOptionsReadBackIdentically) {
  std::mt19937_64 rng(202612021);
  const std::vector<TypePtr> leaves = {
      DataType::Bool(),   DataType::Int8(),    DataType::Int16(),   DataType::Int32(),  DataType::Int64(),
      DataType::UInt8(),  DataType::UInt16(),  DataType::UInt32(),  DataType::UInt64(), DataType::Float32(),
      DataType::Float64(), DataType::Utf8(),   DataType::Binary(),  DataType::Date32(), DataType::Uuid(),
      DataType::Time64(floe::TimeUnit::kMicro), DataType::Timestamp(floe::TimeUnit::kMicro),
      DataType::Timestamp(floe::TimeUnit::kNano, "UTC"), *DataType::Decimal128(7, 3), *DataType::Decimal128(18, 2),
      *DataType::Decimal128(38, 10), *DataType::FixedSizeBinary(5), DataType::Null()};
  std::function<TypePtr(int)> random_type;
  // A field of a random type; the null type is always nullable (Parquet
  // writes it as an optional column).
  auto random_field = [&](std::string name, int depth) {
    TypePtr type = random_type(depth);
    const bool nullable = type->id() == TypeId::kNull || rng() % 3 != 0;
    return Field(std::move(name), std::move(type), nullable);
  };
  random_type = [&](int depth) -> TypePtr {
    const uint64_t pick = rng() % (depth >= 3 ? 1 : 4);
    if (pick == 0) return leaves[rng() % leaves.size()];
    if (pick == 1) return DataType::List(random_field("element", depth + 1));
    if (pick == 2) {
      std::vector<Field> fields;
      const int n = 1 + static_cast<int>(rng() % 3);
      for (int i = 0; i < n; ++i) fields.push_back(random_field(StrCat("f", i), depth + 1));
      return DataType::Struct(std::move(fields));
    }
    return DataType::Map(rng() % 2 ? DataType::Utf8() : DataType::Int32(), random_type(depth + 1));
  };
  const compression::Codec codecs[] = {compression::Codec::kUncompressed, compression::Codec::kSnappy,
                                       compression::Codec::kZstd,         compression::Codec::kLz4Raw,
                                       compression::Codec::kGzip,         compression::Codec::kBrotli};
  std::shared_ptr<FileIO> io = NewMemoryFileIO();
  for (int iteration = 0; iteration < 150; ++iteration) {
    std::vector<Field> fields;
    const int n = 1 + static_cast<int>(rng() % 5);
    for (int i = 0; i < n; ++i) {
      TypePtr t = random_type(0);
      Field f(StrCat("c", i), t, t->id() == TypeId::kNull || rng() % 4 != 0);
      f.field_id = 100 + i;
      fields.push_back(std::move(f));
    }
    auto schema = std::make_shared<const Schema>(std::move(fields));
    SCOPED_TRACE(StrCat("iteration ", iteration, ": ", schema->ToString()));

    WriterOptions options;
    options.codec = codecs[rng() % std::size(codecs)];
    options.data_page_version = 1 + static_cast<int>(rng() % 2);
    options.dictionary = rng() % 2 == 0;
    options.dictionary_page_size_limit = rng() % 2 ? 1 << 20 : 64;
    options.row_group_rows = 1 + static_cast<int64_t>(rng() % 300);
    options.page_rows = 1 + static_cast<int64_t>(rng() % 100);
    options.page_bytes = 64 + static_cast<int64_t>(rng() % 4096);
    options.page_checksums = rng() % 2 == 0;
    // A per-column encoding for some flat leaves.
    for (const Field& f : schema->fields) {
      const std::vector<Encoding> choices = EncodingsFor(*f.type);
      if (!choices.empty() && rng() % 2) options.columns[f.name].encoding = choices[rng() % choices.size()];
    }

    const int64_t rows = static_cast<int64_t>(rng() % 700);
    const double null_rate = std::uniform_real_distribution<double>(0, 0.6)(rng);
    std::vector<Array> columns;
    for (const Field& f : schema->fields) {
      auto column = testing::RandomColumn(f, rows, rng, null_rate);
      ASSERT_TRUE(column.ok()) << column.status().ToString();
      columns.push_back(std::move(*column));
    }
    auto batch = RecordBatch::Make(schema, columns, rows);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();

    const std::string path = StrCat("mem://round-trip-", iteration, ".parquet");
    auto writer = ParquetFileWriter::Open(io, path, schema, options);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    // Several writes, one of them a slice, as a table writer would send them.
    const int64_t cut = rows / 3;
    ASSERT_TRUE((*writer)->Write(batch->Slice(0, cut)).ok());
    ASSERT_TRUE((*writer)->Write(batch->Slice(cut, rows - cut)).ok());
    auto written = (*writer)->Close();
    ASSERT_TRUE(written.ok()) << written.status().ToString();

    auto file = ParquetFileReader::Open(io, path);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    std::shared_ptr<const ParquetFileReader> reader(std::move(*file));
    ASSERT_EQ(reader->schema().schema().ToString(), schema->ToString());
    for (size_t f = 0; f < schema->fields.size(); ++f) {
      EXPECT_EQ(reader->schema().schema().fields[f].field_id, schema->fields[f].field_id);
    }
    EXPECT_EQ(reader->schema().schema(), *schema);
    ScanOptions scan;
    scan.batch_size = 1 + static_cast<int64_t>(rng() % 500);
    auto read = ReadAllBatches(reader, scan);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    for (const RecordBatch& b : *read) {
      for (const Array& a : b.columns()) ASSERT_TRUE(a.Validate().ok()) << a.Validate().ToString();
    }
    EXPECT_EQ(Json(schema, *read), Json(schema, {*batch}));
  }
}

TEST(ParquetRoundTripTest, BloomFiltersPruneRowGroupsWithoutTheValue) {
  std::shared_ptr<FileIO> io = NewMemoryFileIO();
  auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("id", DataType::Int64(), false),
                                                                  Field("name", DataType::Utf8(), false)});
  // Ten row groups of 100 rows.
  PrimitiveBuilder<int64_t> ids;
  StringBuilder names;
  for (int64_t i = 0; i < 1000; ++i) {
    ASSERT_TRUE(ids.Append(i).ok());
    ASSERT_TRUE(names.Append(StrCat("n", i)).ok());
  }
  auto batch = RecordBatch::Make(schema, {*ids.Finish(), *names.Finish()});
  ASSERT_TRUE(batch.ok());
  WriterOptions options;
  options.row_group_rows = 100;
  options.columns["id"].bloom_filter = true;
  options.columns["name"].bloom_filter = true;
  auto writer = ParquetFileWriter::Open(io, "mem://bloom.parquet", schema, options);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write(*batch).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto opened = ParquetFileReader::Open(io, "mem://bloom.parquet");
  ASSERT_TRUE(opened.ok());
  std::shared_ptr<const ParquetFileReader> file(std::move(*opened));
  ASSERT_EQ(file->num_row_groups(), 10);

  auto scan = [&](ColumnPredicate p) {
    ScanOptions o;
    o.filter = {std::move(p)};
    auto reader = ParquetRecordBatchReader::Make(file, o);
    EXPECT_TRUE(reader.ok());
    int64_t rows = 0;
    while (true) {
      auto b = (*reader)->Next();
      EXPECT_TRUE(b.ok()) << b.status().ToString();
      if (!b.ok() || !*b) break;
      rows += (*b)->num_rows();
    }
    return std::make_pair(rows, (*reader)->metrics());
  };
  // "n537" is in row group 5 only. Names sort as strings ("n10" < "n537" <
  // "n6"), so min/max keep most groups; the bloom filters drop them.
  auto [rows, metrics] = scan(ColumnPredicate{1, ColumnPredicate::Op::kEq, {"n537"}});
  EXPECT_EQ(rows, 100);
  EXPECT_EQ(metrics.row_groups_pruned, 9);
  EXPECT_GE(metrics.row_groups_pruned_by_bloom, 1);
  auto [none, none_metrics] = scan(ColumnPredicate{1, ColumnPredicate::Op::kEq, {"absent"}});
  EXPECT_EQ(none, 0);
  EXPECT_EQ(none_metrics.row_groups_pruned, 10);
  auto [in_rows, in_metrics] =
      scan(ColumnPredicate{0, ColumnPredicate::Op::kIn, {PlainInt64(1), PlainInt64(999999)}});
  EXPECT_EQ(in_rows, 100);  // only row group 0 holds 1; no group reaches 999999
  EXPECT_EQ(in_metrics.row_groups_pruned, 9);
}

TEST(ParquetRoundTripTest, RewriteKeepsRowsSchemaAndFieldIds) {
  floe::testing::TempDir dir;
  const std::string in = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/nested_lists.snappy.parquet";
  const std::string out = dir.path() + "/out.parquet";
  auto rewrite = floe::testing::RunFloe({"parquet", "rewrite", in, out, "--codec", "brotli", "--page-version", "2",
                                         "--dictionary", "off", "--row-group-rows", "1"});
  ASSERT_EQ(rewrite.exit_code, 0) << rewrite.err;
  EXPECT_NE(rewrite.out.find("3 rows, 3 row groups"), std::string::npos) << rewrite.out;
  auto before = floe::testing::RunFloe({"--format", "jsonl", "parquet", "cat", in});
  auto after = floe::testing::RunFloe({"--format", "jsonl", "parquet", "cat", out});
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(after.out, before.out);
  auto meta = floe::testing::RunFloe({"parquet", "meta", out});
  EXPECT_NE(meta.out.find("BROTLI"), std::string::npos) << meta.out;

  auto bad = floe::testing::RunFloe({"parquet", "rewrite", in, out + "2", "--codec", "lzo"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("lzo"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find('\n'), bad.err.size() - 1) << "one line: " << bad.err;
}

}  // namespace
}  // namespace floe::parquet
