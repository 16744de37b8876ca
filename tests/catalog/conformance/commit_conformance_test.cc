// Commits on every catalog: the pointer and the metadata log advance, a
// stale base conflicts and leaves no file, REST-style CommitTable.

#include <gtest/gtest.h>

#include <algorithm>

#include "catalog/conformance/conformance_test.h"
#include "floe/base/strings.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/metadata_location.h"
#include "floe/iceberg/new_table_metadata.h"

namespace floe::catalog::testing {
namespace {

class CommitConformanceTest : public CatalogConformanceTest {
 protected:
  void SetUp() override {
    CatalogConformanceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(catalog_->CreateNamespace(Ns("shop"), {}).ok());
    auto created = catalog_->CreateTable(Ident("shop.orders"), OrdersRequest());
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    created_ = *created;
  }

  std::string MetadataFolder() const { return created_.metadata->location + "/metadata/"; }

  iceberg::TableState created_;
};

TEST_P(CommitConformanceTest, CommitsAdvanceThePointerAndTheMetadataLog) {
  auto ops = catalog_->NewTableOps(Ident("shop.orders"));
  EXPECT_EQ(ops->name(), "shop.orders");
  iceberg::TableState base = ops->Refresh().value();
  EXPECT_EQ(base.metadata_location, created_.metadata_location);

  std::vector<std::string> locations = {created_.metadata_location};
  for (int i = 1; i <= 3; ++i) {
    iceberg::TableState next = ops->Commit(base, WithProperty(*base.metadata, "k", std::to_string(i))).value();
    EXPECT_EQ(iceberg::ParseMetadataFileVersion(next.metadata_location), i) << next.metadata_location;
    ASSERT_EQ(next.metadata->metadata_log.size(), static_cast<size_t>(i));
    EXPECT_EQ(next.metadata->metadata_log.back().metadata_file, base.metadata_location);
    EXPECT_EQ(next.metadata->metadata_log.back().timestamp_ms, base.metadata->last_updated_ms);
    locations.push_back(next.metadata_location);
    base = next;
  }
  iceberg::TableState loaded = catalog_->LoadTable(Ident("shop.orders")).value();
  EXPECT_EQ(loaded.metadata_location, locations.back());
  EXPECT_EQ(loaded.metadata->properties.at("k"), "3");
  EXPECT_EQ(*loaded.metadata, *base.metadata);
  EXPECT_EQ(ListPaths(ops->io(), MetadataFolder()).size(), 4u);
}

TEST_P(CommitConformanceTest, StaleBaseConflictsAndItsFileIsDeleted) {
  auto ops = catalog_->NewTableOps(Ident("shop.orders"));
  iceberg::TableState base = ops->Refresh().value();
  iceberg::TableState winner = ops->Commit(base, WithProperty(*base.metadata, "winner", "yes")).value();

  auto loser = ops->Commit(base, WithProperty(*base.metadata, "loser", "yes"));
  if (!GetParam()->swaps_the_pointer()) {
    // REST: a property change asserts only the table's uuid, so it lands on
    // the winner's metadata, both changes kept.
    ASSERT_TRUE(loser.ok()) << loser.status().ToString();
    EXPECT_EQ(loser->metadata->properties.at("winner"), "yes");
    EXPECT_EQ(loser->metadata->properties.at("loser"), "yes");
    EXPECT_EQ(loser->metadata->metadata_log.back().metadata_file, winner.metadata_location);
    return;
  }
  ASSERT_EQ(loser.status().code(), StatusCode::kCommitConflict) << loser.status().ToString();
  EXPECT_NE(loser.status().message().find("table shop.orders was changed by another commit"), std::string::npos)
      << loser.status().message();
  // The signal a server re-runs such a commit on, not its wording.
  EXPECT_TRUE(loser.status().IsSwapLost());
  // Only the create's and the winner's files remain.
  EXPECT_EQ(ListPaths(ops->io(), MetadataFolder()),
            (std::vector<std::string>{std::min(created_.metadata_location, winner.metadata_location),
                                      std::max(created_.metadata_location, winner.metadata_location)}));
  iceberg::TableState loaded = ops->Refresh().value();
  EXPECT_EQ(loaded.metadata_location, winner.metadata_location);
  EXPECT_FALSE(loaded.metadata->properties.contains("loser"));
}

TEST_P(CommitConformanceTest, CommitToADroppedTableConflicts) {
  auto ops = catalog_->NewTableOps(Ident("shop.orders"));
  iceberg::TableState base = ops->Refresh().value();
  ASSERT_TRUE(catalog_->DropTable(Ident("shop.orders"), false).ok());
  auto result = ops->Commit(base, WithProperty(*base.metadata, "k", "v"));
  EXPECT_EQ(result.status().code(), StatusCode::kCommitConflict);
  EXPECT_EQ(result.status().message(), "table shop.orders no longer exists");
  if (GetParam()->swaps_the_pointer()) {
    EXPECT_TRUE(result.status().IsSwapLost());
  }
  EXPECT_EQ(ops->Refresh().status().code(), StatusCode::kNotFound);
}

TEST_P(CommitConformanceTest, KeepsTheLogShortAndDeletesOldFilesWhenAsked) {
  iceberg::TableState base =
      catalog_
          ->CommitTable(Ident("shop.orders"), {},
                        {iceberg::SetProperties{{{"write.metadata.previous-versions-max", "2"},
                                                 {"write.metadata.delete-after-commit.enabled", "true"}}}})
          .value();
  for (int i = 0; i < 4; ++i) {
    base =
        catalog_->CommitTable(Ident("shop.orders"), {}, {iceberg::SetProperties{{{"i", std::to_string(i)}}}}).value();
  }
  ASSERT_EQ(base.metadata->metadata_log.size(), 2u);
  // The current file and the two in the log are all that is left.
  std::vector<std::string> expected = {base.metadata->metadata_log[0].metadata_file,
                                       base.metadata->metadata_log[1].metadata_file, base.metadata_location};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(ListPaths(*NewLocalFileIO(), MetadataFolder()), expected);
  EXPECT_EQ(iceberg::ParseMetadataFileVersion(base.metadata_location), 5);
}

TEST_P(CommitConformanceTest, CommitTableChecksRequirements) {
  const TableIdentifier ident = Ident("shop.orders");
  iceberg::TableState next = catalog_
                                 ->CommitTable(ident, {iceberg::AssertTableUuid{created_.metadata->table_uuid}},
                                               {iceberg::SetProperties{{{"owner", "ana"}}}})
                                 .value();
  EXPECT_EQ(next.metadata->properties.at("owner"), "ana");
  EXPECT_EQ(catalog_->LoadTable(ident).value().metadata_location, next.metadata_location);

  auto wrong_uuid = catalog_->CommitTable(ident, {iceberg::AssertTableUuid{"00000000-0000-4000-8000-000000000000"}},
                                          {iceberg::SetProperties{{{"owner", "bo"}}}});
  EXPECT_EQ(wrong_uuid.status().code(), StatusCode::kCommitConflict);
  if (GetParam()->swaps_the_pointer()) {
    EXPECT_EQ(wrong_uuid.status().conflict_reason(), ConflictReason::kRequirementFailed);
  }
  EXPECT_EQ(catalog_->LoadTable(ident).value().metadata_location, next.metadata_location);

  // Updates that change nothing write nothing.
  iceberg::TableState same = catalog_->CommitTable(ident, {}, {}).value();
  EXPECT_EQ(same.metadata_location, next.metadata_location);

  auto invalid = catalog_->CommitTable(ident, {}, {iceberg::SetCurrentSchema{7}});
  EXPECT_EQ(invalid.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ListPaths(*NewLocalFileIO(), MetadataFolder()).size(), 2u);
  EXPECT_EQ(catalog_->CommitTable(Ident("shop.items"), {}, {}).status().code(), StatusCode::kNotFound);
}

TEST_P(CommitConformanceTest, CommitTableWithAssertCreateCreatesTheTable) {
  iceberg::TableDefinition definition;
  definition.schema = OrdersRequest().schema;
  definition.location = warehouse() + "/shop/items";
  std::vector<iceberg::TableUpdate> updates = iceberg::NewTableUpdates(definition).value();
  iceberg::TableState created = catalog_->CommitTable(Ident("shop.items"), {iceberg::AssertCreate{}}, updates).value();
  EXPECT_EQ(iceberg::ParseMetadataFileVersion(created.metadata_location), 0);
  EXPECT_EQ(catalog_->LoadTable(Ident("shop.items")).value().metadata_location, created.metadata_location);
  auto again = catalog_->CommitTable(Ident("shop.items"), {iceberg::AssertCreate{}}, updates);
  EXPECT_EQ(again.status().code(), StatusCode::kCommitConflict);
}

TEST_P(CommitConformanceTest, CommitTransactionMovesEveryTableOrNone) {
  iceberg::TableState items = catalog_->CreateTable(Ident("shop.items"), OrdersRequest()).value();
  const std::string orders_uuid = created_.metadata->table_uuid;
  std::vector<iceberg::TableState> states =
      catalog_
          ->CommitTransaction({TableCommit{Ident("shop.orders"), {iceberg::AssertTableUuid{orders_uuid}},
                                           {iceberg::SetProperties{{{"k", "1"}}}}},
                               TableCommit{Ident("shop.items"), {iceberg::AssertTableUuid{items.metadata->table_uuid}},
                                           {iceberg::SetProperties{{{"k", "2"}}}}}})
          .value();
  ASSERT_EQ(states.size(), 2u);
  EXPECT_EQ(states[0].metadata->properties.at("k"), "1");
  EXPECT_EQ(states[1].metadata->properties.at("k"), "2");
  EXPECT_EQ(catalog_->LoadTable(Ident("shop.items")).value().metadata_location, states[1].metadata_location);

  // One requirement fails (items asserts orders' uuid): neither table moves.
  auto conflict = catalog_->CommitTransaction(
      {TableCommit{Ident("shop.orders"), {}, {iceberg::SetProperties{{{"k", "3"}}}}},
       TableCommit{Ident("shop.items"), {iceberg::AssertTableUuid{orders_uuid}}, {iceberg::SetProperties{{{"k", "4"}}}}}});
  ASSERT_EQ(conflict.status().code(), StatusCode::kCommitConflict) << conflict.status().ToString();
  if (GetParam()->swaps_the_pointer()) {
    EXPECT_EQ(conflict.status().conflict_reason(), ConflictReason::kRequirementFailed);
  }
  EXPECT_EQ(catalog_->LoadTable(Ident("shop.orders")).value().metadata_location, states[0].metadata_location);
  EXPECT_EQ(catalog_->LoadTable(Ident("shop.items")).value().metadata_location, states[1].metadata_location);
}

FLOE_CATALOG_CONFORMANCE(CommitConformanceTest);

}  // namespace
}  // namespace floe::catalog::testing
