// Import from producers written by hand here, as another Arrow library lays
// its structs out, independently of floe's exporter.

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "floe/columnar/arrow_c_data.h"

namespace floe {
namespace {

struct FakeProducer {
  std::vector<std::vector<uint8_t>> storage;  // each buffer's bytes
  std::vector<const void*> buffers;
  std::vector<ArrowArray*> children;
  int* releases;
};

void FakeRelease(ArrowArray* array) {
  auto* producer = static_cast<FakeProducer*>(array->private_data);
  for (ArrowArray* child : producer->children) {
    if (child->release != nullptr) child->release(child);
    delete child;
  }
  ++*producer->releases;
  delete producer;
  array->release = nullptr;
}

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// An ArrowArray whose buffers are copies of `buffers` (an empty optional is a
// null pointer) and whose release counts into `releases`.
ArrowArray MakeFake(int64_t length, int64_t null_count, int64_t offset,
                    std::vector<std::optional<std::vector<uint8_t>>> buffers, int* releases,
                    std::vector<ArrowArray> children = {}) {
  auto* producer = new FakeProducer;
  producer->releases = releases;
  producer->storage.reserve(buffers.size());
  for (auto& buffer : buffers) {
    if (buffer) {
      producer->storage.push_back(std::move(*buffer));
      producer->buffers.push_back(producer->storage.back().data());
    } else {
      producer->buffers.push_back(nullptr);
    }
  }
  for (ArrowArray& child : children) producer->children.push_back(new ArrowArray(child));
  ArrowArray array{};
  array.length = length;
  array.null_count = null_count;
  array.offset = offset;
  array.n_buffers = static_cast<int64_t>(producer->buffers.size());
  array.n_children = static_cast<int64_t>(producer->children.size());
  array.buffers = producer->buffers.data();
  array.children = producer->children.data();
  array.release = FakeRelease;
  array.private_data = producer;
  return array;
}

TEST(ArrowImportTest, ReleasesTheProducerOnceWhenTheLastReferenceDrops) {
  int releases = 0;
  ArrowArray c = MakeFake(3, 0, 0, {std::nullopt, Bytes<int32_t>({10, 20, 30})}, &releases);
  Result<Array> imported = ImportArray(&c, DataType::Int32());
  ASSERT_TRUE(imported.ok()) << imported.status().ToString();
  EXPECT_EQ(c.release, nullptr);  // moved: the source is marked released
  EXPECT_EQ(releases, 0);
  Array slice = imported->Slice(1, 2);
  Buffer values = imported->data()->buffers[1];
  imported = Status::Cancelled("drop the array");
  EXPECT_EQ(releases, 0);
  EXPECT_EQ(slice.Values<int32_t>()[1], 30);
  slice = Array();
  EXPECT_EQ(releases, 0);  // a Buffer alone keeps the producer's memory
  values = Buffer();
  EXPECT_EQ(releases, 1);
}

TEST(ArrowImportTest, ImportsHandBuiltStringsListsAndStructsWithOffsets) {
  int releases = 0;
  {
    // strings ["x", null, "yz"] viewed from offset 1: [null, "yz"]
    ArrowArray strings = MakeFake(2, 1, 1, {std::vector<uint8_t>{0b101}, Bytes<int32_t>({0, 1, 1, 3}),
                                            Bytes<char>({'x', 'y', 'z'})},
                                  &releases);
    Array s = ImportArray(&strings, DataType::Utf8()).value();
    EXPECT_EQ(s.length(), 2);
    EXPECT_TRUE(s.IsNull(0));
    EXPECT_EQ(s.GetString(1), "yz");

    // list<int16> [[1, 2], [], [3]], with its child given separately
    ArrowArray items = MakeFake(3, 0, 0, {std::nullopt, Bytes<int16_t>({1, 2, 3})}, &releases);
    ArrowArray list = MakeFake(3, 0, 0, {std::nullopt, Bytes<int32_t>({0, 2, 2, 3})}, &releases, {items});
    Array l = ImportArray(&list, DataType::List(DataType::Int16())).value();
    EXPECT_EQ(l.ValueOffsets()[1], 2);
    EXPECT_EQ(l.list_values().Values<int16_t>()[2], 3);

    // struct<a: int64> at offset 1 over a child of 3: its rows are child elements 1 and 2
    ArrowArray a = MakeFake(3, 0, 0, {std::nullopt, Bytes<int64_t>({5, 6, 7})}, &releases);
    ArrowArray row = MakeFake(2, 0, 1, {std::nullopt}, &releases, {a});
    Array r = ImportArray(&row, DataType::Struct({Field("a", DataType::Int64())})).value();
    EXPECT_EQ(r.field(0).Values<int64_t>()[0], 6);
    EXPECT_EQ(r.field(0).Values<int64_t>()[1], 7);
  }
  // Children are released by their parent's release, so 3 top-level releases
  // plus 2 children.
  EXPECT_EQ(releases, 5);
}

TEST(ArrowImportTest, CopiesMisalignedBuffers) {
  int releases = 0;
  std::vector<uint8_t> shifted(1 + 16);
  const int64_t values[2] = {-7, 9};
  std::memcpy(shifted.data() + 1, values, 16);
  ArrowArray c = MakeFake(2, 0, 0, {std::nullopt, shifted}, &releases);
  // Point the values one byte into the producer's buffer.
  c.buffers[1] = static_cast<const uint8_t*>(c.buffers[1]) + 1;
  Array array = ImportArray(&c, DataType::Int64()).value();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(array.Values<int64_t>()) % alignof(int64_t), 0u);
  EXPECT_EQ(array.Values<int64_t>()[0], -7);
  EXPECT_EQ(array.Values<int64_t>()[1], 9);
  array = Array();
  EXPECT_EQ(releases, 1);
}

TEST(ArrowImportTest, AcceptsEmptyArraysWithoutOffsets) {
  int releases = 0;
  ArrowArray c = MakeFake(0, 0, 0, {std::nullopt, std::nullopt, std::nullopt}, &releases);
  Array array = ImportArray(&c, DataType::Utf8()).value();
  EXPECT_EQ(array.length(), 0);
  EXPECT_TRUE(array.Validate().ok());
  array = Array();
  EXPECT_EQ(releases, 1);
}

TEST(ArrowImportTest, ImportsNullArraysWithoutBuffers) {
  int releases = 0;
  ArrowArray c = MakeFake(4, 0, 0, {}, &releases);  // a producer that counts no nulls
  Array array = ImportArray(&c, DataType::Null()).value();
  EXPECT_EQ(array.length(), 4);
  EXPECT_EQ(array.null_count(), 4);
  EXPECT_TRUE(array.IsNull(3));
  array = Array();
  EXPECT_EQ(releases, 1);
}

// Each malformed array is rejected with the expected kind and message, and
// the producer's struct is still released exactly once.
struct Malformed {
  const char* what;
  TypePtr type;
  std::function<ArrowArray(int*)> make;
  StatusCode code;
  std::string message;
};

TEST(ArrowImportTest, RejectsMalformedArraysAndStillReleasesThem) {
  const std::vector<Malformed> cases = {
      {"wrong n_buffers", DataType::Int32(),
       [](int* r) { return MakeFake(1, 0, 0, {std::nullopt}, r); }, StatusCode::kInvalidArgument,
       "ArrowArray of type int32: n_buffers is 1, expected 2"},
      {"wrong n_children", DataType::Int32(),
       [](int* r) {
         return MakeFake(1, 0, 0, {std::nullopt, Bytes<int32_t>({1})}, r,
                         {MakeFake(0, 0, 0, {std::nullopt, std::nullopt}, r)});
       },
       StatusCode::kInvalidArgument, "ArrowArray of type int32: n_children is 1, expected 0"},
      {"null values", DataType::Int32(), [](int* r) { return MakeFake(2, 0, 0, {std::nullopt, std::nullopt}, r); },
       StatusCode::kInvalidArgument,
       "ArrowArray of type int32: values (buffer 1) is null, 8 bytes needed"},
      {"null validity with nulls", DataType::Int32(),
       [](int* r) { return MakeFake(1, 1, 0, {std::nullopt, Bytes<int32_t>({1})}, r); },
       StatusCode::kInvalidArgument,
       "ArrowArray of type int32: validity buffer is null but null_count is 1"},
      {"negative length", DataType::Int32(),
       [](int* r) { return MakeFake(-1, 0, 0, {std::nullopt, Bytes<int32_t>({1})}, r); },
       StatusCode::kInvalidArgument, "ArrowArray of type int32: length -1, offset 0, null_count 0"},
      {"offsets past the data", DataType::Utf8(),
       [](int* r) { return MakeFake(2, 0, 0, {std::nullopt, Bytes<int32_t>({0, 5, 2}), Bytes<char>({'a', 'b'})}, r); },
       StatusCode::kCorrupt, "ArrowArray: array of type string: offset 2 is 2, less than offset 1 (5)"},
      {"list offsets past the child", DataType::List(DataType::Int32()),
       [](int* r) {
         return MakeFake(1, 0, 0, {std::nullopt, Bytes<int32_t>({0, 4})}, r,
                         {MakeFake(2, 0, 0, {std::nullopt, Bytes<int32_t>({1, 2})}, r)});
       },
       StatusCode::kCorrupt, "ArrowArray: array of type list<item: int32>: offset 1 is 4, past the child length 2"},
      {"null data", DataType::Binary(),
       [](int* r) { return MakeFake(1, 0, 0, {std::nullopt, Bytes<int32_t>({0, 3}), std::nullopt}, r); },
       StatusCode::kInvalidArgument, "ArrowArray of type binary: data (buffer 2) is null, 3 bytes needed"},
      {"short struct child", DataType::Struct({Field("a", DataType::Int8())}),
       [](int* r) {
         return MakeFake(3, 0, 0, {std::nullopt}, r, {MakeFake(2, 0, 0, {std::nullopt, Bytes<int8_t>({1, 2})}, r)});
       },
       StatusCode::kCorrupt,
       "ArrowArray: array of type struct<a: int8>: field 'a' has 2 elements, 3 needed for offset 0 + length 3"},
      {"wrong null_count", DataType::Int8(),
       [](int* r) { return MakeFake(2, 0, 0, {std::vector<uint8_t>{0b01}, Bytes<int8_t>({1, 2})}, r); },
       StatusCode::kCorrupt, "ArrowArray: array of type int8: null_count 0 but the validity bitmap has 1"},
      {"child with wrong n_buffers", DataType::Struct({Field("a", DataType::Utf8())}),
       [](int* r) { return MakeFake(1, 0, 0, {std::nullopt}, r, {MakeFake(1, 0, 0, {std::nullopt}, r)}); },
       StatusCode::kInvalidArgument, "ArrowArray child 'a' of type string: n_buffers is 1, expected 3"},
  };
  for (const Malformed& test : cases) {
    int releases = 0;
    ArrowArray c = test.make(&releases);
    Result<Array> imported = ImportArray(&c, test.type);
    ASSERT_FALSE(imported.ok()) << test.what;
    EXPECT_EQ(imported.status().code(), test.code) << test.what << ": " << imported.status().ToString();
    EXPECT_EQ(imported.status().message(), test.message) << test.what;
    EXPECT_EQ(c.release, nullptr) << test.what;
    // The child made for a case counts only through its parent's release.
    EXPECT_EQ(releases, c.n_children + 1) << test.what;
  }
}

TEST(ArrowImportTest, RejectsBadFormatsAndReleasesBothStructs) {
  int releases = 0;
  ArrowArray c_array = MakeFake(1, 0, 0, {std::nullopt, Bytes<int32_t>({1})}, &releases);
  ArrowSchema c_schema;
  ExportType(*DataType::Int32(), &c_schema);
  // Corrupt the format the exporter wrote; the private data keeps the original string alive.
  static const char kBad[] = "q";
  c_schema.format = kBad;
  Result<Array> imported = ImportArray(&c_array, &c_schema);
  EXPECT_TRUE(imported.status().IsInvalidArgument());
  EXPECT_EQ(imported.status().message(), "ArrowSchema: Arrow format 'q': unknown type");
  EXPECT_EQ(c_schema.release, nullptr);
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(releases, 1);
}

TEST(ArrowImportTest, RejectsReleasedAndNullStructs) {
  ArrowArray released{};
  EXPECT_EQ(ImportArray(&released, DataType::Int32()).status().message(), "ArrowArray is released");
  EXPECT_EQ(ImportArray(nullptr, DataType::Int32()).status().message(), "ArrowArray is null");
  ArrowSchema schema{};
  EXPECT_EQ(ImportSchema(&schema).status().message(), "ArrowSchema is released");
  ArrowArrayStream stream{};
  EXPECT_EQ(ImportArrayStream(&stream).status().message(), "ArrowArrayStream is released");
}

TEST(ArrowImportTest, RejectsADictionaryOnATypeWithoutOne) {
  int releases = 0;
  ArrowArray dictionary = MakeFake(0, 0, 0, {std::nullopt, std::nullopt, std::nullopt}, &releases);
  ArrowArray c = MakeFake(1, 0, 0, {std::nullopt, Bytes<int32_t>({0})}, &releases);
  c.dictionary = &dictionary;
  Result<Array> imported = ImportArray(&c, DataType::Int32());
  EXPECT_TRUE(imported.status().IsInvalidArgument());
  EXPECT_EQ(imported.status().message(),
            "ArrowArray of type int32: has a dictionary but its type is not dictionary-encoded");
  EXPECT_EQ(releases, 1);
  dictionary.release(&dictionary);
}

TEST(ArrowImportTest, RejectsAnInvalidFieldId) {
  ArrowSchema c;
  ExportField(Field("a", DataType::Int32(), true, {{"PARQUET:field_id", "12x"}}), &c);
  Result<Field> field = ImportField(&c);
  EXPECT_TRUE(field.status().IsInvalidArgument());
  EXPECT_EQ(field.status().message(), "ArrowSchema: field 'a': metadata PARQUET:field_id '12x' is not an int32");
  EXPECT_EQ(c.release, nullptr);
}

TEST(ArrowImportTest, KeepsUnknownExtensionsAsStorageWithMetadata) {
  ArrowSchema c;
  ExportField(Field("j", DataType::Utf8(), true, {{"ARROW:extension:name", "arrow.json"}}), &c);
  Field field = ImportField(&c).value();
  EXPECT_EQ(field.type->id(), TypeId::kString);
  EXPECT_EQ(field.metadata, (KeyValueMetadata{{"ARROW:extension:name", "arrow.json"}}));
}

TEST(ArrowImportTest, RejectsARecordBatchWithNullRows) {
  int releases = 0;
  ArrowArray column = MakeFake(2, 0, 0, {std::nullopt, Bytes<int32_t>({1, 2})}, &releases);
  ArrowArray rows = MakeFake(2, 1, 0, {std::vector<uint8_t>{0b10}}, &releases, {column});
  auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("a", DataType::Int32())});
  Result<RecordBatch> batch = ImportRecordBatch(&rows, schema);
  EXPECT_TRUE(batch.status().IsInvalidArgument());
  EXPECT_EQ(batch.status().message(), "ArrowArray record batch: 1 of 2 rows of its struct array are null");
  EXPECT_EQ(releases, 2);
}

}  // namespace
}  // namespace floe
