#include "floe/iceberg/metadata_location.h"

#include <gtest/gtest.h>

#include "floe/base/strings.h"
#include "floe/iceberg/table_properties.h"

namespace floe::iceberg {
namespace {

TEST(MetadataLocationTest, ParsesTheVersionAsJavaDoes) {
  EXPECT_EQ(ParseMetadataFileVersion("s3://b/t/metadata/00042-9c12d441-03fe-4693-9a96-a0705ddf69c1.metadata.json"), 42);
  EXPECT_EQ(ParseMetadataFileVersion("00000-x.metadata.json"), 0);
  EXPECT_EQ(ParseMetadataFileVersion("/w/t/metadata/123456-x.gz.metadata.json"), 123456);
  EXPECT_EQ(ParseMetadataFileVersion("/w/t-1/metadata/v3.metadata.json"), -1);
  EXPECT_EQ(ParseMetadataFileVersion("/w/t/metadata/abc-def.metadata.json"), -1);
  EXPECT_EQ(ParseMetadataFileVersion("/w/t/metadata/-x.metadata.json"), -1);
  EXPECT_EQ(ParseMetadataFileVersion(""), -1);
}

TableMetadata Table(std::map<std::string, std::string> properties = {}) {
  TableMetadata m;
  m.location = "s3://bucket/shop/orders";
  m.properties = std::move(properties);
  return m;
}

TEST(MetadataLocationTest, NamesNewFilesWithVersionAndUuid) {
  std::string location = NewMetadataFileLocation(Table(), 3).value();
  const std::string prefix = "s3://bucket/shop/orders/metadata/00003-";
  ASSERT_TRUE(StartsWith(location, prefix)) << location;
  ASSERT_TRUE(EndsWith(location, ".metadata.json")) << location;
  EXPECT_EQ(location.size(), prefix.size() + 36 + std::string(".metadata.json").size());
  EXPECT_NE(NewMetadataFileLocation(Table(), 3).value(), location);
  EXPECT_EQ(ParseMetadataFileVersion(location), 3);

  std::string gz = NewMetadataFileLocation(Table({{"write.metadata.compression-codec", "GZIP"}}), 12).value();
  EXPECT_TRUE(EndsWith(gz, ".gz.metadata.json")) << gz;
  EXPECT_EQ(ParseMetadataFileVersion(gz), 12);

  std::string elsewhere = NewMetadataFileLocation(Table({{"write.metadata.path", "s3://other/meta"}}), 0).value();
  EXPECT_TRUE(StartsWith(elsewhere, "s3://other/meta/00000-")) << elsewhere;

  EXPECT_EQ(NewMetadataFileLocation(Table({{"write.metadata.compression-codec", "lz4"}}), 1).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(MetadataLocationTest, LogsTheBaseAndTrimsToTheMaximum) {
  TableMetadata base = Table();
  base.last_updated_ms = 5000;
  base.metadata_log = {{1000, "m1"}, {2000, "m2"}, {3000, "m3"}};
  TableMetadata updated = base;
  TableMetadata next = WithPreviousMetadataFile(updated, base, "m4").value();
  ASSERT_EQ(next.metadata_log.size(), 4u);
  EXPECT_EQ(next.metadata_log.back(), (MetadataLogEntry{5000, "m4"}));

  updated.properties["write.metadata.previous-versions-max"] = "2";
  next = WithPreviousMetadataFile(updated, base, "m4").value();
  EXPECT_EQ(next.metadata_log, (std::vector<MetadataLogEntry>{{3000, "m3"}, {5000, "m4"}}));

  updated.properties["write.metadata.previous-versions-max"] = "0";  // Java keeps one anyway
  next = WithPreviousMetadataFile(updated, base, "m4").value();
  EXPECT_EQ(next.metadata_log, (std::vector<MetadataLogEntry>{{5000, "m4"}}));

  updated.properties["write.metadata.previous-versions-max"] = "many";
  EXPECT_EQ(WithPreviousMetadataFile(updated, base, "m4").status().code(), StatusCode::kInvalidArgument);
}

TEST(MetadataLocationTest, DeletesFilesThatLeftTheLogOnlyWhenEnabled) {
  TableMetadata base = Table();
  base.metadata_log = {{1000, "m1"}, {2000, "m2"}, {3000, "m3"}};
  TableMetadata published = base;
  published.metadata_log = {{3000, "m3"}, {4000, "m4"}};
  EXPECT_TRUE(MetadataFilesToDelete(base, published).empty());
  published.properties["write.metadata.delete-after-commit.enabled"] = "TRUE";
  EXPECT_EQ(MetadataFilesToDelete(base, published), (std::vector<std::string>{"m1", "m2"}));
  published.properties["write.metadata.delete-after-commit.enabled"] = "yes";  // Boolean.parseBoolean
  EXPECT_TRUE(MetadataFilesToDelete(base, published).empty());
}

TEST(TablePropertiesTest, ParsesIntsStrictly) {
  std::map<std::string, std::string> p = {{"a", " 12 "}, {"b", "1x"}, {"c", ""}};
  EXPECT_EQ(IntProperty(p, "a", 0).value(), 12);
  EXPECT_EQ(IntProperty(p, "missing", 7).value(), 7);
  auto bad = IntProperty(p, "b", 0);
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "table property 'b' is '1x', not an integer");
  EXPECT_FALSE(IntProperty(p, "c", 0).ok());
  EXPECT_TRUE(BoolProperty({{"x", "True"}}, "x", false));
  EXPECT_TRUE(BoolProperty({}, "x", true));
}

}  // namespace
}  // namespace floe::iceberg
