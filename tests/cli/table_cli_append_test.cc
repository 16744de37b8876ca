// `floe table append` of Parquet, CSV and JSON lines files: values land as
// written, columns match by name, and bad input is a one-line error naming
// the file, row and column that leaves the table as it was.

#include <gtest/gtest.h>

#include <filesystem>

#include "testing/table_cli.h"

namespace floe {
namespace {

using testing::SortedRows;

const std::string kAllTypes = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/alltypes_plain.parquet";
const std::string kAllTypesSchema =
    "id int, bool_col boolean, tinyint_col int, smallint_col int, int_col int, bigint_col long, float_col float, "
    "double_col double, date_string_col binary, string_col binary, timestamp_col timestamp";

class AppendCliTest : public testing::TableCliTest {
 protected:
  // Files under the table's folder (data files, and metadata the commits wrote).
  int FilesOf(const std::string& table_folder) {
    const std::filesystem::path root = Path("warehouse/" + table_folder);
    int n = 0;
    if (!std::filesystem::exists(root)) return 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) n += e.is_regular_file() ? 1 : 0;
    return n;
  }
  // Expects `floe table append TABLE FILES...` to fail with `message` and to
  // leave the table's rows, snapshots and files as they were.
  void ExpectAppendRefused(const std::string& table, const std::string& folder, std::vector<std::string> files,
                           const std::string& message) {
    const std::string before_rows = SortedRows(Ok({"--format", "csv", "table", "scan", table}));
    const std::string before_metadata = MetadataLocation(table);
    const int before_files = FilesOf(folder);
    std::vector<std::string> args = {"table", "append", table};
    args.insert(args.end(), files.begin(), files.end());
    ExpectUserError(args, message);
    EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "scan", table})), before_rows);
    EXPECT_EQ(MetadataLocation(table), before_metadata);
    EXPECT_EQ(FilesOf(folder), before_files) << "a refused append left files behind";
  }
};

TEST_F(AppendCliTest, ParquetFromAnotherEngineReadsBackTheSameValues) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.all", "--schema", kAllTypesSchema});
  EXPECT_NE(Ok({"table", "append", "shop.all", kAllTypes}).find("appended: 8 rows written, 1 files added"),
            std::string::npos);
  const std::string expected = SortedRows(Ok({"--format", "csv", "parquet", "cat", kAllTypes}));
  EXPECT_EQ(SortedRows(Ok({"--format", "csv", "table", "scan", "shop.all"})), expected);
  EXPECT_NE(expected.find("5,false,1,1,1,10,1.1,10.1,30332f30312f3039,31,2009-03-01T00:01:00.000000\n"),
            std::string::npos)
      << expected;
  EXPECT_EQ(Count("shop.all", {"--where", "bool_col = true"}), 4);
  // Appending it twice doubles the rows; both snapshots are appends.
  Ok({"table", "append", "shop.all", kAllTypes});
  EXPECT_EQ(Count("shop.all"), 16);
  EXPECT_EQ(Snapshots("shop.all").size(), 2u);
}

TEST_F(AppendCliTest, ParquetColumnsMatchByNameNotByAnotherTablesFieldIds) {
  // b's file carries field id 1 for x and 2 for id; in a, id is 1 and x is 2.
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.b", "--schema", "x long, id long, extra string"});
  Write("b.csv", "x,id,extra\n100,1,e\n200,2,f\n");
  Ok({"table", "append", "shop.b", "b.csv"});
  const std::string b_file = CsvRows({"table", "files", "shop.b"}).at(0).at(4);
  Ok({"table", "create", "shop.a", "--schema", "id long, x long, extra string, missing int"});
  Ok({"table", "append", "shop.a", b_file});
  EXPECT_EQ(Ok({"--format", "csv", "table", "scan", "shop.a"}), "id,x,extra,missing\n1,100,e,\n2,200,f,\n");

  // A file column the table lacks, or a required column the file lacks, is refused.
  Ok({"table", "create", "shop.narrow", "--schema", "id long, x long"});
  ExpectAppendRefused("shop.narrow", "shop/narrow", {b_file}, "column 'extra' is not in the table");
  Ok({"table", "create", "shop.wide", "--schema", "id long, x long, extra string, must long not null"});
  ExpectAppendRefused("shop.wide", "shop/wide", {b_file}, "required column 'must' is missing");
}

