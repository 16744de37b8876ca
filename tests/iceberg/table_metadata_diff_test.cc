#include "floe/iceberg/table_metadata_diff.h"
#include "schema_test_util.h"

#include <gtest/gtest.h>

namespace floe::iceberg {
namespace table_metadata_diff_test {  // the unity build merges anonymous namespaces
namespace {

using testing::Column;

TableMetadata Created() {
  PartitionSpec spec;
  spec.fields.push_back(PartitionField{{2}, 1000, "ts_day", Transform::Day()});
  const std::vector<TableUpdate> updates = {
      AssignUuid{"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
      UpgradeFormatVersion{2},
      AddSchema{Schema::Make(0, {Column(1, "id", Type::Long(), true), Column(2, "ts", Type::Timestamp())}).value()},
      SetCurrentSchema{kLastAdded},
      AddPartitionSpec{spec},
      SetDefaultSpec{kLastAdded},
      AddSortOrder{SortOrder{}},
      SetDefaultSortOrder{kLastAdded},
      SetLocation{"s3://bucket/shop/orders"},
      SetProperties{{{"owner", "floe"}}}};
  return ApplyTableChanges(nullptr, {AssertCreate{}}, updates).value();
}

Snapshot MakeSnapshot(int64_t id, std::optional<int64_t> parent, int64_t sequence_number) {
  Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = parent;
  s.sequence_number = sequence_number;
  s.timestamp_ms = 1'700'000'000'000 + sequence_number;
  s.manifest_list = "s3://bucket/shop/orders/metadata/snap-" + std::to_string(id) + ".avro";
  s.operation = "append";
  s.schema_id = 0;
  return s;
}

SnapshotRef Branch(int64_t id) {
  SnapshotRef ref;
  ref.snapshot_id = id;
  return ref;
}

SnapshotRef Tag(int64_t id) {
  SnapshotRef ref = Branch(id);
  ref.type = SnapshotRefType::kTag;
  return ref;
}

// `updated` built from `base` by local updates; the diff, applied to base
// as a REST server would, must rebuild it.
TableMetadata Rebuilt(const TableMetadata& base, const TableChanges& changes) {
  auto rebuilt = ApplyTableChanges(&base, changes.requirements, changes.updates);
  EXPECT_TRUE(rebuilt.ok()) << rebuilt.status().ToString();
  return rebuilt.ok() ? *rebuilt : TableMetadata{};
}

void ExpectSameTable(TableMetadata a, TableMetadata b) {
  a.last_updated_ms = b.last_updated_ms = 0;
  a.metadata_log.clear();
  b.metadata_log.clear();
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.snapshot_log.size(), b.snapshot_log.size());
}

TEST(TableMetadataDiffTest, AppendIsAddSnapshotAndSetRefGuardedByUuidAndRef) {
  const TableMetadata base = Created();
  const Snapshot s = MakeSnapshot(11, std::nullopt, 1);
  const TableMetadata updated =
      ApplyTableChanges(&base, {}, {AddSnapshot{s}, SetSnapshotRef{"main", Branch(11)}}).value();
  auto changes = DiffTableMetadata(&base, updated).value();
  ASSERT_EQ(changes.requirements.size(), 2u);
  EXPECT_EQ(std::get<AssertTableUuid>(changes.requirements[0]).uuid, base.table_uuid);
  const auto& ref = std::get<AssertRefSnapshotId>(changes.requirements[1]);
  EXPECT_EQ(ref.ref, "main");
  EXPECT_FALSE(ref.snapshot_id.has_value());  // main must not exist yet
  ASSERT_EQ(changes.updates.size(), 2u);
  EXPECT_EQ(std::get<AddSnapshot>(changes.updates[0]).snapshot.snapshot_id, 11);
  EXPECT_EQ(std::get<SetSnapshotRef>(changes.updates[1]).ref.snapshot_id, 11);
  ExpectSameTable(Rebuilt(base, changes), updated);

  // The next append asserts main's current snapshot.
  const TableMetadata second =
      ApplyTableChanges(&updated, {}, {AddSnapshot{MakeSnapshot(12, 11, 2)},
                                       SetSnapshotRef{"main", Branch(12)}})
          .value();
  auto next = DiffTableMetadata(&updated, second).value();
  EXPECT_EQ(std::get<AssertRefSnapshotId>(next.requirements[1]).snapshot_id, std::optional<int64_t>(11));
  ExpectSameTable(Rebuilt(updated, next), second);
  // Applied where main moved on, the requirement fails: a conflict.
  auto raced = ApplyTableChanges(&second, next.requirements, next.updates);
  ASSERT_FALSE(raced.ok());
  EXPECT_EQ(raced.status().code(), StatusCode::kCommitConflict);
}

TEST(TableMetadataDiffTest, SchemaEvolutionAddsTheSchemaAsLastAdded) {
  const TableMetadata base = Created();
  Schema evolved = Schema::Make(1, {Column(1, "id", Type::Long(), true), Column(2, "ts", Type::Timestamp()),
                                    Column(3, "note", Type::String())})
                       .value();
  const TableMetadata updated = ApplyTableChanges(&base, {}, {AddSchema{evolved}, SetCurrentSchema{kLastAdded}}).value();
  auto changes = DiffTableMetadata(&base, updated).value();
  ASSERT_EQ(changes.updates.size(), 2u);
  EXPECT_EQ(std::get<SetCurrentSchema>(changes.updates[1]).schema_id, kLastAdded);
  bool field_id = false, schema_id = false;
  for (const auto& r : changes.requirements) {
    if (auto* a = std::get_if<AssertLastAssignedFieldId>(&r)) field_id = a->last_assigned_field_id == 2;
    if (auto* a = std::get_if<AssertCurrentSchemaId>(&r)) schema_id = a->current_schema_id == 0;
  }
  EXPECT_TRUE(field_id);
  EXPECT_TRUE(schema_id);
  ExpectSameTable(Rebuilt(base, changes), updated);
}

TEST(TableMetadataDiffTest, PropertiesSetAndRemovedAndLocation) {
  TableMetadata base = Created();
  TableMetadata updated = base;
  updated.properties.erase("owner");
  updated.properties["a"] = "1";
  updated.location = "s3://bucket/elsewhere";
  auto changes = DiffTableMetadata(&base, updated).value();
  ASSERT_EQ(changes.requirements.size(), 1u);  // only the uuid
  ASSERT_EQ(changes.updates.size(), 3u);
  EXPECT_EQ(std::get<SetLocation>(changes.updates[0]).location, "s3://bucket/elsewhere");
  EXPECT_EQ(std::get<SetProperties>(changes.updates[1]).updates.at("a"), "1");
  EXPECT_EQ(std::get<RemoveProperties>(changes.updates[2]).removals, std::vector<std::string>{"owner"});
  ExpectSameTable(Rebuilt(base, changes), updated);
}

TEST(TableMetadataDiffTest, ExpireRemovesSnapshotsAndTags) {
  TableMetadata base = Created();
  base = ApplyTableChanges(&base, {}, {AddSnapshot{MakeSnapshot(11, std::nullopt, 1)},
                                       SetSnapshotRef{"main", Branch(11)},
                                       AddSnapshot{MakeSnapshot(12, 11, 2)},
                                       SetSnapshotRef{"main", Branch(12)},
                                       SetSnapshotRef{"v1", Tag(11)}})
             .value();
  const TableMetadata updated = ApplyTableChanges(&base, {}, {RemoveSnapshotRef{"v1"}, RemoveSnapshots{{11}}}).value();
  auto changes = DiffTableMetadata(&base, updated).value();
  ASSERT_EQ(changes.updates.size(), 2u);
  EXPECT_EQ(std::get<RemoveSnapshotRef>(changes.updates[0]).ref_name, "v1");
  EXPECT_EQ(std::get<RemoveSnapshots>(changes.updates[1]).snapshot_ids, std::vector<int64_t>{11});
  ExpectSameTable(Rebuilt(base, changes), updated);
}

TEST(TableMetadataDiffTest, CreateIsAssertCreateAndTheWholeTable) {
  const TableMetadata updated = Created();
  auto changes = DiffTableMetadata(nullptr, updated).value();
  ASSERT_EQ(changes.requirements.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<AssertCreate>(changes.requirements[0]));
  auto rebuilt = ApplyTableChanges(nullptr, changes.requirements, changes.updates);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().ToString();
  ExpectSameTable(*rebuilt, updated);
}

TEST(TableMetadataDiffTest, RewritingAnExistingSnapshotIsUnsupported) {
  TableMetadata base = Created();
  base = ApplyTableChanges(&base, {}, {AddSnapshot{MakeSnapshot(11, std::nullopt, 1)}}).value();
  TableMetadata updated = base;
  updated.snapshots[0].manifest_list = "s3://other.avro";
  auto changes = DiffTableMetadata(&base, updated);
  ASSERT_FALSE(changes.ok());
  EXPECT_EQ(changes.status().code(), StatusCode::kUnsupported);
}

TEST(TableMetadataDiffTest, ChangesVisibleFindsTheSnapshotOrTheProperties) {
  const TableMetadata base = Created();
  const TableMetadata appended =
      ApplyTableChanges(&base, {}, {AddSnapshot{MakeSnapshot(11, std::nullopt, 1)},
                                    SetSnapshotRef{"main", Branch(11)}})
          .value();
  auto append = DiffTableMetadata(&base, appended).value();
  EXPECT_FALSE(ChangesVisible(append, base));
  EXPECT_TRUE(ChangesVisible(append, appended));

  TableMetadata props = base;
  props.properties["k"] = "v";
  auto set = DiffTableMetadata(&base, props).value();
  EXPECT_FALSE(ChangesVisible(set, base));
  EXPECT_TRUE(ChangesVisible(set, props));
  EXPECT_TRUE(ChangesVisible(set, appended) == false);
}

}  // namespace
}  // namespace table_metadata_diff_test
}  // namespace floe::iceberg
