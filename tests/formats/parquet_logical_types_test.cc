// The logical types beyond floe's own column types, both ways: files DuckDB
// writes (TIMESTAMP_MS, TIMESTAMP_NS, TIME, TIMETZ, INTERVAL, JSON, ENUM,
// UUID) read by floe with DuckDB's values, TIME and TIMESTAMP in MILLIS and
// NANOS as arrow-rs (parquet-wasm) writes them; and every annotation floe's
// writer takes from field metadata (ENUM, JSON, BSON, INTERVAL, VARIANT,
// GEOMETRY, GEOGRAPHY, millisecond units, TIME adjusted to UTC, decimals in
// other physical types), read back by floe with the same schema and by DuckDB
// with the same values and logical types.

#include <gtest/gtest.h>

#include <cstring>

#include "floe/columnar/builder.h"
#include "floe/columnar/value_format.h"
#include "floe/formats/parquet/field_annotation.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/parquet/statistics.h"
#include "floe/io/file_io.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace {

using testing::RunDuckDb;
using testing::SqlString;

KeyValueMetadata Logical(std::string_view text) { return {{std::string(kLogicalTypeKey), std::string(text)}}; }
KeyValueMetadata Physical(std::string_view text) { return {{std::string(kPhysicalTypeKey), std::string(text)}}; }

// The rows of `path` as one batch (the files here are small).
RecordBatch ReadWhole(const std::string& path) {
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  auto batches = ReadAllBatches(std::move(file).value());
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(batches->size(), 1u);
  return batches->front();
}

// Value i of `column` as text in the comparison domain: integers of the
// physical value for temporal types, floe's rendering otherwise; NULL for null.
std::string Text(const Array& column, int64_t i) {
  if (column.IsNull(i)) return "NULL";
  switch (column.type_id()) {
    case TypeId::kTimestamp:
    case TypeId::kTime64: return std::to_string(column.Values<int64_t>()[i]);
    default: {
      std::string out;
      value_format::AppendText(*column.data(), i, &out);
      return out;
    }
  }
}

std::string Joined(const Array& column) {
  std::string out;
  for (int64_t i = 0; i < column.length(); ++i) out += (i ? "|" : "") + Text(column, i);
  return out;
}

// DuckDB's values of `expr` over the file's rows (ordered by id), joined like Joined().
std::string DuckJoinedSql(const std::string& expr, const std::string& path) {
  return "SELECT string_agg(coalesce((" + expr + ")::VARCHAR, 'NULL'), '|' ORDER BY id) AS v FROM read_parquet(" +
         SqlString(path) + ")";
}

std::string JsonRow(const std::string& value) {
  std::string out = "{\"v\":";
  testing::AppendJsonString(value, &out);
  return out + "}";
}

