#include "floe/columnar/arrow_c_data.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "floe/columnar/builder.h"

namespace floe {
namespace {

// ---- Arrays to round-trip ----

Array Int32s(const std::vector<std::optional<int32_t>>& values) {
  Int32Builder builder;
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return builder.Finish().value();
}

Array StringColumn(const std::vector<std::optional<std::string>>& values, TypePtr type = DataType::Utf8()) {
  BinaryBuilder builder(std::move(type));
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return builder.Finish().value();
}

template <typename T>
Array Primitive(TypePtr type, const std::vector<std::optional<T>>& values) {
  PrimitiveBuilder<T> builder(std::move(type));
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return builder.Finish().value();
}

// Every type, with nulls; nested ones hold nested nulls too.
std::vector<Array> OneArrayOfEveryType() {
  std::vector<Array> arrays;
  NullBuilder nulls;
  EXPECT_TRUE(nulls.AppendNulls(3).ok());
  arrays.push_back(nulls.Finish().value());
  BoolBuilder bools;
  EXPECT_TRUE(bools.Append(true).ok());
  EXPECT_TRUE(bools.AppendNull().ok());
  EXPECT_TRUE(bools.Append(false).ok());
  arrays.push_back(bools.Finish().value());
  arrays.push_back(Primitive<int8_t>(DataType::Int8(), {-128, std::nullopt, 127}));
  arrays.push_back(Primitive<int16_t>(DataType::Int16(), {-1, std::nullopt}));
  arrays.push_back(Int32s({1, std::nullopt, 3}));
  arrays.push_back(Primitive<int64_t>(DataType::Int64(), {std::numeric_limits<int64_t>::min(), std::nullopt}));
  arrays.push_back(Primitive<uint8_t>(DataType::UInt8(), {255, std::nullopt}));
  arrays.push_back(Primitive<uint16_t>(DataType::UInt16(), {65535}));
  arrays.push_back(Primitive<uint32_t>(DataType::UInt32(), {std::nullopt, 4000000000u}));
  arrays.push_back(Primitive<uint64_t>(DataType::UInt64(), {std::numeric_limits<uint64_t>::max()}));
  arrays.push_back(Primitive<float>(DataType::Float32(), {1.5f, std::nullopt, NAN}));
  arrays.push_back(Primitive<double>(DataType::Float64(), {-0.0, INFINITY, std::nullopt}));
  arrays.push_back(Primitive<Decimal128Value>(DataType::Decimal128(38, 4).value(), {-5, std::nullopt, 12345}));
  arrays.push_back(Primitive<int32_t>(DataType::Date32(), {-719528, 0, std::nullopt}));
  arrays.push_back(Primitive<int64_t>(DataType::Time64(TimeUnit::kMicro), {0, std::nullopt, 86'399'999'999}));
  arrays.push_back(Primitive<int64_t>(DataType::Time64(TimeUnit::kNano), {1}));
  arrays.push_back(Primitive<int64_t>(DataType::Timestamp(TimeUnit::kMicro), {-1, std::nullopt}));
  arrays.push_back(Primitive<int64_t>(DataType::Timestamp(TimeUnit::kNano, "UTC"), {1'700'000'000'000'000'000}));
  arrays.push_back(StringColumn({"a", std::nullopt, "", "héllo"}));
  arrays.push_back(StringColumn({std::string("\0\xff", 2), std::nullopt}, DataType::Binary()));
  FixedSizeBinaryBuilder fixed(DataType::FixedSizeBinary(2).value());
  EXPECT_TRUE(fixed.Append("ab").ok());
  EXPECT_TRUE(fixed.AppendNull().ok());
  arrays.push_back(fixed.Finish().value());
  FixedSizeBinaryBuilder uuids(DataType::Uuid());
  EXPECT_TRUE(uuids.AppendNull().ok());
  EXPECT_TRUE(uuids.Append("\x12\x34\x56\x78\x9a\xbc\xde\xf0\x12\x34\x56\x78\x9a\xbc\xde\xf0").ok());
  arrays.push_back(uuids.Finish().value());

  ListBuilder lists(DataType::List(DataType::Utf8()), std::make_unique<StringBuilder>());
  auto* items = lists.value_builder()->As<StringBuilder>();
  EXPECT_TRUE(lists.StartList().ok());
  EXPECT_TRUE(items->Append("x").ok());
  EXPECT_TRUE(items->AppendNull().ok());
  EXPECT_TRUE(lists.AppendNull().ok());
  EXPECT_TRUE(lists.StartList().ok());
  arrays.push_back(lists.Finish().value());

  auto map_builder = MakeBuilder(DataType::Map(DataType::Utf8(), DataType::Int32(), /*keys_sorted=*/true));
  auto* map = map_builder->As<MapBuilder>();
  EXPECT_TRUE(map->StartMap().ok());
  EXPECT_TRUE(map->key_builder()->As<StringBuilder>()->Append("k").ok());
  EXPECT_TRUE(map->item_builder()->As<Int32Builder>()->AppendNull().ok());
  EXPECT_TRUE(map->AppendNull().ok());
  arrays.push_back(map->Finish().value());

  TypePtr row = DataType::Struct({Field("id", DataType::Int64(), false, {}, 1),
                                  Field("tags", DataType::List(DataType::Int32()), true, {{"k", "v"}}, 2)});
  auto struct_builder = MakeBuilder(row);
  auto* rows = struct_builder->As<StructBuilder>();
  EXPECT_TRUE(rows->AppendRow().ok());
  EXPECT_TRUE(rows->field_builder(0)->As<Int64Builder>()->Append(7).ok());
  auto* tags = rows->field_builder(1)->As<ListBuilder>();
  EXPECT_TRUE(tags->StartList().ok());
  EXPECT_TRUE(tags->value_builder()->As<Int32Builder>()->Append(3).ok());
  EXPECT_TRUE(rows->AppendNull().ok());
  arrays.push_back(rows->Finish().value());
  return arrays;
}

Array RoundTrip(const Array& array) {
  ArrowArray c_array;
  ArrowSchema c_schema;
  ExportArray(array, &c_array);
  ExportType(*array.type(), &c_schema);
  Result<Array> imported = ImportArray(&c_array, &c_schema);
  EXPECT_TRUE(imported.ok()) << array.type()->ToString() << ": " << imported.status().ToString();
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(c_schema.release, nullptr);
  return imported.ok() ? *imported : array;
}

TEST(ArrowCDataTest, RoundTripsEveryType) {
  for (const Array& array : OneArrayOfEveryType()) {
    Array back = RoundTrip(array);
    EXPECT_TRUE(TypeEquals(back.type(), array.type())) << back.type()->ToString();
    EXPECT_TRUE(ArrayEquals(back, array)) << array.type()->ToString();
    EXPECT_EQ(back.null_count(), array.null_count()) << array.type()->ToString();
  }
}

TEST(ArrowCDataTest, RoundTripsSlicesAtTheirOffset) {
  for (const Array& array : OneArrayOfEveryType()) {
    if (array.length() < 2) continue;
    Array slice = array.Slice(1, array.length() - 1);
    ArrowArray c_array;
    ExportArray(slice, &c_array);
    EXPECT_EQ(c_array.offset, 1) << array.type()->ToString();
    EXPECT_EQ(c_array.length, array.length() - 1);
    Array back = ImportArray(&c_array, array.type()).value();
    EXPECT_TRUE(ArrayEquals(back, slice)) << array.type()->ToString();
    EXPECT_TRUE(ArrayEquals(back.Slice(0, 1), array.Slice(1, 1))) << array.type()->ToString();
  }
}

TEST(ArrowCDataTest, ImportSharesTheExportedBuffers) {
  Array array = Int32s({1, 2, 3});
  ArrowArray c_array;
  ExportArray(array, &c_array);
  EXPECT_EQ(c_array.buffers[1], array.data()->buffers[1].data());
  Array back = ImportArray(&c_array, array.type()).value();
  EXPECT_EQ(back.Values<int32_t>(), array.Values<int32_t>());
}

TEST(ArrowCDataTest, ExportsTheLayoutTheSpecDescribes) {
  Array strings = StringColumn({"ab", std::nullopt, "c"});
  ArrowArray c;
  ExportArray(strings, &c);
  EXPECT_EQ(c.length, 3);
  EXPECT_EQ(c.null_count, 1);
  EXPECT_EQ(c.offset, 0);
  ASSERT_EQ(c.n_buffers, 3);
  EXPECT_EQ(c.n_children, 0);
  EXPECT_EQ(c.dictionary, nullptr);
  EXPECT_EQ(static_cast<const uint8_t*>(c.buffers[0])[0], 0b101);
  const auto* offsets = static_cast<const int32_t*>(c.buffers[1]);
  EXPECT_EQ(std::vector<int32_t>(offsets, offsets + 4), (std::vector<int32_t>{0, 2, 2, 3}));
  EXPECT_EQ(std::string(static_cast<const char*>(c.buffers[2]), 3), "abc");
  c.release(&c);
  EXPECT_EQ(c.release, nullptr);

  Array no_nulls = Int32s({1});
  ExportArray(no_nulls, &c);
  EXPECT_EQ(c.null_count, 0);
  EXPECT_EQ(c.buffers[0], nullptr);  // spec: may be null when null_count is 0
  c.release(&c);

  NullBuilder nulls;
  ASSERT_TRUE(nulls.AppendNulls(2).ok());
  ExportArray(nulls.Finish().value(), &c);
  EXPECT_EQ(c.n_buffers, 0);
  EXPECT_EQ(c.null_count, 2);
  c.release(&c);

  BinaryBuilder empty;
  ASSERT_TRUE(empty.Append("").ok());
  ExportArray(empty.Finish().value(), &c);
  EXPECT_NE(c.buffers[2], nullptr);  // an empty data buffer still has a valid address
  c.release(&c);
}

TEST(ArrowCDataTest, ExportsFormatStringsNamesAndFlags) {
  Field field("m", DataType::Map(DataType::Utf8(), DataType::Int64(), /*keys_sorted=*/true), /*nullable=*/false);
  ArrowSchema c;
  ExportField(field, &c);
  EXPECT_STREQ(c.format, "+m");
  EXPECT_STREQ(c.name, "m");
  EXPECT_EQ(c.flags, ARROW_FLAG_MAP_KEYS_SORTED);
  EXPECT_EQ(c.metadata, nullptr);
  ASSERT_EQ(c.n_children, 1);
  const ArrowSchema& entries = *c.children[0];
  EXPECT_STREQ(entries.format, "+s");
  EXPECT_STREQ(entries.name, "entries");
  EXPECT_EQ(entries.flags, 0);
  ASSERT_EQ(entries.n_children, 2);
  EXPECT_STREQ(entries.children[0]->format, "u");
  EXPECT_STREQ(entries.children[0]->name, "key");
  EXPECT_EQ(entries.children[0]->flags, 0);
  EXPECT_STREQ(entries.children[1]->format, "l");
  EXPECT_STREQ(entries.children[1]->name, "value");
  EXPECT_EQ(entries.children[1]->flags, ARROW_FLAG_NULLABLE);
  c.release(&c);
  EXPECT_EQ(c.release, nullptr);

  ExportType(*DataType::Timestamp(TimeUnit::kMicro, "UTC"), &c);
  EXPECT_STREQ(c.format, "tsu:UTC");
  EXPECT_STREQ(c.name, "");
  EXPECT_EQ(c.flags, ARROW_FLAG_NULLABLE);
  c.release(&c);
}

// The spec's metadata layout, decoded here independently of the exporter.
std::vector<std::pair<std::string, std::string>> DecodeMetadata(const char* p) {
  std::vector<std::pair<std::string, std::string>> out;
  if (p == nullptr) return out;
  auto read_int = [&p] {
    int32_t v;
    std::memcpy(&v, p, 4);
    p += 4;
    return v;
  };
  for (int32_t n = read_int(); n > 0; --n) {
    const int32_t key_length = read_int();
    std::string key(p, static_cast<size_t>(key_length));
    p += key_length;
    const int32_t value_length = read_int();
    std::string value(p, static_cast<size_t>(value_length));
    p += value_length;
    out.emplace_back(key, value);
  }
  return out;
}

TEST(ArrowCDataTest, ExportsFieldIdAndUuidExtensionAsMetadata) {
  Field field("id", DataType::Uuid(), false, {{"comment", "primary"}}, 42);
  ArrowSchema c;
  ExportField(field, &c);
  EXPECT_STREQ(c.format, "w:16");
  EXPECT_EQ(DecodeMetadata(c.metadata), (std::vector<std::pair<std::string, std::string>>{
                                            {"comment", "primary"},
                                            {"PARQUET:field_id", "42"},
                                            {"ARROW:extension:name", "arrow.uuid"},
                                            {"ARROW:extension:metadata", ""}}));
  Field back = ImportField(&c).value();
  EXPECT_EQ(c.release, nullptr);
  EXPECT_EQ(back, field);
}

TEST(ArrowCDataTest, JsonTextFieldsTravelAsArrowsJsonExtension) {
  const Field field = MarkJsonText(Field("doc", DataType::Utf8(), true, {{"comment", "raw"}}, 3));
  ArrowSchema c;
  ExportField(field, &c);
  EXPECT_STREQ(c.format, "u");
  EXPECT_EQ(DecodeMetadata(c.metadata),
            (std::vector<std::pair<std::string, std::string>>{{"comment", "raw"},
                                                              {"ARROW:extension:name", "arrow.json"},
                                                              {"ARROW:extension:metadata", ""},
                                                              {"PARQUET:field_id", "3"}}));
  Field back = ImportField(&c).value();
  EXPECT_TRUE(IsJsonTextField(back));
  EXPECT_EQ(back, field);
}

TEST(ArrowCDataTest, RoundTripsSchemasWithMetadataAndFieldIds) {
  Schema schema({Field("id", DataType::Int64(), false, {}, 1),
                 Field("name", DataType::Utf8(), true, {{"doc", "the name"}, {"", "empty key"}}, 2),
                 Field("point", DataType::Struct({Field("x", DataType::Float64(), false, {}, 4),
                                                  Field("y", DataType::Float64(), true, {}, 5)}),
                       true, {}, 3),
                 Field("tags", DataType::Map(Field("key", DataType::Utf8(), false, {}, 7),
                                             Field("value", DataType::List(Field("element", DataType::Date32(),
                                                                                 true, {}, 9)),
                                                   true, {}, 8))
                                   .value(),
                       true, {}, 6),
                 Field("uuid", DataType::Uuid(), true, {}, std::nullopt)},
                {{"iceberg.schema", "{\"type\":\"struct\"}"}, {"writer", "floe"}});
  ArrowSchema c;
  ExportSchema(schema, &c);
  EXPECT_STREQ(c.format, "+s");
  EXPECT_EQ(c.n_children, 5);
  EXPECT_EQ(DecodeMetadata(c.metadata), schema.metadata);
  Schema back = ImportSchema(&c).value();
  EXPECT_EQ(c.release, nullptr);
  EXPECT_EQ(back, schema);
  EXPECT_EQ(back.field(3).type->value_field().type->item_field().field_id, 9);
}

TEST(ArrowCDataTest, ExportedChildrenCanBeMovedOutAndReleasedSeparately) {
  const int64_t before = Buffer::LiveAllocatedBytes();
  {
    Schema schema({Field("a", DataType::Int32()), Field("b", DataType::Utf8())});
    RecordBatch batch =
        RecordBatch::Make(std::make_shared<Schema>(schema), {Int32s({1, 2}), StringColumn({"x", "y"})}).value();
    ArrowArray c_array;
    ArrowSchema c_schema;
    ExportRecordBatch(batch, &c_array, &c_schema);
    // spec: a consumer may move a child out, then must mark the original released.
    ArrowArray moved = *c_array.children[1];
    c_array.children[1]->release = nullptr;
    ArrowSchema moved_schema = *c_schema.children[0];
    c_schema.children[0]->release = nullptr;
    c_array.release(&c_array);
    c_schema.release(&c_schema);
    batch = RecordBatch::Make(std::make_shared<Schema>(), {}).value();
    Array b = ImportArray(&moved, DataType::Utf8()).value();
    EXPECT_EQ(b.GetString(1), "y");
    EXPECT_EQ(ImportField(&moved_schema).value().name, "a");
  }
  EXPECT_EQ(Buffer::LiveAllocatedBytes(), before);
}

TEST(ArrowCDataTest, ExportFreesItsMemoryOnRelease) {
  const int64_t before = Buffer::LiveAllocatedBytes();
  ArrowArray c_array;
  {
    std::vector<Array> arrays = OneArrayOfEveryType();
    ExportArray(arrays.back(), &c_array);
  }
  EXPECT_GT(Buffer::LiveAllocatedBytes(), before);  // the export alone keeps the buffers
  c_array.release(&c_array);
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(Buffer::LiveAllocatedBytes(), before);
}

TEST(ArrowCDataTest, ConsumingAnExportThroughImportFreesItsMemory) {
  const int64_t before = Buffer::LiveAllocatedBytes();
  {
    std::vector<Array> imported;
    for (const Array& array : OneArrayOfEveryType()) imported.push_back(RoundTrip(array));
    EXPECT_GT(Buffer::LiveAllocatedBytes(), before);
  }
  EXPECT_EQ(Buffer::LiveAllocatedBytes(), before);
}

// ---- Record batches and streams ----

RecordBatch SampleBatch(int32_t first) {
  auto schema = std::make_shared<Schema>(
      std::vector<Field>{Field("id", DataType::Int32(), false, {}, 1), Field("name", DataType::Utf8(), true, {}, 2)},
      KeyValueMetadata{{"k", "v"}});
  return RecordBatch::Make(schema, {Int32s({first, first + 1, first + 2}), StringColumn({"a", std::nullopt, "c"})}).value();
}

TEST(ArrowCDataTest, RoundTripsRecordBatches) {
  RecordBatch batch = SampleBatch(1).Slice(1, 2);
  ArrowArray c_array;
  ArrowSchema c_schema;
  ExportRecordBatch(batch, &c_array, &c_schema);
  EXPECT_EQ(c_array.length, 2);
  EXPECT_EQ(c_array.n_buffers, 1);
  EXPECT_EQ(c_array.buffers[0], nullptr);
  EXPECT_EQ(c_array.n_children, 2);
  EXPECT_EQ(c_array.children[0]->offset, 1);
  RecordBatch back = ImportRecordBatch(&c_array, &c_schema).value();
  EXPECT_TRUE(back.Equals(batch));
  EXPECT_EQ(back.schema().field(1).field_id, 2);
  EXPECT_EQ(back.column_by_name("name")->GetString(1), "c");
}

TEST(ArrowCDataTest, RoundTripsStreams) {
  std::vector<RecordBatch> batches = {SampleBatch(1), SampleBatch(10), SampleBatch(100).Slice(2, 1)};
  auto reader = VectorRecordBatchReader::Make(batches[0].schema_ptr(), batches).value();
  ArrowArrayStream stream;
  ExportRecordBatchReader(std::move(reader), &stream);
  auto imported = ImportArrayStream(&stream).value();
  EXPECT_EQ(stream.release, nullptr);
  EXPECT_EQ(*imported->schema(), batches[0].schema());
  std::vector<RecordBatch> back = imported->ReadAll().value();
  ASSERT_EQ(back.size(), 3u);
  for (size_t i = 0; i < back.size(); ++i) EXPECT_TRUE(back[i].Equals(batches[i])) << i;
  EXPECT_FALSE(imported->Next().value().has_value());  // stays at the end
}

class FailingReader final : public RecordBatchReader {
 public:
  FailingReader() : schema_(SampleBatch(0).schema_ptr()) {}
  const std::shared_ptr<const Schema>& schema() const override { return schema_; }
  Result<std::optional<RecordBatch>> Next() override {
    if (calls_++ == 0) return std::optional<RecordBatch>(SampleBatch(0));
    return Status::Corrupt("page 3 of 'f.parquet' is truncated");
  }

 private:
  std::shared_ptr<const Schema> schema_;
  int calls_ = 0;
};

TEST(ArrowCDataTest, StreamsCarryProducerErrors) {
  ArrowArrayStream stream;
  ExportRecordBatchReader(std::make_unique<FailingReader>(), &stream);
  ArrowArray out;
  ASSERT_EQ(stream.get_next(&stream, &out), 0);
  out.release(&out);
  EXPECT_EQ(stream.get_next(&stream, &out), EINVAL);
  EXPECT_STREQ(stream.get_last_error(&stream), "Corrupt: page 3 of 'f.parquet' is truncated");
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);

  ExportRecordBatchReader(std::make_unique<FailingReader>(), &stream);
  auto reader = ImportArrayStream(&stream).value();
  EXPECT_TRUE(reader->Next().ok());
  Result<std::optional<RecordBatch>> failed = reader->Next();
  EXPECT_TRUE(failed.status().IsInvalidArgument());
  EXPECT_EQ(failed.status().message(),
            "ArrowArrayStream get_next failed with code 22: Corrupt: page 3 of 'f.parquet' is truncated");
  EXPECT_EQ(reader->Next().status(), failed.status());  // the error ends the stream
}

}  // namespace
}  // namespace floe
