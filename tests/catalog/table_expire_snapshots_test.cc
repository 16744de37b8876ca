// Snapshot expiry with per-ref retention, as Java's ExpireSnapshots:
// max-ref-age-ms removes refs (never main), a branch's
// max-snapshot-age-ms and min-snapshots-to-keep decide its history, and the
// history.expire.* table properties are the defaults. On a real SqlCatalog;
// ages are measured from an explicit `now` past the snapshots' own
// timestamps, so nothing depends on how fast the test runs. After each
// expiry the table has exactly the kept snapshots, reads as the model at
// each, and holds no file only an expired snapshot reached.

#include <gtest/gtest.h>

#include <thread>

#include "catalog/table_test_util.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers
using Change = std::pair<std::vector<iceberg::TableRequirement>, std::vector<iceberg::TableUpdate>>;

class TableExpireSnapshotsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = OpenSqlCatalog(dir_);
    ASSERT_NE(catalog_, nullptr);
    CreateRowsTable(*catalog_);
    checker_ = OpenSqlCatalog(dir_);
    table_ = std::make_unique<iceberg::Table>(catalog_->NewTableOps(Ident(kTableName)));
  }

  // Appends on main; each snapshot's timestamp is later than the last one's.
  int64_t Append(int64_t id0) {
    const int64_t last = Timestamp(Head());
    while (NowMs() <= last) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const Rows rows = MakeRows(id0, 2, {"a"});
    auto r = table_->Append(SourceFor(*table_, rows).value());
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    main_ = ModelAppend(main_, rows);
    const int64_t id = r->state.metadata->current_snapshot()->snapshot_id;
    models_[id] = main_;
    return id;
  }
  int64_t Head() {
    const iceberg::Snapshot* s = table_->Refresh().value().metadata->current_snapshot();
    return s != nullptr ? s->snapshot_id : 0;
  }
  int64_t Timestamp(int64_t snapshot_id) {
    const iceberg::Snapshot* s = table_->Refresh().value().metadata->SnapshotById(snapshot_id);
    return s != nullptr ? s->timestamp_ms : 0;
  }
  void SetRef(const std::string& name, iceberg::SnapshotRef ref) {
    auto set = table_->CommitChanges([&](const iceberg::TableMetadata&) -> Result<Change> {
      return Change({}, {iceberg::SetSnapshotRef{name, ref}});
    });
    ASSERT_TRUE(set.ok()) << set.status().ToString();
  }
  void SetProperty(const std::string& key, const std::string& value) {
    auto set = table_->CommitChanges([&](const iceberg::TableMetadata&) -> Result<Change> {
      return Change({}, {iceberg::SetProperties{{{key, value}}}});
    });
    ASSERT_TRUE(set.ok()) << set.status().ToString();
  }
  static iceberg::SnapshotRef Branch(int64_t snapshot_id) {
    iceberg::SnapshotRef ref;
    ref.snapshot_id = snapshot_id;
    return ref;
  }
  static iceberg::SnapshotRef Tag(int64_t snapshot_id) {
    iceberg::SnapshotRef ref = Branch(snapshot_id);
    ref.type = iceberg::SnapshotRefType::kTag;
    return ref;
  }

  // Expires, then checks the kept snapshots (against the models) and files.
  iceberg::ExpireResult Expire(iceberg::ExpireOptions options, const std::set<int64_t>& kept) {
    auto expired = table_->ExpireSnapshots(options);
    EXPECT_TRUE(expired.ok()) << expired.status().ToString();
    if (!expired.ok()) return {};
    EXPECT_TRUE(expired->cleanup.ok()) << expired->cleanup.ToString();
    std::set<int64_t> ids;
    for (const auto& s : expired->state.metadata->snapshots) ids.insert(s.snapshot_id);
    EXPECT_EQ(ids, kept);
    for (auto it = models_.begin(); it != models_.end();) it = ids.count(it->first) ? std::next(it) : models_.erase(it);
    EXPECT_EQ(CheckTable(*checker_, models_, /*allow_orphans=*/false, *io_), "");
    return *expired;
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<FileIO> io_ = NewLocalFileIO();
  std::shared_ptr<SqlCatalog> catalog_;
  std::shared_ptr<SqlCatalog> checker_;
  std::unique_ptr<iceberg::Table> table_;
  Rows main_;
  std::map<int64_t, Rows> models_;
};

