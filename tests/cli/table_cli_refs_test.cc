// `floe table rollback|set-current|cherry-pick|fast-forward|branch|tag`:
// where main and the other refs point afterwards, what scans read there,
// and the one-line errors that leave every ref where it was.

#include <gtest/gtest.h>

#include "testing/table_cli.h"

namespace floe {
namespace {

using testing::SortedRows;

class RefsCliTest : public testing::TableCliTest {
 protected:
  // shop.r with snapshots s1 (ids 1, 2), s2 (+3), s3 (+4): a chain on main.
  void CommitChain() {
    Ok({"namespace", "create", "shop"});
    Ok({"table", "create", "shop.r", "--schema", "id long not null"});
    Write("s1.csv", "id\n1\n2\n");
    Write("s2.csv", "id\n3\n");
    Write("s3.csv", "id\n4\n");
    for (const char* file : {"s1.csv", "s2.csv", "s3.csv"}) Ok({"table", "append", "shop.r", file});
    const auto snapshots = Snapshots("shop.r");
    ASSERT_EQ(snapshots.size(), 3u);
    for (const auto& s : snapshots) ids_.push_back(std::to_string(s.id));
  }
  std::string Ids(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"--format", "csv", "table", "scan", "shop.r"};
    args.insert(args.end(), extra.begin(), extra.end());
    return SortedRows(Ok(args));
  }
  // name,type,snapshot rows of `floe table refs`, in name order.
  std::string Refs() { return SortedRows(Ok({"--format", "csv", "table", "refs", "shop.r"})); }
  std::string Main() {
    for (const auto& r : CsvRows({"table", "refs", "shop.r"})) {
      if (r[0] == "main") return r[2];
    }
    return "";
  }

