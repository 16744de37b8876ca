// `floe table snapshots|history|manifests|entries|files`: the metadata
// tables show what the commits wrote (ids, parents, manifests and their
// counts, manifest entries with status, sequence number and file size).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "testing/table_cli.h"

namespace floe {
namespace {

using testing::SortedRows;

class HistoryCliTest : public testing::TableCliTest {
 protected:
  // Three commits on shop.h (partitioned by city): s1 appends Lisbon (2 rows)
  // and Porto (1), s2 appends Faro (1), s3 deletes the Porto file.
  void CommitThreeSnapshots() {
    Ok({"namespace", "create", "shop"});
    Ok({"table", "create", "shop.h", "--schema", "id long not null, city string", "--partition", "city"});
    Write("s1.csv", "id,city\n1,Lisbon\n2,Lisbon\n3,Porto\n");
    Write("s2.csv", "id,city\n4,Faro\n");
    Ok({"table", "append", "shop.h", "s1.csv"});
    Ok({"table", "append", "shop.h", "s2.csv"});
    EXPECT_NE(Ok({"table", "delete", "shop.h", "--where", "city = 'Porto'"}).find("1 files removed"),
              std::string::npos);
    const auto snapshots = Snapshots("shop.h");
    ASSERT_EQ(snapshots.size(), 3u);
    for (const auto& s : snapshots) ids_.push_back(std::to_string(s.id));
  }

  std::vector<std::string> ids_;  // s1, s2, s3
};

TEST_F(HistoryCliTest, SnapshotsAndHistoryChainTheCommits) {
  ASSERT_NO_FATAL_FAILURE(CommitThreeSnapshots());
  const auto snapshots = Snapshots("shop.h");
  EXPECT_FALSE(snapshots[0].parent.has_value());
  EXPECT_EQ(snapshots[1].parent, snapshots[0].id);
  EXPECT_EQ(snapshots[2].parent, snapshots[1].id);
  EXPECT_EQ(snapshots[0].operation, "append");
  EXPECT_EQ(snapshots[1].operation, "append");
  EXPECT_EQ(snapshots[2].operation, "delete");
  EXPECT_NE(snapshots[2].summary.find("deleted-records=1"), std::string::npos) << snapshots[2].summary;
  EXPECT_NE(snapshots[2].summary.find("total-records=3"), std::string::npos) << snapshots[2].summary;

  // The snapshot log: each snapshot made current when it was committed.
  auto history = CsvRows({"table", "history", "shop.h"});
  ASSERT_EQ(history.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(history[i][0], snapshots[i].committed_at);
    EXPECT_EQ(history[i][1], ids_[i]);
    EXPECT_EQ(history[i][2], i == 0 ? "" : ids_[i - 1]);
  }
  EXPECT_LT(history[0][0], history[1][0]);
  EXPECT_LT(history[1][0], history[2][0]);

  // A rollback to s1 is a new log entry; the snapshots stay.
  Ok({"table", "rollback", "shop.h", ids_[0]});
  history = CsvRows({"table", "history", "shop.h"});
  ASSERT_EQ(history.size(), 4u);
  EXPECT_EQ(history[3][1], ids_[0]);
  EXPECT_EQ(history[3][2], "");
  EXPECT_GT(history[3][0], history[2][0]);
  EXPECT_EQ(Snapshots("shop.h").size(), 3u);
}

TEST_F(HistoryCliTest, ManifestsListTheCurrentSnapshotsManifestsWithTheirCounts) {
  ASSERT_NO_FATAL_FAILURE(CommitThreeSnapshots());
  // s2's manifest (Faro added) and s3's rewrite of s1's manifest (Lisbon
  // existing, Porto deleted).
  const auto manifests = CsvRows({"table", "manifests", "shop.h"});
  ASSERT_EQ(manifests.size(), 2u);
  std::map<std::string, std::vector<std::string>> by_snapshot;
  for (const auto& m : manifests) {
    ASSERT_EQ(m.size(), 9u);
    EXPECT_TRUE(std::filesystem::exists(m[0])) << m[0];
    EXPECT_EQ(m[2], std::to_string(std::filesystem::file_size(m[0]))) << m[0];
    EXPECT_EQ(m[1], "data");
    EXPECT_EQ(m[3], "0");  // spec id
    by_snapshot[m[5]] = m;
  }
  ASSERT_EQ(by_snapshot.count(ids_[1]), 1u);
  ASSERT_EQ(by_snapshot.count(ids_[2]), 1u);
  // sequence, added, existing, deleted files
  EXPECT_EQ(std::vector<std::string>(by_snapshot[ids_[1]].begin() + 6, by_snapshot[ids_[1]].end()),
            (std::vector<std::string>{"1", "0", "0"}));
  EXPECT_EQ(by_snapshot[ids_[1]][4], "2");
  EXPECT_EQ(std::vector<std::string>(by_snapshot[ids_[2]].begin() + 6, by_snapshot[ids_[2]].end()),
            (std::vector<std::string>{"0", "1", "1"}));
  EXPECT_EQ(by_snapshot[ids_[2]][4], "3");

  // At s1, one manifest with both files added.
  Ok({"table", "rollback", "shop.h", ids_[0]});
  const auto first = CsvRows({"table", "manifests", "shop.h"});
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0][5], ids_[0]);
  EXPECT_EQ(first[0][6], "2");
}

