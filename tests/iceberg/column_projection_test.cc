#include "floe/iceberg/scan/column_projection.h"

#include <gtest/gtest.h>

#include <sstream>

#include "floe/columnar/batch_printer.h"
#include "floe/columnar/builder.h"
#include "floe/iceberg/schema.h"
#include "schema_test_util.h"

namespace floe::iceberg {
namespace {

// The array's values as JSON lines of {"c": value}.
std::string Jsonl(const Array& array) {
  auto schema = std::make_shared<const floe::Schema>(std::vector<floe::Field>{floe::Field("c", array.type())});
  auto batch = RecordBatch::Make(schema, {array}, array.length());
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  std::ostringstream out;
  BatchPrinter printer(out, schema, {.format = OutputFormat::kJsonl});
  EXPECT_TRUE(printer.Write(*batch).ok());
  EXPECT_TRUE(printer.Finish().ok());
  return out.str();
}

using testing::Column;

floe::TypePtr Columnar(const NestedField& field) { return ToColumnarType(*field.type).value(); }

// A file's struct<x: int32 (id 2), gone: string (id 9)> column of 3 rows, the second null.
Array FileStruct() {
  auto type = floe::DataType::Struct({floe::Field("x", floe::DataType::Int32(), true, {}, 2),
                                      floe::Field("gone", floe::DataType::Utf8(), true, {}, 9)});
  auto builder = MakeBuilder(type);
  auto* s = builder->As<StructBuilder>();
  auto* x = s->field_builder(0)->As<Int32Builder>();
  auto* gone = s->field_builder(1)->As<StringBuilder>();
  EXPECT_TRUE(s->AppendRow().ok());
  EXPECT_TRUE(x->Append(1).ok());
  EXPECT_TRUE(gone->Append("a").ok());
  EXPECT_TRUE(s->AppendNull().ok());
  EXPECT_TRUE(s->AppendRow().ok());
  EXPECT_TRUE(x->AppendNull().ok());
  EXPECT_TRUE(gone->Append("c").ok());
  return s->Finish().value();
}

// The table's field: struct<renamed: long (id 2, promoted), added: string (id 3) default "d", added_null (id 4)>.
NestedField TableStruct() {
  NestedField renamed = Column(2, "renamed", Type::Long());
  NestedField added = Column(3, "added", Type::String());
  added.initial_default = R"("d")";
  NestedField added_null = Column(4, "added_null", Type::Int());
  return Column(1, "s", Type::Struct({renamed, added, added_null}));
}

TEST(ColumnProjectionTest, StructFieldsAreMatchedByIdWidenedAndDefaulted) {
  const ColumnProjection projection(true, nullptr, {});
  const NestedField field = TableStruct();
  const Array file = FileStruct();
  auto projected = projection.Project(&file, field, Columnar(field), nullptr, file.length());
  ASSERT_TRUE(projected.ok()) << projected.status().ToString();
  EXPECT_TRUE(TypeEquals(projected->type(), Columnar(field)));
  EXPECT_TRUE(projected->Validate().ok()) << projected->Validate().ToString();
  EXPECT_EQ(Jsonl(*projected), R"({"c":{"renamed":1,"added":"d","added_null":null}})"
                               "\n"
                               R"({"c":null})"
                               "\n"
                               R"({"c":{"renamed":null,"added":"d","added_null":null}})"
                               "\n");
  // A slice keeps its rows: children are indexed like their parent.
  const Array slice = file.Slice(1, 2);
  auto sliced = projection.Project(&slice, field, Columnar(field), nullptr, slice.length());
  ASSERT_TRUE(sliced.ok()) << sliced.status().ToString();
  EXPECT_TRUE(sliced->Validate().ok()) << sliced->Validate().ToString();
  EXPECT_EQ(Jsonl(*sliced), "{\"c\":null}\n{\"c\":{\"renamed\":null,\"added\":\"d\",\"added_null\":null}}\n");
}

TEST(ColumnProjectionTest, DictionaryEncodedColumnsReadAsTheirValues) {
  const ColumnProjection projection(true, nullptr, {});
  // struct<x: int32 (id 2), name: dictionary<string> (id 3)>, the table's
  // struct<renamed: long (id 2), added: string (id 3)>.
  DictionaryBuilder names(floe::DataType::Dictionary(floe::DataType::Utf8()).value());
  ASSERT_TRUE(names.Append("ann").ok());
  ASSERT_TRUE(names.AppendNull().ok());
  ASSERT_TRUE(names.Append("ann").ok());
  const Array encoded = names.Finish().value();
  Int32Builder xs;
  for (int32_t v : {1, 2, 3}) ASSERT_TRUE(xs.Append(v).ok());
  const auto file_type = floe::DataType::Struct(
      {floe::Field("x", floe::DataType::Int32(), true, {}, 2), floe::Field("name", encoded.type(), true, {}, 3)});
  const Array file(std::make_shared<ArrayData>(
      file_type, 3, std::vector<Buffer>{Buffer()},
      std::vector<std::shared_ptr<const ArrayData>>{xs.Finish().value().data(), encoded.data()}, 0));
  const NestedField field =
      Column(1, "s", Type::Struct({Column(2, "renamed", Type::Long()), Column(3, "added", Type::String())}));
  auto projected = projection.Project(&file, field, Columnar(field), nullptr, file.length());
  ASSERT_TRUE(projected.ok()) << projected.status().ToString();
  EXPECT_TRUE(TypeEquals(projected->type(), Columnar(field)));
  EXPECT_TRUE(projected->Validate().ok()) << projected->Validate().ToString();
  EXPECT_EQ(Jsonl(*projected), R"({"c":{"renamed":1,"added":"ann"}})"
                               "\n"
                               R"({"c":{"renamed":2,"added":null}})"
                               "\n"
                               R"({"c":{"renamed":3,"added":"ann"}})"
                               "\n");

  // A top-level column, as its table type.
  const NestedField top = Column(3, "name", Type::String());
  auto column = projection.Project(&encoded, top, Columnar(top), nullptr, encoded.length());
  ASSERT_TRUE(column.ok()) << column.status().ToString();
  EXPECT_TRUE(TypeEquals(column->type(), floe::DataType::Utf8()));
  EXPECT_EQ(column->GetString(2), "ann");
  EXPECT_TRUE(column->IsNull(1));
}

TEST(ColumnProjectionTest, FilesWithoutIdsMatchByTheNameMappingOrElseByName) {
  // The same file without ids: "x" is field 2 only through a mapping.
  auto type = floe::DataType::Struct({floe::Field("x", floe::DataType::Int32()), floe::Field("added", floe::DataType::Utf8())});
  auto builder = MakeBuilder(type);
  auto* s = builder->As<StructBuilder>();
  ASSERT_TRUE(s->AppendRow().ok());
  ASSERT_TRUE(s->field_builder(0)->As<Int32Builder>()->Append(7).ok());
  ASSERT_TRUE(s->field_builder(1)->As<StringBuilder>()->Append("from file").ok());
  const Array file = s->Finish().value();
  const NestedField field = TableStruct();

  NameMapping mapping = ParseNameMapping(R"([{"field-id":1,"names":["s"],"fields":[{"field-id":2,"names":["x"]}]}])").value();
  const ColumnProjection mapped(false, &mapping, {});
  auto by_mapping = mapped.Project(&file, field, Columnar(field), mapped.TopLevelMapping(1), 1);
  ASSERT_TRUE(by_mapping.ok()) << by_mapping.status().ToString();
  // With a mapping only the names it lists match: "added" is not mapped.
  EXPECT_EQ(Jsonl(*by_mapping), "{\"c\":{\"renamed\":7,\"added\":\"d\",\"added_null\":null}}\n");

  const ColumnProjection by_name(false, nullptr, {});
  auto named = by_name.Project(&file, field, Columnar(field), nullptr, 1);
  ASSERT_TRUE(named.ok()) << named.status().ToString();
  EXPECT_EQ(Jsonl(*named), "{\"c\":{\"renamed\":null,\"added\":\"from file\",\"added_null\":null}}\n");
}

TEST(ColumnProjectionTest, ListsAndMapsTakeTheTablesChildTypes) {
  // A file without ids: list<item: int32>, map<string, int32>; the table's
  // list<element: long (id 5)> and map<key (id 7), value: long (id 8)>.
  auto list_type = floe::DataType::List(floe::DataType::Int32());
  ListBuilder lists(list_type, MakeBuilder(floe::DataType::Int32()));
  ASSERT_TRUE(lists.StartList().ok());
  ASSERT_TRUE(lists.value_builder()->As<Int32Builder>()->Append(85).ok());
  ASSERT_TRUE(lists.value_builder()->As<Int32Builder>()->Append(90).ok());
  ASSERT_TRUE(lists.AppendNull().ok());
  const Array file_list = lists.Finish().value();
  const NestedField list_field = Column(4, "scores", Type::List(5, Type::Long(), false));
  const ColumnProjection projection(false, nullptr, {});
  auto list = projection.Project(&file_list, list_field, Columnar(list_field), nullptr, 2);
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  EXPECT_TRUE(TypeEquals(list->type(), Columnar(list_field)));
  EXPECT_TRUE(list->Validate().ok()) << list->Validate().ToString();
  EXPECT_EQ(Jsonl(*list), "{\"c\":[85,90]}\n{\"c\":null}\n");

  auto map_type = floe::DataType::Map(floe::DataType::Utf8(), floe::DataType::Int32());
  MapBuilder maps(map_type, MakeBuilder(floe::DataType::Utf8()), MakeBuilder(floe::DataType::Int32()));
  ASSERT_TRUE(maps.StartMap().ok());
  ASSERT_TRUE(maps.key_builder()->As<StringBuilder>()->Append("height").ok());
  ASSERT_TRUE(maps.item_builder()->As<Int32Builder>()->Append(130).ok());
  const Array file_map = maps.Finish().value();
  const NestedField map_field = Column(6, "attributes", Type::Map(7, Type::String(), 8, Type::Long(), false));
  auto map = projection.Project(&file_map, map_field, Columnar(map_field), nullptr, 1);
  ASSERT_TRUE(map.ok()) << map.status().ToString();
  EXPECT_TRUE(TypeEquals(map->type(), Columnar(map_field)));
  EXPECT_TRUE(map->Validate().ok()) << map->Validate().ToString();
  EXPECT_EQ(Jsonl(*map), "{\"c\":{\"height\":130}}\n");
}

TEST(ColumnProjectionTest, MissingFieldsReadAsPartitionValueThenDefaultThenNull) {
  const ColumnProjection projection(true, nullptr, {{11, Literal::Int(42)}, {5, std::nullopt}});
  const NestedField partitioned = Column(11, "p", Type::Int());
  auto p = projection.Project(nullptr, partitioned, Columnar(partitioned), nullptr, 2);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(Jsonl(*p), "{\"c\":42}\n{\"c\":42}\n");
  const NestedField null_partition = Column(5, "q", Type::String());
  EXPECT_EQ(Jsonl(projection.Project(nullptr, null_partition, Columnar(null_partition), nullptr, 1).value()),
            "{\"c\":null}\n");
  NestedField defaulted = Column(2, "d", Type::Decimal(9, 2).value());
  defaulted.initial_default = R"("1.50")";
  EXPECT_EQ(Jsonl(projection.Project(nullptr, defaulted, Columnar(defaulted), nullptr, 1).value()), "{\"c\":1.50}\n");
  // A struct with the default {} is a struct of its fields' defaults.
  NestedField added = TableStruct();
  added.initial_default = "{}";
  EXPECT_EQ(Jsonl(projection.Project(nullptr, added, Columnar(added), nullptr, 1).value()),
            "{\"c\":{\"renamed\":null,\"added\":\"d\",\"added_null\":null}}\n");
  EXPECT_EQ(Jsonl(projection.Project(nullptr, TableStruct(), Columnar(TableStruct()), nullptr, 1).value()),
            "{\"c\":null}\n");
  NestedField bad = Column(3, "bad", Type::Int());
  bad.initial_default = R"("x")";
  auto refused = projection.Project(nullptr, bad, Columnar(bad), nullptr, 1);
  ASSERT_TRUE(refused.status().IsCorrupt()) << refused.status().ToString();
  EXPECT_EQ(refused.status().message(), "field 'bad': default value \"x\" is not a value of type int");
}

TEST(ColumnProjectionTest, ATypeThatCannotBeReadIsNamed) {
  Int32Builder ints;
  ASSERT_TRUE(ints.Append(1).ok());
  const Array file = ints.Finish().value();
  const NestedField field = Column(1, "name", Type::String());
  auto r = ColumnProjection(true, nullptr, {}).Project(&file, field, Columnar(field), nullptr, 1);
  ASSERT_TRUE(r.status().IsInvalidArgument()) << r.status().ToString();
  EXPECT_EQ(r.status().message(), "column 'name': the file's type int32 cannot be read as string");
}

TEST(ColumnProjectionTest, IdentityPartitionValuesAreCastToTheSourceType) {
  // Field 1 was promoted from int to long after the file was written.
  const Schema schema = Schema::Make(0, {Column(1, "a", Type::Long()), Column(2, "b", Type::Int()),
                                         Column(3, "c", Type::Int())})
                            .value();
  PartitionSpec spec;
  spec.fields = {PartitionField{{1}, 1000, "a", Transform::Identity()},
                 PartitionField{{2}, 1001, "b_bucket", Transform::Bucket(4).value()},
                 PartitionField{{3}, 1002, "c", Transform::Identity()}};
  auto values = IdentityPartitionValues(spec, schema, {Literal::Int(7), Literal::Int(3), std::nullopt});
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values.at(1), Literal::Long(7));
  EXPECT_EQ(values.at(3), std::nullopt);
}

TEST(ColumnProjectionTest, ConstantArraysOfEveryPrimitive) {
  const std::vector<std::pair<Literal, std::string>> cases = {
      {Literal::Boolean(true), "true"},
      {Literal::Long(-9), "-9"},
      {Literal::Float(1.5f), "1.5"},
      {Literal::Double(2.25), "2.25"},
      {Literal::Date(12345), "\"2003-10-20\""},
      {Literal::TimestampTz(1), "\"1970-01-01T00:00:00.000001+00:00\""},
      {Literal::String("s"), "\"s\""},
      {Literal::Binary("\x01"), "\"01\""},
  };
  for (const auto& [literal, json] : cases) {
    auto type = ToColumnarType(*literal.type()).value();
    auto array = ConstantArray(literal, type, 2);
    ASSERT_TRUE(array.ok()) << array.status().ToString();
    EXPECT_EQ(Jsonl(*array), "{\"c\":" + json + "}\n{\"c\":" + json + "}\n") << literal.ToString();
  }
  auto uuid = Literal::Parse(Type::Uuid(), "f79c3e09-677c-4bbd-a479-3f349cb785e7").value();
  EXPECT_EQ(Jsonl(ConstantArray(uuid, floe::DataType::Uuid(), 1).value()),
            "{\"c\":\"f79c3e09-677c-4bbd-a479-3f349cb785e7\"}\n");
}

}  // namespace
}  // namespace floe::iceberg