TEST_F(TableExpireSnapshotsTest, RefsOlderThanTheirMaxRefAgeAreRemovedExceptMain) {
  const int64_t s1 = Append(0);
  const int64_t s2 = Append(10);
  const int64_t s3 = Append(20);
  const int64_t now = Timestamp(s3) + 1000;
  const int64_t age_s1 = now - Timestamp(s1);
  iceberg::SnapshotRef old_tag = Tag(s1);
  old_tag.max_ref_age_ms = age_s1 - 1;  // s1 is 1 ms too old for it
  SetRef("old-tag", old_tag);
  iceberg::SnapshotRef kept_tag = Tag(s1);
  kept_tag.max_ref_age_ms = age_s1;  // exactly its age: kept (Java: age <= max)
  SetRef("kept-tag", kept_tag);
  iceberg::SnapshotRef old_branch = Branch(s2);
  old_branch.max_ref_age_ms = 1;
  SetRef("old-branch", old_branch);
  iceberg::SnapshotRef main = Branch(s3);
  main.max_ref_age_ms = 1;  // main never expires
  SetRef("main", main);

  // No snapshot is old enough to expire: only refs go.
  iceberg::ExpireOptions options;
  options.now_ms = now;
  options.older_than_ms = Timestamp(s1);
  auto result = Expire(options, {s1, s2, s3});
  EXPECT_EQ(result.removed_refs, (std::vector<std::string>{"old-branch", "old-tag"}));
  EXPECT_TRUE(result.expired_snapshot_ids.empty());
  const auto& refs = result.state.metadata->refs;
  EXPECT_EQ(refs.count("old-tag") + refs.count("old-branch"), 0u);
  EXPECT_EQ(refs.count("kept-tag") + refs.count("main"), 2u);
  EXPECT_EQ(result.state.metadata->current_snapshot_id, s3);
}

TEST_F(TableExpireSnapshotsTest, TheTablesMaxRefAgeAppliesToRefsWithoutTheirOwn) {
  const int64_t s1 = Append(0);
  const int64_t s2 = Append(10);
  SetRef("dev", Branch(s1));
  const int64_t now = Timestamp(s2) + 10'000;
  SetProperty("history.expire.max-ref-age-ms", StrCat(now - Timestamp(s2) - 1));  // s2 is too old too
  iceberg::SnapshotRef own = Tag(s1);
  own.max_ref_age_ms = int64_t{1} << 40;
  SetRef("own", own);
  SetRef("plain", Tag(s2));

  // dev and plain go; s1, past the cutoff, stays for the tag with its own age.
  iceberg::ExpireOptions options;
  options.now_ms = now;
  options.older_than_ms = now;
  auto result = Expire(options, {s1, s2});
  EXPECT_EQ(result.removed_refs, (std::vector<std::string>{"dev", "plain"}));
  EXPECT_EQ(result.state.metadata->refs.count("own"), 1u);
  // Without the tag, s1 expires: nothing retains it any more.
  auto removed = table_->RemoveRef("own");
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  auto second = Expire(options, {s2});
  EXPECT_EQ(second.expired_snapshot_ids, (std::vector<int64_t>{s1}));
}

TEST_F(TableExpireSnapshotsTest, ABranchKeepsItsMinSnapshotsToKeep) {
  std::vector<int64_t> s;
  for (int i = 0; i < 5; ++i) s.push_back(Append(i * 10));
  iceberg::SnapshotRef main = Branch(s[4]);
  main.min_snapshots_to_keep = 3;
  SetRef("main", main);
  iceberg::ExpireOptions options;
  options.now_ms = Timestamp(s[4]) + 1;
  options.older_than_ms = Timestamp(s[4]) + 1;  // every snapshot is old
  options.retain_last = 1;                      // the branch's own minimum wins
  auto result = Expire(options, {s[2], s[3], s[4]});
  EXPECT_EQ(result.expired_snapshot_ids, (std::vector<int64_t>{s[0], s[1]}));
}

