// `floe table expire [--older-than TS] [--retain-last N]`: which snapshots
// go, which stay (the newest N of each branch, those newer than TS, those a
// tag or branch points at), and that only files no kept snapshot uses are
// deleted from disk.

#include <gtest/gtest.h>

#include <filesystem>

#include "floe/iceberg/literal.h"
#include "testing/table_cli.h"

namespace floe {
namespace {

using testing::SortedRows;

class ExpireCliTest : public testing::TableCliTest {
 protected:
  // shop.x: s1 appends file A (ids 1, 2), s2 file B (3), s3 overwrites
  // ids <= 2 with file C (10), dropping A; s4 appends file D (4).
  void CommitFour() {
    Ok({"namespace", "create", "shop"});
    Ok({"table", "create", "shop.x", "--schema", "id long not null"});
    Write("a.csv", "id\n1\n2\n");
    Write("b.csv", "id\n3\n");
    Write("c.csv", "id\n10\n");
    Write("d.csv", "id\n4\n");
    Ok({"table", "append", "shop.x", "a.csv"});
    file_a_ = CsvRows({"table", "files", "shop.x"}).at(0).at(4);
    Ok({"table", "append", "shop.x", "b.csv"});
    Ok({"table", "overwrite", "shop.x", "--where", "id <= 2", "c.csv"});
    Ok({"table", "append", "shop.x", "d.csv"});
    for (const auto& row : CsvRows({"table", "history", "shop.x"})) {
      auto micros = iceberg::Literal::Parse(iceberg::Type::TimestampTz(), row[0]);
      ASSERT_TRUE(micros.ok()) << row[0];
      committed_us_.push_back(micros->long_value());
      ids_.push_back(row[1]);
    }
    ASSERT_EQ(ids_.size(), 4u);
    ASSERT_TRUE(std::filesystem::exists(file_a_)) << file_a_;
  }
  // The ids of the snapshots left, oldest first, one a line.
  std::string SnapshotIds() {
    std::string ids;
    for (const auto& s : Snapshots("shop.x")) ids += std::to_string(s.id) + "\n";
    return ids;
  }
  std::string Rows(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--format", "csv", "table", "scan", "shop.x"};
    args.insert(args.end(), extra.begin(), extra.end());
    return SortedRows(Ok(args));
  }
  // An instant halfway between commits i and j, as ISO 8601.
  std::string Between(size_t i, size_t j) {
    return iceberg::Literal::TimestampTz((committed_us_[i] + committed_us_[j]) / 2).ToString();
  }

  std::string file_a_;
  std::vector<int64_t> committed_us_;
  std::vector<std::string> ids_;  // s1..s4
};

TEST_F(ExpireCliTest, RetainLastKeepsTheNewestSnapshotsAndDeletesOnlyTheirUnusedFiles) {
  ASSERT_NO_FATAL_FAILURE(CommitFour());
  const std::string rows = Rows();
  EXPECT_EQ(rows, "10\n3\n4\n");
  const std::string out = Ok({"table", "expire", "shop.x", "--older-than", "2100-01-01T00:00:00", "--retain-last", "2"});
  // s1 and s2 go; A, which only they read, is deleted; B, which s3 and s4 read, stays.
  EXPECT_EQ(out.rfind("expired 2 snapshots; deleted 1 data files, ", 0), 0u) << out;
  EXPECT_EQ(SnapshotIds(), ids_[2] + "\n" + ids_[3] + "\n");
  EXPECT_FALSE(std::filesystem::exists(file_a_)) << file_a_;
  for (const auto& f : CsvRows({"table", "files", "shop.x"})) EXPECT_TRUE(std::filesystem::exists(f[4])) << f[4];
  EXPECT_EQ(Rows(), rows);
  EXPECT_EQ(Rows({"--as-of", ids_[2]}), "10\n3\n");
  ExpectUserError({"table", "scan", "shop.x", "--as-of", ids_[0]}, "'" + ids_[0] + "'");
  // The snapshot log keeps only the snapshots that are left.
  const auto history = CsvRows({"table", "history", "shop.x"});
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0][1], ids_[2]);
}

