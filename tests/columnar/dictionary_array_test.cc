// Dictionary-encoded arrays (int32 indices into string or binary values):
// the type, layout checks, equality, slicing, decoding, take and
// concatenate, printing, the Arrow C Data Interface and the builder.

#include <gtest/gtest.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "floe/columnar/array.h"
#include "floe/columnar/arrow_c_data.h"
#include "floe/columnar/batch_printer.h"
#include "floe/columnar/builder.h"
#include "floe/columnar/take.h"

namespace floe {
namespace dictionary_array_test {

TypePtr DictionaryOf(TypePtr value_type) { return DataType::Dictionary(std::move(value_type)).value(); }

Array Values(const std::vector<std::optional<std::string>>& values, TypePtr type = DataType::Utf8()) {
  BinaryBuilder builder(std::move(type));
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return builder.Finish().value();
}

// A dictionary array over `dictionary` whose element i is null where
// indices[i] is nullopt (its stored index then `null_index`).
Array Encoded(const Array& dictionary, const std::vector<std::optional<int32_t>>& indices, int32_t null_index = 0) {
  BitmapBuilder validity;
  BufferBuilder stored;
  int64_t nulls = 0;
  for (const auto& index : indices) {
    EXPECT_TRUE(validity.Append(index.has_value()).ok());
    const int32_t value = index.value_or(null_index);
    EXPECT_TRUE(stored.Append(&value, sizeof value).ok());
    nulls += !index.has_value();
  }
  std::vector<Buffer> buffers;
  buffers.push_back(nulls == 0 ? Buffer() : validity.Finish());
  buffers.push_back(stored.Finish());
  auto data = std::make_shared<ArrayData>(DictionaryOf(dictionary.type()), static_cast<int64_t>(indices.size()),
                                          std::move(buffers), std::vector<std::shared_ptr<const ArrayData>>{}, nulls);
  data->dictionary = dictionary.data();
  return Array(std::move(data));
}

std::vector<int32_t> IndicesOf(const Array& array) {
  return std::vector<int32_t>(array.DictionaryIndices(), array.DictionaryIndices() + array.length());
}

// Element i as its value, "<null>" where logically null.
std::vector<std::string> Strings(const Array& decoded) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < decoded.length(); ++i) {
    out.push_back(decoded.IsNull(i) ? "<null>" : std::string(decoded.GetString(i)));
  }
  return out;
}

std::vector<std::string> DecodedStrings(const Array& array) {
  Result<Array> decoded = DecodeDictionaries(array);
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  return decoded.ok() ? Strings(*decoded) : std::vector<std::string>{};
}

RecordBatch OneColumnBatch(const std::string& name, const Array& column) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{Field(name, column.type())});
  return RecordBatch::Make(std::move(schema), {column}).value();
}

// ---- The type ----

TEST(DictionaryTypeTest, AcceptsStringAndBinaryValuesOnly) {
  Result<TypePtr> ints = DataType::Dictionary(DataType::Int64());
  EXPECT_TRUE(ints.status().IsInvalidArgument());
  EXPECT_EQ(ints.status().message(), "dictionary value type int64 is not string or binary");
  EXPECT_TRUE(DataType::Dictionary(nullptr).status().IsInvalidArgument());
  EXPECT_TRUE(DataType::Dictionary(DataType::List(DataType::Utf8())).status().IsInvalidArgument());

  const TypePtr strings = DictionaryOf(DataType::Utf8());
  EXPECT_EQ(strings->id(), TypeId::kDictionary);
  EXPECT_EQ(strings->ToString(), "dictionary<string>");
  EXPECT_EQ(DictionaryOf(DataType::Binary())->ToString(), "dictionary<binary>");
  EXPECT_EQ(strings->value_type(), DataType::Utf8());
  EXPECT_EQ(strings->byte_width(), -1);
  EXPECT_FALSE(strings->is_fixed_width());
  EXPECT_FALSE(strings->is_nested());
  EXPECT_TRUE(strings->fields().empty());
}

TEST(DictionaryTypeTest, EqualsComparesValueTypes) {
  EXPECT_TRUE(TypeEquals(DictionaryOf(DataType::Utf8()), DictionaryOf(DataType::Utf8())));
  EXPECT_FALSE(TypeEquals(DictionaryOf(DataType::Utf8()), DictionaryOf(DataType::Binary())));
  EXPECT_FALSE(TypeEquals(DictionaryOf(DataType::Utf8()), DataType::Utf8()));
  EXPECT_FALSE(TypeEquals(DataType::Utf8(), DictionaryOf(DataType::Utf8())));
  EXPECT_EQ(DataType::List(DictionaryOf(DataType::Utf8()))->ToString(), "list<item: dictionary<string>>");
}

