// ShredLeaf: the definition and repetition levels of known nested inputs
// (the spec's and the Dremel paper's rules worked by hand), the values each
// leaf keeps, and sliced arrays.

#include "floe/formats/parquet/level_shredder.h"

#include <gtest/gtest.h>

#include "parquet_writer_test_util.h"

namespace floe::parquet {
namespace {

using testing::Int32s;
using testing::ListOf;
using testing::Strings;
using testing::StructOf;

struct Shredded {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  std::vector<int64_t> values;  // absolute indices into the leaf array
};

Shredded Shred(const Schema& schema, int leaf, const Array& column) {
  auto ws = MakeWriterSchema(schema);
  EXPECT_TRUE(ws.ok()) << ws.status().ToString();
  ShreddedLeaf out;
  Status s = ShredLeaf(ws->columns[static_cast<size_t>(leaf)], column, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(static_cast<int64_t>(out.def_levels.size()), out.def_levels.empty() ? 0 : out.num_levels);
  Shredded r{out.def_levels, out.rep_levels, {}};
  if (out.has_indices) {
    r.values = out.indices;
  } else {
    for (int64_t i = out.begin; i < out.end; ++i) {
      const bool valid = out.values->buffers[0].empty() || bit_util::GetBit(out.values->buffers[0].data(), i);
      if (valid) r.values.push_back(i);
    }
  }
  EXPECT_EQ(static_cast<int64_t>(r.values.size()), out.num_values);
  return r;
}

using Levels = std::vector<int16_t>;
using Indices = std::vector<int64_t>;

TEST(ParquetLevelShredderTest, ListOfOptionalElements) {
  // optional group a (LIST) { repeated group list { optional int32 element } }
  // rows: [1, 2], null, [], [null], [3]
  auto type = DataType::List(Field("element", DataType::Int32()));
  Schema schema({Field("a", type)});
  Array a = ListOf(type, {0, 2, 2, 2, 3, 4}, {1, 0, 1, 1, 1}, Int32s({1, 2, std::nullopt, 3}));
  Shredded s = Shred(schema, 0, a);
  EXPECT_EQ(s.def, (Levels{3, 3, 0, 1, 2, 3}));
  EXPECT_EQ(s.rep, (Levels{0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(s.values, (Indices{0, 1, 3}));
}

TEST(ParquetLevelShredderTest, ListOfListsRepeatsAtBothLevels) {
  // optional outer list of optional inner lists of required int32:
  // def: outer 1, outer repeated 2, inner 3, inner repeated 4; rep up to 2.
  // rows: [[1, 2], [3]], [[], [4]], null, [null]
  auto inner = DataType::List(Field("element", DataType::Int32(), false));
  auto outer = DataType::List(Field("element", inner));
  Schema schema({Field("a", outer)});
  Array inner_lists = ListOf(inner, {0, 2, 3, 3, 4, 4}, {1, 1, 1, 1, 0}, Int32s({1, 2, 3, 4}));
  Array a = ListOf(outer, {0, 2, 4, 4, 5}, {1, 1, 0, 1}, inner_lists);
  Shredded s = Shred(schema, 0, a);
  EXPECT_EQ(s.def, (Levels{4, 4, 4, 3, 4, 0, 2}));
  EXPECT_EQ(s.rep, (Levels{0, 2, 1, 0, 1, 0, 0}));
  EXPECT_EQ(s.values, (Indices{0, 1, 2, 3}));
}

TEST(ParquetLevelShredderTest, StructNullsHideTheirChildren) {
  // optional group s { optional int32 a; required binary b (STRING) }
  // rows: {1, "x"}, null, {null, "y"}
  auto type = DataType::Struct({Field("a", DataType::Int32()), Field("b", DataType::Utf8(), false)});
  Schema schema({Field("s", type)});
  // The null struct's children hold values that must not be written.
  Array s_array = StructOf(type, 3, {1, 0, 1}, {Int32s({1, 99, std::nullopt}), Strings({"x", "hidden", "y"})});
  Shredded a = Shred(schema, 0, s_array);
  EXPECT_EQ(a.def, (Levels{2, 0, 1}));
  EXPECT_TRUE(a.rep.empty());
  EXPECT_EQ(a.values, (Indices{0}));
  Shredded b = Shred(schema, 1, s_array);
  EXPECT_EQ(b.def, (Levels{1, 0, 1}));
  EXPECT_EQ(b.values, (Indices{0, 2}));
}

TEST(ParquetLevelShredderTest, MapEntriesShredIntoKeysAndValues) {
  // optional map<string, optional int32>: {a: 1, b: null}, null, {}
  auto type = DataType::Map(DataType::Utf8(), DataType::Int32());
  Schema schema({Field("m", type)});
  Array entries = StructOf(type->field(0).type, 2, {}, {Strings({"a", "b"}), Int32s({1, std::nullopt})});
  Array m = ListOf(type, {0, 2, 2, 2}, {1, 0, 1}, entries);
  Shredded key = Shred(schema, 0, m);
  EXPECT_EQ(key.def, (Levels{2, 2, 0, 1}));
  EXPECT_EQ(key.rep, (Levels{0, 1, 0, 0}));
  EXPECT_EQ(key.values, (Indices{0, 1}));
  Shredded value = Shred(schema, 1, m);
  EXPECT_EQ(value.def, (Levels{3, 2, 0, 1}));
  EXPECT_EQ(value.rep, (Levels{0, 1, 0, 0}));
  EXPECT_EQ(value.values, (Indices{0}));
}

TEST(ParquetLevelShredderTest, NullListsSpanningValuesSkipThem) {
  // Arrow allows a null list to own a non-empty range; its values are not data.
  auto type = DataType::List(Field("element", DataType::Int32(), false));
  Schema schema({Field("a", type)});
  Array a = ListOf(type, {0, 1, 3, 4}, {1, 0, 1}, Int32s({1, 2, 3, 4}));
  Shredded s = Shred(schema, 0, a);
  EXPECT_EQ(s.def, (Levels{2, 0, 2}));
  EXPECT_EQ(s.rep, (Levels{0, 0, 0}));
  EXPECT_EQ(s.values, (Indices{0, 3}));
}

TEST(ParquetLevelShredderTest, SlicedNestedArraysUseAbsoluteIndices) {
  auto type = DataType::List(Field("element", DataType::Int32()));
  Schema schema({Field("a", type)});
  // rows [10], [11, 12], null, [13]; the child itself is a slice starting at 2.
  Array child = Int32s({-1, -2, 10, 11, 12, 13}).Slice(2, 4);
  Array a = ListOf(type, {0, 1, 3, 3, 4}, {1, 1, 0, 1}, child).Slice(1, 3);
  Shredded s = Shred(schema, 0, a);
  EXPECT_EQ(s.def, (Levels{3, 3, 0, 3}));
  EXPECT_EQ(s.rep, (Levels{0, 1, 0, 0}));
  EXPECT_EQ(s.values, (Indices{3, 4, 5}));  // 11, 12, 13 in the child's buffer

  // A sliced struct: its children are indexed by the struct's offset.
  auto st = DataType::Struct({Field("x", DataType::Int32())});
  Schema struct_schema({Field("s", st)});
  Array sa = StructOf(st, 4, {1, 0, 1, 1}, {Int32s({1, 2, 3, std::nullopt})}).Slice(1, 3);
  Shredded x = Shred(struct_schema, 0, sa);
  EXPECT_EQ(x.def, (Levels{0, 2, 1}));
  EXPECT_EQ(x.values, (Indices{2}));
}

TEST(ParquetLevelShredderTest, FlatColumnsTakeTheFastPath) {
  Schema schema({Field("req", DataType::Int32(), false), Field("opt", DataType::Int32())});
  auto ws = MakeWriterSchema(schema);
  ASSERT_TRUE(ws.ok());
  ShreddedLeaf out;
  Array required = Int32s({1, 2, 3, 4}).Slice(1, 3);
  ASSERT_TRUE(ShredLeaf(ws->columns[0], required, &out).ok());
  EXPECT_TRUE(out.def_levels.empty());
  EXPECT_TRUE(out.rep_levels.empty());
  EXPECT_FALSE(out.has_indices);
  EXPECT_EQ(out.num_levels, 3);
  EXPECT_EQ(out.num_values, 3);
  EXPECT_EQ(out.begin, 1);
  EXPECT_EQ(out.end, 4);

  Array optional = Int32s({1, std::nullopt, 3, std::nullopt, 5}).Slice(1, 4);
  ASSERT_TRUE(ShredLeaf(ws->columns[1], optional, &out).ok());
  EXPECT_EQ(out.def_levels, (Levels{0, 1, 0, 1}));
  EXPECT_FALSE(out.has_indices);
  EXPECT_EQ(out.num_values, 2);
}

TEST(ParquetLevelShredderTest, RejectsNullsInRequiredFields) {
  Schema schema({Field("req", DataType::Int32(), false)});
  auto ws = MakeWriterSchema(schema);
  ASSERT_TRUE(ws.ok());
  ShreddedLeaf out;
  EXPECT_TRUE(ShredLeaf(ws->columns[0], Int32s({1, std::nullopt}), &out).IsInvalidArgument());

  auto type = DataType::List(Field("element", DataType::Int32(), false));
  Schema nested({Field("a", type)});
  auto wn = MakeWriterSchema(nested);
  ASSERT_TRUE(wn.ok());
  Array a = ListOf(type, {0, 2}, {}, Int32s({1, std::nullopt}));
  EXPECT_TRUE(ShredLeaf(wn->columns[0], a, &out).IsInvalidArgument());
}

}  // namespace
}  // namespace floe::parquet
