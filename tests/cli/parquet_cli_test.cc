// `floe parquet schema|meta|cat|rewrite` as a user meets them: the schema
// tree with logical types and field ids, page index and bloom filter
// presence, `cat` in every output format, each rewrite option taking effect
// in the file it writes, and rewrites of other engines' files keeping their
// schema and rows.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

#include "floe/base/strings.h"
#include "floe/columnar/builder.h"
#include "floe/formats/parquet/bloom_filter_reader.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/page_index.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"
#include "testing/run_process.h"
#include "testing/temp_dir.h"

namespace floe {
namespace {

using testing::RunFloe;

using testing::kCleanEnv;

Status WriteParquet(const std::string& path, std::shared_ptr<const Schema> schema, std::vector<Array> columns,
                    parquet::WriterOptions options = {}) {
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema, std::move(columns)));
  FLOE_ASSIGN_OR_RETURN(auto writer, parquet::ParquetFileWriter::Open(NewLocalFileIO(), path, schema, options));
  FLOE_RETURN_IF_ERROR(writer->Write(batch));
  return writer->Close().status();
}

// Five rows of a (int64), b (string, one null), c (double).
std::string WriteSmallFile(const testing::TempDir& dir) {
  const std::string path = dir.Join("small.parquet");
  Int64Builder a;
  StringBuilder b;
  Float64Builder c;
  const char* names[] = {"ant", "bee", nullptr, "a \"quoted\", name", "eel"};
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(a.Append(i * 10 - 20).ok());
    EXPECT_TRUE((names[i] ? b.Append(names[i]) : b.AppendNull()).ok());
    EXPECT_TRUE(c.Append(i / 4.0).ok());
  }
  auto schema = std::make_shared<const Schema>(
      std::vector<Field>{Field("a", DataType::Int64(), false), Field("b", DataType::Utf8()), Field("c", DataType::Float64())});
  EXPECT_TRUE(WriteParquet(path, schema, {a.Finish().value(), b.Finish().value(), c.Finish().value()}).ok());
  return path;
}

// `rows` rows: id (int64), name (string of 300 distinct), key (string,
// unique), score (double).
std::string WriteLargerFile(const testing::TempDir& dir, int64_t rows = 20000) {
  const std::string path = dir.Join(StrCat("larger", rows, ".parquet"));
  Int64Builder id;
  StringBuilder name;
  StringBuilder key;
  Float64Builder score;
  for (int64_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(id.Append(i).ok());
    EXPECT_TRUE(name.Append(StrCat("customer name number ", i * 7919 % 300)).ok());
    EXPECT_TRUE(key.Append(StrCat("key-", i)).ok());
    EXPECT_TRUE(score.Append(static_cast<double>(i % 1000) / 8).ok());
  }
  auto schema = std::make_shared<const Schema>(
      std::vector<Field>{Field("id", DataType::Int64(), false), Field("name", DataType::Utf8(), false),
                         Field("key", DataType::Utf8(), false), Field("score", DataType::Float64(), false)});
  EXPECT_TRUE(
      WriteParquet(path, schema, {id.Finish().value(), name.Finish().value(), key.Finish().value(), score.Finish().value()})
          .ok());
  return path;
}

std::unique_ptr<parquet::ParquetFileReader> Open(const std::string& path) {
  auto file = parquet::ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  return file.ok() ? std::move(file).value() : nullptr;
}

// The data pages of column `column` over all row groups, from the offset index.
int64_t CountPages(const std::string& path, int column) {
  auto file = Open(path);
  int64_t pages = 0;
  for (int g = 0; g < file->num_row_groups(); ++g) {
    const int columns[] = {column};
    auto index = parquet::ReadPageIndex(*file, g, columns);
    EXPECT_TRUE(index.ok()) << index.status().ToString();
    EXPECT_TRUE((*index)[0].offset_index.has_value());
    pages += static_cast<int64_t>((*index)[0].offset_index->page_locations.size());
  }
  return pages;
}

TEST(ParquetCliTest, SchemaShowsTheTreeWithLogicalTypesAndFieldIds) {
  testing::TempDir dir;
  const std::string path = dir.Join("ids.parquet");
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      Field("id", DataType::Int64(), false, {}, 1),
      Field("price", *DataType::Decimal128(9, 2), true, {}, 2),
      Field("at", DataType::Timestamp(TimeUnit::kMicro, "UTC"), true, {{"PARQUET:logical_type", "TIMESTAMP(MILLIS,true)"}}, 3),
      Field("tags", DataType::List(Field("element", DataType::Utf8(), true, {}, 5)), true, {}, 4),
      Field("attrs", *DataType::Map(Field("key", DataType::Utf8(), false, {}, 7), Field("value", DataType::Int32(), true, {}, 8)),
            true, {}, 6),
      Field("point", DataType::Struct({Field("x", DataType::Float64(), true, {}, 10)}), true, {}, 9),
      Field("mood", DataType::Utf8(), true, {{"PARQUET:logical_type", "ENUM"}}, 11),
      Field("span", DataType::Interval(), true, {}, 12),
  });
  std::vector<Array> columns;
  for (const Field& f : schema->fields) {
    auto builder = MakeBuilder(f.type);
    ASSERT_TRUE(f.nullable ? builder->AppendNull().ok() : builder->As<Int64Builder>()->Append(1).ok());
    columns.push_back(builder->Finish().value());
  }
  ASSERT_TRUE(WriteParquet(path, schema, columns).ok());
  auto r = RunFloe({"parquet", "schema", path}, kCleanEnv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "message schema {\n"
            "  required int64 id = 1;  -- int64, def 0 rep 0\n"
            "  optional int32 price (DECIMAL(9,2)) = 2;  -- decimal(9,2), def 1 rep 0\n"
            "  optional int64 at (TIMESTAMP(MILLIS,true)) = 3;  -- timestamp[us, tz=UTC], def 1 rep 0\n"
            "  optional group tags (LIST) = 4 {\n"
            "    repeated group list {\n"
            "      optional byte_array element (STRING) = 5;  -- string, def 3 rep 1\n"
            "    }\n"
            "  }\n"
            "  optional group attrs (MAP) = 6 {\n"
            "    repeated group key_value {\n"
            "      required byte_array key (STRING) = 7;  -- string, def 2 rep 1\n"
            "      optional int32 value = 8;  -- int32, def 3 rep 1\n"
            "    }\n"
            "  }\n"
            "  optional group point = 9 {\n"
            "    optional double x = 10;  -- float64, def 2 rep 0\n"
            "  }\n"
            "  optional byte_array mood (ENUM) = 11;  -- string, def 1 rep 0\n"
            "  optional fixed_len_byte_array(12) span (INTERVAL) = 12;  -- interval, def 1 rep 0\n"
            "}\n");
}

