#include "floe/columnar/builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace floe {
namespace {

std::vector<int32_t> Int32s(const Buffer& buffer) {
  std::vector<int32_t> out(static_cast<size_t>(buffer.size()) / 4);
  if (!out.empty()) std::memcpy(out.data(), buffer.data(), out.size() * 4);
  return out;
}

std::vector<bool> Bits(const Buffer& buffer, int64_t n) {
  std::vector<bool> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(bit_util::GetBit(buffer.data(), i));
  return out;
}

TEST(PrimitiveBuilderTest, BuildsInt64WithoutNullsAndNoValidityBitmap) {
  Int64Builder builder;
  ASSERT_TRUE(builder.Append(1).ok());
  ASSERT_TRUE(builder.Append(-2).ok());
  ASSERT_TRUE(builder.Append(std::numeric_limits<int64_t>::max()).ok());
  Array array = builder.Finish().value();
  EXPECT_EQ(array.type_id(), TypeId::kInt64);
  EXPECT_EQ(array.length(), 3);
  EXPECT_EQ(array.null_count(), 0);
  EXPECT_EQ(array.validity_bitmap(), nullptr);
  ASSERT_EQ(array.data()->buffers.size(), 2u);
  EXPECT_TRUE(array.data()->buffers[0].empty());
  EXPECT_EQ(array.data()->buffers[1].size(), 24);
  EXPECT_EQ(array.Values<int64_t>()[0], 1);
  EXPECT_EQ(array.Values<int64_t>()[1], -2);
  EXPECT_EQ(array.Values<int64_t>()[2], std::numeric_limits<int64_t>::max());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(array.Values<int64_t>()) % 64, 0u);
  EXPECT_TRUE(array.Validate().ok());
}

