#include "floe/formats/parquet/geospatial_statistics.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "floe/columnar/value_format.h"

namespace floe::parquet {
namespace {

// Nesting deeper than this (collections of collections ...) is refused:
// real geometries nest a few levels, and the reader recurses.
constexpr int kMaxDepth = 32;

enum WkbType : uint32_t {
  kPoint = 1,
  kLineString = 2,
  kPolygon = 3,
  kMultiPoint = 4,
  kMultiLineString = 5,
  kMultiPolygon = 6,
  kGeometryCollection = 7,
};

// Reads ISO WKB geometries from a value's bytes, handing each coordinate to
// `point`. Every count is checked against the bytes left before it is used,
// so a corrupt count fails instead of looping or allocating.
template <typename PointFn>
class WkbReader {
 public:
  WkbReader(std::string_view bytes, PointFn point) : bytes_(bytes), point_(point) {}

  // One whole geometry, and nothing after it: its ISO type code, or nullopt
  // when the bytes are not that.
  std::optional<uint32_t> ReadValue() {
    const std::optional<uint32_t> code = Geometry(0);
    if (!code || at_ != bytes_.size()) return std::nullopt;
    return code;
  }

 private:
  bool HasBytes(uint64_t n) const { return n <= bytes_.size() - at_; }

  bool U32(bool little, uint32_t* out) {
    if (!HasBytes(4)) return false;
    std::memcpy(out, bytes_.data() + at_, 4);
    if (little != (std::endian::native == std::endian::little)) *out = __builtin_bswap32(*out);
    at_ += 4;
    return true;
  }

  double Double(bool little) {  // the caller checked Left()
    uint64_t bits = 0;
    std::memcpy(&bits, bytes_.data() + at_, 8);
    if (little != (std::endian::native == std::endian::little)) bits = __builtin_bswap64(bits);
    at_ += 8;
    return std::bit_cast<double>(bits);
  }

  bool Points(uint32_t count, bool little, int dims, bool has_z, bool has_m) {
    if (!HasBytes(uint64_t{count} * 8 * static_cast<uint64_t>(dims))) return false;
    for (uint32_t i = 0; i < count; ++i) {
      const double x = Double(little);
      const double y = Double(little);
      const double z = has_z ? Double(little) : NAN;
      const double m = has_m ? Double(little) : NAN;
      point_(x, y, z, m);
    }
    return true;
  }

  std::optional<uint32_t> Geometry(int depth) {
    if (depth > kMaxDepth || !HasBytes(1)) return std::nullopt;
    const auto order = static_cast<uint8_t>(bytes_[at_++]);
    if (order > 1) return std::nullopt;  // 0: big endian (XDR), 1: little (NDR)
    const bool little = order == 1;
    uint32_t code = 0;
    if (!U32(little, &code)) return std::nullopt;
    const uint32_t base = code % 1000;
    const uint32_t dimensions = code / 1000;  // 0 XY, 1 XYZ, 2 XYM, 3 XYZM
    if (base < kPoint || base > kGeometryCollection || dimensions > 3) return std::nullopt;
    const bool has_z = dimensions == 1 || dimensions == 3;
    const bool has_m = dimensions == 2 || dimensions == 3;
    const int dims = 2 + (has_z ? 1 : 0) + (has_m ? 1 : 0);
    uint32_t count = 0;
    switch (base) {
      case kPoint:
        if (!Points(1, little, dims, has_z, has_m)) return std::nullopt;
        return code;
      case kLineString:
        if (!U32(little, &count) || !Points(count, little, dims, has_z, has_m)) return std::nullopt;
        return code;
      case kPolygon:
        if (!U32(little, &count) || !HasBytes(uint64_t{count} * 4)) return std::nullopt;
        for (uint32_t ring = 0; ring < count; ++ring) {
          uint32_t points = 0;
          if (!U32(little, &points) || !Points(points, little, dims, has_z, has_m)) return std::nullopt;
        }
        return code;
      default:
        // Multi* and collections: whole geometries, each with its own byte
        // order, type and dimensions. Parts of another type or dimensions
        // than the parent's are not refused: the box needs only their
        // coordinates, read by their own header (parquet-cpp reads them so).
        if (!U32(little, &count) || !HasBytes(uint64_t{count} * 5)) return std::nullopt;
        for (uint32_t part = 0; part < count; ++part) {
          if (!Geometry(depth + 1)) return std::nullopt;
        }
        return code;
    }
  }

