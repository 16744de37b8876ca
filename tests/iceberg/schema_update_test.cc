#include "floe/iceberg/update/schema_update.h"

#include <gtest/gtest.h>

#include "floe/iceberg/update/partition_spec_update.h"
#include "schema_test_util.h"

namespace floe::iceberg {
namespace {

using testing::Column;

// id, ts, address struct<city, zip>, tags list<string>, amount decimal(9,2), score float
Schema Base() {
  auto address = Type::Struct({Column(4, "city", Type::String()), Column(5, "zip", Type::Int())});
  return Schema::Make(0, {Column(1, "id", Type::Long(), true), Column(2, "ts", Type::Timestamp()),
                          Column(3, "address", address), Column(6, "tags", Type::List(7, Type::String(), false)),
                          Column(8, "amount", Type::Decimal(9, 2).value()), Column(9, "score", Type::Float())},
                      {1})
      .value();
}

std::vector<std::string> TopNames(const Schema& s) {
  std::vector<std::string> names;
  for (const NestedField& f : s.fields()) names.push_back(f.name);
  return names;
}

TEST(SchemaUpdateTest, AddedColumnsGetFreshIdsAboveLastColumnId) {
  SchemaUpdate update(Base(), 12, 2);
  update.AddColumn("channel", Type::String()).AddColumn("address.country", Type::String());
  update.AddColumn("props", Type::Map(1, Type::String(), 2, Type::Int(), false));
  auto applied = update.Apply().value();
  EXPECT_EQ(applied.schema.FindFieldByName("channel")->field_id, 13);
  EXPECT_FALSE(applied.schema.FindFieldByName("channel")->required);
  EXPECT_EQ(applied.schema.FindFieldByName("address.country")->field_id, 14);
  // The map's key and value ids are reassigned too.
  EXPECT_EQ(applied.schema.FindFieldByName("props")->field_id, 15);
  EXPECT_EQ(applied.schema.FindFieldByName("props.key")->field_id, 16);
  EXPECT_EQ(applied.schema.FindFieldByName("props.value")->field_id, 17);
  EXPECT_EQ(applied.last_column_id, 17);
  EXPECT_EQ(applied.schema.identifier_field_ids(), std::vector<int32_t>{1});
}

TEST(SchemaUpdateTest, RenameDropPromoteAndMoveKeepIds) {
  SchemaUpdate update(Base(), 9, 2);
  update.RenameColumn("ts", "order_ts")
      .DeleteColumn("tags")
      .UpdateColumnType("amount", Type::Decimal(18, 2).value())
      .UpdateColumnType("score", Type::Double())
      .MakeColumnOptional("id")
      .MoveFirst("amount")
      .MoveAfter("address.zip", "address.city")
      .MoveBefore("address.zip", "address.city")
      .SetIdentifierFields({});
  auto applied = update.Apply().value();
  EXPECT_EQ(TopNames(applied.schema), (std::vector<std::string>{"amount", "id", "order_ts", "address", "score"}));
  EXPECT_EQ(applied.schema.FindFieldByName("order_ts")->field_id, 2);
  EXPECT_EQ(applied.schema.FindFieldByName("amount")->type->precision(), 18);
  EXPECT_EQ(applied.schema.FindFieldByName("score")->type->id(), TypeId::kDouble);
  EXPECT_FALSE(applied.schema.FindFieldByName("id")->required);
  EXPECT_EQ(applied.schema.FindFieldByName("address")->type->fields()[0].name, "zip");
  EXPECT_EQ(applied.schema.FindFieldById(6), nullptr);
  EXPECT_EQ(applied.last_column_id, 9);
}

TEST(SchemaUpdateTest, RejectsWhatTheSpecForbids) {
  auto error = [](SchemaUpdate& u) { return u.Apply().status(); };
  {
    SchemaUpdate u(Base(), 9, 2);
    u.UpdateColumnType("id", Type::Int());  // long → int narrows
    EXPECT_NE(error(u).message().find("not an allowed type promotion"), std::string::npos);
  }
  {
    SchemaUpdate u(Base(), 9, 2);
    u.UpdateColumnType("amount", Type::Decimal(18, 3).value());  // scale changes
    EXPECT_EQ(error(u).code(), StatusCode::kInvalidArgument);
  }
  {
    SchemaUpdate u(Base(), 9, 2);
    u.AddColumn("id", Type::Long());
    EXPECT_NE(error(u).message().find("already exists"), std::string::npos);
  }
  {
    SchemaUpdate u(Base(), 9, 2);
    u.RenameColumn("nope", "x");
    EXPECT_NE(error(u).message().find("'nope'"), std::string::npos);
  }
  {
    SchemaUpdate u(Base(), 9, 2);
    u.AddColumn("ts.part", Type::Int());
    EXPECT_NE(error(u).message().find("not a struct"), std::string::npos);
  }
  {
    SchemaUpdate u(Base(), 9, 2);
    u.DeleteColumn("id");  // the identifier field
    EXPECT_NE(error(u).message().find("identifier"), std::string::npos);
  }
  {
    SchemaUpdate u(Base(), 9, 2);
    u.AddRequiredColumn("must", Type::Int(), "0");
    EXPECT_NE(error(u).message().find("format version 3"), std::string::npos);
  }
  {
    SchemaUpdate u(Base(), 9, 2);
    u.MoveAfter("address.zip", "id");
    EXPECT_NE(error(u).message().find("different structs"), std::string::npos);
  }
}

TEST(SchemaUpdateTest, V3AddsRequiredColumnsWithDefaultsAndPromotesDates) {
  auto with_date = Schema::Make(0, {Column(1, "d", Type::Date())}).value();
  SchemaUpdate u(with_date, 1, 3);
  u.AddRequiredColumn("flag", Type::Boolean(), "true").UpdateColumnType("d", Type::Timestamp());
  auto applied = u.Apply().value();
  const NestedField* flag = applied.schema.FindFieldByName("flag");
  ASSERT_NE(flag, nullptr);
  EXPECT_TRUE(flag->required);
  EXPECT_EQ(flag->initial_default, "true");
  EXPECT_EQ(applied.schema.FindFieldByName("d")->type->id(), TypeId::kTimestamp);
  EXPECT_FALSE(IsAllowedPromotion(*Type::Date(), *Type::Timestamp(), 2));
}

TEST(PartitionSpecUpdateTest, AddsRemovesAndRecyclesFields) {
  Schema schema = Base();
  PartitionSpec day;
  day.fields.push_back(PartitionField{{2}, 1000, "ts_day", Transform::Day()});
  PartitionSpecUpdate add({day}, day, schema, 1000, 2);
  add.AddField("id", Transform::Bucket(16).value()).AddField("address.city", Transform::Identity());
  auto applied = add.Apply().value();
  ASSERT_EQ(applied.spec.fields.size(), 3u);
  EXPECT_EQ(applied.spec.fields[1].name, "id_bucket");
  EXPECT_EQ(applied.spec.fields[1].field_id, 1001);
  EXPECT_EQ(applied.spec.fields[2].name, "address.city");
  EXPECT_EQ(applied.last_partition_id, 1002);

  // v2 drops the field; adding it back recycles id 1000.
  PartitionSpecUpdate drop({day}, day, schema, 1000, 2);
  PartitionSpec none = drop.RemoveField("ts_day").Apply().value().spec;
  EXPECT_TRUE(none.fields.empty());
  PartitionSpecUpdate again({day, none}, none, schema, 1000, 2);
  EXPECT_EQ(again.AddField("ts", Transform::Day()).Apply().value().spec.fields[0].field_id, 1000);

  // v1 keeps the field as void.
  PartitionSpecUpdate v1({day}, day, schema, 1000, 1);
  auto voided = v1.RemoveField("ts_day").Apply().value().spec;
  ASSERT_EQ(voided.fields.size(), 1u);
  EXPECT_TRUE(voided.fields[0].transform.is_void());

  PartitionSpecUpdate bad({day}, day, schema, 1000, 2);
  EXPECT_NE(bad.AddField("ts", Transform::Day()).Apply().status().message().find("already partitions"),
            std::string::npos);
  PartitionSpecUpdate bad_type({day}, day, schema, 1000, 2);
  EXPECT_NE(bad_type.AddField("score", Transform::Day()).Apply().status().message().find("not defined for float"),
            std::string::npos);
}

}  // namespace
}  // namespace floe::iceberg
