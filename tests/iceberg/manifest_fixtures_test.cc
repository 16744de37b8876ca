// Manifests and manifest lists that other engines wrote (Java through Spark
// and DuckDB's test data, PyIceberg, iceberg-rust), read in place from
// ../shared/fixtures/iceberg, with values checked against what the tables'
// metadata JSON says independently: snapshot summaries' totals, the files
// the entries name, the partition summaries the writers computed.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "floe/formats/avro/container_reader.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/partition_summary.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {
namespace {

namespace fs = std::filesystem;

std::string Iceberg() { return std::string(FLOE_SHARED_DIR) + "/fixtures/iceberg"; }
std::string DuckDb() { return Iceberg() + "/duckdb-iceberg"; }
std::string Persistent() { return DuckDb() + "/data/persistent"; }

// Where a path written into a fixture's metadata lives on this machine:
// "data/persistent/..." paths are relative to the duckdb-iceberg folder,
// others (".../lineitem_iceberg/metadata/x.avro") to the table's folder;
// object store paths have no local copy.
std::optional<std::string> Local(const std::string& table_root, std::string path, std::string_view folder) {
  if (path.rfind("file://", 0) == 0) path = path.substr(7);
  if (path.rfind("data/persistent/", 0) == 0) return DuckDb() + "/" + path;
  if (path.find("://") != std::string::npos) return std::nullopt;
  const std::string marker = "/" + std::string(folder) + "/";
  const size_t at = path.rfind(marker);
  if (at == std::string::npos) return std::nullopt;
  return table_root + path.substr(at);
}

TEST(ManifestFixturesTest, RustManifestLists) {
  auto io = NewLocalFileIO();
  const std::string dir = Iceberg() + "/rust-testdata/manifests_lists/";
  auto one = ReadManifestList(*io, dir + "manifest-list-v2-1.avro");
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  ASSERT_EQ(one->size(), 1u);
  const ManifestFile& m = (*one)[0];
  EXPECT_EQ(m.manifest_path, "iceberg-warehouse/people/metadata/794bd2ee-052c-449c-9a6f-3a88857c747f-m0.avro");
  EXPECT_EQ(m.manifest_length, 6658);
  EXPECT_EQ(m.partition_spec_id, 0);
  EXPECT_EQ(m.content, ManifestContent::kData);
  EXPECT_EQ(m.sequence_number, 1);
  EXPECT_EQ(m.min_sequence_number, 1);
  EXPECT_EQ(m.added_snapshot_id, 6653143792592159268);
  // This file names 504 "added_data_files_count" (Java's old v1 name); the id decides.
  EXPECT_EQ(m.added_files_count, 1);
  EXPECT_EQ(m.existing_files_count, 0);
  EXPECT_EQ(m.deleted_files_count, 0);
  EXPECT_EQ(m.added_rows_count, 1);
  EXPECT_EQ(m.existing_rows_count, 0);
  EXPECT_EQ(m.deleted_rows_count, 0);
  EXPECT_TRUE(m.partitions.empty());
  EXPECT_FALSE(m.first_row_id.has_value());

  auto two = ReadManifestList(*io, dir + "manifest-list-v2-2.avro");
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  ASSERT_EQ(two->size(), 1u);
  EXPECT_EQ((*two)[0].manifest_path,
            "iceberg-warehouse_2/people/metadata/80064d99-bd75-4cf3-9b27-13a60f189039-m0.avro");
  EXPECT_EQ((*two)[0].manifest_length, 6660);
  EXPECT_EQ((*two)[0].added_snapshot_id, 3083072880052097243);

  // An AES-GCM stream ("AGS1"), not an Avro file: refused, not misread.
  auto encrypted = ReadManifestList(*io, dir + "manifest-list-v3-encrypted.avro");
  EXPECT_TRUE(encrypted.status().IsCorrupt());
  EXPECT_NE(encrypted.status().message().find("bad magic"), std::string::npos);
}

// Every Avro file of the DuckDB fixtures: manifest lists through
// ReadManifestList, manifests through ManifestReader (standalone, no list).
TEST(ManifestFixturesTest, EveryManifestAndListOfSparkAndPyIcebergReads) {
  auto io = NewLocalFileIO();
  int lists = 0, manifests = 0;
  int64_t list_rows = 0, entries = 0;
  for (const auto& file : fs::recursive_directory_iterator(Persistent())) {
    if (file.path().extension() != ".avro") continue;
    const std::string path = file.path().string();
    SCOPED_TRACE(path);
    auto container = avro::ContainerReader::Open(*io, path);
    ASSERT_TRUE(container.ok()) << container.status().ToString();
    if ((*container)->writer_schema()->root().name() == "manifest_file") {
      auto rows = ReadManifestList(*io, path);
      ASSERT_TRUE(rows.ok()) << rows.status().ToString();
      ++lists;
      list_rows += static_cast<int64_t>(rows->size());
      continue;
    }
    ManifestFile m;
    m.manifest_path = path;
    for (bool stats : {true, false}) {
      ManifestReaderOptions options;
      options.read_stats = stats;
      auto reader = ManifestReader::Open(*io, m, options);
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      auto all = (*reader)->ReadAll();
      ASSERT_TRUE(all.ok()) << all.status().ToString();
      for (const ManifestEntry& e : *all) {
        EXPECT_FALSE(e.data_file.file_path.empty());
        EXPECT_EQ(e.data_file.partition.size(), (*reader)->partition_type()->fields().size());
        EXPECT_TRUE(e.snapshot_id.has_value());
      }
      if (stats) {
        ++manifests;
        entries += static_cast<int64_t>(all->size());
      }
    }
  }
  // Counted with Python's avro over the same files.
  EXPECT_EQ(lists, 49);
  EXPECT_EQ(list_rows, 93);
  EXPECT_EQ(manifests, 51);
  EXPECT_EQ(entries, 5075);
}

struct Totals {
  int64_t records = 0, data_files = 0, delete_files = 0;
};

// Every snapshot of every table: its list, its manifests read with the
// list's rows (so inheritance applies), totals against the summary, data
// files that exist, partition summaries recomputed from the entries.
TEST(ManifestFixturesTest, SnapshotsAgreeWithTheirMetadata) {
  auto io = NewLocalFileIO();
  int snapshots = 0, summaries_checked = 0, files_found = 0, partition_summaries = 0, missing_lists = 0;
  for (const auto& file : fs::recursive_directory_iterator(Persistent())) {
    const std::string name = file.path().filename().string();
    if (name.find(".metadata.json") == std::string::npos) continue;
    const std::string path = file.path().string();
    SCOPED_TRACE(path);
    auto metadata = ReadTableMetadata(*io, path);
    ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
    const std::string root = file.path().parent_path().parent_path().string();
    for (const Snapshot& snapshot : metadata->snapshots) {
      SCOPED_TRACE(snapshot.snapshot_id);
      std::vector<ManifestFile> listed;
      if (!snapshot.manifest_list.empty()) {
        const auto local = Local(root, snapshot.manifest_list, "metadata");
        ASSERT_TRUE(local.has_value()) << snapshot.manifest_list;
        if (!fs::exists(*local)) {
          ++missing_lists;  // one table's history names a list its fixture lacks
          continue;
        }
        auto read = ReadManifestList(*io, *local);
        ASSERT_TRUE(read.ok()) << read.status().ToString();
        listed = std::move(read).value();
      } else {
        for (const std::string& m : snapshot.manifests) {  // v1 without a list
          ManifestFile row;
          row.manifest_path = m;
          row.added_snapshot_id = snapshot.snapshot_id;
          listed.push_back(row);
        }
      }
      ++snapshots;
      Totals totals;
      for (const ManifestFile& m : listed) {
        if (metadata->format_version >= 2) {
          EXPECT_GE(m.sequence_number, m.min_sequence_number);
        }
        ManifestFile local_row = m;
        const auto local = Local(root, m.manifest_path, "metadata");
        ASSERT_TRUE(local.has_value()) << m.manifest_path;
        local_row.manifest_path = *local;
        auto reader = ManifestReader::Open(*io, local_row);
        ASSERT_TRUE(reader.ok()) << reader.status().ToString();
        EXPECT_EQ((*reader)->content(), m.content);
        auto entries = (*reader)->ReadAll();
        ASSERT_TRUE(entries.ok()) << entries.status().ToString();
        PartitionSummaryBuilder summary(*(*reader)->partition_type());
        int32_t added = 0, existing = 0, deleted = 0;
        for (const ManifestEntry& e : *entries) {
          summary.Update(e.data_file.partition);
          ASSERT_TRUE(e.snapshot_id.has_value());
          if (metadata->format_version >= 2 && e.status == ManifestEntryStatus::kAdded) {
            EXPECT_TRUE(e.sequence_number.has_value());
            EXPECT_LE(*e.sequence_number, m.sequence_number);
            EXPECT_EQ(e.file_sequence_number, m.sequence_number);
          }
          added += e.status == ManifestEntryStatus::kAdded;
          existing += e.status == ManifestEntryStatus::kExisting;
          deleted += e.status == ManifestEntryStatus::kDeleted;
          if (auto data = Local(root, e.data_file.file_path, "data")) {
            EXPECT_TRUE(fs::exists(*data)) << e.data_file.file_path;
            ++files_found;
          }
          if (!e.is_live()) continue;
          if (e.data_file.content == DataFileContent::kData) {
            totals.records += e.data_file.record_count;
            ++totals.data_files;
          } else {
            ++totals.delete_files;
          }
        }
        if (m.added_files_count) {
          EXPECT_EQ(*m.added_files_count, added);
        }
        if (m.existing_files_count) {
          EXPECT_EQ(*m.existing_files_count, existing);
        }
        if (m.deleted_files_count) {
          EXPECT_EQ(*m.deleted_files_count, deleted);
        }
        // The writer's partition summaries, recomputed from the partition
        // values floe decoded: same nulls and the same bound bytes.
        if (!m.partitions.empty()) {
          const std::vector<PartitionFieldSummary> ours = summary.Summaries();
          ASSERT_EQ(ours.size(), m.partitions.size());
          for (size_t i = 0; i < ours.size(); ++i) {
            EXPECT_EQ(ours[i].contains_null, m.partitions[i].contains_null) << i;
            EXPECT_EQ(ours[i].lower_bound, m.partitions[i].lower_bound) << i;
            EXPECT_EQ(ours[i].upper_bound, m.partitions[i].upper_bound) << i;
            if (m.partitions[i].contains_nan) {
              EXPECT_EQ(ours[i].contains_nan, m.partitions[i].contains_nan) << i;
            }
            ++partition_summaries;
          }
        }
      }
      auto total = [&](const char* key) -> std::optional<int64_t> {
        auto it = snapshot.summary.find(key);
        if (it == snapshot.summary.end()) return std::nullopt;
        return std::stoll(it->second);
      };
      if (auto records = total("total-records")) {
        EXPECT_EQ(totals.records, *records);
        EXPECT_EQ(totals.data_files, total("total-data-files").value_or(-1));
        if (auto deletes = total("total-delete-files")) {
          EXPECT_EQ(totals.delete_files, *deletes);
        }
        ++summaries_checked;
      }
    }
  }
  // Counted with Python's avro and json over the same files.
  EXPECT_EQ(snapshots, 89);
  EXPECT_EQ(missing_lists, 5);
  EXPECT_EQ(summaries_checked, 87);
  EXPECT_EQ(files_found, 228);
  EXPECT_GE(partition_summaries, 10);
}

ManifestFile FromList(const std::string& list, size_t row) {
  auto io = NewLocalFileIO();
  auto rows = ReadManifestList(*io, list);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  if (!rows.ok() || rows->size() <= row) return {};
  ManifestFile m = (*rows)[row];
  m.manifest_path = DuckDb() + "/" + m.manifest_path;
  return m;
}

std::vector<ManifestEntry> EntriesOf(const std::string& table, const std::string& list) {
  auto io = NewLocalFileIO();
  ManifestFile m = FromList(Persistent() + "/" + table + "/metadata/" + list, 0);
  auto reader = ManifestReader::Open(*io, m);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  auto all = (*reader)->ReadAll();
  EXPECT_TRUE(all.ok()) << all.status().ToString();
  return all.ok() ? *all : std::vector<ManifestEntry>{};
}

TEST(ManifestFixturesTest, PartitionValuesOfSparkTablesDecodeToTheirTypes) {
  const auto ints =
      EntriesOf("partition_integer", "snap-5470601323427916272-1-b1dda674-423f-4f23-b00d-92b608b07a38.avro");
  ASSERT_EQ(ints.size(), 2u);
  EXPECT_EQ(ints[0].data_file.partition, PartitionValues{Literal::Int(1337)});
  EXPECT_EQ(ints[1].data_file.partition, PartitionValues{Literal::Int(42)});
  EXPECT_EQ(ints[0].status, ManifestEntryStatus::kAdded);
  EXPECT_EQ(ints[0].snapshot_id, 5470601323427916272);
  EXPECT_EQ(ints[0].sequence_number, 1);  // inherited from the list
  EXPECT_EQ(ints[0].data_file.record_count, 1);
  EXPECT_EQ(ints[0].data_file.file_size_in_bytes, 950);
  EXPECT_EQ(ints[0].data_file.column_sizes, (std::map<int32_t, int64_t>{{1, 36}, {2, 40}, {3, 43}}));
  EXPECT_EQ(ints[0].data_file.lower_bounds.at(3), "purchase");
  EXPECT_EQ(ints[0].data_file.split_offsets, std::vector<int64_t>{4});
  EXPECT_EQ(ints[0].data_file.sort_order_id, 0);
  EXPECT_TRUE(ints[0].data_file.nan_value_counts.empty());

  const auto longs =
      EntriesOf("partition_bigint", "snap-1919487672997309926-1-715c1cc2-5c99-4a8d-95b3-5b43e05ccc04.avro");
  ASSERT_EQ(longs.size(), 2u);
  EXPECT_EQ(longs[0].data_file.partition, PartitionValues{Literal::Long(std::numeric_limits<int64_t>::max())});
  EXPECT_EQ(longs[1].data_file.partition, PartitionValues{Literal::Long(std::numeric_limits<int64_t>::min())});

  const auto bools =
      EntriesOf("partition_bool", "snap-3510418671079281357-1-3f284d0d-6487-49fa-84b0-25631b376ad3.avro");
  ASSERT_EQ(bools.size(), 2u);
  EXPECT_EQ(bools[0].data_file.partition, PartitionValues{Literal::Boolean(true)});

  const auto floats =
      EntriesOf("partition_float", "snap-7743143018202347074-1-e1a2fb23-87df-4e86-b168-6bf5f432a0a0.avro");
  ASSERT_EQ(floats.size(), 2u);
  EXPECT_EQ(floats[0].data_file.partition, PartitionValues{Literal::Float(1.23f)});

  // decimal(16, 11) in a fixed of 7 bytes, negative values included.
  const auto decimals =
      EntriesOf("partition_decimal_bigint", "snap-7397340839278125996-1-bad4520d-32bc-4c8e-841c-5c9ccc3aab3c.avro");
  ASSERT_EQ(decimals.size(), 10u);
  const TypePtr d16 = Type::Decimal(16, 11).value();
  EXPECT_EQ(decimals[0].data_file.partition,
            PartitionValues{Literal::Make(d16, Decimal128Value{123456789012}).value()});
  EXPECT_EQ(decimals[1].data_file.partition,
            PartitionValues{Literal::Make(d16, Decimal128Value{-12345678901}).value()});
  EXPECT_EQ(decimals[7].data_file.partition,
            PartitionValues{Literal::Make(d16, Decimal128Value{-987654321098765}).value()});
}

TEST(ManifestFixturesTest, EqualityDeleteManifestOfSpark) {
  auto io = NewLocalFileIO();
  ManifestFile m;
  m.manifest_path =
      Persistent() + "/equality_deletes/warehouse/mydb/mytable/metadata/34f7dec7-90c5-4cd5-b158-5782b73fc010-m0.avro";
  m.sequence_number = 2;
  m.added_snapshot_id = 1;
  auto reader = ManifestReader::Open(*io, m);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->content(), ManifestContent::kDeletes);
  EXPECT_EQ((*reader)->format_version(), 2);
  auto entries = (*reader)->ReadAll();
  ASSERT_TRUE(entries.ok());
  ASSERT_EQ(entries->size(), 1u);
  const DataFile& f = (*entries)[0].data_file;
  EXPECT_EQ(f.content, DataFileContent::kEqualityDeletes);
  EXPECT_EQ(f.equality_ids, std::vector<int32_t>{2});
  EXPECT_EQ(f.file_size_in_bytes, 466);
  EXPECT_EQ((*entries)[0].sequence_number, 2);
}