TEST(ParquetLogicalTypesTest, FilesDuckDbWritesReadWithDuckDbsValues) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  const std::string path = dir.Join("duck.parquet");
  auto w = RunDuckDb({
      "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')",
      "COPY (SELECT i AS id,"
      " CASE WHEN i % 5 = 4 THEN NULL ELSE (TIMESTAMP '1969-07-20 20:17:40.123' + to_milliseconds(i * 86400123))::TIMESTAMP_MS END AS ts_ms,"
      " CASE WHEN i % 6 = 5 THEN NULL ELSE make_timestamp_ns(1577934245123456789 - i * 987654321987) END AS ts_ns,"
      " (TIMESTAMP '2001-02-03 04:05:06' + to_seconds(i * 3607))::TIMESTAMP_S AS ts_s,"
      " CASE WHEN i % 7 = 6 THEN NULL ELSE TIME '00:00:00' + to_microseconds((i * 1234567891) % 86400000000) END AS t,"
      " (lpad((i % 24)::VARCHAR, 2, '0') || ':30:00+0' || (i % 10))::TIMETZ AS ttz,"
      " CASE WHEN i % 4 = 3 THEN NULL ELSE to_months(i * 5) + to_days(i % 40) + to_milliseconds(i * 3600123) END AS iv,"
      " CASE WHEN i % 3 = 2 THEN NULL ELSE ('{\"k\": ' || i || ', \"s\": [\"a b\", null]}')::JSON END AS j,"
      " (['sad', 'ok', 'happy'])[i % 3 + 1]::mood AS m,"
      " md5(i::VARCHAR)::UUID AS u"
      " FROM range(30) t(i)) TO " + SqlString(path) + " (FORMAT parquet)",
  });
  ASSERT_EQ(w.exit_code, 0) << w.err;

  const RecordBatch batch = ReadWhole(path);
  const Schema& schema = batch.schema();
  ASSERT_EQ(schema.num_fields(), 10);
  // Types, and the annotations floe's types do not carry as field metadata.
  EXPECT_EQ(schema.field(1).type->ToString(), "timestamp[us]");
  EXPECT_EQ(FindMetadata(schema.field(1).metadata, kLogicalTypeKey), "TIMESTAMP(MILLIS,false)");
  EXPECT_EQ(schema.field(2).type->ToString(), "timestamp[ns]");
  EXPECT_TRUE(schema.field(2).metadata.empty());
  EXPECT_EQ(schema.field(3).type->ToString(), "timestamp[us]");
  EXPECT_EQ(schema.field(4).type->ToString(), "time64[us]");
  EXPECT_TRUE(schema.field(4).metadata.empty());
  EXPECT_EQ(schema.field(5).type->ToString(), "time64[us]");
  EXPECT_EQ(FindMetadata(schema.field(5).metadata, kLogicalTypeKey), "TIME(MICROS,true)");
  EXPECT_EQ(schema.field(6).type->ToString(), "interval");
  EXPECT_EQ(schema.field(7).type->ToString(), "string");
  EXPECT_EQ(FindMetadata(schema.field(7).metadata, kLogicalTypeKey), "JSON");
  EXPECT_EQ(schema.field(8).type->ToString(), "string");  // DuckDB writes an ENUM as a UTF8 string
  EXPECT_EQ(schema.field(9).type->ToString(), "uuid");

  // Values: DuckDB's reading of the same file, column by column.
  const std::vector<std::pair<int, std::string>> columns = {
      {1, "epoch_ms(ts_ms) * 1000"}, {2, "epoch_ns(ts_ns)"}, {3, "epoch_us(ts_s)"}, {4, "epoch_us(t)"},
      // TIMETZ is stored normalized to UTC; floe reads that time of day.
      {5, "epoch_us(ttz::TIME)"}, {6, "iv"}, {7, "j"}, {8, "m"}, {9, "u"}};
  std::vector<std::string> sql;
  for (const auto& [index, expr] : columns) sql.push_back(DuckJoinedSql(expr, path));
  auto r = RunDuckDb(sql);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.rows.size(), columns.size());
  for (size_t k = 0; k < columns.size(); ++k) {
    EXPECT_EQ(JsonRow(Joined(batch.column(columns[k].first))), r.rows[k]) << schema.field(columns[k].first).name;
  }
}

TEST(ParquetLogicalTypesTest, FilesArrowRsWritesReadInTheirUnits) {
  const std::string tools = std::string(FLOE_SOURCE_DIR) + "/dev/tools";
  if (testing::FindOnPath("node").empty() || !std::filesystem::exists(tools + "/node_modules/parquet-wasm")) {
    GTEST_SKIP() << "node or parquet-wasm is missing (dev/install-test-tools)";
  }
  floe::testing::TempDir dir;
  const std::string path = dir.Join("arrow-rs.parquet");
  auto w = floe::testing::RunProcess({testing::FindOnPath("node"),
                                      std::string(FLOE_SOURCE_DIR) + "/tests/formats/arrow_rs_temporal_file.mjs",
                                      tools, path});
  ASSERT_EQ(w.exit_code, 0) << w.err;

  // TIME(MILLIS) in INT32 and TIMESTAMP(MILLIS) read as microseconds, with
  // the annotation kept as field metadata; NANOS as they are.
  const RecordBatch batch = ReadWhole(path);
  const Schema& schema = batch.schema();
  ASSERT_EQ(schema.num_fields(), 4);
  EXPECT_EQ(schema.field(0).type->ToString(), "time64[us]");
  EXPECT_EQ(FindMetadata(schema.field(0).metadata, kLogicalTypeKey), "TIME(MILLIS,false)");
  EXPECT_EQ(schema.field(1).type->ToString(), "time64[ns]");
  EXPECT_TRUE(schema.field(1).metadata.empty());  // TIME(NANOS,false) is what floe writes for time64[ns]
  EXPECT_EQ(schema.field(2).type->ToString(), "timestamp[us]");
  EXPECT_EQ(FindMetadata(schema.field(2).metadata, kLogicalTypeKey), "TIMESTAMP(MILLIS,false)");
  EXPECT_EQ(schema.field(3).type->ToString(), "timestamp[ns, tz=UTC]");
  EXPECT_TRUE(schema.field(3).metadata.empty());
  // The script's values, in floe's units.
  EXPECT_EQ(Joined(batch.column(0)), "0|45296789000|NULL|86399999000|1000000");
  EXPECT_EQ(Joined(batch.column(1)), "0|45296789012345|86399999999999|NULL|1");
  EXPECT_EQ(Joined(batch.column(2)), "0|-1000000|1577934245678000|NULL|253402300799999000");
  EXPECT_EQ(Joined(batch.column(3)), "0|-1|1577934245678901234|NULL|5");
}

