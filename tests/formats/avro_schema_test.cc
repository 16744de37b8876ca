// Avro schema parsing, printing and building.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "floe/formats/avro/schema.h"
#include "avro_test_util.h"

namespace floe::avro {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

using testing::MustParse;

TEST(AvroSchemaTest, ParsesIcebergManifestEntrySchemaWithFieldIds) {
  const std::string json = ReadText(std::string(FLOE_SHARED_DIR) + "/fixtures/iceberg/rust-testdata/avro_schema_manifest_entry.json");
  ASSERT_FALSE(json.empty());
  auto schema = MustParse(json);
  ASSERT_NE(schema, nullptr);
  const Node& root = schema->root();
  ASSERT_EQ(root.type(), Type::kRecord);
  EXPECT_EQ(root.name(), "manifest_entry");
  ASSERT_GE(root.fields().size(), 3u);
  EXPECT_EQ(root.fields()[0].name, "status");
  EXPECT_EQ(root.fields()[0].field_id(), 0);
  EXPECT_EQ(root.fields()[1].field_id(), 1);
  const int data_file = root.FieldIndex("data_file");
  ASSERT_GE(data_file, 0);
  const Node& df = *root.fields()[static_cast<size_t>(data_file)].type;
  ASSERT_EQ(df.type(), Type::kRecord);
  EXPECT_EQ(df.name(), "r2");
  const int path = df.FieldIndex("file_path");
  ASSERT_GE(path, 0);
  EXPECT_EQ(df.fields()[static_cast<size_t>(path)].field_id(), 100);
  EXPECT_EQ(df.fields()[static_cast<size_t>(path)].doc, "Location URI with FS scheme");

  // Printing keeps every attribute: the printed schema parses to the same print.
  const std::string printed = schema->ToJson();
  auto again = MustParse(printed);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->ToJson(), printed);
  EXPECT_NE(printed.find("\"field-id\":100"), std::string::npos);
}

TEST(AvroSchemaTest, KeepsIcebergCollectionIdsAndMapLogicalTypeOnArrays) {
  auto schema = MustParse(R"({"type":"record","name":"r","fields":[
    {"name":"m","type":{"type":"map","values":"long","key-id":5,"value-id":6},"field-id":4},
    {"name":"a","type":{"type":"array","items":{"type":"record","name":"k7_v8","fields":[
        {"name":"key","type":"int","field-id":7},{"name":"value","type":"bytes","field-id":8}]},
      "logicalType":"map"},"field-id":9},
    {"name":"l","type":{"type":"array","items":"string","element-id":11},"field-id":10}]})");
  ASSERT_NE(schema, nullptr);
  const Node& r = schema->root();
  EXPECT_EQ(r.fields()[0].type->IntAttribute("key-id"), 5);
  EXPECT_EQ(r.fields()[0].type->IntAttribute("value-id"), 6);
  ASSERT_NE(r.fields()[1].type->FindAttribute("logicalType"), nullptr);
  EXPECT_EQ(*r.fields()[1].type->FindAttribute("logicalType"), "\"map\"");
  EXPECT_EQ(r.fields()[1].type->logical_type(), LogicalType::kNone);  // not an Avro logical type
  EXPECT_EQ(r.fields()[2].type->IntAttribute("element-id"), 11);
  EXPECT_EQ(schema->ToJson(),
            R"({"type":"record","name":"r","fields":[{"name":"m","type":{"type":"map","values":"long","key-id":5,"value-id":6},"field-id":4},)"
            R"({"name":"a","type":{"type":"array","items":{"type":"record","name":"k7_v8","fields":[{"name":"key","type":"int","field-id":7},)"
            R"({"name":"value","type":"bytes","field-id":8}]},"logicalType":"map"},"field-id":9},)"
            R"({"name":"l","type":{"type":"array","items":"string","element-id":11},"field-id":10}]})");
}