TEST(ParquetCliTest, SchemaShowsAnotherEnginesAnnotations) {
  const std::string file = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/geospatial/crs-geography.parquet";
  auto r = RunFloe({"parquet", "schema", file}, kCleanEnv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(GEOGRAPHY"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("-- binary"), std::string::npos) << r.out;
}

TEST(ParquetCliTest, CatPrintsVariantsAsJsonOrAsStored) {
  const std::string dir = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/shredded_variant/";
  // A shredded array of strings, rebuilt.
  auto json = RunFloe({"--format", "jsonl", "parquet", "cat", dir + "case-001.parquet"}, kCleanEnv);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, "{\"id\":1,\"var\":[\"comedy\",\"drama\"]}\n");
  auto table = RunFloe({"parquet", "cat", dir + "case-046.parquet"}, kCleanEnv);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("| {\"a\":null,\"b\":\"\"} |"), std::string::npos) << table.out;
  // As stored: the metadata, value and typed_value columns.
  auto binary =
      RunFloe({"--format", "jsonl", "parquet", "cat", dir + "case-001.parquet", "--variant", "binary"}, kCleanEnv);
  ASSERT_EQ(binary.exit_code, 0) << binary.err;
  EXPECT_NE(binary.out.find("\"metadata\":\"010000\""), std::string::npos) << binary.out;
  // A file the spec calls invalid: one line naming the file, the column and the row.
  auto invalid = RunFloe({"parquet", "cat", dir + "case-040.parquet"}, kCleanEnv);
  EXPECT_NE(invalid.exit_code, 0);
  EXPECT_EQ(invalid.out, "");
  EXPECT_EQ(std::count(invalid.err.begin(), invalid.err.end(), '\n'), 1) << invalid.err;
  EXPECT_NE(invalid.err.find("case-040.parquet: column 'var': variant at row 0: "), std::string::npos) << invalid.err;
  EXPECT_NE(invalid.err.find("conflicting value and typed_value"), std::string::npos) << invalid.err;
}

TEST(ParquetCliTest, CatPrintsVariantsNestedInStructsAndListsAsJson) {
  // case-001's variant (one row: ["comedy","drama"], shredded), written by
  // floe inside a struct and a list.
  auto source = parquet::ParquetFileReader::Open(
      NewLocalFileIO(), std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/shredded_variant/case-001.parquet");
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto batches = parquet::ReadAllBatches(std::shared_ptr<const parquet::ParquetFileReader>(std::move(*source)));
  ASSERT_TRUE(batches.ok() && batches->size() == 1);
  const RecordBatch& batch = batches->front();
  const Field& variant = batch.schema().field(batch.schema().FieldIndex("var"));
  const Array& values = batch.column(batch.schema().FieldIndex("var"));
  ASSERT_EQ(values.length(), 1);
  Int64Builder id;
  ASSERT_TRUE(id.Append(7).ok());
  const Field row("s",
                  DataType::Struct({Field("id", DataType::Int64()), Field("v", variant.type, true, variant.metadata)}));
  const Array rows(
      std::make_shared<ArrayData>(row.type, 1, std::vector<Buffer>{Buffer()},
                                  std::vector<std::shared_ptr<const ArrayData>>{id.Finish()->data(), values.data()}));
  const Field list("l", DataType::List(Field("element", variant.type, true, variant.metadata)));
  const int32_t offsets[] = {0, 1};
  const Array lists(std::make_shared<ArrayData>(
      list.type, 1,
      std::vector<Buffer>{Buffer(), Buffer::CopyOf(std::string_view(reinterpret_cast<const char*>(offsets), 8))},
      std::vector<std::shared_ptr<const ArrayData>>{values.data()}));
  testing::TempDir dir;
  const std::string path = dir.Join("nested_variant.parquet");
  ASSERT_TRUE(WriteParquet(path, std::make_shared<Schema>(std::vector<Field>{row, list}), {rows, lists}).ok());

  auto json = RunFloe({"--format", "jsonl", "parquet", "cat", path}, kCleanEnv);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, "{\"s\":{\"id\":7,\"v\":[\"comedy\",\"drama\"]},\"l\":[[\"comedy\",\"drama\"]]}\n");
  auto csv = RunFloe({"--format", "csv", "parquet", "cat", path}, kCleanEnv);
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out,
            "s,l\n\"{\"\"id\"\":7,\"\"v\"\":[\"\"comedy\"\",\"\"drama\"\"]}\",\"[[\"\"comedy\"\",\"\"drama\"\"]]\"\n");
  auto binary = RunFloe({"--format", "jsonl", "parquet", "cat", path, "--variant", "binary"}, kCleanEnv);
  ASSERT_EQ(binary.exit_code, 0) << binary.err;
  EXPECT_NE(binary.out.find("\"v\":{\"metadata\":"), std::string::npos) << binary.out;
}

TEST(ParquetCliTest, MetaShowsGeospatialStatisticsAndRewriteKeepsThem) {
  testing::TempDir dir;
  const std::string file =
      std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/geospatial/crs-default.parquet";
  const std::string out = dir.Join("geo.parquet");
  auto rewrite = RunFloe({"parquet", "rewrite", file, out}, kCleanEnv);
  ASSERT_EQ(rewrite.exit_code, 0) << rewrite.err;
  EXPECT_NE(rewrite.out.find(": 1 row, 1 row group, "), std::string::npos) << rewrite.out;
  for (const std::string& path : {file, out}) {
    auto meta = RunFloe({"--format", "csv", "parquet", "meta", path}, kCleanEnv);
    ASSERT_EQ(meta.exit_code, 0) << meta.err;
    EXPECT_NE(meta.out.find(",geospatial,encryption\n"), std::string::npos) << meta.out;
    // parquet-cpp's box of the polygon, and floe's of the same values.
    EXPECT_NE(meta.out.find(",x -111..-104 y 41..45; polygon,\n"), std::string::npos) << meta.out;
  }
}

// `floe parquet schema` text without what a rewrite may rename: the root
// (floe's writer calls it "schema"), and a legacy UTF8 converted type, which
// the writer writes as the STRING logical type it stands for.
std::string ComparableSchema(const std::string& text) {
  std::string out = std::regex_replace(text, std::regex("^message [^ ]+ \\{"), "message {");
  return std::regex_replace(out, std::regex("\\(UTF8\\)"), "(STRING)");
}

// The rows and columns `floe parquet meta` reports ("rows: 8 columns: 11");
// not the row groups, which a rewrite may regroup.
std::string RowsAndColumns(const std::string& meta) {
  std::smatch m;
  if (!std::regex_search(meta, m, std::regex("rows: ([0-9]+), row groups: [0-9]+, columns: ([0-9]+)"))) return "";
  return StrCat("rows: ", m[1].str(), " columns: ", m[2].str());
}

