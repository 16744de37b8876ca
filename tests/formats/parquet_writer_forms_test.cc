// The writer's less common forms: size statistics (SizeStatistics and the
// page index's histograms and byte counts), RLE booleans, INT96 timestamps
// and FLOAT16, each read back by floe and, where DuckDB is installed, by
// DuckDB with the same values.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "floe/columnar/batch_printer.h"
#include "floe/formats/parquet/encoding/float16.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace {

using encoding::FloatToHalf;
using encoding::HalfToFloat;

using testing::Batch;
using testing::MakeSchema;
using testing::WriteFile;

// The rows floe reads back, as JSON lines.
std::string ReadBackAsJsonLines(const std::string& path) {
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  if (!file.ok()) return "";
  std::shared_ptr<const ParquetFileReader> reader(std::move(*file));
  auto batches = ReadAllBatches(reader, {});
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  if (!batches.ok()) return "";
  auto schema = std::make_shared<const Schema>(reader->schema().schema());
  auto text = FormatBatches(schema, *batches, PrintOptions{OutputFormat::kJsonl});
  EXPECT_TRUE(text.ok());
  return text.ok() ? *text : "";
}

std::string Jsonl(const RecordBatch& batch) {
  auto text = FormatBatches(batch.schema_ptr(), std::span<const RecordBatch>(&batch, 1), PrintOptions{OutputFormat::kJsonl});
  EXPECT_TRUE(text.ok());
  return text.ok() ? *text : "";
}

// DuckDB reads `path` with the values of `expected` (compared in DuckDB, by the `rid` column).
void ExpectDuckDbReads(const std::string& path, const RecordBatch& expected, const std::string& dir) {
  if (!testing::DuckDbAvailable()) return;
  const std::string json = dir + "/expected.jsonl";
  {
    std::FILE* f = std::fopen(json.c_str(), "w");
    ASSERT_NE(f, nullptr);
    const std::string lines = testing::JsonLines({expected});
    std::fwrite(lines.data(), 1, lines.size(), f);
    std::fclose(f);
  }
  auto r = testing::RunDuckDb({testing::CompareSql(expected.schema(), path, json),
                               "SELECT count(*) AS n FROM read_parquet(" + testing::SqlString(path) + ")"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0], "{\"bad\":\"0\"}") << path;
  EXPECT_EQ(r.rows[1], StrCat("{\"n\":\"", expected.num_rows(), "\"}"));
}

std::span<const uint8_t> Slice(const std::string& file, int64_t offset, int64_t length) {
  return testing::AsBytes(file).subspan(static_cast<size_t>(offset), static_cast<size_t>(length));
}

