#include "floe/iceberg/type.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "floe/base/strings.h"

namespace floe::iceberg {
namespace {

struct Named {
  std::string_view name;
  TypeId id;
};

// Parameterless primitives, by their spec names.
constexpr Named kSimpleTypes[] = {
    {"boolean", TypeId::kBoolean},
    {"int", TypeId::kInt},
    {"long", TypeId::kLong},
    {"float", TypeId::kFloat},
    {"double", TypeId::kDouble},
    {"date", TypeId::kDate},
    {"time", TypeId::kTime},
    {"timestamp", TypeId::kTimestamp},
    {"timestamptz", TypeId::kTimestampTz},
    {"timestamp_ns", TypeId::kTimestampNs},
    {"timestamptz_ns", TypeId::kTimestampTzNs},
    {"string", TypeId::kString},
    {"uuid", TypeId::kUuid},
    {"binary", TypeId::kBinary},
    {"unknown", TypeId::kUnknown},
    {"variant", TypeId::kVariant},
};

std::string_view SimpleName(TypeId id) {
  for (const auto& t : kSimpleTypes) {
    if (t.id == id) return t.name;
  }
  return "";
}

bool ParseInt(std::string_view s, int64_t* out) {
  s = Trim(s);
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

// The text between `open` and the final `close`, if `text` is `<prefix><open>...<close>`.
bool Parenthesized(std::string_view text, std::string_view prefix, char open, char close, std::string_view* inner) {
  if (!StartsWith(text, prefix)) return false;
  std::string_view rest = Trim(text.substr(prefix.size()));
  if (rest.size() < 2 || rest.front() != open || rest.back() != close) return false;
  *inner = rest.substr(1, rest.size() - 2);
  return true;
}

std::string FieldsToString(const std::vector<NestedField>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ", ";
    out += fields[i].ToString();
  }
  return out;
}

}  // namespace

std::string NestedField::ToString() const {
  return StrCat(field_id, ": ", name, ": ", required ? "required " : "optional ", type ? type->ToString() : "?");
}

bool NestedField::operator==(const NestedField& other) const {
  return field_id == other.field_id && name == other.name && TypeEquals(type, other.type) &&
         required == other.required && doc == other.doc && initial_default == other.initial_default &&
         write_default == other.write_default;
}

#define FLOE_ICEBERG_SINGLETON(Name, Id)                                     \
  TypePtr Type::Name() {                                                     \
    static const TypePtr type = std::make_shared<const Type>(Passkey(), Id); \
    return type;                                                             \
  }
FLOE_ICEBERG_SINGLETON(Boolean, TypeId::kBoolean)
FLOE_ICEBERG_SINGLETON(Int, TypeId::kInt)
FLOE_ICEBERG_SINGLETON(Long, TypeId::kLong)
FLOE_ICEBERG_SINGLETON(Float, TypeId::kFloat)
FLOE_ICEBERG_SINGLETON(Double, TypeId::kDouble)
FLOE_ICEBERG_SINGLETON(Date, TypeId::kDate)
FLOE_ICEBERG_SINGLETON(Time, TypeId::kTime)
FLOE_ICEBERG_SINGLETON(Timestamp, TypeId::kTimestamp)
FLOE_ICEBERG_SINGLETON(TimestampTz, TypeId::kTimestampTz)
FLOE_ICEBERG_SINGLETON(TimestampNs, TypeId::kTimestampNs)
FLOE_ICEBERG_SINGLETON(TimestampTzNs, TypeId::kTimestampTzNs)
FLOE_ICEBERG_SINGLETON(String, TypeId::kString)
FLOE_ICEBERG_SINGLETON(Uuid, TypeId::kUuid)
FLOE_ICEBERG_SINGLETON(Binary, TypeId::kBinary)
FLOE_ICEBERG_SINGLETON(Unknown, TypeId::kUnknown)
FLOE_ICEBERG_SINGLETON(Variant, TypeId::kVariant)
#undef FLOE_ICEBERG_SINGLETON

Result<TypePtr> Type::Decimal(int32_t precision, int32_t scale) {
  if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
    return Status::InvalidArgument(
        StrCat("decimal(", precision, ",", scale, "): precision must be 1..38 and scale 0..precision"));
  }
  auto type = std::make_shared<Type>(Passkey(), TypeId::kDecimal);
  type->precision_ = precision;
  type->scale_ = scale;
  return TypePtr(std::move(type));
}

