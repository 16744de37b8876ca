// ParquetFileWriter: files floe writes, checked against the spec with floe's
// own footer and page-header decoders, and read back by DuckDB (the peer
// engine) with identical values, statistics, schema and bloom filters.

#include "floe/formats/parquet/file_writer.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <random>

#include "floe/formats/parquet/bloom_filter.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/io/fault_injecting_file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace {

using testing::DuckDbAvailable;
using testing::RunDuckDb;
using testing::SqlString;

using testing::Batch;
using testing::MakeSchema;
using testing::WriteFile;

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// A file written with floe plus its expected rows as JSON lines, to compare in DuckDB.
struct WriterCase {
  std::string name;
  std::string parquet;
  std::string json;
  std::shared_ptr<const Schema> schema;
  int64_t rows = 0;
};

// Runs every case's comparison in one DuckDB process: each must report 0
// mismatching rows and the right row count.
void ExpectDuckDbReadsSameValues(const std::vector<WriterCase>& cases) {
  std::vector<std::string> sql;
  for (const auto& c : cases) {
    sql.push_back(testing::CompareSql(*c.schema, c.parquet, c.json));
    sql.push_back("SELECT count(*) AS n FROM read_parquet(" + SqlString(c.parquet) + ")");
  }
  auto r = RunDuckDb(sql);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.rows.size(), 2 * cases.size()) << r.err;
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(r.rows[2 * i], "{\"bad\":\"0\"}") << cases[i].name;
    EXPECT_EQ(r.rows[2 * i + 1], StrCat("{\"n\":\"", cases[i].rows, "\"}")) << cases[i].name;
  }
}

// Every type floe writes, with nulls, extremes, NaN, -0.0, empty strings,
// nested lists, maps and structs with null and empty members.
std::shared_ptr<const Schema> AllTypesSchema() {
  auto dec9 = *DataType::Decimal128(9, 2);
  auto dec18 = *DataType::Decimal128(18, 4);
  auto dec38 = *DataType::Decimal128(38, 10);
  auto fixed = *DataType::FixedSizeBinary(3);
  auto point = DataType::Struct({Field("x", DataType::Int32()), Field("label", DataType::Utf8())});
  return MakeSchema({
      Field("rid", DataType::Int64(), false),
      Field("b", DataType::Bool()),
      Field("i8", DataType::Int8()),
      Field("i16", DataType::Int16()),
      Field("i32", DataType::Int32()),
      Field("i64", DataType::Int64()),
      Field("u8", DataType::UInt8()),
      Field("u16", DataType::UInt16()),
      Field("u32", DataType::UInt32()),
      Field("u64", DataType::UInt64()),
      Field("f32", DataType::Float32()),
      Field("f64", DataType::Float64()),
      Field("d9", dec9),
      Field("d18", dec18),
      Field("d38", dec38),
      Field("date", DataType::Date32()),
      Field("t_us", DataType::Time64(floe::TimeUnit::kMicro)),
      Field("ts_us", DataType::Timestamp(floe::TimeUnit::kMicro)),
      Field("ts_ns", DataType::Timestamp(floe::TimeUnit::kNano)),
      Field("tstz_us", DataType::Timestamp(floe::TimeUnit::kMicro, "UTC")),
      Field("s", DataType::Utf8()),
      Field("bin", DataType::Binary()),
      Field("fixed", fixed),
      Field("uuid", DataType::Uuid()),
      Field("iv", DataType::Interval()),
      Field("ints", DataType::List(Field("element", DataType::Int64()))),
      Field("nested", DataType::List(Field("element", DataType::List(Field("element", DataType::Utf8()))))),
      Field("attrs", DataType::Map(DataType::Utf8(), DataType::Int64())),
      Field("point", point),
      Field("points", DataType::List(Field("element", point))),
  });
}

std::vector<RecordBatch> RandomBatches(const std::shared_ptr<const Schema>& schema, int64_t rows, int64_t batch_rows,
                                       uint64_t seed, double null_rate = 0.2) {
  std::mt19937_64 rng(seed);
  std::vector<RecordBatch> out;
  for (int64_t done = 0; done < rows; done += batch_rows) {
    const int64_t n = std::min(batch_rows, rows - done);
    std::vector<Array> columns;
    std::vector<std::optional<int64_t>> rid;
    for (int64_t i = 0; i < n; ++i) rid.push_back(done + i);
    columns.push_back(testing::Int64s(rid));
    for (int f = 1; f < schema->num_fields(); ++f) {
      auto column = testing::RandomColumn(schema->field(f), n, rng, null_rate);
      EXPECT_TRUE(column.ok()) << column.status().ToString();
      columns.push_back(*column);
    }
    out.push_back(Batch(schema, std::move(columns)));
  }
  return out;
}

WriterCase MakeCase(const floe::testing::TempDir& dir, const std::string& name, const std::shared_ptr<const Schema>& schema,
              const std::vector<RecordBatch>& batches, const WriterOptions& options) {
  WriterCase c{name, dir.Join(name + ".parquet"), dir.Join(name + ".jsonl"), schema, 0};
  for (const auto& b : batches) c.rows += b.num_rows();
  auto written = WriteFile(c.parquet, schema, batches, options);
  EXPECT_TRUE(written.ok()) << name << ": " << written.status().ToString();
  WriteText(c.json, testing::JsonLines(batches));
  return c;
}