  const std::string_view bytes_;
  PointFn point_;
  size_t at_ = 0;
};

}  // namespace

void GeospatialStatisticsBuilder::Range::Add(double v) {
  if (std::isnan(v)) return;
  if (!seen) {
    min = max = v;
    seen = true;
    return;
  }
  min = std::min(min, v);
  max = std::max(max, v);
}

void GeospatialStatisticsBuilder::Add(std::string_view wkb) {
  if (invalid_) return;
  Bounds& b = bounds_;
  const bool geography = geography_;
  auto point = [&b, geography](double x, double y, double z, double m) {
    // For GEOGRAPHY, coordinates outside longitude and latitude are special.
    if (!geography || (x >= -180 && x <= 180)) b.x.Add(x);
    if (!geography || (y >= -90 && y <= 90)) b.y.Add(y);
    b.z.Add(z);
    b.m.Add(m);
  };
  WkbReader<decltype(point)> reader(wkb, point);
  const std::optional<uint32_t> code = reader.ReadValue();
  if (!code) {
    invalid_ = true;
    return;
  }
  const uint32_t base = *code % 1000;
  if (base != kPoint && base != kMultiPoint) b.only_points = false;
  const auto type = static_cast<int32_t>(*code);
  const auto at = std::lower_bound(types_.begin(), types_.end(), type);
  if (at == types_.end() || *at != type) types_.insert(at, type);
}

bool GeospatialStatisticsBuilder::Finish(GeospatialStatistics* out) const {
  if (invalid_) return false;
  out->geospatial_types = types_;
  out->bbox.reset();
  const Bounds& b = bounds_;
  if (b.x.seen && b.y.seen && (!geography_ || b.only_points)) {
    BoundingBox& box = out->bbox.emplace();
    box.xmin = b.x.min;
    box.xmax = b.x.max;
    box.ymin = b.y.min;
    box.ymax = b.y.max;
    if (b.z.seen) {
      box.zmin = b.z.min;
      box.zmax = b.z.max;
    }
    if (b.m.seen) {
      box.mmin = b.m.min;
      box.mmax = b.m.max;
    }
  }
  return true;
}

void GeospatialStatisticsBuilder::Reset() {
  invalid_ = false;
  bounds_ = {};
  types_.clear();
}

std::string GeospatialTypeName(int32_t code) {
  static constexpr const char* kNames[] = {"point",           "linestring",   "polygon",           "multipoint",
                                           "multilinestring", "multipolygon", "geometrycollection"};
  static constexpr const char* kDimensions[] = {"", "_z", "_m", "_zm"};
  const int32_t base = code % 1000;
  const int32_t dimensions = code / 1000;
  if (code < 0 || base < 1 || base > 7 || dimensions > 3) return std::to_string(code);
  return std::string(kNames[base - 1]) + kDimensions[dimensions];
}

std::string GeospatialStatisticsText(const GeospatialStatistics& stats) {
  std::string out;
  const auto range = [&out](const char* axis, double min, double max) {
    if (!out.empty()) out += ' ';
    out += axis;
    out += ' ';
    value_format::AppendFloat(min, &out);
    out += "..";
    value_format::AppendFloat(max, &out);
  };
  if (const auto& box = stats.bbox) {
    range("x", box->xmin, box->xmax);
    range("y", box->ymin, box->ymax);
    if (box->zmin && box->zmax) range("z", *box->zmin, *box->zmax);
    if (box->mmin && box->mmax) range("m", *box->mmin, *box->mmax);
  } else {
    out = "no box";
  }
  out += ';';
  if (!stats.geospatial_types || stats.geospatial_types->empty()) return out + " types unknown";
  for (const int32_t code : *stats.geospatial_types) out += ' ' + GeospatialTypeName(code);
  return out;
}

}  // namespace floe::parquet
