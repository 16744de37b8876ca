// Cross-check with Python's avro (Debian's python3-avro) on manifests and
// manifest lists from real commits: v1, v2 and v3 tables written through
// Table (appends, a metadata-only delete, merge-on-read deletes: position
// delete files in v2, a deletion vector in v3, and an equality delete file
// by row delta). Every manifest list and manifest the head snapshot reaches
// is read by Python: the schema's field ids must be exactly the spec's for
// the version (and, in manifests, of the partition spec), and every row's
// values must be what floe reads back, raw where the spec leaves a field
// null to be inherited (snapshot id and sequence numbers of ADDED entries,
// a v3 data file's first row id).

#include <gtest/gtest.h>
#include <simdjson.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "floe/base/strings.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/iceberg/data_file_writer.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/new_table_metadata.h"
#include "floe/iceberg/table.h"
#include "iceberg/memory_table_operations.h"
#include "iceberg/python_avro.h"
#include "testing/required_tools.h"
#include "testing/temp_dir.h"

namespace floe::iceberg {
namespace {

using testing::Id;
using testing::Ids;
using testing::Int;
using testing::MemoryTableOperations;
using testing::PythonHasAvro;
using testing::ReadWithPython;
using testing::Str;

// spec "Manifest Lists": the field ids of manifest_file per version.
std::set<Id> ManifestListIds(int version) {
  std::vector<std::pair<std::string, int>> fields = {
      {"manifest_path", 500},        {"manifest_length", 501},       {"partition_spec_id", 502},
      {"added_snapshot_id", 503},    {"added_files_count", 504},     {"existing_files_count", 505},
      {"deleted_files_count", 506},  {"added_rows_count", 512},      {"existing_rows_count", 513},
      {"deleted_rows_count", 514},   {"partitions", 507},            {"partitions[].contains_null", 509},
      {"partitions[].contains_nan", 518}, {"partitions[].lower_bound", 510}, {"partitions[].upper_bound", 511},
      {"key_metadata", 519}};
  if (version >= 2) fields.insert(fields.end(), {{"content", 517}, {"sequence_number", 515}, {"min_sequence_number", 516}});
  if (version >= 3) fields.emplace_back("first_row_id", 520);
  std::set<Id> ids;
  for (const auto& [name, id] : fields) ids.emplace(name, "field-id", std::to_string(id));
  ids.emplace("partitions", "element-id", "508");
  return ids;
}

// spec "Manifests": the field ids of manifest_entry and data_file per
// version, with the partition field `category` (1000).
std::set<Id> ManifestIds(int version) {
  std::set<Id> ids = {{"status", "field-id", "0"}, {"snapshot_id", "field-id", "1"}, {"data_file", "field-id", "2"}};
  if (version >= 2) {
    ids.emplace("sequence_number", "field-id", "3");
    ids.emplace("file_sequence_number", "field-id", "4");
  }
  std::vector<std::pair<std::string, int>> df = {
      {"file_path", 100},    {"file_format", 101},       {"partition", 102},         {"record_count", 103},
      {"file_size_in_bytes", 104}, {"column_sizes", 108}, {"value_counts", 109},      {"null_value_counts", 110},
      {"nan_value_counts", 137},   {"lower_bounds", 125}, {"upper_bounds", 128},      {"key_metadata", 131},
      {"split_offsets", 132},      {"sort_order_id", 140}};
  if (version == 1) df.emplace_back("block_size_in_bytes", 105);
  if (version >= 2) df.insert(df.end(), {{"content", 134}, {"equality_ids", 135}, {"referenced_data_file", 143}});
  if (version >= 3) df.insert(df.end(), {{"first_row_id", 142}, {"content_offset", 144}, {"content_size_in_bytes", 145}});
  for (const auto& [name, id] : df) ids.emplace("data_file." + name, "field-id", std::to_string(id));
  const std::vector<std::tuple<std::string, int, int>> maps = {
      {"column_sizes", 117, 118},     {"value_counts", 119, 120}, {"null_value_counts", 121, 122},
      {"nan_value_counts", 138, 139}, {"lower_bounds", 126, 127}, {"upper_bounds", 129, 130}};
  for (const auto& [name, key, value] : maps) {
    ids.emplace("data_file." + name, "logicalType", "\"map\"");
    ids.emplace("data_file." + name + "[].key", "field-id", std::to_string(key));
    ids.emplace("data_file." + name + "[].value", "field-id", std::to_string(value));
  }
  ids.emplace("data_file.split_offsets", "element-id", "133");
  if (version >= 2) ids.emplace("data_file.equality_ids", "element-id", "136");
  ids.emplace("data_file.partition.category", "field-id", "1000");
  return ids;
}

// JSON of a value as avro_python_read.py prints it.
std::string Json(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "null"; }
std::string Json(const std::optional<std::string>& v) { return v ? "\"" + *v + "\"" : "null"; }
std::string HexJson(const std::optional<std::string>& bytes) {
  if (!bytes) return "null";
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"hex:";
  for (unsigned char c : *bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out + "\"";
}
template <typename V, typename F>
std::string MapJson(const std::map<int32_t, V>& m, F value) {
  if (m.empty()) return "null";
  std::string out = "[";
  for (const auto& [k, v] : m) out += StrCat(out.size() > 1 ? "," : "", R"({"key":)", k, R"(,"value":)", value(v), "}");
  return out + "]";
}

class ManifestPythonCommitsTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    FLOE_REQUIRE_TOOL(PythonHasAvro(), "/usr/bin/python3 has no avro module (Debian python3-avro)");
    TableDefinition def;
    def.schema = Schema::Make(0, {NestedField{1, "id", Type::Long(), true, {}, {}, {}},
                                  NestedField{2, "category", Type::String(), false, {}, {}, {}}})
                     .value();
    def.partition_spec.fields.push_back(PartitionField{{2}, 1000, "category", Transform::Identity()});
    def.location = dir_.Join("t");
    def.format_version = GetParam();
    if (GetParam() >= 2) def.properties["write.delete.mode"] = "merge-on-read";
    ops_ = std::make_shared<MemoryTableOperations>(io_, NewTableMetadata(def).value());
    table_ = std::make_unique<Table>(ops_);
  }

