// Writing on a v1 table whose snapshot lists its manifests inline (no
// manifest list): the Spark-written fixture iceberg_v1_deprecated/legacy_v1
// of duckdb-iceberg, copied into a temporary folder and written there. Each
// operation's snapshot gets a manifest list carrying the fixture's manifest
// with the counts, summaries and adding snapshot read from it (Java's
// SnapshotProducer.addMetadata), and the old rows read back with the new.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "floe/base/strings.h"
#include "floe/columnar/batch_printer.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/scan/incremental_append_scan.h"
#include "floe/iceberg/table.h"
#include "iceberg/memory_table_operations.h"
#include "iceberg/rebased_file_io.h"
#include "testing/temp_dir.h"

namespace floe::iceberg {
namespace {

namespace fs = std::filesystem;
using testing::MemoryTableOperations;
using testing::RebasedFileIO;

const std::string kFixtures = std::string(FLOE_SHARED_DIR) + "/fixtures/iceberg/duckdb-iceberg";
constexpr const char* kTableDir = "data/persistent/iceberg_v1_deprecated/default/legacy_v1";
constexpr int64_t kFixtureSnapshotId = 2456114553637229296;
constexpr const char* kFixtureManifest =
    "data/persistent/iceberg_v1_deprecated/default/legacy_v1/metadata/d65f86b0-b799-467f-b1f4-9c697e4c4fc7-m0.avro";

struct Row {
  int32_t id;
  std::string category;
  int32_t amount;
};

class TableV1InlineManifestsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The fixture's relative locations resolve under the copy's root.
    const fs::path to = fs::path(dir_.path()) / kTableDir;
    fs::create_directories(to);
    fs::copy(fs::path(kFixtures) / kTableDir, to, fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(to)) {
      fs::permissions(entry.path(), fs::perms::owner_read | fs::perms::owner_write | fs::perms::owner_exec,
                      fs::perm_options::add);
    }
    fs::permissions(to, fs::perms::owner_all, fs::perm_options::add);
    io_ = std::make_shared<RebasedFileIO>(dir_.path(), /*writable=*/true);
    auto metadata = ReadTableMetadata(*io_, StrCat(kTableDir, "/metadata/v2.metadata.json"));
    ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
    ASSERT_TRUE(metadata->current_snapshot()->manifest_list.empty());
    ops_ = std::make_shared<MemoryTableOperations>(io_, std::move(*metadata));
    table_ = std::make_unique<Table>(ops_);
    auto rows = Rows();
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    ASSERT_EQ(rows->size(), 3u);
    fixture_rows_ = *rows;
  }

  BatchSource Source(const std::vector<Row>& rows) {
    auto schema = table_->WriteSchema().value();
    Int32Builder ids;
    StringBuilder categories;
    Int32Builder amounts;
    for (const Row& r : rows) {
      EXPECT_TRUE(ids.Append(r.id).ok());
      EXPECT_TRUE(categories.Append(r.category).ok());
      EXPECT_TRUE(amounts.Append(r.amount).ok());
    }
    auto batch = RecordBatch::Make(schema, {ids.Finish().value(), categories.Finish().value(),
                                            amounts.Finish().value()})
                     .value();
    auto given = std::make_shared<bool>(false);
    return [batch, given]() -> Result<std::optional<RecordBatch>> {
      if (*given) return std::optional<RecordBatch>();
      *given = true;
      return std::optional<RecordBatch>(batch);
    };
  }

  static std::string Json(const Row& r) {
    return StrCat(R"({"id":)", r.id, R"(,"category":")", r.category, R"(","amount":)", r.amount, "}");
  }

  // The rows of a scan (current, or at `snapshot_id`) as JSON lines.
  Result<std::multiset<std::string>> Rows(std::optional<int64_t> snapshot_id = std::nullopt) {
    TableScanOptions options;
    options.snapshot_id = snapshot_id;
    FLOE_ASSIGN_OR_RETURN(auto scan, table_->NewScan(options));
    return Lines(*scan);
  }
  // The rows an incremental append scan of `range` reads, as JSON lines.
  Result<std::multiset<std::string>> Appended(AppendRange range) {
    FLOE_ASSIGN_OR_RETURN(TableState state, ops_->Refresh());
    FLOE_ASSIGN_OR_RETURN(auto scan, IncrementalAppendScan::Make(io_, state.metadata, range, {}));
    return Lines(*scan);
  }
  template <typename Scan>
  static Result<std::multiset<std::string>> Lines(Scan& scan) {
    FLOE_ASSIGN_OR_RETURN(auto reader, scan.Open());
    std::ostringstream out;
    BatchPrinter printer(out, scan.output_schema(), {.format = OutputFormat::kJsonl});
    while (true) {
      FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
      if (!batch.has_value()) break;
      FLOE_RETURN_IF_ERROR(printer.Write(*batch));
    }
    FLOE_RETURN_IF_ERROR(printer.Finish());
    std::multiset<std::string> rows;
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) rows.insert(line);
    return rows;
  }

  std::multiset<std::string> With(std::multiset<std::string> rows, const std::vector<Row>& added) {
    for (const Row& r : added) rows.insert(Json(r));
    return rows;
  }

  static std::multiset<std::string> Without(std::multiset<std::string> rows, const std::string& category) {
    for (auto it = rows.begin(); it != rows.end();) {
      it = it->find(StrCat(R"("category":")", category, "\"")) != std::string::npos ? rows.erase(it) : std::next(it);
    }
    return rows;
  }

  // The fixture's manifest as the head snapshot's manifest list lists it.
  ManifestFile ListedFixtureManifest(const TableState& state) {
    auto listed = ReadManifestList(*io_, state.metadata->current_snapshot()->manifest_list);
    EXPECT_TRUE(listed.ok()) << listed.status().ToString();
    for (const auto& m : listed.value_or(std::vector<ManifestFile>{})) {
      if (m.manifest_path == kFixtureManifest) return m;
    }
    ADD_FAILURE() << "the fixture's manifest is not listed";
    return {};
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<RebasedFileIO> io_;
  std::shared_ptr<MemoryTableOperations> ops_;
  std::unique_ptr<Table> table_;
  std::multiset<std::string> fixture_rows_;
};

