#include "floe/columnar/array.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "floe/columnar/builder.h"

namespace floe {
namespace {

Array Int32Array(const std::vector<std::optional<int32_t>>& values) {
  Int32Builder builder;
  for (const auto& v : values) {
    if (v) {
      EXPECT_TRUE(builder.Append(*v).ok());
    } else {
      EXPECT_TRUE(builder.AppendNull().ok());
    }
  }
  return builder.Finish().value();
}

Array StringArray(const std::vector<std::optional<std::string>>& values) {
  StringBuilder builder;
  for (const auto& v : values) {
    if (v) {
      EXPECT_TRUE(builder.Append(*v).ok());
    } else {
      EXPECT_TRUE(builder.AppendNull().ok());
    }
  }
  return builder.Finish().value();
}

template <typename T>
Buffer BufferOf(const std::vector<T>& values) {
  return Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(values.data()),
                                                 values.size() * sizeof(T)));
}

// A hand-made array, as an untrusted producer could hand over.
Array Raw(TypePtr type, int64_t length, std::vector<Buffer> buffers,
          std::vector<std::shared_ptr<const ArrayData>> children = {}, int64_t null_count = -1, int64_t offset = 0) {
  return Array(std::make_shared<ArrayData>(std::move(type), length, std::move(buffers), std::move(children),
                                           null_count, offset));
}

TEST(ArrayTest, SliceSharesBuffersAndShiftsIndices) {
  Array array = Int32Array({1, std::nullopt, 3, 4, std::nullopt});
  Array slice = array.Slice(1, 3);
  EXPECT_EQ(slice.length(), 3);
  EXPECT_EQ(slice.offset(), 1);
  EXPECT_EQ(slice.data()->buffers[1].data(), array.data()->buffers[1].data());
  EXPECT_TRUE(slice.IsNull(0));
  EXPECT_EQ(slice.Values<int32_t>()[1], 3);
  EXPECT_EQ(slice.Values<int32_t>()[2], 4);
  EXPECT_EQ(slice.null_count(), 1);
  Array inner = slice.Slice(1, 2);
  EXPECT_EQ(inner.offset(), 2);
  EXPECT_EQ(inner.null_count(), 0);
  EXPECT_EQ(inner.Values<int32_t>()[0], 3);
  EXPECT_TRUE(slice.Validate().ok());
}

TEST(ArrayTest, NullCountIsComputedLazilyFromTheBitmap) {
  const uint8_t bits = 0b10110;  // elements 0 and 3 null
  Array array = Raw(DataType::Int8(), 5, {Buffer::CopyOf(std::string_view(reinterpret_cast<const char*>(&bits), 1)),
                                          BufferOf(std::vector<int8_t>{0, 1, 2, 0, 4})});
  EXPECT_EQ(array.data()->null_count.load(), -1);
  EXPECT_EQ(array.null_count(), 2);
  EXPECT_EQ(array.data()->null_count.load(), 2);
  EXPECT_EQ(array.Slice(1, 2).null_count(), 0);
  EXPECT_EQ(array.Slice(3, 1).null_count(), 1);
}

TEST(ArrayTest, StringSliceReadsThroughOffsets) {
  Array array = StringArray({"ab", "", std::nullopt, "cde"});
  Array slice = array.Slice(1, 3);
  EXPECT_EQ(slice.GetString(0), "");
  EXPECT_TRUE(slice.IsNull(1));
  EXPECT_EQ(slice.GetString(2), "cde");
  EXPECT_EQ(slice.ValueOffsets()[0], 2);
}

TEST(ArrayTest, StructFieldIsSlicedToTheStructRows) {
  TypePtr type = DataType::Struct({Field("a", DataType::Int32())});
  StructBuilder builder(type, [] {
    std::vector<std::unique_ptr<ArrayBuilder>> fields;
    fields.push_back(std::make_unique<Int32Builder>());
    return fields;
  }());
  for (int32_t i = 0; i < 5; ++i) {
    ASSERT_TRUE(builder.AppendRow().ok());
    ASSERT_TRUE(builder.field_builder(0)->As<Int32Builder>()->Append(i * 10).ok());
  }
  Array rows = builder.Finish().value().Slice(2, 2);
  Array a = rows.field(0);
  EXPECT_EQ(a.length(), 2);
  EXPECT_EQ(a.Values<int32_t>()[0], 20);
  EXPECT_EQ(a.Values<int32_t>()[1], 30);
  // The child itself is untouched: the struct's offset applies to it.
  EXPECT_EQ(rows.data()->children[0]->length, 5);
}

