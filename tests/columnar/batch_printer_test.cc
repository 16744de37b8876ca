#include "floe/columnar/batch_printer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "floe/columnar/builder.h"
#include "floe/columnar/value_format.h"

namespace floe {
namespace {

template <typename T>
Array Column(TypePtr type, const std::vector<std::optional<T>>& values) {
  PrimitiveBuilder<T> builder(std::move(type));
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return builder.Finish().value();
}

Array Utf8Column(const std::vector<std::optional<std::string>>& values, TypePtr type = DataType::Utf8()) {
  BinaryBuilder builder(std::move(type));
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return builder.Finish().value();
}

std::string Print(const RecordBatch& batch, OutputFormat format, int max_cell_width = 40) {
  PrintOptions options;
  options.format = format;
  options.max_cell_width = max_cell_width;
  Result<std::string> text = FormatBatches(batch.schema_ptr(), std::span<const RecordBatch>(&batch, 1), options);
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  return text.value_or("");
}

RecordBatch Batch(std::vector<Field> fields, std::vector<Array> columns) {
  return RecordBatch::Make(std::make_shared<Schema>(std::move(fields)), std::move(columns)).value();
}

// id, name, price decimal(10,2), score float64, day date32, at timestamp[us, UTC]
RecordBatch Mixed() {
  return Batch(
      {Field("id", DataType::Int64(), false), Field("name", DataType::Utf8()),
       Field("price", DataType::Decimal128(10, 2).value()), Field("score", DataType::Float64()),
       Field("day", DataType::Date32()), Field("at", DataType::Timestamp(TimeUnit::kMicro, "UTC"))},
      {Column<int64_t>(DataType::Int64(), {1, 2, 3}), Utf8Column({"alice", std::nullopt, "a,\"b\"\n"}),
       Column<Decimal128Value>(DataType::Decimal128(10, 2).value(), {1250, -5, 0}),
       Column<double>(DataType::Float64(), {1.5, NAN, -INFINITY}),
       Column<int32_t>(DataType::Date32(), {0, -1, -719528}),
       Column<int64_t>(DataType::Timestamp(TimeUnit::kMicro, "UTC"), {0, -1, 1'700'000'000'123'456})});
}

TEST(BatchPrinterTest, TableAlignsColumnsBetweenBorders) {
  EXPECT_EQ(Print(Mixed(), OutputFormat::kTable),
            "+----+---------+-------+-----------+------------+----------------------------------+\n"
            "| id | name    | price | score     | day        | at                               |\n"
            "+----+---------+-------+-----------+------------+----------------------------------+\n"
            "|  1 | alice   | 12.50 |       1.5 | 1970-01-01 | 1970-01-01T00:00:00.000000+00:00 |\n"
            "|  2 | NULL    | -0.05 |       NaN | 1969-12-31 | 1969-12-31T23:59:59.999999+00:00 |\n"
            "|  3 | a,\"b\"\\n |  0.00 | -Infinity | 0000-01-01 | 2023-11-14T22:13:20.123456+00:00 |\n"
            "+----+---------+-------+-----------+------------+----------------------------------+\n"
            "3 rows\n");
}

TEST(BatchPrinterTest, CsvQuotesWhatRfc4180Requires) {
  EXPECT_EQ(Print(Mixed(), OutputFormat::kCsv),
            "id,name,price,score,day,at\n"
            "1,alice,12.50,1.5,1970-01-01,1970-01-01T00:00:00.000000+00:00\n"
            "2,,-0.05,NaN,1969-12-31,1969-12-31T23:59:59.999999+00:00\n"
            "3,\"a,\"\"b\"\"\n\",0.00,-Infinity,0000-01-01,2023-11-14T22:13:20.123456+00:00\n");
}

TEST(BatchPrinterTest, JsonIsOneArrayOfRowObjects) {
  EXPECT_EQ(Print(Mixed(), OutputFormat::kJson),
            "[\n"
            "{\"id\":1,\"name\":\"alice\",\"price\":12.50,\"score\":1.5,\"day\":\"1970-01-01\","
            "\"at\":\"1970-01-01T00:00:00.000000+00:00\"},\n"
            "{\"id\":2,\"name\":null,\"price\":-0.05,\"score\":\"NaN\",\"day\":\"1969-12-31\","
            "\"at\":\"1969-12-31T23:59:59.999999+00:00\"},\n"
            "{\"id\":3,\"name\":\"a,\\\"b\\\"\\n\",\"price\":0.00,\"score\":\"-Infinity\",\"day\":\"0000-01-01\","
            "\"at\":\"2023-11-14T22:13:20.123456+00:00\"}\n"
            "]\n");
}

TEST(BatchPrinterTest, JsonlIsOneObjectPerLine) {
  RecordBatch batch = Mixed().Slice(0, 2);
  EXPECT_EQ(Print(batch, OutputFormat::kJsonl),
            "{\"id\":1,\"name\":\"alice\",\"price\":12.50,\"score\":1.5,\"day\":\"1970-01-01\","
            "\"at\":\"1970-01-01T00:00:00.000000+00:00\"}\n"
            "{\"id\":2,\"name\":null,\"price\":-0.05,\"score\":\"NaN\",\"day\":\"1969-12-31\","
            "\"at\":\"1969-12-31T23:59:59.999999+00:00\"}\n");
}

TEST(BatchPrinterTest, JsonTextFieldsAreEmbeddedInJsonAndPrintedAsTextElsewhere) {
  const Field doc = MarkJsonText(Field("doc", DataType::Utf8()));
  ASSERT_TRUE(IsJsonTextField(doc));
  const std::string pretty = "{ \"a\" :\n [1, \"x \\\" y\"] }";
  RecordBatch batch = Batch({Field("id", DataType::Int64()), doc}, {Column<int64_t>(DataType::Int64(), {1, 2, 3}),
                                                                    Utf8Column({pretty, std::nullopt, "{not json"})});
  PrintOptions options;
  options.format = OutputFormat::kJsonl;
  auto jsonl = FormatBatches(batch.schema_ptr(), std::span<const RecordBatch>(&batch, 1), options);
  ASSERT_TRUE(jsonl.ok()) << jsonl.status().ToString();
  // Embedded without the whitespace between its tokens (one record per
  // line); text that is not JSON prints as a string: the output stays JSON.
  EXPECT_EQ(*jsonl, R"({"id":1,"doc":{"a":[1,"x \" y"]}})"
                    "\n"
                    R"({"id":2,"doc":null})"
                    "\n"
                    R"({"id":3,"doc":"{not json"})"
                    "\n");
  options.format = OutputFormat::kCsv;
  auto csv = FormatBatches(batch.schema_ptr(), std::span<const RecordBatch>(&batch, 1), options);
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  // csv prints the text as it is.
  EXPECT_EQ(*csv, "id,doc\n1,\"{ \"\"a\"\" :\n [1, \"\"x \\\"\" y\"\"] }\"\n2,\n3,{not json\n");
  // Only a string field holds JSON text.
  EXPECT_FALSE(IsJsonTextField(MarkJsonText(Field("n", DataType::Int64()))));
}

TEST(BatchPrinterTest, NestedJsonTextFieldsAreEmbeddedAtAnyDepth) {
  // struct<doc: json text, tags: list<json text>>
  const Field doc = MarkJsonText(Field("doc", DataType::Utf8()));
  const TypePtr row_type = DataType::Struct({doc, Field("tags", DataType::List(doc))});
  auto made = MakeBuilder(row_type);
  StructBuilder& builder = *made->As<StructBuilder>();
  ASSERT_TRUE(builder.AppendRow().ok());
  ASSERT_TRUE(builder.field_builder(0)->As<BinaryBuilder>()->Append("[true,null]").ok());
  auto* tags = builder.field_builder(1)->As<ListBuilder>();
  ASSERT_TRUE(tags->StartList().ok());
  ASSERT_TRUE(tags->value_builder()->As<BinaryBuilder>()->Append("{\"k\":-1.5e3}").ok());
  ASSERT_TRUE(tags->value_builder()->As<BinaryBuilder>()->Append("1,2").ok());  // not one value
  ASSERT_TRUE(tags->value_builder()->AppendNull().ok());
  auto column = builder.Finish();
  ASSERT_TRUE(column.ok()) << column.status().ToString();
  RecordBatch batch = Batch({Field("row", row_type)}, {*column});
  for (const OutputFormat format : {OutputFormat::kJsonl, OutputFormat::kCsv}) {
    PrintOptions options;
    options.format = format;
    auto text = FormatBatches(batch.schema_ptr(), std::span<const RecordBatch>(&batch, 1), options);
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    const std::string nested = R"({"doc":[true,null],"tags":[{"k":-1.5e3},"1,2",null]})";
    EXPECT_EQ(*text, format == OutputFormat::kJsonl
                         ? "{\"row\":" + nested + "}\n"
                         : "row\n\"" + std::string(R"({""doc"":[true,null],""tags"":[{""k"":-1.5e3},""1,2"",null]})") +
                               "\"\n");
  }
}

TEST(BatchPrinterTest, AMapsJsonTextKeysStayStrings) {
  // map<json text, json text>: an object's key must be a string.
  const TypePtr map_type =
      DataType::Map(MarkJsonText(Field("key", DataType::Utf8(), false)), MarkJsonText(Field("value", DataType::Utf8())))
          .value();
  auto made = MakeBuilder(map_type);
  auto* map = made->As<MapBuilder>();
  ASSERT_TRUE(map->StartMap().ok());
  ASSERT_TRUE(map->key_builder()->As<BinaryBuilder>()->Append("[1]").ok());
  ASSERT_TRUE(map->item_builder()->As<BinaryBuilder>()->Append("{\n}").ok());
  auto column = map->Finish();
  ASSERT_TRUE(column.ok()) << column.status().ToString();
  RecordBatch batch = Batch({Field("m", map_type)}, {*column});
  PrintOptions options;
  options.format = OutputFormat::kJsonl;
  auto jsonl = FormatBatches(batch.schema_ptr(), std::span<const RecordBatch>(&batch, 1), options);
  ASSERT_TRUE(jsonl.ok()) << jsonl.status().ToString();
  EXPECT_EQ(*jsonl, "{\"m\":{\"[1]\":{}}}\n");
}

TEST(ValueFormatTest, IsJsonTextFollowsRfc8259) {
  const std::string deep = std::string(10000, '[') + std::string(10000, ']');
  for (const std::string& valid :
       {std::string("0"), std::string("-0.5e+10"), std::string(" {\"a\" : [1, {\"b\":null}, \"\\u00E9\\/\"] }\n"),
        std::string("\"\xc3\xa9\""), std::string("[]"), std::string("{}"), std::string("[[],{},[{}]]"),
        std::string("123456789012345678901234567890"), std::string("true"), std::string("1E-7"), deep}) {
    EXPECT_TRUE(value_format::IsJsonText(valid)) << valid.substr(0, 40);
  }
  for (const std::string& invalid : {std::string(""),
                                     std::string(" "),
                                     std::string("01"),
                                     std::string("1."),
                                     std::string(".5"),
                                     std::string("-"),
                                     std::string("1e"),
                                     std::string("+1"),
                                     std::string("[1,]"),
                                     std::string("{\"a\"}"),
                                     std::string("{\"a\":1,}"),
                                     std::string("[1 2]"),
                                     std::string("{1:2}"),
                                     std::string("tru"),
                                     std::string("nul"),
                                     std::string("\"\\x\""),
                                     std::string("\"\\u12g4\""),
                                     std::string("\"a"),
                                     std::string("\"\x01\""),
                                     std::string("\"\xff\""),
                                     std::string("[1]]"),
                                     std::string("1 2"),
                                     std::string("{\"a\":1]"),
                                     std::string("[}"),
                                     std::string("NaN"),
                                     std::string("[") + std::string(100, '['),
                                     std::string("\"\\u00e\"")}) {
    EXPECT_FALSE(value_format::IsJsonText(invalid)) << invalid;
  }
}

TEST(BatchPrinterTest, EmptyResultsKeepTheirFrame) {
  RecordBatch empty = Mixed().Slice(0, 0);
  EXPECT_EQ(Print(empty.Project(std::vector<int>{0, 1}).value(), OutputFormat::kTable),
            "+----+------+\n"
            "| id | name |\n"
            "+----+------+\n"
            "+----+------+\n"
            "0 rows\n");
  EXPECT_EQ(Print(empty, OutputFormat::kCsv), "id,name,price,score,day,at\n");
  EXPECT_EQ(Print(empty, OutputFormat::kJson), "[]\n");
  EXPECT_EQ(Print(empty, OutputFormat::kJsonl), "");
  EXPECT_EQ(Print(Mixed().Slice(0, 1).Project(std::vector<int>{0}).value(), OutputFormat::kTable),
            "+----+\n| id |\n+----+\n|  1 |\n+----+\n1 row\n");
}

TEST(BatchPrinterTest, TableTruncatesLongCellsAndHeaders) {
  RecordBatch batch = Batch({Field("description", DataType::Utf8())}, {Utf8Column({"abcdefgh", "héllo wörld", "short"})});
  EXPECT_EQ(Print(batch, OutputFormat::kTable, 5),
            "+-------+\n"
            "| desc… |\n"
            "+-------+\n"
            "| abcd… |\n"
            "| héll… |\n"
            "| short |\n"
            "+-------+\n"
            "3 rows\n");
  // 0 turns the limit off.
  EXPECT_NE(Print(batch, OutputFormat::kTable, 0).find("| héllo wörld |"), std::string::npos);
}

TEST(BatchPrinterTest, TableCutsLongValuesAtAnyCharacterWidth) {
  // The printer looks at no more of a value than its shown characters can
  // take: 4-byte characters, 2-byte ones, escapes, a 4-byte character
  // straddling that point, and 1 MB.
  std::string emoji;
  std::string accents;
  for (int i = 0; i < 100; ++i) emoji += "\xf0\x9f\x98\x80";
  for (int i = 0; i < 100; ++i) accents += "\xc3\xa9";
  const std::string straddling = "abcdefghijklmnopqrstuvw" + emoji;  // 23 bytes, then 4-byte characters
  const std::string escapes(100, '\t');
  const std::string long_value(1 << 20, 'x');
  RecordBatch batch =
      Batch({Field("s", DataType::Utf8())}, {Utf8Column({emoji, accents, straddling, escapes, long_value})});
  EXPECT_EQ(Print(batch, OutputFormat::kTable, 5),
            "+-------+\n"
            "| s     |\n"
            "+-------+\n"
            "| \xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80… |\n"
            "| éééé… |\n"
            "| abcd… |\n"
            "| \\t\\t… |\n"
            "| xxxx… |\n"
            "+-------+\n"
            "5 rows\n");
  const std::string wide = Print(batch, OutputFormat::kTable, 25);
  EXPECT_NE(wide.find("| abcdefghijklmnopqrstuvw\xf0\x9f\x98\x80… |"), std::string::npos) << wide;
}

TEST(BatchPrinterTest, TableEscapesControlCharactersAndInvalidUtf8) {
  RecordBatch batch =
      Batch({Field("s", DataType::Utf8())}, {Utf8Column({"tab\there", "esc\x1b[31m", "bad\xff\xc3", "c1\xc2\x9b", "日本"})});
  EXPECT_EQ(Print(batch, OutputFormat::kTable),
            "+-------------+\n"
            "| s           |\n"
            "+-------------+\n"
            "| tab\\there   |\n"
            "| esc\\x1b[31m |\n"
            "| bad\xef\xbf\xbd\xef\xbf\xbd       |\n"
            "| c1\\u009b    |\n"
            "| 日本          |\n"
            "+-------------+\n"
            "5 rows\n");
}

TEST(BatchPrinterTest, JsonEscapesStringsAndReplacesInvalidUtf8) {
  RecordBatch batch = Batch({Field("s\"k", DataType::Utf8())},
                            {Utf8Column({std::string("q\"b\\s/\b\f\n\r\t\x01\x1f\x7f", 14), "é日本😀", "bad\xff",
                                      "\xed\xa0\x80", "\xe2\x82", "\xf4\x90\x80\x80", "\xc0\xaf"})});
  EXPECT_EQ(Print(batch, OutputFormat::kJsonl),
            "{\"s\\\"k\":\"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\"}\n"
            "{\"s\\\"k\":\"é日本😀\"}\n"
            "{\"s\\\"k\":\"bad\xef\xbf\xbd\"}\n"
            "{\"s\\\"k\":\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"}\n"  // a surrogate: three bad bytes
            "{\"s\\\"k\":\"\xef\xbf\xbd\xef\xbf\xbd\"}\n"              // truncated sequence
            "{\"s\\\"k\":\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"}\n"  // past U+10FFFF
            "{\"s\\\"k\":\"\xef\xbf\xbd\xef\xbf\xbd\"}\n");                       // overlong
}

TEST(BatchPrinterTest, RendersDecimalsExactly) {
  TypePtr scale0 = DataType::Decimal128(38, 0).value();
  TypePtr scale5 = DataType::Decimal128(38, 5).value();
  Decimal128Value max38 = 0;  // 38 nines, the largest decimal(38, 0)
  for (int i = 0; i < 38; ++i) max38 = max38 * 10 + 9;
  const Decimal128Value min128 = static_cast<Decimal128Value>(static_cast<unsigned __int128>(1) << 127);
  RecordBatch batch =
      Batch({Field("a", scale0), Field("b", scale5)},
            {Column<Decimal128Value>(scale0, {-123, 0, max38, min128}), Column<Decimal128Value>(scale5, {-123, 0, 1, 100000})});
  EXPECT_EQ(Print(batch, OutputFormat::kCsv),
            "a,b\n"
            "-123,-0.00123\n"
            "0,0.00000\n"
            "99999999999999999999999999999999999999,0.00001\n"
            "-170141183460469231731687303715884105728,1.00000\n");
}

TEST(BatchPrinterTest, RendersEveryScalarType) {
  FixedSizeBinaryBuilder uuids(DataType::Uuid());
  ASSERT_TRUE(uuids.Append(std::string_view("\x12\x3e\x45\x67\xe8\x9b\x12\xd3\xa4\x56\x42\x66\x14\x17\x40\x00", 16)).ok());
  FixedSizeBinaryBuilder fixed(DataType::FixedSizeBinary(2).value());
  ASSERT_TRUE(fixed.Append(std::string_view("\x00\xff", 2)).ok());
  BoolBuilder bools;
  ASSERT_TRUE(bools.Append(false).ok());
  NullBuilder nulls;
  ASSERT_TRUE(nulls.AppendNull().ok());
  RecordBatch batch = Batch(
      {Field("u", DataType::Uuid()), Field("f", DataType::FixedSizeBinary(2).value()), Field("b", DataType::Binary()),
       Field("t", DataType::Time64(TimeUnit::kMicro)), Field("tn", DataType::Time64(TimeUnit::kNano)),
       Field("ts", DataType::Timestamp(TimeUnit::kNano)), Field("ok", DataType::Bool()), Field("n", DataType::Null()),
       Field("i8", DataType::Int8()), Field("u64", DataType::UInt64()), Field("f32", DataType::Float32())},
      {uuids.Finish().value(), fixed.Finish().value(), Utf8Column({std::string("\x01\xab", 2)}, DataType::Binary()),
       Column<int64_t>(DataType::Time64(TimeUnit::kMicro), {45'296'000'001}),
       Column<int64_t>(DataType::Time64(TimeUnit::kNano), {86'399'999'999'999}),
       Column<int64_t>(DataType::Timestamp(TimeUnit::kNano), {-1}), bools.Finish().value(), nulls.Finish().value(),
       Column<int8_t>(DataType::Int8(), {-128}), Column<uint64_t>(DataType::UInt64(), {18446744073709551615ull}),
       Column<float>(DataType::Float32(), {0.1f})});
  EXPECT_EQ(Print(batch, OutputFormat::kCsv),
            "u,f,b,t,tn,ts,ok,n,i8,u64,f32\n"
            "123e4567-e89b-12d3-a456-426614174000,00ff,01ab,12:34:56.000001,23:59:59.999999999,"
            "1969-12-31T23:59:59.999999999,false,,-128,18446744073709551615,0.1\n");
  EXPECT_EQ(Print(batch, OutputFormat::kJsonl),
            "{\"u\":\"123e4567-e89b-12d3-a456-426614174000\",\"f\":\"00ff\",\"b\":\"01ab\",\"t\":\"12:34:56.000001\","
            "\"tn\":\"23:59:59.999999999\",\"ts\":\"1969-12-31T23:59:59.999999999\",\"ok\":false,\"n\":null,"
            "\"i8\":-128,\"u64\":18446744073709551615,\"f32\":0.1}\n");
}

TEST(BatchPrinterTest, RendersIntervalsAsPostgresAndDuckDbDo) {
  IntervalBuilder intervals(DataType::Interval());
  for (const MonthDayNano& v : {MonthDayNano{14, 3, 14'706'789'000'000}, MonthDayNano{1, 1, 0}, MonthDayNano{0, 0, 0},
                                MonthDayNano{-12, -1, -1'500'000'000}, MonthDayNano{0, 0, 90'000'000'000'000},
                                MonthDayNano{0, 2, 1}}) {
    ASSERT_TRUE(intervals.Append(v).ok());
  }
  ASSERT_TRUE(intervals.AppendNull().ok());
  RecordBatch batch = Batch({Field("i", DataType::Interval())}, {intervals.Finish().value()});
  EXPECT_EQ(Print(batch, OutputFormat::kCsv),
            "i\n"
            "1 year 2 months 3 days 04:05:06.789\n"
            "1 month 1 day\n"
            "00:00:00\n"
            "-1 year -1 day -00:00:01.5\n"
            "25:00:00\n"
            "2 days 00:00:00.000000001\n"
            "\n");
  EXPECT_EQ(Print(batch.Slice(0, 1), OutputFormat::kJsonl), "{\"i\":\"1 year 2 months 3 days 04:05:06.789\"}\n");
}

TEST(BatchPrinterTest, RendersNestedValuesAsJson) {
  TypePtr list_type = DataType::List(DataType::Int32());
  TypePtr struct_type = DataType::Struct({Field("x", DataType::Float64()), Field("tag", DataType::Utf8())});
  TypePtr string_map = DataType::Map(DataType::Utf8(), DataType::Int32());
  TypePtr int_map = DataType::Map(DataType::Int32(), DataType::Utf8());

  ListBuilder lists(list_type, std::make_unique<Int32Builder>());
  auto* items = lists.value_builder()->As<Int32Builder>();
  ASSERT_TRUE(lists.StartList().ok());
  ASSERT_TRUE(items->Append(1).ok());
  ASSERT_TRUE(items->AppendNull().ok());
  ASSERT_TRUE(lists.StartList().ok());

  auto struct_builder = MakeBuilder(struct_type);
  auto* rows = struct_builder->As<StructBuilder>();
  ASSERT_TRUE(rows->AppendRow().ok());
  ASSERT_TRUE(rows->field_builder(0)->As<Float64Builder>()->Append(INFINITY).ok());
  ASSERT_TRUE(rows->field_builder(1)->As<StringBuilder>()->Append("a\"b").ok());
  ASSERT_TRUE(rows->AppendNull().ok());

  auto string_map_builder = MakeBuilder(string_map);
  auto* sm = string_map_builder->As<MapBuilder>();
  ASSERT_TRUE(sm->StartMap().ok());
  ASSERT_TRUE(sm->key_builder()->As<StringBuilder>()->Append("k1").ok());
  ASSERT_TRUE(sm->item_builder()->As<Int32Builder>()->Append(5).ok());
  ASSERT_TRUE(sm->key_builder()->As<StringBuilder>()->Append("k2").ok());
  ASSERT_TRUE(sm->item_builder()->AppendNull().ok());
  ASSERT_TRUE(sm->StartMap().ok());

  auto int_map_builder = MakeBuilder(int_map);
  auto* im = int_map_builder->As<MapBuilder>();
  ASSERT_TRUE(im->StartMap().ok());
  ASSERT_TRUE(im->key_builder()->As<Int32Builder>()->Append(7).ok());
  ASSERT_TRUE(im->item_builder()->As<StringBuilder>()->Append("seven").ok());
  ASSERT_TRUE(im->AppendNull().ok());

  RecordBatch batch = Batch({Field("l", list_type), Field("s", struct_type), Field("sm", string_map),
                             Field("im", int_map)},
                            {lists.Finish().value(), rows->Finish().value(), sm->Finish().value(),
                             im->Finish().value()});
  EXPECT_EQ(Print(batch, OutputFormat::kJsonl),
            "{\"l\":[1,null],\"s\":{\"x\":\"Infinity\",\"tag\":\"a\\\"b\"},\"sm\":{\"k1\":5,\"k2\":null},"
            "\"im\":[{\"key\":7,\"value\":\"seven\"}]}\n"
            "{\"l\":[],\"s\":null,\"sm\":{},\"im\":null}\n");
  EXPECT_EQ(Print(batch, OutputFormat::kCsv),
            "l,s,sm,im\n"
            "\"[1,null]\",\"{\"\"x\"\":\"\"Infinity\"\",\"\"tag\"\":\"\"a\\\"\"b\"\"}\",\"{\"\"k1\"\":5,\"\"k2\"\":null}\","
            "\"[{\"\"key\"\":7,\"\"value\"\":\"\"seven\"\"}]\"\n"
            "[],,{},\n");
  EXPECT_EQ(Print(batch, OutputFormat::kTable, 12),
            "+----------+--------------+--------------+--------------+\n"
            "| l        | s            | sm           | im           |\n"
            "+----------+--------------+--------------+--------------+\n"
            "| [1,null] | {\"x\":\"Infin… | {\"k1\":5,\"k2… | [{\"key\":7,\"… |\n"
            "| []       | NULL         | {}           | NULL         |\n"
            "+----------+--------------+--------------+--------------+\n"
            "2 rows\n");
}

TEST(BatchPrinterTest, CsvTellsEmptyStringsFromNulls) {
  RecordBatch batch = Batch({Field("s", DataType::Utf8()), Field("t", DataType::Utf8())},
                            {Utf8Column({"", std::nullopt, "x\ry"}), Utf8Column({std::nullopt, "", "plain"})});
  EXPECT_EQ(Print(batch, OutputFormat::kCsv), "s,t\n\"\",\n,\"\"\n\"x\ry\",plain\n");
}

TEST(BatchPrinterTest, PrintsAStreamOfBatches) {
  RecordBatch batch = Mixed().Project(std::vector<int>{0, 1}).value();
  std::vector<RecordBatch> batches = {batch.Slice(0, 1), batch.Slice(1, 2)};
  auto reader = VectorRecordBatchReader::Make(batch.schema_ptr(), batches).value();
  std::ostringstream out;
  PrintOptions options;
  options.format = OutputFormat::kJson;
  ASSERT_TRUE(PrintBatches(*reader, out, options).ok());
  EXPECT_EQ(out.str(), "[\n{\"id\":1,\"name\":\"alice\"},\n{\"id\":2,\"name\":null},\n{\"id\":3,\"name\":\"a,\\\"b\\\"\\n\"}\n]\n");
}

TEST(BatchPrinterTest, TablePrintsLongResultsInGroupsThatOnlyWiden) {
  RecordBatch batch = Mixed().Project(std::vector<int>{0, 1}).value();
  std::ostringstream out;
  PrintOptions options;
  options.table_group_rows = 1;
  BatchPrinter printer(out, batch.schema_ptr(), options);
  ASSERT_TRUE(printer.Write(batch.Slice(0, 1)).ok());
  // A full group is printed before the result ends.
  EXPECT_EQ(out.str(),
            "+----+-------+\n"
            "| id | name  |\n"
            "+----+-------+\n"
            "|  1 | alice |\n");
  ASSERT_TRUE(printer.Write(batch.Slice(1, 2)).ok());
  ASSERT_TRUE(printer.Finish().ok());
  EXPECT_EQ(out.str(),
            "+----+-------+\n"
            "| id | name  |\n"
            "+----+-------+\n"
            "|  1 | alice |\n"
            "|  2 | NULL  |\n"
            "+----+---------+\n"  // the third row widens the name column
            "|  3 | a,\"b\"\\n |\n"
            "+----+---------+\n"
            "3 rows\n");
  // Without groups, one width per column from every row.
  options.table_group_rows = 0;
  auto whole = FormatBatches(batch.schema_ptr(), std::span<const RecordBatch>(&batch, 1), options);
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  EXPECT_EQ(*whole,
            "+----+---------+\n"
            "| id | name    |\n"
            "+----+---------+\n"
            "|  1 | alice   |\n"
            "|  2 | NULL    |\n"
            "|  3 | a,\"b\"\\n |\n"
            "+----+---------+\n"
            "3 rows\n");
}

TEST(BatchPrinterTest, RejectsABatchOfAnotherSchema) {
  std::ostringstream out;
  BatchPrinter printer(out, Mixed().schema_ptr());
  Status status = printer.Write(Mixed().Project(std::vector<int>{1, 0, 2, 3, 4, 5}).value());
  EXPECT_TRUE(status.IsInvalidArgument());
  EXPECT_EQ(status.message(), "batch printer: column 0 ('id') has type string, the schema says int64");
}

TEST(BatchPrinterTest, ReportsAFailedStream) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  BatchPrinter printer(out, Mixed().schema_ptr(), {OutputFormat::kCsv, 40});
  Status status = printer.Write(Mixed());
  EXPECT_TRUE(status.IsIOError());
}

// A stream whose every write fails (a closed pipe, a full disk).
class FailingBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

TEST(BatchPrinterTest, ATableReportsAFailedStreamWhereItPrints) {
  FailingBuffer failing;
  std::ostream out(&failing);
  PrintOptions grouped;
  grouped.table_group_rows = 1;
  BatchPrinter table(out, Mixed().schema_ptr(), grouped);
  Status status = table.Write(Mixed());  // prints its full groups
  EXPECT_TRUE(status.IsIOError()) << status.ToString();
  // Ungrouped, the table prints only at Finish().
  std::ostream out_whole(&failing);
  PrintOptions whole;
  whole.table_group_rows = 0;
  BatchPrinter at_end(out_whole, Mixed().schema_ptr(), whole);
  EXPECT_TRUE(at_end.Write(Mixed()).ok());
  EXPECT_TRUE(at_end.Finish().IsIOError());
}

TEST(OutputFormatTest, ParsesTheFourNames) {
  EXPECT_EQ(ParseOutputFormat("table").value(), OutputFormat::kTable);
  EXPECT_EQ(ParseOutputFormat("csv").value(), OutputFormat::kCsv);
  EXPECT_EQ(ParseOutputFormat("json").value(), OutputFormat::kJson);
  EXPECT_EQ(ParseOutputFormat("jsonl").value(), OutputFormat::kJsonl);
  Result<OutputFormat> bad = ParseOutputFormat("JSON");
  EXPECT_TRUE(bad.status().IsInvalidArgument());
  EXPECT_EQ(bad.status().message(), "output format 'JSON' is not one of table, csv, json, jsonl");
  for (OutputFormat f : {OutputFormat::kTable, OutputFormat::kCsv, OutputFormat::kJson, OutputFormat::kJsonl}) {
    EXPECT_EQ(ParseOutputFormat(OutputFormatName(f)).value(), f);
  }
}

}  // namespace
}  // namespace floe
