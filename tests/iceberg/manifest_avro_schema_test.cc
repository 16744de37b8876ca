// The Avro schemas of manifests and manifest lists per format version, as
// the spec's tables and Appendix A give them, checked field by field and
// against the schemas Java wrote into the fixtures' files.

#include "floe/iceberg/manifest_avro_schema.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "floe/base/strings.h"
#include "floe/formats/avro/container_reader.h"
#include "iceberg/manifest_test_util.h"

namespace floe::iceberg {
namespace {

using testing::Col;

struct FieldInfo {
  std::string name;
  int32_t id;
  bool optional;
  bool operator==(const FieldInfo&) const = default;
};

std::ostream& operator<<(std::ostream& os, const FieldInfo& f) {
  return os << f.id << ":" << f.name << (f.optional ? "?" : "");
}

bool IsOptional(const avro::Field& f) {
  return f.type->type() == avro::Type::kUnion && f.type->NullBranch() == 0 && f.default_json == "null";
}

std::vector<FieldInfo> Fields(const avro::Node& record) {
  std::vector<FieldInfo> out;
  for (const avro::Field& f : record.fields()) out.push_back({f.name, f.field_id().value_or(-1), IsOptional(f)});
  return out;
}

const avro::Node& FieldType(const avro::Node& record, std::string_view name) {
  const int i = record.FieldIndex(name);
  EXPECT_GE(i, 0) << name;
  const avro::Node* t = record.fields()[static_cast<size_t>(i)].type;
  return t->type() == avro::Type::kUnion ? *t->branches()[1] : *t;
}

TEST(ManifestAvroSchemaTest, ManifestEntryFieldsPerVersion) {
  const TypePtr no_partition = Type::Struct({});
  auto v1 = ManifestEntryAvroSchema(1, *no_partition);
  auto v2 = ManifestEntryAvroSchema(2, *no_partition);
  auto v3 = ManifestEntryAvroSchema(3, *no_partition);
  ASSERT_TRUE(v1.ok() && v2.ok() && v3.ok());
  // spec: snapshot_id is required in v1; sequence numbers arrive in v2.
  EXPECT_EQ(Fields((*v1)->root()),
            (std::vector<FieldInfo>{{"status", 0, false}, {"snapshot_id", 1, false}, {"data_file", 2, false}}));
  const std::vector<FieldInfo> entry_v2 = {{"status", 0, false},
                                           {"snapshot_id", 1, true},
                                           {"sequence_number", 3, true},
                                           {"file_sequence_number", 4, true},
                                           {"data_file", 2, false}};
  EXPECT_EQ(Fields((*v2)->root()), entry_v2);
  EXPECT_EQ(Fields((*v3)->root()), entry_v2);

  const std::vector<FieldInfo> common_tail = {{"column_sizes", 108, true},      {"value_counts", 109, true},
                                              {"null_value_counts", 110, true}, {"nan_value_counts", 137, true},
                                              {"lower_bounds", 125, true},      {"upper_bounds", 128, true},
                                              {"key_metadata", 131, true},      {"split_offsets", 132, true}};
  std::vector<FieldInfo> df1 = {{"file_path", 100, false},          {"file_format", 101, false},
                                {"partition", 102, false},          {"record_count", 103, false},
                                {"file_size_in_bytes", 104, false}, {"block_size_in_bytes", 105, false}};
  df1.insert(df1.end(), common_tail.begin(), common_tail.end());
  df1.push_back({"sort_order_id", 140, true});
  EXPECT_EQ(Fields(FieldType((*v1)->root(), "data_file")), df1);

  std::vector<FieldInfo> df2 = {{"content", 134, false},      {"file_path", 100, false},
                                {"file_format", 101, false},  {"partition", 102, false},
                                {"record_count", 103, false}, {"file_size_in_bytes", 104, false}};
  df2.insert(df2.end(), common_tail.begin(), common_tail.end());
  std::vector<FieldInfo> df3 = df2;
  df2.insert(df2.end(),
             {{"equality_ids", 135, true}, {"sort_order_id", 140, true}, {"referenced_data_file", 143, true}});
  EXPECT_EQ(Fields(FieldType((*v2)->root(), "data_file")), df2);
  df3.insert(df3.end(), {{"equality_ids", 135, true},
                         {"sort_order_id", 140, true},
                         {"first_row_id", 142, true},
                         {"referenced_data_file", 143, true},
                         {"content_offset", 144, true},
                         {"content_size_in_bytes", 145, true}});
  EXPECT_EQ(Fields(FieldType((*v3)->root(), "data_file")), df3);

  // Appendix A: maps with int keys are arrays of key/value records.
  const avro::Node& lower = FieldType(FieldType((*v2)->root(), "data_file"), "lower_bounds");
  ASSERT_EQ(lower.type(), avro::Type::kArray);
  EXPECT_EQ(*lower.FindAttribute("logicalType"), "\"map\"");
  EXPECT_EQ(lower.items()->name(), "k126_v127");
  EXPECT_EQ(Fields(*lower.items()), (std::vector<FieldInfo>{{"key", 126, false}, {"value", 127, false}}));
  EXPECT_EQ(lower.items()->fields()[1].type->type(), avro::Type::kBytes);
  const avro::Node& splits = FieldType(FieldType((*v2)->root(), "data_file"), "split_offsets");
  EXPECT_EQ(splits.IntAttribute("element-id"), 133);
  EXPECT_EQ(splits.items()->type(), avro::Type::kLong);
  EXPECT_EQ(FieldType(FieldType((*v2)->root(), "data_file"), "equality_ids").IntAttribute("element-id"), 136);
  EXPECT_EQ(FieldType((*v2)->root(), "data_file").name(), "r2");
  EXPECT_EQ(FieldType(FieldType((*v2)->root(), "data_file"), "partition").name(), "r102");
  EXPECT_TRUE(ManifestEntryAvroSchema(4, *no_partition).status().IsInvalidArgument());
  EXPECT_TRUE(ManifestEntryAvroSchema(2, *Type::Long()).status().IsInvalidArgument());
}

TEST(ManifestAvroSchemaTest, PartitionFieldsUseAppendixATypes) {
  const Schema schema = testing::WideSchema();
  const TypePtr type = testing::WideSpec().PartitionType(schema).value();
  auto s = ManifestEntryAvroSchema(2, *type);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  const avro::Node& partition = FieldType(FieldType((*s)->root(), "data_file"), "partition");
  ASSERT_EQ(partition.fields().size(), 19u);
  for (size_t i = 0; i < partition.fields().size(); ++i) {
    const avro::Field& f = partition.fields()[i];
    EXPECT_TRUE(IsOptional(f)) << f.name;
    EXPECT_EQ(f.field_id(), type->fields()[i].field_id);
  }
  auto type_of = [&](std::string_view name) { return &FieldType(partition, name); };
  EXPECT_EQ(type_of("id_bucket")->type(), avro::Type::kInt);
  EXPECT_EQ(type_of("ts_day")->logical_type(), avro::LogicalType::kDate);
  EXPECT_EQ(type_of("tstz_hour")->type(), avro::Type::kInt);
  EXPECT_EQ(type_of("price")->type(), avro::Type::kFixed);
  EXPECT_EQ(type_of("price")->fixed_size(), 4);  // decimal(9, 2): 4 bytes hold 999999999
  EXPECT_EQ(type_of("price")->precision(), 9);
  EXPECT_EQ(type_of("price")->scale(), 2);
  EXPECT_EQ(type_of("big")->fixed_size(), 16);
  EXPECT_EQ(type_of("uid")->logical_type(), avro::LogicalType::kUuid);
  EXPECT_EQ(type_of("uid")->fixed_size(), 16);
  EXPECT_EQ(type_of("code")->fixed_size(), 4);
  EXPECT_EQ(type_of("blob")->type(), avro::Type::kBytes);
  EXPECT_EQ(type_of("t")->logical_type(), avro::LogicalType::kTimeMicros);
  EXPECT_EQ(type_of("ts")->logical_type(), avro::LogicalType::kTimestampMicros);
  EXPECT_EQ(*type_of("ts")->FindAttribute("adjust-to-utc"), "false");
  EXPECT_EQ(*type_of("tstz")->FindAttribute("adjust-to-utc"), "true");
  EXPECT_EQ(type_of("score")->type(), avro::Type::kDouble);
  EXPECT_EQ(type_of("ratio")->type(), avro::Type::kFloat);
  EXPECT_EQ(type_of("flag")->type(), avro::Type::kBoolean);
  // Not a valid Avro name as written: sanitised as Java does.
  EXPECT_GE(partition.FieldIndex("_1st_x20n_x2Dvalue"), 0);

  // The same fixed type twice is defined once, then referenced.
  const TypePtr twice = Type::Struct({Col(1000, "a", Type::Decimal(9, 2).value()),
                                      Col(1001, "b", Type::Decimal(9, 2).value()), Col(1002, "u", Type::Unknown())});
  auto t = ManifestEntryAvroSchema(3, *twice);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const avro::Node& p2 = FieldType(FieldType((*t)->root(), "data_file"), "partition");
  EXPECT_EQ(&FieldType(p2, "a"), &FieldType(p2, "b"));
  EXPECT_EQ(p2.fields()[2].type->type(), avro::Type::kNull);  // unknown: always null
  EXPECT_TRUE(
      ManifestEntryAvroSchema(2, *Type::Struct({Col(1000, "v", Type::Variant())})).status().IsInvalidArgument());
}

TEST(ManifestAvroSchemaTest, ManifestFileFieldsPerVersion) {
  auto v1 = ManifestFileAvroSchema(1);
  auto v2 = ManifestFileAvroSchema(2);
  auto v3 = ManifestFileAvroSchema(3);
  ASSERT_TRUE(v1.ok() && v2.ok() && v3.ok());
  EXPECT_EQ(Fields((*v1)->root()), (std::vector<FieldInfo>{{"manifest_path", 500, false},
                                                           {"manifest_length", 501, false},
                                                           {"partition_spec_id", 502, false},
                                                           {"added_snapshot_id", 503, false},
                                                           {"added_files_count", 504, true},
                                                           {"existing_files_count", 505, true},
                                                           {"deleted_files_count", 506, true},
                                                           {"added_rows_count", 512, true},
                                                           {"existing_rows_count", 513, true},
                                                           {"deleted_rows_count", 514, true},
                                                           {"partitions", 507, true},
                                                           {"key_metadata", 519, true}}));
  std::vector<FieldInfo> f2 = {{"manifest_path", 500, false},        {"manifest_length", 501, false},
                               {"partition_spec_id", 502, false},    {"content", 517, false},
                               {"sequence_number", 515, false},      {"min_sequence_number", 516, false},
                               {"added_snapshot_id", 503, false},    {"added_files_count", 504, false},
                               {"existing_files_count", 505, false}, {"deleted_files_count", 506, false},
                               {"added_rows_count", 512, false},     {"existing_rows_count", 513, false},
                               {"deleted_rows_count", 514, false},   {"partitions", 507, true},
                               {"key_metadata", 519, true}};
  EXPECT_EQ(Fields((*v2)->root()), f2);
  f2.push_back({"first_row_id", 520, true});
  EXPECT_EQ(Fields((*v3)->root()), f2);
  const avro::Node& partitions = FieldType((*v2)->root(), "partitions");
  EXPECT_EQ(partitions.IntAttribute("element-id"), 508);
  EXPECT_EQ(partitions.items()->name(), "r508");
  EXPECT_EQ(Fields(*partitions.items()), (std::vector<FieldInfo>{{"contains_null", 509, false},
                                                                 {"contains_nan", 518, true},
                                                                 {"lower_bound", 510, true},
                                                                 {"upper_bound", 511, true}}));
}

TEST(ManifestAvroSchemaTest, HelpersFollowTheSpecAndJava) {
  // minBytesRequired(P): 2^(8n-1) > 10^P - 1.
  const std::map<int, int> sizes = {{1, 1}, {2, 1}, {3, 2}, {4, 2}, {9, 4}, {10, 5}, {18, 8}, {19, 9}, {38, 16}};
  for (auto [p, n] : sizes) EXPECT_EQ(DecimalFixedSize(p), n) << p;
  EXPECT_EQ(AvroCompatibleName("ok_name1"), "ok_name1");
  EXPECT_EQ(AvroCompatibleName("1x"), "_1x");
  EXPECT_EQ(AvroCompatibleName("a-b"), "a_x2Db");
  EXPECT_EQ(AvroCompatibleName("a.b c"), "a_x2Eb_x20c");
  EXPECT_EQ(*AvroTypeJson(*Type::TimestampTzNs()),
            R"({"type":"long","logicalType":"timestamp-nanos","adjust-to-utc":true})");
  EXPECT_EQ(*AvroTypeJson(*Type::Decimal(9, 2).value()),
            R"({"type":"fixed","name":"decimal_9_2","size":4,"logicalType":"decimal","precision":9,"scale":2})");
}

// Java's v2 manifest in the fixtures: floe's schema for the same partition
// type has the same fields, ids, types and optionality, apart from fields
// Java's version there did not write yet.
TEST(ManifestAvroSchemaTest, MatchesTheSchemaJavaWrote) {
  const std::string path = std::string(FLOE_SHARED_DIR) +
                           "/fixtures/iceberg/duckdb-iceberg/data/persistent/partition_integer/metadata/"
                           "b1dda674-423f-4f23-b00d-92b608b07a38-m0.avro";
  auto io = NewLocalFileIO();
  auto r = avro::ContainerReader::Open(*io, path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const TypePtr type = Type::Struct({Col(1000, "partition_col", Type::Int())});
  auto ours = ManifestEntryAvroSchema(2, *type);
  ASSERT_TRUE(ours.ok());
  // Each node as text without docs, by path.
  std::function<void(const avro::Node&, const std::string&, std::map<std::string, std::string>*)> walk;
  walk = [&](const avro::Node& n, const std::string& at, std::map<std::string, std::string>* out) {
    if (n.type() == avro::Type::kRecord) {
      for (const avro::Field& f : n.fields()) {
        const std::string p = at + "/" + f.name;
        std::string desc = StrCat(f.field_id().value_or(-1), IsOptional(f) ? "?" : "");
        const avro::Node& t = f.type->type() == avro::Type::kUnion ? *f.type->branches()[1] : *f.type;
        desc += std::string(avro::TypeName(t.type()));
        if (const std::string* lt = t.FindAttribute("logicalType")) desc += *lt;
        if (auto e = t.IntAttribute("element-id")) desc += StrCat("e", *e);
        (*out)[p] = desc;
        walk(t.type() == avro::Type::kArray ? *t.items() : t, p, out);
      }
    }
  };
  std::map<std::string, std::string> java, floe_side;
  walk((*r)->writer_schema()->root(), "", &java);
  walk((*ours)->root(), "", &floe_side);
  for (const auto& [p, desc] : java) {
    ASSERT_TRUE(floe_side.count(p)) << p;
    EXPECT_EQ(floe_side[p], desc) << p;
  }
  EXPECT_EQ(floe_side.size(), java.size() + 1);  // + referenced_data_file (143), newer than that Java
  EXPECT_TRUE(floe_side.count("/data_file/referenced_data_file"));
}

}  // namespace
}  // namespace floe::iceberg