  Result<RecordBatch> Batch(const std::vector<std::pair<int64_t, std::string>>& rows) {
    Int64Builder ids;
    StringBuilder categories;
    for (const auto& [id, category] : rows) {
      FLOE_RETURN_IF_ERROR(ids.Append(id));
      FLOE_RETURN_IF_ERROR(categories.Append(category));
    }
    FLOE_ASSIGN_OR_RETURN(auto schema, table_->WriteSchema());
    FLOE_ASSIGN_OR_RETURN(auto id_array, ids.Finish());
    FLOE_ASSIGN_OR_RETURN(auto category_array, categories.Finish());
    return RecordBatch::Make(schema, {std::move(id_array), std::move(category_array)});
  }
  // One batch of `rows`, then the end.
  BatchSource Source(const std::vector<std::pair<int64_t, std::string>>& rows) {
    auto batch = Batch(rows);
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    auto given = std::make_shared<bool>(!batch.ok());
    return [batch, given]() -> Result<std::optional<RecordBatch>> {
      if (*given) return std::optional<RecordBatch>();
      *given = true;
      return std::optional<RecordBatch>(*batch);
    };
  }
  void Append(const std::vector<std::pair<int64_t, std::string>>& rows) {
    auto appended = table_->Append(Source(rows));
    ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  }
  void SetProperty(const std::string& key, const std::string& value) {
    auto set = table_->CommitChanges(
        [&](const TableMetadata&) -> Result<std::pair<std::vector<TableRequirement>, std::vector<TableUpdate>>> {
          return std::make_pair(std::vector<TableRequirement>{},
                                std::vector<TableUpdate>{SetProperties{{{key, value}}}});
        });
    ASSERT_TRUE(set.ok()) << set.status().ToString();
  }
  // The head's data manifests.
  std::vector<ManifestFile> DataManifests() {
    std::vector<ManifestFile> data;
    const TableState state = ops_->Refresh().value();
    std::vector<ManifestFile> listed =
        ReadManifestList(*io_, state.metadata->current_snapshot()->manifest_list).value();
    for (auto& m : listed) {
      if (m.content == ManifestContent::kData) data.push_back(std::move(m));
    }
    return data;
  }
  void Delete(const std::string& where) {
    auto deleted = table_->Delete(ParseExpression(where).value());
    ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  }
  // An equality delete file on `id` (a whole row; the spec allows more
  // columns than the equality ids), committed by row delta.
  void EqualityDelete(int64_t id, const std::string& category) {
    auto state = table_->Refresh().value();
    auto options = DataWriterOptions::FromTable(*state.metadata).value();
    auto writer = DataFileWriter::Make(io_, *state.metadata, options).value();
    ASSERT_TRUE(writer->Write(Batch({{id, category}}).value()).ok());
    auto files = writer->Close().value();
    ASSERT_EQ(files.size(), 1u);
    files[0].content = DataFileContent::kEqualityDeletes;
    files[0].equality_ids = {1};
    files[0].sort_order_id.reset();
    auto delta = table_->NewRowDelta();
    delta->AddDeletes(files[0]);
    auto committed = delta->Commit();
    ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  }