TEST(DictionaryTypeTest, WithoutDictionariesReplacesEveryDepthAndKeepsFields) {
  const TypePtr dict = DictionaryOf(DataType::Utf8());
  const TypePtr type = DataType::Struct({
      Field("tags", DataType::List(Field("tag", dict, false, {{"k", "v"}}, 7)), true, {}, 1),
      Field("attrs", DataType::Map(dict, DictionaryOf(DataType::Binary()), true), false, {}, 2),
      Field("id", DataType::Int64(), false, {{"note", "x"}}, 3),
      Field("name", dict, true, {}, 4),
  });
  EXPECT_TRUE(HasDictionary(type));
  EXPECT_TRUE(HasDictionary(dict));
  EXPECT_FALSE(HasDictionary(DataType::Utf8()));

  const TypePtr expected = DataType::Struct({
      Field("tags", DataType::List(Field("tag", DataType::Utf8(), false, {{"k", "v"}}, 7)), true, {}, 1),
      Field("attrs", DataType::Map(DataType::Utf8(), DataType::Binary(), true), false, {}, 2),
      Field("id", DataType::Int64(), false, {{"note", "x"}}, 3),
      Field("name", DataType::Utf8(), true, {}, 4),
  });
  const TypePtr plain = WithoutDictionaries(type);
  EXPECT_TRUE(TypeEquals(plain, expected)) << plain->ToString();
  EXPECT_FALSE(HasDictionary(plain));
  EXPECT_EQ(WithoutDictionaries(dict), DataType::Utf8());
  // Nothing to replace: the very same type.
  EXPECT_EQ(WithoutDictionaries(expected), expected);
}

// ---- Layout checks ----

TEST(DictionaryValidateTest, AcceptsValidIndicesAndNullsInTheDictionary) {
  const Array dictionary = Values({"red", std::nullopt, "blue"});
  const Array array = Encoded(dictionary, {0, 2, std::nullopt, 1, 0});
  EXPECT_TRUE(array.Validate().ok()) << array.Validate().ToString();
  EXPECT_EQ(array.null_count(), 1);  // the null index only, as Arrow counts
}

TEST(DictionaryValidateTest, RejectsAValidIndexOutsideTheDictionary) {
  const Array dictionary = Values({"a", "b", "c"});
  const Status too_large = Encoded(dictionary, {0, 3, 1}).Validate();
  EXPECT_TRUE(too_large.IsCorrupt());
  EXPECT_EQ(too_large.message(),
            "array of type dictionary<string>: element 1 has index 3, outside the dictionary of 3 values");
  const Status negative = Encoded(dictionary, {0, 1, -1}).Validate();
  EXPECT_TRUE(negative.IsCorrupt());
  EXPECT_EQ(negative.message(),
            "array of type dictionary<string>: element 2 has index -1, outside the dictionary of 3 values");
  // In a slice, the element is counted from the slice's start.
  const Status sliced = Encoded(dictionary, {0, 1, 2, 7}).Slice(2, 2).Validate();
  EXPECT_EQ(sliced.message(),
            "array of type dictionary<string>: element 1 has index 7, outside the dictionary of 3 values");
}

TEST(DictionaryValidateTest, IgnoresTheIndexOfANullElement) {
  const Array dictionary = Values({"a", "b"});
  EXPECT_TRUE(Encoded(dictionary, {1, std::nullopt, 0}, /*null_index=*/99).Validate().ok());
  EXPECT_TRUE(Encoded(dictionary, {std::nullopt}, /*null_index=*/-5).Validate().ok());
}

TEST(DictionaryValidateTest, RejectsAMissingWrongOrInvalidDictionary) {
  const Array array = Encoded(Values({"a"}), {0, 0});
  auto without = std::make_shared<ArrayData>(*array.data());
  without->dictionary = nullptr;
  EXPECT_EQ(Array(without).Validate().message(), "array of type dictionary<string>: dictionary is missing");

  auto binary = std::make_shared<ArrayData>(*array.data());
  binary->dictionary = Values({"a"}, DataType::Binary()).data();
  EXPECT_EQ(Array(binary).Validate().message(),
            "array of type dictionary<string>: dictionary has type binary, the type says string");

  // A dictionary whose last offset passes its data.
  const Array good = Values({"ab"});
  auto bad_values = std::make_shared<ArrayData>(*good.data());
  bad_values->buffers[2] = Buffer::CopyOf(std::string_view("a"));
  auto bad = std::make_shared<ArrayData>(*array.data());
  bad->dictionary = bad_values;
  const Status status = Array(bad).Validate();
  EXPECT_TRUE(status.IsCorrupt());
  EXPECT_EQ(status.message(),
            "array of type dictionary<string>: dictionary: array of type string: offset 1 is 2, past the data "
            "buffer size 1");

  // Too few indices for the length.
  auto short_indices = std::make_shared<ArrayData>(*array.data());
  short_indices->buffers[1] = short_indices->buffers[1].Slice(0, 4);
  EXPECT_EQ(Array(short_indices).Validate().message(),
            "array of type dictionary<string>: indices buffer has 4 bytes, 8 needed for offset 0 + length 2");

  // A dictionary on a type that has none.
  auto plain = std::make_shared<ArrayData>(*Values({"a"}).data());
  plain->dictionary = Values({"b"}).data();
  EXPECT_EQ(Array(plain).Validate().message(),
            "array of type string: has a dictionary but its type is not dictionary-encoded");
}

// ---- Equality ----

TEST(DictionaryEqualsTest, ComparesDecodedValuesAcrossDictionaries) {
  const Array a = Encoded(Values({"x", "y"}), {0, 1, std::nullopt, 0});
  const Array b = Encoded(Values({"y", "unused", "x", "x"}), {2, 0, std::nullopt, 3});
  EXPECT_TRUE(ArrayEquals(a, b));
  EXPECT_TRUE(ArrayEquals(b, a));
  const Array c = Encoded(Values({"x", "y"}), {0, 1, std::nullopt, 1});
  EXPECT_FALSE(ArrayEquals(a, c));
  const Array d = Encoded(Values({"x", "y"}), {0, 1, 0, 0});  // valid where a is null
  EXPECT_FALSE(ArrayEquals(a, d));
}

