// View metadata JSON: the fixtures iceberg-rust tests with (read in place),
// round trips, and strict errors for what the spec requires.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "floe/iceberg/view_metadata_io.h"
#include "floe/iceberg/view_metadata_json.h"
#include "floe/io/file_io.h"
#include "testing/temp_dir.h"

namespace floe::iceberg {
namespace {

std::string Fixture(const std::string& name) {
  return std::string(FLOE_SHARED_DIR) + "/fixtures/iceberg/rust-testdata/view_metadata/" + name;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ViewMetadataJsonTest, ReadsTheSpecExampleEveryField) {
  const std::string path = Fixture("ViewMetadataV1Valid.json");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "fixture missing: " << path;
  ViewMetadata m = ViewMetadataFromJson(Slurp(path), path).value();
  EXPECT_EQ(m.view_uuid, "fa6506c3-7681-40c8-86dc-e36561f83385");
  EXPECT_EQ(m.format_version, 1);
  EXPECT_EQ(m.location, "s3://bucket/warehouse/default.db/event_agg");
  EXPECT_EQ(m.current_version_id, 1);
  EXPECT_EQ(m.properties, (std::map<std::string, std::string>{{"comment", "Daily event counts"}}));
  ASSERT_EQ(m.schemas.size(), 1u);
  EXPECT_EQ(m.schemas[0].schema_id(), 1);
  ASSERT_EQ(m.schemas[0].fields().size(), 2u);
  EXPECT_EQ(m.schemas[0].fields()[0].name, "event_count");
  ASSERT_NE(m.current_version(), nullptr);
  const ViewVersion& v = *m.current_version();
  EXPECT_EQ(v.timestamp_ms, 1573518431292);
  EXPECT_EQ(v.schema_id, 1);
  EXPECT_EQ(v.default_catalog, std::optional<std::string>("prod"));
  EXPECT_EQ(v.default_namespace, (std::vector<std::string>{"default"}));
  EXPECT_EQ(v.summary.at("engine-name"), "Spark");
  ASSERT_EQ(v.representations.size(), 1u);
  EXPECT_EQ(v.representations[0].dialect, "spark");
  EXPECT_EQ(v.representations[0].sql, "SELECT\n    COUNT(1), CAST(event_ts AS DATE)\nFROM events\nGROUP BY 2");
  ASSERT_NE(v.SqlFor("SPARK"), nullptr);
  EXPECT_EQ(v.SqlFor("trino"), nullptr);
  EXPECT_EQ(m.version_log, (std::vector<ViewHistoryEntry>{{1573518431292, 1}}));
  EXPECT_EQ(m.current_schema(), &m.schemas[0]);

  // Written and read back: the same metadata.
  const std::string json = ViewMetadataToJson(m).value();
  EXPECT_EQ(ViewMetadataFromJson(json).value(), m);
  EXPECT_EQ(ViewMetadataFromJson(ViewMetadataToJson(m, /*pretty=*/true).value()).value(), m);
}

TEST(ViewMetadataJsonTest, RefusesTheInvalidFixtures) {
  const std::pair<const char*, StatusCode> cases[] = {
      {"ViewMetadataUnsupportedVersion.json", StatusCode::kUnsupported},
      {"ViewMetadataV1CurrentVersionNotFound.json", StatusCode::kCorrupt},
      {"ViewMetadataV1MissingCurrentVersion.json", StatusCode::kCorrupt},
      {"ViewMetadataV1MissingSchema.json", StatusCode::kCorrupt},
      {"ViewMetadataV1SchemaNotFound.json", StatusCode::kCorrupt},
  };
  for (const auto& [name, code] : cases) {
    const std::string path = Fixture(name);
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "fixture missing: " << path;
    auto m = ViewMetadataFromJson(Slurp(path), name);
    EXPECT_EQ(m.status().code(), code) << name << ": " << m.status().ToString();
    EXPECT_NE(m.status().message().find(name), std::string::npos) << m.status().message();
  }
  EXPECT_NE(ViewMetadataFromJson(Slurp(Fixture("ViewMetadataV1MissingSchema.json")))
                .status()
                .message()
                .find("' is missing"),
            std::string::npos);
  EXPECT_NE(ViewMetadataFromJson(Slurp(Fixture("ViewMetadataV1CurrentVersionNotFound.json")))
                .status()
                .message()
                .find("'current-version-id' is 2"),
            std::string::npos);
}

constexpr std::string_view kMinimal = R"({
  "view-uuid": "u-1", "format-version": 1, "location": "/wh/v",
  "schemas": [{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "a", "required": true, "type": "long"}]}],
  "current-version-id": 1,
  "versions": [{"version-id": 1, "schema-id": 0, "timestamp-ms": 5, "summary": {},
                "representations": [{"type": "sql", "sql": "SELECT 1", "dialect": "trino"},
                                    {"type": "substrait", "plan": "AAEC"}],
                "default-namespace": []}],
  "version-log": []
})";