TEST_F(TableExpireSnapshotsTest, ABranchsMaxSnapshotAgeOverridesTheCutoff) {
  std::vector<int64_t> s;
  for (int i = 0; i < 5; ++i) s.push_back(Append(i * 10));
  const int64_t now = Timestamp(s[4]) + 5000;
  // main keeps what is at most (now - s2) old: s2, s3, s4 — although the
  // call's cutoff would keep everything.
  iceberg::SnapshotRef main = Branch(s[4]);
  main.max_snapshot_age_ms = now - Timestamp(s[2]);
  SetRef("main", main);
  iceberg::ExpireOptions options;
  options.now_ms = now;
  options.older_than_ms = 0;
  Expire(options, {s[2], s[3], s[4]});

  // Ancestors a branch's own age drops expire although the call's cutoff
  // (0) keeps every unreferenced snapshot: they are referenced.
  iceberg::SnapshotRef dev = Branch(s[4]);
  dev.max_snapshot_age_ms = now - Timestamp(s[4]);
  SetRef("dev", dev);
  iceberg::SnapshotRef main_short = Branch(s[4]);
  main_short.max_snapshot_age_ms = now - Timestamp(s[4]);
  SetRef("main", main_short);
  Expire(options, {s[4]});
}

TEST_F(TableExpireSnapshotsTest, TablePropertiesAreTheDefaults) {
  std::vector<int64_t> s;
  for (int i = 0; i < 5; ++i) s.push_back(Append(i * 10));
  const int64_t now = Timestamp(s[4]) + 5000;
  // history.expire.max-snapshot-age-ms: snapshots older than now - age go.
  SetProperty("history.expire.max-snapshot-age-ms", StrCat(now - Timestamp(s[3])));
  iceberg::ExpireOptions options;
  options.now_ms = now;
  Expire(options, {s[3], s[4]});
  // history.expire.min-snapshots-to-keep keeps more than the age would.
  const int64_t s5 = Append(50);
  SetProperty("history.expire.max-snapshot-age-ms", "1");
  SetProperty("history.expire.min-snapshots-to-keep", "2");
  options.now_ms = Timestamp(s5) + 5000;
  Expire(options, {s[4], s5});
  // ExpireOptions override the properties.
  options.retain_last = 1;
  Expire(options, {s5});
}

TEST_F(TableExpireSnapshotsTest, EveryBranchKeepsItsHeadEvenWhenThePropertySaysZero) {
  std::vector<int64_t> s;
  for (int i = 0; i < 3; ++i) s.push_back(Append(i * 10));
  SetRef("dev", Branch(s[1]));
  SetProperty("history.expire.min-snapshots-to-keep", "0");
  iceberg::ExpireOptions options;
  options.now_ms = Timestamp(s[2]) + 5000;
  options.older_than_ms = options.now_ms;  // every snapshot is old
  auto result = Expire(options, {s[1], s[2]});
  EXPECT_EQ(result.expired_snapshot_ids, (std::vector<int64_t>{s[0]}));
  EXPECT_EQ(Head(), s[2]);
}

TEST_F(TableExpireSnapshotsTest, UnreferencedSnapshotsExpireByAgeAlone) {
  const int64_t s1 = Append(0);
  const int64_t s2 = Append(10);
  const int64_t s3 = Append(20);
  ASSERT_TRUE(table_->Rollback(s1).ok());
  main_ = models_[s1];
  const int64_t s4 = Append(30);  // s2 and s3 are no ancestors of main now
  iceberg::ExpireOptions options;
  options.now_ms = Timestamp(s4) + 1;
  options.older_than_ms = Timestamp(s3);  // s3 is not older than the cutoff; s2 is
  options.retain_last = 2;                // main: s4 and s1
  auto result = Expire(options, {s1, s3, s4});
  EXPECT_EQ(result.expired_snapshot_ids, (std::vector<int64_t>{s2}));
}

TEST_F(TableExpireSnapshotsTest, BadRetentionIsRefusedBeforeAnyChange) {
  const int64_t s1 = Append(0);
  iceberg::ExpireOptions options;
  options.retain_last = 0;
  auto zero = table_->ExpireSnapshots(options);
  EXPECT_EQ(zero.status().code(), StatusCode::kInvalidArgument) << zero.status().ToString();
  SetProperty("history.expire.max-ref-age-ms", "a week");
  auto bad = table_->ExpireSnapshots({});
  ASSERT_EQ(bad.status().code(), StatusCode::kInvalidArgument) << bad.status().ToString();
  EXPECT_NE(bad.status().message().find("'history.expire.max-ref-age-ms'"), std::string::npos)
      << bad.status().ToString();
  EXPECT_EQ(Head(), s1);
}

}  // namespace
}  // namespace floe::catalog
