// `floe table scan`: the exact output of a small table in each --format,
// --limit, and --as-of a timestamp between commits, a tag or a branch.

#include <gtest/gtest.h>

#include "floe/iceberg/literal.h"
#include "testing/table_cli.h"

namespace floe {
namespace {

using testing::SortedRows;

class ScanCliTest : public testing::TableCliTest {
 protected:
  // shop.s: one file of three rows (a null row, quotes, a comma, UTF-8).
  void CreateSmallTable() {
    Ok({"namespace", "create", "shop"});
    Ok({"table", "create", "shop.s", "--schema",
        "id long not null, name string, price decimal(9,2), at timestamptz, ok boolean, d double"});
    Write("s.csv",
          "id,name,price,at,ok,d\n"
          "1,Zoë,-0.05,2026-10-21T20:15:00.123456Z,false,1e300\n"
          "2,\"a, \"\"b\"\"\",1.50,2026-10-21T18:15:00Z,true,0.5\n"
          "3,,,,,\n");
    Ok({"table", "append", "shop.s", "s.csv"});
  }
};

TEST_F(ScanCliTest, EachFormatPrintsTheRowsExactly) {
  ASSERT_NO_FATAL_FAILURE(CreateSmallTable());
  EXPECT_EQ(Ok({"table", "scan", "shop.s", "--format", "table"}),
            "+----+--------+-------+----------------------------------+-------+--------+\n"
            "| id | name   | price | at                               | ok    | d      |\n"
            "+----+--------+-------+----------------------------------+-------+--------+\n"
            "|  1 | Zoë    | -0.05 | 2026-10-21T20:15:00.123456+00:00 | false | 1e+300 |\n"
            "|  2 | a, \"b\" |  1.50 | 2026-10-21T18:15:00.000000+00:00 | true  |    0.5 |\n"
            "|  3 | NULL   |  NULL | NULL                             | NULL  |   NULL |\n"
            "+----+--------+-------+----------------------------------+-------+--------+\n"
            "3 rows\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.s", "--format", "csv"}),
            "id,name,price,at,ok,d\n"
            "1,Zoë,-0.05,2026-10-21T20:15:00.123456+00:00,false,1e+300\n"
            "2,\"a, \"\"b\"\"\",1.50,2026-10-21T18:15:00.000000+00:00,true,0.5\n"
            "3,,,,,\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.s", "--format", "json"}),
            "[\n"
            "{\"id\":1,\"name\":\"Zoë\",\"price\":-0.05,\"at\":\"2026-10-21T20:15:00.123456+00:00\","
            "\"ok\":false,\"d\":1e+300},\n"
            "{\"id\":2,\"name\":\"a, \\\"b\\\"\",\"price\":1.50,\"at\":\"2026-10-21T18:15:00.000000+00:00\","
            "\"ok\":true,\"d\":0.5},\n"
            "{\"id\":3,\"name\":null,\"price\":null,\"at\":null,\"ok\":null,\"d\":null}\n"
            "]\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.s", "--format", "jsonl", "--select", "d,id", "--where", "id >= 2"}),
            "{\"d\":0.5,\"id\":2}\n{\"d\":null,\"id\":3}\n");
  // The global option goes before the command as well.
  EXPECT_EQ(Ok({"--format", "csv", "table", "scan", "shop.s", "--select", "id"}), "id\n1\n2\n3\n");
  ExpectUserError({"table", "scan", "shop.s", "--format", "xml"},
                  "InvalidArgument: --format: xml not in {table,csv,json,jsonl}");
  ExpectUserError({"table", "scan", "shop.s", "--select", "id,nosuch"}, "cannot find column 'nosuch' in schema");
}

TEST_F(ScanCliTest, LimitStopsAfterThatManyRows) {
  ASSERT_NO_FATAL_FAILURE(CreateSmallTable());
  EXPECT_EQ(Ok({"table", "scan", "shop.s", "--format", "csv", "--select", "id", "--limit", "2"}), "id\n1\n2\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.s", "--format", "csv", "--select", "id", "--limit", "0"}), "id\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.s", "--format", "json", "--select", "id", "--limit", "1"}),
            "[\n{\"id\":1}\n]\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.s", "--format", "csv", "--select", "id", "--limit", "10"}), "id\n1\n2\n3\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.s", "--count", "--limit", "2"}), "2\n");
  EXPECT_EQ(Ok({"table", "scan", "shop.s", "--count", "--limit", "2", "--where", "id = 3"}), "1\n");
  ExpectUserError({"table", "scan", "shop.s", "--limit", "-1"},
                  "InvalidArgument: --limit: expected a number of rows >= 0, not '-1'");
  ExpectUserError({"table", "scan", "shop.s", "--limit", "many"},
                  "InvalidArgument: --limit: expected a number of rows >= 0, not 'many'");
}

