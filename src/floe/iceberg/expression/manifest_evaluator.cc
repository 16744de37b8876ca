#include "floe/iceberg/expression/manifest_evaluator.h"

#include <algorithm>

#include "floe/iceberg/expression/bounds.h"
#include "floe/iceberg/expression/projection.h"

namespace floe::iceberg {
namespace {

constexpr size_t kInPredicateLimit = 200;

int ComparePrefix(std::string_view bound, std::string_view prefix) {
  const int c = bound.substr(0, std::min(bound.size(), prefix.size())).compare(prefix);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

bool StartsWithPrefix(std::string_view bound, std::string_view prefix) {
  return bound.size() >= prefix.size() && bound.substr(0, prefix.size()) == prefix;
}

bool IsFloating(const Expression& p) {
  return p.type()->id() == TypeId::kFloat || p.type()->id() == TypeId::kDouble;
}

// Every partition value is null or NaN: the summary has no bounds and says
// so (a summary without bounds that claims neither proves nothing).
bool NoOrderedValues(const PartitionFieldSummary& s) {
  return !s.lower_bound && (s.contains_null || s.contains_nan.value_or(false));
}

// Java's allValuesAreNull: for floats the summary must also rule out NaN.
bool AllNull(const PartitionFieldSummary& s, const Expression& p) {
  if (!s.contains_null || s.lower_bound) return false;
  return !IsFloating(p) || (s.contains_nan && !*s.contains_nan);
}

bool PredicateMightMatch(const Expression& p, const PartitionFieldSummary& s) {
  switch (p.op()) {
    case Operation::kIsNull: return s.contains_null;
    case Operation::kNotNull: return !AllNull(s, p);
    case Operation::kIsNan:
      if (s.contains_nan && !*s.contains_nan) return false;
      return !AllNull(s, p);
    case Operation::kNotNan:
      // Only NaNs: NaN present, no null, no bound.
      return !(s.contains_nan.value_or(false) && !s.contains_null && !s.lower_bound);
    case Operation::kNotEq:
    case Operation::kNotIn: return true;
    case Operation::kNotStartsWith: {
      if (s.contains_null) return true;
      if (!s.lower_bound || !s.upper_bound) return true;
      const std::string_view prefix = p.literal().bytes();
      return !(StartsWithPrefix(*s.lower_bound, prefix) && StartsWithPrefix(*s.upper_bound, prefix));
    }
    default: break;
  }
  // Comparisons are unknown on null and NaN.
  if (NoOrderedValues(s)) return false;
  if (p.op() == Operation::kStartsWith) {
    const std::string_view prefix = p.literal().bytes();
    if (s.lower_bound && ComparePrefix(*s.lower_bound, prefix) > 0) return false;
    if (s.upper_bound && ComparePrefix(*s.upper_bound, prefix) < 0) return false;
    return true;
  }
  std::optional<Literal> lower;
  std::optional<Literal> upper;
  if (s.lower_bound) lower = ReadBound(p.type(), *s.lower_bound, BoundKind::kLower);
  if (s.upper_bound) upper = ReadBound(p.type(), *s.upper_bound, BoundKind::kUpper);
  switch (p.op()) {
    case Operation::kLt: return !(lower && lower->Compare(p.literal()) >= 0);
    case Operation::kLtEq: return !(lower && lower->Compare(p.literal()) > 0);
    case Operation::kGt: return !(upper && upper->Compare(p.literal()) <= 0);
    case Operation::kGtEq: return !(upper && upper->Compare(p.literal()) < 0);
    case Operation::kEq:
      return !(lower && lower->Compare(p.literal()) > 0) && !(upper && upper->Compare(p.literal()) < 0);
    case Operation::kIn:
      if (p.literals().size() > kInPredicateLimit) return true;
      return std::any_of(p.literals().begin(), p.literals().end(), [&](const Literal& v) {
        return !(lower && lower->Compare(v) > 0) && !(upper && upper->Compare(v) < 0);
      });
    default: return true;
  }
}

bool MightMatch(const Expression& e, const std::vector<int32_t>& field_ids, const ManifestFile& m) {
  switch (e.op()) {
    case Operation::kTrue: return true;
    case Operation::kFalse: return false;
    case Operation::kAnd: return MightMatch(*e.left(), field_ids, m) && MightMatch(*e.right(), field_ids, m);
    case Operation::kOr: return MightMatch(*e.left(), field_ids, m) || MightMatch(*e.right(), field_ids, m);
    case Operation::kNot: return true;
    default: break;
  }
  const auto it = std::find(field_ids.begin(), field_ids.end(), e.field_id());
  const auto pos = static_cast<size_t>(it - field_ids.begin());
  if (it == field_ids.end() || pos >= m.partitions.size()) return true;
  return PredicateMightMatch(e, m.partitions[pos]);
}

}  // namespace

Result<ManifestEvaluator> ManifestEvaluator::Make(const PartitionSpec& spec, const Schema& schema,
                                                  const ExpressionPtr& bound_row_filter) {
  FLOE_ASSIGN_OR_RETURN(ExpressionPtr projected, ProjectInclusive(spec, schema, bound_row_filter));
  std::vector<int32_t> field_ids;
  for (const PartitionField& f : spec.fields) field_ids.push_back(f.field_id);
  return ManifestEvaluator(std::move(projected), std::move(field_ids));
}

bool ManifestEvaluator::Eval(const ManifestFile& manifest) const {
  return MightMatch(*projected_, field_ids_, manifest);
}

bool ManifestMightMatch(const PartitionSpec& spec, const Schema& schema, const ExpressionPtr& bound_row_filter,
                        const ManifestFile& manifest) {
  Result<ManifestEvaluator> evaluator = ManifestEvaluator::Make(spec, schema, bound_row_filter);
  return !evaluator.ok() || evaluator->Eval(manifest);
}

}  // namespace floe::iceberg