// ---- structure, checked with floe's own decoders --------------------------

std::string ReadAll(const std::string& path) { return testing::ReadFileBytes(path); }

// Walks every page of every chunk: headers decode, CRCs match, page index
// entries point at the pages, value counts add up.
void ExpectWellFormed(const std::string& path, bool checksums) {
  const std::string file = ReadAll(path);
  ASSERT_EQ(file.substr(0, 4), "PAR1");
  auto footer = testing::FindFooter(file);
  ASSERT_TRUE(footer.ok);
  auto md = DecodeFileMetaData(footer.bytes);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  int64_t rows = 0;
  for (const RowGroup& rg : md->row_groups) {
    rows += rg.num_rows;
    for (const ColumnChunk& cc : rg.columns) {
      ASSERT_TRUE(cc.meta_data.has_value());
      const ColumnMetaData& m = *cc.meta_data;
      int64_t pos = m.dictionary_page_offset.value_or(m.data_page_offset);
      const int64_t end = pos + m.total_compressed_size;
      int64_t values = 0;
      int64_t rows_in_pages = 0;
      std::vector<int64_t> data_page_offsets;
      while (pos < end) {
        size_t consumed = 0;
        auto header = DecodePageHeader(testing::AsBytes(file).subspan(static_cast<size_t>(pos)), &consumed);
        ASSERT_TRUE(header.ok()) << header.status().ToString();
        const auto data = testing::AsBytes(file).subspan(static_cast<size_t>(pos) + consumed,
                                                         static_cast<size_t>(header->compressed_page_size));
        if (checksums) {
          ASSERT_TRUE(header->crc.has_value());
          EXPECT_EQ(static_cast<uint32_t>(*header->crc), crc32(0L, data.data(), static_cast<uInt>(data.size())));
        } else {
          EXPECT_FALSE(header->crc.has_value());
        }
        if (header->type == PageType::DATA_PAGE) {
          values += header->data_page_header->num_values;
          data_page_offsets.push_back(pos);
        } else if (header->type == PageType::DATA_PAGE_V2) {
          values += header->data_page_header_v2->num_values;
          rows_in_pages += header->data_page_header_v2->num_rows;
          data_page_offsets.push_back(pos);
        } else {
          EXPECT_EQ(header->type, PageType::DICTIONARY_PAGE);
          EXPECT_EQ(pos, m.dictionary_page_offset.value_or(-1));
        }
        pos += static_cast<int64_t>(consumed) + header->compressed_page_size;
      }
      EXPECT_EQ(pos, end);
      EXPECT_EQ(values, m.num_values);
      if (rows_in_pages > 0) {
        EXPECT_EQ(rows_in_pages, rg.num_rows);
      }
      ASSERT_TRUE(cc.offset_index_offset.has_value());
      auto oi = DecodeOffsetIndex(testing::AsBytes(file).subspan(static_cast<size_t>(*cc.offset_index_offset),
                                                                 static_cast<size_t>(*cc.offset_index_length)));
      ASSERT_TRUE(oi.ok()) << oi.status().ToString();
      ASSERT_EQ(oi->page_locations.size(), data_page_offsets.size());
      for (size_t i = 0; i < data_page_offsets.size(); ++i) {
        EXPECT_EQ(oi->page_locations[i].offset, data_page_offsets[i]);
        if (i > 0) {
          EXPECT_LT(oi->page_locations[i - 1].first_row_index, oi->page_locations[i].first_row_index);
        }
      }
      EXPECT_EQ(oi->page_locations[0].first_row_index, 0);
      if (cc.column_index_offset) {
        auto ci = DecodeColumnIndex(testing::AsBytes(file).subspan(static_cast<size_t>(*cc.column_index_offset),
                                                                   static_cast<size_t>(*cc.column_index_length)));
        ASSERT_TRUE(ci.ok()) << ci.status().ToString();
        EXPECT_EQ(ci->null_pages.size(), data_page_offsets.size());
      }
    }
  }
  EXPECT_EQ(rows, md->num_rows);
}

TEST(ParquetFileWriterTest, EveryTypeIsReadByDuckDbWithTheSameValues) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  auto schema = AllTypesSchema();
  auto batches = RandomBatches(schema, 3000, 700, 1);
  std::vector<WriterCase> cases;
  cases.push_back(MakeCase(dir, "defaults", schema, batches, {}));
  // Sliced batches: every column then starts at a non-zero array offset.
  std::vector<RecordBatch> sliced;
  for (const auto& b : batches) sliced.push_back(b.Slice(3, b.num_rows() - 10));
  cases.push_back(MakeCase(dir, "sliced", schema, sliced, {}));
  ExpectWellFormed(cases[0].parquet, true);
  ExpectWellFormed(cases[1].parquet, true);
  ExpectDuckDbReadsSameValues(cases);
}

