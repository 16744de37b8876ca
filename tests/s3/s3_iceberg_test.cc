// Iceberg tables in a warehouse on S3 with the SQLite catalog, through the
// C++ API: the whole life cycle with the rows checked after every step and
// the bucket listed after expiry and purge; metadata files published with
// put-if-absent; storage settings from table properties.

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <string>
#include <vector>

#include "catalog/table_test_util.h"
#include "floe/catalog/catalog_uri.h"
#include "floe/catalog/sql_catalog.h"
#include "floe/io/s3_file_io.h"
#include "floe/io/tracing_file_io.h"
#include "s3_fixture.h"
#include "testing/tcp_proxy.h"
#include "testing/temp_dir.h"

namespace floe::testing {
namespace {

using catalog::testing::Ident;
using catalog::testing::Ns;
using catalog::testing::Row;
using catalog::testing::Rows;
using catalog::testing::RowFilter;

// A FileIO that lets a hook run just before each metadata file is opened for
// writing: a second writer publishing the same name at that moment.
class RacingMetadataFileIO final : public FileIO {
 public:
  explicit RacingMetadataFileIO(std::shared_ptr<FileIO> base) : base_(std::move(base)) {}
  std::function<void(const std::string& path)> before_metadata_write;

  std::string_view scheme() const override { return base_->scheme(); }
  Result<FileInfo> Stat(const std::string& path) override { return base_->Stat(path); }
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path,
                                                     const OpenReadOptions& options) override {
    return base_->OpenRead(path, options);
  }
  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options) override {
    if (path.ends_with(".metadata.json") && before_metadata_write) {
      auto hook = std::move(before_metadata_write);
      before_metadata_write = nullptr;
      hook(path);
    }
    return base_->OpenWrite(path, options);
  }
  Status Delete(const std::string& path) override { return base_->Delete(path); }
  Result<ListPage> List(const std::string& prefix, const ListOptions& options) override {
    return base_->List(prefix, options);
  }

 private:
  std::shared_ptr<FileIO> base_;
};

class S3IcebergTest : public S3Test {
 protected:
  void SetUp() override {
    S3Test::SetUp();
    warehouse_ = At("wh");
  }

  std::shared_ptr<catalog::SqlCatalog> OpenCatalog(std::shared_ptr<FileIO> io,
                                                   catalog::TableFileIOResolver table_io = nullptr) {
    catalog::SqlCatalogOptions options;
    options.database_path = dir_.Join("catalog.db");
    options.warehouse = warehouse_;
    options.table_io = std::move(table_io);
    auto catalog = catalog::SqlCatalog::Open(std::move(options), std::move(io));
    EXPECT_TRUE(catalog.ok()) << catalog.status().ToString();
    return catalog.ok() ? *catalog : nullptr;
  }

  TempDir dir_;
  std::string warehouse_;
};