  // Reads the head's manifest list and its manifests with Python and checks
  // them against floe's reading; returns floe's entries by content for the
  // value checks of each case.
  std::map<DataFileContent, std::vector<ManifestEntry>> CheckHead() {
    std::map<DataFileContent, std::vector<ManifestEntry>> by_content;
    const int version = GetParam();
    const TableState state = ops_->Refresh().value();
    const Snapshot* head = state.metadata->current_snapshot();
    const std::vector<ManifestFile> manifests = ReadManifestList(*io_, head->manifest_list).value();
    simdjson::dom::parser list_parser;
    std::string list_text;
    simdjson::dom::element list = ReadWithPython(head->manifest_list, &list_parser, &list_text);
    EXPECT_EQ(Ids(list), ManifestListIds(version));
    EXPECT_EQ(Str(list["meta"]["snapshot-id"]), std::to_string(head->snapshot_id));
    EXPECT_EQ(Str(list["meta"]["format-version"]), std::to_string(version));
    simdjson::dom::array rows = list["rows"].get_array();
    EXPECT_EQ(rows.size(), manifests.size());
    for (size_t i = 0; i < manifests.size() && i < rows.size(); ++i) {
      const ManifestFile& m = manifests[i];
      simdjson::dom::element r = rows.at(i);
      SCOPED_TRACE(m.manifest_path);
      EXPECT_EQ(Str(r["manifest_path"]), m.manifest_path);
      EXPECT_EQ(Int(r["manifest_length"]), io_->Stat(m.manifest_path)->size);
      EXPECT_EQ(Int(r["partition_spec_id"]), m.partition_spec_id);
      EXPECT_EQ(Int(r["added_snapshot_id"]), m.added_snapshot_id);
      EXPECT_EQ(simdjson::minify(r["added_files_count"]), Json(m.added_files_count));
      EXPECT_EQ(simdjson::minify(r["existing_files_count"]), Json(m.existing_files_count));
      EXPECT_EQ(simdjson::minify(r["deleted_files_count"]), Json(m.deleted_files_count));
      EXPECT_EQ(simdjson::minify(r["added_rows_count"]), Json(m.added_rows_count));
      EXPECT_EQ(simdjson::minify(r["existing_rows_count"]), Json(m.existing_rows_count));
      EXPECT_EQ(simdjson::minify(r["deleted_rows_count"]), Json(m.deleted_rows_count));
      if (version >= 2) {
        EXPECT_EQ(Int(r["content"]), static_cast<int64_t>(m.content));
        EXPECT_EQ(Int(r["sequence_number"]), m.sequence_number);
        EXPECT_EQ(Int(r["min_sequence_number"]), m.min_sequence_number);
      }
      if (version >= 3) {
        EXPECT_EQ(simdjson::minify(r["first_row_id"]), Json(m.first_row_id));
      }
      simdjson::dom::array summaries = r["partitions"].get_array();
      EXPECT_EQ(summaries.size(), m.partitions.size());
      for (size_t p = 0; p < m.partitions.size() && p < summaries.size(); ++p) {
        EXPECT_EQ(summaries.at(p)["contains_null"].get_bool().value(), m.partitions[p].contains_null);
        EXPECT_EQ(HexJson(m.partitions[p].lower_bound), simdjson::minify(summaries.at(p)["lower_bound"]));
        EXPECT_EQ(HexJson(m.partitions[p].upper_bound), simdjson::minify(summaries.at(p)["upper_bound"]));
      }
      for (auto& e : CheckManifest(m)) by_content[e.data_file.content].push_back(std::move(e));
    }
    return by_content;
  }