TEST(DictionaryEqualsTest, ANullValueEqualsANullIndex) {
  const Array null_index = Encoded(Values({"x"}), {0, std::nullopt});
  const Array null_value = Encoded(Values({"x", std::nullopt}), {0, 1});
  EXPECT_TRUE(ArrayEquals(null_index, null_value));
  EXPECT_FALSE(ArrayEquals(null_value, Encoded(Values({"x", std::nullopt}), {0, 0})));
}

TEST(DictionaryEqualsTest, APlainArrayIsNotEqualToADictionaryOne) {
  const Array plain = Values({"x", "y"});
  const Array encoded = Encoded(Values({"x", "y"}), {0, 1});
  EXPECT_FALSE(ArrayEquals(plain, encoded));
  EXPECT_FALSE(ArrayEquals(encoded, plain));
  EXPECT_TRUE(ArrayEquals(DecodeDictionaries(encoded).value(), plain));
}

// ---- Slices ----

TEST(DictionarySliceTest, SlicesTheIndicesAndKeepsTheDictionary) {
  const Array dictionary = Values({"a", "b", "c"});
  const Array array = Encoded(dictionary, {2, std::nullopt, 0, 1, 1});
  const Array slice = array.Slice(1, 3);
  EXPECT_EQ(slice.data()->dictionary, dictionary.data());
  EXPECT_EQ(slice.dictionary().length(), 3);
  EXPECT_EQ(slice.length(), 3);
  EXPECT_TRUE(slice.IsNull(0));
  EXPECT_EQ(slice.DictionaryIndices()[1], 0);
  EXPECT_EQ(slice.DictionaryIndices()[2], 1);
  EXPECT_EQ(slice.null_count(), 1);
  EXPECT_TRUE(slice.Validate().ok());
  EXPECT_EQ(DecodedStrings(slice), (std::vector<std::string>{"<null>", "a", "b"}));
  EXPECT_EQ(DecodedStrings(slice.Slice(1, 2)), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(ArrayEquals(slice, Encoded(Values({"b", "a"}), {std::nullopt, 1, 0})));
}

// ---- DecodeDictionaries ----

TEST(DecodeDictionariesTest, DecodesAFlatArrayWithNullIndicesAndNullValues) {
  const Array array = Encoded(Values({"red", std::nullopt, "blue"}), {2, 0, std::nullopt, 1, 2}, 42);
  const Array decoded = DecodeDictionaries(array).value();
  EXPECT_TRUE(TypeEquals(decoded.type(), DataType::Utf8()));
  EXPECT_TRUE(decoded.Validate().ok());
  EXPECT_EQ(Strings(decoded), (std::vector<std::string>{"blue", "red", "<null>", "<null>", "blue"}));
  EXPECT_EQ(decoded.null_count(), 2);
  EXPECT_TRUE(ArrayEquals(decoded, Values({"blue", "red", std::nullopt, std::nullopt, "blue"})));
}

TEST(DecodeDictionariesTest, DecodesBinaryValuesAndSlices) {
  const Array array = Encoded(Values({std::string("\0\1", 2), "zz"}, DataType::Binary()), {1, 0, 1, 0});
  const Array decoded = DecodeDictionaries(array.Slice(1, 2)).value();
  EXPECT_TRUE(TypeEquals(decoded.type(), DataType::Binary()));
  EXPECT_EQ(decoded.length(), 2);
  EXPECT_EQ(decoded.GetString(0), std::string_view("\0\1", 2));
  EXPECT_EQ(decoded.GetString(1), "zz");
}

TEST(DecodeDictionariesTest, ReturnsAnArrayWithoutDictionariesAsItIs) {
  const Array plain = Values({"a", std::nullopt});
  EXPECT_EQ(DecodeDictionaries(plain).value().data(), plain.data());
  const Array list = MakeArrayOfNull(DataType::List(DataType::Utf8()), 2).value();
  EXPECT_EQ(DecodeDictionaries(list).value().data(), list.data());
}

TEST(DecodeDictionariesTest, RejectsAnIndexOutsideAnUnvalidatedDictionary) {
  const Result<Array> decoded = DecodeDictionaries(Encoded(Values({"a"}), {0, 4}));
  EXPECT_TRUE(decoded.status().IsInvalidArgument());
  EXPECT_EQ(decoded.status().message(),
            "dictionary<string> array: element 1 has index 4, outside the dictionary of 1 values");
}

// list<dictionary<string>>: [["b", "a"], null, [], ["c", null]] over
// dictionary ["a", "b", "c"], the values array holding one extra leading item.
Array ListOfEncoded() {
  const Array values = Encoded(Values({"a", "b", "c"}), {2, 1, 0, 2, std::nullopt});
  const TypePtr type = DataType::List(DictionaryOf(DataType::Utf8()));
  const int32_t offsets[] = {1, 3, 3, 3, 5};
  BitmapBuilder validity;
  for (bool valid : {true, false, true, true}) EXPECT_TRUE(validity.Append(valid).ok());
  std::vector<Buffer> buffers;
  buffers.push_back(validity.Finish());
  buffers.push_back(
      Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(offsets), sizeof offsets)));
  return Array(std::make_shared<ArrayData>(type, 4, std::move(buffers),
                                           std::vector<std::shared_ptr<const ArrayData>>{values.data()}, 1));
}

