#include "floe/base/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

namespace floe {
namespace {

TEST(JsonWriterTest, WritesCompactNestedDocument) {
  JsonWriter w;
  w.BeginObject();
  w.Member("a", int64_t{1});
  w.Key("b");
  w.BeginArray();
  w.Bool(true);
  w.Null();
  w.String("x");
  w.BeginObject();
  w.EndObject();
  w.BeginArray();
  w.EndArray();
  w.EndArray();
  w.Member("c", "d");
  w.EndObject();
  EXPECT_EQ(w.Take(), R"({"a":1,"b":[true,null,"x",{},[]],"c":"d"})");
}

TEST(JsonWriterTest, PrettyPrintsWithIndent) {
  JsonWriter w(/*pretty=*/true);
  w.BeginObject();
  w.Member("a", int32_t{1});
  w.Key("b");
  w.BeginArray();
  w.Int(2);
  w.Int(3);
  w.EndArray();
  w.Key("e");
  w.BeginObject();
  w.EndObject();
  w.EndObject();
  EXPECT_EQ(w.Take(), "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    3\n  ],\n  \"e\": {}\n}\n");
}

TEST(JsonWriterTest, EscapesPerRfc8259) {
  EXPECT_EQ(JsonQuote("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(JsonQuote("\n\r\t\b\f"), R"("\n\r\t\b\f")");
  EXPECT_EQ(JsonQuote(std::string_view("\x00\x01\x1f", 3)), R"("\u0000\u0001\u001f")");
  // '/' and DEL need no escape; UTF-8 passes through unchanged.
  EXPECT_EQ(JsonQuote("/\x7f\xc3\xa9"), "\"/\x7f\xc3\xa9\"");
}

TEST(JsonWriterTest, Int64ExtremesAreExact) {
  JsonWriter w;
  w.BeginArray();
  w.Int(std::numeric_limits<int64_t>::min());
  w.Int(std::numeric_limits<int64_t>::max());
  w.Int(0);
  w.EndArray();
  EXPECT_EQ(w.Take(), "[-9223372036854775808,9223372036854775807,0]");
}

TEST(JsonWriterTest, DoublesReadBackExactly) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) {
    uint64_t bits = rng();
    double d;
    static_assert(sizeof d == sizeof bits);
    std::memcpy(&d, &bits, sizeof d);
    if (!std::isfinite(d)) continue;
    JsonWriter w;
    w.Double(d);
    const std::string text = w.Take();
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), d) << text;
  }
}

TEST(JsonWriterTest, DoublesStayRecognisableAsDoubles) {
  auto one = [](double d) {
    JsonWriter w;
    w.Double(d);
    return w.Take();
  };
  EXPECT_EQ(one(1.0), "1.0");
  EXPECT_EQ(one(0.1), "0.1");
  EXPECT_EQ(one(-0.0), "-0.0");
  EXPECT_EQ(one(1e300), "1e+300");
  EXPECT_EQ(one(0.342343242342342), "0.342343242342342");
}

TEST(JsonWriterTest, RawValueIsInsertedVerbatim) {
  JsonWriter w;
  w.BeginObject();
  w.Key("v");
  w.RawValue(R"({"1":[1,2]})");
  w.Member("w", false);
  w.EndObject();
  EXPECT_EQ(w.Take(), R"({"v":{"1":[1,2]},"w":false})");
}

TEST(JsonWriterDeathTest, MisuseAborts) {
  EXPECT_DEATH(
      {
        JsonWriter w;
        w.BeginObject();
        w.Int(1);
      },
      "needs a Key");
  EXPECT_DEATH(
      {
        JsonWriter w;
        w.BeginArray();
        (void)w.Take();
      },
      "before the document is complete");
  EXPECT_DEATH(
      {
        JsonWriter w;
        w.Double(std::nan(""));
      },
      "cannot represent");
}

}  // namespace
}  // namespace floe