  std::vector<ManifestEntry> CheckManifest(const ManifestFile& m) {
    const int version = GetParam();
    std::vector<ManifestEntry> entries = ManifestReader::Open(*io_, m).value()->ReadAll().value();
    simdjson::dom::parser parser;
    std::string text;
    simdjson::dom::element doc = ReadWithPython(m.manifest_path, &parser, &text);
    EXPECT_EQ(Ids(doc), ManifestIds(version));
    EXPECT_EQ(Str(doc["meta"]["format-version"]), std::to_string(version));
    EXPECT_EQ(Str(doc["meta"]["partition-spec-id"]), "0");
    if (version >= 2) {
      EXPECT_EQ(Str(doc["meta"]["content"]), m.content == ManifestContent::kData ? "data" : "deletes");
    }
    simdjson::dom::array rows = doc["rows"].get_array();
    EXPECT_EQ(rows.size(), entries.size());
    for (size_t i = 0; i < entries.size() && i < rows.size(); ++i) {
      const ManifestEntry& e = entries[i];
      const DataFile& f = e.data_file;
      simdjson::dom::element r = rows.at(i);
      simdjson::dom::element d = r["data_file"];
      SCOPED_TRACE(f.file_path);
      const bool added = e.status == ManifestEntryStatus::kAdded;
      EXPECT_EQ(Int(r["status"]), static_cast<int64_t>(e.status));
      EXPECT_EQ(simdjson::minify(r["snapshot_id"]), Json(e.snapshot_id));
      if (version >= 2) {
        // spec: "Inherited when null and status is 1 (added)"; a rewrite
        // that keeps the data sequence number (compaction) writes it.
        const bool explicit_sequence = added && rewrite_snapshot_id_ && e.snapshot_id == rewrite_snapshot_id_;
        EXPECT_EQ(simdjson::minify(r["sequence_number"]),
                  added && !explicit_sequence ? "null" : Json(e.sequence_number));
        EXPECT_EQ(simdjson::minify(r["file_sequence_number"]), added ? "null" : Json(e.file_sequence_number));
        EXPECT_EQ(Int(d["content"]), static_cast<int64_t>(f.content));
        std::string equality_ids;
        for (int32_t id : f.equality_ids) equality_ids += StrCat(equality_ids.empty() ? "[" : ",", id);
        EXPECT_EQ(simdjson::minify(d["equality_ids"]), f.equality_ids.empty() ? "null" : equality_ids + "]");
        EXPECT_EQ(simdjson::minify(d["referenced_data_file"]), Json(f.referenced_data_file));
      }
      if (version == 1) {
        EXPECT_GT(Int(d["block_size_in_bytes"]), 0);
      }
      if (version >= 3) {
        EXPECT_EQ(simdjson::minify(d["content_offset"]), Json(f.content_offset));
        EXPECT_EQ(simdjson::minify(d["content_size_in_bytes"]), Json(f.content_size_in_bytes));
        // Data files inherit their first row id from the manifest's.
        if (f.content == DataFileContent::kData && added) {
          EXPECT_TRUE(d["first_row_id"].is_null());
          EXPECT_TRUE(f.first_row_id.has_value());
        }
      }
      EXPECT_EQ(Str(d["file_path"]), f.file_path);
      EXPECT_EQ(Str(d["file_format"]), f.file_format);
      EXPECT_EQ(Int(d["record_count"]), f.record_count);
      EXPECT_EQ(Int(d["file_size_in_bytes"]), f.file_size_in_bytes);
      EXPECT_EQ(Int(d["file_size_in_bytes"]), io_->Stat(f.file_path)->size);
      EXPECT_EQ(simdjson::minify(d["partition"]["category"]),
                f.partition.at(0) ? Json(std::optional<std::string>(f.partition.at(0)->bytes())) : "null");
      const auto number = [](int64_t v) { return std::to_string(v); };
      EXPECT_EQ(simdjson::minify(d["column_sizes"]), MapJson(f.column_sizes, number));
      EXPECT_EQ(simdjson::minify(d["value_counts"]), MapJson(f.value_counts, number));
      EXPECT_EQ(simdjson::minify(d["null_value_counts"]), MapJson(f.null_value_counts, number));
      const auto bytes = [](const std::string& v) { return HexJson(v); };
      EXPECT_EQ(simdjson::minify(d["lower_bounds"]), MapJson(f.lower_bounds, bytes));
      EXPECT_EQ(simdjson::minify(d["upper_bounds"]), MapJson(f.upper_bounds, bytes));
    }
    return entries;
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<FileIO> io_ = NewLocalFileIO();
  std::shared_ptr<MemoryTableOperations> ops_;
  std::unique_ptr<Table> table_;
  std::optional<int64_t> rewrite_snapshot_id_;  // a compaction's snapshot
  std::vector<ManifestEntry> head_entries_;     // the head's data entries, kept for loops
};

TEST_P(ManifestPythonCommitsTest, AppendsAndAMetadataOnlyDelete) {
  Append({{1, "x"}, {2, "y"}, {3, "x"}});
  Append({{4, "z"}});
  Delete("category = 'y'");  // the whole file: a DELETED entry
  auto entries = CheckHead();
  int deleted = 0;
  for (const auto& e : entries[DataFileContent::kData]) deleted += e.status == ManifestEntryStatus::kDeleted;
  EXPECT_EQ(deleted, 1);
  EXPECT_EQ(entries[DataFileContent::kData].size(), 3u);  // x (existing), y (deleted), z (added)
}

// The commit kinds that write manifests with EXISTING and DELETED entries:
// a merge append (commit.manifest.min-count-to-merge 2: the new manifest
// merged with the last one), an overwrite by filter, an overwrite by files
// and a compaction (its ADDED entries carry the starting snapshot's data
// sequence number).
TEST_P(ManifestPythonCommitsTest, MergeAppendOverwritesAndCompaction) {
  SetProperty("commit.manifest.min-count-to-merge", "2");
  Append({{1, "x"}, {2, "y"}});
  Append({{3, "x"}});
  ASSERT_EQ(DataManifests().size(), 1u);
  auto merged = CheckHead()[DataFileContent::kData];
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].status, ManifestEntryStatus::kAdded);
  EXPECT_EQ(merged[1].status, ManifestEntryStatus::kExisting);
  EXPECT_EQ(merged[2].status, ManifestEntryStatus::kExisting);

