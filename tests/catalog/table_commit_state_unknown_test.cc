// CommitStateUnknown from the catalog's swap, for every kind of commit: the
// swap happened but its answer was lost, or it did not happen and the
// answer was lost. The committer then asks the catalog: when it can read
// the pointer, a landed commit succeeds (after exactly one swap) and a lost
// one is retried like a lost race (a second swap); when the catalog stays
// unreachable, the operation reports CommitStateUnknown after exactly one
// swap and deletes nothing (the files may be the table's now). Loaded
// afresh, the table is at the version the outcome says, every file it
// reaches exists, and a later commit builds on it normally.

#include <gtest/gtest.h>

#include <chrono>

#include "catalog/table_test_util.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers
using Swap = HookedPointerStore::Swap;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct Case {
  std::string name;
  // Runs the operation on `t`; returns its status.
  std::function<Status(iceberg::Table& t)> run;
  // The rows of the snapshot it adds, from the head's rows; nullopt when it adds none.
  std::function<std::optional<Rows>(const Rows&)> rows;
};

// How the first swap's answer is lost, and whether the catalog can be read
// while the committer checks the outcome.
struct LostAnswer {
  Swap swap;
  bool catalog_reachable;
};

void PrintTo(const LostAnswer& lost, std::ostream* os) {
  *os << (lost.swap == Swap::kUnknownLanded ? "landed" : "lost")
      << (lost.catalog_reachable ? ", catalog reachable" : ", catalog unreachable");
}

class TableCommitStateUnknownTest : public ::testing::TestWithParam<LostAnswer> {
 protected:
  // Sets up a table with three snapshots, runs `c` with its first swap
  // answered as GetParam() says, then checks.
  void RunCase(const Case& c) {
    SCOPED_TRACE(c.name);
    floe::testing::TempDir dir;
    auto catalog = OpenSqlCatalog(dir);
    ASSERT_NE(catalog, nullptr);
    CreateRowsTable(*catalog, {{"commit.status-check.min-wait-ms", "1"}});
    iceberg::Table plain(catalog->NewTableOps(Ident(kTableName)));
    std::map<int64_t, Rows> models;
    Rows model;
    auto append = [&](const Rows& rows) {
      auto result = plain.Append(SourceFor(plain, rows).value());
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      model = ModelAppend(model, rows);
      models[result->state.metadata->current_snapshot()->snapshot_id] = model;
    };
    append(MakeRows(0, 6, {"a", "b"}));
    append(MakeRows(100, 6, {"a", "b"}));
    append(MakeRows(200, 4, {"a", "c"}));
    const iceberg::TableState before = catalog->LoadTable(Ident(kTableName)).value();

    auto store = std::make_shared<HookedPointerStore>(catalog);
    store->outcomes = {GetParam().swap};
    // The default check reads the pointer once and retries 3 times.
    store->failed_loads_after_unknown = GetParam().catalog_reachable ? 0 : 4;
    auto io = NewLocalFileIO();
    auto table = TableThrough(store, io);
    const Status status = c.run(*table);
    const bool first_swap_landed = GetParam().swap == Swap::kUnknownLanded;
    bool landed = first_swap_landed;
    if (GetParam().catalog_reachable) {
      EXPECT_TRUE(status.ok()) << status.ToString();
      EXPECT_EQ(store->swaps(), first_swap_landed ? 1 : 2) << "only a commit known to be lost is retried";
      landed = true;
    } else {
      EXPECT_EQ(status.code(), StatusCode::kCommitStateUnknown) << status.ToString();
      EXPECT_EQ(store->swaps(), 1) << "an unknown outcome must not be retried";
      EXPECT_EQ(store->failed_loads(), 4);
    }

    const iceberg::TableState after = catalog->LoadTable(Ident(kTableName)).value();
    EXPECT_EQ(after.metadata_location != before.metadata_location, landed);
    if (landed) {
      // Exactly one version more: one new snapshot at most, and its rows.
      std::vector<int64_t> added;
      for (const auto& s : after.metadata->snapshots) {
        if (before.metadata->SnapshotById(s.snapshot_id) == nullptr) added.push_back(s.snapshot_id);
      }
      const auto rows = c.rows(model);
      EXPECT_EQ(added.size(), rows.has_value() ? 1u : 0u);
      if (rows.has_value() && added.size() == 1) models[added[0]] = *rows;
      for (auto it = models.begin(); it != models.end();) {
        it = after.metadata->SnapshotById(it->first) != nullptr ? std::next(it) : models.erase(it);
      }
    }
    // An unknown outcome may leave orphans; a known one cleans up after itself.
    EXPECT_EQ(CheckTable(*catalog, models, /*allow_orphans=*/!GetParam().catalog_reachable, *io), "");
    if (landed) {
      // Nothing the new version reaches was deleted: its files are all there
      // (CheckTable), and so is the old version's metadata file.
      EXPECT_TRUE(io->Exists(before.metadata_location).value());
    }

    // The table goes on: a normal append builds on whatever is current.
    const iceberg::Snapshot* head = after.metadata->current_snapshot();
    const Rows head_rows = head != nullptr ? models.at(head->snapshot_id) : Rows{};
    const Rows more = MakeRows(900, 3, {"a", "e"});
    auto next = plain.Append(SourceFor(plain, more).value());
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    EXPECT_EQ(next->state.metadata->current_snapshot()->parent_snapshot_id, head ? head->snapshot_id : -1);
    models[next->state.metadata->current_snapshot()->snapshot_id] = ModelAppend(head_rows, more);
    EXPECT_EQ(CheckTable(*catalog, models, /*allow_orphans=*/true, *io), "");
  }
};

