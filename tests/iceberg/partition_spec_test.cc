#include "floe/iceberg/partition_spec.h"

#include <gtest/gtest.h>

#include "floe/iceberg/schema_json.h"
#include "floe/iceberg/table_metadata_json.h"

namespace floe::iceberg {
namespace {

Schema Orders() {
  return Schema::Make(0, {NestedField{1, "order_id", Type::Long(), true, {}, {}, {}},
                          NestedField{2, "order_ts", Type::TimestampTz(), false, {}, {}, {}},
                          NestedField{3, "city", Type::String(), false, {}, {}, {}}})
      .value();
}

PartitionSpec DayAndBucket() {
  PartitionSpec spec;
  spec.spec_id = 1;
  spec.fields = {PartitionField{{2}, 1000, "order_ts_day", Transform::Day()},
                 PartitionField{{1}, 1001, "order_id_bucket", Transform::Bucket(16).value()},
                 PartitionField{{3}, 1002, "city_trunc", Transform::Truncate(2).value()}};
  return spec;
}

TEST(PartitionSpecTest, PartitionTypeFollowsTheTransforms) {
  auto type = DayAndBucket().PartitionType(Orders());
  ASSERT_TRUE(type.ok()) << type.status().ToString();
  ASSERT_EQ((*type)->fields().size(), 3u);
  EXPECT_EQ((*type)->ToString(),
            "struct<1000: order_ts_day: optional date, 1001: order_id_bucket: optional int, 1002: city_trunc: "
            "optional string>");
  EXPECT_EQ(DayAndBucket().LastAssignedFieldId(), 1002);
  EXPECT_EQ(PartitionSpec{}.LastAssignedFieldId(), 999);
  EXPECT_TRUE(PartitionSpec{}.is_unpartitioned());
  PartitionSpec voided;
  voided.fields = {PartitionField{{1}, 1000, "gone", Transform::Void()}};
  EXPECT_TRUE(voided.is_unpartitioned());
  EXPECT_FALSE(DayAndBucket().is_unpartitioned());
}

TEST(PartitionSpecTest, ValidationNamesTheField) {
  EXPECT_TRUE(ValidatePartitionSpec(DayAndBucket(), Orders()).ok());
  PartitionSpec missing = DayAndBucket();
  missing.fields[0].source_ids = {9};
  EXPECT_EQ(ValidatePartitionSpec(missing, Orders()).message(),
            "partition field 'order_ts_day': source column 9 is not in the schema");
  PartitionSpec wrong = DayAndBucket();
  wrong.fields[2].transform = Transform::Hour();
  EXPECT_EQ(ValidatePartitionSpec(wrong, Orders()).message(),
            "partition field 'city_trunc': transform 'hour' cannot be applied to type 'string'");
  PartitionSpec dup = DayAndBucket();
  dup.fields[1].field_id = 1000;
  EXPECT_EQ(ValidatePartitionSpec(dup, Orders()).message(), "partition field id 1000 appears twice");
}

TEST(PartitionSpecTest, JsonRoundTripInBothForms) {
  const PartitionSpec spec = DayAndBucket();
  auto object = PartitionSpecFromJson(PartitionSpecToJson(spec));
  ASSERT_TRUE(object.ok()) << object.status().ToString();
  EXPECT_EQ(*object, spec);
  // Manifest headers carry the bare fields array.
  auto array = PartitionSpecFromJson(
      R"([{"name":"order_ts_day","transform":"day","source-id":2,"field-id":1000},
          {"name":"b","transform":"bucket[16]","source-id":1}])",
      7);
  ASSERT_TRUE(array.ok()) << array.status().ToString();
  EXPECT_EQ(array->spec_id, 7);
  EXPECT_EQ(array->fields[1].field_id, 1001);
  EXPECT_EQ(array->fields[1].transform, Transform::Bucket(16).value());
}

TEST(PartitionSpecTest, MultiArgumentSourceIdsNeedV3AndRoundTrip) {
  const std::string v3 = R"({"format-version":3,"table-uuid":"u","location":"l","last-sequence-number":0,
    "last-updated-ms":1,"last-column-id":2,"next-row-id":0,"current-schema-id":0,
    "schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":true,"type":"long"},
                                                         {"id":2,"name":"b","required":true,"type":"long"}]}],
    "default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[
      {"name":"ab","transform":"zorder","source-ids":[1,2],"field-id":1000}]}],"last-partition-id":1000,
    "default-sort-order-id":1,"sort-orders":[{"order-id":0,"fields":[]},{"order-id":1,"fields":[
      {"transform":"zorder","source-ids":[1,2],"direction":"asc","null-order":"nulls-last"}]}]})";
  auto m = TableMetadataFromJson(v3);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const PartitionField& f = m->default_spec()->fields[0];
  EXPECT_EQ(f.source_ids, (std::vector<int32_t>{1, 2}));
  EXPECT_TRUE(f.transform.is_unknown());
  EXPECT_EQ(f.transform.ToString(), "zorder");
  EXPECT_EQ(m->default_sort_order()->fields[0].source_ids, (std::vector<int32_t>{1, 2}));
  const std::string json = TableMetadataToJson(*m).value();
  EXPECT_NE(json.find(R"("source-ids":[1,2])"), std::string::npos) << json;
  EXPECT_TRUE(TableMetadataFromJson(json).value() == *m);

  std::string v2 = v3;
  v2.replace(v2.find(R"("format-version":3)"), 18, R"("format-version":2)");
  auto rejected = TableMetadataFromJson(v2, "t.json");
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().message(),
            "table metadata 't.json': partition spec 0 field 'ab': multi-argument transforms need format v3");
}

}  // namespace
}  // namespace floe::iceberg