TEST_F(S3IcebergTest, TableLifeCycleOnS3WithTheSqliteCatalog) {
  auto catalog = OpenCatalog(io_);
  ASSERT_NE(catalog, nullptr);
  catalog::testing::CreateRowsTable(*catalog);
  iceberg::Table table(catalog->NewTableOps(Ident("db.t")));
  auto state = table.Refresh();
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  const std::string location = state->metadata->location;
  EXPECT_EQ(location, warehouse_ + "/db/t");
  EXPECT_TRUE(state->metadata_location.starts_with(location + "/metadata/00000-")) << state->metadata_location;

  std::map<int64_t, Rows> models;
  Rows model;
  auto check = [&](const char* step, const iceberg::TableState& after) {
    models[after.metadata->current_snapshot()->snapshot_id] = model;
    auto rows = catalog::testing::ScanRows(table);
    ASSERT_TRUE(rows.ok()) << step << ": " << rows.status().ToString();
    EXPECT_EQ(*rows, model) << step << ": " << catalog::testing::ToString(*rows);
    EXPECT_EQ(catalog::testing::CheckTable(*catalog, models, /*allow_orphans=*/false, *io_), "") << step;
  };

  const Rows first = catalog::testing::MakeRows(0, 20, {"eu", "us"});
  auto appended = table.Append(catalog::testing::SourceFor(table, first).value());
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  model = catalog::testing::ModelAppend(model, first);
  check("append", appended->state);

  const Rows second = catalog::testing::MakeRows(100, 10, {"eu", "ap"});
  appended = table.Append(catalog::testing::SourceFor(table, second).value());
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  model = catalog::testing::ModelAppend(model, second);
  check("second append", appended->state);

  const RowFilter us{"region = 'us'", [](const Row& r) { return r.region == "us"; }};
  const Rows replacement = {{500, "us", 1}, {501, "us", 2}};
  auto overwritten = table.Overwrite(iceberg::ParseExpression(us.text).value(),
                                     catalog::testing::SourceFor(table, replacement).value());
  ASSERT_TRUE(overwritten.ok()) << overwritten.status().ToString();
  model = catalog::testing::ModelOverwrite(model, us, replacement);
  check("overwrite", overwritten->state);

  const RowFilter low{"id < 5", [](const Row& r) { return r.id < 5; }};
  auto deleted = table.Delete(iceberg::ParseExpression(low.text).value());
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  model = catalog::testing::ModelOverwrite(model, low, {});
  check("delete", deleted->state);

  auto compacted = table.Compact(2);
  ASSERT_TRUE(compacted.ok()) << compacted.status().ToString();
  ASSERT_TRUE(compacted->has_value()) << "the eu partition has files of two appends to compact";
  check("compact", (*compacted)->state);

  // Expire every snapshot but the current one: what only they reached is gone
  // from the bucket, and everything left is reachable.
  auto before = table.Refresh().value();
  const catalog::testing::TableFiles reachable_before = catalog::testing::WalkTable(*io_, before);
  iceberg::ExpireOptions expire;
  expire.older_than_ms = catalog::testing::NowMs() + 1000;
  expire.retain_last = 1;
  auto expired = table.ExpireSnapshots(expire);
  ASSERT_TRUE(expired.ok()) << expired.status().ToString();
  ASSERT_TRUE(expired->cleanup.ok()) << expired->cleanup.ToString();
  EXPECT_EQ(expired->expired_snapshot_ids.size(), before.metadata->snapshots.size() - 1);
  EXPECT_GT(expired->deleted_data_files, 0);
  EXPECT_GT(expired->deleted_manifest_lists, 0);
  const catalog::testing::TableFiles reachable_after = catalog::testing::WalkTable(*io_, expired->state);
  const std::set<std::string> listed = Objects(location + "/");
  for (const std::string& path : reachable_before.data_files) {
    EXPECT_EQ(listed.count(path), reachable_after.data_files.count(path)) << path;
  }
  for (const std::string& path : reachable_before.manifest_lists) {
    EXPECT_EQ(listed.count(path), reachable_after.manifest_lists.count(path)) << path;
  }
  for (const std::string& path : listed) {
    EXPECT_TRUE(reachable_after.Contains(path)) << "left behind by expiry: " << path;
  }
  auto rows = catalog::testing::ScanRows(table);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, model);

  // Drop with purge: nothing of the table is left in the bucket.
  ASSERT_FALSE(Objects(location + "/").empty());
  Status dropped = catalog->DropTable(Ident("db.t"), /*purge=*/true);
  ASSERT_TRUE(dropped.ok()) << dropped.ToString();
  EXPECT_EQ(Objects(location + "/"), std::set<std::string>{});
  EXPECT_FALSE(*catalog->TableExists(Ident("db.t")));
}

TEST_F(S3IcebergTest, MetadataFileIsPutIfAbsentSoARacingWriterIsNeverOverwritten) {
  auto racing = std::make_shared<RacingMetadataFileIO>(io_);
  auto catalog = OpenCatalog(racing);
  ASSERT_NE(catalog, nullptr);
  catalog::testing::CreateRowsTable(*catalog, {{"commit.retry.num-retries", "50"}});
  iceberg::Table table(catalog->NewTableOps(Ident("db.t")));
  const Rows rows = catalog::testing::MakeRows(0, 4, {"eu"});
  ASSERT_TRUE(table.Append(catalog::testing::SourceFor(table, rows).value()).ok());
  const std::string pointer = catalog->LoadMetadataLocation(Ident("db.t")).value();

  // Another commit publishes the very name this commit is about to write.
  std::string raced_path;
  const std::string theirs = "{\"written by\": \"the other commit\"}";
  racing->before_metadata_write = [&](const std::string& path) {
    raced_path = path;
    ASSERT_TRUE(io_->WriteAll(path, std::string_view(theirs)).ok());
  };
  auto lost = table.Append(catalog::testing::SourceFor(table, catalog::testing::MakeRows(10, 4, {"us"})).value());
  ASSERT_FALSE(raced_path.empty());
  EXPECT_TRUE(lost.status().IsAlreadyExists()) << lost.status().ToString();
  EXPECT_NE(lost.status().message().find(raced_path), std::string::npos) << lost.status().message();
  // Their file is intact (neither overwritten nor cleaned up), the pointer unchanged.
  EXPECT_EQ(ReadString(raced_path), theirs);
  EXPECT_EQ(catalog->LoadMetadataLocation(Ident("db.t")).value(), pointer);
  auto scanned = catalog::testing::ScanRows(table);
  ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
  EXPECT_EQ(*scanned, rows);

  // Writers racing on one table, each with its own table object: every
  // append lands, each version in a metadata file of its own, and the files
  // of the attempts that lost a race are removed.
  constexpr int kWriters = 4, kAppends = 3;
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      iceberg::Table mine(catalog->NewTableOps(Ident("db.t")));
      for (int a = 0; a < kAppends; ++a) {
        auto source = catalog::testing::SourceFor(mine, {{1000 + w * 10 + a, "ap", w}});
        if (!source.ok() || !mine.Append(*source).ok()) ++failures;
      }
    });
  }
  for (auto& t : writers) t.join();
  EXPECT_EQ(failures.load(), 0);
  Rows expected = rows;
  for (int w = 0; w < kWriters; ++w) {
    for (int a = 0; a < kAppends; ++a) expected.push_back({1000 + w * 10 + a, "ap", w});
  }
  auto all = catalog::testing::ScanRows(table);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(*all, catalog::testing::Sorted(expected));
  auto state = table.Refresh().value();
  std::set<std::string> versions{state.metadata_location};
  for (const auto& entry : state.metadata->metadata_log) versions.insert(entry.metadata_file);
  EXPECT_EQ(versions.size(), static_cast<size_t>(2 + kWriters * kAppends));
  std::set<std::string> metadata_files;
  for (const std::string& path : Objects(state.metadata->location + "/metadata/")) {
    if (path.ends_with(".metadata.json") && path != raced_path) metadata_files.insert(path);
  }
  EXPECT_EQ(metadata_files, versions);
}