TEST(ArrayTest, MakeArrayOfNullBuildsValidArraysOfEveryType) {
  for (const TypePtr& type :
       {DataType::Null(), DataType::Bool(), DataType::UInt16(), DataType::Float32(), DataType::Decimal128(5, 1).value(),
        DataType::Date32(), DataType::Time64(TimeUnit::kNano), DataType::Utf8(), DataType::Binary(),
        DataType::FixedSizeBinary(5).value(), DataType::Uuid(), DataType::List(DataType::Int64()),
        DataType::Map(DataType::Utf8(), DataType::Utf8()),
        DataType::Struct({Field("a", DataType::Int8()), Field("b", DataType::List(DataType::Utf8()))})}) {
    Array array = MakeArrayOfNull(type, 9).value();
    EXPECT_EQ(array.length(), 9) << type->ToString();
    EXPECT_EQ(array.null_count(), 9) << type->ToString();
    for (int64_t i = 0; i < 9; ++i) EXPECT_TRUE(array.IsNull(i)) << type->ToString();
    EXPECT_TRUE(array.Validate().ok()) << type->ToString() << ": " << array.Validate().ToString();
  }
  EXPECT_TRUE(MakeArrayOfNull(DataType::Int8(), -1).status().IsInvalidArgument());
}

TEST(ArrayEqualsTest, ComparesValuesNotLayout) {
  Array a = Int32Array({1, 2, std::nullopt, 4});
  Array b = Int32Array({0, 1, 2, std::nullopt, 4}).Slice(1, 4);
  EXPECT_TRUE(ArrayEquals(a, b));
  EXPECT_FALSE(ArrayEquals(a, Int32Array({1, 2, 3, 4})));
  EXPECT_FALSE(ArrayEquals(a, Int32Array({1, 2, std::nullopt, 5})));
  EXPECT_FALSE(ArrayEquals(a, Int32Array({1, 2, std::nullopt})));
  Int64Builder other_type;
  EXPECT_FALSE(ArrayEquals(Int32Array({}), other_type.Finish().value()));
}

TEST(ArrayEqualsTest, IgnoresTheContentOfNullSlots) {
  const uint8_t bits = 0b01;
  Array a = Raw(DataType::Int32(), 2, {Buffer::CopyOf(std::string_view(reinterpret_cast<const char*>(&bits), 1)),
                                       BufferOf(std::vector<int32_t>{5, 111})});
  Array b = Raw(DataType::Int32(), 2, {Buffer::CopyOf(std::string_view(reinterpret_cast<const char*>(&bits), 1)),
                                       BufferOf(std::vector<int32_t>{5, 222})});
  EXPECT_TRUE(ArrayEquals(a, b));
}

TEST(ArrayEqualsTest, NaNEqualsNaN) {
  Float64Builder x;
  ASSERT_TRUE(x.Append(NAN).ok());
  ASSERT_TRUE(x.Append(0.0).ok());
  Float64Builder y;
  ASSERT_TRUE(y.Append(-NAN).ok());
  ASSERT_TRUE(y.Append(-0.0).ok());
  EXPECT_TRUE(ArrayEquals(x.Finish().value(), y.Finish().value()));
}

TEST(ArrayEqualsTest, ComparesNestedValues) {
  auto list_of = [](std::vector<std::vector<int64_t>> lists) {
    ListBuilder builder(DataType::List(DataType::Int64()), std::make_unique<Int64Builder>());
    for (const auto& list : lists) {
      EXPECT_TRUE(builder.StartList().ok());
      for (int64_t v : list) EXPECT_TRUE(builder.value_builder()->As<Int64Builder>()->Append(v).ok());
    }
    return builder.Finish().value();
  };
  Array a = list_of({{1, 2}, {}, {3}});
  EXPECT_TRUE(ArrayEquals(a, list_of({{9}, {1, 2}, {}, {3}}).Slice(1, 3)));
  EXPECT_FALSE(ArrayEquals(a, list_of({{1}, {2}, {3}})));
  EXPECT_FALSE(ArrayEquals(a, list_of({{1, 2}, {}, {4}})));
}

TEST(ArrayValidateTest, RejectsWrongBufferCount) {
  Status status = Raw(DataType::Int32(), 1, {Buffer()}).Validate();
  EXPECT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "array of type int32: has 1 buffers, the layout has 2");
}

TEST(ArrayValidateTest, RejectsTooSmallValuesBuffer) {
  Status status = Raw(DataType::Int64(), 3, {Buffer(), BufferOf(std::vector<int64_t>{1, 2})}).Validate();
  EXPECT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(), "array of type int64: values buffer has 16 bytes, 24 needed for offset 0 + length 3");
  // The offset counts as well.
  Status sliced = Raw(DataType::Int64(), 2, {Buffer(), BufferOf(std::vector<int64_t>{1, 2})}, {}, -1, 1).Validate();
  EXPECT_EQ(sliced.message(), "array of type int64: values buffer has 16 bytes, 24 needed for offset 1 + length 2");
}

TEST(ArrayValidateTest, RejectsTooSmallValidityBitmap) {
  Status status =
      Raw(DataType::Int8(), 9, {Buffer::CopyOf(std::string_view("\xff", 1)), BufferOf(std::vector<int8_t>(9))})
          .Validate();
  EXPECT_EQ(status.message(), "array of type int8: validity bitmap has 1 bytes, 2 needed for offset 0 + length 9");
}