// The cross-check is not vacuous: one changed value in the expected rows of
// each kind of column is one mismatching row.
TEST(ParquetFileWriterTest, CrossCheckFindsEveryChangedValue) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  auto schema = AllTypesSchema();
  auto batches = RandomBatches(schema, 60, 60, 5, 0.0);
  WriterCase c = MakeCase(dir, "control", schema, batches, {});
  std::vector<std::string> lines;
  const std::string all_lines = testing::JsonLines(batches);
  for (std::string_view l : Split(all_lines, '\n')) {
    if (!l.empty()) lines.emplace_back(l);
  }
  std::vector<std::string> sql;
  std::vector<std::string> changed;
  for (int f = 1; f < schema->num_fields(); ++f) {
    // Row f gets field f from row f + 1 (all rows differ in every column but
    // bool, whose two values repeat: a flipped bool is still one change).
    const std::string key = "\"" + schema->field(f).name + "\":";
    std::vector<std::string> rows = lines;
    std::string& row = rows[static_cast<size_t>(f)];
    const std::string& donor = rows[static_cast<size_t>(f) + 1];
    const auto value_of = [&](const std::string& r) {
      const size_t start = r.find(key) + key.size();
      size_t end = start;
      int depth = 0;
      bool in_string = false;
      for (; end < r.size(); ++end) {
        const char ch = r[end];
        if (in_string) {
          if (ch == '\\') ++end;
          else if (ch == '"') in_string = false;
        } else if (ch == '"') {
          in_string = true;
        } else if (ch == '[' || ch == '{') {
          ++depth;
        } else if (ch == ']' || ch == '}') {
          if (depth == 0) break;
          --depth;
        } else if (ch == ',' && depth == 0) {
          break;
        }
      }
      return std::make_pair(start, end - start);
    };
    const auto [rs, rl] = value_of(row);
    const auto [ds, dl] = value_of(donor);
    const std::string replacement = donor.substr(ds, dl);
    if (row.substr(rs, rl) == replacement) continue;  // equal by chance (bool): nothing changed
    row.replace(rs, rl, replacement);
    const std::string json = dir.Join(StrCat("control", f, ".jsonl"));
    std::string text;
    for (const auto& r : rows) text += r + "\n";
    WriteText(json, text);
    sql.push_back(testing::CompareSql(*schema, c.parquet, json));
    changed.push_back(schema->field(f).name);
  }
  ASSERT_GT(changed.size(), 20u);
  auto r = RunDuckDb(sql);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.rows.size(), changed.size());
  for (size_t i = 0; i < changed.size(); ++i) EXPECT_EQ(r.rows[i], "{\"bad\":\"1\"}") << changed[i];
}

TEST(ParquetFileWriterTest, EveryOptionCombinationIsReadByDuckDb) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  auto schema = AllTypesSchema();
  auto batches = RandomBatches(schema, 1200, 500, 2);
  const compression::Codec codecs[] = {compression::Codec::kUncompressed, compression::Codec::kSnappy,
                                       compression::Codec::kZstd, compression::Codec::kGzip,
                                       compression::Codec::kLz4Raw, compression::Codec::kBrotli};
  std::vector<WriterCase> cases;
  int n = 0;
  for (auto codec : codecs) {
    for (int version : {1, 2}) {
      for (bool dictionary : {true, false}) {
        WriterOptions o;
        o.codec = codec;
        o.data_page_version = version;
        o.dictionary = dictionary;
        // Alternate small row groups and pages with the defaults.
        if (n % 2 == 1) {
          o.row_group_rows = 317;
          o.page_rows = 50;
          o.page_bytes = 2000;
        }
        if (!dictionary) {
          o.columns["i32"].encoding = Encoding::DELTA_BINARY_PACKED;
          o.columns["i64"].encoding = n % 4 == 0 ? Encoding::BYTE_STREAM_SPLIT : Encoding::DELTA_BINARY_PACKED;
          o.columns["f32"].encoding = Encoding::BYTE_STREAM_SPLIT;
          o.columns["f64"].encoding = Encoding::BYTE_STREAM_SPLIT;
          o.columns["s"].encoding = n % 4 == 0 ? Encoding::DELTA_LENGTH_BYTE_ARRAY : Encoding::DELTA_BYTE_ARRAY;
          o.columns["bin"].encoding = Encoding::DELTA_BYTE_ARRAY;
          o.columns["ts_us"].encoding = Encoding::DELTA_BINARY_PACKED;
          o.columns["nested.list.element.list.element"].encoding = Encoding::DELTA_LENGTH_BYTE_ARRAY;
        }
        cases.push_back(MakeCase(dir, StrCat("c", n, "_", compression::CodecName(codec), "_v", version, dictionary ? "_dict" : "_plain"),
                                 schema, batches, o));
        if (n % 5 == 0) ExpectWellFormed(cases.back().parquet, true);
        ++n;
      }
    }
  }
  ExpectDuckDbReadsSameValues(cases);
}

