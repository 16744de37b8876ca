// Geospatial statistics (formats/parquet/geospatial_statistics.h) against
// the ones parquet-cpp wrote into parquet-testing's geospatial files, row
// group by row group, and written by floe's writer.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "floe/base/hex.h"
#include "floe/base/strings.h"
#include "floe/columnar/builder.h"
#include "floe/columnar/builder_nested.h"
#include "floe/formats/parquet/field_annotation.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/geospatial_statistics.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace geospatial_statistics_test {  // the unity build merges anonymous namespaces
namespace {

const std::string kGeospatialDir = testing::ParquetTestingDir() + "/data/geospatial/";

std::shared_ptr<const ParquetFileReader> OpenFixture(const std::string& name) {
  auto file = ParquetFileReader::Open(NewLocalFileIO(), kGeospatialDir + name);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  return file.ok() ? std::shared_ptr<const ParquetFileReader>(std::move(file).value()) : nullptr;
}

// What the builder makes of row group `rg`'s last column, the geospatial one.
std::optional<GeospatialStatistics> BuildFor(const std::shared_ptr<const ParquetFileReader>& file, int rg,
                                             bool geography) {
  ScanOptions scan;
  scan.columns =
      std::vector<std::string>{std::string(file->metadata().row_groups[0].columns.back().meta_data->path_in_schema[0])};
  scan.row_groups = std::vector<int>{rg};
  auto batches = ReadAllBatches(file, scan);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  if (!batches.ok()) return std::nullopt;
  GeospatialStatisticsBuilder builder(geography);
  for (const RecordBatch& batch : *batches) {
    const Array& column = batch.column(0);
    for (int64_t i = 0; i < column.length(); ++i) {
      if (column.IsValid(i)) builder.Add(column.GetString(i));
    }
  }
  GeospatialStatistics stats;
  if (!builder.Finish(&stats)) return std::nullopt;
  return stats;
}

const GeospatialStatistics* Written(const ParquetFileReader& file, int rg) {
  const ColumnChunk& chunk = file.metadata().row_groups[static_cast<size_t>(rg)].columns.back();
  if (!chunk.meta_data || !chunk.meta_data->geospatial_statistics) return nullptr;
  return &*chunk.meta_data->geospatial_statistics;
}

TEST(ParquetGeospatialStatisticsTest, GeometryStatisticsEqualParquetCppsInEveryRowGroup) {
  // geospatial.parquet: a row group per geometry type and dimensions, one of
  // empty geometries (types, no box) and one of nulls (no types, no box);
  // geospatial-with-nan: a line of NaNs beside valid geometries (no NaN in
  // the box); the crs files: polygons in other coordinate systems.
  int groups = 0;
  int boxes = 0;
  for (const std::string name : {"geospatial.parquet", "geospatial-with-nan.parquet", "crs-default.parquet",
                                 "crs-srid.parquet", "crs-projjson.parquet", "crs-arbitrary-value.parquet"}) {
    SCOPED_TRACE(name);
    auto file = OpenFixture(name);
    ASSERT_NE(file, nullptr);
    for (int rg = 0; rg < file->num_row_groups(); ++rg, ++groups) {
      SCOPED_TRACE(rg);
      const GeospatialStatistics* expected = Written(*file, rg);
      ASSERT_NE(expected, nullptr);
      const std::optional<GeospatialStatistics> got = BuildFor(file, rg, false);
      ASSERT_TRUE(got.has_value());
      EXPECT_EQ(got->geospatial_types, expected->geospatial_types);
      EXPECT_EQ(got->bbox, expected->bbox);
      if (got->bbox) ++boxes;
    }
  }
  EXPECT_GE(groups, 35);
  EXPECT_GE(boxes, 30);
}

TEST(ParquetGeospatialStatisticsTest, GeographyPointsGetABoxHoldingTheirPointsLinesAndPolygonsOnlyTypes) {
  // parquet-testing's boxes come through a sphere library (a few ulps wider)
  // and wrap around the antimeridian where that is smaller (xmin > xmax);
  // floe's are the exact extremes of the coordinates, so each lies inside
  // the original's.
  auto points = OpenFixture("geography-points.parquet");
  ASSERT_NE(points, nullptr);
  int wrapped = 0;
  for (int rg = 0; rg < points->num_row_groups(); ++rg) {
    SCOPED_TRACE(rg);
    const GeospatialStatistics* expected = Written(*points, rg);
    ASSERT_TRUE(expected != nullptr && expected->bbox.has_value());
    const std::optional<GeospatialStatistics> got = BuildFor(points, rg, true);
    ASSERT_TRUE(got.has_value() && got->bbox.has_value());
    EXPECT_EQ(got->geospatial_types, expected->geospatial_types);
    const BoundingBox& a = *got->bbox;
    const BoundingBox& e = *expected->bbox;
    const double slack = 1e-9;
    EXPECT_LE(a.xmin, a.xmax);
    EXPECT_GE(a.ymin, e.ymin - slack);
    EXPECT_LE(a.ymax, e.ymax + slack);
    if (e.xmin <= e.xmax) {
      EXPECT_GE(a.xmin, e.xmin - slack);
      EXPECT_LE(a.xmax, e.xmax + slack);
    } else {
      ++wrapped;  // floe's box spans the other way round: larger, and still right
    }
  }
  EXPECT_GE(wrapped, 1);  // the README: at least one row group wraps around

  // Lines and polygons: their types, no box. (crs-geography.parquet's
  // writer left its chunk without statistics.)
  for (const auto& [name, has_statistics] : std::vector<std::pair<std::string, bool>>{
           {"geography-lines.parquet", true}, {"geography-polygons.parquet", true}, {"crs-geography.parquet", false}}) {
    SCOPED_TRACE(name);
    auto file = OpenFixture(name);
    ASSERT_NE(file, nullptr);
    for (int rg = 0; rg < file->num_row_groups(); ++rg) {
      const GeospatialStatistics* expected = Written(*file, rg);
      ASSERT_EQ(expected != nullptr, has_statistics);
      const std::optional<GeospatialStatistics> got = BuildFor(file, rg, true);
      ASSERT_TRUE(got.has_value() && got->geospatial_types.has_value());
      if (has_statistics) {
        EXPECT_EQ(got->geospatial_types, expected->geospatial_types);
      }
      EXPECT_EQ(got->geospatial_types->size(), 1u);
      EXPECT_FALSE(got->bbox.has_value());
    }
  }
}

// WKB of a point, little or big endian, XY or with Z and M as `code` says.
std::string Wkb(uint32_t code, std::vector<double> coords, bool little = true) {
  std::string out(1, little ? '\x01' : '\x00');
  auto put = [&](const void* p, size_t n) {
    std::string bytes(static_cast<const char*>(p), n);
    if (!little) std::reverse(bytes.begin(), bytes.end());
    out += bytes;
  };
  put(&code, 4);
  for (double c : coords) put(&c, 8);
  return out;
}

TEST(ParquetGeospatialStatisticsTest, SpecialValuesAreSkippedAndInvalidWkbLeavesNoStatistics) {
  GeospatialStatisticsBuilder builder(false);
  builder.Add(Wkb(1, {1, 2}));
  builder.Add(Wkb(1, {-3, 7}, /*little=*/false));
  builder.Add(Wkb(1, {NAN, NAN}));      // POINT EMPTY
  builder.Add(Wkb(1001, {5, NAN, 9}));  // a NaN Y is skipped, its X and Z count
  auto finish = [](const GeospatialStatisticsBuilder& b) -> std::optional<GeospatialStatistics> {
    GeospatialStatistics stats;
    if (!b.Finish(&stats)) return std::nullopt;
    return stats;
  };
  auto stats = finish(builder);
  ASSERT_TRUE(stats && stats->bbox);
  EXPECT_EQ(stats->geospatial_types, (std::vector<int32_t>{1, 1001}));
  EXPECT_EQ(stats->bbox->xmin, -3);
  EXPECT_EQ(stats->bbox->xmax, 5);
  EXPECT_EQ(stats->bbox->ymin, 2);
  EXPECT_EQ(stats->bbox->ymax, 7);
  EXPECT_EQ(stats->bbox->zmin, 9);
  EXPECT_EQ(stats->bbox->zmax, 9);
  EXPECT_FALSE(stats->bbox->mmin.has_value());

  // Only empty geometries: their types, no box.
  builder.Reset();
  builder.Add(Wkb(1, {NAN, NAN}));
  std::string empty_line = Wkb(2, {});
  empty_line += std::string(4, '\0');
  builder.Add(empty_line);
  stats = finish(builder);
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->geospatial_types, (std::vector<int32_t>{1, 2}));
  EXPECT_FALSE(stats->bbox.has_value());