TEST(ArrayValidateTest, RejectsANullCountThatDisagreesWithTheBitmap) {
  Status status =
      Raw(DataType::Int8(), 3, {Buffer::CopyOf(std::string_view("\x05", 1)), BufferOf(std::vector<int8_t>(3))}, {}, 0)
          .Validate();
  EXPECT_EQ(status.message(), "array of type int8: null_count 0 but the validity bitmap has 1");
  Status missing = Raw(DataType::Int8(), 3, {Buffer(), BufferOf(std::vector<int8_t>(3))}, {}, 2).Validate();
  EXPECT_EQ(missing.message(), "array of type int8: null_count 2 but no validity bitmap");
}

TEST(ArrayValidateTest, RejectsDecreasingOffsets) {
  Status status =
      Raw(DataType::Utf8(), 3, {Buffer(), BufferOf(std::vector<int32_t>{0, 4, 2, 5}), Buffer::CopyOf("hello")})
          .Validate();
  EXPECT_EQ(status.message(), "array of type string: offset 2 is 2, less than offset 1 (4)");
}

TEST(ArrayValidateTest, RejectsOffsetsPastTheData) {
  Status status =
      Raw(DataType::Binary(), 2, {Buffer(), BufferOf(std::vector<int32_t>{0, 2, 9}), Buffer::CopyOf("hello")})
          .Validate();
  EXPECT_EQ(status.message(), "array of type binary: offset 2 is 9, past the data buffer size 5");
  Status negative =
      Raw(DataType::Binary(), 1, {Buffer(), BufferOf(std::vector<int32_t>{-1, 2}), Buffer::CopyOf("hello")})
          .Validate();
  EXPECT_EQ(negative.message(), "array of type binary: offset 0 is -1");
}

TEST(ArrayValidateTest, RejectsListOffsetsPastTheChild) {
  Array child = Int32Array({1, 2});
  Status status =
      Raw(DataType::List(DataType::Int32()), 1, {Buffer(), BufferOf(std::vector<int32_t>{0, 3})}, {child.data()})
          .Validate();
  EXPECT_EQ(status.message(), "array of type list<item: int32>: offset 1 is 3, past the child length 2");
}

TEST(ArrayValidateTest, RejectsAStructChildThatIsTooShort) {
  TypePtr type = DataType::Struct({Field("a", DataType::Int32())});
  Status status = Raw(type, 3, {Buffer()}, {Int32Array({1, 2}).data()}).Validate();
  EXPECT_EQ(status.message(), "array of type struct<a: int32>: field 'a' has 2 elements, 3 needed for offset 0 + length 3");
}

TEST(ArrayValidateTest, RejectsAChildOfTheWrongType) {
  Status status =
      Raw(DataType::List(DataType::Int64()), 0, {Buffer(), BufferOf(std::vector<int32_t>{0})}, {Int32Array({}).data()})
          .Validate();
  EXPECT_EQ(status.message(), "array of type list<item: int64>: child 0 has type int32, the type says int64");
}

TEST(ArrayValidateTest, NamesTheNestedArrayAtFault) {
  TypePtr type = DataType::Struct({Field("s", DataType::Utf8())});
  Array bad = Raw(DataType::Utf8(), 1, {Buffer(), BufferOf(std::vector<int32_t>{0, 8}), Buffer::CopyOf("abc")});
  Status status = Raw(type, 1, {Buffer()}, {bad.data()}).Validate();
  EXPECT_EQ(status.message(), "array 's' of type string: offset 1 is 8, past the data buffer size 3");
}

TEST(ArrayValidateTest, RejectsNullMapKeys) {
  TypePtr map = DataType::Map(DataType::Int32(), DataType::Int32());
  auto entries = std::make_shared<ArrayData>(map->field(0).type, 2, std::vector<Buffer>{Buffer()},
                                             std::vector<std::shared_ptr<const ArrayData>>{
                                                 Int32Array({1, std::nullopt}).data(), Int32Array({5, 6}).data()});
  Status status = Raw(map, 1, {Buffer(), BufferOf(std::vector<int32_t>{0, 2})}, {entries}).Validate();
  EXPECT_EQ(status.message(), "array of type map<int32, int32>: map keys have 1 nulls (int32 keys)");
}

TEST(ArrayValidateTest, RejectsMisalignedValues) {
  Buffer bytes = BufferOf(std::vector<int64_t>{1, 2, 3});
  Status status = Raw(DataType::Int32(), 2, {Buffer(), bytes.Slice(1, 8)}).Validate();
  EXPECT_EQ(status.message(), "array of type int32: values buffer is not aligned to 4 bytes");
}

TEST(ArrayValidateTest, RejectsNegativeLengthAndOffset) {
  EXPECT_EQ(Raw(DataType::Int32(), -1, {Buffer(), Buffer()}).Validate().message(),
            "array of type int32: length -1 is negative");
  EXPECT_EQ(Raw(DataType::Int32(), 0, {Buffer(), Buffer()}, {}, -1, -2).Validate().message(),
            "array of type int32: offset -2 is negative");
}

}  // namespace
}  // namespace floe
