#include "floe/iceberg/expression/transform_projection.h"

#include <algorithm>
#include <limits>

#include "floe/iceberg/transform_function.h"

namespace floe::iceberg {
namespace {

bool IsTimeTransform(TransformType t) {
  return t == TransformType::kYear || t == TransformType::kMonth || t == TransformType::kDay ||
         t == TransformType::kHour;
}

// The neighbour of `v` at distance `delta` (±1) in its type's own order:
// ints, longs, dates, times, timestamps and decimals (one unit of the
// scale); nullopt at the end of the range or for other types.
std::optional<Literal> Adjacent(const Literal& v, int delta) {
  switch (v.type()->id()) {
    case TypeId::kInt:
    case TypeId::kDate: {
      const int64_t n = int64_t{v.int_value()} + delta;
      if (n < std::numeric_limits<int32_t>::min() || n > std::numeric_limits<int32_t>::max()) return std::nullopt;
      return v.type()->id() == TypeId::kInt ? Literal::Int(static_cast<int32_t>(n))
                                            : Literal::Date(static_cast<int32_t>(n));
    }
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      const int64_t n = v.long_value();
      if ((delta > 0 && n == std::numeric_limits<int64_t>::max()) ||
          (delta < 0 && n == std::numeric_limits<int64_t>::min())) {
        return std::nullopt;
      }
      Result<Literal> out = Literal::Make(v.type(), n + delta);
      if (!out.ok()) return std::nullopt;
      return std::move(out).value();
    }
    case TypeId::kDecimal: {
      Result<Literal> out = Literal::Make(v.type(), v.decimal_value() + delta);
      if (!out.ok()) return std::nullopt;
      return std::move(out).value();
    }
    default: return std::nullopt;
  }
}

// The length the truncate width counts: code points for strings, bytes
// otherwise.
size_t TruncateLength(const Literal& v) {
  const std::string_view bytes = v.bytes();
  if (v.type()->id() != TypeId::kString) return bytes.size();
  return static_cast<size_t>(
      std::count_if(bytes.begin(), bytes.end(), [](char c) { return (static_cast<uint8_t>(c) & 0xc0) != 0x80; }));
}

class Projector {
 public:
  Projector(const PartitionField& field, const TypePtr& result_type, const Expression& pred)
      : field_(field), result_type_(result_type), pred_(pred) {}

  Result<ExpressionPtr> Project(bool strict) {
    const Transform& t = field_.transform;
    const Operation op = pred_.op();
    if (t.is_unknown() || t.is_void() || field_.source_ids.size() != 1) return ExpressionPtr();
    if (t.type() == TransformType::kIdentity) return Make(op, pred_.literals());
    if (op == Operation::kIsNull || op == Operation::kNotNull) return Make(op, {});
    if (IsUnaryOp(op)) return ExpressionPtr();  // NaN tests: no transform but identity takes floats
    if (t.type() == TransformType::kBucket) return Bucket(strict);
    const TypeId source = pred_.type()->id();
    if (t.type() == TransformType::kTruncate && (source == TypeId::kString || source == TypeId::kBinary)) {
      return strict ? TruncateBytesStrict() : TruncateBytes();
    }
    FLOE_ASSIGN_OR_RETURN(ExpressionPtr projected, strict ? OrderedStrict() : Ordered());
    if (projected == nullptr || !IsTimeTransform(t.type())) return projected;
    return strict ? FixStrictTime(*projected) : FixInclusiveTime(*projected);
  }

 private:
  // The transform of `v`, as a literal of the partition field's type.
  Result<Literal> Apply(const Literal& v) const {
    FLOE_ASSIGN_OR_RETURN(std::optional<Literal> out, ApplyTransform(field_.transform, v));
    if (!out) return Status::Internal("transform " + field_.transform.ToString() + " of a value gave null");
    return Retype(*out);
  }

  // Days may come typed as int or date; the partition type decides.
  Literal Retype(const Literal& v) const {
    const TypeId want = result_type_->id();
    if (want == TypeId::kDate && v.type()->id() == TypeId::kInt) return Literal::Date(v.int_value());
    if (want == TypeId::kInt && v.type()->id() == TypeId::kDate) return Literal::Int(v.int_value());
    return v;
  }

  Result<std::vector<Literal>> ApplyAll(const std::vector<Literal>& values) const {
    std::vector<Literal> out;
    for (const Literal& v : values) {
      FLOE_ASSIGN_OR_RETURN(Literal t, Apply(v));
      out.push_back(std::move(t));
    }
    return out;
  }