  // GEOGRAPHY: coordinates outside longitude and latitude are skipped.
  GeospatialStatisticsBuilder geography(true);
  geography.Add(Wkb(1, {200, 10}));
  geography.Add(Wkb(1, {20, -95}));
  geography.Add(Wkb(1, {-30, 40}));
  stats = finish(geography);
  ASSERT_TRUE(stats && stats->bbox);
  EXPECT_EQ(stats->bbox->xmin, -30);
  EXPECT_EQ(stats->bbox->xmax, 20);
  EXPECT_EQ(stats->bbox->ymin, 10);
  EXPECT_EQ(stats->bbox->ymax, 40);

  // A collection's parts are read by their own headers, whatever their type
  // and dimensions (parquet-cpp accepts them too).
  std::string mixed = Wkb(7, {});
  mixed += std::string("\x02\x00\x00\x00", 4) + Wkb(3001, {-7, 1, 5, 6}) + Wkb(1, {2, 9}, /*little=*/false);
  GeospatialStatisticsBuilder collection(false);
  collection.Add(mixed);
  stats = finish(collection);
  ASSERT_TRUE(stats && stats->bbox);
  EXPECT_EQ(stats->geospatial_types, (std::vector<int32_t>{7}));
  EXPECT_EQ(*stats->bbox, (BoundingBox{-7, 2, 1, 9, 5, 5, 6, 6}));

