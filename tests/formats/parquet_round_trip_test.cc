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
#include "parquet_fixtures.h"
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
      *DataType::Decimal128(38, 10), *DataType::FixedSizeBinary(5), DataType::Interval(), DataType::Null()};
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

// Writes `batch` to `path` on `io` with floe's writer.
Status WriteBatch(const std::shared_ptr<FileIO>& io, const std::string& path,
                  const std::shared_ptr<const Schema>& schema, const RecordBatch& batch, const WriterOptions& options) {
  FLOE_ASSIGN_OR_RETURN(auto writer, ParquetFileWriter::Open(io, path, schema, options));
  FLOE_RETURN_IF_ERROR(writer->Write(batch));
  return writer->Close().status();
}

// The PLAIN byte-array decoder copies short values as a fixed block that may
// read past a value into the page and write past it into the batch; values
// near the page's end take an exact copy. Lengths on either side of the block
// size, at every position relative to page and batch ends, must read back
// byte for byte.
TEST(ParquetRoundTripTest, PlainByteArraysOfLengthsAroundTheShortCopyReadBackExactly) {
  const int lengths[] = {0, 1, 15, 16, 17, 30, 31, 32, 33, 34, 63, 64, 65, 200};
  std::vector<std::optional<std::string>> values;
  for (int i = 0; i < 600; ++i) {
    if (i % 11 == 5) {
      values.push_back(std::nullopt);
      continue;
    }
    std::string s;
    const int length = lengths[(i * 7) % std::size(lengths)];
    // Bytes that differ from value to value, so a copy of a neighbour's bytes shows.
    for (int k = 0; k < length; ++k) s.push_back(static_cast<char>('!' + (i + 3 * k) % 90));
    values.push_back(std::move(s));
  }
  auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("s", DataType::Utf8(), true)});
  const RecordBatch batch = testing::Batch(schema, {testing::Strings(values)});
  std::shared_ptr<FileIO> io = NewMemoryFileIO();
  int files = 0;
  for (const int64_t page_bytes : {int64_t{40}, int64_t{97}, int64_t{1000}, int64_t{1} << 20}) {
    for (const int page_version : {1, 2}) {
      for (const compression::Codec codec : {compression::Codec::kUncompressed, compression::Codec::kSnappy}) {
        WriterOptions options;
        options.dictionary = false;
        options.page_bytes = page_bytes;
        options.data_page_version = page_version;
        options.codec = codec;
        const std::string path = StrCat("mem://plain-strings-", files++, ".parquet");
        ASSERT_TRUE(WriteBatch(io, path, schema, batch, options).ok());
        auto opened = ParquetFileReader::Open(io, path);
        ASSERT_TRUE(opened.ok()) << opened.status().ToString();
        std::shared_ptr<const ParquetFileReader> file(std::move(*opened));
        for (const int64_t batch_size : {int64_t{1}, int64_t{7}, int64_t{64}, int64_t{1000}}) {
          SCOPED_TRACE(StrCat("page_bytes ", page_bytes, ", page v", page_version, ", codec ",
                              static_cast<int>(codec), ", batch_size ", batch_size));
          ScanOptions scan;
          scan.batch_size = batch_size;
          auto read = ReadAllBatches(file, scan);
          ASSERT_TRUE(read.ok()) << read.status().ToString();
          size_t row = 0;
          for (const RecordBatch& b : *read) {
            const Array& column = b.columns()[0];
            ASSERT_TRUE(column.Validate().ok()) << column.Validate().ToString();
            for (int64_t i = 0; i < column.length(); ++i, ++row) {
              ASSERT_LT(row, values.size());
              ASSERT_EQ(column.IsNull(i), !values[row].has_value()) << "row " << row;
              if (values[row]) {
                ASSERT_EQ(column.GetString(i), *values[row]) << "row " << row;
              }
            }
          }
          EXPECT_EQ(row, values.size());
        }
      }
    }
  }
}

// A PLAIN length that runs past the page is a Corrupt error naming the value,
// for lengths short and long, and one that wraps a signed 32-bit int.
TEST(ParquetRoundTripTest, PlainByteArrayLengthPastThePageIsCorrupt) {
  for (const uint32_t bad_length : {uint32_t{20}, uint32_t{33}, uint32_t{5000}, uint32_t{0xFFFFFFF0}}) {
    SCOPED_TRACE(StrCat("length ", bad_length));
    // The marked value is neither the smallest nor the largest, so the
    // footer's statistics do not repeat it.
    std::vector<std::optional<std::string>> values = {"a-first", "z-second", "m-MARK"};
    auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("s", DataType::Utf8(), false)});
    std::shared_ptr<FileIO> io = NewMemoryFileIO();
    WriterOptions options;
    options.dictionary = false;
    options.page_checksums = false;
    ASSERT_TRUE(
        WriteBatch(io, "mem://bad.parquet", schema, testing::Batch(schema, {testing::Strings(values)}), options).ok());
    auto bytes = io->ReadAll("mem://bad.parquet");
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    std::string file(reinterpret_cast<const char*>(bytes->data()), static_cast<size_t>(bytes->size()));
    const size_t mark = file.find("MARK");
    ASSERT_NE(mark, std::string::npos);
    ASSERT_EQ(file.find("MARK", mark + 1), std::string::npos);
    std::memcpy(file.data() + mark - 2 - 4, &bad_length, 4);  // the length before "m-MARK"
    ASSERT_TRUE(io->WriteAll("mem://bad.parquet", file).ok());

    auto opened = ParquetFileReader::Open(io, "mem://bad.parquet");
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    std::shared_ptr<const ParquetFileReader> reader(std::move(*opened));
    auto read = ReadAllBatches(reader, ScanOptions{});
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.status().code(), StatusCode::kCorrupt) << read.status().ToString();
    EXPECT_NE(read.status().message().find("value 2 of 3 runs past the end of the page"), std::string::npos)
        << read.status().ToString();
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

