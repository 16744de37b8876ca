// View updates and requirements, applied as Java's ViewMetadata.Builder
// does: id reuse, -1 for the last added, the version log, version expiry.

#include <gtest/gtest.h>

#include "floe/iceberg/view_update.h"

namespace floe::iceberg {
namespace {

Schema OneColumn(int32_t id, std::string name) {
  return Schema::Make(id, {NestedField{1, std::move(name), Type::Long(), true, {}, {}, {}}}).value();
}

ViewVersion Version(int32_t id, std::string sql, int64_t ts, int32_t schema_id = kLastAdded) {
  ViewVersion v;
  v.version_id = id;
  v.schema_id = schema_id;
  v.timestamp_ms = ts;
  v.representations.push_back(ViewRepresentation{"sql", std::move(sql), "spark", ""});
  return v;
}

ViewMetadata Created() {
  return ApplyViewChanges(nullptr, {},
                          {AssignUuid{"u-1"}, SetLocation{"/wh/v"}, AddSchema{OneColumn(0, "a")},
                           AddViewVersion{Version(1, "SELECT 1", 100)}, SetCurrentViewVersion{kLastAdded}})
      .value();
}

TEST(ViewUpdateTest, CreatesAViewFromUpdates) {
  ViewMetadata m = Created();
  EXPECT_EQ(m.view_uuid, "u-1");
  EXPECT_EQ(m.format_version, 1);
  EXPECT_EQ(m.current_version_id, 1);
  EXPECT_EQ(m.current_version()->schema_id, 0);
  EXPECT_EQ(m.version_log, (std::vector<ViewHistoryEntry>{{100, 1}}));
  // Without a current version the metadata is not whole.
  EXPECT_EQ(ApplyViewChanges(nullptr, {}, {AssignUuid{"u"}, SetLocation{"/x"}}).status().code(),
            StatusCode::kCorrupt);
}

TEST(ViewUpdateTest, ReusesIdsOfEqualSchemasAndVersions) {
  ViewMetadata m = Created();
  // The same schema under another id, and the same definition again.
  ViewMetadata same = ApplyViewChanges(&m, {},
                                       {AddSchema{OneColumn(7, "a")}, AddViewVersion{Version(9, "SELECT 1", 200)},
                                        SetCurrentViewVersion{kLastAdded}})
                          .value();
  EXPECT_EQ(same.schemas.size(), 1u);
  EXPECT_EQ(same.versions.size(), 1u);
  EXPECT_EQ(same.current_version_id, 1);
  // A new schema and version get the next free ids.
  ViewMetadata next = ApplyViewChanges(&m, {},
                                       {AddSchema{OneColumn(0, "b")}, AddViewVersion{Version(1, "SELECT b", 300)},
                                        SetCurrentViewVersion{kLastAdded}})
                          .value();
  ASSERT_EQ(next.schemas.size(), 2u);
  EXPECT_EQ(next.schemas[1].schema_id(), 1);
  EXPECT_EQ(next.current_version_id, 2);
  EXPECT_EQ(next.current_version()->schema_id, 1);
  EXPECT_EQ(next.version_log, (std::vector<ViewHistoryEntry>{{100, 1}, {300, 2}}));
}

TEST(ViewUpdateTest, RefusesUpdatesThatCannotApply) {
  ViewMetadata m = Created();
  auto code = [&](std::vector<ViewUpdate> updates) { return ApplyViewChanges(&m, {}, updates).status().code(); };
  EXPECT_EQ(code({AssignUuid{"other"}}), StatusCode::kInvalidArgument);
  EXPECT_TRUE(ApplyViewChanges(&m, {}, {AssignUuid{"u-1"}}).ok());
  EXPECT_EQ(code({UpgradeFormatVersion{2}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({UpgradeFormatVersion{0}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({SetLocation{""}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({SetCurrentViewVersion{5}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({SetCurrentViewVersion{kLastAdded}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({AddViewVersion{Version(2, "SELECT 2", 1, /*schema_id=*/kLastAdded)}}),
            StatusCode::kInvalidArgument);  // no schema added in this commit
  EXPECT_EQ(code({AddViewVersion{Version(2, "SELECT 2", 1, /*schema_id=*/4)}}), StatusCode::kInvalidArgument);
  ViewVersion two_dialects = Version(2, "SELECT 2", 1, 0);
  two_dialects.representations.push_back(ViewRepresentation{"sql", "SELECT 3", "Spark", ""});
  EXPECT_EQ(code({AddViewVersion{two_dialects}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({SetProperties{{{std::string(ViewMetadata::kVersionHistoryProperty), "0"}}}}),
            StatusCode::kInvalidArgument);
}

TEST(ViewUpdateTest, AssertViewUuid) {
  ViewMetadata m = Created();
  EXPECT_TRUE(ApplyViewChanges(&m, {AssertViewUuid{"u-1"}}, {SetProperties{{{"k", "v"}}}}).ok());
  auto wrong = ApplyViewChanges(&m, {AssertViewUuid{"u-2"}}, {SetProperties{{{"k", "v"}}}});
  EXPECT_EQ(wrong.status().code(), StatusCode::kCommitConflict);
  EXPECT_EQ(wrong.status().message(), "requirement failed: view uuid is u-1, expected u-2");
  EXPECT_EQ(ApplyViewChanges(nullptr, {AssertViewUuid{"u-1"}}, {}).status().code(), StatusCode::kCommitConflict);
}

TEST(ViewUpdateTest, KeepsTheNewestVersionsAndCutsTheLog) {
  ViewMetadata m = Created();
  m = ApplyViewChanges(&m, {}, {SetProperties{{{std::string(ViewMetadata::kVersionHistoryProperty), "2"}}}}).value();
  for (int i = 2; i <= 4; ++i) {
    m = ApplyViewChanges(&m, {},
                         {AddViewVersion{Version(i, "SELECT " + std::to_string(i), 100 * i, 0)},
                          SetCurrentViewVersion{kLastAdded}})
            .value();
  }
  ASSERT_EQ(m.versions.size(), 2u);
  EXPECT_EQ(m.versions[0].version_id, 3);
  EXPECT_EQ(m.versions[1].version_id, 4);
  // Entries for expired versions 1 and 2 are gone, and nothing before them.
  EXPECT_EQ(m.version_log, (std::vector<ViewHistoryEntry>{{300, 3}, {400, 4}}));
  RemoveProperties remove{{"comment", "absent"}};
  EXPECT_TRUE(ApplyViewChanges(&m, {}, {remove}).ok());
}

}  // namespace
}  // namespace floe::iceberg