// Encodings DuckDB 1.5.6 cannot read (BYTE_STREAM_SPLIT for ints and fixed
// arrays, DELTA_BYTE_ARRAY for fixed arrays) are checked structurally.
TEST(ParquetFileWriterTest, WritesEncodingsForFixedArraysAndIntegers) {
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("rid", DataType::Int64(), false), Field("fixed", *DataType::FixedSizeBinary(3)),
                            Field("uuid", DataType::Uuid()), Field("i32", DataType::Int32())});
  auto batches = RandomBatches(schema, 500, 500, 3);
  WriterOptions o;
  o.dictionary = false;
  o.columns["fixed"].encoding = Encoding::BYTE_STREAM_SPLIT;
  o.columns["uuid"].encoding = Encoding::DELTA_BYTE_ARRAY;
  o.columns["i32"].encoding = Encoding::BYTE_STREAM_SPLIT;
  auto written = WriteFile(dir.Join("f.parquet"), schema, batches, o);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ExpectWellFormed(dir.Join("f.parquet"), true);
  const auto& cols = written->metadata.row_groups[0].columns;
  EXPECT_EQ(cols[1].meta_data->encodings, (std::vector<Encoding>{Encoding::BYTE_STREAM_SPLIT, Encoding::RLE}));
  EXPECT_EQ(cols[2].meta_data->encodings, (std::vector<Encoding>{Encoding::DELTA_BYTE_ARRAY, Encoding::RLE}));
  EXPECT_EQ(cols[3].meta_data->encodings, (std::vector<Encoding>{Encoding::BYTE_STREAM_SPLIT, Encoding::RLE}));
}

TEST(ParquetFileWriterTest, RandomSchemasDataAndOptionsReadBackInDuckDb) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  std::mt19937_64 rng(20261202);
  const std::vector<TypePtr> leaves = {
      DataType::Bool(),    DataType::Int8(),    DataType::Int16(),  DataType::Int32(),
      DataType::Int64(),   DataType::UInt32(),  DataType::UInt64(), DataType::Float64(),
      DataType::Utf8(),    DataType::Null()};
  const std::vector<TypePtr> flat_only = {DataType::Float32(),
                                          *DataType::Decimal128(7, 3),
                                          *DataType::Decimal128(30, 5),
                                          DataType::Date32(),
                                          DataType::Timestamp(floe::TimeUnit::kMicro, "UTC"),
                                          DataType::Time64(floe::TimeUnit::kMicro),
                                          DataType::Binary(),
                                          DataType::Uuid()};
  std::function<TypePtr(int)> random_type = [&](int depth) -> TypePtr {
    const uint64_t pick = rng() % (depth >= 2 ? 1 : 4);
    if (pick == 0) return leaves[rng() % leaves.size()];
    if (pick == 1) return DataType::List(Field("element", random_type(depth + 1), rng() % 3 != 0));
    if (pick == 2) {
      std::vector<Field> fields;
      const int n = 1 + static_cast<int>(rng() % 3);
      for (int i = 0; i < n; ++i) fields.emplace_back(StrCat("f", i), random_type(depth + 1), rng() % 3 != 0);
      return DataType::Struct(std::move(fields));
    }
    return DataType::Map(DataType::Utf8(), random_type(depth + 1));
  };
  const compression::Codec codecs[] = {compression::Codec::kUncompressed, compression::Codec::kSnappy,
                                       compression::Codec::kZstd, compression::Codec::kLz4Raw};
  std::vector<WriterCase> cases;
  for (int iteration = 0; iteration < 24; ++iteration) {
    std::vector<Field> fields = {Field("rid", DataType::Int64(), false)};
    const int n = 1 + static_cast<int>(rng() % 5);
    for (int i = 0; i < n; ++i) {
      TypePtr t = rng() % 3 == 0 ? flat_only[rng() % flat_only.size()] : random_type(0);
      fields.emplace_back(StrCat("c", i), t, t->id() == TypeId::kNull || rng() % 4 != 0);
    }
    auto schema = MakeSchema(std::move(fields));
    const int64_t rows = static_cast<int64_t>(rng() % 900);
    auto batches = RandomBatches(schema, rows, 1 + static_cast<int64_t>(rng() % 400), rng(),
                                 std::uniform_real_distribution<double>(0, 0.6)(rng));
    WriterOptions o;
    o.codec = codecs[rng() % 4];
    o.data_page_version = 1 + static_cast<int>(rng() % 2);
    o.dictionary = rng() % 2 == 0;
    o.dictionary_page_size_limit = rng() % 2 ? 1 << 20 : 64;
    o.row_group_rows = 1 + static_cast<int64_t>(rng() % 500);
    o.page_rows = 1 + static_cast<int64_t>(rng() % 200);
    o.page_bytes = 64 + static_cast<int64_t>(rng() % 4096);
    o.page_checksums = rng() % 2 == 0;
    o.statistics_truncate_length = static_cast<int32_t>(rng() % 20);
    cases.push_back(MakeCase(dir, StrCat("random", iteration), schema, batches, o));
    SCOPED_TRACE(schema->ToString());
    ExpectWellFormed(cases.back().parquet, o.page_checksums);
  }
  ExpectDuckDbReadsSameValues(cases);
}

