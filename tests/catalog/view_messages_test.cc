// The REST catalog's view messages (catalog/rest/view_messages.h,
// view_changes_json.h): every view update and requirement round-trips, each
// message parses what it writes, and bad input is refused with one line
// naming the field.

#include "floe/catalog/rest/view_messages.h"

#include <gtest/gtest.h>

#include "catalog/catalog_test_util.h"
#include "floe/base/strings.h"
#include "floe/catalog/rest/view_changes_json.h"

namespace floe::catalog::rest {
namespace {

using catalog::testing::Ident;
using catalog::testing::OrdersRequest;
namespace ib = iceberg;

ib::ViewVersion SomeVersion() {
  ib::ViewVersion v;
  v.version_id = 1;
  v.schema_id = 0;
  v.timestamp_ms = 1700000000000;
  v.summary = {{"engine-name", "floe"}};
  v.representations = {ib::ViewRepresentation{"sql", "SELECT * FROM orders", "spark", ""},
                       ib::ViewRepresentation{"sql", "SELECT * FROM \"orders\"", "trino", ""}};
  v.default_catalog = "prod";
  v.default_namespace = {"shop"};
  return v;
}

ib::ViewMetadata SomeView() {
  ib::ViewVersion version = SomeVersion();
  version.schema_id = ib::kLastAdded;
  return ib::ApplyViewChanges(
             nullptr, {},
             {ib::AssignUuid{"fa6506c3-7681-40c8-86dc-e36561f83385"}, ib::SetLocation{"file:///wh/shop/recent"},
              ib::AddSchema{OrdersRequest().schema}, ib::SetProperties{{{"comment", "recent orders"}}},
              ib::AddViewVersion{version}, ib::SetCurrentViewVersion{ib::kLastAdded}})
      .value();
}

std::vector<ib::ViewUpdate> EveryUpdate() {
  return {
      ib::AssignUuid{"fa6506c3-7681-40c8-86dc-e36561f83385"},
      ib::UpgradeFormatVersion{1},
      ib::AddSchema{OrdersRequest().schema},
      ib::SetLocation{"file:///wh/elsewhere"},
      ib::SetProperties{{{"a", "1"}}},
      ib::RemoveProperties{{"b"}},
      ib::AddViewVersion{SomeVersion()},
      ib::SetCurrentViewVersion{ib::kLastAdded},
  };
}

TEST(RestViewChangesJson, EveryUpdateActionRoundTrips) {
  const auto updates = EveryUpdate();
  ASSERT_EQ(updates.size(), std::variant_size_v<ib::ViewUpdate>);
  for (const auto& u : updates) {
    const std::string json = ViewUpdateToJson(u);
    auto back = ViewUpdateFromJson(json);
    ASSERT_TRUE(back.ok()) << json << ": " << back.status().ToString();
    EXPECT_EQ(back->index(), u.index()) << json;
    EXPECT_EQ(ViewUpdateToJson(*back), json);
    EXPECT_NE(json.find(StrCat("\"action\":\"", ib::ViewUpdateAction(u), "\"")), std::string::npos) << json;
  }
  auto version = ViewUpdateFromJson(ViewUpdateToJson(ib::AddViewVersion{SomeVersion()}));
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(std::get<ib::AddViewVersion>(*version).view_version, SomeVersion());
  EXPECT_EQ(ViewUpdateToJson(ib::SetCurrentViewVersion{3}),
            R"({"action":"set-current-view-version","view-version-id":3})");
  auto last = ViewUpdateFromJson(R"({"action":"set-current-view-version","view-version-id":-1})");
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(std::get<ib::SetCurrentViewVersion>(*last).view_version_id, ib::kLastAdded);
}

TEST(RestViewChangesJson, RequirementRoundTrips) {
  const std::string json = ViewRequirementToJson(ib::AssertViewUuid{"u-1"});
  EXPECT_EQ(json, R"({"type":"assert-view-uuid","uuid":"u-1"})");
  auto back = ViewRequirementFromJson(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(std::get<ib::AssertViewUuid>(*back).uuid, "u-1");
}

TEST(RestViewChangesJson, RefusesTableOnlyUnknownAndMalformedChanges) {
  auto table_only = ViewUpdateFromJson(R"({"action":"add-snapshot","snapshot":{}})");
  ASSERT_TRUE(table_only.status().IsInvalidArgument());
  EXPECT_EQ(table_only.status().message(), "view update: field 'action' is \"add-snapshot\", not a view update action");
  EXPECT_TRUE(ViewUpdateFromJson(R"({"action":"frobnicate"})").status().IsInvalidArgument());
  auto wrong_type = ViewUpdateFromJson(R"({"action":"set-current-view-version","view-version-id":"one"})");
  ASSERT_TRUE(wrong_type.status().IsInvalidArgument());
  EXPECT_NE(wrong_type.status().message().find("view-version-id"), std::string::npos) << wrong_type.status().message();
  auto no_reps = ViewUpdateFromJson(
      R"({"action":"add-view-version","view-version":{"version-id":1,"schema-id":0,"timestamp-ms":1,"summary":{},"default-namespace":[]}})");
  ASSERT_TRUE(no_reps.status().IsInvalidArgument()) << no_reps.status().ToString();
  EXPECT_NE(no_reps.status().message().find("view-version.representations"), std::string::npos)
      << no_reps.status().message();
  // A shared action is read as a table's: its errors name the field alike.
  auto no_updates = ViewUpdateFromJson(R"({"action":"set-properties"})");
  EXPECT_EQ(no_updates.status().message(), "view update: field 'updates' is missing");
  auto requirement = ViewRequirementFromJson(R"({"type":"assert-table-uuid","uuid":"x"})");
  ASSERT_TRUE(requirement.status().IsInvalidArgument());
  EXPECT_EQ(requirement.status().message(),
            "view requirement: field 'type' is \"assert-table-uuid\", not a view requirement type");
}

TEST(RestViewMessages, CreateViewRequestRoundTrips) {
  CreateViewRequest request{"recent", {}};
  request.view.schema = OrdersRequest().schema;
  request.view.view_version = SomeVersion();
  request.view.location = "file:///wh/shop/recent";
  request.view.properties = {{"comment", "recent orders"}};
  const std::string json = ToJson(request);
  auto back = ParseCreateViewRequest(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << json;
  EXPECT_EQ(back->name, "recent");
  EXPECT_EQ(back->view.schema, request.view.schema);
  EXPECT_EQ(back->view.view_version, request.view.view_version);
  EXPECT_EQ(back->view.location, request.view.location);
  EXPECT_EQ(back->view.properties, request.view.properties);
  EXPECT_EQ(ToJson(*back), json);

  request.view.location.reset();
  auto no_location = ParseCreateViewRequest(ToJson(request));
  ASSERT_TRUE(no_location.ok());
  EXPECT_FALSE(no_location->view.location.has_value());
  EXPECT_EQ(ToJson(request).find("\"location\""), std::string::npos);
}

TEST(RestViewMessages, CreateViewRequestRefusesMissingAndBadFields) {
  const std::string schema = R"("schema":{"type":"struct","schema-id":0,"fields":[]})";
  const std::string version =
      R"("view-version":{"version-id":1,"schema-id":0,"timestamp-ms":1,"summary":{},)"
      R"("representations":[{"type":"sql","sql":"SELECT 1","dialect":"spark"}],"default-namespace":[]})";
  ASSERT_TRUE(ParseCreateViewRequest("{\"name\":\"v\"," + schema + "," + version + ",\"properties\":{}}").ok());
  auto no_props = ParseCreateViewRequest("{\"name\":\"v\"," + schema + "," + version + "}");
  EXPECT_EQ(no_props.status().message(), "CreateViewRequest: field 'properties' is missing");
  auto no_version = ParseCreateViewRequest("{\"name\":\"v\"," + schema + ",\"properties\":{}}");
  EXPECT_EQ(no_version.status().message(), "CreateViewRequest: field 'view-version' is missing");
  auto dotted = ParseCreateViewRequest("{\"name\":\"a.b\"," + schema + "," + version + ",\"properties\":{}}");
  ASSERT_TRUE(dotted.status().IsInvalidArgument());
  EXPECT_NE(dotted.status().message().find("field 'name'"), std::string::npos) << dotted.status().message();
  EXPECT_TRUE(ParseCreateViewRequest("{not json").status().IsInvalidArgument());
}

TEST(RestViewMessages, LoadViewResultRoundTripsTheMetadata) {
  const ib::ViewMetadata view = SomeView();
  LoadViewResult result{"file:///wh/shop/recent/metadata/00000-x.metadata.json", view, {{"token", "t"}}};
  auto json = ToJson(result);
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto back = ParseLoadViewResult(*json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->metadata_location, result.metadata_location);
  EXPECT_EQ(back->metadata, view);
  EXPECT_EQ(back->config, result.config);

  ib::ViewMetadata invalid = view;
  invalid.current_version_id = 9;
  EXPECT_TRUE(ToJson(LoadViewResult{"x", invalid, {}}).status().IsInvalidArgument());
  auto no_location = ParseLoadViewResult(R"({"metadata":{}})");
  EXPECT_EQ(no_location.status().message(), "LoadViewResult: field 'metadata-location' is missing");
  auto bad_metadata = ParseLoadViewResult(R"({"metadata-location":"x","metadata":{"format-version":1}})");
  ASSERT_TRUE(bad_metadata.status().IsInvalidArgument());
  EXPECT_NE(bad_metadata.status().message().find("field 'metadata'"), std::string::npos);
}

TEST(RestViewMessages, CommitViewRequestRoundTripsAndRequiresUpdates) {
  CommitViewRequest request{Ident("shop.recent"), {ib::AssertViewUuid{"u-1"}}, EveryUpdate()};
  const std::string json = ToJson(request);
  auto back = ParseCommitViewRequest(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->identifier, Ident("shop.recent"));
  ASSERT_EQ(back->requirements.size(), 1u);
  ASSERT_EQ(back->updates.size(), request.updates.size());
  EXPECT_EQ(ToJson(*back), json);

  // spec: only "updates" is required.
  auto minimal = ParseCommitViewRequest(R"({"updates":[]})");
  ASSERT_TRUE(minimal.ok()) << minimal.status().ToString();
  EXPECT_FALSE(minimal->identifier.has_value());
  EXPECT_TRUE(minimal->requirements.empty());
  EXPECT_EQ(ParseCommitViewRequest(R"({"requirements":[]})").status().message(),
            "CommitViewRequest: field 'updates' is missing");
  auto unknown = ParseCommitViewRequest(R"({"updates":[{"action":"set-default-spec","spec-id":0}]})");
  EXPECT_EQ(unknown.status().message(),
            "CommitViewRequest: field 'updates[0].action' is \"set-default-spec\", not a view update action");
}

}  // namespace
}  // namespace floe::catalog::rest