TEST_F(TableV1InlineManifestsTest, AppendCarriesTheInlineManifestIntoAManifestList) {
  const std::vector<Row> added = {{10, "alpha", 100}, {11, "gamma", 5}};
  auto appended = table_->Append(Source(added));
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  const Snapshot* head = appended->state.metadata->current_snapshot();
  ASSERT_FALSE(head->manifest_list.empty());
  EXPECT_EQ(head->parent_snapshot_id, kFixtureSnapshotId);
  EXPECT_EQ(head->summary.at("total-records"), "5");  // the fixture's total carried on

  // The carried row, computed from the manifest: two ADDED files of three
  // rows by the fixture's snapshot, categories alpha..beta.
  const ManifestFile m = ListedFixtureManifest(appended->state);
  EXPECT_EQ(m.manifest_length, 6147);
  EXPECT_EQ(m.partition_spec_id, 0);
  EXPECT_EQ(m.added_snapshot_id, kFixtureSnapshotId);
  EXPECT_EQ(m.added_files_count, 2);
  EXPECT_EQ(m.added_rows_count, 3);
  EXPECT_EQ(m.existing_files_count, 0);
  EXPECT_EQ(m.deleted_files_count, 0);
  ASSERT_EQ(m.partitions.size(), 1u);
  EXPECT_FALSE(m.partitions[0].contains_null);
  EXPECT_EQ(m.partitions[0].lower_bound, "alpha");
  EXPECT_EQ(m.partitions[0].upper_bound, "beta");

  EXPECT_EQ(Rows().value(), With(fixture_rows_, added));
  EXPECT_EQ(Rows(kFixtureSnapshotId).value(), fixture_rows_);  // time travel to the inline snapshot
  // Rollback to the inline snapshot and back forward.
  ASSERT_TRUE(table_->Rollback(kFixtureSnapshotId).ok());
  EXPECT_EQ(Rows().value(), fixture_rows_);
  ASSERT_TRUE(table_->SetCurrent(head->snapshot_id).ok());
  EXPECT_EQ(Rows().value(), With(fixture_rows_, added));
}

TEST_F(TableV1InlineManifestsTest, IncrementalAppendScansSpanTheInlineSnapshotAndLaterOnes) {
  const std::vector<Row> first = {{50, "alpha", 1}};
  const std::vector<Row> second = {{51, "delta", 2}, {52, "beta", 3}};
  auto s1 = table_->Append(Source(first));
  ASSERT_TRUE(s1.ok()) << s1.status().ToString();
  auto s2 = table_->Append(Source(second));
  ASSERT_TRUE(s2.ok()) << s2.status().ToString();
  const int64_t id1 = s1->state.metadata->current_snapshot()->snapshot_id;
  const int64_t id2 = s2->state.metadata->current_snapshot()->snapshot_id;
  const std::multiset<std::string> none;
  // Every append of the ancestry: the inline snapshot's rows once, though
  // the later lists carry its manifest too.
  EXPECT_EQ(Appended({}).value(), With(With(fixture_rows_, first), second));
  EXPECT_EQ(Appended({kFixtureSnapshotId, false, std::nullopt}).value(), With(With(none, first), second));
  EXPECT_EQ(Appended({kFixtureSnapshotId, true, id1}).value(), With(fixture_rows_, first));
  EXPECT_EQ(Appended({id1, false, id2}).value(), With(none, second));
  EXPECT_EQ(Appended({std::nullopt, false, kFixtureSnapshotId}).value(), fixture_rows_);
}