TEST(ViewMetadataJsonTest, KeepsUnknownRepresentationsAndOptionalFieldsAbsent) {
  ViewMetadata m = ViewMetadataFromJson(kMinimal).value();
  ASSERT_EQ(m.versions[0].representations.size(), 2u);
  EXPECT_EQ(m.versions[0].representations[1].type, "substrait");
  EXPECT_FALSE(m.versions[0].default_catalog.has_value());
  EXPECT_TRUE(m.properties.empty());
  const std::string json = ViewMetadataToJson(m).value();
  EXPECT_NE(json.find(R"({"type":"substrait","plan":"AAEC"})"), std::string::npos) << json;
  EXPECT_EQ(json.find("default-catalog"), std::string::npos);
  EXPECT_EQ(json.find("properties"), std::string::npos);
  EXPECT_EQ(ViewMetadataFromJson(json).value(), m);
}

TEST(ViewMetadataJsonTest, StrictAboutRequiredFieldsAndTypes) {
  auto without = [](std::string_view key) {
    std::string json(kMinimal);
    const size_t at = json.find(std::string("\"") + std::string(key) + "\"");
    EXPECT_NE(at, std::string::npos) << key;
    json.replace(at, key.size() + 2, "\"x-ignored\"");
    return json;
  };
  for (const char* key : {"view-uuid", "location", "schemas", "versions", "version-log", "summary",
                          "representations", "default-namespace", "timestamp-ms"}) {
    auto m = ViewMetadataFromJson(without(key));
    EXPECT_EQ(m.status().code(), StatusCode::kCorrupt) << key;
    EXPECT_NE(m.status().message().find(std::string(key) + "' is missing"), std::string::npos)
        << key << ": " << m.status().message();
  }
  std::string two_trino(kMinimal);
  const std::string substrait = R"({"type": "substrait", "plan": "AAEC"})";
  two_trino.replace(two_trino.find(substrait), substrait.size(),
                    R"({"type": "sql", "sql": "SELECT 2", "dialect": "TRINO"})");
  EXPECT_NE(ViewMetadataFromJson(two_trino).status().message().find("two SQL representations for dialect"),
            std::string::npos);
  std::string bad_type(kMinimal);
  bad_type.replace(bad_type.find(R"("timestamp-ms": 5)"), 17, R"("timestamp-ms": "5")");
  EXPECT_NE(ViewMetadataFromJson(bad_type).status().message().find("versions[0].timestamp-ms"), std::string::npos);
  EXPECT_EQ(ViewMetadataFromJson("").status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(ViewMetadataFromJson("[1]").status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(ViewMetadataFromJson("{").status().code(), StatusCode::kCorrupt);
}

TEST(ViewMetadataJsonTest, FilesRoundTripThroughFileIO) {
  floe::testing::TempDir dir;
  auto io = NewLocalFileIO();
  ViewMetadata m = ViewMetadataFromJson(kMinimal).value();
  m.location = dir.Join("v");
  const std::string location = NewViewMetadataFileLocation(m, 3);
  EXPECT_EQ(location.rfind(dir.Join("v/metadata/00003-"), 0), 0u) << location;
  ASSERT_TRUE(WriteViewMetadata(*io, location, m).ok());
  EXPECT_EQ(ReadViewMetadata(*io, location).value(), m);
  EXPECT_EQ(WriteViewMetadata(*io, location, m).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(ReadViewMetadata(*io, dir.Join("none.json")).status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace floe::iceberg