// Every annotation the writer takes from field metadata, with nulls.
std::shared_ptr<const Schema> AnnotatedSchema() {
  const TypePtr variant = DataType::Struct(
      {Field("metadata", DataType::Binary(), false), Field("value", DataType::Binary(), false)});
  return testing::MakeSchema({
      Field("id", DataType::Int64(), false),
      Field("enum_col", DataType::Utf8(), true, Logical("ENUM")),
      Field("json_col", DataType::Utf8(), true, Logical("JSON")),
      Field("bson_col", DataType::Binary(), true, Logical("BSON")),
      Field("interval_col", DataType::Interval()),
      Field("geometry_col", DataType::Binary(), true, Logical("GEOMETRY")),
      Field("geography_col", DataType::Binary(), true, Logical("GEOGRAPHY(algorithm=KARNEY)")),
      Field("ts_ms", DataType::Timestamp(floe::TimeUnit::kMicro, "UTC"), true, Logical("TIMESTAMP(MILLIS,true)")),
      Field("ts_ms_local", DataType::Timestamp(floe::TimeUnit::kMicro), true, Logical("TIMESTAMP(MILLIS,false)")),
      Field("time_ms", DataType::Time64(floe::TimeUnit::kMicro), true, Logical("TIME(MILLIS,false)")),
      Field("time_utc", DataType::Time64(floe::TimeUnit::kMicro), true, Logical("TIME(MICROS,true)")),
      Field("dec_bytes", *DataType::Decimal128(20, 2), true, Physical("BYTE_ARRAY")),
      Field("dec_long", *DataType::Decimal128(7, 2), true, Physical("INT64")),
      Field("dec_wide", *DataType::Decimal128(10, 2), true, Physical("FIXED_LEN_BYTE_ARRAY(16)")),
      Field("int32_signed", DataType::Int32(), true, Logical("INTEGER(32,true)")),
      Field("variant_col", variant, true, Logical("VARIANT(1)")),
  });
}

// A WKB point (little-endian, type 1).
std::string WkbPoint(double x, double y) {
  std::string out("\x01\x01\x00\x00\x00", 5);
  out.append(reinterpret_cast<const char*>(&x), 8);
  out.append(reinterpret_cast<const char*>(&y), 8);
  return out;
}

Array Intervals(const std::vector<std::optional<MonthDayNano>>& values) {
  IntervalBuilder b(DataType::Interval());
  for (const auto& v : values) EXPECT_TRUE((v ? b.Append(*v) : b.AppendNull()).ok());
  return b.Finish().value();
}

template <typename T>
Array Typed(TypePtr type, const std::vector<std::optional<T>>& values) {
  return testing::Primitive<T>(std::move(type), values);
}

constexpr int64_t kRows = 6;