TEST(AvroSchemaTest, ParsesLogicalTypesAndIgnoresInvalidOnes) {
  auto schema = MustParse(R"({"type":"record","name":"r","fields":[
    {"name":"d","type":{"type":"int","logicalType":"date"}},
    {"name":"tm","type":{"type":"int","logicalType":"time-millis"}},
    {"name":"tu","type":{"type":"long","logicalType":"time-micros"}},
    {"name":"ts","type":{"type":"long","logicalType":"timestamp-micros"}},
    {"name":"tn","type":{"type":"long","logicalType":"timestamp-nanos"}},
    {"name":"lt","type":{"type":"long","logicalType":"local-timestamp-millis"}},
    {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":38,"scale":10}},
    {"name":"decf","type":{"type":"fixed","name":"d9","size":9,"logicalType":"decimal","precision":20,"scale":2}},
    {"name":"u","type":{"type":"string","logicalType":"uuid"}},
    {"name":"uf","type":{"type":"fixed","name":"u16","size":16,"logicalType":"uuid"}},
    {"name":"bad_date","type":{"type":"string","logicalType":"date"}},
    {"name":"bad_dec","type":{"type":"bytes","logicalType":"decimal","precision":4,"scale":9}},
    {"name":"too_precise","type":{"type":"fixed","name":"f2","size":2,"logicalType":"decimal","precision":5}},
    {"name":"unknown","type":{"type":"long","logicalType":"floe-special"}}]})");
  ASSERT_NE(schema, nullptr);
  const auto& f = schema->root().fields();
  EXPECT_EQ(f[0].type->logical_type(), LogicalType::kDate);
  EXPECT_EQ(f[1].type->logical_type(), LogicalType::kTimeMillis);
  EXPECT_EQ(f[2].type->logical_type(), LogicalType::kTimeMicros);
  EXPECT_EQ(f[3].type->logical_type(), LogicalType::kTimestampMicros);
  EXPECT_EQ(f[4].type->logical_type(), LogicalType::kTimestampNanos);
  EXPECT_EQ(f[5].type->logical_type(), LogicalType::kLocalTimestampMillis);
  EXPECT_EQ(f[6].type->logical_type(), LogicalType::kDecimal);
  EXPECT_EQ(f[6].type->precision(), 38);
  EXPECT_EQ(f[6].type->scale(), 10);
  EXPECT_EQ(f[7].type->logical_type(), LogicalType::kDecimal);
  EXPECT_EQ(f[7].type->precision(), 20);
  EXPECT_EQ(f[8].type->logical_type(), LogicalType::kUuid);
  EXPECT_EQ(f[9].type->logical_type(), LogicalType::kUuid);
  EXPECT_EQ(f[10].type->logical_type(), LogicalType::kNone);
  EXPECT_EQ(f[11].type->logical_type(), LogicalType::kNone);
  EXPECT_EQ(f[12].type->logical_type(), LogicalType::kNone);
  EXPECT_EQ(f[13].type->logical_type(), LogicalType::kNone);
  EXPECT_NE(schema->ToJson().find("\"logicalType\":\"floe-special\""), std::string::npos);
}

TEST(AvroSchemaTest, ResolvesNamesThroughNamespacesAndReferences) {
  auto schema = MustParse(R"({"type":"record","name":"outer","namespace":"a.b","fields":[
    {"name":"f1","type":{"type":"fixed","name":"md5","size":16}},
    {"name":"f2","type":"md5"},
    {"name":"f3","type":"a.b.md5"},
    {"name":"f4","type":{"type":"enum","name":"x.color","symbols":["RED","GREEN"],"default":"RED"}},
    {"name":"f5","type":["null","x.color"]},
    {"name":"next","type":["null","outer"]}]})");
  ASSERT_NE(schema, nullptr);
  const auto& f = schema->root().fields();
  EXPECT_EQ(schema->root().full_name(), "a.b.outer");
  EXPECT_EQ(f[0].type, f[1].type);
  EXPECT_EQ(f[0].type, f[2].type);
  EXPECT_EQ(f[0].type->full_name(), "a.b.md5");
  EXPECT_EQ(f[3].type->full_name(), "x.color");
  EXPECT_EQ(f[4].type->branches()[1], f[3].type);
  EXPECT_EQ(f[5].type->branches()[1], &schema->root());  // recursive
  EXPECT_EQ(schema->FindNamed("x.color"), f[3].type);
  auto again = MustParse(schema->ToJson());
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->ToJson(), schema->ToJson());
  EXPECT_EQ(again->root().fields()[5].type->branches()[1], &again->root());
}