// The schema as `floe parquet rewrite` must keep it, field by field along
// floe's reading of both files: names, nullability, field ids, annotation
// metadata and floe types; per leaf the physical type (and width) and the
// logical type; per struct its annotation (VARIANT). The names of list
// elements and map entries are the spec's fixed ones in the output
// ("element", "key", "value"), and legacy list layouts come out as the
// 3-level one, so those are not compared.
void ExpectSameField(const ParquetSchema& a, const FieldPlan& pa, const ParquetSchema& b, const FieldPlan& pb,
                     bool compare_name, const std::string& where) {
  const std::string at = where + "/" + pa.field.name;
  ASSERT_EQ(pa.kind, pb.kind) << at;
  if (compare_name) {
    EXPECT_EQ(pa.field.name, pb.field.name) << at;
  }
  EXPECT_EQ(pa.field.nullable, pb.field.nullable) << at;
  EXPECT_EQ(pa.field.field_id, pb.field.field_id) << at;
  EXPECT_EQ(pa.field.metadata, pb.field.metadata) << at;
  const SchemaNode& na = a.nodes()[static_cast<size_t>(pa.node)];
  const SchemaNode& nb = b.nodes()[static_cast<size_t>(pb.node)];
  if (pa.kind == FieldPlan::Kind::kPrimitive) {
    EXPECT_TRUE(TypeEquals(pa.field.type, pb.field.type)) << at << ": " << pa.field.type->ToString() << " vs "
                                                          << pb.field.type->ToString();
    EXPECT_EQ(na.physical_type, nb.physical_type) << at;
    if (na.physical_type == Type::FIXED_LEN_BYTE_ARRAY) {
      EXPECT_EQ(na.type_length, nb.type_length) << at;
    }
    EXPECT_EQ(EffectiveLogicalType(na), EffectiveLogicalType(nb)) << at;
    EXPECT_EQ(na.converted_type == ConvertedType::INTERVAL, nb.converted_type == ConvertedType::INTERVAL) << at;
  }
  if (pa.kind == FieldPlan::Kind::kStruct) {
    EXPECT_EQ(EffectiveLogicalType(na), EffectiveLogicalType(nb)) << at;
  }
  ASSERT_EQ(pa.children.size(), pb.children.size()) << at;
  for (size_t i = 0; i < pa.children.size(); ++i) {
    ExpectSameField(a, pa.children[i], b, pb.children[i], pa.kind == FieldPlan::Kind::kStruct, at);
  }
}

void ExpectSameSchema(const ParquetSchema& a, const ParquetSchema& b, const std::string& name) {
  ASSERT_EQ(a.fields().size(), b.fields().size()) << name;
  EXPECT_EQ(a.num_columns(), b.num_columns()) << name;
  for (size_t i = 0; i < a.fields().size(); ++i) ExpectSameField(a, a.fields()[i], b, b.fields()[i], true, name);
}

// The file's rows as JSON lines, or nullopt when floe cannot read it.
std::optional<std::string> RowsOf(const std::string& path, std::shared_ptr<const ParquetFileReader>* file) {
  auto opened = ParquetFileReader::Open(NewLocalFileIO(), path);
  if (!opened.ok()) return std::nullopt;
  *file = std::move(opened).value();
  auto batches = ReadAllBatches(*file);
  if (!batches.ok()) return std::nullopt;
  auto text = FormatBatches(std::make_shared<const Schema>((*file)->schema().schema()), *batches,
                            PrintOptions{OutputFormat::kJsonl});
  if (!text.ok()) return std::nullopt;
  return *text;
}