RecordBatch AnnotatedBatch(const std::shared_ptr<const Schema>& schema) {
  const std::string bson("\x0c\x00\x00\x00\x10" "a\x00\x01\x00\x00\x00\x00", 12);  // {"a": 1}
  // A variant's metadata (version 1, empty dictionary) and values: int8 42, the string "hi".
  const std::string metadata("\x01\x00\x00", 3);
  const std::string int8_42("\x0c\x2a", 2);
  const std::string short_hi("\x09hi", 3);
  std::vector<Array> variant_children = {testing::Binaries(DataType::Binary(), {metadata, metadata, metadata, metadata, metadata, metadata}),
                                         testing::Binaries(DataType::Binary(), {int8_42, short_hi, int8_42, int8_42, short_hi, int8_42})};
  const auto& fields = schema->fields;
  auto dec = [&](int f, std::vector<std::optional<Decimal128Value>> v) { return Typed<Decimal128Value>(fields[f].type, v); };
  return testing::Batch(
      schema,
      {testing::Int64s({0, 1, 2, 3, 4, 5}),
       testing::Strings({"sad", "ok", std::nullopt, "happy", "ok", ""}),
       testing::Strings({"{\"a\":1}", "[1,2]", "null", std::nullopt, "\"s\"", "{}"}),
       testing::Binaries(DataType::Binary(), {bson, std::nullopt, bson, bson, std::string(), bson}),
       Intervals({MonthDayNano{14, 3, 14'706'789'000'000}, MonthDayNano{0, 0, 0}, std::nullopt,
                  MonthDayNano{0, 45, 1'000'000}, MonthDayNano{1200, 0, int64_t{4'294'967'295} * 1'000'000},
                  MonthDayNano{1, 1, 86'400'000'000'000}}),
       testing::Binaries(DataType::Binary(), {WkbPoint(1, 2), WkbPoint(-3.5, 4.25), std::nullopt, WkbPoint(0, 0),
                                              WkbPoint(180, -90), WkbPoint(1e10, 0.5)}),
       testing::Binaries(DataType::Binary(), {WkbPoint(-9.1, 38.7), std::nullopt, WkbPoint(2.35, 48.85),
                                              WkbPoint(139.7, 35.7), WkbPoint(0, 0), WkbPoint(-180, 90)}),
       Typed<int64_t>(fields[7].type, {1'577'934'245'678'000, -1'000, std::nullopt, 0, 253'402'300'799'999'000, -62'135'596'800'000'000}),
       Typed<int64_t>(fields[8].type, {-14'182'940'000'000, 1'000, 2'000, std::nullopt, 86'400'000'000, 5'000}),
       Typed<int64_t>(fields[9].type, {0, 45'296'789'000, std::nullopt, 86'399'999'000, 1'000, 12'000}),
       Typed<int64_t>(fields[10].type, {0, 45'296'789'001, 86'399'999'999, std::nullopt, 1, 39'600'000'000}),
       dec(11, {Decimal128Value{-12345678901234567}, Decimal128Value{0}, std::nullopt, Decimal128Value{99},
                -(Decimal128Value{10} * 1'000'000'000'000'000'000 - 1), Decimal128Value{1}}),
       dec(12, {Decimal128Value{-9'999'999}, Decimal128Value{9'999'999}, Decimal128Value{0}, std::nullopt,
                Decimal128Value{-1}, Decimal128Value{150}}),
       dec(13, {Decimal128Value{-9'999'999'999}, std::nullopt, Decimal128Value{9'999'999'999}, Decimal128Value{0},
                Decimal128Value{-100}, Decimal128Value{12345}}),
       testing::Int32s({INT32_MIN, INT32_MAX, std::nullopt, 0, -1, 7}),
       testing::StructOf(fields[15].type, kRows, {1, 1, 0, 1, 1, 1}, variant_children)});
}

TEST(ParquetLogicalTypesTest, WriterKeepsAnnotationsAndReadsThemBackAsWritten) {
  floe::testing::TempDir dir;
  const std::string path = dir.Join("annotated.parquet");
  const auto schema = AnnotatedSchema();
  const RecordBatch batch = AnnotatedBatch(schema);
  WriterOptions options;
  options.columns["enum_col"].bloom_filter = true;
  ASSERT_TRUE(testing::WriteFile(path, schema, {batch}, options).ok());

  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  // The same floe schema, annotation metadata included.
  EXPECT_EQ((*file)->schema().schema(), *schema) << (*file)->schema().schema().ToString();
  // The footer's elements: physical types, lengths, logical and converted types.
  struct Expect {
    std::string name;
    Type type;
    int32_t length;
    std::string logical;  // "" for none
    std::optional<ConvertedType> converted;
  };
  const std::vector<Expect> expected = {
      {"enum_col", Type::BYTE_ARRAY, 0, "ENUM", ConvertedType::ENUM},
      {"json_col", Type::BYTE_ARRAY, 0, "JSON", ConvertedType::JSON},
      {"bson_col", Type::BYTE_ARRAY, 0, "BSON", ConvertedType::BSON},
      {"interval_col", Type::FIXED_LEN_BYTE_ARRAY, 12, "", ConvertedType::INTERVAL},
      {"geometry_col", Type::BYTE_ARRAY, 0, "GEOMETRY", std::nullopt},
      {"geography_col", Type::BYTE_ARRAY, 0, "GEOGRAPHY(algorithm=KARNEY)", std::nullopt},
      {"ts_ms", Type::INT64, 0, "TIMESTAMP(MILLIS,true)", ConvertedType::TIMESTAMP_MILLIS},
      {"ts_ms_local", Type::INT64, 0, "TIMESTAMP(MILLIS,false)", std::nullopt},
      {"time_ms", Type::INT32, 0, "TIME(MILLIS,false)", std::nullopt},
      {"time_utc", Type::INT64, 0, "TIME(MICROS,true)", ConvertedType::TIME_MICROS},
      {"dec_bytes", Type::BYTE_ARRAY, 0, "DECIMAL(20,2)", ConvertedType::DECIMAL},
      {"dec_long", Type::INT64, 0, "DECIMAL(7,2)", ConvertedType::DECIMAL},
      {"dec_wide", Type::FIXED_LEN_BYTE_ARRAY, 16, "DECIMAL(10,2)", ConvertedType::DECIMAL},
      {"int32_signed", Type::INT32, 0, "INTEGER(32,true)", ConvertedType::INT_32},
  };
  for (const Expect& e : expected) {
    const SchemaNode* node = nullptr;
    for (const SchemaNode& n : (*file)->schema().nodes()) {
      if (n.name == e.name) node = &n;
    }
    ASSERT_NE(node, nullptr) << e.name;
    EXPECT_EQ(node->physical_type, e.type) << e.name;
    if (e.length > 0) {
      EXPECT_EQ(node->type_length, e.length) << e.name;
    }
    EXPECT_EQ(node->logical_type ? LogicalTypeText(*node->logical_type) : "", e.logical) << e.name;
    EXPECT_EQ(node->converted_type, e.converted) << e.name;
  }
  // The VARIANT group.
  const auto& root = (*file)->schema().nodes()[0];
  const SchemaNode& variant = (*file)->schema().nodes()[static_cast<size_t>(root.children.back())];
  EXPECT_EQ(variant.name, "variant_col");
  ASSERT_TRUE(variant.logical_type.has_value());
  EXPECT_EQ(LogicalTypeText(*variant.logical_type), "VARIANT(1)");

  // The same values.
  const RecordBatch read = ReadWhole(path);
  ASSERT_EQ(read.num_rows(), kRows);
  for (int c = 0; c < read.num_columns(); ++c) {
    EXPECT_TRUE(ArrayEquals(read.column(c), batch.column(c))) << schema->field(c).name;
  }

  // Statistics: millisecond columns bound in milliseconds; INTERVAL and the
  // geospatial columns (undefined order) without bounds, and without a column index.
  const FileMetaData& md = (*file)->metadata();
  for (int c = 0; c < (*file)->schema().num_columns(); ++c) {
    const ColumnDescriptor& column = (*file)->schema().column(c);
    const ColumnChunk& chunk = md.row_groups[0].columns[static_cast<size_t>(c)];
    const std::string name = column.dotted_path();
    const Statistics& stats = *chunk.meta_data->statistics;
    if (name == "interval_col" || name == "geometry_col" || name == "geography_col") {
      EXPECT_FALSE(stats.min_value.has_value()) << name;
      EXPECT_FALSE(chunk.column_index_offset.has_value()) << name;
      EXPECT_TRUE(chunk.offset_index_offset.has_value()) << name;
      EXPECT_EQ(stats.null_count, 1) << name;
    } else if (name == "ts_ms") {
      EXPECT_EQ(stats.min_value, PlainInt64(-62'135'596'800'000)) << name;
      EXPECT_EQ(stats.max_value, PlainInt64(253'402'300'799'999)) << name;
    } else if (name == "time_ms") {
      EXPECT_EQ(stats.min_value, PlainInt32(0)) << name;
      EXPECT_EQ(stats.max_value, PlainInt32(86'399'999)) << name;
    } else if (name == "dec_bytes") {
      // Signed order over the precision's 9 bytes.
      const ColumnStatistics effective = EffectiveStatistics(column, stats);
      ASSERT_TRUE(effective.min.has_value());
      EXPECT_EQ(FormatStatisticsValue(column, *effective.min), "-99999999999999999.99");
      EXPECT_EQ(FormatStatisticsValue(column, *effective.max), "0.99");
    }
  }
}

TEST(ParquetLogicalTypesTest, DuckDbReadsEveryAnnotationWithTheSameValues) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  const std::string path = dir.Join("annotated.parquet");
  // DuckDB refuses a whole file with a BSON column ("Unsupported converted
  // type (20)"), so that one is left out here.
  const RecordBatch full = AnnotatedBatch(AnnotatedSchema());
  const int bson = full.schema().FieldIndex("bson_col");
  std::vector<int> keep;
  for (int c = 0; c < full.num_columns(); ++c) {
    if (c != bson) keep.push_back(c);
  }
  auto projected = full.Project(keep);
  ASSERT_TRUE(projected.ok());
  const RecordBatch& batch = *projected;
  const auto schema = std::make_shared<const Schema>(batch.schema());
  ASSERT_TRUE(testing::WriteFile(path, schema, {batch}).ok());

  // DuckDB's view of the schema.
  auto meta = RunDuckDb({"SELECT name, converted_type, logical_type FROM parquet_schema(" + SqlString(path) +
                         ") WHERE name IN ('enum_col', 'json_col', 'interval_col', 'geometry_col', "
                         "'geography_col', 'ts_ms', 'time_ms', 'time_utc', 'dec_bytes', 'variant_col') ORDER BY name"});
  ASSERT_EQ(meta.exit_code, 0) << meta.err;
  std::string all;
  for (const auto& row : meta.rows) all += row + "\n";
  for (const char* needle : {"\"converted_type\":\"ENUM\"", "\"converted_type\":\"JSON\"",
                             "\"converted_type\":\"INTERVAL\"", "GeometryType", "GeographyType", "KARNEY",
                             "TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MILLIS=MilliSeconds()",
                             "TimeType(isAdjustedToUTC=0, unit=TimeUnit(MILLIS=MilliSeconds()",
                             "TimeType(isAdjustedToUTC=1, unit=TimeUnit(MILLIS=<null>, MICROS=MicroSeconds()"}) {
    EXPECT_NE(all.find(needle), std::string::npos) << needle << " not in\n" << all;
  }

  // DuckDB's values, column by column, against floe's.
  const std::vector<std::pair<std::string, std::string>> columns = {
      {"enum_col", "enum_col"},
      {"json_col", "json_col"},
      {"interval_col", "interval_col"},
      {"ts_ms", "epoch_ms(ts_ms) * 1000"},
      {"ts_ms_local", "epoch_ms(ts_ms_local) * 1000"},
      {"time_ms", "epoch_us(time_ms)"},
      {"time_utc", "epoch_us(time_utc::TIME)"},
      {"dec_bytes", "dec_bytes"},
      {"dec_long", "dec_long"},
      {"dec_wide", "dec_wide"},
      {"int32_signed", "int32_signed"},
  };
  std::vector<std::string> sql;
  for (const auto& [name, expr] : columns) sql.push_back(DuckJoinedSql(expr, path));
  auto r = RunDuckDb(sql);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.rows.size(), columns.size());
  for (size_t k = 0; k < columns.size(); ++k) {
    const int c = schema->FieldIndex(columns[k].first);
    EXPECT_EQ(JsonRow(Joined(batch.column(c))), r.rows[k]) << columns[k].first;
  }

  // parquet_schema() shows no group's logical type (not even for
  // parquet-testing's VARIANT files), but DuckDB reads the VARIANT group as
  // its VARIANT type, with the values the binary encoding holds.
  auto variant = RunDuckDb({"SELECT string_agg(typeof(variant_col) || ' ' || coalesce(variant_col::VARCHAR, 'NULL'), "
                            "'|' ORDER BY id) AS v FROM read_parquet(" + SqlString(path) + ")"});
  ASSERT_EQ(variant.exit_code, 0) << variant.err;
  ASSERT_EQ(variant.rows.size(), 1u);
  EXPECT_EQ(variant.rows[0], JsonRow("VARIANT 42|VARIANT hi|VARIANT NULL|VARIANT 42|VARIANT hi|VARIANT 42"));
}

TEST(ParquetLogicalTypesTest, WriterRejectsAnnotationsAndValuesItCannotKeep) {
  floe::testing::TempDir dir;
  auto open = [&](Field field) {
    return ParquetFileWriter::Open(NewLocalFileIO(), dir.Join("x.parquet"), testing::MakeSchema({std::move(field)}), {});
  };
  // Annotations that would not read back as the field's type, or do not parse.
  for (const Field& f : {Field("a", DataType::Int32(), true, Logical("JSON")),
                         Field("a", DataType::Binary(), true, Logical("ENUM")),
                         Field("a", DataType::Utf8(), true, Logical("BSON")),
                         Field("a", DataType::Timestamp(floe::TimeUnit::kMicro), true, Logical("TIMESTAMP(MILLIS,true)")),
                         Field("a", DataType::Timestamp(floe::TimeUnit::kNano), true, Logical("TIMESTAMP(MILLIS,false)")),
                         Field("a", DataType::Time64(floe::TimeUnit::kMicro), true, Logical("TIME(SECONDS,false)")),
                         Field("a", DataType::Int64(), true, Logical("INTEGER(32,true)")),
                         Field("a", DataType::Utf8(), true, Logical("VARIANT")),
                         Field("a", *DataType::Decimal128(10, 2), true, Physical("INT32")),
                         Field("a", *DataType::Decimal128(10, 2), true, Physical("FIXED_LEN_BYTE_ARRAY(4)")),
                         Field("a", DataType::Int64(), true, Physical("INT96"))}) {
    auto w = open(f);
    ASSERT_FALSE(w.ok()) << f.ToString() << " " << f.metadata[0].second;
    EXPECT_TRUE(w.status().IsInvalidArgument()) << w.status().ToString();
    EXPECT_NE(w.status().message().find("'a'"), std::string::npos) << w.status().ToString();
  }
  // Values the annotated form cannot hold are refused, never rounded.
  const auto ts_schema = testing::MakeSchema(
      {Field("ts", DataType::Timestamp(floe::TimeUnit::kMicro), true, Logical("TIMESTAMP(MILLIS,false)"))});
  auto ts = ParquetFileWriter::Open(NewLocalFileIO(), dir.Join("ts.parquet"), ts_schema, {});
  ASSERT_TRUE(ts.ok());
  Status s = (*ts)->Write(testing::Batch(ts_schema, {Typed<int64_t>(ts_schema->field(0).type, {1000, 1001})}));
  if (s.ok()) s = (*ts)->Close().status();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("1001"), std::string::npos) << s.ToString();
  EXPECT_FALSE((*ts)->Close().ok());
  EXPECT_FALSE(std::filesystem::exists(dir.Join("ts.parquet")));

  const auto iv_schema = testing::MakeSchema({Field("iv", DataType::Interval())});
  for (const MonthDayNano& bad : {MonthDayNano{-1, 0, 0}, MonthDayNano{0, 0, 1}, MonthDayNano{0, -2, 0},
                                  MonthDayNano{0, 0, int64_t{4'294'967'296} * 1'000'000}}) {
    auto iv = ParquetFileWriter::Open(NewLocalFileIO(), dir.Join("iv.parquet"), iv_schema, {});
    ASSERT_TRUE(iv.ok());
    Status st = (*iv)->Write(testing::Batch(iv_schema, {Intervals({bad})}));
    if (st.ok()) st = (*iv)->Close().status();
    EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
    EXPECT_NE(st.message().find("INTERVAL"), std::string::npos) << st.ToString();
  }
}

}  // namespace
}  // namespace floe::parquet