TEST(ParquetWriterFormsTest, SizeStatisticsCountBytesAndLevelsPerChunkAndPage) {
  floe::testing::TempDir dir;
  const auto list_type = DataType::List(Field("element", DataType::Int64(), true));
  auto schema = MakeSchema({Field("rid", DataType::Int64(), false), Field("name", DataType::Utf8(), true),
                            Field("tags", list_type, true)});
  // Rows: name "ab", null, "", "wxyz"; tags [1, null], null, [], [7].
  auto batch = Batch(schema, {testing::Int64s({0, 1, 2, 3}), testing::Strings({"ab", std::nullopt, "", "wxyz"}),
                              testing::ListOf(list_type, {0, 2, 2, 2, 3}, {1, 0, 1, 1},
                                              testing::Int64s({1, std::nullopt, 7}))});
  const std::string path = dir.Join("sizes.parquet");
  WriterOptions o;
  o.page_rows = 2;  // two pages per column
  auto written = WriteFile(path, schema, {batch}, o);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  const auto& columns = written->metadata.row_groups[0].columns;

  // A required flat INT64 has nothing to report.
  EXPECT_FALSE(columns[0].meta_data->size_statistics.has_value());
  const SizeStatistics& name = *columns[1].meta_data->size_statistics;
  EXPECT_EQ(name.unencoded_byte_array_data_bytes, 6);  // "ab" + "" + "wxyz"
  EXPECT_FALSE(name.repetition_level_histogram.has_value());
  EXPECT_EQ(name.definition_level_histogram, (std::vector<int64_t>{1, 3}));
  const SizeStatistics& tags = *columns[2].meta_data->size_statistics;
  EXPECT_FALSE(tags.unencoded_byte_array_data_bytes.has_value());  // spec: BYTE_ARRAY only
  // Levels: [1, null] -> (def 3, rep 0), (def 2, rep 1); null -> def 0;
  // [] -> def 1; [7] -> def 3.
  EXPECT_EQ(tags.definition_level_histogram, (std::vector<int64_t>{1, 1, 1, 2}));
  EXPECT_EQ(tags.repetition_level_histogram, (std::vector<int64_t>{4, 1}));

  // The same per page in the page index, read back from the file's bytes.
  const std::string file = testing::ReadFileBytes(path);
  auto name_index = DecodeColumnIndex(Slice(file, *columns[1].column_index_offset, *columns[1].column_index_length));
  ASSERT_TRUE(name_index.ok()) << name_index.status().ToString();
  EXPECT_EQ(name_index->definition_level_histograms, (std::vector<int64_t>{1, 1, 0, 2}));
  EXPECT_FALSE(name_index->repetition_level_histograms.has_value());
  auto name_offsets = DecodeOffsetIndex(Slice(file, *columns[1].offset_index_offset, *columns[1].offset_index_length));
  ASSERT_TRUE(name_offsets.ok());
  EXPECT_EQ(name_offsets->unencoded_byte_array_data_bytes, (std::vector<int64_t>{2, 4}));
  auto tags_index = DecodeColumnIndex(Slice(file, *columns[2].column_index_offset, *columns[2].column_index_length));
  ASSERT_TRUE(tags_index.ok());
  EXPECT_EQ(tags_index->definition_level_histograms, (std::vector<int64_t>{1, 0, 1, 1, 0, 1, 0, 1}));
  EXPECT_EQ(tags_index->repetition_level_histograms, (std::vector<int64_t>{2, 1, 2, 0}));
  auto tags_offsets = DecodeOffsetIndex(Slice(file, *columns[2].offset_index_offset, *columns[2].offset_index_length));
  ASSERT_TRUE(tags_offsets.ok());
  EXPECT_FALSE(tags_offsets->unencoded_byte_array_data_bytes.has_value());

  // And through the footer a reader decodes.
  auto md = DecodeFileMetaData(testing::FindFooter(file).bytes);
  ASSERT_TRUE(md.ok());
  EXPECT_EQ(md->row_groups[0].columns[2].meta_data->size_statistics, tags);
  ExpectDuckDbReads(path, batch, dir.path());
}

TEST(ParquetWriterFormsTest, RleBooleansReadBackInBothPageVersions) {
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("rid", DataType::Int64(), false), Field("flag", DataType::Bool(), true),
                            Field("solid", DataType::Bool(), false)});
  BoolBuilder flags, solid;
  PrimitiveBuilder<int64_t> rid;
  for (int64_t i = 0; i < 3000; ++i) {
    ASSERT_TRUE(rid.Append(i).ok());
    // Runs, then noise, then nulls: both run kinds of the hybrid.
    if (i % 97 == 5) {
      ASSERT_TRUE(flags.AppendNull().ok());
    } else {
      ASSERT_TRUE(flags.Append(i < 1000 ? (i / 100) % 2 == 0 : (i * 2654435761u) % 7 < 3).ok());
    }
    ASSERT_TRUE(solid.Append(true).ok());
  }
  auto batch = Batch(schema, {*rid.Finish(), *flags.Finish(), *solid.Finish()});
  for (int version : {1, 2}) {
    const std::string path = dir.Join(StrCat("rle-v", version, ".parquet"));
    WriterOptions o;
    o.boolean_encoding = Encoding::RLE;
    o.data_page_version = version;
    o.page_rows = 1000;
    auto written = WriteFile(path, schema, {batch}, o);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    const ColumnMetaData& flag = *written->metadata.row_groups[0].columns[1].meta_data;
    EXPECT_NE(std::find(flag.encodings.begin(), flag.encodings.end(), Encoding::RLE), flag.encodings.end());
    EXPECT_EQ(std::find(flag.encodings.begin(), flag.encodings.end(), Encoding::PLAIN), flag.encodings.end());
    for (const PageEncodingStats& s : *flag.encoding_stats) EXPECT_EQ(s.encoding, Encoding::RLE);
    // 3000 equal values: a few bytes of RLE runs instead of 375 bytes of bits.
    const ColumnMetaData& all_true = *written->metadata.row_groups[0].columns[2].meta_data;
    EXPECT_LT(all_true.total_uncompressed_size, 150);
    EXPECT_EQ(ReadBackAsJsonLines(path), Jsonl(batch)) << "page version " << version;
    ExpectDuckDbReads(path, batch, dir.path());
  }
}

