// A variant's JSON text (variant_json.h): each of parquet-testing's variant/
// pairs prints as the JSON below, which agrees with the values of
// data_dictionary.json (binary as Base64, decimals with their digits, the
// timestamp with its -04:00 offset as the UTC instant); what JSON cannot hold
// (NaN, invalid UTF-8) still prints as valid JSON; and a shredded column
// turns into a string column of JSON text, nulls kept.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "floe/columnar/builder.h"
#include "floe/columnar/value_format.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/parquet/variant/variant_decoder.h"
#include "floe/formats/parquet/variant/variant_json.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"

namespace floe::parquet {
namespace variant_json_test {

using testing::ParquetTestingDir;
using testing::ReadFileBytes;

bool IsValidJson(const std::string& text) {
  simdjson::dom::parser parser;
  simdjson::dom::element ignored;
  return parser.parse(text).get(ignored) == simdjson::SUCCESS;
}

TEST(VariantJsonTest, EveryFixturePairPrintsItsJson) {
  const std::map<std::string, std::string> expected = {
      {"array_empty", R"json([])json"},
      {"array_nested",
       R"json([{"id":1,"thing":{"names":["Contrarian","Spider"]}},null,{"id":2,"names":["Apple","Ray",null],"type":"if"}])json"},
      {"array_primitive", R"json([2,1,5,9])json"},
      {"long_string",
       R"json("This string is for sure and certainly longer than 64 bytes and it also includes several non ascii characters such as 🐢, 💖, ♥️, 🎣 and 🤦!!")json"},
      {"object_empty", R"json({})json"},
      {"object_nested",
       R"json({"id":1,"observation":{"location":"In the Volcano","time":"12:34:56","value":{"humidity":456,"temperature":123}},"species":{"name":"lava monster","population":6789}})json"},
      {"object_primitive",
       R"json({"boolean_false_field":false,"boolean_true_field":true,"double_field":1.23456789,"int_field":1,"null_field":null,"string_field":"Apache Parquet","timestamp_field":"2025-04-16T12:34:56.78"})json"},
      {"primitive_binary", R"json("AxM33q2+78r+")json"},
      {"primitive_boolean_false", R"json(false)json"},
      {"primitive_boolean_true", R"json(true)json"},
      {"primitive_date", R"json("2025-04-16")json"},
      {"primitive_decimal16", R"json(12345678912345678.90)json"},
      {"primitive_decimal4", R"json(12.34)json"},
      {"primitive_decimal8", R"json(12345678.90)json"},
      {"primitive_double", R"json(1234567890.1234)json"},
      {"primitive_float", R"json(1234567936)json"},
      {"primitive_int16", R"json(1234)json"},
      {"primitive_int32", R"json(123456)json"},
      {"primitive_int64", R"json(1234567890123456789)json"},
      {"primitive_int8", R"json(42)json"},
      {"primitive_null", R"json(null)json"},
      {"primitive_string",
       R"json("This string is longer than 64 bytes and therefore does not fit in a short_string and it also includes several non ascii characters such as 🐢, 💖, ♥️, 🎣 and 🤦!!")json"},
      {"primitive_time", R"json("12:33:54.123456")json"},
      {"primitive_timestamp", R"json("2025-04-16T16:34:56.780000+00:00")json"},
      {"primitive_timestamp_nanos", R"json("2024-11-07T12:33:54.123456789+00:00")json"},
      {"primitive_timestampntz", R"json("2025-04-16T12:34:56.780000")json"},
      {"primitive_timestampntz_nanos", R"json("2024-11-07T12:33:54.123456789")json"},
      {"primitive_uuid", R"json("f24f9b64-81fa-49d1-b74e-8c09a6e31c56")json"},
      {"short_string", R"json("Less than 64 bytes (❤️ with utf8)")json"},
  };
  const std::string dir = ParquetTestingDir() + "/variant";
  int pairs = 0;
  for (const auto& path : testing::FilesEndingWith(dir, ".metadata")) {
    const std::string name = std::filesystem::path(path).stem().string();
    SCOPED_TRACE(name);
    const std::string metadata_bytes = ReadFileBytes(path);
    const std::string value_bytes = ReadFileBytes(dir + "/" + name + ".value");
    auto metadata = VariantMetadata::Parse(metadata_bytes);
    ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
    auto value = DecodeVariant(*metadata, value_bytes);
    ASSERT_TRUE(value.ok()) << value.status().ToString();
    const std::string json = VariantToJson(*value);
    EXPECT_TRUE(IsValidJson(json)) << json;
    ASSERT_TRUE(expected.contains(name));
    EXPECT_EQ(json, expected.at(name));
    ++pairs;
  }
  EXPECT_EQ(pairs, static_cast<int>(expected.size()));
}

TEST(VariantJsonTest, WhatJsonCannotHoldStillPrintsValidJson) {
  VariantValue array;
  array.kind = VariantKind::kArray;
  for (const double v : {std::nan(""), HUGE_VAL, -HUGE_VAL, -0.0}) {
    VariantValue number;
    number.kind = VariantKind::kDouble;
    number.number = v;
    array.elements.push_back(number);
  }
  // A float prints in its own shortest form, not as its widened double.
  VariantValue tenth;
  tenth.kind = VariantKind::kFloat;
  tenth.number = static_cast<double>(0.1f);
  array.elements.push_back(tenth);
  VariantValue text;
  text.kind = VariantKind::kString;
  text.bytes = "a\"b\\\n\x01\xff";  // a quote, a backslash, controls, an invalid byte
  array.elements.push_back(text);
  VariantValue negative_decimal;
  negative_decimal.kind = VariantKind::kDecimal4;
  negative_decimal.integer = -5;
  negative_decimal.scale = 2;
  array.elements.push_back(negative_decimal);
  VariantValue old_date;
  old_date.kind = VariantKind::kDate;
  old_date.integer = -738000;  // 52 BC, astronomical year -51: a sign and four digits
  array.elements.push_back(old_date);
  const std::string json = VariantToJson(array);
  EXPECT_EQ(json,
            "[\"NaN\",\"Infinity\",\"-Infinity\",-0,0.1,\"a\\\"b\\\\\\n\\u0001\xEF\xBF\xBD\",-0.05,\"-0051-06-05\"]");
  EXPECT_TRUE(IsValidJson(json)) << json;
}

// The `var` field and column of a shredded_variant/ case, read whole;
// nullopt (and a test failure) when it cannot be read.
std::optional<std::pair<Field, Array>> VariantFieldOf(const std::string& case_file) {
  const std::string file = ParquetTestingDir() + "/shredded_variant/" + case_file;
  auto reader = ParquetFileReader::Open(NewLocalFileIO(), file);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return std::nullopt;
  auto batches = ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(*reader)));
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  if (!batches.ok() || batches->size() != 1) return std::nullopt;
  const RecordBatch& batch = batches->front();
  const int index = batch.schema().FieldIndex("var");
  EXPECT_GE(index, 0);
  if (index < 0) return std::nullopt;
  return std::make_pair(batch.schema().field(index), batch.column(index));
}