TEST(DecodeDictionariesTest, DecodesInsideAList) {
  const Array list = ListOfEncoded();
  ASSERT_TRUE(list.Validate().ok()) << list.Validate().ToString();
  const Array decoded = DecodeDictionaries(list).value();
  EXPECT_TRUE(TypeEquals(decoded.type(), DataType::List(DataType::Utf8())));
  ASSERT_TRUE(decoded.Validate().ok()) << decoded.Validate().ToString();
  EXPECT_EQ(decoded.null_count(), 1);
  EXPECT_TRUE(decoded.IsNull(1));
  // Rebuilt over the values the list spans: the leading item is gone.
  EXPECT_EQ(Strings(decoded.list_values()), (std::vector<std::string>{"b", "a", "c", "<null>"}));
  const int32_t* offsets = decoded.ValueOffsets();
  EXPECT_EQ(std::vector<int32_t>(offsets, offsets + 5), (std::vector<int32_t>{0, 2, 2, 2, 4}));

  // A slice of the list: [null, [], ["c", null]].
  const Array sliced = DecodeDictionaries(list.Slice(1, 3)).value();
  ASSERT_TRUE(sliced.Validate().ok()) << sliced.Validate().ToString();
  EXPECT_EQ(sliced.length(), 3);
  EXPECT_TRUE(sliced.IsNull(0));
  EXPECT_FALSE(sliced.IsNull(1));
  EXPECT_EQ(sliced.ValueOffsets()[1], sliced.ValueOffsets()[2]);
  EXPECT_EQ(Strings(sliced.list_values()), (std::vector<std::string>{"c", "<null>"}));
  EXPECT_TRUE(ArrayEquals(sliced, DecodeDictionaries(list).value().Slice(1, 3)));
}

TEST(DecodeDictionariesTest, DecodesInsideAStructAndItsSlices) {
  const Array names = Encoded(Values({"ann", "bob"}), {1, 0, 1, std::nullopt});
  Int64Builder ids_builder;
  for (int64_t v : {10, 20, 30, 40}) ASSERT_TRUE(ids_builder.Append(v).ok());
  const Array ids = ids_builder.Finish().value();
  const TypePtr type =
      DataType::Struct({Field("id", DataType::Int64(), false, {}, 1), Field("name", names.type(), true, {}, 2)});
  BitmapBuilder validity;
  for (bool valid : {true, true, false, true}) ASSERT_TRUE(validity.Append(valid).ok());
  const Array row(std::make_shared<ArrayData>(type, 4, std::vector<Buffer>{validity.Finish()},
                                              std::vector<std::shared_ptr<const ArrayData>>{ids.data(), names.data()},
                                              1));
  ASSERT_TRUE(row.Validate().ok());

  const Array decoded = DecodeDictionaries(row).value();
  ASSERT_TRUE(decoded.Validate().ok()) << decoded.Validate().ToString();
  EXPECT_TRUE(TypeEquals(decoded.type(), WithoutDictionaries(type)));
  EXPECT_EQ(decoded.type()->field(1).field_id, 2);
  EXPECT_TRUE(decoded.IsNull(2));
  EXPECT_EQ(Strings(decoded.field(1)), (std::vector<std::string>{"bob", "ann", "bob", "<null>"}));
  EXPECT_EQ(decoded.field(0).Values<int64_t>()[3], 40);
  // The child without a dictionary is shared, not copied.
  EXPECT_EQ(decoded.data()->children[0], ids.data());

  const Array sliced = DecodeDictionaries(row.Slice(1, 3)).value();
  ASSERT_TRUE(sliced.Validate().ok()) << sliced.Validate().ToString();
  EXPECT_EQ(sliced.length(), 3);
  EXPECT_FALSE(sliced.IsNull(0));
  EXPECT_TRUE(sliced.IsNull(1));
  EXPECT_EQ(Strings(sliced.field(1)), (std::vector<std::string>{"ann", "bob", "<null>"}));
  EXPECT_EQ(sliced.field(0).Values<int64_t>()[0], 20);
  EXPECT_TRUE(ArrayEquals(sliced, decoded.Slice(1, 3)));
}

TEST(DecodeDictionariesTest, DecodesMapKeysAndValues) {
  const TypePtr dict = DictionaryOf(DataType::Utf8());
  const TypePtr map_type = DataType::Map(dict, dict);
  MapBuilder builder(map_type, MakeBuilder(dict), MakeBuilder(dict));
  auto* keys = builder.key_builder()->As<DictionaryBuilder>();
  auto* items = builder.item_builder()->As<DictionaryBuilder>();
  ASSERT_TRUE(builder.StartMap().ok());
  ASSERT_TRUE(keys->Append("k1").ok());
  ASSERT_TRUE(items->Append("v1").ok());
  ASSERT_TRUE(keys->Append("k2").ok());
  ASSERT_TRUE(items->AppendNull().ok());
  ASSERT_TRUE(builder.StartMap().ok());
  ASSERT_TRUE(keys->Append("k1").ok());
  ASSERT_TRUE(items->Append("v1").ok());
  const Array map = builder.Finish().value();
  ASSERT_TRUE(map.Validate().ok()) << map.Validate().ToString();

  const Array decoded = DecodeDictionaries(map.Slice(1, 1)).value();
  ASSERT_TRUE(decoded.Validate().ok()) << decoded.Validate().ToString();
  EXPECT_TRUE(TypeEquals(decoded.type(), DataType::Map(DataType::Utf8(), DataType::Utf8())));
  const Array entries = decoded.list_values();
  EXPECT_EQ(Strings(entries.field(0)), (std::vector<std::string>{"k1"}));
  EXPECT_EQ(Strings(entries.field(1)), (std::vector<std::string>{"v1"}));
  const Array whole = DecodeDictionaries(map).value();
  EXPECT_EQ(Strings(whole.list_values().field(0)), (std::vector<std::string>{"k1", "k2", "k1"}));
  EXPECT_EQ(Strings(whole.list_values().field(1)), (std::vector<std::string>{"v1", "<null>", "v1"}));
}