TEST_F(AppendCliTest, ParquetOfAnotherTypeIsRefused) {
  Ok({"namespace", "create", "shop"});
  std::string schema = kAllTypesSchema;
  schema.replace(0, 6, "id long");
  Ok({"table", "create", "shop.all", "--schema", schema});
  ExpectAppendRefused("shop.all", "shop/all", {kAllTypes},
                      "InvalidArgument: " + kAllTypes + ": column 'id' is int32, the table has int64");
  EXPECT_TRUE(Snapshots("shop.all").empty());
}

TEST_F(AppendCliTest, TextOfTheWrongTypeNamesTheFileRowAndColumn) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.t", "--schema", "id long not null, day date, amount double", "--partition", "day"});
  Write("good.csv", "id,day,amount\n1,2026-10-01,1.5\n");
  Ok({"table", "append", "shop.t", "good.csv"});

  Write("bad_date.csv", "id,day,amount\n2,2026-10-01,2\n3,2026-13-01,3\n");
  ExpectAppendRefused("shop.t", "shop/t", {"bad_date.csv"},
                      "InvalidArgument: bad_date.csv row 2, column 'day': cannot read '2026-13-01' as date");
  Write("bad.jsonl",
        "{\"id\": 2, \"day\": \"2026-10-02\", \"amount\": 2}\n{\"id\": \"two\", \"day\": \"2026-10-02\"}\n");
  ExpectAppendRefused("shop.t", "shop/t", {"bad.jsonl"}, "bad.jsonl row 2, column 'id': cannot read 'two' as long");
  Write("bad_amount.jsonl", "{\"id\": 2, \"day\": \"2026-10-02\", \"amount\": \"lots\"}\n");
  ExpectAppendRefused("shop.t", "shop/t", {"bad_amount.jsonl"},
                      "bad_amount.jsonl row 1, column 'amount': cannot read 'lots' as double");
  // A good file before a bad one: nothing of either lands.
  Write("more.csv", "id,day,amount\n4,2026-10-03,4\n");
  ExpectAppendRefused("shop.t", "shop/t", {"more.csv", "bad_date.csv"}, "bad_date.csv row 2, column 'day'");
  Write("empty_id.csv", "id,day,amount\n5,2026-10-01,1\n,2026-10-01,1\n");
  ExpectAppendRefused("shop.t", "shop/t", {"empty_id.csv"}, "empty_id.csv row 2: required column 'id' is empty");
  Write("no_id.jsonl", "{\"day\": \"2026-10-01\"}\n");
  ExpectAppendRefused("shop.t", "shop/t", {"no_id.jsonl"}, "no_id.jsonl: required column 'id' is missing");
  Write("broken.jsonl", "{\"id\": 6}\n{\"id\": 7,\n");
  ExpectAppendRefused("shop.t", "shop/t", {"broken.jsonl"}, "Corrupt: json lines 'broken.jsonl' line 2");
  Write("rows.txt", "id\n1\n");
  ExpectAppendRefused("shop.t", "shop/t", {"rows.txt"},
                      "input 'rows.txt': unknown format (use .csv, .jsonl or .parquet)");
  ExpectAppendRefused("shop.t", "shop/t", {"nosuch.csv"}, "NotFound: open 'nosuch.csv': No such file or directory");
  EXPECT_EQ(Snapshots("shop.t").size(), 1u);
  EXPECT_EQ(Ok({"--format", "csv", "table", "scan", "shop.t"}), "id,day,amount\n1,2026-10-01,1.5\n");
}

TEST_F(AppendCliTest, ARowPastTheFirstBatchIsNamedByItsNumberInTheFile) {
  // Text is read 65,536 rows at a time; row numbers count from the file's start.
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.t", "--schema", "id long not null"});
  std::string csv = "id\n";
  std::string jsonl;
  for (int i = 1; i <= 70000; ++i) {
    csv += (i == 69000 ? std::string("x") : std::to_string(i)) + "\n";
    jsonl += "{\"id\": " + (i == 66000 ? std::string("\"y\"") : std::to_string(i)) + "}\n";
  }
  Write("big.csv", csv);
  Write("big.jsonl", jsonl);
  ExpectAppendRefused("shop.t", "shop/t", {"big.csv"}, "big.csv row 69000, column 'id': cannot read 'x' as long");
  ExpectAppendRefused("shop.t", "shop/t", {"big.jsonl"}, "big.jsonl row 66000, column 'id': cannot read 'y' as long");
  EXPECT_EQ(Count("shop.t"), 0);
}

}  // namespace
}  // namespace floe