class AsOfCliTest : public testing::TableCliTest {
 protected:
  // shop.t with snapshots s1 (id 1), s2 (+2), s3 (+3); their commit times.
  void CommitThree() {
    Ok({"namespace", "create", "shop"});
    Ok({"table", "create", "shop.t", "--schema", "id long not null"});
    for (int i = 1; i <= 3; ++i) {
      Write("r.csv", "id\n" + std::to_string(i) + "\n");
      Ok({"table", "append", "shop.t", "r.csv"});
    }
    for (const auto& row : CsvRows({"table", "history", "shop.t"})) {
      auto micros = iceberg::Literal::Parse(iceberg::Type::TimestampTz(), row[0]);
      ASSERT_TRUE(micros.ok()) << row[0];
      committed_us_.push_back(micros->long_value());
      ids_.push_back(row[1]);
    }
    ASSERT_EQ(committed_us_.size(), 3u);
  }
  std::string IdsAsOf(const std::string& as_of) {
    return SortedRows(Ok({"--format", "csv", "table", "scan", "shop.t", "--as-of", as_of}));
  }
  // An instant halfway between two commits, in ISO 8601 with and without an offset.
  std::string Between(size_t i, size_t j) {
    return iceberg::Literal::TimestampTz((committed_us_[i] + committed_us_[j]) / 2).ToString();
  }

  std::vector<int64_t> committed_us_;
  std::vector<std::string> ids_;
};

TEST_F(AsOfCliTest, ATimestampReadsTheSnapshotCurrentThen) {
  ASSERT_NO_FATAL_FAILURE(CommitThree());
  ASSERT_LT(committed_us_[0], committed_us_[1]);
  ASSERT_LT(committed_us_[1], committed_us_[2]);
  EXPECT_EQ(IdsAsOf(Between(0, 1)), "1\n");
  EXPECT_EQ(IdsAsOf(Between(1, 2)), "1\n2\n");
  EXPECT_EQ(IdsAsOf(iceberg::Literal::TimestampTz(committed_us_[1]).ToString()), "1\n2\n");  // the instant itself
  // Without an offset the time is UTC; 'Z' says so too.
  const std::string naive = iceberg::Literal::Timestamp((committed_us_[1] + committed_us_[2]) / 2).ToString();
  ASSERT_EQ(naive.find('+'), std::string::npos) << naive;
  EXPECT_EQ(IdsAsOf(naive), "1\n2\n");
  EXPECT_EQ(IdsAsOf(naive + "Z"), "1\n2\n");
  EXPECT_EQ(IdsAsOf("2100-01-01T00:00:00"), "1\n2\n3\n");
  EXPECT_EQ(Count("shop.t", {"--as-of", Between(0, 1), "--where", "id > 0"}), 1);
  ExpectUserError({"table", "scan", "shop.t", "--as-of", "2000-01-01T00:00:00"},
                  "NotFound: no snapshot was current at");

  // After a rollback, a time after it reads the snapshot main went back to.
  Ok({"table", "rollback", "shop.t", ids_[0]});
  EXPECT_EQ(IdsAsOf("2100-01-01T00:00:00"), "1\n");
  EXPECT_EQ(IdsAsOf(Between(1, 2)), "1\n2\n");
}

TEST_F(AsOfCliTest, ASnapshotIdTagOrBranchReadsItsSnapshot) {
  ASSERT_NO_FATAL_FAILURE(CommitThree());
  EXPECT_EQ(IdsAsOf(ids_[0]), "1\n");
  Ok({"table", "tag", "shop.t", "first", "--snapshot", ids_[0]});
  Ok({"table", "branch", "shop.t", "audit", "--snapshot", ids_[1]});
  EXPECT_EQ(IdsAsOf("first"), "1\n");
  EXPECT_EQ(IdsAsOf("audit"), "1\n2\n");
  EXPECT_EQ(IdsAsOf("main"), "1\n2\n3\n");
  EXPECT_EQ(Count("shop.t", {"--as-of", "audit", "--where", "id = 2"}), 1);
  // A branch moved later reads its new head.
  Ok({"table", "branch", "shop.t", "audit", "--snapshot", ids_[2]});
  EXPECT_EQ(IdsAsOf("audit"), "1\n2\n3\n");
  ExpectUserError({"table", "scan", "shop.t", "--as-of", "nosuch"},
                  "NotFound: --as-of 'nosuch' is no snapshot id, branch, tag or timestamp of the table");
  ExpectUserError({"table", "scan", "shop.t", "--as-of", "12345"}, "--as-of '12345'");
}

}  // namespace
}  // namespace floe