TEST(ManifestFixturesTest, PyIcebergV1ManifestWithExistingEntriesReadsSequenceZero) {
  auto io = NewLocalFileIO();
  const std::string dir = Persistent() + "/iceberg_v1_repro/repro/merch_v1/metadata/";
  auto list = ReadManifestList(*io, dir + "snap-5191822260710938731-0-ccab0b80-739e-4dc6-a95d-306d70e93d65.avro");
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].sequence_number, 0);  // v1: "use 0"
  EXPECT_EQ((*list)[0].content, ManifestContent::kData);
  ManifestFile m = (*list)[0];
  m.manifest_path = DuckDb() + "/" + m.manifest_path;
  auto entries = ManifestReader::Open(*io, m).value()->ReadAll();
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  ASSERT_EQ(entries->size(), 2u);
  for (const ManifestEntry& e : *entries) {
    EXPECT_EQ(e.status, ManifestEntryStatus::kExisting);
    EXPECT_EQ(e.sequence_number, 0);  // written null in this v1 file
    EXPECT_EQ(e.snapshot_id, 5191822260710938731);
    EXPECT_EQ(e.data_file.record_count, 2);
    EXPECT_FALSE(e.data_file.sort_order_id.has_value());
  }
  // The upgraded table's list with null counts (v1 allows them).
  auto nulls = ReadManifestList(*io, dir + "snap-v1-null-counts.avro");
  ASSERT_TRUE(nulls.ok()) << nulls.status().ToString();
  ASSERT_EQ(nulls->size(), 2u);
  EXPECT_FALSE((*nulls)[0].added_files_count.has_value());
  EXPECT_FALSE((*nulls)[1].deleted_rows_count.has_value());
}

}  // namespace
}  // namespace floe::iceberg