  std::vector<std::string> ids_;  // s1, s2, s3
};

TEST_F(RefsCliTest, RollbackMovesMainToAnAncestor) {
  ASSERT_NO_FATAL_FAILURE(CommitChain());
  EXPECT_EQ(Ok({"table", "rollback", "shop.r", ids_[0]}), "rolled back shop.r to snapshot " + ids_[0] + "\n");
  EXPECT_EQ(Main(), ids_[0]);
  EXPECT_EQ(Ids(), "1\n2\n");
  // s3 is no ancestor of main any more: rollback refuses, set-current goes there.
  const std::string before = MetadataLocation("shop.r");
  ExpectUserError({"table", "rollback", "shop.r", ids_[2]},
                  "snapshot " + ids_[2] + " is not an ancestor of branch main");
  ExpectUserError({"table", "rollback", "shop.r", "999"}, "snapshot 999 is not an ancestor of branch main");
  ExpectUserError({"table", "rollback", "shop.r", "latest"}, "Could not convert: snapshot = latest");
  EXPECT_EQ(MetadataLocation("shop.r"), before);
  EXPECT_EQ(Ok({"table", "set-current", "shop.r", ids_[2]}), "set shop.r to snapshot " + ids_[2] + "\n");
  EXPECT_EQ(Main(), ids_[2]);
  EXPECT_EQ(Ids(), "1\n2\n3\n4\n");
  EXPECT_EQ(Ok({"table", "set-current", "shop.r", ids_[1]}), "set shop.r to snapshot " + ids_[1] + "\n");
  EXPECT_EQ(Ids(), "1\n2\n3\n");
  ExpectUserError({"table", "set-current", "shop.r", "999"},
                  "NotFound: cannot set the current snapshot to unknown snapshot 999");
  EXPECT_EQ(Main(), ids_[1]);
  EXPECT_EQ(Snapshots("shop.r").size(), 3u);  // no new snapshot: refs moved
}

TEST_F(RefsCliTest, BranchesAreCreatedReplacedAndRemoved) {
  ASSERT_NO_FATAL_FAILURE(CommitChain());
  EXPECT_EQ(Ok({"table", "branch", "shop.r", "dev", "--snapshot", ids_[0]}),
            "branch dev -> snapshot " + ids_[0] + "\n");
  EXPECT_EQ(Refs(), "dev,branch," + ids_[0] + "\nmain,branch," + ids_[2] + "\n");
  EXPECT_EQ(Ids({"--as-of", "dev"}), "1\n2\n");
  // Without --snapshot: main's head. An existing branch moves (replace).
  EXPECT_EQ(Ok({"table", "branch", "shop.r", "dev"}), "branch dev -> snapshot " + ids_[2] + "\n");
  EXPECT_EQ(Ids({"--as-of", "dev"}), "1\n2\n3\n4\n");
  Ok({"table", "branch", "shop.r", "dev", "--snapshot", ids_[1]});
  EXPECT_EQ(Ids({"--as-of", "dev"}), "1\n2\n3\n");
  EXPECT_EQ(Ok({"table", "branch", "shop.r", "dev", "--remove"}), "removed dev\n");
  EXPECT_EQ(Refs(), "main,branch," + ids_[2] + "\n");
  EXPECT_EQ(Ids(), "1\n2\n3\n4\n");  // main untouched throughout

  const std::string before = MetadataLocation("shop.r");
  ExpectUserError({"table", "branch", "shop.r", "dev", "--remove"}, "NotFound: branch or tag 'dev' does not exist");
  ExpectUserError({"table", "branch", "shop.r", "main", "--remove"}, "the main branch cannot be removed");
  ExpectUserError({"table", "branch", "shop.r", "dev", "--snapshot", "42"}, "NotFound: snapshot 42 does not exist");
  EXPECT_EQ(MetadataLocation("shop.r"), before);
}

TEST_F(RefsCliTest, TagsPinSnapshotsAndTagRemoveRemovesOnlyTags) {
  ASSERT_NO_FATAL_FAILURE(CommitChain());
  EXPECT_EQ(Ok({"table", "tag", "shop.r", "v1", "--snapshot", ids_[0]}), "tag v1 -> snapshot " + ids_[0] + "\n");
  Ok({"table", "tag", "shop.r", "v3"});
  Ok({"table", "branch", "shop.r", "dev", "--snapshot", ids_[1]});
  EXPECT_EQ(Refs(), "dev,branch," + ids_[1] + "\nmain,branch," + ids_[2] + "\nv1,tag," + ids_[0] + "\nv3,tag," +
                        ids_[2] + "\n");
  EXPECT_EQ(Ids({"--as-of", "v1"}), "1\n2\n");
  EXPECT_EQ(Count("shop.r", {"--as-of", "v3"}), 4);

  // A tag and a branch are different things: neither command touches the other's refs.
  const std::string before = MetadataLocation("shop.r");
  ExpectUserError({"table", "tag", "shop.r", "dev", "--remove"}, "InvalidArgument: 'dev' is a branch, not a tag");
  ExpectUserError({"table", "tag", "shop.r", "main", "--remove"}, "'main' is a branch, not a tag");
  ExpectUserError({"table", "branch", "shop.r", "v1", "--remove"}, "InvalidArgument: 'v1' is a tag, not a branch");
  ExpectUserError({"table", "tag", "shop.r", "dev"}, "'dev' is a branch, not a tag");
  ExpectUserError({"table", "branch", "shop.r", "v1"}, "'v1' is a tag, not a branch");
  ExpectUserError({"table", "tag", "shop.r", "v9", "--snapshot", "42"}, "snapshot 42 does not exist");
  EXPECT_EQ(MetadataLocation("shop.r"), before);

  // Moving a tag, then removing it.
  EXPECT_EQ(Ok({"table", "tag", "shop.r", "v1", "--snapshot", ids_[1]}), "tag v1 -> snapshot " + ids_[1] + "\n");
  EXPECT_EQ(Ids({"--as-of", "v1"}), "1\n2\n3\n");
  EXPECT_EQ(Ok({"table", "tag", "shop.r", "v1", "--remove"}), "removed v1\n");
  EXPECT_EQ(Refs(), "dev,branch," + ids_[1] + "\nmain,branch," + ids_[2] + "\nv3,tag," + ids_[2] + "\n");
  ExpectUserError({"table", "scan", "shop.r", "--as-of", "v1"},
                  "--as-of 'v1' is no snapshot id, branch, tag or timestamp");
}

TEST_F(RefsCliTest, TagsNeedASnapshot) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.r", "--schema", "id long"});
  ExpectUserError({"table", "tag", "shop.r", "v1"}, "the table has no snapshot yet");
  EXPECT_EQ(CsvRows({"table", "refs", "shop.r"}).size(), 0u);
}