TEST(ParquetFileWriterTest, DuckDbSeesStatisticsFieldIdsAndLogicalTypes) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  auto schema = MakeSchema({
      Field("id", DataType::Int64(), false, {}, 1),
      Field("name", DataType::Utf8(), true, {}, 2),
      Field("score", DataType::Float64(), true, {}, 3),
      Field("price", *DataType::Decimal128(10, 2), true, {}, 4),
      Field("ts", DataType::Timestamp(floe::TimeUnit::kMicro, "UTC"), true, {}, 5),
      Field("tags", DataType::List(Field("element", DataType::Utf8(), true, {}, 7)), true, {}, 6),
  });
  const std::string long_a(100, 'a');
  auto batch = Batch(schema, {testing::Int64s({5, -3, 12}), testing::Strings({"pear", std::nullopt, long_a}),
                              testing::Primitive<double>(DataType::Float64(), {std::nan(""), -0.0, 2.5}),
                              testing::Primitive<Decimal128Value>(*DataType::Decimal128(10, 2), {12345, -1, std::nullopt}),
                              testing::Primitive<int64_t>(DataType::Timestamp(floe::TimeUnit::kMicro, "UTC"), {0, 1000000, 2}),
                              testing::ListOf(DataType::List(Field("element", DataType::Utf8(), true, {}, 7)),
                                              {0, 2, 2, 3}, {1, 0, 1}, testing::Strings({"x", "y", "z"}))});
  const std::string path = dir.Join("stats.parquet");
  WriterOptions o;
  o.key_value_metadata = {{"iceberg.schema", std::string("{}")}};
  auto written = WriteFile(path, schema, {batch}, o);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto r = RunDuckDb({
      "SELECT path_in_schema, stats_min_value, stats_max_value, stats_null_count FROM parquet_metadata(" +
          SqlString(path) + ") ORDER BY column_id",
      "SELECT name, field_id, logical_type, converted_type FROM parquet_schema(" + SqlString(path) +
          ") WHERE name <> 'schema' ORDER BY name",
      "SELECT key, value FROM parquet_kv_metadata(" + SqlString(path) + ")",
      "SELECT created_by FROM parquet_file_metadata(" + SqlString(path) + ")",
  });
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> expected = {
      R"({"path_in_schema":"id","stats_min_value":"-3","stats_max_value":"12","stats_null_count":"0"})",
      R"({"path_in_schema":"name","stats_min_value":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","stats_max_value":"pear","stats_null_count":"1"})",
      R"({"path_in_schema":"score","stats_min_value":"-0.0","stats_max_value":"2.5","stats_null_count":"0"})",
      R"({"path_in_schema":"price","stats_min_value":"-0.01","stats_max_value":"123.45","stats_null_count":"1"})",
      R"({"path_in_schema":"ts","stats_min_value":"1970-01-01 00:00:00+00","stats_max_value":"1970-01-01 00:00:01+00","stats_null_count":"0"})",
      R"({"path_in_schema":"tags, list, element","stats_min_value":"x","stats_max_value":"z","stats_null_count":"1"})",
  };
  ASSERT_GE(r.rows.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(r.rows[i], expected[i]);
  const std::string all = [&] {
    std::string s;
    for (const auto& row : r.rows) s += row + "\n";
    return s;
  }();
  EXPECT_NE(all.find(R"({"name":"id","field_id":"1","logical_type":null,"converted_type":null})"), std::string::npos) << all;
  EXPECT_NE(all.find(R"("name":"element","field_id":"7")"), std::string::npos) << all;
  EXPECT_NE(all.find(R"("name":"tags","field_id":"6")"), std::string::npos) << all;
  EXPECT_NE(all.find(R"x("name":"price","field_id":"4","logical_type":"DecimalType(scale=2, precision=10)","converted_type":"DECIMAL")x"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find(R"({"key":"iceberg.schema","value":"{}"})"), std::string::npos) << all;
  EXPECT_NE(all.find(R"({"created_by":"floe version )"), std::string::npos) << all;

  // The same statistics in WrittenFile, for Iceberg's data-file metrics.
  const Statistics& name = *written->metadata.row_groups[0].columns[1].meta_data->statistics;
  EXPECT_EQ(name.min_value, std::string(64, 'a'));
  EXPECT_EQ(name.is_min_value_exact, false);
  EXPECT_EQ(name.max_value, "pear");
  EXPECT_EQ(name.is_max_value_exact, true);
  const Statistics& score = *written->metadata.row_groups[0].columns[2].meta_data->statistics;
  EXPECT_EQ(score.nan_count, 1);
}

TEST(ParquetFileWriterTest, BloomFiltersAnswerDuckDbProbes) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("id", DataType::Int64()), Field("name", DataType::Utf8()),
                            Field("x", DataType::Float64())});
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<std::string>> names;
  std::vector<std::optional<double>> xs;
  for (int i = 0; i < 2000; ++i) {
    ids.push_back(i * 7);
    names.push_back(StrCat("name-", i));
    xs.push_back(i * 0.5);
  }
  const std::string path = dir.Join("bloom.parquet");
  WriterOptions o;
  o.columns["id"].bloom_filter = true;
  o.columns["name"].bloom_filter = true;
  o.columns["name"].bloom_ndv = 5000;
  o.columns["x"].bloom_filter = true;
  auto written = WriteFile(path, schema,
                           {Batch(schema, {testing::Int64s(ids), testing::Strings(names),
                                           testing::Primitive<double>(DataType::Float64(), xs)})},
                           o);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  const ColumnMetaData& id_meta = *written->metadata.row_groups[0].columns[0].meta_data;
  ASSERT_TRUE(id_meta.bloom_filter_offset.has_value());
  auto r = RunDuckDb({
      "SELECT bloom_filter_excludes AS e FROM parquet_bloom_probe(" + SqlString(path) + ", 'id', 700)",
      "SELECT bloom_filter_excludes AS e FROM parquet_bloom_probe(" + SqlString(path) + ", 'id', 701)",
      "SELECT bloom_filter_excludes AS e FROM parquet_bloom_probe(" + SqlString(path) + ", 'name', 'name-1999')",
      "SELECT bloom_filter_excludes AS e FROM parquet_bloom_probe(" + SqlString(path) + ", 'name', 'absent')",
      "SELECT bloom_filter_excludes AS e FROM parquet_bloom_probe(" + SqlString(path) + ", 'x', 3.5)",
      "SELECT bloom_filter_excludes AS e FROM parquet_bloom_probe(" + SqlString(path) + ", 'x', 3.25)",
  });
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.rows, (std::vector<std::string>{R"({"e":false})", R"({"e":true})", R"({"e":false})", R"({"e":true})",
                                              R"({"e":false})", R"({"e":true})"}));

  // floe's own filter over the bytes in the file agrees.
  const std::string file = ReadAll(path);
  size_t consumed = 0;
  auto header = DecodeBloomFilterHeader(testing::AsBytes(file).subspan(static_cast<size_t>(*id_meta.bloom_filter_offset)),
                                        &consumed);
  ASSERT_TRUE(header.ok());
  auto filter = SplitBlockBloomFilter::FromBytes(testing::AsBytes(file).subspan(
      static_cast<size_t>(*id_meta.bloom_filter_offset) + consumed, static_cast<size_t>(header->numBytes)));
  ASSERT_TRUE(filter.ok());
  for (int i = 0; i < 2000; ++i) EXPECT_TRUE(filter->Check(BloomHash(int64_t{i * 7})));
  EXPECT_EQ(*id_meta.bloom_filter_length, static_cast<int32_t>(consumed) + header->numBytes);
}

