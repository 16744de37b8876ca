#include "floe/columnar/data_type.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TypePtr Decimal(int32_t precision, int32_t scale) { return DataType::Decimal128(precision, scale).value(); }

TEST(DataTypeTest, ToStringNamesEveryType) {
  EXPECT_EQ(DataType::Null()->ToString(), "null");
  EXPECT_EQ(DataType::Bool()->ToString(), "bool");
  EXPECT_EQ(DataType::Int8()->ToString(), "int8");
  EXPECT_EQ(DataType::Int16()->ToString(), "int16");
  EXPECT_EQ(DataType::Int32()->ToString(), "int32");
  EXPECT_EQ(DataType::Int64()->ToString(), "int64");
  EXPECT_EQ(DataType::UInt8()->ToString(), "uint8");
  EXPECT_EQ(DataType::UInt16()->ToString(), "uint16");
  EXPECT_EQ(DataType::UInt32()->ToString(), "uint32");
  EXPECT_EQ(DataType::UInt64()->ToString(), "uint64");
  EXPECT_EQ(DataType::Float32()->ToString(), "float32");
  EXPECT_EQ(DataType::Float64()->ToString(), "float64");
  EXPECT_EQ(Decimal(18, 2)->ToString(), "decimal(18,2)");
  EXPECT_EQ(DataType::Date32()->ToString(), "date32");
  EXPECT_EQ(DataType::Time64(TimeUnit::kMicro)->ToString(), "time64[us]");
  EXPECT_EQ(DataType::Time64(TimeUnit::kNano)->ToString(), "time64[ns]");
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kMicro)->ToString(), "timestamp[us]");
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kMicro, "UTC")->ToString(), "timestamp[us, tz=UTC]");
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kNano, "UTC")->ToString(), "timestamp[ns, tz=UTC]");
  EXPECT_EQ(DataType::Utf8()->ToString(), "string");
  EXPECT_EQ(DataType::Binary()->ToString(), "binary");
  EXPECT_EQ(DataType::FixedSizeBinary(4).value()->ToString(), "fixed_size_binary[4]");
  EXPECT_EQ(DataType::Uuid()->ToString(), "uuid");
  EXPECT_EQ(DataType::Interval()->ToString(), "interval");
  EXPECT_EQ(DataType::Interval()->byte_width(), 16);
  EXPECT_EQ(DataType::List(DataType::Int64())->ToString(), "list<item: int64>");
  EXPECT_EQ(DataType::List(Field("element", DataType::Int64(), false))->ToString(), "list<element: int64 not null>");
  EXPECT_EQ(DataType::Struct({Field("a", DataType::Int32()), Field("b", DataType::Utf8())})->ToString(),
            "struct<a: int32, b: string>");
  EXPECT_EQ(DataType::Map(DataType::Utf8(), DataType::Int64())->ToString(), "map<string, int64>");
  EXPECT_EQ(DataType::Map(DataType::Utf8(), DataType::Int64(), /*keys_sorted=*/true)->ToString(),
            "map<string, int64, keys_sorted>");
  EXPECT_EQ(DataType::Struct({})->ToString(), "struct<>");
}

TEST(DataTypeTest, MapHasEntriesStructOfKeyAndValue) {
  TypePtr map = DataType::Map(DataType::Utf8(), DataType::Int64());
  ASSERT_EQ(map->num_fields(), 1);
  const Field& entries = map->field(0);
  EXPECT_EQ(entries.name, "entries");
  EXPECT_FALSE(entries.nullable);
  EXPECT_EQ(entries.type->id(), TypeId::kStruct);
  EXPECT_EQ(map->key_field().name, "key");
  EXPECT_FALSE(map->key_field().nullable);
  EXPECT_EQ(map->value_field().name, "value");
  EXPECT_TRUE(map->value_field().nullable);
  EXPECT_EQ(map->value_field().type->id(), TypeId::kInt64);
}

TEST(DataTypeTest, MapRejectsNullableKey) {
  auto map = DataType::Map(Field("k", DataType::Utf8(), /*nullable=*/true), Field("v", DataType::Int64()));
  ASSERT_FALSE(map.ok());
  EXPECT_TRUE(map.status().IsInvalidArgument());
  EXPECT_EQ(map.status().message(), "map key field 'k' must not be nullable");
}

TEST(DataTypeTest, DecimalRejectsPrecisionAndScaleOutOfRange) {
  EXPECT_EQ(DataType::Decimal128(0, 0).status().message(), "decimal precision 0 is outside 1..38");
  EXPECT_EQ(DataType::Decimal128(39, 0).status().message(), "decimal precision 39 is outside 1..38");
  EXPECT_EQ(DataType::Decimal128(5, 6).status().message(), "decimal(5,6): scale 6 is outside 0..5");
  EXPECT_TRUE(DataType::Decimal128(5, -1).status().IsInvalidArgument());
  auto ok = DataType::Decimal128(38, 38);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)->precision(), 38);
  EXPECT_EQ((*ok)->scale(), 38);
}