TEST(ParquetCliTest, RewriteKeepsTheSchemaAndRowsOfOtherEnginesFiles) {
  testing::TempDir dir;
  const std::string data = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/";
  struct Case {
    std::string file;
    std::string codec;  // as `meta` names it afterwards
    std::vector<std::string> options;
  };
  const std::vector<Case> cases = {
      // INT96 timestamps (Impala, Spark), with dictionaries.
      {"alltypes_plain.parquet", "ZSTD", {}},
      {"int96_from_spark.parquet", "SNAPPY", {"--codec", "snappy", "--page-version", "2"}},
      // Decimals in INT32, INT64, FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY.
      {"int32_decimal.parquet", "GZIP", {"--codec", "gzip"}},
      {"int64_decimal.parquet", "LZ4_RAW", {"--codec", "lz4_raw", "--dictionary", "off"}},
      {"fixed_length_decimal.parquet", "UNCOMPRESSED", {"--codec", "none"}},
      {"fixed_length_decimal_legacy.parquet", "BROTLI", {"--codec", "brotli"}},
      {"byte_array_decimal.parquet", "ZSTD", {"--row-group-rows", "7"}},
      // FLOAT16; GEOMETRY and GEOGRAPHY with their CRS; an unknown logical type.
      {"float16_nonzeros_and_nans.parquet", "ZSTD", {"--page-bytes", "64"}},
      {"geospatial/crs-projjson.parquet", "ZSTD", {}},
      {"geospatial/crs-geography.parquet", "SNAPPY", {"--codec", "snappy"}},
      {"geospatial/geospatial.parquet", "ZSTD", {"--no-page-index"}},
      {"unknown-logical-type.parquet", "ZSTD", {}},
      // Nesting, nulls, delta encodings and bloom filters of other writers.
      {"nested_lists.snappy.parquet", "ZSTD", {"--row-group-rows", "1"}},
      {"nulls.snappy.parquet", "ZSTD", {}},
      {"data_index_bloom_encoding_stats.parquet", "ZSTD", {"--bloom", "String"}},
      {"delta_byte_array.parquet", "ZSTD", {"--page-version", "2", "--dictionary", "off"}},
      // VARIANT groups, shredded into typed_value fields and lists.
      {"../shredded_variant/case-001.parquet", "ZSTD", {}},
      {"../shredded_variant/case-046.parquet", "SNAPPY", {"--codec", "snappy"}},
      {"../shredded_variant/case-138.parquet", "ZSTD", {"--page-version", "2"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string in = data + c.file;
    const std::string out = dir.Join(std::filesystem::path(c.file).filename().string());
    std::vector<std::string> args = {"parquet", "rewrite", in, out};
    args.insert(args.end(), c.options.begin(), c.options.end());
    auto rewrite = RunFloe(args, kCleanEnv);
    ASSERT_EQ(rewrite.exit_code, 0) << rewrite.err;

    auto schema_in = RunFloe({"parquet", "schema", in}, kCleanEnv);
    auto schema_out = RunFloe({"parquet", "schema", out}, kCleanEnv);
    ASSERT_EQ(schema_in.exit_code, 0) << schema_in.err;
    ASSERT_EQ(schema_out.exit_code, 0) << schema_out.err;
    EXPECT_EQ(ComparableSchema(schema_out.out), ComparableSchema(schema_in.out));

    auto rows_in = RunFloe({"--format", "jsonl", "parquet", "cat", in}, kCleanEnv);
    auto rows_out = RunFloe({"--format", "jsonl", "parquet", "cat", out}, kCleanEnv);
    ASSERT_EQ(rows_out.exit_code, 0) << rows_out.err;
    EXPECT_FALSE(rows_in.out.empty());
    EXPECT_EQ(rows_out.out, rows_in.out);

    auto meta_in = RunFloe({"parquet", "meta", in}, kCleanEnv);
    auto meta_out = RunFloe({"parquet", "meta", out, "--format", "csv"}, kCleanEnv);
    ASSERT_EQ(meta_out.exit_code, 0) << meta_out.err;
    const std::string rows = RowsAndColumns(meta_in.out);
    ASSERT_FALSE(rows.empty()) << meta_in.out;
    EXPECT_EQ(RowsAndColumns(meta_out.out), rows) << meta_out.out;
    // Every column chunk in the asked codec.
    int chunks = 0;
    for (const std::string_view line : Split(meta_out.out, '\n')) {
      if (line.empty() || line[0] < '0' || line[0] > '9') continue;
      ++chunks;
      EXPECT_NE(line.find(StrCat(",", c.codec, ",")), std::string::npos) << line;
    }
    EXPECT_GT(chunks, 0) << meta_out.out;
  }
}

TEST(ParquetCliTest, SchemaAndCatShowAnotherEnginesInt96AndDecimals) {
  const std::string data = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/";
  auto schema = RunFloe({"parquet", "schema", data + "int96_from_spark.parquet"}, kCleanEnv);
  ASSERT_EQ(schema.exit_code, 0) << schema.err;
  EXPECT_EQ(schema.out,
            "message spark_schema {\n"
            "  optional int96 a;  -- timestamp[us], def 1 rep 0\n"
            "}\n");
  // int96_from_spark.md: Spark cast "2024-01-01T12:34:56.123456",
  // "2024-01-01T01:00:00Z", "9999-12-31T01:00:00-02:00",
  // "2024-12-31T01:00:00+02:00", null and "290000-12-31T01:00:00+02:00" to
  // instants (the first in its session's zone, UTC-8); floe prints them in UTC.
  auto cat = RunFloe({"--format", "csv", "parquet", "cat", data + "int96_from_spark.parquet"}, kCleanEnv);
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_EQ(cat.out,
            "a\n2024-01-01T20:34:56.123456\n2024-01-01T01:00:00.000000\n9999-12-31T03:00:00.000000\n"
            "2024-12-30T23:00:00.000000\n\n290000-12-30T23:00:00.000000\n");
  auto decimals = RunFloe({"--format", "csv", "parquet", "cat", data + "byte_array_decimal.parquet", "--limit", "3"},
                          kCleanEnv);
  ASSERT_EQ(decimals.exit_code, 0) << decimals.err;
  EXPECT_EQ(decimals.out, "value\n1.00\n2.00\n3.00\n");
}

TEST(ParquetCliTest, MetaShowsPageIndexAndBloomFilterPresence) {
  testing::TempDir dir;
  const std::string in = WriteLargerFile(dir);
  const std::string out = dir.Join("bloom.parquet");
  auto rewrite = RunFloe({"parquet", "rewrite", in, out, "--page-index", "--bloom", "key"}, kCleanEnv);
  ASSERT_EQ(rewrite.exit_code, 0) << rewrite.err;
  auto meta = RunFloe({"parquet", "meta", out, "--format", "csv"}, kCleanEnv);
  ASSERT_EQ(meta.exit_code, 0) << meta.err;
  EXPECT_NE(meta.out.find("row_group,column,type,codec,encodings,values,nulls,compressed,uncompressed,min,max,"
                          "page_index,bloom_filter,"),
            std::string::npos)
      << meta.out;
  // The key column: page index and bloom filter; the others: page index only.
  EXPECT_NE(meta.out.find("0,key,string,ZSTD,"), std::string::npos) << meta.out;
  for (const std::string_view line : Split(meta.out, '\n')) {
    if (!StartsWith(line, "0,")) continue;
    EXPECT_NE(line.find(",column+offset,"), std::string::npos) << line;
    EXPECT_NE(line.find(StartsWith(line, "0,key,") ? ",column+offset,true" : ",column+offset,false"),
              std::string::npos)
        << line;
  }
  auto without = RunFloe({"parquet", "rewrite", in, dir.Join("plain.parquet"), "--no-page-index"}, kCleanEnv);
  ASSERT_EQ(without.exit_code, 0) << without.err;
  auto plain = RunFloe({"parquet", "meta", dir.Join("plain.parquet"), "--format", "csv"}, kCleanEnv);
  EXPECT_NE(plain.out.find(",none,false,"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find("column+offset"), std::string::npos) << plain.out;
}

TEST(ParquetCliTest, CatPrintsChosenColumnsAndRowsInEveryFormat) {
  testing::TempDir dir;
  const std::string path = WriteSmallFile(dir);
  auto cat = [&](const std::string& format, const std::string& columns, const std::string& limit) {
    auto r = RunFloe({"--format", format, "parquet", "cat", path, "--columns", columns, "--limit", limit}, kCleanEnv);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  EXPECT_EQ(cat("table", "a,b", "4"),
            "+-----+------------------+\n"
            "| a   | b                |\n"
            "+-----+------------------+\n"
            "| -20 | ant              |\n"
            "| -10 | bee              |\n"
            "|   0 | NULL             |\n"
            "|  10 | a \"quoted\", name |\n"
            "+-----+------------------+\n"
            "4 rows\n");
  EXPECT_EQ(cat("csv", "a,b", "4"), "a,b\n-20,ant\n-10,bee\n0,\n10,\"a \"\"quoted\"\", name\"\n");
  EXPECT_EQ(cat("json", "b,a", "2"), "[\n{\"b\":\"ant\",\"a\":-20},\n{\"b\":\"bee\",\"a\":-10}\n]\n");
  EXPECT_EQ(cat("jsonl", "c,a", "3"), "{\"c\":0,\"a\":-20}\n{\"c\":0.25,\"a\":-10}\n{\"c\":0.5,\"a\":0}\n");
  EXPECT_EQ(cat("csv", "c", "0"), "c\n");
  EXPECT_EQ(cat("csv", "a", "100"), "a\n-20\n-10\n0\n10\n20\n");  // a limit past the end prints every row

  auto bad = RunFloe({"parquet", "cat", path, "--columns", "a,nope"}, kCleanEnv);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("nope"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

TEST(ParquetCliTest, OutOfRangeCountsAreOneLineNamingTheOption) {
  testing::TempDir dir;
  const std::string path = WriteSmallFile(dir);
  const std::string out = dir.Join("out.parquet");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"parquet", "cat", path, "--limit", "-1"}, "--limit: expected a number of rows >= 0, not '-1'"},
      {{"parquet", "cat", path, "--limit", "all"}, "--limit: expected a number of rows >= 0, not 'all'"},
      {{"parquet", "rewrite", path, out, "--row-group-rows", "0"},
       "--row-group-rows: expected a number of rows >= 1, not '0'"},
      {{"parquet", "rewrite", path, out, "--row-group-bytes", "-5"},
       "--row-group-bytes: expected a number of bytes >= 1, not '-5'"},
      {{"parquet", "rewrite", path, out, "--page-bytes", "1k"},
       "--page-bytes: expected a number of bytes >= 1, not '1k'"},
      {{"parquet", "rewrite", path, out, "--page-rows", "0"}, "--page-rows: expected a number of rows >= 1, not '0'"},
  };
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args.back());
    auto r = RunFloe(args, kCleanEnv);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(ParquetCliTest, RewriteRowGroupBytesSplitsRowGroups) {
  testing::TempDir dir;
  // The writer weighs a row group between slices of at most 65,536 rows
  // (file_writer.cc), so a row group of >= 20,000 bytes ends at each slice:
  // 300,000 rows make 5.
  const std::string in = WriteLargerFile(dir, 300000);
  ASSERT_EQ(Open(in)->num_row_groups(), 1);
  const std::string out = dir.Join("groups.parquet");
  auto r = RunFloe({"parquet", "rewrite", in, out, "--row-group-bytes", "20000"}, kCleanEnv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto file = Open(out);
  EXPECT_GE(file->num_row_groups(), 300000 / 65536);
  EXPECT_EQ(file->num_rows(), 300000);
  EXPECT_NE(r.out.find(StrCat("300000 rows, ", file->num_row_groups(), " row groups")), std::string::npos) << r.out;
  auto meta = RunFloe({"parquet", "meta", out}, kCleanEnv);
  EXPECT_NE(meta.out.find(StrCat("row groups: ", file->num_row_groups())), std::string::npos) << meta.out;
}

TEST(ParquetCliTest, RewriteLevelChangesTheCompressedSize) {
  testing::TempDir dir;
  const std::string in = WriteLargerFile(dir);
  for (const char* level : {"1", "19"}) {
    auto r = RunFloe({"parquet", "rewrite", in, dir.Join(StrCat("z", level, ".parquet")), "--codec", "zstd", "--level",
                      level, "--dictionary", "off"},
                     kCleanEnv);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  // The level reaches zstd. (Not always for the better: on these sequential
  // ids and keys zstd's level 19 compresses worse than level 1, as the zstd
  // command does on the same bytes.)
  EXPECT_NE(std::filesystem::file_size(dir.Join("z19.parquet")), std::filesystem::file_size(dir.Join("z1.parquet")));
  auto bad = RunFloe({"parquet", "rewrite", in, dir.Join("bad.parquet"), "--codec", "zstd", "--level", "99"}, kCleanEnv);
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir.Join("bad.parquet")));
}

TEST(ParquetCliTest, RewriteBloomWritesAFilterThatAnswersProbes) {
  testing::TempDir dir;
  const std::string in = WriteLargerFile(dir);
  const std::string out = dir.Join("bloom.parquet");
  auto r = RunFloe({"parquet", "rewrite", in, out, "--bloom", "key,id"}, kCleanEnv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto file = Open(out);
  auto key = parquet::ReadBloomFilter(*file, 0, 2);
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  ASSERT_TRUE(key->has_value());
  auto id = parquet::ReadBloomFilter(*file, 0, 0);
  ASSERT_TRUE(id.ok() && id->has_value());
  auto name = parquet::ReadBloomFilter(*file, 0, 1);
  ASSERT_TRUE(name.ok());
  EXPECT_FALSE(name->has_value());  // not asked for
  for (int64_t i = 0; i < 20000; i += 97) {
    EXPECT_TRUE((*key)->Check(parquet::BloomHash(StrCat("key-", i)))) << i;
    EXPECT_TRUE((*id)->Check(parquet::BloomHash(i))) << i;
  }
  int false_positives = 0;
  for (int64_t i = 20000; i < 21000; ++i) {
    false_positives += (*key)->Check(parquet::BloomHash(StrCat("key-", i))) ? 1 : 0;
    false_positives += (*id)->Check(parquet::BloomHash(i)) ? 1 : 0;
  }
  EXPECT_LT(false_positives, 100);  // the default fpp is 1%: about 20 of 2,000 absent values

  auto bad = RunFloe({"parquet", "rewrite", in, dir.Join("bad.parquet"), "--bloom", "nope"}, kCleanEnv);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("nope"), std::string::npos) << bad.err;
}

TEST(ParquetCliTest, RewriteEncodingWritesAColumnsPagesInIt) {
  testing::TempDir dir;
  const std::string in = WriteLargerFile(dir);
  const std::string out = dir.Join("encoded.parquet");
  auto r = RunFloe({"parquet", "rewrite", in, out, "--encoding", "id=DELTA_BINARY_PACKED", "--encoding",
                    "score=byte_stream_split", "--encoding", "key=DELTA_BYTE_ARRAY"},
                   kCleanEnv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto file = Open(out);
  ASSERT_NE(file, nullptr);
  // Each named column in its encoding alone; the other keeps its dictionary.
  const std::vector<std::vector<parquet::Encoding>> expected = {
      {parquet::Encoding::DELTA_BINARY_PACKED},
      {parquet::Encoding::PLAIN, parquet::Encoding::RLE_DICTIONARY},
      {parquet::Encoding::DELTA_BYTE_ARRAY},
      {parquet::Encoding::BYTE_STREAM_SPLIT}};
  for (int c = 0; c < 4; ++c) {
    SCOPED_TRACE(c);
    const auto& meta = file->metadata().row_groups[0].columns[c].meta_data;
    ASSERT_TRUE(meta.has_value());
    std::vector<parquet::Encoding> data_encodings;
    for (const parquet::Encoding e : meta->encodings) {
      if (e != parquet::Encoding::RLE) data_encodings.push_back(e);  // RLE: the levels
    }
    std::sort(data_encodings.begin(), data_encodings.end());
    EXPECT_EQ(data_encodings, expected[c]);
  }
  auto rows_in = RunFloe({"--format", "csv", "parquet", "cat", in}, kCleanEnv);
  auto rows_out = RunFloe({"--format", "csv", "parquet", "cat", out}, kCleanEnv);
  ASSERT_EQ(rows_out.exit_code, 0) << rows_out.err;
  EXPECT_EQ(rows_out.out, rows_in.out);

  // An encoding the column's type lacks, an unknown one, and no '=': one
  // line naming what is wrong, and no output.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"key=BYTE_STREAM_SPLIT", "column 'key': encoding BYTE_STREAM_SPLIT cannot encode BYTE_ARRAY values"},
      {"id=ZIGZAG", "'ZIGZAG' is not PLAIN, DELTA_BINARY_PACKED"},
      {"DELTA_BINARY_PACKED", "--encoding takes PATH=ENCODING, not 'DELTA_BINARY_PACKED'"}};
  for (const auto& [arg, named] : bad) {
    SCOPED_TRACE(arg);
    const std::string bad_out = dir.Join("bad.parquet");
    auto refused = RunFloe({"parquet", "rewrite", in, bad_out, "--encoding", arg}, kCleanEnv);
    EXPECT_EQ(refused.exit_code, 1);
    EXPECT_NE(refused.err.find(named), std::string::npos) << refused.err;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
    EXPECT_FALSE(std::filesystem::exists(bad_out));
  }
}

TEST(ParquetCliTest, RewritePageBytesCutsMorePages) {
  testing::TempDir dir;
  const std::string in = WriteLargerFile(dir);
  auto big = RunFloe({"parquet", "rewrite", in, dir.Join("big.parquet"), "--dictionary", "off"}, kCleanEnv);
  ASSERT_EQ(big.exit_code, 0) << big.err;
  auto small = RunFloe({"parquet", "rewrite", in, dir.Join("small.parquet"), "--dictionary", "off", "--page-bytes", "4096"},
                       kCleanEnv);
  ASSERT_EQ(small.exit_code, 0) << small.err;
  // The key column's 20,000 strings take about 270 KB: one page by default
  // (1 MiB). The writer weighs a page every 1,024 values (column_chunk_writer.cc),
  // about 14 KB of keys, so at 4 KiB each 1,024 values make a page.
  EXPECT_EQ(CountPages(dir.Join("big.parquet"), 2), 1);
  EXPECT_GE(CountPages(dir.Join("small.parquet"), 2), 20000 / 1024);
  EXPECT_GT(CountPages(dir.Join("small.parquet"), 0), CountPages(dir.Join("big.parquet"), 0));
  // --page-rows cuts pages by rows whatever their bytes: 20,000 rows in
  // pages of at most 3,000 are 7 pages.
  auto by_rows = RunFloe(
      {"parquet", "rewrite", in, dir.Join("rows.parquet"), "--dictionary", "off", "--page-rows", "3000"}, kCleanEnv);
  ASSERT_EQ(by_rows.exit_code, 0) << by_rows.err;
  EXPECT_EQ(CountPages(dir.Join("rows.parquet"), 2), 7);
}

TEST(ParquetCliTest, PagesListsEachPageFromItsHeaderOrFromThePageIndex) {
  testing::TempDir dir;
  const std::string in = WriteLargerFile(dir);  // ids 0..19999 in order
  const std::string out = dir.Join("paged.parquet");
  auto rewrite = RunFloe({"parquet", "rewrite", in, out, "--page-rows", "3000", "--dictionary", "off"}, kCleanEnv);
  ASSERT_EQ(rewrite.exit_code, 0) << rewrite.err;
  const auto csv_lines = [](const std::string& text) {
    std::vector<std::string> lines;
    for (const std::string_view line : Split(Trim(text), '\n')) lines.emplace_back(line);
    return lines;
  };
  const std::string header =
      "row_group,column,page,type,offset,bytes,uncompressed,values,encoding,first_row,rows,nulls,min,max,crc,note";
  auto pages = RunFloe({"--format", "csv", "parquet", "pages", out, "--columns", "id"}, kCleanEnv);
  ASSERT_EQ(pages.exit_code, 0) << pages.err;
  auto indexed = RunFloe({"--format", "csv", "parquet", "pages", out, "--columns", "id", "--index"}, kCleanEnv);
  ASSERT_EQ(indexed.exit_code, 0) << indexed.err;
  const std::vector<std::string> lines = csv_lines(pages.out);
  const std::vector<std::string> index_lines = csv_lines(indexed.out);
  ASSERT_EQ(lines.size(), 8u) << pages.out;
  ASSERT_EQ(index_lines.size(), 8u) << indexed.out;
  EXPECT_EQ(lines[0], header);
  EXPECT_EQ(index_lines[0], header);
  int64_t next_offset = -1;
  for (int p = 0; p < 7; ++p) {
    const std::vector<std::string_view> cells = Split(lines[static_cast<size_t>(p) + 1], ',');
    const std::vector<std::string_view> index_cells = Split(index_lines[static_cast<size_t>(p) + 1], ',');
    ASSERT_EQ(cells.size(), 16u) << lines[static_cast<size_t>(p) + 1];
    ASSERT_EQ(index_cells.size(), 16u) << index_lines[static_cast<size_t>(p) + 1];
    const int64_t first = int64_t{3000} * p;
    const int64_t rows = std::min<int64_t>(3000, 20000 - first);
    EXPECT_EQ(cells[2], std::to_string(p));
    EXPECT_EQ(cells[3], "DATA_PAGE");
    // Pages follow one another: each starts where the one before ended.
    const int64_t offset = std::stoll(std::string(cells[4]));
    const int64_t bytes = std::stoll(std::string(cells[5]));
    EXPECT_EQ(offset, p == 0 ? 4 : next_offset);  // the first just after the magic
    next_offset = offset + bytes;
    EXPECT_EQ(cells[6], std::to_string(rows * 8));  // PLAIN int64, no levels: the column is required
    EXPECT_EQ(cells[7], std::to_string(rows));
    EXPECT_EQ(cells[8], "PLAIN");
    EXPECT_EQ(cells[9], std::to_string(first));
    EXPECT_EQ(cells[10], std::to_string(rows));
    EXPECT_EQ(cells[11], "0");
    EXPECT_EQ(cells[12], std::to_string(first));
    EXPECT_EQ(cells[13], std::to_string(first + rows - 1));
    EXPECT_EQ(cells[14], "ok");  // floe writes page CRCs
    EXPECT_EQ(cells[15], "");
    // The page index says the same of each data page, and nothing of what
    // only the header holds.
    for (const size_t same : {0, 1, 2, 4, 5, 9, 10, 11, 12, 13, 15}) {
      EXPECT_EQ(index_cells[same], cells[same]) << "column " << same << " of page " << p;
    }
    for (const size_t header_only : {3, 6, 7, 8, 14}) EXPECT_EQ(index_cells[header_only], "");
  }

  // With a dictionary, the dictionary page comes first, without a data page number.
  const std::string dictionary = dir.Join("dictionary.parquet");
  ASSERT_EQ(RunFloe({"parquet", "rewrite", in, dictionary, "--page-rows", "3000"}, kCleanEnv).exit_code, 0);
  auto dictionary_pages = RunFloe({"--format", "csv", "parquet", "pages", dictionary, "--columns", "name"}, kCleanEnv);
  ASSERT_EQ(dictionary_pages.exit_code, 0) << dictionary_pages.err;
  const std::vector<std::string> dictionary_lines = csv_lines(dictionary_pages.out);
  ASSERT_GE(dictionary_lines.size(), 3u) << dictionary_pages.out;
  // 300 distinct names.
  EXPECT_TRUE(dictionary_lines[1].starts_with("0,name,,DICTIONARY_PAGE,")) << dictionary_lines[1];
  EXPECT_NE(dictionary_lines[1].find(",300,PLAIN,"), std::string::npos) << dictionary_lines[1];
  EXPECT_TRUE(dictionary_lines[2].starts_with("0,name,0,DATA_PAGE,")) << dictionary_lines[2];
  EXPECT_NE(dictionary_lines[2].find(",RLE_DICTIONARY,0,3000,"), std::string::npos) << dictionary_lines[2];

  const std::string data = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/";
  // Without a page index: --index says so; the headers still list each page,
  // and a flat column's rows follow from its values.
  auto plain =
      RunFloe({"--format", "csv", "parquet", "pages", data + "alltypes_plain.parquet", "--columns", "id", "--index"},
              kCleanEnv);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out, header + "\n0,id,,,,,,,,,,,,,,no page index\n") << plain.out;
  auto plain_headers =
      RunFloe({"--format", "csv", "parquet", "pages", data + "alltypes_plain.parquet", "--columns", "id"}, kCleanEnv);
  ASSERT_EQ(plain_headers.exit_code, 0) << plain_headers.err;
  EXPECT_EQ(plain_headers.out, header +
                                   "\n0,id,,DICTIONARY_PAGE,4,45,32,8,PLAIN_DICTIONARY,,,,,,,"
                                   "\n0,id,0,DATA_PAGE,49,28,11,8,PLAIN_DICTIONARY,0,8,,,,,\n")
      << plain_headers.out;

  // Repeated columns: a v2 page counts its rows and nulls (5 rows of lists,
  // 10 levels); a v1 page without a page index cannot say its rows, so only
  // the first page's first row is known.
  auto v2 = RunFloe(
      {"--format", "csv", "parquet", "pages", data + "datapage_v2.snappy.parquet", "--columns", "e.list.element"},
      kCleanEnv);
  ASSERT_EQ(v2.exit_code, 0) << v2.err;
  EXPECT_NE(v2.out.find("\n0,e.list.element,0,DATA_PAGE_V2,270,51,12,10,RLE_DICTIONARY,0,5,2,1,3,,\n"),
            std::string::npos)
      << v2.out;
  auto nested = RunFloe({"--format", "csv", "parquet", "pages", data + "nested_lists.snappy.parquet", "--columns",
                         "a.list.element.list.element.list.element"},
                        kCleanEnv);
  ASSERT_EQ(nested.exit_code, 0) << nested.err;
  EXPECT_NE(
      nested.out.find("\n0,a.list.element.list.element.list.element,0,DATA_PAGE,47,61,33,18,PLAIN_DICTIONARY,0,,3,"),
      std::string::npos)
      << nested.out;

  // The page CRCs of parquet-mr's checksum files: one page altered, one not.
  auto corrupt =
      RunFloe({"--format", "csv", "parquet", "pages", data + "datapage_v1-corrupt-checksum.parquet", "--columns", "a"},
              kCleanEnv);
  ASSERT_EQ(corrupt.exit_code, 0) << corrupt.err;
  const std::vector<std::string> corrupt_lines = csv_lines(corrupt.out);
  ASSERT_EQ(corrupt_lines.size(), 3u) << corrupt.out;
  EXPECT_NE(corrupt_lines[1].find(",mismatch,"), std::string::npos) << corrupt_lines[1];
  EXPECT_NE(corrupt_lines[2].find(",ok,"), std::string::npos) << corrupt_lines[2];
  // Their column index calls every page of the required column all null,
  // with a null count of -1: it is named and not used.
  EXPECT_NE(corrupt_lines[1].find("column index not used: page 0 has a null count of -1"), std::string::npos)
      << corrupt_lines[1];

  // An encrypted column whose key is not given: one row saying so, in both forms.
  for (const bool index_only : {false, true}) {
    std::vector<std::string> args = {"--format",
                                     "csv",
                                     "parquet",
                                     "pages",
                                     data + "encrypt_columns_and_footer.parquet.encrypted",
                                     "--footer-key",
                                     "30313233343536373839303132333435",
                                     "--columns",
                                     "double_field,int64_field"};
    if (index_only) args.push_back("--index");
    auto keyless = RunFloe(args, kCleanEnv);
    ASSERT_EQ(keyless.exit_code, 0) << keyless.err;
    const std::string note = index_only ? "encrypted, no key for its page index" : "encrypted, no key for its pages";
    EXPECT_NE(keyless.out.find("\n0,double_field,,,,,,,,,,,,,,\"" + note + "\"\n"), std::string::npos) << keyless.out;
    EXPECT_NE(keyless.out.find("\n0,int64_field,0,"), std::string::npos) << keyless.out;
  }

  // A damaged column index: the headers still list every page, with a note;
  // --index, which lists nothing else, fails naming it.
  std::string damaged_bytes;
  {
    std::ifstream file(out, std::ios::binary);
    damaged_bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    auto opened = parquet::ParquetFileReader::Open(NewLocalFileIO(), out);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    const parquet::ColumnChunk& chunk = (*opened)->metadata().row_groups[0].columns[0];
    ASSERT_TRUE(chunk.column_index_offset && chunk.column_index_length);
    damaged_bytes.replace(static_cast<size_t>(*chunk.column_index_offset),
                          static_cast<size_t>(*chunk.column_index_length),
                          static_cast<size_t>(*chunk.column_index_length), '\xff');
  }
  const std::string damaged = dir.Join("damaged_index.parquet");
  std::ofstream(damaged, std::ios::binary) << damaged_bytes;
  auto listed = RunFloe({"--format", "csv", "parquet", "pages", damaged, "--columns", "id"}, kCleanEnv);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const std::vector<std::string> damaged_lines = csv_lines(listed.out);
  ASSERT_EQ(damaged_lines.size(), 9u) << listed.out;  // the header, 7 pages, the note
  // The last page from its header alone: all but the bounds, which floe
  // keeps in the page index, not in page headers.
  const std::vector<std::string_view> from_header = Split(damaged_lines[7], ',');
  const std::vector<std::string_view> from_index = Split(lines[7], ',');
  ASSERT_EQ(from_header.size(), 16u) << damaged_lines[7];
  for (size_t cell = 0; cell < 16; ++cell) {
    EXPECT_EQ(from_header[cell], cell == 12 || cell == 13 ? "" : from_index[cell]) << "column " << cell;
  }
  EXPECT_TRUE(damaged_lines[8].starts_with("0,id,,,,,,,,,,,,,,")) << damaged_lines[8];
  EXPECT_NE(damaged_lines[8].find("page index not read: Corrupt: "), std::string::npos) << damaged_lines[8];
  EXPECT_NE(damaged_lines[8].find("column index"), std::string::npos) << damaged_lines[8];
  auto refused = RunFloe({"parquet", "pages", damaged, "--columns", "id", "--index"}, kCleanEnv);
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("Corrupt"), std::string::npos) << refused.err;

  auto unknown = RunFloe({"parquet", "pages", out, "--columns", "nope"}, kCleanEnv);
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_NE(unknown.err.find("no leaf column 'nope'"), std::string::npos) << unknown.err;
  // A page running past its chunk: one line naming the column and the page.
  auto malformed = RunFloe({"parquet", "pages", data + "nation.dict-malformed.parquet"}, kCleanEnv);
  EXPECT_NE(malformed.exit_code, 0);
  EXPECT_TRUE(malformed.out.empty()) << malformed.out;
  EXPECT_NE(malformed.err.find("column 'name' in row group 0: page at byte 421: compressed_page_size 28 runs past"),
            std::string::npos)
      << malformed.err;
  EXPECT_EQ(std::count(malformed.err.begin(), malformed.err.end(), '\n'), 1) << malformed.err;
}

TEST(ParquetCliTest, EncryptedFilesReadWithKeysAndMetaSaysHowTheyAreEncrypted) {
  const std::string data = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/";
  // data/README.md's keys, ASCII digits, in hex.
  const std::vector<std::string> keys = {"--footer-key", "30313233343536373839303132333435",                 //
                                         "--column-key", "double_field=31323334353637383930313233343530",  //
                                         "--column-key", "float_field=31323334353637383930313233343531"};
  const std::string encrypted_footer = data + "encrypt_columns_and_footer_ctr.parquet.encrypted";

  auto keyless = RunFloe({"parquet", "cat", encrypted_footer}, kCleanEnv);
  EXPECT_NE(keyless.exit_code, 0);
  EXPECT_TRUE(keyless.out.empty()) << keyless.out;
  EXPECT_NE(keyless.err.find("PermissionDenied"), std::string::npos) << keyless.err;
  EXPECT_EQ(std::count(keyless.err.begin(), keyless.err.end(), '\n'), 1) << keyless.err;

  std::vector<std::string> cat = {"parquet", "cat", encrypted_footer, "--columns", "double_field", "--format", "csv",
                                  "--limit", "3"};
  cat.insert(cat.end(), keys.begin(), keys.end());
  auto rows = RunFloe(cat, kCleanEnv);
  ASSERT_EQ(rows.exit_code, 0) << rows.err;
  EXPECT_EQ(rows.out, "double_field\n0\n1.1111111\n2.2222222\n");

  std::vector<std::string> meta = {"parquet", "meta", encrypted_footer, "--format", "csv"};
  meta.insert(meta.end(), keys.begin(), keys.end());
  auto described = RunFloe(meta, kCleanEnv);
  ASSERT_EQ(described.exit_code, 0) << described.err;
  EXPECT_NE(described.out.find("encryption: AES_GCM_CTR_V1, no AAD prefix, encrypted footer\n"), std::string::npos)
      << described.out;
  EXPECT_NE(described.out.find(",column key 'kc1'\n"), std::string::npos) << described.out;  // double_field
  EXPECT_NE(described.out.find(",column key 'kc2'\n"), std::string::npos) << described.out;  // float_field

  // A signed plaintext footer opens without keys; its encrypted columns say so.
  auto plain = RunFloe({"parquet", "meta", data + "encrypt_columns_plaintext_footer.parquet.encrypted", "--format",
                        "csv"},
                       kCleanEnv);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("encryption: AES_GCM_V1, no AAD prefix, signed plaintext footer\n"), std::string::npos)
      << plain.out;

  // With the footer key alone, the chunks of the column keys are listed, their
  // metadata unknown.
  auto partial = RunFloe({"parquet", "meta", encrypted_footer, "--format", "csv", "--footer-key", keys[1]}, kCleanEnv);
  ASSERT_EQ(partial.exit_code, 0) << partial.err;
  EXPECT_NE(partial.out.find("0,double_field,float64,,,,,,,,,column+offset,,,,,\"column key 'kc1', metadata not "
                             "decrypted\"\n"),
            std::string::npos)
      << partial.out;
  EXPECT_NE(partial.out.find("0,int32_field,time64[us],SNAPPY,"), std::string::npos) << partial.out;

  // A key that is not hex is refused without being echoed.
  auto bad = RunFloe({"parquet", "cat", encrypted_footer, "--footer-key", "secret-not-hex-secret-not-hex-00"}, kCleanEnv);
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("InvalidArgument"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find("secret"), std::string::npos) << bad.err;
}

