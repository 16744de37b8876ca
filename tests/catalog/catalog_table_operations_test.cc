// CatalogTableOperations against a scripted pointer store on memory storage:
// file naming, the metadata log, and which failures leave the new file.

#include "floe/catalog/catalog_table_operations.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "catalog/catalog_test_util.h"
#include "floe/base/strings.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/metadata_location.h"
#include "floe/iceberg/new_table_metadata.h"

namespace floe::catalog {
namespace {

using testing::Ident;
using testing::ListPaths;
using testing::WithProperty;

class ScriptedStore : public MetadataPointerStore {
 public:
  Result<std::string> LoadMetadataLocation(const TableIdentifier& ident) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pointers_.find(ident.ToString());
    if (it == pointers_.end()) return Status::NotFound(TableNotFoundMessage(ident));
    return it->second;
  }
  Status CreateMetadataLocation(const TableIdentifier& ident, const std::string& location) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!pointers_.emplace(ident.ToString(), location).second) return Status::AlreadyExists("taken");
    return Status::OK();
  }
  Status SwapMetadataLocation(const TableIdentifier& ident, const std::string& expected,
                              const std::string& location) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!next_swap_.ok()) {
      Status status = next_swap_;
      if (status.IsCommitStateUnknown() && next_swap_lands_) pointers_[ident.ToString()] = location;
      next_swap_ = Status::OK();
      return status;
    }
    std::string& current = pointers_[ident.ToString()];
    if (current != expected) return Status::CommitConflict("moved");
    current = location;
    return Status::OK();
  }
  // The next swap answers `status`; a CommitStateUnknown swap happens when `lands`.
  void FailNextSwap(Status status, bool lands = true) {
    std::lock_guard<std::mutex> lock(mutex_);
    next_swap_ = std::move(status);
    next_swap_lands_ = lands;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> pointers_;
  Status next_swap_;
  bool next_swap_lands_ = true;
};

class CatalogTableOperationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    io_ = NewMemoryFileIO();
    store_ = std::make_shared<ScriptedStore>();
    ops_ = std::make_shared<CatalogTableOperations>(store_, Ident("shop.orders"), io_);
    iceberg::TableDefinition definition;
    definition.schema = testing::OrdersRequest().schema;
    definition.location = "mem://wh/shop/orders";
    created_ = ops_->Commit(iceberg::TableState{}, iceberg::NewTableMetadata(definition).value()).value();
  }

  std::vector<std::string> MetadataFiles() { return ListPaths(*io_, "mem://wh/shop/orders/metadata/"); }

  std::shared_ptr<FileIO> io_;
  std::shared_ptr<ScriptedStore> store_;
  std::shared_ptr<CatalogTableOperations> ops_;
  iceberg::TableState created_;
};

TEST_F(CatalogTableOperationsTest, CreateWritesVersionZeroAndRegistersIt) {
  EXPECT_TRUE(StartsWith(created_.metadata_location, "mem://wh/shop/orders/metadata/00000-"));
  EXPECT_EQ(store_->LoadMetadataLocation(Ident("shop.orders")).value(), created_.metadata_location);
  iceberg::TableState refreshed = ops_->Refresh().value();
  EXPECT_EQ(refreshed.metadata_location, created_.metadata_location);
  EXPECT_EQ(*refreshed.metadata, *created_.metadata);
  EXPECT_EQ(ops_->name(), "shop.orders");
  // A second create of the same name is refused and leaves no file.
  auto again = ops_->Commit(iceberg::TableState{}, *created_.metadata);
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(MetadataFiles(), std::vector<std::string>{created_.metadata_location});
}

