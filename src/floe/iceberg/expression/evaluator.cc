#include "floe/iceberg/expression/evaluator.h"

#include <algorithm>
#include <cmath>

#include "floe/iceberg/expression/truth.h"

namespace floe::iceberg {

bool IsNaNLiteral(const Literal& literal) {
  const TypeId id = literal.type()->id();
  if (id == TypeId::kFloat) return std::isnan(literal.float_value());
  if (id == TypeId::kDouble) return std::isnan(literal.double_value());
  return false;
}

int CompareForRow(const Literal& a, const Literal& b) {
  const TypeId id = a.type()->id();
  if ((id == TypeId::kFloat || id == TypeId::kDouble) && a.value().index() == b.value().index()) {
    const double x = id == TypeId::kFloat ? a.float_value() : a.double_value();
    const double y = id == TypeId::kFloat ? b.float_value() : b.double_value();
    if (std::isnan(x) || std::isnan(y)) return kUnordered;
    return x < y ? -1 : (y < x ? 1 : 0);
  }
  return a.Compare(b);
}

namespace {

bool InSet(const Expression& pred, const Literal& v) {
  const std::vector<Literal>& set = pred.literals();
  const TypeId id = v.type()->id();
  if (id == TypeId::kFloat || id == TypeId::kDouble) {
    return std::any_of(set.begin(), set.end(), [&](const Literal& l) { return CompareForRow(v, l) == 0; });
  }
  // The binder sorts in-lists by Literal::Compare.
  const auto it = std::lower_bound(set.begin(), set.end(), v,
                                   [](const Literal& a, const Literal& b) { return a.Compare(b) < 0; });
  return it != set.end() && it->Compare(v) == 0;
}

Truth Compare(Operation op, int c) {
  if (c == kUnordered) return Truth::kUnknown;
  switch (op) {
    case Operation::kLt: return ToTruth(c < 0);
    case Operation::kLtEq: return ToTruth(c <= 0);
    case Operation::kGt: return ToTruth(c > 0);
    case Operation::kGtEq: return ToTruth(c >= 0);
    case Operation::kEq: return ToTruth(c == 0);
    case Operation::kNotEq: return ToTruth(c != 0);
    default: return Truth::kUnknown;
  }
}

Truth EvaluateNode(const Expression& e, const ValueGetter& value) {
  switch (e.op()) {
    case Operation::kTrue: return Truth::kTrue;
    case Operation::kFalse: return Truth::kFalse;
    case Operation::kAnd: {
      const Truth left = EvaluateNode(*e.left(), value);
      if (left == Truth::kFalse) return left;
      return AndTruth(left, EvaluateNode(*e.right(), value));
    }
    case Operation::kOr: {
      const Truth left = EvaluateNode(*e.left(), value);
      if (left == Truth::kTrue) return left;
      return OrTruth(left, EvaluateNode(*e.right(), value));
    }
    case Operation::kNot: return NotTruth(EvaluateNode(*e.left(), value));
    default:
      if (!e.is_bound()) return Truth::kUnknown;
      return EvaluatePredicate(e, value(e.field_id()));
  }
}

}  // namespace

Truth EvaluatePredicate(const Expression& pred, const std::optional<Literal>& raw) {
  const Operation op = pred.op();
  if (op == Operation::kIsNull) return ToTruth(!raw.has_value());
  if (op == Operation::kNotNull) return ToTruth(raw.has_value());
  if (!raw) return (op == Operation::kIsNan) ? Truth::kFalse : (op == Operation::kNotNan ? Truth::kTrue : Truth::kUnknown);
  std::optional<Literal> cast;
  const Literal* v = &*raw;
  if (pred.type() != nullptr && !TypeEquals(raw->type(), pred.type())) {
    const TypeId from = raw->type()->id();
    const TypeId to = pred.type()->id();
    // Partition tuples may carry a day as an int or as a date: the same days.
    Result<Literal> converted = (from == TypeId::kInt && to == TypeId::kDate)   ? Literal::Date(raw->int_value())
                                : (from == TypeId::kDate && to == TypeId::kInt) ? Literal::Int(raw->int_value())
                                                                                : raw->CastTo(pred.type());
    if (!converted.ok()) return Truth::kUnknown;
    cast = std::move(converted).value();
    v = &*cast;
  }
  switch (op) {
    case Operation::kIsNan: return ToTruth(IsNaNLiteral(*v));
    case Operation::kNotNan: return ToTruth(!IsNaNLiteral(*v));
    case Operation::kIn:
    case Operation::kNotIn:
      if (IsNaNLiteral(*v)) return Truth::kUnknown;
      return ToTruth(InSet(pred, *v) == (op == Operation::kIn));
    case Operation::kStartsWith:
    case Operation::kNotStartsWith: {
      if (pred.literals().size() != 1) return Truth::kUnknown;
      const bool starts = v->bytes().starts_with(pred.literal().bytes());
      return ToTruth(starts == (op == Operation::kStartsWith));
    }
    default:
      if (pred.literals().size() != 1) return Truth::kUnknown;
      return Compare(op, CompareForRow(*v, pred.literal()));
  }
}

bool Evaluate(const Expression& bound, const ValueGetter& value) {
  return EvaluateNode(bound, value) == Truth::kTrue;
}

}  // namespace floe::iceberg