TEST(DictionaryValidateTest, RejectsAMapKeyThatIsNullThroughItsDictionary) {
  const Array keys = Encoded(Values({"k1", std::nullopt}), {0, 1});  // both indices valid; value 1 is null
  const Array items = Values({"v1", "v2"});
  const TypePtr map_type = DataType::Map(keys.type(), DataType::Utf8());
  const TypePtr entries_type = map_type->field(0).type;
  auto entries =
      std::make_shared<const ArrayData>(entries_type, 2, std::vector<Buffer>{Buffer()},
                                        std::vector<std::shared_ptr<const ArrayData>>{keys.data(), items.data()}, 0);
  BufferBuilder offsets;
  for (const int32_t o : {0, 2}) ASSERT_TRUE(offsets.Append(&o, sizeof o).ok());
  const Array map(std::make_shared<const ArrayData>(map_type, 1, std::vector<Buffer>{Buffer(), offsets.Finish()},
                                                    std::vector<std::shared_ptr<const ArrayData>>{entries}, 0));
  const Status status = map.Validate();
  EXPECT_TRUE(status.IsCorrupt()) << status.ToString();
  EXPECT_NE(status.message().find("map key 1 is null through its dictionary"), std::string::npos) << status.ToString();
  // The same map without the null value is valid.
  const Array good_keys = Encoded(Values({"k1", "k2"}), {0, 1});
  auto good_entries = std::make_shared<const ArrayData>(
      DataType::Map(good_keys.type(), DataType::Utf8())->field(0).type, 2, std::vector<Buffer>{Buffer()},
      std::vector<std::shared_ptr<const ArrayData>>{good_keys.data(), items.data()}, 0);
  const Array good(std::make_shared<const ArrayData>(map_type, 1, map.data()->buffers,
                                                     std::vector<std::shared_ptr<const ArrayData>>{good_entries}, 0));
  EXPECT_TRUE(good.Validate().ok()) << good.Validate().ToString();
}

TEST(ForEachDecodedSliceTest, HandsOverDecodedSlicesInOrder) {
  const Array dict = Values({"a", "bb", "ccc"});
  std::vector<std::optional<int32_t>> indices;
  for (int i = 0; i < 10; ++i) indices.push_back(i % 4 == 3 ? std::nullopt : std::optional<int32_t>(i % 3));
  const RecordBatch batch = OneColumnBatch("s", Encoded(dict, indices));
  std::vector<int64_t> sizes;
  std::vector<std::string> values;
  const Status status = ForEachDecodedSlice(batch, 4, [&](const RecordBatch& slice) {
    EXPECT_TRUE(TypeEquals(slice.schema().field(0).type, DataType::Utf8()));
    sizes.push_back(slice.num_rows());
    for (const std::string& v : Strings(slice.column(0))) values.push_back(v);
    return Status::OK();
  });
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(sizes, (std::vector<int64_t>{4, 4, 2}));
  EXPECT_EQ(values, (std::vector<std::string>{"a", "bb", "ccc", "<null>", "bb", "ccc", "a", "<null>", "ccc", "a"}));
}

TEST(ForEachDecodedSliceTest, HalvesASliceThatCannotBeDecodedAndStopsAtTheRowThatCannot) {
  // Row 5's index lies outside the dictionary (an unvalidated array): the
  // slice of 10 rows is halved, rows 0-4 go through, and row 5 alone fails.
  std::vector<std::optional<int32_t>> indices(10, 0);
  indices[5] = 7;
  const RecordBatch batch = OneColumnBatch("s", Encoded(Values({"a"}), indices));
  std::vector<int64_t> sizes;
  const Status status = ForEachDecodedSlice(batch, 10, [&](const RecordBatch& slice) {
    sizes.push_back(slice.num_rows());
    return Status::OK();
  });
  EXPECT_TRUE(status.IsInvalidArgument()) << status.ToString();
  EXPECT_NE(status.message().find("index 7"), std::string::npos) << status.ToString();
  EXPECT_EQ(sizes, (std::vector<int64_t>{5}));
  // An error of the writer ends the walk.
  int calls = 0;
  const Status stopped = ForEachDecodedSlice(
      OneColumnBatch("s", Encoded(Values({"a"}), {0, 0, 0})), 1,
      [&](const RecordBatch&) { return ++calls == 2 ? Status::IOError("disk full") : Status::OK(); });
  EXPECT_TRUE(stopped.IsIOError());
  EXPECT_EQ(calls, 2);
}

// ---- Null arrays ----