TEST_F(TableV1InlineManifestsTest, DeleteAndOverwriteRewriteTheInlineManifest) {
  // A metadata-only delete of the beta file, then an overwrite of alpha.
  auto deleted = table_->Delete(ParseExpression("category = 'beta'").value());
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  EXPECT_EQ(deleted->data_files_removed, 1);
  EXPECT_EQ(deleted->state.metadata->current_snapshot()->operation, "delete");
  const auto after_delete = Without(fixture_rows_, "beta");
  EXPECT_EQ(after_delete.size(), 2u);
  EXPECT_EQ(Rows().value(), after_delete);

  const std::vector<Row> replacement = {{20, "alpha", 7}};
  auto overwritten = table_->Overwrite(ParseExpression("category = 'alpha'").value(), Source(replacement));
  ASSERT_TRUE(overwritten.ok()) << overwritten.status().ToString();
  EXPECT_EQ(Rows().value(), With(Without(after_delete, "alpha"), replacement));
  EXPECT_EQ(Rows(kFixtureSnapshotId).value(), fixture_rows_);
}

TEST_F(TableV1InlineManifestsTest, CompactionRewritesAnInlineManifestAndExpiryCleansIt) {
  const std::vector<Row> added = {{30, "alpha", 1}};
  ASSERT_TRUE(table_->Append(Source(added)).ok());
  const auto rows = With(fixture_rows_, added);
  // alpha has two small files now: the fixture's and the new one.
  auto compacted = table_->Compact();
  ASSERT_TRUE(compacted.ok()) << compacted.status().ToString();
  ASSERT_TRUE(compacted->has_value());
  EXPECT_EQ((*compacted)->data_files_rewritten, 2);
  EXPECT_EQ(Rows().value(), rows);

  // Expiring the inline snapshot and the append: the compaction rewrote
  // the fixture's manifest (alpha DELETED, beta EXISTING), so the fixture's
  // manifest, the append's list and the old alpha file go; beta stays.
  ExpireOptions expire;
  expire.older_than_ms = (*compacted)->state.metadata->current_snapshot()->timestamp_ms + 1;
  expire.retain_last = 1;
  auto expired = table_->ExpireSnapshots(expire);
  ASSERT_TRUE(expired.ok()) << expired.status().ToString();
  EXPECT_TRUE(expired->cleanup.ok()) << expired->cleanup.ToString();
  EXPECT_EQ(expired->expired_snapshot_ids.size(), 2u);
  EXPECT_EQ(expired->deleted_manifest_lists, 1);  // the inline snapshot has none
  EXPECT_EQ(Rows().value(), rows);
  EXPECT_FALSE(io_->Exists(kFixtureManifest).value());
  const std::string data = StrCat(kTableDir, "/data/category=");
  EXPECT_TRUE(io_->Exists(data + "beta/00000-3-f0ac2992-4f01-4ee2-b833-f46763b728bd-0-00002.parquet").value());
  EXPECT_FALSE(io_->Exists(data + "alpha/00000-3-f0ac2992-4f01-4ee2-b833-f46763b728bd-0-00001.parquet").value());
}

TEST_F(TableV1InlineManifestsTest, AnUpgradeToV2WaitsUntilNoSnapshotListsItsManifestsInline) {
  // spec (v2): a snapshot's manifest-list is required, so the upgrade is
  // refused while the inline snapshot is kept; once it expired, the v2
  // lists carry the fixture's manifest at sequence number 0.
  auto upgrade = [&] {
    return table_->CommitChanges([](const TableMetadata&) -> Result<std::pair<std::vector<TableRequirement>,
                                                                              std::vector<TableUpdate>>> {
      return std::make_pair(std::vector<TableRequirement>{}, std::vector<TableUpdate>{UpgradeFormatVersion{2}});
    });
  };
  auto refused = upgrade();
  ASSERT_EQ(refused.status().code(), StatusCode::kInvalidArgument) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("'manifest-list' is missing"), std::string::npos)
      << refused.status().ToString();
  const std::vector<Row> first = {{40, "beta", 9}};
  auto appended = table_->Append(Source(first));
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  ExpireOptions expire;
  expire.older_than_ms = appended->state.metadata->current_snapshot()->timestamp_ms;
  expire.retain_last = 1;
  ASSERT_TRUE(table_->ExpireSnapshots(expire).ok());
  auto upgraded = upgrade();
  ASSERT_TRUE(upgraded.ok()) << upgraded.status().ToString();
  const std::vector<Row> second = {{41, "gamma", 10}};
  auto again = table_->Append(Source(second));
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  const ManifestFile m = ListedFixtureManifest(again->state);
  EXPECT_EQ(m.sequence_number, 0);
  EXPECT_EQ(m.min_sequence_number, 0);
  EXPECT_EQ(m.added_files_count, 2);
  EXPECT_EQ(again->state.metadata->current_snapshot()->sequence_number, 1);
  EXPECT_EQ(Rows().value(), With(With(fixture_rows_, first), second));
}

}  // namespace
}  // namespace floe::iceberg
