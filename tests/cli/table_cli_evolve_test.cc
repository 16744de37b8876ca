// `floe table evolve --add-column | --rename-column | --drop-column |
// --promote | --add-partition | --drop-partition`: the schema and spec that
// result, and scans over the
// files written before and after (old files keep their layout; new files
// follow the new spec), and the one-line errors that change nothing.

#include <gtest/gtest.h>

#include <map>

#include "testing/table_cli.h"

namespace floe {
namespace {

using testing::SortedRows;

class EvolveCliTest : public testing::TableCliTest {
 protected:
  // shop.e partitioned by day(order_ts), with one file of two rows.
  void CreateOrders(const std::string& format_version = "2") {
    Ok({"namespace", "create", "shop"});
    Ok({"table", "create", "shop.e", "--schema", "id long not null, order_ts timestamp, qty int, note string",
        "--partition", "day(order_ts)", "--format-version", format_version});
    Write("old.csv", "id,order_ts,qty,note\n1,2026-10-21T20:15:00,7,a\n2,2026-10-21T21:00:00,8,b\n");
    Ok({"table", "append", "shop.e", "old.csv"});
  }
  std::string Scan(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--format", "csv", "table", "scan", "shop.e"};
    args.insert(args.end(), extra.begin(), extra.end());
    return Ok(args);
  }
  // partition text → file count of `floe table files`.
  std::map<std::string, int> FilePartitions() {
    std::map<std::string, int> partitions;
    for (const auto& f : CsvRows({"table", "files", "shop.e"})) partitions[f[5]] += 1;
    return partitions;
  }
};

TEST_F(EvolveCliTest, AnAddedColumnReadsNullInOldRows) {
  ASSERT_NO_FATAL_FAILURE(CreateOrders());
  const std::string old_file = CsvRows({"table", "files", "shop.e"}).at(0).at(4);
  EXPECT_EQ(Ok({"table", "evolve", "shop.e", "--add-column", "channel string"}), "evolved table shop.e\n");
  const auto m = Metadata("shop.e");
  const auto* channel = m.current_schema()->FindFieldByName("channel");
  ASSERT_NE(channel, nullptr);
  EXPECT_EQ(channel->field_id, 5);  // a new id, after the four of the table
  EXPECT_FALSE(channel->required);
  EXPECT_EQ(m.last_column_id, 5);
  // The old file is not rewritten: it has no such column, and its rows read null.
  EXPECT_EQ(Ok({"parquet", "schema", old_file}).find("channel"), std::string::npos);
  Write("new.csv", "id,order_ts,qty,note,channel\n3,2026-10-22T09:00:00,9,c,app\n");
  Ok({"table", "append", "shop.e", "new.csv"});
  EXPECT_EQ(Scan({"--select", "id,channel"}).substr(0, 11), "id,channel\n");
  EXPECT_EQ(SortedRows(Scan({"--select", "id,channel"})), "1,\n2,\n3,app\n");
  EXPECT_EQ(Ok({"--format", "jsonl", "table", "scan", "shop.e", "--select", "channel", "--where", "id = 1"}),
            "{\"channel\":null}\n");
  EXPECT_EQ(Count("shop.e", {"--where", "channel is null"}), 2);
  EXPECT_EQ(Count("shop.e", {"--where", "channel = 'app'"}), 1);
  // A file without the new column still appends; its rows read null too.
  Write("no_channel.csv", "id,order_ts,qty,note\n4,2026-10-22T10:00:00,1,d\n");
  Ok({"table", "append", "shop.e", "no_channel.csv"});
  EXPECT_EQ(Count("shop.e", {"--where", "channel is null"}), 3);
  // A required column cannot be added: the rows already written have no value for it.
  // It was added as an optional column, `not null` dropped without a word.
  ExpectUserError({"table", "evolve", "shop.e", "--add-column", "rank int not null"},
                  "cannot add required column 'rank': the rows already written have no value for it");
  ExpectUserError({"table", "evolve", "shop.e", "--add-column", "rank"}, "expected a type at position 5 of 'rank'");
  EXPECT_EQ(Metadata("shop.e").current_schema()->FindFieldByName("rank"), nullptr);
}

TEST_F(EvolveCliTest, ARenamedColumnReadsTheOldFilesUnderItsNewName) {
  ASSERT_NO_FATAL_FAILURE(CreateOrders());
  const std::string old_file = CsvRows({"table", "files", "shop.e"}).at(0).at(4);
  const int32_t note_id = Metadata("shop.e").current_schema()->FindFieldByName("note")->field_id;
  Ok({"table", "evolve", "shop.e", "--rename-column", "note=comment"});
  const auto m = Metadata("shop.e");
  EXPECT_EQ(m.current_schema()->FindFieldByName("note"), nullptr);
  ASSERT_NE(m.current_schema()->FindFieldByName("comment"), nullptr);
  EXPECT_EQ(m.current_schema()->FindFieldByName("comment")->field_id, note_id);
  // The old file still calls it 'note'; scans find it by field id.
  EXPECT_NE(Ok({"parquet", "schema", old_file}).find("optional byte_array note (STRING) = 4;"), std::string::npos);
  Write("new.csv", "id,order_ts,qty,comment\n3,2026-10-22T09:00:00,9,c\n");
  Ok({"table", "append", "shop.e", "new.csv"});
  EXPECT_EQ(SortedRows(Scan({"--select", "id,comment"})), "1,a\n2,b\n3,c\n");
  EXPECT_EQ(SortedRows(Scan({"--select", "id", "--where", "comment in ('a', 'c')"})), "1\n3\n");
  ExpectUserError({"table", "scan", "shop.e", "--select", "note"}, "cannot find column 'note' in schema");
  Write("old_name.csv", "id,order_ts,qty,note\n4,2026-10-22T10:00:00,1,d\n");
  ExpectUserError({"table", "append", "shop.e", "old_name.csv"}, "column 'note' is not in the table");

  // Renaming the column a partition field derives from keeps the pruning.
  Ok({"table", "evolve", "shop.e", "--rename-column", "order_ts=placed_at"});
  EXPECT_NE(Ok({"table", "describe", "shop.e"}).find("order_ts_day=day(placed_at)"), std::string::npos);
  auto explain = Floe({"table", "scan", "shop.e", "--count", "--explain", "--where", "placed_at >= '2026-10-22T00:00:00'"});
  EXPECT_EQ(explain.out, "1\n");
  EXPECT_NE(explain.err.find("data files: 2 total, 1 skipped"), std::string::npos) << explain.err;

  const std::string before = MetadataLocation("shop.e");
  ExpectUserErrors({"table", "evolve", "shop.e"},
                   {
                       {{"--rename-column", "comment"}, "--rename-column expects old=new"},
                       {{"--rename-column", "nosuch=x"}, "cannot rename column 'nosuch': no such column"},
                       {{"--rename-column", "comment=qty"}, "schema update: field name 'qty' appears twice"},
                   });
  EXPECT_EQ(MetadataLocation("shop.e"), before);
}

TEST_F(EvolveCliTest, DropColumnDisappearsFromOldAndNewRows) {
  ASSERT_NO_FATAL_FAILURE(CreateOrders());
  EXPECT_EQ(Ok({"table", "evolve", "shop.e", "--drop-column", "note"}), "evolved table shop.e\n");
  const auto m = Metadata("shop.e");
  EXPECT_EQ(m.current_schema()->FindFieldByName("note"), nullptr);
  EXPECT_EQ(m.schemas.size(), 2u);
  Write("new.csv", "id,order_ts,qty\n3,2026-10-22T09:00:00,9\n");
  Ok({"table", "append", "shop.e", "new.csv"});
  const std::string rows = Scan();
  EXPECT_EQ(rows.substr(0, rows.find('\n')), "id,order_ts,qty");
  EXPECT_EQ(SortedRows(rows),
            "1,2026-10-21T20:15:00.000000,7\n2,2026-10-21T21:00:00.000000,8\n3,2026-10-22T09:00:00.000000,9\n");
  ExpectUserError({"table", "scan", "shop.e", "--select", "id,note"}, "note");
  // The old column's name is free again; it is a new column (new field id): old rows read null, not 'a'/'b'.
  Write("note.csv", "id,order_ts,qty,note\n4,2026-10-22T10:00:00,1,fresh\n");
  ExpectUserError({"table", "append", "shop.e", "note.csv"}, "column 'note' is not in the table");
  Ok({"table", "evolve", "shop.e", "--add-column", "note string"});
  Ok({"table", "append", "shop.e", "note.csv"});
  EXPECT_EQ(SortedRows(Scan({"--select", "id,note"})), "1,\n2,\n3,\n4,fresh\n");
  // Time travel to the first snapshot reads the schema of the time.
  const auto snapshots = Snapshots("shop.e");
  EXPECT_EQ(SortedRows(Scan({"--select", "id,note", "--as-of", std::to_string(snapshots[0].id)})), "1,a\n2,b\n");
}

TEST_F(EvolveCliTest, PromotedIntsReadAsLongFromOldFiles) {
  ASSERT_NO_FATAL_FAILURE(CreateOrders());
  const std::string old_file = CsvRows({"table", "files", "shop.e"}).at(0).at(4);
  Ok({"table", "evolve", "shop.e", "--promote", "qty long"});
  EXPECT_EQ(Metadata("shop.e").current_schema()->FindFieldByName("qty")->type->ToString(), "long");
  EXPECT_NE(Ok({"table", "describe", "shop.e"}).find("| qty      | long      | no       |"), std::string::npos);
  // The old file still holds 32-bit ints; a new row needs 64 bits.
  EXPECT_NE(Ok({"parquet", "schema", old_file}).find("optional int32 qty = 3;"), std::string::npos);
  Write("big.csv", "id,order_ts,qty\n3,2026-10-21T22:30:00,9000000000\n");
  Ok({"table", "append", "shop.e", "big.csv"});
  EXPECT_EQ(SortedRows(Scan({"--select", "id,qty"})), "1,7\n2,8\n3,9000000000\n");
  EXPECT_EQ(Count("shop.e", {"--where", "qty > 5000000000"}), 1);
  EXPECT_EQ(Count("shop.e", {"--where", "qty < 8"}), 1);
  const std::string json = Ok({"--format", "jsonl", "table", "scan", "shop.e", "--select", "qty", "--where", "id = 1"});
  EXPECT_EQ(json, "{\"qty\":7}\n");
}

TEST_F(EvolveCliTest, AnAddedPartitionFieldAppliesToNewFilesOnly) {
  ASSERT_NO_FATAL_FAILURE(CreateOrders());
  Ok({"table", "evolve", "shop.e", "--add-partition", "hour(order_ts)"});
  const auto m = Metadata("shop.e");
  EXPECT_EQ(m.default_spec_id, 1);
  ASSERT_EQ(m.default_spec()->fields.size(), 2u);
  EXPECT_EQ(m.default_spec()->fields[1].name, "order_ts_hour");
  EXPECT_EQ(m.default_spec()->fields[1].transform.ToString(), "hour");
  EXPECT_NE(Ok({"table", "describe", "shop.e"})
                .find("partition spec 1: order_ts_day=day(order_ts) order_ts_hour=hour(order_ts)\n"),
            std::string::npos);
  Write("new.csv", "id,order_ts,qty,note\n3,2026-10-21T22:30:00,9,c\n4,2026-10-21T23:10:00,1,d\n");
  Ok({"table", "append", "shop.e", "new.csv"});
  EXPECT_EQ(FilePartitions(), (std::map<std::string, int>{{"order_ts_day=2026-10-21", 1},
                                                          {"order_ts_day=2026-10-21/order_ts_hour=2026-10-21-22", 1},
                                                          {"order_ts_day=2026-10-21/order_ts_hour=2026-10-21-23", 1}}));
  std::map<std::string, int> manifest_specs;
  for (const auto& manifest : CsvRows({"table", "manifests", "shop.e"})) manifest_specs[manifest[3]] += 1;
  EXPECT_EQ(manifest_specs, (std::map<std::string, int>{{"0", 1}, {"1", 1}}));
  EXPECT_EQ(SortedRows(Scan({"--select", "id,note"})), "1,a\n2,b\n3,c\n4,d\n");
  EXPECT_EQ(SortedRows(Scan({"--select", "id", "--where", "order_ts >= '2026-10-21T21:00:00'"})), "2\n3\n4\n");
}

TEST_F(EvolveCliTest, DropPartitionByNameRemovesItFromTheSpecOfNewFiles) {
  ASSERT_NO_FATAL_FAILURE(CreateOrders());
  Ok({"table", "evolve", "shop.e", "--add-partition", "hour(order_ts)"});
  Ok({"table", "evolve", "shop.e", "--drop-partition", "order_ts_day"});
  const auto m = Metadata("shop.e");
  ASSERT_EQ(m.default_spec()->fields.size(), 1u);
  EXPECT_EQ(m.default_spec()->fields[0].name, "order_ts_hour");
  EXPECT_EQ(m.partition_specs.size(), 3u);
  Write("new.csv", "id,order_ts,qty,note\n3,2026-10-22T05:30:00,9,c\n");
  Ok({"table", "append", "shop.e", "new.csv"});
  EXPECT_EQ(FilePartitions(),
            (std::map<std::string, int>{{"order_ts_day=2026-10-21", 1}, {"order_ts_hour=2026-10-22-05", 1}}));
  EXPECT_EQ(SortedRows(Scan({"--select", "id,note"})), "1,a\n2,b\n3,c\n");
  EXPECT_EQ(Count("shop.e", {"--where", "order_ts > '2026-10-22T00:00:00'"}), 1);
}

TEST_F(EvolveCliTest, DropPartitionInFormatOneKeepsTheFieldAsVoid) {
  // spec: v1 specs cannot lose fields; a dropped field becomes void.
  ASSERT_NO_FATAL_FAILURE(CreateOrders("1"));
  Ok({"table", "evolve", "shop.e", "--drop-partition", "order_ts_day"});
  const auto m = Metadata("shop.e");
  EXPECT_EQ(m.format_version, 1);
  ASSERT_EQ(m.default_spec()->fields.size(), 1u);
  EXPECT_TRUE(m.default_spec()->fields[0].transform.is_void());
  Write("new.csv", "id,order_ts,qty,note\n3,2026-10-23T05:30:00,9,c\n");
  Ok({"table", "append", "shop.e", "new.csv"});
  EXPECT_EQ(FilePartitions(), (std::map<std::string, int>{{"order_ts_day=2026-10-21", 1}, {"order_ts_day=null", 1}}));
  EXPECT_EQ(SortedRows(Scan({"--select", "id"})), "1\n2\n3\n");
}

TEST_F(EvolveCliTest, BadEvolutionsAreOneLineErrorsAndChangeNothing) {
  ASSERT_NO_FATAL_FAILURE(CreateOrders());
  Ok({"table", "evolve", "shop.e", "--add-partition", "hour(order_ts)"});
  Ok({"table", "evolve", "shop.e", "--drop-partition", "order_ts_day"});
  const std::string before = MetadataLocation("shop.e");
  const std::string rows = Scan();
  ExpectUserErrors(
      {"table", "evolve", "shop.e"},
      {
          {{"--promote", "qty short"}, "unknown type 'short' at position 10 of 'qty short'"},
          {{"--promote", "id int"}, "cannot change column 'id' from long to int: not an allowed type promotion"},
          {{"--promote", "note long"}, "cannot change column 'note' from string to long"},
          {{"--promote", "nosuch long"}, "cannot update column 'nosuch': no such column"},
          {{"--promote", "qty"}, "expected a type at position 4 of 'qty'"},
          {{"--promote", "qty long not null"}, "cannot make column 'qty' required: --promote changes only the type"},
          {{"--drop-column", "nosuch"}, "cannot delete column 'nosuch': no such column"},
          {{"--drop-partition", "nosuch"}, "cannot remove partition field 'nosuch': no such field"},
          {{"--add-partition", "hour(nosuch)"}, "cannot partition by 'nosuch': no such column"},
          {{"--add-partition", "hour(qty)"}, "cannot partition by hour(qty): not defined for int"},
          {{"--add-partition", "hour(order_ts)"}, "the spec already partitions by hour(order_ts) as 'order_ts_hour'"},
          {{"--add-partition", "hour(order_ts"}, "expected ')' at position 14 of 'hour(order_ts'"},
          // The column the current spec's hour field, and the old spec's day field, derive from.
          {{"--drop-column", "order_ts"},
           "cannot drop column 'order_ts': partition field 'order_ts_hour' is derived from it"},
          {{"--add-column", "channel string", "--add-partition", "day(order_ts)"},
           "change the schema and the partitioning in separate commands"},
          {{"--add-column", "qty long"}, "cannot add column 'qty': it already exists"},
          {{"--property", "novalue"}, "--property 'novalue': expected k=v"},
          {{}, "evolve: nothing to change"},
      });
  EXPECT_EQ(MetadataLocation("shop.e"), before);
  EXPECT_EQ(Scan(), rows);
  ExpectUserError({"table", "evolve", "shop.nosuch", "--drop-column", "x"}, "table shop.nosuch does not exist");
}

TEST_F(EvolveCliTest, ColumnsThatOldSpecsOrTheSortOrderUseCannotBeDropped) {
  // Dropping them left tables whose scans or writes failed: scans bind every
  // spec their manifests name, writes sort by the sort order.
  ASSERT_NO_FATAL_FAILURE(CreateOrders());
  Ok({"table", "evolve", "shop.e", "--drop-partition", "order_ts_day"});
  ExpectUserError(
      {"table", "evolve", "shop.e", "--drop-column", "order_ts"},
      "cannot drop column 'order_ts': partition field 'order_ts_day' of spec 0, which older data files were "
      "written with, is derived from it");
  EXPECT_EQ(Count("shop.e"), 2);

  Ok({"table", "create", "shop.sorted", "--schema", "id long, ts timestamp", "--sort", "ts desc"});
  ExpectUserError({"table", "evolve", "shop.sorted", "--drop-column", "ts"},
                  "cannot drop column 'ts': the table's sort order uses it");
  Write("s.csv", "id,ts\n1,2026-10-21T20:15:00\n2,2026-10-21T21:15:00\n");
  Ok({"table", "append", "shop.sorted", "s.csv"});
  EXPECT_EQ(Ok({"--format", "csv", "table", "scan", "shop.sorted", "--select", "id"}), "id\n2\n1\n");
  // A column nothing derives from goes.
  Ok({"table", "evolve", "shop.sorted", "--drop-column", "id"});
  EXPECT_EQ(Ok({"--format", "csv", "table", "scan", "shop.sorted"}),
            "ts\n2026-10-21T21:15:00.000000\n2026-10-21T20:15:00.000000\n");
}

}  // namespace
}  // namespace floe