TEST(DictionaryNullArrayTest, HasNullIndicesAndAnEmptyDictionary) {
  const Array nulls = MakeArrayOfNull(DictionaryOf(DataType::Binary()), 3).value();
  ASSERT_TRUE(nulls.Validate().ok()) << nulls.Validate().ToString();
  EXPECT_EQ(nulls.length(), 3);
  EXPECT_EQ(nulls.null_count(), 3);
  EXPECT_EQ(nulls.dictionary().length(), 0);
  EXPECT_TRUE(TypeEquals(nulls.dictionary().type(), DataType::Binary()));
  EXPECT_EQ(DecodedStrings(nulls), (std::vector<std::string>{"<null>", "<null>", "<null>"}));

  const Array in_struct = MakeArrayOfNull(DataType::Struct({Field("s", DictionaryOf(DataType::Utf8()))}), 2).value();
  EXPECT_TRUE(in_struct.Validate().ok());
  EXPECT_EQ(in_struct.field(0).dictionary().length(), 0);
}

// ---- Take, filter, concatenate ----

TEST(DictionaryTakeTest, GathersIndicesAndSharesTheDictionary) {
  const Array dictionary = Values({"a", "b", "c"});
  const Array array = Encoded(dictionary, {2, std::nullopt, 0, 1});
  const int64_t order[] = {3, 1, 0, 0};
  const Array taken = TakeArray(array, order).value();
  ASSERT_TRUE(taken.Validate().ok());
  EXPECT_EQ(taken.data()->dictionary, dictionary.data());
  EXPECT_TRUE(taken.IsNull(1));
  EXPECT_EQ(taken.DictionaryIndices()[0], 1);
  EXPECT_EQ(taken.DictionaryIndices()[2], 2);
  EXPECT_EQ(taken.DictionaryIndices()[3], 2);
  EXPECT_EQ(DecodedStrings(taken), (std::vector<std::string>{"b", "<null>", "c", "c"}));

  // From a slice, and inside a list.
  const int64_t one[] = {1};
  EXPECT_EQ(DecodedStrings(TakeArray(array.Slice(2, 2), one).value()), (std::vector<std::string>{"b"}));
  const Array list = ListOfEncoded();
  const int64_t rows[] = {3, 0};
  const Array taken_list = TakeArray(list, rows).value();
  ASSERT_TRUE(taken_list.Validate().ok()) << taken_list.Validate().ToString();
  EXPECT_EQ(taken_list.list_values().data()->dictionary, list.list_values().data()->dictionary);
  EXPECT_EQ(DecodedStrings(taken_list.list_values()), (std::vector<std::string>{"c", "<null>", "b", "a"}));
}

TEST(DictionaryTakeTest, FiltersRowsOfADictionaryColumn) {
  const Array dictionary = Values({"x", "y"});
  const RecordBatch batch = OneColumnBatch("c", Encoded(dictionary, {0, 1, 1, std::nullopt}));
  const uint8_t keep[] = {0, 1, 0, 1};
  const RecordBatch filtered = FilterRows(batch, keep).value();
  EXPECT_EQ(filtered.num_rows(), 2);
  EXPECT_EQ(filtered.column(0).data()->dictionary, dictionary.data());
  EXPECT_EQ(DecodedStrings(filtered.column(0)), (std::vector<std::string>{"y", "<null>"}));
}

TEST(DictionaryConcatenateTest, SharesOneDictionaryAndConcatenatesIndices) {
  const Array dictionary = Values({"a", "b"});
  const RecordBatch batches[] = {OneColumnBatch("c", Encoded(dictionary, {1, 0})),
                                 OneColumnBatch("c", Encoded(dictionary, {std::nullopt, 1}))};
  const RecordBatch all = ConcatenateRows(batches).value();
  const Array column = all.column(0);
  ASSERT_TRUE(column.Validate().ok());
  EXPECT_EQ(column.data()->dictionary, dictionary.data());
  EXPECT_EQ(IndicesOf(column)[0], 1);
  EXPECT_EQ(IndicesOf(column)[1], 0);
  EXPECT_EQ(IndicesOf(column)[3], 1);
  EXPECT_EQ(DecodedStrings(column), (std::vector<std::string>{"b", "a", "<null>", "b"}));
}

TEST(DictionaryConcatenateTest, ConcatenatesDifferentDictionariesAndShiftsIndices) {
  const Array first = Values({"a", "b"});
  const Array second = Values({"c", "a", std::nullopt});
  const RecordBatch batches[] = {OneColumnBatch("c", Encoded(first, {1, 0})),
                                 OneColumnBatch("c", Encoded(second, {0, 1, std::nullopt, 2})),
                                 OneColumnBatch("c", Encoded(first, {0}))};
  const RecordBatch all = ConcatenateRows(batches).value();
  const Array column = all.column(0);
  ASSERT_TRUE(column.Validate().ok()) << column.Validate().ToString();
  EXPECT_EQ(Strings(column.dictionary()), (std::vector<std::string>{"a", "b", "c", "a", "<null>"}));
  EXPECT_TRUE(column.IsNull(4));
  EXPECT_EQ(IndicesOf(column)[0], 1);
  EXPECT_EQ(IndicesOf(column)[1], 0);
  EXPECT_EQ(IndicesOf(column)[2], 2);
  EXPECT_EQ(IndicesOf(column)[3], 3);
  EXPECT_EQ(IndicesOf(column)[5], 4);
  EXPECT_EQ(IndicesOf(column)[6], 0);
  EXPECT_EQ(DecodedStrings(column), (std::vector<std::string>{"b", "a", "c", "a", "<null>", "<null>", "a"}));
  EXPECT_TRUE(
      ArrayEquals(DecodeDictionaries(column).value(), Values({"b", "a", "c", "a", std::nullopt, std::nullopt, "a"})));
}

// ---- The builder ----

