// `floe table create --sort --property --format-version`: the metadata the
// table starts with, what `describe` shows of it, writes that follow the
// sort order, and bad definitions that create nothing.

#include <gtest/gtest.h>

#include "testing/table_cli.h"

namespace floe {
namespace {

class CreateCliTest : public testing::TableCliTest {};

TEST_F(CreateCliTest, SortOrderPropertiesAndFormatVersionLandInTheMetadata) {
  Ok({"namespace", "create", "shop"});
  for (int version : {1, 2, 3}) {
    SCOPED_TRACE(version);
    const std::string table = "shop.v" + std::to_string(version);
    EXPECT_EQ(Ok({"table", "create", table, "--schema", "id long not null, ts timestamp, city string", "--sort",
                  "day(ts) desc nulls first, id", "--property", "owner=ann", "--property", "commit.retry.num-retries=7",
                  "--format-version", std::to_string(version)}),
              "created table " + table + " at " + Path("warehouse/shop/v" + std::to_string(version)) + "\n");
    const auto m = Metadata(table);
    EXPECT_EQ(m.format_version, version);
    EXPECT_EQ(m.next_row_id.has_value(), version == 3);
    EXPECT_EQ(m.properties.at("owner"), "ann");
    EXPECT_EQ(m.properties.at("commit.retry.num-retries"), "7");
    EXPECT_EQ(m.default_sort_order_id, 1);
    const auto* order = m.default_sort_order();
    ASSERT_NE(order, nullptr);
    ASSERT_EQ(order->fields.size(), 2u);
    const auto* schema = m.current_schema();
    EXPECT_EQ(schema->FindColumnName(order->fields[0].source_id()), "ts");
    EXPECT_EQ(order->fields[0].transform.ToString(), "day");
    EXPECT_EQ(order->fields[0].direction, iceberg::SortDirection::kDesc);
    EXPECT_EQ(order->fields[0].null_order, iceberg::NullOrder::kNullsFirst);
    EXPECT_EQ(schema->FindColumnName(order->fields[1].source_id()), "id");
    EXPECT_EQ(order->fields[1].transform.ToString(), "identity");
    EXPECT_EQ(order->fields[1].direction, iceberg::SortDirection::kAsc);
    EXPECT_EQ(order->fields[1].null_order, iceberg::NullOrder::kNullsFirst);

    const std::string described = Ok({"table", "describe", table});
    EXPECT_NE(described.find("\nformat-version: " + std::to_string(version) + "\n"), std::string::npos) << described;
    EXPECT_NE(described.find("\nsort order 1: day(ts) desc nulls-first, identity(id) asc nulls-first\n"),
              std::string::npos)
        << described;
    EXPECT_NE(described.find(" owner=ann"), std::string::npos) << described;

    // Written rows follow the sort order: the later day first, ids ascending within a day.
    Write("rows.csv",
          "id,ts,city\n3,2026-10-21T09:00:00,a\n1,2026-10-22T10:00:00,b\n2,2026-10-21T08:00:00,c\n"
          "0,2026-10-22T07:00:00,d\n");
    Ok({"table", "append", table, "rows.csv"});
    EXPECT_EQ(Ok({"--format", "csv", "table", "scan", table, "--select", "id"}), "id\n0\n1\n2\n3\n");
    EXPECT_EQ(Count(table, {"--where", "ts >= '2026-10-22T00:00:00'"}), 2);
    const auto written = Metadata(table);
    ASSERT_NE(written.current_snapshot(), nullptr);
    // v1 has no sequence numbers; v3 assigns row ids.
    EXPECT_EQ(written.last_sequence_number, version == 1 ? 0 : 1);
    if (version == 3) {
      EXPECT_EQ(written.next_row_id, 4);
    }
  }
}

TEST_F(CreateCliTest, DefaultsAreFormatTwoUnsortedWithoutProperties) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.t", "--schema", "id long"});
  const auto m = Metadata("shop.t");
  EXPECT_EQ(m.format_version, 2);
  EXPECT_EQ(m.default_sort_order_id, 0);
  EXPECT_EQ(m.properties.count("owner"), 0u);
  EXPECT_NE(Ok({"table", "describe", "shop.t"}).find("\nsort order 0:\n"), std::string::npos);
}

TEST_F(CreateCliTest, BadDefinitionsCreateNothing) {
  Ok({"namespace", "create", "shop"});
  ExpectUserErrors(
      {"table", "create", "shop.bad", "--schema", "id long not null, ts timestamp"},
      {
          {{"--format-version", "4"}, "--format-version: Value 4 not in range 1 to 3"},
          {{"--format-version", "0"}, "--format-version: Value 0 not in range 1 to 3"},
          {{"--property", "novalue"}, "--property 'novalue': expected k=v"},
          {{"--property", "=v"}, "--property '=v': expected k=v"},
          {{"--sort", "nosuch"}, "cannot sort by 'nosuch': no such column"},
          {{"--sort", "id sideways"}, "expected ',' or the end at position 4 of 'id sideways'"},
          {{"--sort", "bucket(0, id)"}, "transform bucket[0]: N must be > 0 at position 10 of 'bucket(0, id)'"},
          {{"--partition", "day(id)"}, "cannot partition by day(id): not defined for long"},
          {{"--partition", "nosuch"}, "cannot partition by 'nosuch': no such column"},
      });
  ExpectUserError({"table", "create", "shop.bad", "--schema", "id lng"},
                  "unknown type 'lng' at position 7 of 'id lng'");
  ExpectUserError({"table", "create", "nosuch.bad", "--schema", "id long"},
                  "NotFound: namespace nosuch does not exist");
  EXPECT_TRUE(CsvRows({"table", "list", "shop"}).empty());
  ExpectUserError({"table", "describe", "shop.bad"}, "table shop.bad does not exist");
}

}  // namespace
}  // namespace floe