TEST(DataTypeTest, FixedSizeBinaryRejectsNegativeWidth) {
  auto type = DataType::FixedSizeBinary(-1);
  ASSERT_FALSE(type.ok());
  EXPECT_TRUE(type.status().IsInvalidArgument());
  EXPECT_EQ(DataType::FixedSizeBinary(0).value()->byte_width(), 0);
}

TEST(DataTypeTest, ByteWidthOfFixedWidthTypes) {
  EXPECT_EQ(DataType::Int8()->byte_width(), 1);
  EXPECT_EQ(DataType::UInt16()->byte_width(), 2);
  EXPECT_EQ(DataType::Int32()->byte_width(), 4);
  EXPECT_EQ(DataType::Float32()->byte_width(), 4);
  EXPECT_EQ(DataType::Date32()->byte_width(), 4);
  EXPECT_EQ(DataType::Int64()->byte_width(), 8);
  EXPECT_EQ(DataType::Float64()->byte_width(), 8);
  EXPECT_EQ(DataType::Time64(TimeUnit::kNano)->byte_width(), 8);
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kMicro, "UTC")->byte_width(), 8);
  EXPECT_EQ(Decimal(10, 2)->byte_width(), 16);
  EXPECT_EQ(DataType::Uuid()->byte_width(), 16);
  EXPECT_EQ(DataType::FixedSizeBinary(7).value()->byte_width(), 7);
  for (const TypePtr& t : {DataType::Null(), DataType::Bool(), DataType::Utf8(), DataType::Binary(),
                           DataType::List(DataType::Int8()), DataType::Struct({})}) {
    EXPECT_EQ(t->byte_width(), -1) << t->ToString();
    EXPECT_FALSE(t->is_fixed_width()) << t->ToString();
  }
}

TEST(DataTypeTest, EqualityIsStructural) {
  EXPECT_EQ(*Decimal(18, 2), *Decimal(18, 2));
  EXPECT_NE(*Decimal(18, 2), *Decimal(18, 3));
  EXPECT_NE(*Decimal(18, 2), *Decimal(19, 2));
  EXPECT_EQ(*DataType::Timestamp(TimeUnit::kMicro, "UTC"), *DataType::Timestamp(TimeUnit::kMicro, "UTC"));
  EXPECT_NE(*DataType::Timestamp(TimeUnit::kMicro, "UTC"), *DataType::Timestamp(TimeUnit::kMicro));
  EXPECT_NE(*DataType::Timestamp(TimeUnit::kMicro), *DataType::Timestamp(TimeUnit::kNano));
  EXPECT_NE(*DataType::Time64(TimeUnit::kMicro), *DataType::Timestamp(TimeUnit::kMicro));
  EXPECT_NE(*DataType::FixedSizeBinary(16).value(), *DataType::Uuid());
  EXPECT_EQ(*DataType::List(DataType::Int64()), *DataType::List(DataType::Int64()));
  EXPECT_NE(*DataType::List(DataType::Int64()), *DataType::List(Field("element", DataType::Int64())));
  EXPECT_NE(*DataType::List(DataType::Int64()), *DataType::List(Field("item", DataType::Int64(), false)));
  EXPECT_NE(*DataType::Map(DataType::Utf8(), DataType::Int64()),
            *DataType::Map(DataType::Utf8(), DataType::Int64(), true));
  EXPECT_NE(*DataType::Struct({Field("a", DataType::Int32())}),
            *DataType::Struct({Field("a", DataType::Int32(), true, {}, 7)}));
  EXPECT_NE(*DataType::Struct({Field("a", DataType::Int32())}),
            *DataType::Struct({Field("a", DataType::Int32(), true, {{"k", "v"}})}));
  EXPECT_TRUE(TypeEquals(nullptr, nullptr));
  EXPECT_FALSE(TypeEquals(DataType::Int8(), nullptr));
}

TEST(SchemaTest, FindsFieldsByNameAndPrintsOneLine) {
  Schema schema({Field("id", DataType::Int64(), false, {}, 1), Field("name", DataType::Utf8())},
                {{"origin", "test"}});
  EXPECT_EQ(schema.FieldIndex("name"), 1);
  EXPECT_EQ(schema.FieldIndex("missing"), -1);
  EXPECT_EQ(schema.ToString(), "id: int64 not null, name: string");
  Schema copy = schema;
  EXPECT_EQ(copy, schema);
  copy.metadata.clear();
  EXPECT_NE(copy, schema);
}

}  // namespace
}  // namespace floe
