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

// The `var` column of a shredded_variant/ case, read whole; nullopt (and a
// test failure) when it cannot be read.
std::optional<Array> VariantColumnOf(const std::string& case_file) {
  const std::string file = ParquetTestingDir() + "/shredded_variant/" + case_file;
  auto reader = ParquetFileReader::Open(NewLocalFileIO(), file);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return std::nullopt;
  auto batches = ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(*reader)));
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  if (!batches.ok() || batches->size() != 1) return std::nullopt;
  auto column = batches->front().column_by_name("var");
  EXPECT_TRUE(column.ok());
  if (!column.ok()) return std::nullopt;
  return *column;
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

}  // namespace variant_json_test
}  // namespace floe::parquet