Result<TypePtr> Type::Fixed(int64_t length) {
  if (length < 1 || length > INT32_MAX) {
    return Status::InvalidArgument(StrCat("fixed[", length, "]: length must be 1..2147483647"));
  }
  auto type = std::make_shared<Type>(Passkey(), TypeId::kFixed);
  type->length_ = length;
  return TypePtr(std::move(type));
}

TypePtr Type::Geometry(std::string crs) {
  auto type = std::make_shared<Type>(Passkey(), TypeId::kGeometry);
  type->crs_ = std::move(crs);
  return type;
}

TypePtr Type::Geography(std::string crs, std::string algorithm) {
  auto type = std::make_shared<Type>(Passkey(), TypeId::kGeography);
  // An algorithm needs a CRS before it in the type string: spell the default.
  if (crs.empty() && !algorithm.empty()) crs = "OGC:CRS84";
  type->crs_ = std::move(crs);
  type->algorithm_ = std::move(algorithm);
  return type;
}

TypePtr Type::Struct(std::vector<NestedField> fields) {
  auto type = std::make_shared<Type>(Passkey(), TypeId::kStruct);
  type->fields_ = std::move(fields);
  return type;
}

TypePtr Type::List(int32_t element_id, TypePtr element, bool element_required) {
  auto type = std::make_shared<Type>(Passkey(), TypeId::kList);
  type->fields_.push_back(NestedField{element_id, "element", std::move(element), element_required, {}, {}, {}});
  return type;
}

TypePtr Type::Map(int32_t key_id, TypePtr key, int32_t value_id, TypePtr value, bool value_required) {
  auto type = std::make_shared<Type>(Passkey(), TypeId::kMap);
  type->fields_.push_back(NestedField{key_id, "key", std::move(key), true, {}, {}, {}});
  type->fields_.push_back(NestedField{value_id, "value", std::move(value), value_required, {}, {}, {}});
  return type;
}

std::string Type::ToString() const {
  switch (id_) {
    case TypeId::kDecimal: return StrCat("decimal(", precision_, ",", scale_, ")");
    case TypeId::kFixed: return StrCat("fixed[", length_, "]");
    case TypeId::kGeometry: return crs_.empty() ? "geometry" : StrCat("geometry(", crs_, ")");
    case TypeId::kGeography:
      if (crs_.empty() && algorithm_.empty()) return "geography";
      if (algorithm_.empty()) return StrCat("geography(", crs_, ")");
      return StrCat("geography(", crs_, ", ", algorithm_, ")");
    case TypeId::kStruct: return StrCat("struct<", FieldsToString(fields_), ">");
    case TypeId::kList: return StrCat("list<", FieldsToString(fields_), ">");
    case TypeId::kMap: return StrCat("map<", FieldsToString(fields_), ">");
    default: return std::string(SimpleName(id_));
  }
}

bool Type::Equals(const Type& other) const {
  if (this == &other) return true;
  return id_ == other.id_ && precision_ == other.precision_ && scale_ == other.scale_ && length_ == other.length_ &&
         crs_ == other.crs_ && algorithm_ == other.algorithm_ && fields_ == other.fields_;
}

bool TypeEquals(const TypePtr& a, const TypePtr& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  return a->Equals(*b);
}