  // A predicate on the partition field; set predicates deduplicated and
  // sorted, as the binder leaves them (the evaluators search them).
  ExpressionPtr Make(Operation op, std::vector<Literal> literals) const {
    if (IsSetOp(op)) {
      std::sort(literals.begin(), literals.end(), [](const Literal& a, const Literal& b) { return a.Compare(b) < 0; });
      literals.erase(std::unique(literals.begin(), literals.end(),
                                 [](const Literal& a, const Literal& b) { return a.Compare(b) == 0; }),
                     literals.end());
      if (literals.size() == 1) op = op == Operation::kIn ? Operation::kEq : Operation::kNotEq;
    }
    return BoundPredicate(op, field_.name, field_.field_id, result_type_, std::move(literals));
  }

  // op applied to the transform of the value `delta` away from the literal.
  Result<ExpressionPtr> Shifted(Operation op, int delta) const {
    std::optional<Literal> v = delta == 0 ? std::optional<Literal>(pred_.literal()) : Adjacent(pred_.literal(), delta);
    if (!v) return ExpressionPtr();  // at the end of the range: no projection, conservatively
    FLOE_ASSIGN_OR_RETURN(Literal t, Apply(*v));
    return Make(op, {std::move(t)});
  }

  Result<ExpressionPtr> Bucket(bool strict) const {
    const Operation op = pred_.op();
    if (op == (strict ? Operation::kNotEq : Operation::kEq)) return Shifted(op, 0);
    if (op == (strict ? Operation::kNotIn : Operation::kIn)) {
      FLOE_ASSIGN_OR_RETURN(std::vector<Literal> buckets, ApplyAll(pred_.literals()));
      return Make(op, std::move(buckets));
    }
    return ExpressionPtr();
  }

  // Order-preserving transforms of ints, longs, decimals, dates and
  // timestamps (truncate, year, month, day, hour): x < v means x <= v - 1,
  // so f(x) <= f(v - 1).
  Result<ExpressionPtr> Ordered() const {
    switch (pred_.op()) {
      case Operation::kLt: return Shifted(Operation::kLtEq, -1);
      case Operation::kLtEq: return Shifted(Operation::kLtEq, 0);
      case Operation::kGt: return Shifted(Operation::kGtEq, +1);
      case Operation::kGtEq: return Shifted(Operation::kGtEq, 0);
      case Operation::kEq: return Shifted(Operation::kEq, 0);
      case Operation::kIn: {
        FLOE_ASSIGN_OR_RETURN(std::vector<Literal> values, ApplyAll(pred_.literals()));
        return Make(Operation::kIn, std::move(values));
      }
      default: return ExpressionPtr();
    }
  }

  // f(x) < f(v) implies x < v; adjacent values share a partition, so = has
  // no strict projection.
  Result<ExpressionPtr> OrderedStrict() const {
    switch (pred_.op()) {
      case Operation::kLt: return Shifted(Operation::kLt, 0);
      case Operation::kLtEq: return Shifted(Operation::kLt, +1);
      case Operation::kGt: return Shifted(Operation::kGt, 0);
      case Operation::kGtEq: return Shifted(Operation::kGt, -1);
      case Operation::kNotEq: return Shifted(Operation::kNotEq, 0);
      case Operation::kNotIn: {
        FLOE_ASSIGN_OR_RETURN(std::vector<Literal> values, ApplyAll(pred_.literals()));
        return Make(Operation::kNotIn, std::move(values));
      }
      default: return ExpressionPtr();
    }
  }

  // truncate[W] of strings and binary: a prefix, so order is kept but not
  // strictly (adjacent strings share a prefix).
  Result<ExpressionPtr> TruncateBytes() const {
    const auto width = static_cast<size_t>(field_.transform.param());
    switch (pred_.op()) {
      case Operation::kLt:
      case Operation::kLtEq: return Shifted(Operation::kLtEq, 0);
      case Operation::kGt:
      case Operation::kGtEq: return Shifted(Operation::kGtEq, 0);
      case Operation::kEq: return Shifted(Operation::kEq, 0);
      case Operation::kStartsWith: return Shifted(Operation::kStartsWith, 0);
      case Operation::kNotStartsWith: {
        // x not starting with v: a shorter v cannot prefix t(x) either, and
        // one exactly W long cannot equal it.
        const size_t length = TruncateLength(pred_.literal());
        if (length < width) return Make(Operation::kNotStartsWith, {pred_.literal()});
        if (length == width) return Make(Operation::kNotEq, {pred_.literal()});
        return ExpressionPtr();
      }
      case Operation::kIn: {
        FLOE_ASSIGN_OR_RETURN(std::vector<Literal> values, ApplyAll(pred_.literals()));
        return Make(Operation::kIn, std::move(values));
      }
      default: return ExpressionPtr();
    }
  }