TEST(ParquetWriterFormsTest, Int96TimestampsAsSparkWritesThem) {
  floe::testing::TempDir dir;
  const auto micros = DataType::Timestamp(floe::TimeUnit::kMicro);
  auto schema = MakeSchema({Field("rid", DataType::Int64(), false), Field("ts", micros, true),
                            Field("plain", micros, true)});
  const int64_t day = int64_t{86400} * 1'000'000;
  const std::vector<std::optional<int64_t>> values = {0, 1, -1, day - 1, -day, std::nullopt,
                                                      1704141296123456,  // 2024-01-01 20:34:56.123456
                                                      -62135596800000000};  // 0001-01-01
  auto batch = Batch(schema, {testing::Int64s({0, 1, 2, 3, 4, 5, 6, 7}), testing::Primitive<int64_t>(micros, values),
                              testing::Primitive<int64_t>(micros, values)});
  const std::string path = dir.Join("int96.parquet");
  WriterOptions o;
  o.codec = compression::Codec::kUncompressed;  // to find a value's bytes below
  o.int96_timestamps = true;
  o.columns["plain"].int96 = false;  // a column's own choice wins
  auto written = WriteFile(path, schema, {batch}, o);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  const auto& md = written->metadata;
  EXPECT_EQ(md.schema[2].type, Type::INT96);
  EXPECT_FALSE(md.schema[2].logicalType.has_value());
  EXPECT_FALSE(md.schema[2].converted_type.has_value());
  EXPECT_EQ(md.schema[3].type, Type::INT64);
  const ColumnChunk& ts = md.row_groups[0].columns[1];
  // Undefined order: a null count, no bounds, no column index.
  EXPECT_EQ(ts.meta_data->statistics->null_count, 1);
  EXPECT_FALSE(ts.meta_data->statistics->min_value.has_value());
  EXPECT_FALSE(ts.column_index_offset.has_value());
  EXPECT_TRUE(ts.offset_index_offset.has_value());

  // The bytes of the value -1 us: day 2440587 (1969-12-31), 86399999999000 ns into it.
  const std::string file = testing::ReadFileBytes(path);
  const int64_t nanos = int64_t{86400} * 1'000'000'000 - 1000;
  const int32_t julian = 2440587;
  std::string minus_one(12, '\0');
  std::memcpy(minus_one.data(), &nanos, 8);
  std::memcpy(minus_one.data() + 8, &julian, 4);
  EXPECT_NE(file.find(minus_one), std::string::npos);

  // floe reads INT96 back as microseconds (decision 0017), DuckDB as a timestamp.
  EXPECT_EQ(ReadBackAsJsonLines(path), Jsonl(batch));
  ExpectDuckDbReads(path, batch, dir.path());
}

