// Cross-check with Python's avro (Debian's python3-avro): a manifest and a
// manifest list written by floe, read by tests/formats/avro_python_read.py,
// which prints the field ids it found in the embedded schema and the rows
// as JSON; compared here value by value.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <set>
#include <string>
#include <vector>

#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_writer.h"
#include "iceberg/manifest_test_util.h"
#include "iceberg/python_avro.h"
#include "testing/required_tools.h"
#include "testing/temp_dir.h"

namespace floe::iceberg {
namespace {

using testing::Col;
using testing::Entry;
using testing::Id;
using testing::Ids;
using testing::Int;
using testing::PythonHasAvro;
using testing::ReadWithPython;
using testing::Str;

Schema PySchema() {
  return Schema::Make(1, {Col(1, "id", Type::Long(), true), Col(2, "category", Type::String()),
                          Col(3, "ts", Type::TimestampTz()), Col(4, "price", Type::Decimal(9, 2).value())})
      .value();
}

PartitionSpec PySpec() {
  PartitionSpec spec;
  spec.spec_id = 1;
  spec.fields = {PartitionField{{2}, 1000, "category", Transform::Identity()},
                 PartitionField{{3}, 1001, "ts_day", Transform::Day()},
                 PartitionField{{4}, 1002, "price", Transform::Identity()},
                 PartitionField{{1}, 1003, "id_bucket", Transform::Bucket(8).value()},
                 PartitionField{{3}, 1004, "ts", Transform::Identity()}};
  return spec;
}

TEST(ManifestPythonTest, PythonReadsFloeManifestsWithTheSpecsFieldIds) {
  FLOE_REQUIRE_TOOL(PythonHasAvro(), "/usr/bin/python3 has no avro module (Debian python3-avro)");
  floe::testing::TempDir dir;
  auto io = NewLocalFileIO();
  const std::string path = dir.Join("m0.avro");
  auto w = ManifestWriter::Open(*io, path, 2, PySpec(), PySchema(), 5470601323427916272, ManifestContent::kData);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  for (int i = 0; i < 2; ++i) {
    DataFile f;
    f.file_path = "s3://bucket/t/data/" + std::to_string(i) + ".parquet";
    f.spec_id = 1;
    f.partition = {i == 1 ? std::nullopt : std::optional<Literal>(Literal::String("toys")), Literal::Date(20747 + i),
                   testing::Dec(Type::Decimal(9, 2).value(), i == 0 ? 123456 : -5), Literal::Int(3),
                   Literal::TimestampTz(int64_t{1792612800} * 1000000)};
    f.record_count = 1000 * (i + 1);
    f.file_size_in_bytes = 4096 + i;
    f.column_sizes = {{1, 36}, {2, 40}};
    f.lower_bounds = {{1, std::string("\x39\x05\x00\x00\x00\x00\x00\x00", 8)}};
    f.split_offsets = {4};
    f.key_metadata = std::string("\x00\xff", 2);
    if (i == 0) {
      ASSERT_TRUE((*w)->Add(Entry(f)).ok());
    } else {
      ASSERT_TRUE((*w)->Existing(Entry(f, 17, 2, 3)).ok());
    }
  }
  auto manifest = (*w)->Close();
  ASSERT_TRUE(manifest.ok());

  simdjson::dom::parser parser;
  std::string text;
  simdjson::dom::element doc = ReadWithPython(path, &parser, &text);
  EXPECT_EQ(Str(doc["codec"]), "deflate");
  EXPECT_EQ(Str(doc["meta"]["format-version"]), "2");
  EXPECT_EQ(Str(doc["meta"]["content"]), "data");
  EXPECT_EQ(Str(doc["meta"]["partition-spec-id"]), "1");
  EXPECT_EQ(Str(doc["meta"]["schema-id"]), "1");
  EXPECT_EQ(Str(doc["meta"]["partition-spec"]).substr(0, 2), "[{");

  // Every id the spec gives, as Python found them in the file's schema.
  std::set<Id> expected = {{"status", "field-id", "0"},
                           {"snapshot_id", "field-id", "1"},
                           {"sequence_number", "field-id", "3"},
                           {"file_sequence_number", "field-id", "4"},
                           {"data_file", "field-id", "2"}};
  const std::vector<std::pair<std::string, int>> df = {
      {"content", 134},          {"file_path", 100},           {"file_format", 101},
      {"partition", 102},        {"record_count", 103},        {"file_size_in_bytes", 104},
      {"column_sizes", 108},     {"value_counts", 109},        {"null_value_counts", 110},
      {"nan_value_counts", 137}, {"lower_bounds", 125},        {"upper_bounds", 128},
      {"key_metadata", 131},     {"split_offsets", 132},       {"equality_ids", 135},
      {"sort_order_id", 140},    {"referenced_data_file", 143}};
  for (const auto& [name, id] : df) expected.emplace("data_file." + name, "field-id", std::to_string(id));
  const std::vector<std::tuple<std::string, int, int>> maps = {
      {"column_sizes", 117, 118},     {"value_counts", 119, 120}, {"null_value_counts", 121, 122},
      {"nan_value_counts", 138, 139}, {"lower_bounds", 126, 127}, {"upper_bounds", 129, 130}};
  for (const auto& [name, key, value] : maps) {
    expected.emplace("data_file." + name, "logicalType", "\"map\"");
    expected.emplace("data_file." + name + "[].key", "field-id", std::to_string(key));
    expected.emplace("data_file." + name + "[].value", "field-id", std::to_string(value));
  }
  expected.emplace("data_file.split_offsets", "element-id", "133");
  expected.emplace("data_file.equality_ids", "element-id", "136");
  const std::vector<std::pair<std::string, int>> partition = {
      {"category", 1000}, {"ts_day", 1001}, {"price", 1002}, {"id_bucket", 1003}, {"ts", 1004}};
  for (const auto& [name, id] : partition)
    expected.emplace("data_file.partition." + name, "field-id", std::to_string(id));
  EXPECT_EQ(Ids(doc), expected);

  simdjson::dom::array rows = doc["rows"].get_array();
  ASSERT_EQ(rows.size(), 2u);
  simdjson::dom::element r0 = rows.at(0), r1 = rows.at(1);
  EXPECT_EQ(Int(r0["status"]), 1);
  EXPECT_EQ(Int(r0["snapshot_id"]), 5470601323427916272);
  EXPECT_TRUE(r0["sequence_number"].is_null());  // ADDED: inherited at commit
  EXPECT_TRUE(r0["file_sequence_number"].is_null());
  EXPECT_EQ(Int(r1["status"]), 0);
  EXPECT_EQ(Int(r1["snapshot_id"]), 17);
  EXPECT_EQ(Int(r1["sequence_number"]), 2);
  EXPECT_EQ(Int(r1["file_sequence_number"]), 3);
  simdjson::dom::element f0 = r0["data_file"], f1 = r1["data_file"];
  EXPECT_EQ(Int(f0["content"]), 0);
  EXPECT_EQ(Str(f0["file_path"]), "s3://bucket/t/data/0.parquet");
  EXPECT_EQ(Str(f0["file_format"]), "PARQUET");
  EXPECT_EQ(Int(f0["record_count"]), 1000);
  EXPECT_EQ(Int(f1["file_size_in_bytes"]), 4097);
  EXPECT_EQ(Str(f0["partition"]["category"]), "toys");
  EXPECT_TRUE(f1["partition"]["category"].is_null());
  EXPECT_EQ(Str(f0["partition"]["ts_day"]), "2026-10-21");  // Appendix A: date
  EXPECT_EQ(Str(f1["partition"]["ts_day"]), "2026-10-22");
  EXPECT_EQ(Str(f0["partition"]["price"]), "1234.56");  // decimal(9,2) in a 4-byte fixed
  EXPECT_EQ(Str(f1["partition"]["price"]), "-0.05");
  EXPECT_EQ(Int(f0["partition"]["id_bucket"]), 3);
  EXPECT_EQ(Str(f0["partition"]["ts"]), "2026-10-21 20:00:00+00:00");
  EXPECT_EQ(simdjson::minify(f0["column_sizes"]), R"([{"key":1,"value":36},{"key":2,"value":40}])");
  EXPECT_EQ(simdjson::minify(f0["lower_bounds"]), R"([{"key":1,"value":"hex:3905000000000000"}])");
  EXPECT_TRUE(f0["upper_bounds"].is_null());
  EXPECT_EQ(simdjson::minify(f0["split_offsets"]), "[4]");
  EXPECT_EQ(Str(f0["key_metadata"]), "hex:00ff");
  EXPECT_TRUE(f0["equality_ids"].is_null());
  EXPECT_TRUE(f0["referenced_data_file"].is_null());

  // The manifest list that commits it, v3 for the row ids.
  const std::string list = dir.Join("snap-1.avro");
  auto lw = ManifestListWriter::Open(*io, list, 3, 5470601323427916272, std::nullopt, 6, 100);
  ASSERT_TRUE(lw.ok()) << lw.status().ToString();
  ASSERT_TRUE((*lw)->Add(*manifest).ok());
  ASSERT_TRUE((*lw)->Close().ok());
  simdjson::dom::parser list_parser;
  std::string list_text;
  simdjson::dom::element ldoc = ReadWithPython(list, &list_parser, &list_text);
  EXPECT_EQ(Str(ldoc["meta"]["snapshot-id"]), "5470601323427916272");
  EXPECT_EQ(Str(ldoc["meta"]["parent-snapshot-id"]), "null");
  EXPECT_EQ(Str(ldoc["meta"]["sequence-number"]), "6");
  EXPECT_EQ(Str(ldoc["meta"]["first-row-id"]), "100");
  EXPECT_EQ(Str(ldoc["meta"]["format-version"]), "3");
  std::set<Id> list_ids;
  const std::vector<std::pair<std::string, int>> lf = {{"manifest_path", 500},
                                                       {"manifest_length", 501},
                                                       {"partition_spec_id", 502},
                                                       {"content", 517},
                                                       {"sequence_number", 515},
                                                       {"min_sequence_number", 516},
                                                       {"added_snapshot_id", 503},
                                                       {"added_files_count", 504},
                                                       {"existing_files_count", 505},
                                                       {"deleted_files_count", 506},
                                                       {"added_rows_count", 512},
                                                       {"existing_rows_count", 513},
                                                       {"deleted_rows_count", 514},
                                                       {"partitions", 507},
                                                       {"key_metadata", 519},
                                                       {"first_row_id", 520},
                                                       {"partitions[].contains_null", 509},
                                                       {"partitions[].contains_nan", 518},
                                                       {"partitions[].lower_bound", 510},
                                                       {"partitions[].upper_bound", 511}};
  for (const auto& [name, id] : lf) list_ids.emplace(name, "field-id", std::to_string(id));
  list_ids.emplace("partitions", "element-id", "508");
  EXPECT_EQ(Ids(ldoc), list_ids);
  simdjson::dom::array lrows = ldoc["rows"].get_array();
  ASSERT_EQ(lrows.size(), 1u);
  simdjson::dom::element m = lrows.at(0);
  EXPECT_EQ(Str(m["manifest_path"]), path);
  EXPECT_EQ(Int(m["manifest_length"]), io->Stat(path)->size);
  EXPECT_EQ(Int(m["partition_spec_id"]), 1);
  EXPECT_EQ(Int(m["content"]), 0);
  EXPECT_EQ(Int(m["sequence_number"]), 6);      // assigned at commit
  EXPECT_EQ(Int(m["min_sequence_number"]), 2);  // the existing entry's
  EXPECT_EQ(Int(m["added_snapshot_id"]), 5470601323427916272);
  EXPECT_EQ(Int(m["added_files_count"]), 1);
  EXPECT_EQ(Int(m["existing_files_count"]), 1);
  EXPECT_EQ(Int(m["deleted_files_count"]), 0);
  EXPECT_EQ(Int(m["added_rows_count"]), 1000);
  EXPECT_EQ(Int(m["existing_rows_count"]), 2000);
  EXPECT_EQ(Int(m["first_row_id"]), 100);
  // Summaries: category has a null; ts_day spans both days; price's bounds
  // are Appendix D's minimal big-endian bytes (-5 -> fb, 123456 -> 01e240).
  EXPECT_EQ(
      simdjson::minify(m["partitions"]),
      R"([{"contains_nan":false,"contains_null":true,"lower_bound":"hex:746f7973","upper_bound":"hex:746f7973"},)"
      R"({"contains_nan":false,"contains_null":false,"lower_bound":"hex:0b510000","upper_bound":"hex:0c510000"},)"
      R"({"contains_nan":false,"contains_null":false,"lower_bound":"hex:fb","upper_bound":"hex:01e240"},)"
      R"({"contains_nan":false,"contains_null":false,"lower_bound":"hex:03000000","upper_bound":"hex:03000000"},)"
      R"({"contains_nan":false,"contains_null":false,"lower_bound":"hex:00f029315f5e0600","upper_bound":"hex:00f029315f5e0600"}])");
}

}  // namespace
}  // namespace floe::iceberg