const RowFilter kSmallV{"v < 3", [](const Row& r) { return r.v < 3; }};

TEST_P(TableCommitStateUnknownTest, Append) {
  const Rows rows = MakeRows(500, 4, {"a", "d"});
  RunCase({"append", [&](iceberg::Table& t) { return StatusOf(t.Append(SourceFor(t, rows).value())); },
           [&](const Rows& m) { return std::optional<Rows>(ModelAppend(m, rows)); }});
}

TEST_P(TableCommitStateUnknownTest, Overwrite) {
  const Rows rows = MakeRows(500, 2, {"b"});
  RunCase({"overwrite metadata only",
           [&](iceberg::Table& t) { return StatusOf(t.Overwrite(Where(kRegionB), SourceFor(t, rows).value())); },
           [&](const Rows& m) { return std::optional<Rows>(ModelOverwrite(m, kRegionB, rows)); }});
  RunCase({"overwrite copy-on-write",
           [&](iceberg::Table& t) { return StatusOf(t.Overwrite(Where(kSmallV), SourceFor(t, rows).value())); },
           [&](const Rows& m) { return std::optional<Rows>(ModelOverwrite(m, kSmallV, rows)); }});
}

TEST_P(TableCommitStateUnknownTest, Delete) {
  RunCase({"delete copy-on-write", [&](iceberg::Table& t) { return StatusOf(t.Delete(Where(kSmallV))); },
           [&](const Rows& m) { return std::optional<Rows>(ModelOverwrite(m, kSmallV, {})); }});
}

TEST_P(TableCommitStateUnknownTest, ReplacePartitions) {
  const Rows rows = MakeRows(500, 2, {"c"});
  RunCase({"replace partitions",
           [&](iceberg::Table& t) { return StatusOf(t.ReplacePartitions(SourceFor(t, rows).value())); },
           [&](const Rows& m) { return std::optional<Rows>(ModelReplacePartitions(m, rows)); }});
}

TEST_P(TableCommitStateUnknownTest, Compact) {
  RunCase({"compact",
           [&](iceberg::Table& t) {
             auto r = t.Compact();
             if (r.ok() && !r->has_value()) return Status::Internal("nothing to compact");
             return r.status();
           },
           [&](const Rows& m) { return std::optional<Rows>(m); }});
}