  auto overwritten = table_->Overwrite(ParseExpression("category = 'y'").value(), Source({{4, "y"}}));
  ASSERT_TRUE(overwritten.ok()) << overwritten.status().ToString();
  EXPECT_EQ(overwritten->state.metadata->current_snapshot()->operation, "overwrite");
  std::map<ManifestEntryStatus, int> statuses;
  head_entries_ = CheckHead()[DataFileContent::kData];
  for (const auto& e : head_entries_) ++statuses[e.status];
  EXPECT_EQ(statuses, (std::map<ManifestEntryStatus, int>{
                          {ManifestEntryStatus::kAdded, 1}, {ManifestEntryStatus::kExisting, 2},
                          {ManifestEntryStatus::kDeleted, 1}}));

  // Overwrite by files: the y file out, a z file (written here) in.
  OverwriteFilesRequest replace;
  for (const auto& m : DataManifests()) {
    const std::vector<ManifestEntry> entries = ManifestReader::Open(*io_, m).value()->ReadAll().value();
    for (const auto& e : entries) {
      if (e.is_live() && e.data_file.file_path.find("category=y") != std::string::npos) {
        replace.delete_files.push_back(e.data_file.file_path);
      }
    }
  }
  ASSERT_EQ(replace.delete_files.size(), 1u);
  {
    auto state = table_->Refresh().value();
    auto writer = DataFileWriter::Make(io_, *state.metadata, DataWriterOptions::FromTable(*state.metadata).value());
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    ASSERT_TRUE((*writer)->Write(Batch({{5, "z"}}).value()).ok());
    replace.add_files = (*writer)->Close().value();
  }
  auto replaced = table_->OverwriteFiles(replace);
  ASSERT_TRUE(replaced.ok()) << replaced.status().ToString();
  // Its own entries: the z file ADDED, the y file DELETED (older DELETED
  // entries stay in manifests it did not rewrite).
  statuses.clear();
  const int64_t replace_id = replaced->state.metadata->current_snapshot()->snapshot_id;
  head_entries_ = CheckHead()[DataFileContent::kData];
  for (const auto& e : head_entries_) {
    if (e.snapshot_id == replace_id) ++statuses[e.status];
  }
  EXPECT_EQ(statuses, (std::map<ManifestEntryStatus, int>{{ManifestEntryStatus::kAdded, 1},
                                                          {ManifestEntryStatus::kDeleted, 1}}));

