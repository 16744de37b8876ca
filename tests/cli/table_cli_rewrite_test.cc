// `floe table overwrite` without --where (dynamic partition overwrite) and
// `floe table compact`: which files each replaces, and rows that come out
// exactly as expected.

#include <gtest/gtest.h>

#include <map>

#include "testing/table_cli.h"

namespace floe {
namespace {

using testing::SortedRows;

class RewriteCliTest : public testing::TableCliTest {
 protected:
  // partition → data file paths of `floe table files`.
  std::map<std::string, std::vector<std::string>> FilesByPartition(const std::string& table) {
    std::map<std::string, std::vector<std::string>> files;
    for (const auto& f : CsvRows({"table", "files", table})) files[f[5]].push_back(f[4]);
    return files;
  }
  std::string Rows(const std::string& table, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--format", "csv", "table", "scan", table};
    args.insert(args.end(), extra.begin(), extra.end());
    return SortedRows(Ok(args));
  }
};

TEST_F(RewriteCliTest, OverwriteWithoutWhereReplacesExactlyThePartitionsOfTheNewRows) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.o", "--schema", "id long not null, day date, v string", "--partition", "day"});
  Write("old.csv", "id,day,v\n1,2026-10-01,a\n2,2026-10-01,b\n3,2026-10-02,c\n4,2026-10-03,d\n");
  Ok({"table", "append", "shop.o", "old.csv"});
  const auto before = FilesByPartition("shop.o");
  ASSERT_EQ(before.size(), 3u);

  // New rows for 2026-10-02 (replaced) and 2026-10-04 (new); 01 and 03 stay.
  Write("new.csv", "id,day,v\n10,2026-10-02,x\n11,2026-10-02,y\n12,2026-10-04,z\n");
  const std::string out = Ok({"table", "overwrite", "shop.o", "new.csv"});
  const auto snapshots = Snapshots("shop.o");
  ASSERT_EQ(snapshots.size(), 2u);
  EXPECT_EQ(out, "replaced partitions: 3 rows written, 2 files added, 1 files removed; snapshot " +
                     std::to_string(snapshots[1].id) + "\n");
  EXPECT_EQ(snapshots[1].operation, "overwrite");
  EXPECT_NE(snapshots[1].summary.find("replace-partitions=true"), std::string::npos) << snapshots[1].summary;
  EXPECT_NE(snapshots[1].summary.find("deleted-records=1"), std::string::npos) << snapshots[1].summary;
  EXPECT_EQ(Rows("shop.o"),
            "1,2026-10-01,a\n10,2026-10-02,x\n11,2026-10-02,y\n12,2026-10-04,z\n2,2026-10-01,b\n"
            "4,2026-10-03,d\n");
  const auto after = FilesByPartition("shop.o");
  ASSERT_EQ(after.size(), 4u);
  EXPECT_EQ(after.at("day=2026-10-01"), before.at("day=2026-10-01"));  // untouched files stay
  EXPECT_EQ(after.at("day=2026-10-03"), before.at("day=2026-10-03"));
  EXPECT_NE(after.at("day=2026-10-02"), before.at("day=2026-10-02"));
  // The overwritten rows are still at the first snapshot.
  EXPECT_EQ(Rows("shop.o", {"--as-of", std::to_string(snapshots[0].id), "--where", "day = '2026-10-02'"}),
            "3,2026-10-02,c\n");