TEST(DictionaryBuilderTest, AppendStoresEachDistinctValueOnce) {
  const TypePtr type = DictionaryOf(DataType::Utf8());
  auto builder = MakeBuilder(type);
  auto* dict = builder->As<DictionaryBuilder>();
  ASSERT_NE(dict, nullptr);
  ASSERT_TRUE(dict->Append("x").ok());
  ASSERT_TRUE(dict->Append("y").ok());
  ASSERT_TRUE(dict->AppendNull().ok());
  ASSERT_TRUE(dict->Append("x").ok());
  const Array array = builder->Finish().value();
  ASSERT_TRUE(array.Validate().ok());
  EXPECT_EQ(Strings(array.dictionary()), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(IndicesOf(array)[0], 0);
  EXPECT_EQ(IndicesOf(array)[1], 1);
  EXPECT_EQ(IndicesOf(array)[3], 0);
  EXPECT_EQ(array.null_count(), 1);

  // Reused after Finish: starts afresh; nothing but nulls gives an empty dictionary.
  ASSERT_TRUE(builder->AppendNulls(2).ok());
  const Array nulls = builder->Finish().value();
  ASSERT_TRUE(nulls.Validate().ok());
  EXPECT_EQ(nulls.dictionary().length(), 0);
  EXPECT_EQ(nulls.null_count(), 2);
}

TEST(DictionaryBuilderTest, MixesSourceElementsAndAppendedValues) {
  const TypePtr type = DictionaryOf(DataType::Utf8());
  DictionaryBuilder builder(type);
  const Array source = Encoded(Values({"p", "q"}), {1, 0});
  ASSERT_TRUE(builder.AppendFrom(source, 0).ok());
  ASSERT_TRUE(builder.Append("r").ok());
  ASSERT_TRUE(builder.AppendFrom(source, 1).ok());
  ASSERT_TRUE(builder.Append("r").ok());
  const Array array = builder.Finish().value();
  ASSERT_TRUE(array.Validate().ok());
  EXPECT_EQ(Strings(array.dictionary()), (std::vector<std::string>{"p", "q", "r"}));
  EXPECT_EQ(IndicesOf(array), (std::vector<int32_t>{1, 2, 0, 2}));

  EXPECT_TRUE(builder.AppendFrom(Values({"a"}), 0).IsInvalidArgument());
  EXPECT_TRUE(builder.AppendFrom(Encoded(Values({"a"}, DataType::Binary()), {0}), 0).IsInvalidArgument());
}

// ---- Printing ----

RecordBatch PrintedBatch() {
  Int64Builder ids;
  for (int64_t v : {1, 2, 3, 4}) EXPECT_TRUE(ids.Append(v).ok());
  const Array colors = Encoded(Values({"red", "blue", std::nullopt}), {1, std::nullopt, 2, 0});
  auto schema = std::make_shared<const Schema>(
      std::vector<Field>{Field("id", DataType::Int64(), false), Field("color", colors.type())});
  return RecordBatch::Make(std::move(schema), {ids.Finish().value(), colors}).value();
}

std::string Printed(OutputFormat format) {
  const RecordBatch batch = PrintedBatch();
  PrintOptions options;
  options.format = format;
  Result<std::string> text = FormatBatches(batch.schema_ptr(), std::span<const RecordBatch>(&batch, 1), options);
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  return text.value_or("");
}

TEST(DictionaryPrintTest, PrintsElementsAsTheirValues) {
  EXPECT_EQ(Printed(OutputFormat::kTable),
            "+----+-------+\n"
            "| id | color |\n"
            "+----+-------+\n"
            "|  1 | blue  |\n"
            "|  2 | NULL  |\n"
            "|  3 | NULL  |\n"
            "|  4 | red   |\n"
            "+----+-------+\n"
            "4 rows\n");
  EXPECT_EQ(Printed(OutputFormat::kCsv), "id,color\n1,blue\n2,\n3,\n4,red\n");
  EXPECT_EQ(Printed(OutputFormat::kJsonl),
            "{\"id\":1,\"color\":\"blue\"}\n{\"id\":2,\"color\":null}\n{\"id\":3,\"color\":null}\n"
            "{\"id\":4,\"color\":\"red\"}\n");
}

TEST(DictionaryPrintTest, PrintsBinaryValuesAndDictionariesInsideLists) {
  const Array bytes = Encoded(Values({std::string("\x01\xff", 2)}, DataType::Binary()), {0});
  const RecordBatch binary = OneColumnBatch("b", bytes);
  PrintOptions csv;
  csv.format = OutputFormat::kCsv;
  EXPECT_EQ(FormatBatches(binary.schema_ptr(), std::span<const RecordBatch>(&binary, 1), csv).value(), "b\n01ff\n");

  const RecordBatch lists = OneColumnBatch("l", ListOfEncoded());
  PrintOptions json;
  json.format = OutputFormat::kJsonl;
  EXPECT_EQ(FormatBatches(lists.schema_ptr(), std::span<const RecordBatch>(&lists, 1), json).value(),
            "{\"l\":[\"b\",\"a\"]}\n{\"l\":null}\n{\"l\":[]}\n{\"l\":[\"c\",null]}\n");
}

// ---- Arrow C Data Interface ----

TEST(DictionaryArrowTest, ExportsIndicesWithTheValuesAsTheDictionary) {
  const Array array = Encoded(Values({"a", "b"}), {1, std::nullopt, 0});
  ArrowSchema c_schema;
  ExportField(Field("f", array.type(), true, {}, 5), &c_schema);
  EXPECT_STREQ(c_schema.format, "i");
  ASSERT_NE(c_schema.dictionary, nullptr);
  EXPECT_STREQ(c_schema.dictionary->format, "u");
  EXPECT_EQ(c_schema.flags & ARROW_FLAG_DICTIONARY_ORDERED, 0);
  EXPECT_EQ(c_schema.n_children, 0);

  ArrowArray c_array;
  ExportArray(array, &c_array);
  EXPECT_EQ(c_array.n_buffers, 2);
  EXPECT_EQ(c_array.null_count, 1);
  ASSERT_NE(c_array.dictionary, nullptr);
  EXPECT_EQ(c_array.dictionary->length, 2);
  EXPECT_EQ(c_array.dictionary->n_buffers, 3);
  EXPECT_EQ(static_cast<const int32_t*>(c_array.buffers[1])[0], 1);

  Result<Field> field = ImportField(&c_schema);
  ASSERT_TRUE(field.ok()) << field.status().ToString();
  EXPECT_TRUE(TypeEquals(field->type, array.type()));
  EXPECT_EQ(field->field_id, 5);
  Result<Array> imported = ImportArray(&c_array, field->type);
  ASSERT_TRUE(imported.ok()) << imported.status().ToString();
  EXPECT_TRUE(ArrayEquals(*imported, array));
  EXPECT_EQ(imported->DictionaryIndices()[0], 1);
  EXPECT_EQ(imported->DictionaryIndices()[2], 0);
  EXPECT_TRUE(imported->IsNull(1));
  EXPECT_EQ(DecodedStrings(*imported), (std::vector<std::string>{"b", "<null>", "a"}));
}

TEST(DictionaryArrowTest, RoundTripsABatchWithSlicedAndNestedDictionaryColumns) {
  const Array names = Encoded(Values({"x", std::nullopt, "z"}, DataType::Binary()), {2, 0, 1, std::nullopt, 2});
  const Array lists = ListOfEncoded();
  auto schema =
      std::make_shared<const Schema>(std::vector<Field>{Field("names", names.type()), Field("lists", lists.type())});
  const RecordBatch batch = RecordBatch::Make(schema, {names.Slice(1, 4), lists}).value();
  ArrowArray c_array;
  ArrowSchema c_schema;
  ExportRecordBatch(batch, &c_array, &c_schema);
  Result<RecordBatch> imported = ImportRecordBatch(&c_array, &c_schema);
  ASSERT_TRUE(imported.ok()) << imported.status().ToString();
  EXPECT_TRUE(imported->schema().Equals(batch.schema()));
  EXPECT_TRUE(imported->Equals(batch));
  EXPECT_EQ(DecodedStrings(imported->column(0)), (std::vector<std::string>{"x", "<null>", "<null>", "z"}));
}

TEST(DictionaryArrowTest, RejectsIndicesOtherThanInt32) {
  ArrowSchema c_schema;
  ExportType(*DictionaryOf(DataType::Utf8()), &c_schema);
  static const char kInt8[] = "c";
  c_schema.format = kInt8;  // the private data keeps the original string alive
  Result<TypePtr> type = ImportType(&c_schema);
  EXPECT_TRUE(type.status().IsUnsupported());
  EXPECT_EQ(type.status().message(),
            "ArrowSchema: dictionary with Arrow index format 'c': floe reads only int32 ('i') indices");
  EXPECT_EQ(c_schema.release, nullptr);

  ExportType(*DictionaryOf(DataType::Utf8()), &c_schema);
  static const char kFloat[] = "g";
  c_schema.format = kFloat;
  EXPECT_TRUE(ImportType(&c_schema).status().IsInvalidArgument());
}

TEST(DictionaryArrowTest, RejectsValuesOtherThanStringOrBinary) {
  ArrowSchema c_schema;
  ExportField(Field("n", DataType::Int32()), &c_schema);
  ArrowSchema values;
  ExportType(*DataType::Int64(), &values);
  c_schema.dictionary = &values;  // released with its parent
  Result<Field> field = ImportField(&c_schema);
  EXPECT_TRUE(field.status().IsUnsupported());
  EXPECT_EQ(field.status().message(),
            "ArrowSchema: field 'n': dictionary of int64 values: floe reads only string and binary dictionaries");
  EXPECT_EQ(values.release, nullptr);
}

TEST(DictionaryArrowTest, ValidatesImportedIndices) {
  // Exported from an array whose index 1 is out of range: import validates it.
  const Array bad = Encoded(Values({"a"}), {0, 3});
  ArrowArray c_array;
  ExportArray(bad, &c_array);
  Result<Array> imported = ImportArray(&c_array, bad.type());
  EXPECT_TRUE(imported.status().IsCorrupt());
  EXPECT_EQ(imported.status().message(),
            "ArrowArray: array of type dictionary<string>: element 1 has index 3, outside the dictionary of 1 values");

  // A dictionary type whose array comes without a dictionary.
  ArrowArray plain;
  ExportArray(Encoded(Values({"a"}), {0}), &plain);
  plain.dictionary->release(plain.dictionary);
  plain.dictionary = nullptr;
  Result<Array> without = ImportArray(&plain, bad.type());
  EXPECT_TRUE(without.status().IsInvalidArgument());
  EXPECT_EQ(without.status().message(), "ArrowArray of type dictionary<string>: dictionary is null");
  EXPECT_EQ(plain.release, nullptr);
}

}  // namespace dictionary_array_test
}  // namespace floe