TEST_F(RefsCliTest, CherryPickFastForwardsOrReappliesASnapshotOffMain) {
  ASSERT_NO_FATAL_FAILURE(CommitChain());
  // s3 off main: main back at s2, so s3's parent is main's head.
  Ok({"table", "rollback", "shop.r", ids_[1]});
  EXPECT_EQ(Ok({"table", "cherry-pick", "shop.r", ids_[2]}), "cherry-picked snapshot " + ids_[2] + " (fast-forward)\n");
  EXPECT_EQ(Main(), ids_[2]);
  EXPECT_EQ(Snapshots("shop.r").size(), 3u);

  // s3 off main again, and main moved on to s4 (+5): s3 is re-applied as a new snapshot.
  Ok({"table", "rollback", "shop.r", ids_[1]});
  Write("s4.csv", "id\n5\n");
  Ok({"table", "append", "shop.r", "s4.csv"});
  const std::string s4 = Main();
  const std::string out = Ok({"table", "cherry-pick", "shop.r", ids_[2]});
  auto snapshots = Snapshots("shop.r");
  ASSERT_EQ(snapshots.size(), 5u);
  const auto& picked = snapshots.back();
  EXPECT_EQ(out, "cherry-picked snapshot " + ids_[2] + " as snapshot " + std::to_string(picked.id) + "\n");
  EXPECT_EQ(std::to_string(*picked.parent), s4);
  EXPECT_EQ(picked.operation, "append");
  EXPECT_NE(picked.summary.find("source-snapshot-id=" + ids_[2]), std::string::npos) << picked.summary;
  EXPECT_EQ(Main(), std::to_string(picked.id));
  EXPECT_EQ(Ids(), "1\n2\n3\n4\n5\n");

  const std::string before = MetadataLocation("shop.r");
  ExpectUserError(
      {"table", "cherry-pick", "shop.r", ids_[2]},
      "CommitConflict: table shop.r: cannot cherry-pick snapshot " + ids_[2] + ": it was already cherry-picked");
  ExpectUserError({"table", "cherry-pick", "shop.r", ids_[1]}, "it is already an ancestor of main");
  ExpectUserError({"table", "cherry-pick", "shop.r", "123"}, "NotFound: cannot cherry-pick unknown snapshot 123");
  EXPECT_EQ(MetadataLocation("shop.r"), before);
}

TEST_F(RefsCliTest, FastForwardMovesABranchToTheHeadOfADescendant) {
  ASSERT_NO_FATAL_FAILURE(CommitChain());
  Ok({"table", "branch", "shop.r", "dev", "--snapshot", ids_[0]});
  Ok({"table", "tag", "shop.r", "mid", "--snapshot", ids_[1]});
  EXPECT_EQ(Ok({"table", "fast-forward", "shop.r", "dev", "mid"}), "fast-forwarded dev to mid\n");
  EXPECT_EQ(Ids({"--as-of", "dev"}), "1\n2\n3\n");
  EXPECT_EQ(Ok({"table", "fast-forward", "shop.r", "dev", "main"}), "fast-forwarded dev to main\n");
  EXPECT_EQ(Refs(), "dev,branch," + ids_[2] + "\nmain,branch," + ids_[2] + "\nmid,tag," + ids_[1] + "\n");

  // main is no ancestor of an older branch; a tag is no branch to move; unknown names.
  Ok({"table", "branch", "shop.r", "old", "--snapshot", ids_[0]});
  const std::string before = MetadataLocation("shop.r");
  ExpectUserError({"table", "fast-forward", "shop.r", "main", "old"},
                  "cannot fast-forward 'main': its head " + ids_[2] + " is not an ancestor of 'old'");
  ExpectUserError({"table", "fast-forward", "shop.r", "mid", "main"}, "InvalidArgument: 'mid' is a tag, not a branch");
  ExpectUserError({"table", "fast-forward", "shop.r", "nosuch", "main"}, "NotFound: branch 'nosuch' does not exist");
  ExpectUserError({"table", "fast-forward", "shop.r", "dev", "nosuch"},
                  "NotFound: branch or tag 'nosuch' does not exist");
  EXPECT_EQ(MetadataLocation("shop.r"), before);
  EXPECT_EQ(Main(), ids_[2]);
}

}  // namespace
}  // namespace floe