TEST(ParquetFileWriterTest, DictionaryFallsBackToTheConfiguredEncoding) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("rid", DataType::Int64(), false), Field("s", DataType::Utf8())});
  std::vector<std::optional<int64_t>> rid;
  std::vector<std::optional<std::string>> s;
  for (int i = 0; i < 5000; ++i) {
    rid.push_back(i);
    // The first page repeats ten values, so its dictionary pays; the chunk's
    // 3000 values later pass the limit.
    s.push_back(StrCat("value-", i < 300 ? i % 10 : i % 3000));
  }
  auto batches = std::vector<RecordBatch>{Batch(schema, {testing::Int64s(rid), testing::Strings(s)})};
  WriterOptions o;
  o.dictionary_page_size_limit = 4096;
  o.page_rows = 300;
  o.columns["s"].encoding = Encoding::DELTA_BYTE_ARRAY;
  WriterCase c = MakeCase(dir, "fallback", schema, batches, o);
  auto md = DecodeFileMetaData(testing::FindFooter(ReadAll(c.parquet)).bytes);
  ASSERT_TRUE(md.ok());
  const ColumnMetaData& m = *md->row_groups[0].columns[1].meta_data;
  ASSERT_TRUE(m.encoding_stats.has_value());
  int dict_pages = 0, dict_data = 0, fallback = 0;
  for (const auto& e : *m.encoding_stats) {
    if (e.page_type == PageType::DICTIONARY_PAGE) dict_pages += e.count;
    if (e.encoding == Encoding::RLE_DICTIONARY) dict_data += e.count;
    if (e.encoding == Encoding::DELTA_BYTE_ARRAY) fallback += e.count;
  }
  EXPECT_EQ(dict_pages, 1);
  EXPECT_GE(dict_data, 1);
  EXPECT_GE(fallback, 1);
  EXPECT_TRUE(m.dictionary_page_offset.has_value());
  ExpectWellFormed(c.parquet, true);
  ExpectDuckDbReadsSameValues({c});
}

