#include "floe/iceberg/transform.h"

#include <cctype>
#include <charconv>

#include "floe/base/strings.h"

namespace floe::iceberg {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// For "name[123]" with the given name: the parameter text, else false.
bool Bracketed(std::string_view s, std::string_view name, std::string_view* param) {
  if (!StartsWith(s, name)) return false;
  std::string_view rest = s.substr(name.size());
  if (rest.size() < 2 || rest.front() != '[' || rest.back() != ']') return false;
  *param = Trim(rest.substr(1, rest.size() - 2));
  return true;
}

bool IsTemporal(TypeId id) {
  return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}

bool IsTimestamp(TypeId id) { return IsTemporal(id) && id != TypeId::kDate; }

}  // namespace

Result<Transform> Transform::Bucket(int32_t num_buckets) {
  if (num_buckets < 1) return Status::InvalidArgument(StrCat("transform bucket[", num_buckets, "]: N must be > 0"));
  return Transform(TransformType::kBucket, num_buckets);
}

Result<Transform> Transform::Truncate(int32_t width) {
  if (width < 1) return Status::InvalidArgument(StrCat("transform truncate[", width, "]: W must be > 0"));
  return Transform(TransformType::kTruncate, width);
}

Result<Transform> Transform::Parse(std::string_view text) {
  const std::string s = Lower(Trim(text));
  if (s == "identity") return Identity();
  if (s == "year") return Year();
  if (s == "month") return Month();
  if (s == "day") return Day();
  if (s == "hour") return Hour();
  if (s == "void") return Void();
  std::string_view param;
  const bool bucket = Bracketed(s, "bucket", &param);
  if (bucket || Bracketed(s, "truncate", &param)) {
    int32_t n = 0;
    auto [end, ec] = std::from_chars(param.data(), param.data() + param.size(), n);
    if (param.empty() || ec != std::errc() || end != param.data() + param.size() || n < 1) {
      return Status::InvalidArgument(
          StrCat("transform ", Quote(text), ": ", bucket ? "N" : "W", " must be an integer > 0"));
    }
    return bucket ? Bucket(n) : Truncate(n);
  }
  if (s == "bucket" || s == "truncate") {
    return Status::InvalidArgument(StrCat("transform ", Quote(text), ": missing [parameter]"));
  }
  if (s.empty()) return Status::InvalidArgument("transform '': empty name");
  Transform unknown(TransformType::kUnknown, 0);
  unknown.unknown_name_ = std::string(text);
  return unknown;
}

std::string Transform::ToString() const {
  switch (type_) {
    case TransformType::kIdentity: return "identity";
    case TransformType::kBucket: return StrCat("bucket[", param_, "]");
    case TransformType::kTruncate: return StrCat("truncate[", param_, "]");
    case TransformType::kYear: return "year";
    case TransformType::kMonth: return "month";
    case TransformType::kDay: return "day";
    case TransformType::kHour: return "hour";
    case TransformType::kVoid: return "void";
    case TransformType::kUnknown: return unknown_name_;
  }
  return unknown_name_;
}

bool Transform::CanTransform(const Type& source) const {
  const TypeId id = source.id();
  switch (type_) {
    case TransformType::kIdentity:
      // spec: identity accepts "any" type except the semi-structured and
      // geospatial ones, which have no defined equality.
      return source.is_primitive() && id != TypeId::kVariant && id != TypeId::kGeometry && id != TypeId::kGeography;
    case TransformType::kBucket:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal || IsTemporal(id) ||
             id == TypeId::kTime || id == TypeId::kString || id == TypeId::kUuid || id == TypeId::kFixed ||
             id == TypeId::kBinary;
    case TransformType::kTruncate:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal || id == TypeId::kString ||
             id == TypeId::kBinary;
    case TransformType::kYear:
    case TransformType::kMonth:
    case TransformType::kDay: return IsTemporal(id);
    case TransformType::kHour: return IsTimestamp(id);
    case TransformType::kVoid: return true;
    case TransformType::kUnknown: return false;
  }
  return false;
}

Result<TypePtr> Transform::ResultType(const TypePtr& source) const {
  if (!CanTransform(*source)) {
    return Status::InvalidArgument(
        StrCat("transform ", Quote(ToString()), " cannot be applied to type ", Quote(source->ToString())));
  }
  switch (type_) {
    case TransformType::kBucket:
    case TransformType::kYear:
    case TransformType::kMonth:
    case TransformType::kHour: return Type::Int();
    case TransformType::kDay:
      // spec: days from 1970-01-01 (an int); typed as date, as Java and
      // PyIceberg do, so partition values print as dates.
      return Type::Date();
    default: return source;
  }
}

}  // namespace floe::iceberg
