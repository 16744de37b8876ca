// The geospatial statistics a writer keeps for a GEOMETRY or GEOGRAPHY
// column chunk (parquet-format Geospatial.md): the bounding box of its
// values' coordinates and the list of their WKB geometry types. Readers of
// other engines prune row groups by the box; the types tell what a chunk
// holds.
//
// Values are ISO WKB (the spec's encoding): a byte order, a type code
// (1..7 for Point .. GeometryCollection, plus 1000 for Z, 2000 for M, 3000
// for ZM), then the coordinates. The spec's rules for the box:
//   - nulls are skipped, and with no value at all there is no box;
//   - special values are skipped per axis: NaN (a POINT EMPTY is a point of
//     NaNs), empty geometries, and for GEOGRAPHY coordinates outside
//     [-180, 180] x [-90, 90]; with no X or no Y left there is no box, and Z
//     or M appear only where some value had one.
// floe's choices (docs/decisions/0073-geospatial-statistics.md):
//   - a value that is not valid ISO WKB (EWKB's flag bits included) leaves
//     the chunk without statistics, as parquet-cpp does. The spec lists
//     invalid WKB among the special values a box skips, but the value's type
//     is then unknown, and a box that does not cover it lets a reader skip
//     the row;
//   - the parts of a multi-geometry or collection are read by their own
//     headers, whatever their type and dimensions;
//   - a GEOGRAPHY chunk gets a box only when it holds nothing but points and
//     multipoints: the box of a line or polygon on the sphere depends on its
//     edges (geodesics reach beyond their vertices), which floe does not
//     compute. It gets its types all the same.
//   - the types are the values' top-level types, sorted, each once; a chunk
//     of nulls only has an empty list (types unknown), as parquet-cpp writes.
//
// Thread safety: a builder is used by one thread at a time.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "floe/formats/parquet/metadata.h"

namespace floe::parquet {

// Whether `type` is GEOMETRY or GEOGRAPHY.
inline bool IsGeospatial(const LogicalType& type) {
  return std::holds_alternative<GeometryType>(type) || std::holds_alternative<GeographyType>(type);
}

class GeospatialStatisticsBuilder {
 public:
  explicit GeospatialStatisticsBuilder(bool geography) : geography_(geography) {}

  // Adds one non-null value, its WKB bytes.
  void Add(std::string_view wkb);
  // Sets *out to the statistics of the values added since the last Reset();
  // false, leaving *out alone, when one of them was not valid WKB.
  bool Finish(GeospatialStatistics* out) const;
  // Forgets every value, for the next chunk.
  void Reset();

 private:
  // The extremes of one axis over its non-special values.
  struct Range {
    double min = 0;
    double max = 0;
    bool seen = false;
    void Add(double v);
  };
  struct Bounds {
    Range x, y, z, m;
    bool only_points = true;  // every geometry a Point or MultiPoint
  };

  const bool geography_;
  bool invalid_ = false;
  Bounds bounds_;
  std::vector<int32_t> types_;  // sorted, unique
};

// A WKB type code by its name as DuckDB and GeoParquet spell it: "point",
// "multipolygon_z", "linestring_zm"; the number for other codes.
std::string GeospatialTypeName(int32_t code);

// One line for `floe parquet meta`: the box's ranges per axis and the types,
// "x 10..40 y 10..40 z 30..80; point polygon_z"; "no box" without one,
// "types unknown" for an empty list.
std::string GeospatialStatisticsText(const GeospatialStatistics& stats);

}  // namespace floe::parquet
