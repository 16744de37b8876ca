// `floe table delete --where` and `floe table overwrite --where`: files
// whose partition proves every row matches are dropped whole, others are
// rewritten without the rows (or, merge-on-read, get position deletes);
// older snapshots still read the old rows; bad filters change nothing.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "testing/table_cli.h"

namespace floe {
namespace {

using testing::SortedRows;

class DeleteCliTest : public testing::TableCliTest {
 protected:
  // shop.d partitioned by day: 2026-10-01 (ids 1, 2), 02 (3), 03 (4), one file each.
  void CreateDays(std::vector<std::string> extra = {}) {
    Ok({"namespace", "create", "shop"});
    std::vector<std::string> create = {"table", "create", "shop.d", "--schema",
                                       "id long not null, day date, v string", "--partition", "day"};
    create.insert(create.end(), extra.begin(), extra.end());
    Ok(create);
    Write("old.csv", "id,day,v\n1,2026-10-01,a\n2,2026-10-01,b\n3,2026-10-02,c\n4,2026-10-03,d\n");
    Ok({"table", "append", "shop.d", "old.csv"});
    first_ = std::to_string(Snapshots("shop.d").at(0).id);
  }
  std::string Rows(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--format", "csv", "table", "scan", "shop.d"};
    args.insert(args.end(), extra.begin(), extra.end());
    return SortedRows(Ok(args));
  }
  // partition → data file paths of `floe table files`.
  std::map<std::string, std::vector<std::string>> FilesByPartition() {
    std::map<std::string, std::vector<std::string>> files;
    for (const auto& f : CsvRows({"table", "files", "shop.d"})) files[f[5]].push_back(f[4]);
    return files;
  }
  std::string Head() { return std::to_string(Snapshots("shop.d").back().id); }