TEST_F(S3IcebergTest, StoragePropertiesOfATableServeItsRequests) {
  // The table's properties send its requests through a proxy of the server;
  // the catalog's own FileIO goes to the server directly.
  TcpProxy proxy(S3TestServer::port());
  const FileIOProperties catalog_properties = {{"s3.endpoint", S3TestServer::endpoint()},
                                               {"s3.access-key-id", "floe-test"},
                                               {"s3.secret-access-key", "floe-test-secret"},
                                               {"client.region", "us-east-1"}};
  auto catalog_io = S3FileIOForLocation(warehouse_, catalog_properties);
  ASSERT_TRUE(catalog_io.ok()) << catalog_io.status().ToString();
  auto trace = std::make_shared<IoTrace>();
  auto catalog = OpenCatalog(*catalog_io, catalog::TableFileIOFromProperties(
                                              catalog_properties, [trace](std::shared_ptr<FileIO> io) {
                                                return std::shared_ptr<FileIO>(
                                                    std::make_shared<TracingFileIO>(std::move(io), trace));
                                              }));
  ASSERT_NE(catalog, nullptr);
  const std::string proxied = "http://127.0.0.1:" + std::to_string(proxy.port());
  catalog::testing::CreateRowsTable(*catalog, {{"s3.endpoint", proxied}, {"s3.path-style-access", "true"}});
  EXPECT_GT(proxy.connections(), 0) << "the first metadata file goes through the table's endpoint";

  iceberg::Table table(catalog->NewTableOps(Ident("db.t")));
  const Rows rows = catalog::testing::MakeRows(0, 6, {"eu", "us"});
  auto appended = table.Append(catalog::testing::SourceFor(table, rows).value());
  ASSERT_TRUE(appended.ok()) << appended.status().ToString();
  auto scanned = catalog::testing::ScanRows(table);
  ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
  EXPECT_EQ(*scanned, rows);
  // The data files were written and read through the table's FileIO (the proxied one).
  int data_puts = 0, data_gets = 0;
  for (const IoRequest& r : trace->requests()) {
    if (!r.path.ends_with(".parquet")) continue;
    data_puts += r.method == "PUT";
    data_gets += r.method == "GET";
  }
  EXPECT_EQ(data_puts, 2) << trace->Format();
  EXPECT_GT(data_gets, 0) << trace->Format();

  // A table property naming an endpoint nothing listens on fails the
  // table's requests there, naming the object; the table stays as it was.
  iceberg::Table broken(catalog->NewTableOps(Ident("db.t")));
  auto commit = broken.CommitChanges([](const iceberg::TableMetadata&)
                                         -> Result<std::pair<std::vector<iceberg::TableRequirement>,
                                                             std::vector<iceberg::TableUpdate>>> {
    std::vector<iceberg::TableUpdate> updates{
        iceberg::SetProperties{{{"s3.endpoint", "http://127.0.0.1:9"}, {"s3.max-attempts", "1"}}}};
    return std::make_pair(std::vector<iceberg::TableRequirement>{}, std::move(updates));
  });
  ASSERT_FALSE(commit.ok());
  EXPECT_TRUE(commit.status().IsIOError()) << commit.status().ToString();
  EXPECT_NE(commit.status().message().find("s3://" + bucket_ + "/wh/db/t/metadata/"), std::string::npos)
      << commit.status().message();
  scanned = catalog::testing::ScanRows(table);
  ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
  EXPECT_EQ(*scanned, rows);

  // A malformed storage property is an error naming it.
  auto bad = catalog->CreateTable(Ident("db.bad"),
                                  catalog::testing::RowsTableRequest({{"s3.path-style-access", "sometimes"}}));
  EXPECT_TRUE(bad.status().IsInvalidArgument()) << bad.status().ToString();
  EXPECT_NE(bad.status().message().find("s3.path-style-access"), std::string::npos) << bad.status().message();
}

}  // namespace
}  // namespace floe::testing