Result<TypePtr> ParsePrimitiveType(std::string_view text) {
  const std::string_view original = Trim(text);
  // Type names match case-insensitively, as Java reads them; a CRS keeps
  // its case.
  std::string lowered(original);
  for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string_view s = lowered;
  auto as_original = [&](std::string_view part) {
    return original.substr(static_cast<size_t>(part.data() - s.data()), part.size());
  };
  for (const auto& t : kSimpleTypes) {
    if (s == t.name) {
      switch (t.id) {
        case TypeId::kBoolean: return Type::Boolean();
        case TypeId::kInt: return Type::Int();
        case TypeId::kLong: return Type::Long();
        case TypeId::kFloat: return Type::Float();
        case TypeId::kDouble: return Type::Double();
        case TypeId::kDate: return Type::Date();
        case TypeId::kTime: return Type::Time();
        case TypeId::kTimestamp: return Type::Timestamp();
        case TypeId::kTimestampTz: return Type::TimestampTz();
        case TypeId::kTimestampNs: return Type::TimestampNs();
        case TypeId::kTimestampTzNs: return Type::TimestampTzNs();
        case TypeId::kString: return Type::String();
        case TypeId::kUuid: return Type::Uuid();
        case TypeId::kBinary: return Type::Binary();
        case TypeId::kUnknown: return Type::Unknown();
        case TypeId::kVariant: return Type::Variant();
        default: break;
      }
    }
  }
  auto bad = [&](std::string_view why) { return Status::InvalidArgument(StrCat("type ", Quote(text), ": ", why)); };
  std::string_view inner;
  if (Parenthesized(s, "decimal", '(', ')', &inner)) {
    const auto parts = Split(inner, ',');
    int64_t p = 0;
    int64_t sc = 0;
    if (parts.size() != 2 || !ParseInt(parts[0], &p) || !ParseInt(parts[1], &sc)) {
      return bad("expected decimal(P,S)");
    }
    if (p < 1 || p > 38 || sc < 0 || sc > p) return bad("precision must be 1..38 and scale 0..precision");
    return Type::Decimal(static_cast<int32_t>(p), static_cast<int32_t>(sc));
  }
  if (Parenthesized(s, "fixed", '[', ']', &inner)) {
    int64_t length = 0;
    if (!ParseInt(inner, &length)) return bad("expected fixed[L]");
    if (length < 1 || length > INT32_MAX) return bad("length must be 1..2147483647");
    return Type::Fixed(length);
  }
  if (s == "geometry") return Type::Geometry();
  if (s == "geography") return Type::Geography();
  if (Parenthesized(s, "geometry", '(', ')', &inner)) {
    const std::string_view crs = Trim(inner);
    if (crs.empty() || crs.find(',') != std::string_view::npos) return bad("expected geometry(CRS)");
    return Type::Geometry(std::string(as_original(crs)));
  }
  if (Parenthesized(s, "geography", '(', ')', &inner)) {
    const auto parts = Split(inner, ',');
    const std::string_view crs = Trim(parts[0]);
    if (parts.size() > 2 || crs.empty()) return bad("expected geography(CRS[, ALGORITHM])");
    std::string algorithm;
    if (parts.size() == 2) {
      algorithm = std::string(Trim(parts[1]));
      static constexpr std::string_view kAlgorithms[] = {"spherical", "vincenty", "thomas", "andoyer", "karney"};
      bool known = false;
      for (auto a : kAlgorithms) known = known || a == algorithm;
      if (!known) return bad("edge algorithm must be spherical, vincenty, thomas, andoyer or karney");
    }
    return Type::Geography(std::string(as_original(crs)), std::move(algorithm));
  }
  return bad("not a primitive type");
}

int MinFormatVersion(const Type& type) {
  switch (type.id()) {
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
    case TypeId::kUnknown:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography: return 3;
    default: break;
  }
  int version = 1;
  for (const auto& f : type.fields()) version = std::max(version, MinFormatVersion(*f.type));
  return version;
}

}  // namespace floe::iceberg