TEST_F(CatalogTableOperationsTest, ConflictRemovesTheNewFileALostAnswerIsLookedUp) {
  iceberg::TableState next = ops_->Commit(created_, WithProperty(*created_.metadata, "a", "1")).value();
  EXPECT_EQ(iceberg::ParseMetadataFileVersion(next.metadata_location), 1);

  auto conflict = ops_->Commit(created_, WithProperty(*created_.metadata, "b", "1"));
  EXPECT_EQ(conflict.status().code(), StatusCode::kCommitConflict);
  EXPECT_EQ(MetadataFiles().size(), 2u);

  store_->FailNextSwap(Status::IOError("disk on fire"));
  EXPECT_EQ(ops_->Commit(next, WithProperty(*next.metadata, "c", "1")).status().code(), StatusCode::kIOError);
  EXPECT_EQ(MetadataFiles().size(), 2u);

  // The swap happened but its answer was lost: the pointer tells, the
  // commit succeeds and its file stays.
  store_->FailNextSwap(Status::CommitStateUnknown("lost the answer"));
  auto landed = ops_->Commit(next, WithProperty(*next.metadata, "d", "1"));
  ASSERT_TRUE(landed.ok()) << landed.status().ToString();
  EXPECT_EQ(MetadataFiles().size(), 3u);
  iceberg::TableState after = ops_->Refresh().value();
  EXPECT_EQ(after.metadata_location, landed->metadata_location);
  EXPECT_EQ(after.metadata->properties.at("d"), "1");

  // The request was lost: the pointer still names the base, so it is a
  // conflict the caller may retry, and the file goes.
  store_->FailNextSwap(Status::CommitStateUnknown("lost the request"), /*lands=*/false);
  auto lost = ops_->Commit(after, WithProperty(*after.metadata, "e", "1"));
  EXPECT_EQ(lost.status().code(), StatusCode::kCommitConflict) << lost.status().ToString();
  EXPECT_THAT(lost.status().message(), ::testing::HasSubstr("did not land"));
  EXPECT_EQ(MetadataFiles().size(), 3u);
  EXPECT_EQ(ops_->Refresh().value().metadata_location, after.metadata_location);
}

TEST_F(CatalogTableOperationsTest, HonoursCompressionAndTheMetadataPath) {
  iceberg::TableMetadata gz = WithProperty(*created_.metadata, "write.metadata.compression-codec", "gzip");
  iceberg::TableState next = ops_->Commit(created_, gz).value();
  EXPECT_TRUE(EndsWith(next.metadata_location, ".gz.metadata.json")) << next.metadata_location;
  Buffer raw = io_->ReadAll(next.metadata_location).value();
  ASSERT_GE(raw.size(), 2);
  EXPECT_EQ(raw.data()[0], 0x1f);
  EXPECT_EQ(*ops_->Refresh().value().metadata, *next.metadata);

  iceberg::TableState moved =
      ops_->Commit(next, WithProperty(*next.metadata, "write.metadata.path", "mem://meta/orders")).value();
  EXPECT_TRUE(StartsWith(moved.metadata_location, "mem://meta/orders/00002-")) << moved.metadata_location;
}

TEST_F(CatalogTableOperationsTest, ABaseNotNamedByACatalogStartsAtVersionZero) {
  // A table registered from "v3.metadata.json" (Hadoop tables' naming).
  ASSERT_TRUE(iceberg::WriteTableMetadata(*io_, "mem://wh/t/metadata/v3.metadata.json", *created_.metadata).ok());
  auto store = std::make_shared<ScriptedStore>();
  ASSERT_TRUE(store->CreateMetadataLocation(Ident("shop.t"), "mem://wh/t/metadata/v3.metadata.json").ok());
  CatalogTableOperations ops(store, Ident("shop.t"), io_);
  iceberg::TableState base = ops.Refresh().value();
  iceberg::TableState next = ops.Commit(base, WithProperty(*base.metadata, "a", "1")).value();
  EXPECT_EQ(iceberg::ParseMetadataFileVersion(next.metadata_location), 0);
  EXPECT_EQ(next.metadata->metadata_log.back().metadata_file, "mem://wh/t/metadata/v3.metadata.json");
}

TEST_F(CatalogTableOperationsTest, RefreshOfMissingTablesAndFiles) {
  CatalogTableOperations missing(store_, Ident("shop.items"), io_);
  auto refreshed = missing.Refresh();
  EXPECT_EQ(refreshed.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(refreshed.status().message(), "table shop.items does not exist");
  ASSERT_TRUE(io_->Delete(created_.metadata_location).ok());
  EXPECT_EQ(ops_->Refresh().status().code(), StatusCode::kNotFound);
  CatalogTableOperations bad(store_, TableIdentifier{Namespace{}, "orders"}, io_);
  EXPECT_EQ(bad.Refresh().status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace floe::catalog
