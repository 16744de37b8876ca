// Transform: a partition or sort transform (spec: "Partition Transforms"),
// as a value parsed from and formatted to its spec name.
//
// Known transforms: identity, bucket[N], truncate[W], year, month, day, hour,
// void. A name floe does not know is kept as an unknown transform with its
// original text, so metadata from newer writers reads and writes back
// unchanged (spec: readers must not fail on unknown transforms when they do
// not need their values); applying one is for the caller to refuse.
// Applying transforms to values lives elsewhere; this is the model.
//
// Thread safety: a plain value.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg {

enum class TransformType : uint8_t {
  kIdentity,
  kBucket,
  kTruncate,
  kYear,
  kMonth,
  kDay,
  kHour,
  kVoid,
  kUnknown,
};

class Transform {
 public:
  static Transform Identity() { return Transform(TransformType::kIdentity, 0); }
  // InvalidArgument unless num_buckets > 0.
  static Result<Transform> Bucket(int32_t num_buckets);
  // InvalidArgument unless width > 0.
  static Result<Transform> Truncate(int32_t width);
  static Transform Year() { return Transform(TransformType::kYear, 0); }
  static Transform Month() { return Transform(TransformType::kMonth, 0); }
  static Transform Day() { return Transform(TransformType::kDay, 0); }
  static Transform Hour() { return Transform(TransformType::kHour, 0); }
  static Transform Void() { return Transform(TransformType::kVoid, 0); }

  // Parses a transform name: "identity", "bucket[16]", "truncate[10]",
  // "year", "month", "day", "hour", "void" (case-insensitive, as Java reads
  // them). Any other name becomes an unknown transform. InvalidArgument for a
  // bucket or truncate whose parameter is missing, not an integer, or < 1.
  static Result<Transform> Parse(std::string_view text);

  TransformType type() const { return type_; }
  // bucket: the number of buckets N; truncate: the width W; else 0.
  int32_t param() const { return param_; }
  bool is_unknown() const { return type_ == TransformType::kUnknown; }
  bool is_void() const { return type_ == TransformType::kVoid; }

  // The spec name: "bucket[16]", "day", ...; an unknown transform's own text.
  std::string ToString() const;

  // Whether the transform accepts a source column of `source` type (spec's
  // transform table). Unknown transforms accept nothing.
  bool CanTransform(const Type& source) const;
  // The partition value type for a `source` column. InvalidArgument, naming
  // both, when CanTransform is false.
  Result<TypePtr> ResultType(const TypePtr& source) const;

  bool operator==(const Transform& other) const {
    return type_ == other.type_ && param_ == other.param_ && unknown_name_ == other.unknown_name_;
  }

 private:
  Transform(TransformType type, int32_t param) : type_(type), param_(param) {}

  TransformType type_;
  int32_t param_;
  std::string unknown_name_;
};

}  // namespace floe::iceberg