TEST_F(ExpireCliTest, OlderThanExpiresOnlySnapshotsCommittedBeforeIt) {
  ASSERT_NO_FATAL_FAILURE(CommitFour());
  // The default cutoff, five days ago, expires nothing here.
  EXPECT_EQ(Ok({"table", "expire", "shop.x"}), "expired 0 snapshots; deleted 0 data files, 0 manifests, 0 manifest lists\n");
  EXPECT_EQ(Snapshots("shop.x").size(), 4u);
  // Only s1 is older than the cutoff; s2 still reads A, so A stays.
  const std::string out = Ok({"table", "expire", "shop.x", "--older-than", Between(0, 1)});
  EXPECT_EQ(out.rfind("expired 1 snapshots; deleted 0 data files, ", 0), 0u) << out;
  EXPECT_EQ(SnapshotIds(), ids_[1] + "\n" + ids_[2] + "\n" + ids_[3] + "\n");
  EXPECT_TRUE(std::filesystem::exists(file_a_));
  EXPECT_EQ(Rows({"--as-of", ids_[1]}), "1\n2\n3\n");
  // Then s2: now A goes.
  EXPECT_EQ(Ok({"table", "expire", "shop.x", "--older-than", Between(1, 2)})
                .rfind("expired 1 snapshots; deleted 1 data files, ", 0),
            0u);
  EXPECT_FALSE(std::filesystem::exists(file_a_));
  EXPECT_EQ(Rows(), "10\n3\n4\n");
}

TEST_F(ExpireCliTest, SnapshotsATagOrBranchPointsAtStay) {
  ASSERT_NO_FATAL_FAILURE(CommitFour());
  Ok({"table", "tag", "shop.x", "v1", "--snapshot", ids_[0]});
  Ok({"table", "branch", "shop.x", "dev", "--snapshot", ids_[1]});
  // --retain-last 1 keeps main's head and dev's; v1 keeps s1; only s3 goes,
  // and C, which s4 still reads, stays.
  const std::string out = Ok({"table", "expire", "shop.x", "--older-than", "2100-01-01T00:00:00", "--retain-last", "1"});
  EXPECT_EQ(out.rfind("expired 1 snapshots; deleted 0 data files, ", 0), 0u) << out;
  EXPECT_EQ(SnapshotIds(), ids_[0] + "\n" + ids_[1] + "\n" + ids_[3] + "\n");
  EXPECT_EQ(Rows({"--as-of", "v1"}), "1\n2\n");
  EXPECT_EQ(Rows({"--as-of", "dev"}), "1\n2\n3\n");
  EXPECT_EQ(Rows(), "10\n3\n4\n");
}

TEST_F(ExpireCliTest, WithoutRetainLastTheTablePropertyDecidesAndMainsHeadAlwaysStays) {
  ASSERT_NO_FATAL_FAILURE(CommitFour());
  Ok({"table", "evolve", "shop.x", "--property", "history.expire.min-snapshots-to-keep=3"});
  EXPECT_EQ(Ok({"table", "expire", "shop.x", "--older-than", "2100-01-01T00:00:00"}).rfind("expired 1 snapshots", 0),
            0u);
  EXPECT_EQ(SnapshotIds(), ids_[1] + "\n" + ids_[2] + "\n" + ids_[3] + "\n");
  // A retention of 0 expired every snapshot, main's head too, and deleted
  // every data file: the table was left without rows or a main branch.
  Ok({"table", "evolve", "shop.x", "--property", "history.expire.min-snapshots-to-keep=0"});
  Ok({"table", "expire", "shop.x", "--older-than", "2100-01-01T00:00:00"});
  EXPECT_EQ(SnapshotIds(), ids_[3] + "\n");
  EXPECT_EQ(Rows(), "10\n3\n4\n");
  EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "refs", "shop.x"})), "main,branch," + ids_[3] + "\n");
}

TEST_F(ExpireCliTest, BadOptionsAreOneLineErrorsAndExpireNothing) {
  ASSERT_NO_FATAL_FAILURE(CommitFour());
  const std::string before = MetadataLocation("shop.x");
  ExpectUserErrors({"table", "expire", "shop.x"},
                   {
                       {{"--retain-last", "0"}, "--retain-last: Value 0 not in range 1 to 2147483647"},
                       {{"--retain-last", "-1"}, "--retain-last"},
                       {{"--retain-last", "two"}, "--retain-last"},
                       {{"--older-than", "yesterday"}, "--older-than: cannot read 'yesterday' as timestamptz"},
                   });
  ExpectUserError({"table", "expire", "shop.nosuch"}, "table shop.nosuch does not exist");
  EXPECT_EQ(MetadataLocation("shop.x"), before);
  EXPECT_EQ(Snapshots("shop.x").size(), 4u);
  EXPECT_TRUE(std::filesystem::exists(file_a_));
}

}  // namespace
}  // namespace floe