TEST(ParquetFileWriterTest, DictionaryThatDoesNotPayOnTheFirstPageIsNotWritten) {
  // Unique sorted timestamps-like integers and unique strings: a dictionary
  // is no smaller than PLAIN on the first page, so (as parquet-mr) no page
  // of the chunk is dictionary-encoded and no dictionary page is written;
  // a column of few values keeps its dictionary.
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  // `rid` (the cross-check's row key) is unique and sorted like timestamps.
  auto schema = MakeSchema({Field("rid", DataType::Int64(), false), Field("s", DataType::Utf8()),
                            Field("city", DataType::Utf8())});
  std::vector<std::optional<int64_t>> ts;
  std::vector<std::optional<std::string>> s, city;
  for (int i = 0; i < 5000; ++i) {
    ts.push_back(int64_t{1'800'000'000'000'000} + int64_t{i} * 86'400);
    s.push_back(StrCat("order-", i));
    city.push_back(i % 7 == 0 ? "Porto" : "Lisboa");
  }
  auto batches =
      std::vector<RecordBatch>{Batch(schema, {testing::Int64s(ts), testing::Strings(s), testing::Strings(city)})};
  WriterOptions o;
  o.page_rows = 1000;
  o.columns["rid"].encoding = Encoding::DELTA_BINARY_PACKED;
  WriterCase c = MakeCase(dir, "no_dictionary", schema, batches, o);
  auto md = DecodeFileMetaData(testing::FindFooter(ReadAll(c.parquet)).bytes);
  ASSERT_TRUE(md.ok());
  ASSERT_EQ(md->row_groups.size(), 1u);
  const auto count = [](const ColumnMetaData& m, PageType type, Encoding encoding) {
    int n = 0;
    for (const auto& e : *m.encoding_stats) n += e.page_type == type && e.encoding == encoding ? e.count : 0;
    return n;
  };
  const ColumnMetaData& ts_meta = *md->row_groups[0].columns[0].meta_data;
  ASSERT_TRUE(ts_meta.encoding_stats.has_value());
  EXPECT_FALSE(ts_meta.dictionary_page_offset.has_value());
  EXPECT_EQ(count(ts_meta, PageType::DICTIONARY_PAGE, Encoding::PLAIN), 0);
  EXPECT_EQ(count(ts_meta, PageType::DATA_PAGE, Encoding::RLE_DICTIONARY), 0);
  EXPECT_EQ(count(ts_meta, PageType::DATA_PAGE, Encoding::DELTA_BINARY_PACKED), 5);
  // Constant deltas: five pages of 1000 values in well under a byte per value.
  EXPECT_LT(ts_meta.total_compressed_size, 1000);
  const ColumnMetaData& s_meta = *md->row_groups[0].columns[1].meta_data;
  EXPECT_FALSE(s_meta.dictionary_page_offset.has_value());
  EXPECT_EQ(count(s_meta, PageType::DATA_PAGE, Encoding::PLAIN), 5);
  EXPECT_EQ(count(s_meta, PageType::DATA_PAGE, Encoding::RLE_DICTIONARY), 0);
  const ColumnMetaData& city_meta = *md->row_groups[0].columns[2].meta_data;
  EXPECT_TRUE(city_meta.dictionary_page_offset.has_value());
  EXPECT_EQ(count(city_meta, PageType::DATA_PAGE, Encoding::RLE_DICTIONARY), 5);
  ExpectWellFormed(c.parquet, true);
  ExpectDuckDbReadsSameValues({c});
}

TEST(ParquetFileWriterTest, CutsRowGroupsByRowsAndBytes) {
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("rid", DataType::Int64(), false), Field("s", DataType::Utf8())});
  auto batches = RandomBatches(schema, 1000, 333, 9);
  WriterOptions by_rows;
  by_rows.row_group_rows = 100;
  auto a = WriteFile(dir.Join("rows.parquet"), schema, batches, by_rows);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_EQ(a->metadata.row_groups.size(), 10u);
  for (const auto& rg : a->metadata.row_groups) EXPECT_EQ(rg.num_rows, 100);
  EXPECT_EQ(a->metadata.num_rows, 1000);

  WriterOptions by_bytes;
  by_bytes.row_group_bytes = 4096;
  by_bytes.dictionary = false;
  by_bytes.codec = compression::Codec::kUncompressed;
  auto b = WriteFile(dir.Join("bytes.parquet"), schema, batches, by_bytes);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_GT(b->metadata.row_groups.size(), 1u);
  int64_t rows = 0;
  for (const auto& rg : b->metadata.row_groups) rows += rg.num_rows;
  EXPECT_EQ(rows, 1000);
  ExpectWellFormed(dir.Join("bytes.parquet"), true);
  EXPECT_EQ(b->file_size, static_cast<int64_t>(ReadAll(dir.Join("bytes.parquet")).size()));
}

TEST(ParquetFileWriterTest, DataPageV2StartsAtRecordBoundaries) {
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("rid", DataType::Int64(), false),
                            Field("l", DataType::List(Field("element", DataType::Int32())))});
  auto batches = RandomBatches(schema, 2000, 2000, 4, 0.1);
  WriterOptions o;
  o.data_page_version = 2;
  o.page_rows = 7;
  auto written = WriteFile(dir.Join("v2.parquet"), schema, batches, o);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  // ExpectWellFormed checks that the pages' num_rows add up to the row group's.
  ExpectWellFormed(dir.Join("v2.parquet"), true);
  const auto& chunk = written->metadata.row_groups[0].columns[1];
  EXPECT_GT(chunk.meta_data->num_values, 2000);
}