  // Collections nested 32 deep are read; 33 deep are refused.
  const auto nested = [](int depth) {
    std::string wkb = Wkb(1, {3, 4});
    for (int i = 0; i < depth; ++i) wkb = Wkb(7, {}) + std::string("\x01\x00\x00\x00", 4) + wkb;
    return wkb;
  };
  GeospatialStatisticsBuilder deep(false);
  deep.Add(nested(32));
  EXPECT_TRUE(finish(deep).has_value());
  deep.Add(nested(33));
  EXPECT_FALSE(finish(deep).has_value());

  // Not ISO WKB: a bad byte order, an unknown type, EWKB's Z flag, a short
  // value, trailing bytes, a count beyond the bytes, a collection whose part
  // is cut short, an empty value.
  const std::string point = Wkb(1, {1, 2});
  std::string huge_line = Wkb(2, {});
  huge_line += "\xff\xff\xff\x7f";
  std::string cut_part = Wkb(4, {});
  cut_part += std::string("\x01\x00\x00\x00", 4) + point.substr(0, 12);
  for (const std::string& bad : {std::string("\x02") + point.substr(1), Wkb(8, {1, 2}), Wkb(0x80000001u, {1, 2, 3}),
                                 point.substr(0, 20), point + "x", huge_line, cut_part, std::string()}) {
    GeospatialStatisticsBuilder b(false);
    b.Add(point);
    b.Add(bad);
    EXPECT_FALSE(finish(b).has_value()) << Hex(bad);
  }
}

// A one-column schema whose leaf is annotated `annotation`, inside a list
// when `in_list`.
std::shared_ptr<const Schema> GeoSchema(const std::string& annotation, bool in_list) {
  const KeyValueMetadata metadata = {{std::string(kLogicalTypeKey), annotation}};
  if (!in_list)
    return std::make_shared<const Schema>(std::vector<Field>{Field("geometry", DataType::Binary(), true, metadata)});
  return std::make_shared<const Schema>(
      std::vector<Field>{Field("shapes", DataType::List(Field("element", DataType::Binary(), true, metadata)))});
}

// The statistics of each row group of `path`'s last column.
std::vector<std::optional<GeospatialStatistics>> WrittenStatistics(const std::string& path) {
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  std::vector<std::optional<GeospatialStatistics>> out;
  if (!file.ok()) return out;
  for (int rg = 0; rg < (*file)->num_row_groups(); ++rg) {
    const GeospatialStatistics* stats = Written(**file, rg);
    out.push_back(stats ? std::optional<GeospatialStatistics>(*stats) : std::nullopt);
  }
  return out;
}