std::optional<Array> VariantColumnOf(const std::string& case_file) {
  auto var = VariantFieldOf(case_file);
  if (!var) return std::nullopt;
  return var->second;
}

TEST(VariantJsonTest, AShreddedColumnBecomesJsonTextWithItsNulls) {
  // case-083: a null variant, then objects shredded into nested fields.
  const std::optional<Array> column = VariantColumnOf("case-083.parquet");
  ASSERT_TRUE(column.has_value());
  ASSERT_EQ(column->length(), 4);
  auto json = VariantColumnToJson(*column, 10);
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  ASSERT_EQ(json->length(), 4);
  EXPECT_EQ(json->type()->id(), TypeId::kString);
  EXPECT_TRUE(json->IsNull(0));
  EXPECT_EQ(json->GetString(1), R"json({"c":{"b":"iceberg"}})json");
  EXPECT_EQ(json->GetString(2), R"json({"c":8,"d":-0})json");
  EXPECT_EQ(json->GetString(3), R"json({"c":{"a":34,"b":""},"d":0})json");
}

TEST(VariantJsonTest, AnInvalidShreddingNamesItsRowInTheFile) {
  const std::optional<Array> column = VariantColumnOf("case-040.parquet");
  ASSERT_TRUE(column.has_value());
  auto json = VariantColumnToJson(*column, 1000);
  ASSERT_FALSE(json.ok());
  EXPECT_TRUE(json.status().IsCorrupt()) << json.status().ToString();
  EXPECT_NE(json.status().message().find("variant at row 1000"), std::string::npos) << json.status().ToString();
  EXPECT_NE(json.status().message().find("conflicting value and typed_value"), std::string::npos);
}

Buffer Bits(std::initializer_list<bool> bits) {
  std::string bytes((bits.size() + 7) / 8, '\0');
  int64_t i = 0;
  for (const bool b : bits) bit_util::SetBitTo(reinterpret_cast<uint8_t*>(bytes.data()), i++, b);
  return Buffer::FromString(std::move(bytes));
}

Buffer Offsets(std::initializer_list<int32_t> offsets) {
  return Buffer::CopyOf(std::string_view(reinterpret_cast<const char*>(std::data(offsets)), offsets.size() * 4));
}

// Each row of `column` (of `field`) as the batch printer's JSON, with the
// variants in it as JSON text.
std::vector<std::string> PrintedRows(const Field& field, const Array& column) {
  auto json = VariantsAsJson(field, column);
  EXPECT_TRUE(json.ok()) << json.status().ToString();
  if (!json.ok()) return {};
  const Field printed = VariantsAsJsonField(field);
  EXPECT_TRUE(TypeEquals(json->type(), printed.type)) << json->type()->ToString();
  const Status valid = json->Validate();
  EXPECT_TRUE(valid.ok()) << valid.ToString();
  std::vector<std::string> rows;
  for (int64_t i = 0; i < json->length(); ++i) {
    std::string text;
    if (json->IsNull(i)) {
      text = "null";
    } else {
      value_format::AppendJson(*json->data(), i, &text);
    }
    rows.push_back(text);
  }
  return rows;
}