TEST(ParquetFileWriterTest, RejectsBatchesOfAnotherSchemaAndNullsInRequiredFields) {
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("id", DataType::Int64(), false)});
  auto other = MakeSchema({Field("id", DataType::Int32(), false)});
  auto writer = ParquetFileWriter::Open(NewLocalFileIO(), dir.Join("x.parquet"), schema, {});
  ASSERT_TRUE(writer.ok());
  Status s = (*writer)->Write(Batch(other, {testing::Int32s({1})}));
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // A schema mismatch is the caller's mistake before any byte is written; the
  // writer stays usable.
  EXPECT_TRUE((*writer)->Write(Batch(schema, {testing::Int64s({1, 2})})).ok());
  // So is an array whose layout is broken: 3 values where its 4 rows need 4.
  auto broken = RecordBatch::Make(
      schema,
      {Array(std::make_shared<ArrayData>(
          DataType::Int64(), 4, std::vector<Buffer>{Buffer(), testing::Int64s({1, 2, 3}).data()->buffers[1]}))});
  ASSERT_TRUE(broken.ok()) << broken.status().ToString();
  s = (*writer)->Write(*broken);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("column 'id'"), std::string::npos) << s.ToString();
  EXPECT_TRUE((*writer)->Write(Batch(schema, {testing::Int64s({5})})).ok());
  // A null in a required field is found while shredding: the writer is then unusable.
  auto nullable = MakeSchema({Field("id", DataType::Int64(), false)});
  s = (*writer)->Write(Batch(nullable, {testing::Int64s({1, std::nullopt})}));
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_FALSE((*writer)->Write(Batch(schema, {testing::Int64s({3})})).ok());
  auto closed = (*writer)->Close();
  EXPECT_TRUE(closed.status().IsInvalidArgument()) << closed.status().ToString();
  EXPECT_FALSE(std::filesystem::exists(dir.Join("x.parquet")));
}

TEST(ParquetFileWriterTest, RejectsBadOptions) {
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("id", DataType::Int64()), Field("s", DataType::Utf8())});
  WriterOptions unknown;
  unknown.columns["nope"].dictionary = false;
  EXPECT_TRUE(ParquetFileWriter::Open(NewLocalFileIO(), dir.Join("a"), schema, unknown).status().IsInvalidArgument());
  WriterOptions bad_encoding;
  bad_encoding.columns["s"].encoding = Encoding::DELTA_BINARY_PACKED;
  EXPECT_TRUE(ParquetFileWriter::Open(NewLocalFileIO(), dir.Join("a"), schema, bad_encoding).status().IsInvalidArgument());
  WriterOptions bad_level;
  bad_level.codec = compression::Codec::kZstd;
  bad_level.compression_level = 1000;
  EXPECT_TRUE(ParquetFileWriter::Open(NewLocalFileIO(), dir.Join("a"), schema, bad_level).status().IsInvalidArgument());
  WriterOptions bad_version;
  bad_version.data_page_version = 3;
  EXPECT_TRUE(ParquetFileWriter::Open(NewLocalFileIO(), dir.Join("a"), schema, bad_version).status().IsInvalidArgument());
  auto empty_struct = MakeSchema({Field("s", DataType::Struct({}))});
  EXPECT_TRUE(ParquetFileWriter::Open(NewLocalFileIO(), dir.Join("a"), empty_struct, {}).status().IsUnsupported());
  EXPECT_FALSE(std::filesystem::exists(dir.Join("a")));
}

TEST(ParquetFileWriterTest, StorageErrorsPropagateAndLeaveNothingVisible) {
  auto memory = NewMemoryFileIO();
  auto io = std::make_shared<FaultInjectingFileIO>(memory);
  FaultRule rule;
  rule.ops = kIoAppend;
  rule.nth = 2;  // the first row group's first chunk (after the magic)
  io->AddRule(rule);
  auto schema = MakeSchema({Field("id", DataType::Int64())});
  WriterOptions o;
  o.row_group_rows = 2;
  auto writer = ParquetFileWriter::Open(io, "mem:/t/f.parquet", schema, o);
  ASSERT_TRUE(writer.ok());
  Status s = (*writer)->Write(Batch(schema, {testing::Int64s({1, 2, 3})}));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE((*writer)->Close().status().IsIOError());
  EXPECT_FALSE(*memory->Exists("mem:/t/f.parquet"));

  // Abort after writing leaves nothing either.
  io->ClearRules();
  auto aborted = ParquetFileWriter::Open(io, "mem:/t/g.parquet", schema, o);
  ASSERT_TRUE(aborted.ok());
  ASSERT_TRUE((*aborted)->Write(Batch(schema, {testing::Int64s({1, 2, 3})})).ok());
  (*aborted)->Abort();
  EXPECT_FALSE(*memory->Exists("mem:/t/g.parquet"));
}

TEST(ParquetFileWriterTest, EmptyFileHasASchemaAndNoRowGroups) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("id", DataType::Int64(), true, {}, 9)});
  auto written = WriteFile(dir.Join("empty.parquet"), schema, {});
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_TRUE(written->metadata.row_groups.empty());
  auto r = RunDuckDb({"SELECT count(*) AS n FROM read_parquet(" + SqlString(dir.Join("empty.parquet")) + ")"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.rows, std::vector<std::string>{R"({"n":"0"})"});
}

}  // namespace
}  // namespace floe::parquet