TEST(ParquetWriterFormsTest, Float16RoundsToHalvesWithFloatingPointStatistics) {
  floe::testing::TempDir dir;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::optional<float>> values = {1.0f, -2.5f, 0.1f, 65504.0f, 70000.0f, -0.0f, 0.0f,
                                                    std::nullopt, nan, 5.96e-8f, -inf, 3.0e-8f};
  auto schema = MakeSchema({Field("rid", DataType::Int64(), false), Field("h", DataType::Float32(), true)});
  auto batch = Batch(schema, {testing::Int64s({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
                              testing::Primitive<float>(DataType::Float32(), values)});
  std::vector<std::optional<float>> rounded;
  for (const auto& v : values) rounded.push_back(v ? std::optional<float>(HalfToFloat(FloatToHalf(*v))) : std::nullopt);
  auto expected = Batch(schema, {batch.column(0), testing::Primitive<float>(DataType::Float32(), rounded)});

  for (const Encoding encoding : {Encoding::PLAIN, Encoding::BYTE_STREAM_SPLIT}) {
    const std::string path = dir.Join(StrCat("half-", EncodingName(encoding), ".parquet"));
    WriterOptions o;
    o.columns["h"].float16 = true;
    o.columns["h"].encoding = encoding;
    auto written = WriteFile(path, schema, {batch}, o);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    const SchemaElement& el = written->metadata.schema[2];
    EXPECT_EQ(el.type, Type::FIXED_LEN_BYTE_ARRAY);
    EXPECT_EQ(el.type_length, 2);
    EXPECT_TRUE(el.logicalType && std::holds_alternative<Float16Type>(*el.logicalType));
    const Statistics& st = *written->metadata.row_groups[0].columns[1].meta_data->statistics;
    EXPECT_EQ(st.nan_count, 1);
    EXPECT_EQ(st.null_count, 1);
    // -inf is the minimum; 70000 overflows to +inf, the maximum.
    EXPECT_EQ(st.min_value, std::string("\x00\xfc", 2));
    EXPECT_EQ(st.max_value, std::string("\x00\x7c", 2));
    EXPECT_EQ(ReadBackAsJsonLines(path), Jsonl(expected)) << EncodingName(encoding);
    // DuckDB 1.5 reads BYTE_STREAM_SPLIT only for FLOAT and DOUBLE.
    if (encoding == Encoding::PLAIN) ExpectDuckDbReads(path, expected, dir.path());
  }
}

TEST(ParquetWriterFormsTest, FloatToHalfRoundsToNearestEven) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);  // the largest half
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);  // halfway to the next: ties to even, infinity
  EXPECT_EQ(FloatToHalf(0.1f), 0x2e66);
  EXPECT_EQ(FloatToHalf(1.0f + 1.0f / 2048), 0x3c00);      // a tie, to the even 1.0
  EXPECT_EQ(FloatToHalf(1.0f + 3.0f / 2048), 0x3c02);      // a tie, to the even 1.0 + 2^-9
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);   // the smallest subnormal
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)), 0x0000);   // half of it: ties to even, zero
  EXPECT_EQ(FloatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(FloatToHalf(std::ldexp(1023.0f, -24)), 0x03ff);  // the largest subnormal
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -14)), 0x0400);     // the smallest normal
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_TRUE(std::isnan(HalfToFloat(FloatToHalf(std::numeric_limits<float>::quiet_NaN()))));
  // Every half survives the way back.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = HalfToFloat(static_cast<uint16_t>(h));
    if (!std::isnan(f)) {
      EXPECT_EQ(FloatToHalf(f), h) << h;
    }
  }
}

TEST(ParquetWriterFormsTest, RejectsFormsTheColumnCannotTake) {
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("i", DataType::Int64()), Field("d", DataType::Float64()), Field("b", DataType::Bool()),
                            Field("t", DataType::Timestamp(floe::TimeUnit::kMicro))});
  const auto open = [&](WriterOptions o) {
    return ParquetFileWriter::Open(NewLocalFileIO(), dir.Join("x.parquet"), schema, std::move(o)).status();
  };
  WriterOptions int96_on_int;
  int96_on_int.columns["i"].int96 = true;
  EXPECT_TRUE(open(int96_on_int).IsInvalidArgument()) << open(int96_on_int).ToString();
  WriterOptions half_on_double;
  half_on_double.columns["d"].float16 = true;
  EXPECT_TRUE(open(half_on_double).IsInvalidArgument());
  WriterOptions rle_on_int;
  rle_on_int.columns["i"].encoding = Encoding::RLE;
  EXPECT_TRUE(open(rle_on_int).IsInvalidArgument());
  WriterOptions delta_booleans;
  delta_booleans.boolean_encoding = Encoding::DELTA_BINARY_PACKED;
  EXPECT_TRUE(open(delta_booleans).IsInvalidArgument());
  // Decision 0035: no bloom filters on BOOLEAN (exact min/max say it all) or INT96.
  WriterOptions bool_bloom;
  bool_bloom.columns["b"].bloom_filter = true;
  EXPECT_TRUE(open(bool_bloom).IsInvalidArgument());
  WriterOptions int96_bloom;
  int96_bloom.int96_timestamps = true;
  int96_bloom.columns["t"].bloom_filter = true;
  EXPECT_TRUE(open(int96_bloom).IsInvalidArgument());
  WriterOptions int96_delta;
  int96_delta.int96_timestamps = true;
  int96_delta.columns["t"].encoding = Encoding::DELTA_BINARY_PACKED;
  EXPECT_TRUE(open(int96_delta).IsInvalidArgument());
}

}  // namespace
}  // namespace floe::parquet