TEST(VariantJsonTest, VariantsNestedInStructsListsAndMapsBecomeJsonText) {
  // case-083's rows: null, {"c":{"b":"iceberg"}}, {"c":8,"d":-0}, {"c":{"a":34,"b":""},"d":0}
  const auto var = VariantFieldOf("case-083.parquet");
  ASSERT_TRUE(var.has_value());
  const auto& [variant, values] = *var;
  ASSERT_TRUE(IsVariantField(variant));
  ASSERT_EQ(values.length(), 4);
  const Field id("id", DataType::Int64());
  Int64Builder id_builder;
  for (const int64_t i : {0, 1, 2, 3}) ASSERT_TRUE(id_builder.Append(i).ok());
  const Array ids = *id_builder.Finish();

  // struct<id, v>, its row 2 null.
  const Field row("s", DataType::Struct({id, Field("v", variant.type, true, variant.metadata)}));
  EXPECT_TRUE(HoldsVariant(row));
  EXPECT_FALSE(IsVariantField(row));
  const Array rows(
      std::make_shared<ArrayData>(row.type, 4, std::vector<Buffer>{Bits({1, 1, 0, 1})},
                                  std::vector<std::shared_ptr<const ArrayData>>{ids.data(), values.data()}));
  EXPECT_EQ(PrintedRows(row, rows),
            (std::vector<std::string>{R"({"id":0,"v":null})", R"({"id":1,"v":{"c":{"b":"iceberg"}}})", "null",
                                      R"({"id":3,"v":{"c":{"a":34,"b":""},"d":0}})"}));
  // A window of it: the struct's offset reaches its fields.
  EXPECT_EQ(PrintedRows(row, rows.Slice(1, 2)),
            (std::vector<std::string>{R"({"id":1,"v":{"c":{"b":"iceberg"}}})", "null"}));

  // list<variant>: [v0, v1], null, [v2, v3]; then only its last row.
  const Field list("l", DataType::List(Field("element", variant.type, true, variant.metadata)));
  const Array lists(std::make_shared<ArrayData>(list.type, 3,
                                                std::vector<Buffer>{Bits({1, 0, 1}), Offsets({0, 2, 2, 4})},
                                                std::vector<std::shared_ptr<const ArrayData>>{values.data()}));
  EXPECT_EQ(PrintedRows(list, lists), (std::vector<std::string>{R"([null,{"c":{"b":"iceberg"}}])", "null",
                                                                R"([{"c":8,"d":-0},{"c":{"a":34,"b":""},"d":0}])"}));
  EXPECT_EQ(PrintedRows(list, lists.Slice(2, 1)),
            (std::vector<std::string>{R"([{"c":8,"d":-0},{"c":{"a":34,"b":""},"d":0}])"}));

  // map<string, variant>: {"a": v1, "b": v2}, {"c": v3}.
  const TypePtr map_type =
      DataType::Map(Field("key", DataType::Utf8(), false), Field("value", variant.type, true, variant.metadata))
          .value();
  const Field map("m", map_type);
  StringBuilder keys;
  for (const char* k : {"a", "b", "c"}) ASSERT_TRUE(keys.Append(k).ok());
  const Array key_array = *keys.Finish();
  const Array entries(std::make_shared<ArrayData>(
      map_type->fields()[0].type, 3, std::vector<Buffer>{Buffer()},
      std::vector<std::shared_ptr<const ArrayData>>{key_array.data(), values.Slice(1, 3).data()}));
  const Array maps(std::make_shared<ArrayData>(map_type, 2, std::vector<Buffer>{Buffer(), Offsets({0, 2, 3})},
                                               std::vector<std::shared_ptr<const ArrayData>>{entries.data()}));
  EXPECT_EQ(PrintedRows(map, maps), (std::vector<std::string>{R"({"a":{"c":{"b":"iceberg"}},"b":{"c":8,"d":-0}})",
                                                              R"({"c":{"c":{"a":34,"b":""},"d":0}})"}));

  // Fields without variants are shared, not copied.
  auto same = VariantsAsJson(id, ids);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->data(), ids.data());
}

TEST(VariantJsonTest, AnInvalidNestedVariantNamesItsPathAndRow) {
  const auto var = VariantFieldOf("case-040.parquet");
  ASSERT_TRUE(var.has_value());
  const auto& [variant, values] = *var;
  ASSERT_GE(values.length(), 1);
  // One list row holding every value of the case, counted from row 500.
  const Field list("l", DataType::List(Field("element", variant.type, true, variant.metadata)));
  const Array lists(std::make_shared<ArrayData>(
      list.type, 1, std::vector<Buffer>{Buffer(), Offsets({0, static_cast<int32_t>(values.length())})},
      std::vector<std::shared_ptr<const ArrayData>>{values.data()}));
  auto json = VariantsAsJson(list, lists, 500);
  ASSERT_FALSE(json.ok());
  EXPECT_TRUE(json.status().IsCorrupt()) << json.status().ToString();
  EXPECT_NE(json.status().message().find("variant l.element at row 500"), std::string::npos)
      << json.status().ToString();
}

}  // namespace variant_json_test
}  // namespace floe::parquet
