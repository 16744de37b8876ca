#include "floe/iceberg/type.h"

#include <gtest/gtest.h>

#include "floe/iceberg/schema.h"

namespace floe::iceberg {
namespace {

std::string RoundTrip(std::string_view text) {
  auto type = ParsePrimitiveType(text);
  EXPECT_TRUE(type.ok()) << text << ": " << type.status().ToString();
  return type.ok() ? (*type)->ToString() : "";
}

TEST(TypeTest, ParsesAndFormatsEveryPrimitive) {
  for (std::string_view name :
       {"boolean", "int", "long", "float", "double", "date", "time", "timestamp", "timestamptz", "timestamp_ns",
        "timestamptz_ns", "string", "uuid", "binary", "unknown", "variant", "geometry", "geography"}) {
    EXPECT_EQ(RoundTrip(name), name);
  }
}

TEST(TypeTest, ParsesParameterizedTypes) {
  auto decimal = ParsePrimitiveType("decimal(9,2)");
  ASSERT_TRUE(decimal.ok());
  EXPECT_EQ((*decimal)->id(), TypeId::kDecimal);
  EXPECT_EQ((*decimal)->precision(), 9);
  EXPECT_EQ((*decimal)->scale(), 2);
  // Java writes "decimal(16, 2)"; the spec writes "decimal(16,2)".
  EXPECT_EQ(RoundTrip("decimal(16, 2)"), "decimal(16,2)");
  EXPECT_EQ(RoundTrip(" decimal( 38 , 0 ) "), "decimal(38,0)");
  auto fixed = ParsePrimitiveType("fixed[16]");
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ((*fixed)->id(), TypeId::kFixed);
  EXPECT_EQ((*fixed)->length(), 16);
  EXPECT_EQ(RoundTrip("fixed[ 5 ]"), "fixed[5]");
  auto geo = ParsePrimitiveType("geography(srid:4326, vincenty)");
  ASSERT_TRUE(geo.ok());
  EXPECT_EQ((*geo)->crs(), "srid:4326");
  EXPECT_EQ((*geo)->algorithm(), "vincenty");
  EXPECT_EQ((*geo)->ToString(), "geography(srid:4326, vincenty)");
  EXPECT_EQ(RoundTrip("geometry(srid:3857)"), "geometry(srid:3857)");
  EXPECT_EQ(RoundTrip("geography(projjson:x)"), "geography(projjson:x)");
  // Names match case-insensitively (Java lowercases them); a CRS keeps its case.
  EXPECT_EQ(RoundTrip("LONG"), "long");
  EXPECT_EQ(RoundTrip("Decimal(9, 2)"), "decimal(9,2)");
  EXPECT_EQ(RoundTrip("GEOMETRY(EPSG:4326)"), "geometry(EPSG:4326)");
  EXPECT_EQ(Type::Geography("", "karney")->ToString(), "geography(OGC:CRS84, karney)");
}

TEST(TypeTest, RejectsMalformedTypeStrings) {
  for (std::string_view bad : {"", "integer", "decimal(0,0)", "decimal(39,2)", "decimal(5,6)", "decimal(5)",
                               "decimal(a,b)", "fixed[0]", "fixed[]", "fixed[-1]", "fixed(3)", "struct",
                               "geography(a, b, c)", "geography(x, flat)", "geometry()", "timestamp-ns"}) {
    auto type = ParsePrimitiveType(bad);
    ASSERT_FALSE(type.ok()) << bad;
    EXPECT_TRUE(type.status().IsInvalidArgument()) << bad;
    EXPECT_NE(type.status().message().find("type '"), std::string::npos) << type.status().message();
  }
}

TEST(TypeTest, NestedTypesCompareStructurally) {
  auto a = Type::Map(1, Type::String(), 2, Type::List(3, Type::Long(), true), false);
  auto b = Type::Map(1, Type::String(), 2, Type::List(3, Type::Long(), true), false);
  auto c = Type::Map(1, Type::String(), 2, Type::List(3, Type::Long(), false), false);
  EXPECT_TRUE(TypeEquals(a, b));
  EXPECT_FALSE(TypeEquals(a, c));
  EXPECT_EQ(a->key_field().name, "key");
  EXPECT_TRUE(a->key_field().required);
  EXPECT_EQ(a->value_field().field_id, 2);
  EXPECT_EQ(a->value_field().type->element_field().name, "element");
  EXPECT_EQ(a->ToString(), "map<1: key: required string, 2: value: optional list<3: element: required long>>");
}

TEST(TypeTest, V3TypesNeedFormatVersion3) {
  EXPECT_EQ(MinFormatVersion(*Type::Long()), 1);
  EXPECT_EQ(MinFormatVersion(*Type::TimestampNs()), 3);
  EXPECT_EQ(MinFormatVersion(*Type::List(1, Type::Variant(), false)), 3);
  EXPECT_EQ(MinFormatVersion(*Type::Struct({{1, "g", Type::Geometry(), false, {}, {}, {}}})), 3);
}

TEST(TypeTest, MapsToColumnarTypes) {
  auto columnar = [](const TypePtr& t) { return ToColumnarType(*t).value()->ToString(); };
  EXPECT_EQ(columnar(Type::TimestampTz()), DataType::Timestamp(TimeUnit::kMicro, "UTC")->ToString());
  EXPECT_EQ(columnar(Type::TimestampNs()), DataType::Timestamp(TimeUnit::kNano)->ToString());
  EXPECT_EQ(columnar(Type::TimestampTzNs()), DataType::Timestamp(TimeUnit::kNano, "UTC")->ToString());
  EXPECT_EQ(columnar(Type::Time()), DataType::Time64(TimeUnit::kMicro)->ToString());
  EXPECT_EQ(columnar(Type::Uuid()), DataType::Uuid()->ToString());
  EXPECT_EQ(columnar(Type::Fixed(16).value()), DataType::FixedSizeBinary(16).value()->ToString());
  EXPECT_EQ(columnar(Type::Decimal(18, 2).value()), DataType::Decimal128(18, 2).value()->ToString());
  EXPECT_EQ(columnar(Type::Variant()), DataType::Binary()->ToString());
  EXPECT_EQ(columnar(Type::Geography()), DataType::Binary()->ToString());
  EXPECT_EQ(columnar(Type::Unknown()), DataType::Null()->ToString());
  EXPECT_EQ(columnar(Type::Date()), DataType::Date32()->ToString());
}

}  // namespace
}  // namespace floe::iceberg