  // Compaction of the two x files.
  const int64_t start_sequence = table_->Refresh().value().metadata->current_snapshot()->sequence_number;
  auto compacted = table_->Compact();
  ASSERT_TRUE(compacted.ok()) << compacted.status().ToString();
  ASSERT_TRUE(compacted->has_value());
  rewrite_snapshot_id_ = (*compacted)->state.metadata->current_snapshot()->snapshot_id;
  EXPECT_EQ((*compacted)->state.metadata->current_snapshot()->operation, "replace");
  int added_x = 0, deleted_x = 0;
  head_entries_ = CheckHead()[DataFileContent::kData];
  for (const auto& e : head_entries_) {
    if (e.data_file.file_path.find("category=x") == std::string::npos) continue;
    if (e.status == ManifestEntryStatus::kAdded) {
      ++added_x;
      EXPECT_EQ(e.data_file.record_count, 2);
      if (GetParam() >= 2) {
        EXPECT_EQ(e.sequence_number, start_sequence);
      }
    }
    deleted_x += e.status == ManifestEntryStatus::kDeleted;
  }
  EXPECT_EQ(added_x, 1);
  EXPECT_EQ(deleted_x, 2);
}

// v2 and v3 only: v1 has no delete files.
class ManifestPythonDeleteFilesTest : public ManifestPythonCommitsTest {};

TEST_P(ManifestPythonDeleteFilesTest, PositionEqualityAndDeletionVectorFiles) {
  Append({{1, "x"}, {2, "x"}, {3, "x"}, {4, "y"}});
  Delete("id = 2");  // merge-on-read: v2 a position delete file, v3 a deletion vector
  if (GetParam() == 2) EqualityDelete(4, "y");
  auto entries = CheckHead();
  ASSERT_EQ(entries[DataFileContent::kPositionDeletes].size(), 1u);
  const DataFile& positions = entries[DataFileContent::kPositionDeletes][0].data_file;
  EXPECT_EQ(positions.record_count, 1);
  ASSERT_TRUE(positions.referenced_data_file.has_value());
  EXPECT_NE(positions.referenced_data_file->find("category=x"), std::string::npos);
  if (GetParam() == 2) {
    EXPECT_EQ(positions.file_format, "PARQUET");
    ASSERT_EQ(entries[DataFileContent::kEqualityDeletes].size(), 1u);
    EXPECT_EQ(entries[DataFileContent::kEqualityDeletes][0].data_file.equality_ids, (std::vector<int32_t>{1}));
  } else {
    EXPECT_EQ(positions.file_format, "PUFFIN");
    EXPECT_EQ(positions.content_offset, 4);  // after the Puffin magic
    EXPECT_GT(positions.content_size_in_bytes.value_or(0), 0);
  }
}

std::string VersionName(const ::testing::TestParamInfo<int>& info) { return StrCat("v", info.param); }
INSTANTIATE_TEST_SUITE_P(FormatVersions, ManifestPythonCommitsTest, ::testing::Values(1, 2, 3), VersionName);
INSTANTIATE_TEST_SUITE_P(FormatVersions, ManifestPythonDeleteFilesTest, ::testing::Values(2, 3), VersionName);

}  // namespace
}  // namespace floe::iceberg