TEST_F(HistoryCliTest, EntriesShowEveryFileWithItsStatusAndFilesOnlyTheLiveOnes) {
  ASSERT_NO_FATAL_FAILURE(CommitThreeSnapshots());
  auto entries = CsvRows({"table", "entries", "shop.h"});
  ASSERT_EQ(entries.size(), 3u);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a[5] < b[5]; });
  // status, snapshot, data sequence number, content, partition, records
  const std::vector<std::vector<std::string>> expected = {
      {"added", ids_[1], "2", "data", "city=Faro", "1"},
      {"existing", ids_[0], "1", "data", "city=Lisbon", "2"},
      {"deleted", ids_[2], "1", "data", "city=Porto", "1"},
  };
  for (size_t i = 0; i < 3; ++i) {
    const auto& e = entries[i];
    ASSERT_EQ(e.size(), 8u);
    EXPECT_EQ((std::vector<std::string>{e[0], e[1], e[2], e[3], e[5], e[6]}), expected[i]);
    EXPECT_NE(e[4].find("/warehouse/shop/h/data/" + e[5] + "/"), std::string::npos) << e[4];
    EXPECT_EQ(e[7], std::to_string(std::filesystem::file_size(e[4]))) << e[4];
  }

  const auto files = CsvRows({"table", "files", "shop.h"});
  ASSERT_EQ(files.size(), 2u);
  for (const auto& f : files) EXPECT_NE(f[0], "deleted");
  EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "partitions", "shop.h"})), "city=Faro,1,1\ncity=Lisbon,2,1\n");

  // Entries follow the current snapshot: back at s2 all three files are live.
  Ok({"table", "rollback", "shop.h", ids_[1]});
  entries = CsvRows({"table", "entries", "shop.h"});
  ASSERT_EQ(entries.size(), 3u);
  for (const auto& e : entries) EXPECT_EQ(e[0], "added") << e[5];
  EXPECT_EQ(Count("shop.h"), 4);
}

TEST_F(HistoryCliTest, AnEmptyTableHasEmptyMetadataTables) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.e", "--schema", "id long"});
  for (const char* table : {"snapshots", "history", "manifests", "entries", "files"}) {
    EXPECT_TRUE(CsvRows({"table", table, "shop.e"}).empty()) << table;
  }
  EXPECT_EQ(Ok({"--format", "csv", "table", "history", "shop.e"}), "made_current_at,snapshot_id,parent_id\n");
  ExpectUserError({"table", "history", "shop.nosuch"}, "NotFound: table shop.nosuch does not exist");
  ExpectUserError({"table", "entries"}, "name a table (NS.T) or --metadata PATH");
}

}  // namespace
}  // namespace floe