TEST_P(TableCommitStateUnknownTest, ExpireSnapshotsDeletesNothing) {
  RunCase({"expire",
           [&](iceberg::Table& t) {
             iceberg::ExpireOptions options;
             options.older_than_ms = NowMs() + 60'000;
             options.retain_last = 1;
             return t.ExpireSnapshots(options).status();
           },
           [&](const Rows&) { return std::optional<Rows>(); }});
}

TEST_P(TableCommitStateUnknownTest, MetadataChanges) {
  RunCase({"tag",
           [&](iceberg::Table& t) {
             const int64_t head = t.Refresh().value().metadata->current_snapshot()->snapshot_id;
             return t.SetRef("v1", iceberg::SnapshotRefType::kTag, head).status();
           },
           [&](const Rows&) { return std::optional<Rows>(); }});
  RunCase({"rollback",
           [&](iceberg::Table& t) {
             const auto state = t.Refresh().value();
             return t.Rollback(*state.metadata->current_snapshot()->parent_snapshot_id).status();
           },
           [&](const Rows&) { return std::optional<Rows>(); }});
}

INSTANTIATE_TEST_SUITE_P(LostAnswers, TableCommitStateUnknownTest,
                         ::testing::Values(LostAnswer{Swap::kUnknownLanded, true},
                                           LostAnswer{Swap::kUnknownNotLanded, true},
                                           LostAnswer{Swap::kUnknownLanded, false},
                                           LostAnswer{Swap::kUnknownNotLanded, false}),
                         [](const ::testing::TestParamInfo<LostAnswer>& info) {
                           return std::string(info.param.swap == Swap::kUnknownLanded ? "SwapLanded" : "SwapLost") +
                                  (info.param.catalog_reachable ? "" : "CatalogUnreachable");
                         });

// A lost answer on a retry: the first swap loses a race, the second lands
// but its answer is lost and the catalog cannot be read. The retry's files stay, the first attempt's are
// cleaned up, and the concurrent commit and the operation are both in.
TEST(TableCommitStateUnknownRetryTest, LostAnswerOnTheRetryKeepsTheLandedFiles) {
  floe::testing::TempDir dir;
  auto catalog = OpenSqlCatalog(dir);
  ASSERT_NE(catalog, nullptr);
  CreateRowsTable(*catalog, {{"commit.status-check.min-wait-ms", "1"}});
  iceberg::Table plain(catalog->NewTableOps(Ident(kTableName)));
  const Rows first = MakeRows(0, 4, {"a", "b"});
  auto base = plain.Append(SourceFor(plain, first).value());
  ASSERT_TRUE(base.ok()) << base.status().ToString();
  std::map<int64_t, Rows> models = {{base->state.metadata->current_snapshot()->snapshot_id, first}};

  auto store = std::make_shared<HookedPointerStore>(catalog);
  store->outcomes = {Swap::kNormal, Swap::kUnknownLanded};
  store->failed_loads_after_unknown = 4;  // the outcome stays unknown
  const Rows concurrent = MakeRows(100, 2, {"c"});
  store->before_swap = [&](int swap) {
    if (swap != 0) return;
    auto r = plain.Append(SourceFor(plain, concurrent).value());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    models[r->state.metadata->current_snapshot()->snapshot_id] = ModelAppend(first, concurrent);
  };
  auto io = NewLocalFileIO();
  auto table = TableThrough(store, io);
  const Rows rows = MakeRows(200, 4, {"a", "d"});
  auto result = table->Append(SourceFor(*table, rows).value());
  EXPECT_EQ(result.status().code(), StatusCode::kCommitStateUnknown) << result.status().ToString();
  EXPECT_EQ(store->swaps(), 2);
  const auto after = catalog->LoadTable(Ident(kTableName)).value();
  ASSERT_EQ(after.metadata->snapshots.size(), 3u);
  models[after.metadata->current_snapshot()->snapshot_id] = ModelAppend(ModelAppend(first, concurrent), rows);
  // No orphans either: the lost race's manifest list and metadata file were removed.
  EXPECT_EQ(CheckTable(*catalog, models, /*allow_orphans=*/false, *io), "");
}

}  // namespace
}  // namespace floe::catalog