TEST(ParquetGeospatialStatisticsTest, NestedLeavesGeographyLinesAndInvalidValuesThroughTheWriter) {
  floe::testing::TempDir dir;
  // GEOMETRY inside a list: the leaf's values, nulls and empty lists aside.
  {
    const auto schema = GeoSchema("GEOMETRY", true);
    ListBuilder lists(schema->field(0).type, std::make_unique<BinaryBuilder>());
    auto* values = static_cast<BinaryBuilder*>(lists.value_builder());
    ASSERT_TRUE(lists.StartList().ok());
    ASSERT_TRUE(values->Append(Wkb(1, {1, 2})).ok());
    ASSERT_TRUE(values->AppendNull().ok());
    ASSERT_TRUE(values->Append(Wkb(1001, {-3, 4, 5})).ok());
    ASSERT_TRUE(lists.StartList().ok());
    ASSERT_TRUE(lists.AppendNulls(1).ok());
    auto batch = RecordBatch::Make(schema, {lists.Finish().value()});
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    const std::string path = dir.Join("nested.parquet");
    ASSERT_TRUE(testing::WriteFile(path, schema, {*batch}).ok());
    const auto stats = WrittenStatistics(path);
    ASSERT_EQ(stats.size(), 1u);
    ASSERT_TRUE(stats[0] && stats[0]->bbox);
    EXPECT_EQ(stats[0]->geospatial_types, (std::vector<int32_t>{1, 1001}));
    EXPECT_EQ(*stats[0]->bbox, (BoundingBox{-3, 1, 2, 4, 5, 5, std::nullopt, std::nullopt}));
  }
  // GEOGRAPHY lines: types, no box. A value that is not WKB leaves its row
  // group without statistics, not the next one.
  {
    const auto schema = GeoSchema("GEOGRAPHY", false);
    BinaryBuilder values;
    std::string line = Wkb(2, {});
    line += std::string("\x02\x00\x00\x00", 4);
    for (double c : {10.0, 20.0, 30.0, 40.0}) line.append(reinterpret_cast<const char*>(&c), 8);
    ASSERT_TRUE(values.Append(line).ok());
    ASSERT_TRUE(values.Append("not wkb").ok());
    ASSERT_TRUE(values.Append(Wkb(1, {5, 6})).ok());
    ASSERT_TRUE(values.Append(line).ok());
    auto batch = RecordBatch::Make(schema, {values.Finish().value()});
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    WriterOptions options;
    options.row_group_rows = 2;
    const std::string path = dir.Join("lines.parquet");
    ASSERT_TRUE(testing::WriteFile(path, schema, {*batch}, options).ok());
    const auto stats = WrittenStatistics(path);
    ASSERT_EQ(stats.size(), 2u);
    EXPECT_FALSE(stats[0].has_value());
    ASSERT_TRUE(stats[1].has_value());
    EXPECT_EQ(stats[1]->geospatial_types, (std::vector<int32_t>{1, 2}));
    EXPECT_FALSE(stats[1]->bbox.has_value());
  }
}

TEST(ParquetGeospatialStatisticsTest, TheWriterStoresEachChunksStatistics) {
  // A GEOMETRY column (a binary field annotated as one) in two row groups.
  floe::testing::TempDir dir;
  const std::string path = dir.Join("geo.parquet");
  BinaryBuilder values;
  ASSERT_TRUE(values.Append(Wkb(1, {1, 2})).ok());
  ASSERT_TRUE(values.AppendNull().ok());
  ASSERT_TRUE(values.Append(Wkb(1, {-4, 8})).ok());
  ASSERT_TRUE(values.Append(Wkb(3001, {10, 20, 30, 40})).ok());
  auto schema = std::make_shared<const Schema>(
      std::vector<Field>{Field("geometry", DataType::Binary(), true, {{std::string(kLogicalTypeKey), "GEOMETRY"}})});
  auto batch = RecordBatch::Make(schema, {values.Finish().value()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  WriterOptions options;
  options.row_group_rows = 3;
  auto written = testing::WriteFile(path, schema, {*batch}, options);
  ASSERT_TRUE(written.ok()) << written.status().ToString();

  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_EQ((*file)->num_row_groups(), 2);
  const GeospatialStatistics* first = Written(**file, 0);
  ASSERT_TRUE(first != nullptr && first->bbox.has_value());
  EXPECT_EQ(first->geospatial_types, (std::vector<int32_t>{1}));
  EXPECT_EQ(*first->bbox, (BoundingBox{-4, 1, 2, 8, std::nullopt, std::nullopt, std::nullopt, std::nullopt}));
  const GeospatialStatistics* second = Written(**file, 1);
  ASSERT_TRUE(second != nullptr && second->bbox.has_value());
  EXPECT_EQ(second->geospatial_types, (std::vector<int32_t>{3001}));
  EXPECT_EQ(*second->bbox, (BoundingBox{10, 10, 20, 20, 30, 30, 40, 40}));
}

}  // namespace
}  // namespace geospatial_statistics_test
}  // namespace floe::parquet