  std::string first_;  // the snapshot of the append
};

TEST_F(DeleteCliTest, DeleteDropsWholeFilesOrRewritesThemWithoutTheRows) {
  ASSERT_NO_FATAL_FAILURE(CreateDays());
  const auto before = FilesByPartition();

  // The partition proves every row of 2026-10-03's file matches: dropped whole.
  std::string out = Ok({"table", "delete", "shop.d", "--where", "day = '2026-10-03'"});
  EXPECT_EQ(out, "deleted: 0 rows written, 0 files added, 1 files removed; snapshot " + Head() + "\n");
  EXPECT_EQ(FilesByPartition().count("day=2026-10-03"), 0u);
  EXPECT_EQ(Rows(), "1,2026-10-01,a\n2,2026-10-01,b\n3,2026-10-02,c\n");

  // One of 2026-10-01's two rows: that file is rewritten with the other.
  out = Ok({"table", "delete", "shop.d", "--where", "v = 'a'"});
  EXPECT_EQ(out, "deleted: 0 rows written, 1 files added, 1 files rewritten; snapshot " + Head() + "\n");
  const auto after = FilesByPartition();
  ASSERT_EQ(after.at("day=2026-10-01").size(), 1u);
  EXPECT_NE(after.at("day=2026-10-01"), before.at("day=2026-10-01"));
  EXPECT_EQ(after.at("day=2026-10-02"), before.at("day=2026-10-02"));  // untouched
  EXPECT_EQ(Rows(), "2,2026-10-01,b\n3,2026-10-02,c\n");
  const auto snapshots = Snapshots("shop.d");
  ASSERT_EQ(snapshots.size(), 3u);
  EXPECT_EQ(snapshots[2].operation, "overwrite");
  EXPECT_NE(snapshots[2].summary.find("deleted-records=2"), std::string::npos) << snapshots[2].summary;
  EXPECT_NE(snapshots[2].summary.find("added-records=1"), std::string::npos) << snapshots[2].summary;

  // Nothing matches: no new snapshot, and the output says so.
  out = Ok({"table", "delete", "shop.d", "--where", "id = 999"});
  EXPECT_EQ(out, "deleted: no rows changed, no snapshot committed; the table stays at snapshot " + Head() + "\n");
  EXPECT_EQ(Snapshots("shop.d").size(), 3u);
  // The first snapshot still reads every row.
  EXPECT_EQ(Rows({"--as-of", first_}), "1,2026-10-01,a\n2,2026-10-01,b\n3,2026-10-02,c\n4,2026-10-03,d\n");
  // 'true' deletes every row.
  Ok({"table", "delete", "shop.d", "--where", "true"});
  EXPECT_EQ(Count("shop.d"), 0);
  EXPECT_TRUE(CsvRows({"table", "files", "shop.d"}).empty());
}

TEST_F(DeleteCliTest, MergeOnReadDeleteWritesPositionDeletes) {
  ASSERT_NO_FATAL_FAILURE(CreateDays({"--property", "write.delete.mode=merge-on-read"}));
  const auto data_files = FilesByPartition();
  const std::string out = Ok({"table", "delete", "shop.d", "--where", "id = 2"});
  EXPECT_EQ(out, "deleted: 0 rows written, 0 files added, 1 rows marked deleted in 1 delete files; snapshot " +
                     Head() + "\n");
  EXPECT_EQ(Rows(), "1,2026-10-01,a\n3,2026-10-02,c\n4,2026-10-03,d\n");
  EXPECT_EQ(Count("shop.d", {"--where", "day = '2026-10-01'"}), 1);
  int deletes = 0;
  const auto files = CsvRows({"table", "files", "shop.d"});
  for (const auto& f : files) {
    if (f[3] == "position_deletes") {
      ++deletes;
      EXPECT_EQ(f[5], "day=2026-10-01");
      EXPECT_EQ(f[6], "1");
    } else {
      EXPECT_EQ(f[3], "data");
    }
  }
  EXPECT_EQ(deletes, 1);
  // The data files stay as they were.
  for (const auto& [partition, paths] : data_files) {
    for (const auto& path : paths) {
      EXPECT_TRUE(std::any_of(files.begin(), files.end(), [&](const auto& f) { return f[4] == path; })) << path;
    }
  }
  EXPECT_EQ(Rows({"--as-of", first_, "--where", "id = 2"}), "2,2026-10-01,b\n");
}

TEST_F(DeleteCliTest, OverwriteWhereReplacesTheMatchingRows) {
  ASSERT_NO_FATAL_FAILURE(CreateDays());
  const auto before = FilesByPartition();
  // A whole partition: its file goes, the new rows land.
  Write("day2.csv", "id,day,v\n10,2026-10-02,x\n11,2026-10-02,y\n");
  std::string out = Ok({"table", "overwrite", "shop.d", "--where", "day = '2026-10-02'", "day2.csv"});
  EXPECT_EQ(out, "overwrote: 2 rows written, 1 files added, 1 files removed; snapshot " + Head() + "\n");
  EXPECT_EQ(Rows(), "1,2026-10-01,a\n10,2026-10-02,x\n11,2026-10-02,y\n2,2026-10-01,b\n4,2026-10-03,d\n");
  // Part of a file: it is rewritten without the row; the row left and the
  // new one share the partition, and one new file.
  Write("one.csv", "id,day,v\n1,2026-10-01,A\n");
  out = Ok({"table", "overwrite", "shop.d", "--where", "id = 1", "one.csv"});
  EXPECT_EQ(out, "overwrote: 1 rows written, 1 files added, 1 files rewritten; snapshot " + Head() + "\n");
  EXPECT_EQ(FilesByPartition().at("day=2026-10-01").size(), 1u);
  EXPECT_EQ(Rows(), "1,2026-10-01,A\n10,2026-10-02,x\n11,2026-10-02,y\n2,2026-10-01,b\n4,2026-10-03,d\n");
  EXPECT_EQ(FilesByPartition().at("day=2026-10-03"), before.at("day=2026-10-03"));
  const auto snapshots = Snapshots("shop.d");
  ASSERT_EQ(snapshots.size(), 3u);
  EXPECT_EQ(snapshots[1].operation, "overwrite");
  EXPECT_EQ(snapshots[2].operation, "overwrite");
  EXPECT_EQ(Rows({"--as-of", first_}), "1,2026-10-01,a\n2,2026-10-01,b\n3,2026-10-02,c\n4,2026-10-03,d\n");
}

TEST_F(DeleteCliTest, BadFiltersAndInputAreOneLineErrorsAndChangeNothing) {
  ASSERT_NO_FATAL_FAILURE(CreateDays());
  const std::string before = MetadataLocation("shop.d");
  Write("new.csv", "id,day,v\n10,2026-10-02,x\n");
  Write("bad.csv", "id,day,v\n10,2026-10-02,x\n11,later,y\n");
  ExpectUserErrors({"table", "delete", "shop.d"},
                   {
                       {{}, "InvalidArgument: --where is required"},
                       {{"--where", "nosuch = 1"}, "cannot find column 'nosuch' in schema"},
                       {{"--where", "id >"}, "--where: expected a value at offset 4 in \"id >\""},
                       {{"--where", "day = 'someday'"}, "cannot compare column day (date) with 'someday'"},
                   });
  ExpectUserErrors({"table", "overwrite", "shop.d"},
                   {
                       {{"--where", "nosuch = 1", "new.csv"}, "cannot find column 'nosuch' in schema"},
                       {{"--where", "day = '2026-10-02'", "bad.csv"}, "bad.csv row 2, column 'day': cannot read 'later' as date"},
                       {{"--where", "day = '2026-10-02'", "nosuch.csv"}, "NotFound: open 'nosuch.csv': No such file or directory"},
                   });
  ExpectUserError({"table", "delete", "shop.nosuch", "--where", "id = 1"}, "table shop.nosuch does not exist");
  EXPECT_EQ(MetadataLocation("shop.d"), before);
  EXPECT_EQ(Rows(), "1,2026-10-01,a\n2,2026-10-01,b\n3,2026-10-02,c\n4,2026-10-03,d\n");
}

}  // namespace
}  // namespace floe
