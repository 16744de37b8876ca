#include "floe/iceberg/schema.h"

#include <gtest/gtest.h>

#include "floe/iceberg/schema_json.h"
#include "schema_test_util.h"

namespace floe::iceberg {
namespace {

using testing::Column;

Schema Nested() {
  auto location = Type::Struct({Column(4, "Lat", Type::Double(), true), Column(5, "long", Type::Double())});
  return Schema::Make(1,
                      {Column(1, "id", Type::Long(), true), Column(2, "tags", Type::List(6, Type::String(), true)),
                       Column(3, "props", Type::Map(7, Type::String(), 8, location, false)),
                       Column(9, "point", Type::Struct({Column(10, "x", Type::Int(), true)}), true)},
                      {1, 10})
      .value();
}

TEST(SchemaTest, FindsFieldsByIdAndFullName) {
  Schema s = Nested();
  EXPECT_EQ(s.HighestFieldId(), 10);
  ASSERT_NE(s.FindFieldById(4), nullptr);
  EXPECT_EQ(s.FindFieldById(4)->name, "Lat");
  EXPECT_EQ(s.FindFieldById(11), nullptr);
  EXPECT_EQ(s.FindColumnName(4), "props.value.Lat");
  EXPECT_EQ(s.FindColumnName(6), "tags.element");
  EXPECT_EQ(s.FindFieldByName("props.key")->field_id, 7);
  EXPECT_EQ(s.FindFieldByName("point.x")->field_id, 10);
  EXPECT_EQ(s.FindFieldByName("props.value.lat"), nullptr);
  EXPECT_EQ(s.FindFieldByName("PROPS.VALUE.lat", /*case_sensitive=*/false)->field_id, 4);
}

TEST(SchemaTest, CaseInsensitiveLookupRefusesAmbiguousNames) {
  Schema s = Schema::Make(0, {Column(1, "a", Type::Int()), Column(2, "A", Type::Int())}).value();
  EXPECT_EQ(s.FindFieldByName("A")->field_id, 2);
  EXPECT_EQ(s.FindFieldByName("a", false), nullptr);
}

TEST(SchemaTest, RejectsDuplicateIdsAndNames) {
  auto dup_id = Schema::Make(0, {Column(1, "a", Type::Int()), Column(1, "b", Type::Int())});
  ASSERT_FALSE(dup_id.ok());
  EXPECT_EQ(dup_id.status().message(), "field id 1 appears twice");
  auto dup_name = Schema::Make(0, {Column(1, "a", Type::Int()), Column(2, "a", Type::Int())});
  ASSERT_FALSE(dup_name.ok());
  EXPECT_EQ(dup_name.status().message(), "field name 'a' appears twice");
  auto nested_dup = Schema::Make(0, {Column(1, "a", Type::List(1, Type::Int(), true))});
  EXPECT_FALSE(nested_dup.ok());
}

TEST(SchemaTest, IdentifierFieldsMustBeRequiredPrimitivesOutsideListsAndMaps) {
  auto in_list = Schema::Make(0, {Column(1, "l", Type::List(2, Type::Int(), true), true)}, {2});
  ASSERT_FALSE(in_list.ok());
  EXPECT_NE(in_list.status().message().find("'l.element'"), std::string::npos);
  EXPECT_FALSE(Schema::Make(0, {Column(1, "a", Type::Int())}, {1}).ok());           // optional
  EXPECT_FALSE(Schema::Make(0, {Column(1, "a", Type::Double(), true)}, {1}).ok());  // double
  EXPECT_FALSE(Schema::Make(0, {Column(1, "a", Type::Int(), true)}, {3}).ok());     // missing
  auto optional_parent = Schema::Make(0, {Column(1, "s", Type::Struct({Column(2, "x", Type::Int(), true)}))}, {2});
  EXPECT_FALSE(optional_parent.ok());
}

TEST(SchemaTest, JsonRoundTripKeepsNestedTypesAndDefaults) {
  const std::string json = R"j({"type":"struct","schema-id":3,"identifier-field-ids":[1],"fields":[
    {"id":1,"name":"id","required":true,"type":"long","doc":"the key"},
    {"id":2,"name":"m","required":false,"type":{"type":"map","key-id":3,"key":"string","value-id":4,
      "value":{"type":"list","element-id":5,"element":"decimal(9, 2)","element-required":false},"value-required":true}},
    {"id":6,"name":"s","required":false,"type":{"type":"struct","fields":[
      {"id":7,"name":"x","required":false,"type":"int","initial-default":34,"write-default":35}]},
     "initial-default":{"7":34}},
    {"id":8,"name":"ts","required":false,"type":"timestamp_ns","write-default":"2020-01-01T00:00:00.000000001"}]})j";
  auto schema = SchemaFromJson(json);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ(schema->schema_id(), 3);
  EXPECT_EQ(schema->identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_EQ(schema->FindFieldById(1)->doc, "the key");
  EXPECT_EQ(schema->FindFieldById(5)->type->ToString(), "decimal(9,2)");
  EXPECT_TRUE(schema->FindFieldById(4)->required);
  EXPECT_EQ(schema->FindFieldById(7)->initial_default, "34");
  EXPECT_EQ(schema->FindFieldById(7)->write_default, "35");
  EXPECT_EQ(schema->FindFieldById(6)->initial_default, R"({"7":34})");
  EXPECT_EQ(schema->FindFieldById(8)->write_default, "\"2020-01-01T00:00:00.000000001\"");
  auto again = SchemaFromJson(SchemaToJson(*schema));
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, *schema);
}

