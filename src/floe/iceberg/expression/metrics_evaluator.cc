#include "floe/iceberg/expression/metrics_evaluator.h"

#include <algorithm>

#include "floe/iceberg/expression/bounds.h"

namespace floe::iceberg {
namespace {

// spec-compatible with Java: larger in-lists are not worth the comparisons.
constexpr size_t kInPredicateLimit = 200;

std::optional<int64_t> CountOf(const std::map<int32_t, int64_t>& counts, int32_t id) {
  const auto it = counts.find(id);
  if (it == counts.end()) return std::nullopt;
  return it->second;
}

bool IsFloating(const Expression& p) {
  return p.type()->id() == TypeId::kFloat || p.type()->id() == TypeId::kDouble;
}

// `bound` cut to the prefix's length, against the prefix (bytes: UTF-8
// order): <0, 0, >0.
int ComparePrefix(std::string_view bound, std::string_view prefix) {
  const int c = bound.substr(0, std::min(bound.size(), prefix.size())).compare(prefix);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

bool StartsWithPrefix(std::string_view bound, std::string_view prefix) {
  return bound.size() >= prefix.size() && bound.substr(0, prefix.size()) == prefix;
}

// The metrics of one file, looked up per field id.
class FileMetrics {
 public:
  explicit FileMetrics(const DataFile& file) : file_(file) {}

  bool MayContainNull(int32_t id) const {
    const std::optional<int64_t> nulls = CountOf(file_.null_value_counts, id);
    return !nulls || *nulls != 0;
  }
  bool NullsOnly(int32_t id) const {
    const std::optional<int64_t> values = CountOf(file_.value_counts, id);
    const std::optional<int64_t> nulls = CountOf(file_.null_value_counts, id);
    return values && nulls && *values - *nulls == 0;
  }
  bool NoNaNs(int32_t id) const {
    const std::optional<int64_t> nans = CountOf(file_.nan_value_counts, id);
    return nans && *nans == 0;
  }
  bool NaNsOnly(int32_t id) const {
    const std::optional<int64_t> values = CountOf(file_.value_counts, id);
    const std::optional<int64_t> nans = CountOf(file_.nan_value_counts, id);
    return values && nans && *values == *nans;
  }
  // Whether a NaN may be among the values: only floats hold NaN, and a
  // missing count is no evidence of none.
  bool MayContainNaN(const Expression& p) const { return IsFloating(p) && !NoNaNs(p.field_id()); }

  std::optional<Literal> Lower(const Expression& p) const { return Bound(file_.lower_bounds, p, BoundKind::kLower); }
  std::optional<Literal> Upper(const Expression& p) const { return Bound(file_.upper_bounds, p, BoundKind::kUpper); }
  // Raw bound bytes (strings compare as bytes, cut to a prefix).
  const std::string* RawLower(int32_t id) const { return Raw(file_.lower_bounds, id); }
  const std::string* RawUpper(int32_t id) const { return Raw(file_.upper_bounds, id); }

 private:
  static std::optional<Literal> Bound(const std::map<int32_t, std::string>& bounds, const Expression& p,
                                      BoundKind kind) {
    const auto it = bounds.find(p.field_id());
    if (it == bounds.end()) return std::nullopt;
    return ReadBound(p.type(), it->second, kind);
  }
  static const std::string* Raw(const std::map<int32_t, std::string>& bounds, int32_t id) {
    const auto it = bounds.find(id);
    return it == bounds.end() ? nullptr : &it->second;
  }

  const DataFile& file_;
};

bool MightMatch(const Expression& e, const FileMetrics& m);

bool PredicateMightMatch(const Expression& p, const FileMetrics& m) {
  const int32_t id = p.field_id();
  const Operation op = p.op();
  switch (op) {
    case Operation::kIsNull: return m.MayContainNull(id);
    case Operation::kNotNull: return !m.NullsOnly(id);
    case Operation::kIsNan: return !m.NullsOnly(id) && !m.NoNaNs(id);
    case Operation::kNotNan: return !m.NaNsOnly(id);
    case Operation::kNotEq:
    case Operation::kNotIn:
      // The bounds need not be values of the file: nothing to exclude.
      return true;
    default: break;
  }
  if (m.NullsOnly(id)) return false;  // comparisons are unknown on nulls
  if (op == Operation::kStartsWith) {
    const std::string_view prefix = p.literal().bytes();
    const std::string* lower = m.RawLower(id);
    if (lower != nullptr && ComparePrefix(*lower, prefix) > 0) return false;
    const std::string* upper = m.RawUpper(id);
    if (upper != nullptr && ComparePrefix(*upper, prefix) < 0) return false;
    return true;
  }
  if (op == Operation::kNotStartsWith) {
    if (m.MayContainNull(id)) return true;
    // Rows match unless every value starts with the prefix, which holds when
    // both bounds do (every string between them shares the prefix).
    const std::string_view prefix = p.literal().bytes();
    const std::string* lower = m.RawLower(id);
    const std::string* upper = m.RawUpper(id);
    if (lower == nullptr || upper == nullptr) return true;
    return !(StartsWithPrefix(*lower, prefix) && StartsWithPrefix(*upper, prefix));
  }
  if (m.NaNsOnly(id)) return false;  // comparisons are unknown on NaN
  const std::optional<Literal> lower = m.Lower(p);
  const std::optional<Literal> upper = m.Upper(p);
  switch (op) {
    case Operation::kLt: return !(lower && lower->Compare(p.literal()) >= 0);
    case Operation::kLtEq: return !(lower && lower->Compare(p.literal()) > 0);
    case Operation::kGt: return !(upper && upper->Compare(p.literal()) <= 0);
    case Operation::kGtEq: return !(upper && upper->Compare(p.literal()) < 0);
    case Operation::kEq:
      if (lower && lower->Compare(p.literal()) > 0) return false;
      if (upper && upper->Compare(p.literal()) < 0) return false;
      return true;
    case Operation::kIn: {
      if (p.literals().size() > kInPredicateLimit) return true;
      return std::any_of(p.literals().begin(), p.literals().end(), [&](const Literal& v) {
        return !(lower && lower->Compare(v) > 0) && !(upper && upper->Compare(v) < 0);
      });
    }
    default: return true;
  }
}

bool MightMatch(const Expression& e, const FileMetrics& m) {
  switch (e.op()) {
    case Operation::kTrue: return true;
    case Operation::kFalse: return false;
    case Operation::kAnd: return MightMatch(*e.left(), m) && MightMatch(*e.right(), m);
    case Operation::kOr: return MightMatch(*e.left(), m) || MightMatch(*e.right(), m);
    case Operation::kNot: return true;  // rewritten away; stay conservative
    default: return !e.is_bound() || PredicateMightMatch(e, m);
  }
}

bool IsTopLevel(const Schema& schema, int32_t id) {
  return std::any_of(schema.fields().begin(), schema.fields().end(),
                     [id](const NestedField& f) { return f.field_id == id; });
}

bool AllMatch(const Expression& e, const Schema& schema, const FileMetrics& m);

bool PredicateAllMatch(const Expression& p, const Schema& schema, const FileMetrics& m) {
  const int32_t id = p.field_id();
  if (!IsTopLevel(schema, id)) return false;
  const Operation op = p.op();
  switch (op) {
    case Operation::kIsNull: return m.NullsOnly(id);
    case Operation::kNotNull: return !m.MayContainNull(id);
    case Operation::kIsNan: return m.NaNsOnly(id);
    case Operation::kNotNan: return m.NoNaNs(id) || m.NullsOnly(id);
    default: break;
  }
  // Every other predicate is unknown on null and on NaN: all rows match
  // only when there are neither.
  if (m.MayContainNull(id) || m.MayContainNaN(p)) return false;
  if (op == Operation::kStartsWith || op == Operation::kNotStartsWith) {
    const std::string_view prefix = p.literal().bytes();
    const std::string* lower = m.RawLower(id);
    const std::string* upper = m.RawUpper(id);
    if (lower == nullptr || upper == nullptr) return false;
    if (op == Operation::kStartsWith) return StartsWithPrefix(*lower, prefix) && StartsWithPrefix(*upper, prefix);
    // No value starts with the prefix when all lie below it or above every
    // string that does.
    return upper->compare(prefix) < 0 || ComparePrefix(*lower, prefix) > 0;
  }
  const std::optional<Literal> lower = m.Lower(p);
  const std::optional<Literal> upper = m.Upper(p);
  switch (op) {
    case Operation::kLt: return upper && upper->Compare(p.literal()) < 0;
    case Operation::kLtEq: return upper && upper->Compare(p.literal()) <= 0;
    case Operation::kGt: return lower && lower->Compare(p.literal()) > 0;
    case Operation::kGtEq: return lower && lower->Compare(p.literal()) >= 0;
    case Operation::kEq:
      return lower && upper && lower->Compare(p.literal()) == 0 && upper->Compare(p.literal()) == 0;
    case Operation::kNotEq:
      return (lower && lower->Compare(p.literal()) > 0) || (upper && upper->Compare(p.literal()) < 0);
    case Operation::kIn: {
      if (!lower || !upper || lower->Compare(*upper) != 0) return false;
      return std::any_of(p.literals().begin(), p.literals().end(),
                         [&](const Literal& v) { return lower->Compare(v) == 0; });
    }
    case Operation::kNotIn:
      // Every value lies outside [lower, upper].
      return std::all_of(p.literals().begin(), p.literals().end(), [&](const Literal& v) {
        return (lower && lower->Compare(v) > 0) || (upper && upper->Compare(v) < 0);
      });
    default: return false;
  }
}

bool AllMatch(const Expression& e, const Schema& schema, const FileMetrics& m) {
  switch (e.op()) {
    case Operation::kTrue: return true;
    case Operation::kFalse: return false;
    case Operation::kAnd: return AllMatch(*e.left(), schema, m) && AllMatch(*e.right(), schema, m);
    case Operation::kOr: return AllMatch(*e.left(), schema, m) || AllMatch(*e.right(), schema, m);
    case Operation::kNot: return false;
    default: return e.is_bound() && PredicateAllMatch(e, schema, m);
  }
}

}  // namespace

InclusiveMetricsEvaluator::InclusiveMetricsEvaluator(const Schema&, const ExpressionPtr& bound)
    : expr_(RewriteNot(bound)) {}

bool InclusiveMetricsEvaluator::Eval(const DataFile& file) const {
  if (file.record_count == 0) return false;
  if (file.record_count < 0) return true;  // unknown (imported files)
  return MightMatch(*expr_, FileMetrics(file));
}

StrictMetricsEvaluator::StrictMetricsEvaluator(const Schema& schema, const ExpressionPtr& bound)
    : schema_(schema), expr_(RewriteNot(bound)) {}

bool StrictMetricsEvaluator::Eval(const DataFile& file) const {
  if (file.record_count == 0) return true;
  if (file.record_count < 0) return false;
  return AllMatch(*expr_, schema_, FileMetrics(file));
}

bool InclusiveMetricsMightMatch(const Schema& schema, const ExpressionPtr& bound, const DataFile& file) {
  return InclusiveMetricsEvaluator(schema, bound).Eval(file);
}

bool StrictMetricsAllMatch(const Schema& schema, const ExpressionPtr& bound, const DataFile& file) {
  return StrictMetricsEvaluator(schema, bound).Eval(file);
}

}  // namespace floe::iceberg