// Rewrites `in` with the CLI under `options` and expects the same rows and schema.
void ExpectRewriteKeepsRowsAndSchema(const std::string& in, const std::string& out,
                                     const std::vector<std::string>& options) {
  std::shared_ptr<const ParquetFileReader> before;
  const std::optional<std::string> rows = RowsOf(in, &before);
  ASSERT_TRUE(rows.has_value()) << in;
  std::vector<std::string> args = {"parquet", "rewrite", in, out};
  args.insert(args.end(), options.begin(), options.end());
  auto rewrite = floe::testing::RunFloe(args);
  ASSERT_EQ(rewrite.exit_code, 0) << in << ": " << rewrite.err;
  std::shared_ptr<const ParquetFileReader> after;
  const std::optional<std::string> rows_after = RowsOf(out, &after);
  ASSERT_TRUE(rows_after.has_value()) << in;
  EXPECT_EQ(*rows_after, *rows) << in;
  ExpectSameSchema(before->schema(), after->schema(), in);
}

TEST(ParquetRoundTripTest, RewriteKeepsRowsSchemaAndFieldIdsOfEveryReadableFixture) {
  floe::testing::TempDir dir;
  const std::string data = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data";
  const std::vector<std::vector<std::string>> option_sets = {
      {"--codec", "brotli", "--page-version", "2", "--dictionary", "off", "--row-group-rows", "7"},
      {"--codec", "snappy"},
      {"--codec", "none", "--page-bytes", "100", "--no-page-index"},
      {"--codec", "gzip", "--page-version", "2"},
      {"--codec", "lz4_raw", "--dictionary", "off"},
  };
  int rewritten = 0;
  std::vector<std::string> unreadable;
  for (const std::string& in : testing::FilesEndingWith(data, ".parquet")) {
    std::shared_ptr<const ParquetFileReader> file;
    // large_string_map.brotli.parquet holds 2 GiB of strings: floe refuses it (budget), as intended.
    if (!RowsOf(in, &file).has_value()) {
      unreadable.push_back(testing::ShortName(in));
      continue;
    }
    SCOPED_TRACE(testing::ShortName(in));
    ExpectRewriteKeepsRowsAndSchema(in, dir.Join(StrCat("out", rewritten, ".parquet")),
                                    option_sets[static_cast<size_t>(rewritten) % option_sets.size()]);
    ++rewritten;
  }
  // Every file but the encrypted ones, the 2 GiB map and the deliberately
  // corrupt ones (bad dictionary, wrong page CRCs) is readable, and so rewritten.
  std::string unreadable_list;
  for (const std::string& name : unreadable) unreadable_list += name + " ";
  EXPECT_GE(rewritten, 60) << "unreadable: " << unreadable_list;
  for (const std::string& name : unreadable) {
    EXPECT_TRUE(name.find("encrypt") != std::string::npos || name.find("large_string_map") != std::string::npos ||
                name.find("nation.dict-malformed") != std::string::npos || name.find("corrupt-checksum") != std::string::npos)
        << name << " is not readable";
  }
}

TEST(ParquetRoundTripTest, RewriteKeepsFieldIdsAtEveryDepth) {
  floe::testing::TempDir dir;
  const std::string in = dir.Join("ids.parquet");
  const TypePtr point = DataType::Struct({Field("x", DataType::Float64(), true, {}, 11),
                                          Field("tag", DataType::Utf8(), true, {{"PARQUET:logical_type", "ENUM"}}, 12)});
  auto schema = testing::MakeSchema({
      Field("id", DataType::Int64(), false, {}, 1),
      Field("point", point, true, {}, 2),
      Field("tags", DataType::List(Field("element", DataType::Utf8(), true, {}, 4)), true, {}, 3),
      Field("attrs", *DataType::Map(Field("key", DataType::Utf8(), false, {}, 6), Field("value", DataType::Interval(), true, {}, 7)),
            true, {}, 5),
      Field("at", DataType::Timestamp(floe::TimeUnit::kMicro, "UTC"), true,
            {{"PARQUET:logical_type", "TIMESTAMP(MILLIS,true)"}}, 8),
  });
  std::mt19937_64 rng(7);
  std::vector<Array> columns;
  for (const Field& f : schema->fields) {
    auto column = testing::RandomColumn(f, 50, rng, 0.2);
    ASSERT_TRUE(column.ok()) << column.status().ToString();
    columns.push_back(std::move(*column));
  }
  // Whole milliseconds, as the annotation requires.
  std::vector<std::optional<int64_t>> millis;
  for (int64_t i = 0; i < 50; ++i) millis.push_back(i % 9 == 0 ? std::nullopt : std::optional<int64_t>(i * 86'400'123'000));
  columns[4] = testing::Primitive<int64_t>(schema->field(4).type, millis);
  ASSERT_TRUE(testing::WriteFile(in, schema, {testing::Batch(schema, columns)}).ok());
  ExpectRewriteKeepsRowsAndSchema(in, dir.Join("out.parquet"), {"--codec", "zstd", "--level", "9"});
  auto out = ParquetFileReader::Open(NewLocalFileIO(), dir.Join("out.parquet"));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->schema().schema(), *schema);  // list and map names are floe's own too

  auto bad = floe::testing::RunFloe({"parquet", "rewrite", in, dir.Join("out2.parquet"), "--codec", "lzo"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("lzo"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find('\n'), bad.err.size() - 1) << "one line: " << bad.err;
}

}  // namespace
}  // namespace floe::parquet