TEST(AvroSchemaTest, RejectsInvalidSchemasAsCorrupt) {
  const char* bad[] = {
      "",
      "{",
      "42",
      R"("strnig")",
      R"({"type":"record","name":"r"})",
      R"({"type":"record","fields":[]})",
      R"({"type":"record","name":"r","fields":[{"name":"a"}]})",
      R"({"type":"record","name":"r","fields":[{"name":"a","type":"int"},{"name":"a","type":"long"}]})",
      R"({"type":"record","name":"r","fields":[{"name":"a","type":"nope"}]})",
      R"({"type":"record","name":"r","fields":[{"name":"a","type":{"type":"record","name":"r","fields":[]}}]})",
      R"({"type":"record","name":"9r","fields":[]})",
      R"(["int",["long"]])",
      R"(["int","int"])",
      R"([])",
      R"({"type":"enum","name":"e","symbols":["A","A"]})",
      R"({"type":"enum","name":"e"})",
      R"({"type":"fixed","name":"f"})",
      R"({"type":"fixed","name":"f","size":-1})",
      R"({"type":"array"})",
      R"({"type":"map","values":"nope"})",
      R"({"type":"record","name":"int","fields":[]})",
      R"({"type":"enum","name":"e","symbols":["A"],"default":"B"})",
  };
  for (const char* json : bad) {
    SCOPED_TRACE(json);
    Result<std::shared_ptr<const Schema>> s = Schema::Parse(json);
    ASSERT_FALSE(s.ok());
    EXPECT_TRUE(s.status().IsCorrupt()) << s.status().ToString();
  }
  Result<std::shared_ptr<const Schema>> s = Schema::Parse(R"({"type":"record","name":"r","fields":[{"name":"a","type":"nope"}]})");
  EXPECT_NE(s.status().message().find("field 'a': unknown type 'nope'"), std::string::npos) << s.status().ToString();
}

TEST(AvroSchemaTest, RejectsNestingDeeperThanTheLimit) {
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += R"({"type":"array","items":)";
  deep += "\"int\"";
  for (int i = 0; i < 200; ++i) deep += "}";
  Result<std::shared_ptr<const Schema>> s = Schema::Parse(deep);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsCorrupt());
  EXPECT_NE(s.status().message().find("deeper"), std::string::npos);
}

TEST(AvroSchemaTest, BuilderMakesIcebergStyleSchemas) {
  SchemaBuilder b;
  const Node* kv = b.Record("k117_v118", {SchemaBuilder::IdField("key", b.Primitive(Type::kInt), 117),
                                          SchemaBuilder::IdField("value", b.Primitive(Type::kLong), 118)});
  const Node* sizes = b.Optional(b.Array(kv, {{"logicalType", "\"map\""}}));
  const Node* root = b.Record("manifest_entry", {SchemaBuilder::IdField("status", b.Primitive(Type::kInt), 0),
                                                 SchemaBuilder::IdField("column_sizes", sizes, 108),
                                                 SchemaBuilder::IdField("ts", b.Primitive(Type::kLong, LogicalType::kTimestampMicros), 3)});
  Result<std::shared_ptr<const Schema>> s = b.Build(root);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ((*s)->ToJson(),
            R"({"type":"record","name":"manifest_entry","fields":[{"name":"status","type":"int","field-id":0},)"
            R"({"name":"column_sizes","type":["null",{"type":"array","items":{"type":"record","name":"k117_v118","fields":[)"
            R"({"name":"key","type":"int","field-id":117},{"name":"value","type":"long","field-id":118}]},"logicalType":"map"}],)"
            R"("default":null,"field-id":108},{"name":"ts","type":{"type":"long","logicalType":"timestamp-micros"},"field-id":3}]})");
  EXPECT_EQ((*s)->root().fields()[2].type->logical_type(), LogicalType::kTimestampMicros);

  SchemaBuilder bad;
  const Node* u = bad.Union({bad.Primitive(Type::kInt), bad.Primitive(Type::kInt)});
  Result<std::shared_ptr<const Schema>> r = bad.Build(u);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalidArgument());
}

}  // namespace
}  // namespace floe::avro