TEST(ParquetCliTest, RewriteEncryptsAndOnlyTheKeysReadItBack) {
  testing::TempDir dir;
  const std::string in = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/alltypes_plain.parquet";
  const std::string footer_key = "000102030405060708090a0b0c0d0e0f";
  const std::string string_key = "101112131415161718191a1b1c1d1e1f2021222324252627";
  auto original = RunFloe({"parquet", "cat", in, "--format", "csv"}, kCleanEnv);
  ASSERT_EQ(original.exit_code, 0) << original.err;

  for (const bool plaintext_footer : {false, true}) {
    SCOPED_TRACE(plaintext_footer ? "plaintext footer" : "encrypted footer");
    const std::string out = dir.Join(plaintext_footer ? "signed.parquet" : "sealed.parquet");
    std::vector<std::string> rewrite = {"parquet", "rewrite", in, out, "--encrypt-footer-key", footer_key,
                                        "--encrypt-column-key", "string_col=" + string_key, "--plaintext-columns",
                                        "id,bool_col", "--encryption-algorithm", "AES_GCM_CTR_V1"};
    if (plaintext_footer) rewrite.push_back("--plaintext-footer");
    auto written = RunFloe(rewrite, kCleanEnv);
    ASSERT_EQ(written.exit_code, 0) << written.err;

    auto back = RunFloe({"parquet", "cat", out, "--format", "csv", "--footer-key", footer_key, "--column-key",
                         "string_col=" + string_key},
                        kCleanEnv);
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_EQ(back.out, original.out);

    auto meta = RunFloe({"parquet", "meta", out, "--format", "csv", "--footer-key", footer_key, "--column-key",
                         "string_col=" + string_key},
                        kCleanEnv);
    ASSERT_EQ(meta.exit_code, 0) << meta.err;
    EXPECT_NE(meta.out.find(StrCat("encryption: AES_GCM_CTR_V1, no AAD prefix, ",
                                   plaintext_footer ? "signed plaintext footer" : "encrypted footer", "\n")),
              std::string::npos)
        << meta.out;
    EXPECT_NE(meta.out.find(",string_col,binary,"), std::string::npos) << meta.out;
    EXPECT_NE(meta.out.find(",column key\n"), std::string::npos) << meta.out;
    EXPECT_NE(meta.out.find(",footer key\n"), std::string::npos) << meta.out;

    // Without keys: an encrypted footer opens nothing; a plaintext one gives
    // the plaintext columns and refuses the others in one line.
    auto ids = RunFloe({"parquet", "cat", out, "--format", "csv", "--columns", "id", "--limit", "2"}, kCleanEnv);
    auto strings = RunFloe({"parquet", "cat", out, "--format", "csv", "--columns", "string_col"}, kCleanEnv);
    EXPECT_NE(strings.exit_code, 0);
    EXPECT_NE(strings.err.find("PermissionDenied"), std::string::npos) << strings.err;
    EXPECT_EQ(std::count(strings.err.begin(), strings.err.end(), '\n'), 1) << strings.err;
    if (plaintext_footer) {
      ASSERT_EQ(ids.exit_code, 0) << ids.err;
      EXPECT_EQ(ids.out, "id\n4\n5\n");
    } else {
      EXPECT_NE(ids.exit_code, 0);
      EXPECT_NE(ids.err.find("encrypted footer"), std::string::npos) << ids.err;
    }
  }

  // Encryption options without a footer key, and malformed keys, are refused
  // before any file is written; keys are not echoed.
  const std::string never = dir.Join("never.parquet");
  auto no_footer_key = RunFloe({"parquet", "rewrite", in, never, "--plaintext-footer"}, kCleanEnv);
  EXPECT_NE(no_footer_key.exit_code, 0);
  EXPECT_NE(no_footer_key.err.find("need --encrypt-footer-key"), std::string::npos) << no_footer_key.err;
  auto no_equals = RunFloe({"parquet", "rewrite", in, never, "--encrypt-footer-key", footer_key,
                            "--encrypt-column-key", "string_col" + string_key},
                           kCleanEnv);
  EXPECT_NE(no_equals.exit_code, 0);
  EXPECT_NE(no_equals.err.find("takes PATH=HEX"), std::string::npos) << no_equals.err;
  EXPECT_EQ(no_equals.err.find(string_key), std::string::npos) << no_equals.err;
  auto unknown_column = RunFloe({"parquet", "rewrite", in, never, "--encrypt-footer-key", footer_key,
                                 "--encrypt-column-key", "strnig_col=" + string_key},
                                kCleanEnv);
  EXPECT_NE(unknown_column.exit_code, 0);
  EXPECT_NE(unknown_column.err.find("'strnig_col', which is no leaf column"), std::string::npos)
      << unknown_column.err;
  EXPECT_FALSE(std::filesystem::exists(never));
}