  Result<ExpressionPtr> TruncateBytesStrict() const {
    const auto width = static_cast<size_t>(field_.transform.param());
    switch (pred_.op()) {
      case Operation::kLt:
      case Operation::kLtEq: return Shifted(Operation::kLt, 0);
      case Operation::kGt:
      case Operation::kGtEq: return Shifted(Operation::kGt, 0);
      case Operation::kNotEq: return Shifted(Operation::kNotEq, 0);
      case Operation::kStartsWith: {
        // A partition value that starts with v is a prefix of every row's
        // value, which then starts with v too.
        const size_t length = TruncateLength(pred_.literal());
        if (length < width) return Make(Operation::kStartsWith, {pred_.literal()});
        if (length == width) return Make(Operation::kEq, {pred_.literal()});
        return ExpressionPtr();
      }
      case Operation::kNotStartsWith: {
        const size_t length = TruncateLength(pred_.literal());
        if (length < width) return Make(Operation::kNotStartsWith, {pred_.literal()});
        if (length == width) return Make(Operation::kNotEq, {pred_.literal()});
        // Every x starting with v has t(x) = t(v).
        return Shifted(Operation::kNotStartsWith, 0);
      }
      case Operation::kNotIn: {
        FLOE_ASSIGN_OR_RETURN(std::vector<Literal> values, ApplyAll(pred_.literals()));
        return Make(Operation::kNotIn, std::move(values));
      }
      default: return ExpressionPtr();
    }
  }

  // Java's ProjectionUtil.fixInclusiveTimeProjection: files written before
  // Iceberg 0.10 put a negative time one partition too high (day(1969-12-31
  // 10:00) as 0), so an inclusive projection also admits the value one above.
  ExpressionPtr FixInclusiveTime(const Expression& p) const {
    std::vector<Literal> values = p.literals();
    auto up = [this](const Literal& v) { return Retype(Literal::Int(v.int_value() + 1)); };
    switch (p.op()) {
      case Operation::kLt:
      case Operation::kLtEq:
        if (p.literal().int_value() < 0) return Make(p.op(), {up(p.literal())});
        return Make(p.op(), values);
      case Operation::kEq:
        if (p.literal().int_value() < 0) return Make(Operation::kIn, {p.literal(), up(p.literal())});
        return Make(p.op(), values);
      case Operation::kIn:
        for (const Literal& v : p.literals()) {
          if (v.int_value() < 0) values.push_back(up(v));
        }
        return Make(Operation::kIn, std::move(values));
      case Operation::kNotEq:
      case Operation::kNotIn: return ExpressionPtr();
      default: return Make(p.op(), values);
    }
  }

  // Java's fixStrictTimeProjection: a wrongly high partition of a negative
  // time could satisfy > and >= without its rows doing so.
  ExpressionPtr FixStrictTime(const Expression& p) const {
    std::vector<Literal> values = p.literals();
    auto up = [this](const Literal& v) { return Retype(Literal::Int(v.int_value() + 1)); };
    switch (p.op()) {
      case Operation::kGt:
      case Operation::kGtEq:
        if (p.literal().int_value() <= 0) return Make(p.op(), {up(p.literal())});
        return Make(p.op(), values);
      case Operation::kNotEq:
        if (p.literal().int_value() < 0) return Make(Operation::kNotIn, {p.literal(), up(p.literal())});
        return Make(p.op(), values);
      case Operation::kNotIn:
        for (const Literal& v : p.literals()) {
          if (v.int_value() < 0) values.push_back(up(v));
        }
        return Make(Operation::kNotIn, std::move(values));
      case Operation::kEq:
      case Operation::kIn: return ExpressionPtr();
      default: return Make(p.op(), values);
    }
  }

  const PartitionField& field_;
  const TypePtr& result_type_;
  const Expression& pred_;
};

}  // namespace

Result<ExpressionPtr> ProjectPredicate(const PartitionField& field, const TypePtr& result_type,
                                       const Expression& pred, bool strict) {
  if (!pred.is_bound() || !pred.is_predicate()) {
    return Status::InvalidArgument("projecting " + ToString(pred) + ": the expression is not bound");
  }
  return Projector(field, result_type, pred).Project(strict);
}

}  // namespace floe::iceberg
