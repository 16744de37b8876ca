#include "floe/iceberg/new_table_metadata.h"

#include <gtest/gtest.h>

#include "floe/iceberg/metadata_io.h"
#include "floe/io/file_io.h"
#include "schema_test_util.h"

namespace floe::iceberg {
namespace {

using testing::Column;

// Ids chosen far from what the table will get, to see every one replaced.
Schema NestedSchema() {
  TypePtr point = Type::Struct({Column(30, "x", Type::Double(), true), Column(40, "y", Type::Double(), true)});
  TypePtr tags = Type::List(60, Type::String(), false);
  TypePtr attr_value = Type::Struct({Column(100, "a", Type::Int())});
  TypePtr attrs = Type::Map(80, Type::String(), 90, attr_value, false);
  return Schema::Make(7,
                      {Column(10, "id", Type::Long(), true), Column(20, "point", point), Column(50, "tags", tags),
                       Column(70, "attrs", attrs), Column(110, "ts", Type::Timestamp())},
                      {10})
      .value();
}

TableDefinition Definition(int format_version = 2) {
  TableDefinition d;
  d.schema = NestedSchema();
  d.location = "s3://bucket/shop/orders/";
  d.format_version = format_version;
  return d;
}

int32_t IdOf(const TableMetadata& m, std::string_view name) {
  const NestedField* field = m.current_schema()->FindFieldByName(name);
  return field == nullptr ? -1 : field->field_id;
}

TEST(NewTableMetadataTest, AssignsFreshIdsInJavasOrder) {
  TableMetadata m = NewTableMetadata(Definition()).value();
  // A struct's own fields first (1..5), then each field's children in order.
  EXPECT_EQ(IdOf(m, "id"), 1);
  EXPECT_EQ(IdOf(m, "point"), 2);
  EXPECT_EQ(IdOf(m, "tags"), 3);
  EXPECT_EQ(IdOf(m, "attrs"), 4);
  EXPECT_EQ(IdOf(m, "ts"), 5);
  EXPECT_EQ(IdOf(m, "point.x"), 6);
  EXPECT_EQ(IdOf(m, "point.y"), 7);
  EXPECT_EQ(IdOf(m, "tags.element"), 8);
  EXPECT_EQ(IdOf(m, "attrs.key"), 9);
  EXPECT_EQ(IdOf(m, "attrs.value"), 10);
  EXPECT_EQ(IdOf(m, "attrs.value.a"), 11);
  EXPECT_EQ(m.last_column_id, 11);
  EXPECT_EQ(m.current_schema_id, 0);
  EXPECT_EQ(m.current_schema()->schema_id(), 0);
  EXPECT_EQ(m.current_schema()->identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_TRUE(m.current_schema()->FindFieldByName("point.x")->required);
  EXPECT_FALSE(m.current_schema()->FindFieldByName("tags.element")->required);
}

TEST(NewTableMetadataTest, RemapsPartitionAndSortSourcesAndNumbersTheirIds) {
  TableDefinition d = Definition();
  d.partition_spec.spec_id = 9;
  d.partition_spec.fields.push_back(PartitionField{{110}, 5, "ts_day", Transform::Day()});
  d.partition_spec.fields.push_back(PartitionField{{10}, 6, "id_bucket", Transform::Bucket(16).value()});
  d.sort_order.order_id = 4;
  d.sort_order.fields.push_back(SortField{Transform::Identity(), {10}, SortDirection::kDesc, NullOrder::kNullsLast});
  TableMetadata m = NewTableMetadata(d).value();

  ASSERT_EQ(m.partition_specs.size(), 1u);
  const PartitionSpec& spec = *m.default_spec();
  EXPECT_EQ(spec.spec_id, 0);
  ASSERT_EQ(spec.fields.size(), 2u);
  EXPECT_EQ(spec.fields[0].field_id, 1000);
  EXPECT_EQ(spec.fields[0].source_ids, std::vector<int32_t>{5});
  EXPECT_EQ(spec.fields[0].name, "ts_day");
  EXPECT_EQ(spec.fields[1].field_id, 1001);
  EXPECT_EQ(spec.fields[1].source_ids, std::vector<int32_t>{1});
  EXPECT_EQ(m.last_partition_id, 1001);

  EXPECT_EQ(m.default_sort_order_id, 1);
  ASSERT_NE(m.default_sort_order(), nullptr);
  ASSERT_EQ(m.default_sort_order()->fields.size(), 1u);
  EXPECT_EQ(m.default_sort_order()->fields[0].source_ids, std::vector<int32_t>{1});
  EXPECT_EQ(m.default_sort_order()->fields[0].direction, SortDirection::kDesc);
}

TEST(NewTableMetadataTest, UnpartitionedUnsortedTable) {
  TableMetadata m = NewTableMetadata(Definition()).value();
  EXPECT_TRUE(m.default_spec()->fields.empty());
  EXPECT_EQ(m.last_partition_id, 999);
  EXPECT_EQ(m.default_sort_order_id, 0);
  ASSERT_EQ(m.sort_orders.size(), 1u);
  EXPECT_TRUE(m.sort_orders[0].is_unsorted());
}

TEST(NewTableMetadataTest, FreshTableState) {
  TableMetadata a = NewTableMetadata(Definition()).value();
  TableMetadata b = NewTableMetadata(Definition()).value();
  EXPECT_EQ(a.format_version, 2);
  EXPECT_EQ(a.table_uuid.size(), 36u);
  EXPECT_NE(a.table_uuid, b.table_uuid);
  EXPECT_EQ(a.location, "s3://bucket/shop/orders");
  EXPECT_EQ(a.last_sequence_number, 0);
  EXPECT_FALSE(a.current_snapshot_id.has_value());
  EXPECT_TRUE(a.snapshots.empty());
  EXPECT_TRUE(a.metadata_log.empty());
  EXPECT_GT(a.last_updated_ms, 0);
  EXPECT_FALSE(a.next_row_id.has_value());
  EXPECT_EQ(a.properties.at("write.parquet.compression-codec"), "zstd");
}

TEST(NewTableMetadataTest, FormatVersionsAndTheReservedProperty) {
  TableMetadata v1 = NewTableMetadata(Definition(1)).value();
  EXPECT_EQ(v1.format_version, 1);
  EXPECT_FALSE(v1.table_uuid.empty());  // optional in v1, but Java assigns one
  TableMetadata v3 = NewTableMetadata(Definition(3)).value();
  EXPECT_EQ(v3.format_version, 3);
  EXPECT_EQ(v3.next_row_id, 0);

  TableDefinition d = Definition(2);
  d.properties = {{"format-version", "3"},
                  {"owner", "floe"},
                  {"write.parquet.compression-codec", "snappy"},
                  {"current-snapshot-id", "5"}};
  TableMetadata m = NewTableMetadata(d).value();
  EXPECT_EQ(m.format_version, 3);
  EXPECT_EQ(m.properties,
            (std::map<std::string, std::string>{{"owner", "floe"}, {"write.parquet.compression-codec", "snappy"}}));
}

TEST(NewTableMetadataTest, RoundTripsThroughAMetadataFile) {
  TableDefinition d = Definition(3);
  d.partition_spec.fields.push_back(PartitionField{{110}, 0, "ts_hour", Transform::Hour()});
  TableMetadata m = NewTableMetadata(d).value();
  auto io = NewMemoryFileIO();
  ASSERT_TRUE(WriteTableMetadata(*io, "mem://t/metadata/00000-x.metadata.json", m).ok());
  TableMetadata back = ReadTableMetadata(*io, "mem://t/metadata/00000-x.metadata.json").value();
  EXPECT_EQ(back, m);
}

TEST(NewTableMetadataTest, RejectsBadDefinitions) {
  TableDefinition no_location = Definition();
  no_location.location = "";
  EXPECT_EQ(NewTableMetadata(no_location).status().code(), StatusCode::kInvalidArgument);

  EXPECT_EQ(NewTableMetadata(Definition(4)).status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(NewTableMetadata(Definition(0)).status().code(), StatusCode::kInvalidArgument);
  TableDefinition bad_version = Definition();
  bad_version.properties["format-version"] = "two";
  EXPECT_EQ(NewTableMetadata(bad_version).status().code(), StatusCode::kInvalidArgument);

  TableDefinition missing_source = Definition();
  missing_source.partition_spec.fields.push_back(PartitionField{{999}, 0, "ghost", Transform::Identity()});
  auto missing = NewTableMetadata(missing_source);
  EXPECT_EQ(missing.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(missing.status().message().find("'ghost': source column 999"), std::string::npos)
      << missing.status().ToString();

  TableDefinition v3_type_in_v2 = Definition(2);
  v3_type_in_v2.schema = Schema::Make(0, {Column(1, "v", Type::Variant())}).value();
  EXPECT_EQ(NewTableMetadata(v3_type_in_v2).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace floe::iceberg
