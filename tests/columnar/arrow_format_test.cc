#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/columnar/arrow_c_data.h"

namespace floe {
namespace {

std::string Parsed(std::string_view format) {
  Result<TypePtr> type = ParseArrowFormat(format);
  return type.ok() ? (*type)->ToString() : type.status().ToString();
}

TEST(ArrowFormatTest, ParsesEveryLeafFormatFloeModels) {
  EXPECT_EQ(Parsed("n"), "null");
  EXPECT_EQ(Parsed("b"), "bool");
  EXPECT_EQ(Parsed("c"), "int8");
  EXPECT_EQ(Parsed("C"), "uint8");
  EXPECT_EQ(Parsed("s"), "int16");
  EXPECT_EQ(Parsed("S"), "uint16");
  EXPECT_EQ(Parsed("i"), "int32");
  EXPECT_EQ(Parsed("I"), "uint32");
  EXPECT_EQ(Parsed("l"), "int64");
  EXPECT_EQ(Parsed("L"), "uint64");
  EXPECT_EQ(Parsed("f"), "float32");
  EXPECT_EQ(Parsed("g"), "float64");
  EXPECT_EQ(Parsed("u"), "string");
  EXPECT_EQ(Parsed("z"), "binary");
  EXPECT_EQ(Parsed("d:18,2"), "decimal(18,2)");
  EXPECT_EQ(Parsed("d:38,0,128"), "decimal(38,0)");
  EXPECT_EQ(Parsed("d:1,1"), "decimal(1,1)");
  EXPECT_EQ(Parsed("w:16"), "fixed_size_binary[16]");
  EXPECT_EQ(Parsed("w:0"), "fixed_size_binary[0]");
  EXPECT_EQ(Parsed("tdD"), "date32");
  EXPECT_EQ(Parsed("ttu"), "time64[us]");
  EXPECT_EQ(Parsed("ttn"), "time64[ns]");
  EXPECT_EQ(Parsed("tsu:"), "timestamp[us]");
  EXPECT_EQ(Parsed("tsn:"), "timestamp[ns]");
  EXPECT_EQ(Parsed("tsu:UTC"), "timestamp[us, tz=UTC]");
  EXPECT_EQ(Parsed("tsn:Europe/Paris"), "timestamp[ns, tz=Europe/Paris]");
  EXPECT_EQ(Parsed("+s"), "struct<>");
}

TEST(ArrowFormatTest, ParsesNestedFormatsFromTheirChildren) {
  EXPECT_EQ(ParseArrowFormat("+l", {Field("item", DataType::Int64())}).value()->ToString(), "list<item: int64>");
  EXPECT_EQ(ParseArrowFormat("+s", {Field("a", DataType::Int32()), Field("b", DataType::Utf8(), false)})
                .value()
                ->ToString(),
            "struct<a: int32, b: string not null>");
  Field entries("entries",
                DataType::Struct({Field("key", DataType::Utf8(), false), Field("value", DataType::Float64())}), false);
  TypePtr map = ParseArrowFormat("+m", {entries}, /*map_keys_sorted=*/true).value();
  EXPECT_EQ(map->ToString(), "map<string, float64, keys_sorted>");
  EXPECT_EQ(*map, *DataType::Map(DataType::Utf8(), DataType::Float64(), true));
}

TEST(ArrowFormatTest, RejectsNestedFormatsWithTheWrongChildren) {
  EXPECT_EQ(Parsed("+l"), "InvalidArgument: Arrow format '+l': a list has 1 child, got 0");
  EXPECT_EQ(Parsed("+m"), "InvalidArgument: Arrow format '+m': a map has 1 child, got 0");
  EXPECT_EQ(ParseArrowFormat("+m", {Field("entries", DataType::Int32())}).status().ToString(),
            "InvalidArgument: Arrow format '+m': a map's child must be a struct of key and value");
  Field nullable_key("entries", DataType::Struct({Field("key", DataType::Utf8()), Field("value", DataType::Utf8())}));
  EXPECT_EQ(ParseArrowFormat("+m", {nullable_key}).status().ToString(),
            "InvalidArgument: map key field 'key' must not be nullable");
  EXPECT_EQ(ParseArrowFormat("i", {Field("x", DataType::Int32())}).status().ToString(),
            "InvalidArgument: Arrow format 'i': a non-nested type has no children, got 1");
}

TEST(ArrowFormatTest, RejectsMalformedFormats) {
  for (const char* format : {"", "x", "ii", "i ", "d", "d:", "d:18", "d:18,", "d:,2", "d:a,2", "d:18,2,", "d:18,2,7",
                             "d:0,0", "d:39,2", "d:-1,0", "d:18,2,128,1", "w", "w:", "w:-1", "w:abc", "w:16x",
                             "w:99999999999", "t", "ts", "tsu", "tsx:", "tdX", "ttx", "+", "+x", "+ll", "lu"}) {
    Result<TypePtr> type = ParseArrowFormat(format);
    EXPECT_TRUE(type.status().IsInvalidArgument()) << "'" << format << "': " << type.status().ToString();
  }
  EXPECT_EQ(Parsed("w:-1"), "InvalidArgument: Arrow format 'w:-1': fixed-size binary width is not a number");
  EXPECT_EQ(Parsed("d:39,2"), "InvalidArgument: Arrow format 'd:39,2': decimal128 precision must be 1..38");
  EXPECT_EQ(Parsed("tsu"), "InvalidArgument: Arrow format 'tsu': unknown temporal type");
  EXPECT_EQ(Parsed(std::string_view("i\0", 2)), "InvalidArgument: Arrow format 'i\\x00': unknown type");
}

TEST(ArrowFormatTest, ValidArrowTypesFloeDoesNotModelAreUnsupported) {
  for (const char* format : {"e", "U", "Z", "vu", "vz", "d:10,2,256", "d:5,2,32", "d:10,2,64", "d:5,-2", "d:5,6",
                             "tdm", "tts", "ttm", "tss:", "tsm:UTC", "tDs", "tDn", "tiM", "tiD", "+L", "+w:4",
                             "+ud:0,1", "+us:0", "+r", "+vl", "+vL"}) {
    Result<TypePtr> type = ParseArrowFormat(format);
    EXPECT_TRUE(type.status().IsUnsupported()) << "'" << format << "': " << type.status().ToString();
  }
  EXPECT_EQ(Parsed("U"), "Unsupported: Arrow format 'U' (large string) has no floe type");
}

TEST(ArrowFormatTest, FormatOfEveryTypeParsesBack) {
  for (const TypePtr& type :
       {DataType::Null(), DataType::Bool(), DataType::Int8(), DataType::Int16(), DataType::Int32(), DataType::Int64(),
        DataType::UInt8(), DataType::UInt16(), DataType::UInt32(), DataType::UInt64(), DataType::Float32(),
        DataType::Float64(), DataType::Decimal128(38, 10).value(), DataType::Date32(), DataType::Time64(TimeUnit::kMicro),
        DataType::Time64(TimeUnit::kNano), DataType::Timestamp(TimeUnit::kMicro),
        DataType::Timestamp(TimeUnit::kNano, "UTC"), DataType::Interval(), DataType::Utf8(), DataType::Binary(),
        DataType::FixedSizeBinary(3).value()}) {
    EXPECT_EQ(*ParseArrowFormat(ArrowFormat(*type)).value(), *type) << ArrowFormat(*type);
  }
  EXPECT_EQ(ArrowFormat(*DataType::Uuid()), "w:16");
  EXPECT_EQ(ArrowFormat(*DataType::Interval()), "tin");
  EXPECT_EQ(ArrowFormat(*DataType::Timestamp(TimeUnit::kMicro, "UTC")), "tsu:UTC");
  EXPECT_EQ(ArrowFormat(*DataType::Decimal128(18, 2).value()), "d:18,2");
  EXPECT_EQ(ArrowFormat(*DataType::List(DataType::Int8())), "+l");
  EXPECT_EQ(ArrowFormat(*DataType::Map(DataType::Int8(), DataType::Int8())), "+m");
  EXPECT_EQ(ArrowFormat(*DataType::Struct({})), "+s");
}

// Every string of up to three characters over the alphabet of format strings
// either parses or is rejected with InvalidArgument / Unsupported.
TEST(ArrowFormatTest, NeverFailsOtherwiseOnShortStrings) {
  const std::string alphabet = "+-:,0129bcdefgilmnpstuvwzCDILMSUZ\xff";
  std::vector<std::string> inputs = {""};
  for (int length = 1; length <= 3; ++length) {
    std::vector<std::string> longer;
    for (const std::string& prefix : inputs) {
      if (static_cast<int>(prefix.size()) != length - 1) continue;
      for (char c : alphabet) longer.push_back(prefix + c);
    }
    inputs.insert(inputs.end(), longer.begin(), longer.end());
  }
  int parsed = 0;
  for (const std::string& input : inputs) {
    Result<TypePtr> type = ParseArrowFormat(input);
    if (type.ok()) {
      ++parsed;
      EXPECT_NE(*type, nullptr);
    } else {
      EXPECT_TRUE(type.status().IsInvalidArgument() || type.status().IsUnsupported()) << type.status().ToString();
    }
  }
  EXPECT_GT(parsed, 20);
}

}  // namespace
}  // namespace floe
