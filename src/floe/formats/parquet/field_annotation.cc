#include "floe/formats/parquet/field_annotation.h"

#include <variant>

#include "floe/base/strings.h"

namespace floe::parquet {
namespace {

constexpr EdgeInterpolationAlgorithm kAlgorithms[] = {
    EdgeInterpolationAlgorithm::SPHERICAL, EdgeInterpolationAlgorithm::VINCENTY, EdgeInterpolationAlgorithm::THOMAS,
    EdgeInterpolationAlgorithm::ANDOYER, EdgeInterpolationAlgorithm::KARNEY};
constexpr TimeUnit kUnits[] = {TimeUnit::MILLIS, TimeUnit::MICROS, TimeUnit::NANOS};

Status NotALogicalType(std::string_view text, std::string_view why) {
  return Status::InvalidArgument(StrCat("Parquet logical type ", Quote(text), ": ", why));
}

bool ParseBool(std::string_view s, bool* out) {
  if (s == "true" || s == "false") {
    *out = s == "true";
    return true;
  }
  return false;
}

bool ParseInt32(std::string_view s, int32_t* out) {
  int64_t v = 0;
  if (!ParseInt64(s, &v) || v < INT32_MIN || v > INT32_MAX) return false;
  *out = static_cast<int32_t>(v);
  return true;
}

// "UNIT,bool" of TIME and TIMESTAMP.
bool ParseUnitAndUtc(std::string_view args, TimeUnit* unit, bool* utc) {
  const std::vector<std::string_view> parts = Split(args, ',');
  if (parts.size() != 2 || !ParseBool(parts[1], utc)) return false;
  for (TimeUnit u : kUnits) {
    if (parts[0] == TimeUnitName(u)) {
      *unit = u;
      return true;
    }
  }
  return false;
}

// GEOMETRY's and GEOGRAPHY's "algorithm=A, crs=C" (each optional, crs last).
bool ParseGeoArgs(std::string_view args, bool allow_algorithm, std::optional<std::string>* crs,
                  std::optional<EdgeInterpolationAlgorithm>* algorithm) {
  if (allow_algorithm && StartsWith(args, "algorithm=")) {
    args.remove_prefix(10);
    const size_t end = args.find(',');
    const std::string_view name = args.substr(0, end);
    for (EdgeInterpolationAlgorithm a : kAlgorithms) {
      if (name == EdgeInterpolationAlgorithmName(a)) *algorithm = a;
    }
    if (!*algorithm) return false;
    if (end == std::string_view::npos) return true;
    args.remove_prefix(end + 1);
    if (StartsWith(args, " ")) args.remove_prefix(1);
  }
  if (!StartsWith(args, "crs=")) return false;
  *crs = std::string(args.substr(4));
  return true;
}

}  // namespace

std::string LogicalTypeText(const LogicalType& type) {
  if (const auto* d = std::get_if<DecimalType>(&type)) return StrCat("DECIMAL(", d->precision, ",", d->scale, ")");
  if (const auto* t = std::get_if<TimestampType>(&type)) {
    return StrCat("TIMESTAMP(", TimeUnitName(t->unit), ",", t->isAdjustedToUTC ? "true" : "false", ")");
  }
  if (const auto* t = std::get_if<TimeType>(&type)) {
    return StrCat("TIME(", TimeUnitName(t->unit), ",", t->isAdjustedToUTC ? "true" : "false", ")");
  }
  if (const auto* i = std::get_if<IntType>(&type)) {
    return StrCat("INTEGER(", static_cast<int>(i->bitWidth), ",", i->isSigned ? "true" : "false", ")");
  }
  if (const auto* v = std::get_if<VariantType>(&type)) {
    return v->specification_version ? StrCat("VARIANT(", static_cast<int>(*v->specification_version), ")") : "VARIANT";
  }
  if (const auto* g = std::get_if<GeometryType>(&type)) {
    return g->crs ? StrCat("GEOMETRY(crs=", *g->crs, ")") : "GEOMETRY";
  }
  if (const auto* g = std::get_if<GeographyType>(&type)) {
    if (!g->crs && !g->algorithm) return "GEOGRAPHY";
    std::string out = "GEOGRAPHY(";
    if (g->algorithm) out += "algorithm=" + EdgeInterpolationAlgorithmName(*g->algorithm);
    if (g->crs) out += StrCat(g->algorithm ? ", " : "", "crs=", *g->crs);
    return out + ")";
  }
  return LogicalTypeName(type);
}

Result<LogicalType> ParseLogicalType(std::string_view text) {
  const size_t open = text.find('(');
  const std::string_view name = text.substr(0, open);
  std::string_view args;
  if (open != std::string_view::npos) {
    if (text.back() != ')') return NotALogicalType(text, "no closing parenthesis");
    args = text.substr(open + 1, text.size() - open - 2);
  }
  const bool bare = open == std::string_view::npos;
  if (bare) {
    if (name == "STRING") return LogicalType(StringType{});
    if (name == "MAP") return LogicalType(MapType{});
    if (name == "LIST") return LogicalType(ListType{});
    if (name == "ENUM") return LogicalType(EnumType{});
    if (name == "DATE") return LogicalType(DateType{});
    if (name == "UNKNOWN") return LogicalType(NullType{});
    if (name == "JSON") return LogicalType(JsonType{});
    if (name == "BSON") return LogicalType(BsonType{});
    if (name == "UUID") return LogicalType(UUIDType{});
    if (name == "FLOAT16") return LogicalType(Float16Type{});
    if (name == "VARIANT") return LogicalType(VariantType{});
    if (name == "GEOMETRY") return LogicalType(GeometryType{});
    if (name == "GEOGRAPHY") return LogicalType(GeographyType{});
  }
  if (name == "DECIMAL" && !bare) {
    const std::vector<std::string_view> parts = Split(args, ',');
    DecimalType d;
    if (parts.size() == 2 && ParseInt32(parts[0], &d.precision) && ParseInt32(parts[1], &d.scale)) return LogicalType(d);
    return NotALogicalType(text, "DECIMAL takes (precision,scale)");
  }
  if ((name == "TIME" || name == "TIMESTAMP") && !bare) {
    TimeUnit unit = TimeUnit::MICROS;
    bool utc = false;
    if (!ParseUnitAndUtc(args, &unit, &utc)) return NotALogicalType(text, StrCat(name, " takes (MILLIS|MICROS|NANOS,true|false)"));
    if (name == "TIME") return LogicalType(TimeType{utc, unit});
    return LogicalType(TimestampType{utc, unit});
  }
  if (name == "INTEGER" && !bare) {
    const std::vector<std::string_view> parts = Split(args, ',');
    int32_t bits = 0;
    bool is_signed = false;
    if (parts.size() == 2 && ParseInt32(parts[0], &bits) && ParseBool(parts[1], &is_signed) &&
        (bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
      return LogicalType(IntType{static_cast<int8_t>(bits), is_signed});
    }
    return NotALogicalType(text, "INTEGER takes (8|16|32|64,true|false)");
  }
  if (name == "VARIANT" && !bare) {
    int32_t version = 0;
    if (ParseInt32(args, &version) && version >= 0 && version <= 127) {
      return LogicalType(VariantType{static_cast<int8_t>(version)});
    }
    return NotALogicalType(text, "VARIANT takes (specification version)");
  }
  if (name == "GEOMETRY" && !bare) {
    GeometryType g;
    std::optional<EdgeInterpolationAlgorithm> unused;
    if (ParseGeoArgs(args, /*allow_algorithm=*/false, &g.crs, &unused)) return LogicalType(g);
    return NotALogicalType(text, "GEOMETRY takes (crs=...)");
  }
  if (name == "GEOGRAPHY" && !bare) {
    GeographyType g;
    if (ParseGeoArgs(args, /*allow_algorithm=*/true, &g.crs, &g.algorithm)) return LogicalType(g);
    return NotALogicalType(text, "GEOGRAPHY takes (algorithm=..., crs=...)");
  }
  return NotALogicalType(text, "not a logical type floe writes");
}

std::string PhysicalTypeText(Type type, int32_t type_length) {
  if (type == Type::FIXED_LEN_BYTE_ARRAY) return StrCat(TypeName(type), "(", type_length, ")");
  return TypeName(type);
}

Result<PhysicalTypeSpec> ParsePhysicalType(std::string_view text) {
  for (Type t : {Type::BOOLEAN, Type::INT32, Type::INT64, Type::INT96, Type::FLOAT, Type::DOUBLE, Type::BYTE_ARRAY}) {
    if (text == TypeName(t)) return PhysicalTypeSpec{t, 0};
  }
  constexpr std::string_view kFixed = "FIXED_LEN_BYTE_ARRAY(";
  int32_t width = 0;
  if (StartsWith(text, kFixed) && text.back() == ')' &&
      ParseInt32(text.substr(kFixed.size(), text.size() - kFixed.size() - 1), &width) && width > 0) {
    return PhysicalTypeSpec{Type::FIXED_LEN_BYTE_ARRAY, width};
  }
  return Status::InvalidArgument(StrCat("Parquet physical type ", Quote(text), " is not one"));
}

std::optional<std::string_view> FindMetadata(const KeyValueMetadata& metadata, std::string_view key) {
  for (const auto& [k, v] : metadata) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

}  // namespace floe::parquet
