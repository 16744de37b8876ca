#include "floe/iceberg/table_update.h"
#include "schema_test_util.h"

#include <gtest/gtest.h>

namespace floe::iceberg {
namespace table_update_test {  // the unity build merges anonymous namespaces
namespace {

using testing::Column;

Schema OrdersSchema() {
  return Schema::Make(0, {Column(1, "order_id", Type::Long(), true), Column(2, "order_ts", Type::Timestamp())}).value();
}

// The updates a REST create transaction sends.
std::vector<TableUpdate> CreateUpdates(int format_version) {
  PartitionSpec spec;
  spec.fields.push_back(PartitionField{{2}, 1000, "order_ts_day", Transform::Day()});
  return {AssignUuid{"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
          UpgradeFormatVersion{format_version},
          AddSchema{OrdersSchema()},
          SetCurrentSchema{kLastAdded},
          AddPartitionSpec{spec},
          SetDefaultSpec{kLastAdded},
          AddSortOrder{SortOrder{}},
          SetDefaultSortOrder{kLastAdded},
          SetLocation{"s3://bucket/shop/orders"},
          SetProperties{{{"owner", "floe"}}}};
}

TableMetadata Created(int format_version = 2) {
  return ApplyTableChanges(nullptr, {AssertCreate{}}, CreateUpdates(format_version)).value();
}

Snapshot MakeSnapshot(int64_t id, std::optional<int64_t> parent, int64_t sequence_number, int64_t timestamp_ms) {
  Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = parent;
  s.sequence_number = sequence_number;
  s.timestamp_ms = timestamp_ms;
  s.manifest_list = "s3://bucket/shop/orders/metadata/snap-" + std::to_string(id) + ".avro";
  s.operation = "append";
  s.schema_id = 0;
  return s;
}

SnapshotRef Branch(int64_t snapshot_id) {
  SnapshotRef ref;
  ref.snapshot_id = snapshot_id;
  return ref;
}

TEST(TableUpdateTest, CreateTransactionBuildsAValidTable) {
  TableMetadata m = Created();
  EXPECT_EQ(m.format_version, 2);
  EXPECT_EQ(m.table_uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1");
  EXPECT_EQ(m.location, "s3://bucket/shop/orders");
  EXPECT_EQ(m.last_column_id, 2);
  EXPECT_EQ(m.last_partition_id, 1000);
  ASSERT_NE(m.default_spec(), nullptr);
  EXPECT_EQ(m.default_spec()->fields.size(), 1u);
  EXPECT_EQ(m.properties.at("owner"), "floe");
  EXPECT_FALSE(m.current_snapshot_id.has_value());
  EXPECT_GT(m.last_updated_ms, 0);
}

TEST(TableUpdateTest, AssertCreateFailsOnAnExistingTable) {
  TableMetadata m = Created();
  auto again = ApplyTableChanges(&m, {AssertCreate{}}, {});
  EXPECT_EQ(again.status().code(), StatusCode::kCommitConflict);
  EXPECT_NE(again.status().message().find("already exists"), std::string::npos);
}

TEST(TableUpdateTest, AppendMovesMainAndLogsTheSnapshot) {
  TableMetadata m = Created();
  auto next = ApplyTableChanges(&m, {AssertRefSnapshotId{"main", std::nullopt}},
                                {AddSnapshot{MakeSnapshot(11, std::nullopt, 1, 4102444800000)},
                                 SetSnapshotRef{"main", Branch(11)}})
                  .value();
  EXPECT_EQ(next.current_snapshot_id, 11);
  EXPECT_EQ(next.last_sequence_number, 1);
  ASSERT_EQ(next.snapshot_log.size(), 1u);
  EXPECT_EQ(next.snapshot_log[0].snapshot_id, 11);
  EXPECT_EQ(next.snapshot_log[0].timestamp_ms, 4102444800000);
  EXPECT_EQ(next.last_updated_ms, 4102444800000);

  // A second writer that also saw no snapshot loses the race.
  auto stale = ApplyTableChanges(&next, {AssertRefSnapshotId{"main", std::nullopt}}, {});
  EXPECT_EQ(stale.status().code(), StatusCode::kCommitConflict);
  EXPECT_NE(stale.status().message().find("branch main exists (snapshot 11)"), std::string::npos);
  auto stale2 = ApplyTableChanges(&next, {AssertRefSnapshotId{"main", 10}}, {});
  EXPECT_NE(stale2.status().message().find("branch main is at snapshot 11, expected 10"), std::string::npos);
}

TEST(TableUpdateTest, RejectsSnapshotsThatBreakTheSequence) {
  TableMetadata m = Created();
  TableMetadataBuilder builder(m);
  ASSERT_TRUE(builder.Apply(AddSnapshot{MakeSnapshot(1, std::nullopt, 1, 1000)}).ok());
  // Not above the last sequence number.
  Status stale = builder.Apply(AddSnapshot{MakeSnapshot(2, 1, 1, 2000)});
  EXPECT_EQ(stale.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(stale.message().find("sequence number 1"), std::string::npos);
  // Duplicate ids; refs to unknown snapshots.
  EXPECT_EQ(builder.Apply(AddSnapshot{MakeSnapshot(1, std::nullopt, 5, 1000)}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(builder.Apply(SetSnapshotRef{"main", Branch(99)}).code(), StatusCode::kInvalidArgument);
  // A failed update leaves the builder as it was.
  EXPECT_EQ(builder.Build().value().snapshots.size(), 1u);
}

TEST(TableUpdateTest, V3SnapshotsAdvanceNextRowId) {
  TableMetadata m = Created(3);
  EXPECT_EQ(m.next_row_id, 0);
  Snapshot s = MakeSnapshot(1, std::nullopt, 1, 1000);
  s.first_row_id = 0;
  s.added_rows = 60;
  auto next = ApplyTableChanges(&m, {}, {AddSnapshot{s}, SetSnapshotRef{"main", Branch(1)}}).value();
  EXPECT_EQ(next.next_row_id, 60);
  Snapshot behind = MakeSnapshot(2, 1, 2, 2000);
  behind.first_row_id = 10;
  behind.added_rows = 5;
  EXPECT_EQ(ApplyTableChanges(&next, {}, {AddSnapshot{behind}}).status().code(), StatusCode::kInvalidArgument);
}

TEST(TableUpdateTest, RemovingSnapshotsTrimsRefsAndTheLog) {
  TableMetadata m = Created();
  std::vector<TableUpdate> updates;
  for (int64_t id = 1; id <= 3; ++id) {
    updates.push_back(AddSnapshot{MakeSnapshot(id, id == 1 ? std::nullopt : std::optional<int64_t>(id - 1), id, id * 1000)});
    updates.push_back(SetSnapshotRef{"main", Branch(id)});
  }
  SnapshotRef tag = Branch(1);
  tag.type = SnapshotRefType::kTag;
  updates.push_back(SetSnapshotRef{"first", tag});
  TableMetadata three = ApplyTableChanges(&m, {}, updates).value();
  ASSERT_EQ(three.snapshot_log.size(), 3u);

  TableMetadata two = ApplyTableChanges(&three, {}, {RemoveSnapshots{{1}}}).value();
  EXPECT_EQ(two.snapshots.size(), 2u);
  EXPECT_EQ(two.refs.count("first"), 0u);
  ASSERT_EQ(two.snapshot_log.size(), 2u);
  EXPECT_EQ(two.snapshot_log[0].snapshot_id, 2);
  EXPECT_EQ(two.current_snapshot_id, 3);
}

TEST(TableUpdateTest, ReAddingAnEqualSchemaReusesItsId) {
  TableMetadata m = Created();
  Schema wider = Schema::Make(7, {Column(1, "order_id", Type::Long(), true), Column(2, "order_ts", Type::Timestamp()),
                                  Column(3, "channel", Type::String())})
                     .value();
  TableMetadata evolved = ApplyTableChanges(&m, {AssertCurrentSchemaId{0}, AssertLastAssignedFieldId{2}},
                                            {AddSchema{wider}, SetCurrentSchema{kLastAdded}})
                              .value();
  EXPECT_EQ(evolved.current_schema_id, 1);  // the id the builder assigns, not the one sent
  EXPECT_EQ(evolved.last_column_id, 3);
  TableMetadata back = ApplyTableChanges(&evolved, {}, {AddSchema{OrdersSchema()}, SetCurrentSchema{kLastAdded}}).value();
  EXPECT_EQ(back.schemas.size(), 2u);
  EXPECT_EQ(back.current_schema_id, 0);
  EXPECT_EQ(ApplyTableChanges(&back, {AssertLastAssignedFieldId{2}}, {}).status().code(),
            StatusCode::kCommitConflict);
}

TEST(TableUpdateTest, RefusesDowngradesAndUnknownIds) {
  TableMetadata m = Created(2);
  EXPECT_EQ(ApplyTableChanges(&m, {}, {UpgradeFormatVersion{1}}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ApplyTableChanges(&m, {}, {UpgradeFormatVersion{4}}).status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(ApplyTableChanges(&m, {}, {SetCurrentSchema{5}}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ApplyTableChanges(&m, {}, {SetDefaultSpec{kLastAdded}}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ApplyTableChanges(&m, {}, {RemoveSchemas{{0}}}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(TableUpdateAction(TableUpdate{RemovePartitionStatistics{}}), "remove-partition-statistics");
  EXPECT_EQ(TableRequirementType(TableRequirement{AssertDefaultSortOrderId{}}), "assert-default-sort-order-id");
}

}  // namespace
}  // namespace table_update_test
}  // namespace floe::iceberg