TEST(ParquetCliTest, RewriteEncryptsWithKeyToolsAndTheMasterKeysReadItBack) {
  testing::TempDir dir;
  const std::string in = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/alltypes_plain.parquet";
  const std::string kf = "kf=000102030405060708090a0b0c0d0e0f";
  const std::string kc = "kc=101112131415161718191a1b1c1d1e1f";
  auto original = RunFloe({"parquet", "cat", in, "--format", "csv"}, kCleanEnv);
  ASSERT_EQ(original.exit_code, 0) << original.err;

  for (const bool external : {false, true}) {
    SCOPED_TRACE(external ? "external key material" : "internal key material");
    const std::string out = dir.Join(external ? "external.parquet" : "internal.parquet");
    std::vector<std::string> rewrite = {"parquet",
                                        "rewrite",
                                        in,
                                        out,
                                        "--master-key",
                                        kf,
                                        "--master-key",
                                        kc,
                                        "--encrypt-footer-master-key",
                                        "kf",
                                        "--encrypt-column-master-keys",
                                        "kc:string_col,date_string_col",
                                        "--data-key-bits",
                                        "256"};
    if (external) rewrite.push_back("--external-key-material");
    auto written = RunFloe(rewrite, kCleanEnv);
    ASSERT_EQ(written.exit_code, 0) << written.err;
    EXPECT_EQ(std::filesystem::exists(
                  dir.Join(StrCat("_KEY_MATERIAL_FOR_", external ? "external" : "internal", ".parquet.json"))),
              external);

    auto back = RunFloe({"parquet", "cat", out, "--format", "csv", "--master-key", kf, "--master-key", kc}, kCleanEnv);
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_EQ(back.out, original.out);
    // The footer's master key alone opens the file and the footer-key
    // columns, not the columns under kc.
    auto ids = RunFloe(
        {"parquet", "cat", out, "--format", "csv", "--columns", "id", "--limit", "2", "--master-key", kf}, kCleanEnv);
    ASSERT_EQ(ids.exit_code, 0) << ids.err;
    EXPECT_EQ(ids.out, "id\n4\n5\n");
    auto strings =
        RunFloe({"parquet", "cat", out, "--format", "csv", "--columns", "string_col", "--master-key", kf}, kCleanEnv);
    EXPECT_NE(strings.exit_code, 0);
    EXPECT_NE(strings.err.find("no master key 'kc'"), std::string::npos) << strings.err;
  }

  // Without the master key, with raw keys as well, or with a malformed
  // column list: refused, and nothing written.
  const std::string never = dir.Join("never.parquet");
  auto no_master =
      RunFloe({"parquet", "rewrite", in, never, "--master-key", kf, "--encrypt-footer-master-key", "kx"}, kCleanEnv);
  EXPECT_NE(no_master.exit_code, 0);
  EXPECT_NE(no_master.err.find("no master key 'kx'"), std::string::npos) << no_master.err;
  auto both = RunFloe({"parquet", "rewrite", in, never, "--master-key", kf, "--encrypt-footer-master-key", "kf",
                       "--encrypt-footer-key", "000102030405060708090a0b0c0d0e0f"},
                      kCleanEnv);
  EXPECT_NE(both.exit_code, 0);
  EXPECT_NE(both.err.find("cannot be given with it"), std::string::npos) << both.err;
  auto malformed = RunFloe({"parquet", "rewrite", in, never, "--master-key", kf, "--encrypt-footer-master-key", "kf",
                            "--encrypt-column-master-keys", "string_col"},
                           kCleanEnv);
  EXPECT_NE(malformed.exit_code, 0);
  EXPECT_NE(malformed.err.find("takes ID:COLUMN"), std::string::npos) << malformed.err;
  auto unknown_column = RunFloe({"parquet", "rewrite", in, never, "--master-key", kf, "--external-key-material",
                                 "--encrypt-footer-master-key", "kf", "--encrypt-column-master-keys", "kf:strnig_col"},
                                kCleanEnv);
  EXPECT_NE(unknown_column.exit_code, 0);
  EXPECT_NE(unknown_column.err.find("'strnig_col', which is no leaf column"), std::string::npos) << unknown_column.err;
  EXPECT_FALSE(std::filesystem::exists(never));
  EXPECT_FALSE(std::filesystem::exists(dir.Join("_KEY_MATERIAL_FOR_never.parquet.json")));

  // A rewrite onto external.parquet that fails halfway (a page of its input
  // is altered; the page CRC catches it) leaves that file and its own key
  // material as they were: it still reads.
  std::ifstream in_file(WriteLargerFile(dir), std::ios::binary);
  std::string larger((std::istreambuf_iterator<char>(in_file)), std::istreambuf_iterator<char>());
  ASSERT_GT(larger.size(), 1000u);
  larger[larger.size() / 2] ^= 0x5a;
  const std::string damaged = dir.Join("damaged.parquet");
  {
    std::ofstream out(damaged, std::ios::binary);
    out << larger;
  }
  auto failed = RunFloe({"parquet", "rewrite", damaged, dir.Join("external.parquet"), "--master-key", kf,
                         "--external-key-material", "--encrypt-footer-master-key", "kf"},
                        kCleanEnv);
  EXPECT_NE(failed.exit_code, 0);
  EXPECT_NE(failed.err.find("Corrupt"), std::string::npos) << failed.err;
  auto still = RunFloe(
      {"parquet", "cat", dir.Join("external.parquet"), "--format", "csv", "--master-key", kf, "--master-key", kc},
      kCleanEnv);
  ASSERT_EQ(still.exit_code, 0) << still.err;
  EXPECT_EQ(still.out, original.out);
}

}  // namespace
}  // namespace floe