TEST(PrimitiveBuilderTest, NullsMaterialiseABitmapAndZeroTheirSlots) {
  Int32Builder builder;
  ASSERT_TRUE(builder.Append(7).ok());
  ASSERT_TRUE(builder.Append(8).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  ASSERT_TRUE(builder.Append(9).ok());
  ASSERT_TRUE(builder.AppendNulls(2).ok());
  EXPECT_EQ(builder.length(), 6);
  EXPECT_EQ(builder.null_count(), 3);
  Array array = builder.Finish().value();
  EXPECT_EQ(array.null_count(), 3);
  const Buffer& validity = array.data()->buffers[0];
  ASSERT_EQ(validity.size(), 1);
  EXPECT_EQ(validity.data()[0], 0b001011);  // bits past the length are zero
  EXPECT_EQ(Int32s(array.data()->buffers[1]), (std::vector<int32_t>{7, 8, 0, 9, 0, 0}));
  EXPECT_FALSE(array.IsNull(0));
  EXPECT_TRUE(array.IsNull(2));
  EXPECT_TRUE(array.IsValid(3));
  EXPECT_TRUE(array.IsNull(5));
}

TEST(PrimitiveBuilderTest, FinishResetsTheBuilderForReuse) {
  Int16Builder builder;
  ASSERT_TRUE(builder.AppendNull().ok());
  Array first = builder.Finish().value();
  EXPECT_EQ(builder.length(), 0);
  EXPECT_EQ(builder.null_count(), 0);
  ASSERT_TRUE(builder.Append(5).ok());
  Array second = builder.Finish().value();
  EXPECT_EQ(second.length(), 1);
  EXPECT_EQ(second.null_count(), 0);
  EXPECT_EQ(second.Values<int16_t>()[0], 5);
  EXPECT_TRUE(first.IsNull(0));
}

TEST(PrimitiveBuilderTest, UnsafeAppendAfterReserveSurvivesANullInBetween) {
  UInt32Builder builder;
  ASSERT_TRUE(builder.Reserve(100).ok());
  for (uint32_t i = 0; i < 50; ++i) builder.UnsafeAppend(i);
  ASSERT_TRUE(builder.AppendNull().ok());  // materialises the bitmap with room for the reservation
  for (uint32_t i = 0; i < 49; ++i) builder.UnsafeAppend(i);
  Array array = builder.Finish().value();
  ASSERT_EQ(array.length(), 100);
  EXPECT_EQ(array.null_count(), 1);
  EXPECT_TRUE(array.IsNull(50));
  EXPECT_EQ(array.Values<uint32_t>()[99], 48u);
  EXPECT_TRUE(array.Validate().ok());
}

TEST(PrimitiveBuilderTest, AppendValuesWithValidBytes) {
  Float64Builder builder;
  const std::vector<double> values = {1.5, 2.5, NAN, -0.0};
  const uint8_t valid[] = {1, 0, 1, 1};
  ASSERT_TRUE(builder.AppendValues(values, valid).ok());
  ASSERT_TRUE(builder.AppendValues(values).ok());
  Array array = builder.Finish().value();
  ASSERT_EQ(array.length(), 8);
  EXPECT_EQ(array.null_count(), 1);
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_TRUE(std::isnan(array.Values<double>()[2]));
  EXPECT_TRUE(std::signbit(array.Values<double>()[3]));
  EXPECT_EQ(array.Values<double>()[4], 1.5);
}

TEST(PrimitiveBuilderTest, GrowsAcrossManyAppends) {
  Int8Builder builder;
  for (int i = 0; i < 10000; ++i) {
    if (i % 7 == 0) {
      ASSERT_TRUE(builder.AppendNull().ok());
    } else {
      ASSERT_TRUE(builder.Append(static_cast<int8_t>(i)).ok());
    }
  }
  Array array = builder.Finish().value();
  ASSERT_EQ(array.length(), 10000);
  EXPECT_EQ(array.null_count(), (10000 + 6) / 7);
  for (int i = 0; i < 10000; ++i) {
    ASSERT_EQ(array.IsNull(i), i % 7 == 0) << i;
    if (i % 7 != 0) {
      ASSERT_EQ(array.Values<int8_t>()[i], static_cast<int8_t>(i));
    }
  }
}

TEST(PrimitiveBuilderTest, TemporalAndDecimalTypesUseTheirCTypes) {
  Date32Builder dates(DataType::Date32());
  ASSERT_TRUE(dates.Append(-1).ok());
  TemporalBuilder timestamps(DataType::Timestamp(TimeUnit::kNano, "UTC"));
  ASSERT_TRUE(timestamps.Append(1'700'000'000'000'000'000).ok());
  Decimal128Builder decimals(DataType::Decimal128(38, 2).value());
  const Decimal128Value big = -(static_cast<Decimal128Value>(1) << 100);
  ASSERT_TRUE(decimals.Append(big).ok());
  ASSERT_TRUE(decimals.AppendNull().ok());

  Array d = dates.Finish().value();
  EXPECT_EQ(d.type_id(), TypeId::kDate32);
  EXPECT_EQ(d.Values<int32_t>()[0], -1);
  Array t = timestamps.Finish().value();
  EXPECT_EQ(t.type()->timezone(), "UTC");
  EXPECT_EQ(t.Values<int64_t>()[0], 1'700'000'000'000'000'000);
  Array m = decimals.Finish().value();
  EXPECT_EQ(m.data()->buffers[1].size(), 32);
  EXPECT_EQ(m.GetDecimal128(0), big);
  EXPECT_EQ(m.Values<Decimal128Value>()[0], big);
  EXPECT_TRUE(m.IsNull(1));
}

TEST(PrimitiveBuilderTest, RejectsNegativeCounts) {
  Int64Builder builder;
  EXPECT_TRUE(builder.Reserve(-1).IsInvalidArgument());
  EXPECT_TRUE(builder.AppendNulls(-3).IsInvalidArgument());
  EXPECT_EQ(builder.Reserve(int64_t{1} << 60).message(), "element count 1152921504606846976 is outside 0..2^48");
  EXPECT_EQ(builder.length(), 0);
}

TEST(PrimitiveBuilderDeathTest, AbortsOnATypeOfAnotherCType) {
  EXPECT_DEATH({ Int32Builder builder(DataType::Int64()); }, "cannot build arrays of type int64");
  EXPECT_DEATH({ Int64Builder builder(DataType::Float64()); }, "cannot build arrays of type float64");
}

TEST(BoolBuilderTest, PacksValuesIntoABitmap) {
  BoolBuilder builder;
  ASSERT_TRUE(builder.Append(true).ok());
  ASSERT_TRUE(builder.Append(false).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  const uint8_t values[] = {1, 1, 0, 2, 0, 1, 1, 1};
  ASSERT_TRUE(builder.AppendValues(values).ok());
  Array array = builder.Finish().value();
  ASSERT_EQ(array.length(), 11);
  EXPECT_EQ(array.null_count(), 1);
  EXPECT_EQ(Bits(array.data()->buffers[1], 11),
            (std::vector<bool>{true, false, false, true, true, false, true, false, true, true, true}));
  EXPECT_EQ(array.data()->buffers[1].size(), 2);
  EXPECT_EQ(array.data()->buffers[1].data()[1] >> 3, 0);  // padding bits are zero
  EXPECT_TRUE(array.GetBool(0));
  EXPECT_FALSE(array.GetBool(1));
  EXPECT_TRUE(array.IsNull(2));
}

TEST(NullBuilderTest, CountsWithoutBuffers) {
  NullBuilder builder;
  ASSERT_TRUE(builder.AppendNulls(5).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  Array array = builder.Finish().value();
  EXPECT_EQ(array.type_id(), TypeId::kNull);
  EXPECT_EQ(array.length(), 6);
  EXPECT_EQ(array.null_count(), 6);
  EXPECT_TRUE(array.data()->buffers.empty());
  EXPECT_TRUE(array.IsNull(3));
  EXPECT_TRUE(array.Validate().ok());
}

TEST(BinaryBuilderTest, BuildsStringOffsetsAndData) {
  StringBuilder builder;
  ASSERT_TRUE(builder.Append("hé").ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  ASSERT_TRUE(builder.Append("").ok());
  ASSERT_TRUE(builder.Append("xyz").ok());
  EXPECT_EQ(builder.data_size(), 6);
  Array array = builder.Finish().value();
  EXPECT_EQ(array.type_id(), TypeId::kString);
  ASSERT_EQ(array.data()->buffers.size(), 3u);
  EXPECT_EQ(Int32s(array.data()->buffers[1]), (std::vector<int32_t>{0, 3, 3, 3, 6}));
  EXPECT_EQ(array.data()->buffers[2].view(), "héxyz");
  EXPECT_EQ(array.GetString(0), "hé");
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_EQ(array.GetString(2), "");
  EXPECT_EQ(array.GetString(3), "xyz");
  EXPECT_TRUE(array.Validate().ok());
}

TEST(BinaryBuilderTest, EmptyArrayHasOneOffset) {
  BinaryBuilder builder;
  Array array = builder.Finish().value();
  EXPECT_EQ(array.type_id(), TypeId::kBinary);
  EXPECT_EQ(array.length(), 0);
  EXPECT_EQ(Int32s(array.data()->buffers[1]), (std::vector<int32_t>{0}));
  EXPECT_TRUE(array.Validate().ok());
}

TEST(BinaryBuilderTest, AppendValuesSkipsNullBytes) {
  BinaryBuilder builder(DataType::Binary());
  const std::vector<std::string_view> values = {std::string_view("\0\1", 2), "ignored", "z"};
  const uint8_t valid[] = {1, 0, 1};
  ASSERT_TRUE(builder.AppendValues(values, valid).ok());
  Array array = builder.Finish().value();
  EXPECT_EQ(Int32s(array.data()->buffers[1]), (std::vector<int32_t>{0, 2, 2, 3}));
  EXPECT_EQ(array.GetString(0), std::string_view("\0\1", 2));
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_EQ(array.GetString(2), "z");
}

TEST(BinaryBuilderTest, RejectsDataPastTheInt32OffsetLimit) {
  StringBuilder builder;
  Status status = builder.ReserveData(int64_t{1} << 31);
  EXPECT_TRUE(status.IsInvalidArgument());
  EXPECT_EQ(status.message(), "string array: 0 + 2147483648 bytes of data exceed the int32 offset limit 2147483647");
}

TEST(FixedSizeBinaryBuilderTest, BuildsFixedWidthValues) {
  FixedSizeBinaryBuilder builder(DataType::FixedSizeBinary(3).value());
  ASSERT_TRUE(builder.Append("abc").ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  const uint8_t more[] = {'x', 'y', 'z', '1', '2', '3'};
  ASSERT_TRUE(builder.AppendValues(more, 2).ok());
  Status wrong = builder.Append("ab");
  EXPECT_TRUE(wrong.IsInvalidArgument());
  EXPECT_EQ(wrong.message(), "fixed_size_binary[3] array: value of 2 bytes, expected 3");
  Array array = builder.Finish().value();
  ASSERT_EQ(array.length(), 4);
  EXPECT_EQ(array.data()->buffers[1].view(), std::string_view("abc\0\0\0xyz123", 12));
  EXPECT_EQ(array.GetFixedSizeBinary(0), "abc");
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_EQ(array.GetFixedSizeBinary(3), "123");
}

TEST(FixedSizeBinaryBuilderTest, BuildsUuids) {
  FixedSizeBinaryBuilder builder(DataType::Uuid());
  EXPECT_EQ(builder.byte_width(), 16);
  ASSERT_TRUE(builder.Append("0123456789abcdef").ok());
  Array array = builder.Finish().value();
  EXPECT_EQ(array.type_id(), TypeId::kUuid);
  EXPECT_EQ(array.GetFixedSizeBinary(0), "0123456789abcdef");
}

TEST(ListBuilderTest, BuildsListsWithNullsAndEmptyLists) {
  ListBuilder builder(DataType::List(DataType::Int64()), std::make_unique<Int64Builder>());
  auto* values = builder.value_builder()->As<Int64Builder>();
  ASSERT_NE(values, nullptr);
  ASSERT_TRUE(builder.StartList().ok());
  ASSERT_TRUE(values->Append(1).ok());
  ASSERT_TRUE(values->Append(2).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  ASSERT_TRUE(builder.StartList().ok());  // empty
  ASSERT_TRUE(builder.StartList().ok());
  ASSERT_TRUE(values->AppendNull().ok());
  ASSERT_TRUE(values->Append(3).ok());
  Array array = builder.Finish().value();
  ASSERT_EQ(array.length(), 4);
  EXPECT_EQ(array.null_count(), 1);
  ASSERT_EQ(array.data()->buffers.size(), 2u);
  EXPECT_EQ(Int32s(array.data()->buffers[1]), (std::vector<int32_t>{0, 2, 2, 2, 4}));
  Array items = array.list_values();
  ASSERT_EQ(items.length(), 4);
  EXPECT_EQ(items.Values<int64_t>()[1], 2);
  EXPECT_TRUE(items.IsNull(2));
  EXPECT_TRUE(array.Validate().ok());
}

TEST(ListBuilderTest, NestsLists) {
  TypePtr inner = DataType::List(DataType::Utf8());
  ListBuilder outer(DataType::List(inner), MakeBuilder(inner));
  auto* middle = outer.value_builder()->As<ListBuilder>();
  auto* strings = middle->value_builder()->As<StringBuilder>();
  ASSERT_NE(strings, nullptr);
  ASSERT_TRUE(outer.StartList().ok());
  ASSERT_TRUE(middle->StartList().ok());
  ASSERT_TRUE(strings->Append("a").ok());
  ASSERT_TRUE(middle->StartList().ok());
  ASSERT_TRUE(strings->Append("b").ok());
  ASSERT_TRUE(strings->Append("c").ok());
  Array array = outer.Finish().value();
  EXPECT_EQ(Int32s(array.data()->buffers[1]), (std::vector<int32_t>{0, 2}));
  Array lists = array.list_values();
  EXPECT_EQ(Int32s(lists.data()->buffers[1]), (std::vector<int32_t>{0, 1, 3}));
  EXPECT_EQ(lists.list_values().GetString(2), "c");
  EXPECT_TRUE(array.Validate().ok());
}

TEST(StructBuilderTest, BuildsRowsAndNullRowsFillTheFields) {
  TypePtr type = DataType::Struct({Field("a", DataType::Int32()), Field("b", DataType::Utf8())});
  auto builder = MakeBuilder(type);
  auto* rows = builder->As<StructBuilder>();
  ASSERT_NE(rows, nullptr);
  auto* a = rows->field_builder(0)->As<Int32Builder>();
  auto* b = rows->field_builder(1)->As<StringBuilder>();
  ASSERT_TRUE(rows->AppendRow().ok());
  ASSERT_TRUE(a->Append(1).ok());
  ASSERT_TRUE(b->Append("x").ok());
  ASSERT_TRUE(rows->AppendNull().ok());
  ASSERT_TRUE(rows->AppendRow().ok());
  ASSERT_TRUE(a->AppendNull().ok());
  ASSERT_TRUE(b->Append("z").ok());
  Array array = rows->Finish().value();
  ASSERT_EQ(array.length(), 3);
  EXPECT_EQ(array.null_count(), 1);
  ASSERT_EQ(array.data()->buffers.size(), 1u);
  ASSERT_EQ(array.num_fields(), 2);
  EXPECT_EQ(array.field(0).Values<int32_t>()[0], 1);
  EXPECT_TRUE(array.field(0).IsNull(1));
  EXPECT_TRUE(array.field(0).IsNull(2));
  EXPECT_EQ(array.field(1).GetString(2), "z");
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_TRUE(array.Validate().ok());
}

TEST(StructBuilderTest, FinishRejectsAFieldWithTheWrongCount) {
  TypePtr type = DataType::Struct({Field("a", DataType::Int32()), Field("b", DataType::Utf8())});
  auto builder = MakeBuilder(type);
  auto* rows = builder->As<StructBuilder>();
  ASSERT_TRUE(rows->AppendRow().ok());
  ASSERT_TRUE(rows->field_builder(0)->AppendNull().ok());
  Result<Array> array = rows->Finish();
  ASSERT_FALSE(array.ok());
  EXPECT_TRUE(array.status().IsInvalidArgument());
  EXPECT_EQ(array.status().message(), "struct<a: int32, b: string> array: field 'b' has 0 values, the struct has 1 rows");
}

TEST(MapBuilderTest, BuildsEntriesStructOfKeysAndItems) {
  TypePtr type = DataType::Map(DataType::Utf8(), DataType::Int32());
  auto builder = MakeBuilder(type);
  auto* map = builder->As<MapBuilder>();
  ASSERT_NE(map, nullptr);
  auto* keys = map->key_builder()->As<StringBuilder>();
  auto* items = map->item_builder()->As<Int32Builder>();
  ASSERT_TRUE(map->StartMap().ok());
  ASSERT_TRUE(keys->Append("a").ok());
  ASSERT_TRUE(items->Append(1).ok());
  ASSERT_TRUE(keys->Append("b").ok());
  ASSERT_TRUE(items->AppendNull().ok());
  ASSERT_TRUE(map->AppendNull().ok());
  ASSERT_TRUE(map->StartMap().ok());
  Array array = map->Finish().value();
  ASSERT_EQ(array.length(), 3);
  EXPECT_EQ(Int32s(array.data()->buffers[1]), (std::vector<int32_t>{0, 2, 2, 2}));
  Array entries = array.list_values();
  EXPECT_EQ(entries.type_id(), TypeId::kStruct);
  EXPECT_EQ(entries.length(), 2);
  EXPECT_EQ(entries.null_count(), 0);
  EXPECT_EQ(entries.field(0).GetString(1), "b");
  EXPECT_TRUE(entries.field(1).IsNull(1));
  EXPECT_TRUE(array.Validate().ok());
}

TEST(MapBuilderTest, RejectsNullKeysAndUnpairedEntries) {
  TypePtr type = DataType::Map(DataType::Int32(), DataType::Int32());
  MapBuilder map(type, std::make_unique<Int32Builder>(), std::make_unique<Int32Builder>());
  ASSERT_TRUE(map.StartMap().ok());
  ASSERT_TRUE(map.key_builder()->AppendNull().ok());
  ASSERT_TRUE(map.item_builder()->AppendNull().ok());
  EXPECT_EQ(map.Finish().status().message(), "map<int32, int32> array: 1 of 1 keys are null");

  MapBuilder unpaired(type, std::make_unique<Int32Builder>(), std::make_unique<Int32Builder>());
  ASSERT_TRUE(unpaired.StartMap().ok());
  ASSERT_TRUE(unpaired.key_builder()->As<Int32Builder>()->Append(1).ok());
  EXPECT_EQ(unpaired.Finish().status().message(), "map<int32, int32> array: 1 keys but 0 items");
}

TEST(MakeBuilderTest, ReturnsTheDocumentedClassForEveryType) {
  EXPECT_NE(MakeBuilder(DataType::Null())->As<NullBuilder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::Bool())->As<BoolBuilder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::Int8())->As<Int8Builder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::UInt64())->As<UInt64Builder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::Float32())->As<Float32Builder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::Decimal128(9, 3).value())->As<Decimal128Builder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::Date32())->As<Date32Builder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::Time64(TimeUnit::kMicro))->As<TemporalBuilder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::Timestamp(TimeUnit::kMicro))->As<TemporalBuilder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::Utf8())->As<StringBuilder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::Binary())->As<BinaryBuilder>(), nullptr);
  EXPECT_EQ(MakeBuilder(DataType::Binary())->As<StringBuilder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::Uuid())->As<FixedSizeBinaryBuilder>(), nullptr);
  EXPECT_NE(MakeBuilder(DataType::List(DataType::Bool()))->As<ListBuilder>(), nullptr);
  EXPECT_EQ(MakeBuilder(DataType::Int32())->As<Int64Builder>(), nullptr);
  for (const TypePtr& type :
       {DataType::Null(), DataType::Bool(), DataType::Int16(), DataType::Timestamp(TimeUnit::kNano, "UTC"),
        DataType::Decimal128(20, 0).value(), DataType::Utf8(), DataType::FixedSizeBinary(2).value(),
        DataType::List(DataType::Utf8()), DataType::Map(DataType::Int64(), DataType::Utf8()),
        DataType::Struct({Field("x", DataType::Float64())})}) {
    auto builder = MakeBuilder(type);
    EXPECT_EQ(builder->type(), type);
    ASSERT_TRUE(builder->AppendNulls(3).ok());
    Array array = builder->Finish().value();
    EXPECT_TRUE(TypeEquals(array.type(), type)) << type->ToString();
    EXPECT_EQ(array.length(), 3) << type->ToString();
    EXPECT_EQ(array.null_count(), 3) << type->ToString();
    EXPECT_TRUE(array.Validate().ok()) << type->ToString() << ": " << array.Validate().ToString();
  }
}

}  // namespace
}  // namespace floe
