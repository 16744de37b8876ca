#include "floe/iceberg/expression/residual.h"

#include <algorithm>

#include "floe/iceberg/expression/evaluator.h"
#include "floe/iceberg/expression/projection.h"
#include "floe/iceberg/expression/transform_projection.h"

namespace floe::iceberg {
namespace {

// The partition tuple as a ValueGetter over partition field ids.
ValueGetter TupleGetter(const std::vector<int32_t>& field_ids, const PartitionValues& partition) {
  return [&field_ids, &partition](int32_t id) -> std::optional<Literal> {
    const auto it = std::find(field_ids.begin(), field_ids.end(), id);
    const auto pos = static_cast<size_t>(it - field_ids.begin());
    if (it == field_ids.end() || pos >= partition.size()) return std::nullopt;
    return partition[pos];
  };
}

std::vector<int32_t> FieldIds(const PartitionSpec& spec) {
  std::vector<int32_t> ids;
  for (const PartitionField& f : spec.fields) ids.push_back(f.field_id);
  return ids;
}

}  // namespace

Result<ResidualEvaluator> ResidualEvaluator::Make(const PartitionSpec& spec, const Schema& schema,
                                                  const ExpressionPtr& bound) {
  ResidualEvaluator r;
  r.filter_ = bound;
  r.unpartitioned_ = spec.is_unpartitioned();
  if (r.unpartitioned_) return r;
  FLOE_ASSIGN_OR_RETURN(TypePtr partition_type, spec.PartitionType(schema));
  // Without NOT, a predicate replaced by false where it is never true (or by
  // true where always true) leaves which rows are selected unchanged, even
  // under SQL's unknown.
  r.rewritten_ = RewriteNot(bound);
  r.field_ids_ = FieldIds(spec);
  std::vector<const Expression*> stack = {r.rewritten_.get()};
  while (!stack.empty()) {
    const Expression* e = stack.back();
    stack.pop_back();
    if (e->op() == Operation::kAnd || e->op() == Operation::kOr) {
      stack.push_back(e->left().get());
      stack.push_back(e->right().get());
      continue;
    }
    if (!e->is_predicate() || !e->is_bound()) continue;
    Projections p;
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      const PartitionField& field = spec.fields[i];
      if (field.source_ids.size() != 1 || field.source_id() != e->field_id()) continue;
      const TypePtr& type = partition_type->fields()[i].type;
      FLOE_ASSIGN_OR_RETURN(ExpressionPtr strict, ProjectPredicate(field, type, *e, true));
      FLOE_ASSIGN_OR_RETURN(ExpressionPtr inclusive, ProjectPredicate(field, type, *e, false));
      if (strict) p.strict.push_back(std::move(strict));
      if (inclusive) p.inclusive.push_back(std::move(inclusive));
    }
    if (!p.strict.empty() || !p.inclusive.empty()) r.projections_.emplace(e, std::move(p));
  }
  return r;
}

ExpressionPtr ResidualEvaluator::ResidualFor(const PartitionValues& partition) const {
  if (unpartitioned_) return filter_;
  return Residual(rewritten_, partition);
}

ExpressionPtr ResidualEvaluator::Residual(const ExpressionPtr& e, const PartitionValues& partition) const {
  switch (e->op()) {
    case Operation::kAnd: return And(Residual(e->left(), partition), Residual(e->right(), partition));
    case Operation::kOr: return Or(Residual(e->left(), partition), Residual(e->right(), partition));
    default: break;
  }
  const auto it = projections_.find(e.get());
  if (it == projections_.end()) return e;
  const ValueGetter tuple = TupleGetter(field_ids_, partition);
  for (const ExpressionPtr& strict : it->second.strict) {
    if (Evaluate(*strict, tuple)) return AlwaysTrue();
  }
  for (const ExpressionPtr& inclusive : it->second.inclusive) {
    if (!Evaluate(*inclusive, tuple)) return AlwaysFalse();
  }
  return e;
}

Result<PartitionEvaluator> PartitionEvaluator::Make(const PartitionSpec& spec, const Schema& schema,
                                                    const ExpressionPtr& bound) {
  FLOE_ASSIGN_OR_RETURN(ExpressionPtr projected, ProjectInclusive(spec, schema, bound));
  return PartitionEvaluator(std::move(projected), FieldIds(spec));
}

bool PartitionEvaluator::MightMatch(const PartitionValues& partition) const {
  return Evaluate(*projected_, TupleGetter(field_ids_, partition));
}

}  // namespace floe::iceberg