TEST(SchemaTest, JsonErrorsNameTheField) {
  auto expect = [](std::string_view json, std::string_view message) {
    auto s = SchemaFromJson(json);
    ASSERT_FALSE(s.ok()) << json;
    EXPECT_TRUE(s.status().IsCorrupt());
    EXPECT_EQ(s.status().message(), message);
  };
  expect(R"({"fields":[]})", "schema: field 'type' is missing");
  expect(R"({"type":"struct","fields":[{"id":1,"name":"a","required":true}]})",
         "schema: field 'fields[0].type' is missing");
  expect(R"({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"long","initial-default":"x"}]})",
         "schema: field 'fields[0].initial-default' is \"x\", expected an integer for type long");
  expect(R"({"type":"struct","fields":[{"id":"1","name":"a","required":true,"type":"long"}]})",
         "schema: field 'fields[0].id' is \"1\", expected an integer");
  expect(R"({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"long2"}]})",
         "schema: field 'fields[0].type' is \"long2\", not an Iceberg type");
  expect(R"({"type":"struct","fields":[{"id":1,"name":"a","required":1,"type":"long"}]})",
         "schema: field 'fields[0].required' is 1, expected true or false");
  expect(
      R"({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int","initial-default":3000000000}]})",
      "schema: field 'fields[0].initial-default' is 3000000000, out of the int32 range");
  expect(R"({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"int"},)"
         R"({"id":1,"name":"b","required":true,"type":"int"}]})",
         "schema: field id 1 appears twice");
  auto broken = SchemaFromJson("{");
  ASSERT_FALSE(broken.ok());
  EXPECT_TRUE(broken.status().IsCorrupt());
  EXPECT_EQ(broken.status().message().rfind("schema: not valid JSON", 0), 0u) << broken.status().message();
}

TEST(SchemaTest, ConvertsToColumnarSchemaWithFieldIds) {
  auto columnar = ToColumnarSchema(Nested());
  ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
  ASSERT_EQ(columnar->num_fields(), 4);
  EXPECT_EQ(columnar->field(0).field_id, 1);
  EXPECT_FALSE(columnar->field(0).nullable);
  EXPECT_TRUE(columnar->field(1).nullable);
  EXPECT_EQ(columnar->field(1).type->item_field().field_id, 6);
  EXPECT_FALSE(columnar->field(1).type->item_field().nullable);
  EXPECT_EQ(columnar->field(2).type->key_field().field_id, 7);
  EXPECT_EQ(columnar->field(2).type->value_field().field_id, 8);
  EXPECT_EQ(columnar->field(2).type->value_field().type->field(0).field_id, 4);
  auto geo = Schema::Make(0, {Column(1, "g", Type::Geometry("srid:4326"))}).value();
  auto geo_columnar = ToColumnarSchema(geo).value();
  EXPECT_EQ(geo_columnar.field(0).type->id(), floe::TypeId::kBinary);
  EXPECT_EQ(geo_columnar.field(0).metadata, (KeyValueMetadata{{"iceberg.type", "geometry(srid:4326)"}}));
}

}  // namespace
}  // namespace floe::iceberg