  // Bad input replaces nothing.
  const std::string metadata = MetadataLocation("shop.o");
  Write("bad.csv", "id,day,v\n20,2026-10-01,p\n21,someday,q\n");
  ExpectUserError({"table", "overwrite", "shop.o", "bad.csv"},
                  "bad.csv row 2, column 'day': cannot read 'someday' as date");
  ExpectUserError({"table", "overwrite", "shop.o"}, "files is required");
  EXPECT_EQ(MetadataLocation("shop.o"), metadata);
  EXPECT_EQ(Count("shop.o"), 6);
}

TEST_F(RewriteCliTest, OverwriteOfAnUnpartitionedTableReplacesEveryRow) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.u", "--schema", "id long not null"});
  Write("a.csv", "id\n1\n2\n");
  Write("b.csv", "id\n7\n");
  Ok({"table", "append", "shop.u", "a.csv"});
  Ok({"table", "append", "shop.u", "a.csv"});
  EXPECT_NE(Ok({"table", "overwrite", "shop.u", "b.csv"}).find("1 rows written, 1 files added, 2 files removed"),
            std::string::npos);
  EXPECT_EQ(Rows("shop.u"), "7\n");
}

TEST_F(RewriteCliTest, CompactBinPacksSmallFilesWithoutChangingTheRows) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.c", "--schema", "id long not null, day date, v string", "--partition", "day"});
  for (int i = 1; i <= 6; ++i) {
    Write("c.csv", "id,day,v\n" + std::to_string(i) + ",2026-10-01,a" + std::to_string(i) + "\n" +
                       std::to_string(i + 10) + ",2026-10-02,b" + std::to_string(i) + "\n");
    Ok({"table", "append", "shop.c", "c.csv"});
  }
  Write("lone.csv", "id,day,v\n99,2026-10-03,z\n");
  Ok({"table", "append", "shop.c", "lone.csv"});
  const std::string rows = Rows("shop.c");
  const auto before = FilesByPartition("shop.c");
  EXPECT_EQ(before.at("day=2026-10-01").size(), 6u);
  EXPECT_EQ(before.at("day=2026-10-02").size(), 6u);
  const int64_t base_sequence = Metadata("shop.c").last_sequence_number;

  EXPECT_EQ(Ok({"table", "compact", "shop.c", "--min-input-files", "7"}), "nothing to compact\n");
  const std::string out = Ok({"table", "compact", "shop.c"});
  const auto snapshots = Snapshots("shop.c");
  ASSERT_EQ(snapshots.size(), 8u);
  EXPECT_EQ(out, "compacted: 12 rows written, 2 files added, 12 files rewritten; snapshot " +
                     std::to_string(snapshots.back().id) + "\n");
  EXPECT_EQ(snapshots.back().operation, "replace");
  EXPECT_NE(snapshots.back().summary.find("deleted-data-files=12"), std::string::npos);
  EXPECT_NE(snapshots.back().summary.find("total-records=13"), std::string::npos);

  // One file per compacted partition, the lone file untouched, the rows unchanged.
  const auto after = FilesByPartition("shop.c");
  EXPECT_EQ(after.at("day=2026-10-01").size(), 1u);
  EXPECT_EQ(after.at("day=2026-10-02").size(), 1u);
  EXPECT_EQ(after.at("day=2026-10-03"), before.at("day=2026-10-03"));
  EXPECT_EQ(Rows("shop.c"), rows);
  EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "partitions", "shop.c"})),
            "day=2026-10-01,6,1\nday=2026-10-02,6,1\nday=2026-10-03,1,1\n");
  // The new files keep the data sequence number the table had when compaction
  // started, as Java's rewrite does: deletes committed since still apply to them.
  for (const auto& e : CsvRows({"table", "entries", "shop.c"})) {
    if (e[0] == "added") {
      EXPECT_EQ(e[2], std::to_string(base_sequence)) << e[4];
    }
  }
  EXPECT_EQ(Count("shop.c", {"--where", "day = '2026-10-02'"}), 6);
  EXPECT_EQ(Rows("shop.c", {"--as-of", std::to_string(snapshots[6].id)}), rows);  // before compaction
  EXPECT_EQ(Ok({"table", "compact", "shop.c"}), "nothing to compact\n");
  ExpectUserError({"table", "compact", "shop.nosuch"}, "table shop.nosuch does not exist");
}

}  // namespace
}  // namespace floe
