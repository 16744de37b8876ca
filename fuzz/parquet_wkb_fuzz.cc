// Fuzzes the WKB reading behind the geospatial statistics floe writes
// (formats/parquet/geospatial_statistics.h): the values of a GEOMETRY or
// GEOGRAPHY column come from whatever file is being rewritten. Any input is
// either refused (no statistics) or gives a box without NaN whose minimums
// do not exceed its maximums (for GEOGRAPHY, within longitude and latitude),
// with each type listed once, in order.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "floe/formats/parquet/geospatial_statistics.h"

namespace {

void CheckRange(double min, double max) {
  if (std::isnan(min) || std::isnan(max) || min > max) std::abort();
}

void Check(bool geography, std::string_view input) {
  floe::parquet::GeospatialStatisticsBuilder builder(geography);
  // The input as one value, and split in two at its first byte's value.
  builder.Add(input);
  const size_t cut = input.empty() ? 0 : static_cast<uint8_t>(input[0]) % input.size();
  floe::parquet::GeospatialStatisticsBuilder halves(geography);
  halves.Add(input.substr(0, cut));
  halves.Add(input.substr(cut));
  for (const auto* b : {&builder, &halves}) {
    floe::parquet::GeospatialStatistics stats;
    if (!b->Finish(&stats)) continue;
    if (!stats.geospatial_types) std::abort();
    const auto& types = *stats.geospatial_types;
    for (size_t i = 1; i < types.size(); ++i) {
      if (types[i - 1] >= types[i]) std::abort();
    }
    if (stats.bbox) {
      CheckRange(stats.bbox->xmin, stats.bbox->xmax);
      CheckRange(stats.bbox->ymin, stats.bbox->ymax);
      // GEOGRAPHY: longitudes and latitudes only.
      if (geography &&
          (stats.bbox->xmin < -180 || stats.bbox->xmax > 180 || stats.bbox->ymin < -90 || stats.bbox->ymax > 90)) {
        std::abort();
      }
      if (stats.bbox->zmin) CheckRange(*stats.bbox->zmin, *stats.bbox->zmax);
      if (stats.bbox->mmin) CheckRange(*stats.bbox->mmin, *stats.bbox->mmax);
    }
    (void)floe::parquet::GeospatialStatisticsText(stats);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  Check(false, input);
  Check(true, input);
  return 0;
}
