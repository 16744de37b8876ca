#include "floe/iceberg/expression/projection.h"

#include "floe/iceberg/expression/transform_projection.h"

namespace floe::iceberg {
namespace {

Result<ExpressionPtr> Project(const PartitionSpec& spec, const TypePtr& partition_type, const ExpressionPtr& e,
                              bool strict) {
  switch (e->op()) {
    case Operation::kTrue:
    case Operation::kFalse: return e;
    case Operation::kAnd:
    case Operation::kOr: {
      FLOE_ASSIGN_OR_RETURN(ExpressionPtr left, Project(spec, partition_type, e->left(), strict));
      FLOE_ASSIGN_OR_RETURN(ExpressionPtr right, Project(spec, partition_type, e->right(), strict));
      return e->op() == Operation::kAnd ? And(std::move(left), std::move(right))
                                        : Or(std::move(left), std::move(right));
    }
    case Operation::kNot: return Status::Internal("projection of an expression with NOT left in it");
    default: break;
  }
  if (!e->is_bound()) {
    return Status::InvalidArgument("projecting " + ToString(*e) + ": the expression is not bound");
  }
  ExpressionPtr result = strict ? AlwaysFalse() : AlwaysTrue();
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const PartitionField& field = spec.fields[i];
    if (field.source_ids.size() != 1 || field.source_id() != e->field_id()) continue;
    FLOE_ASSIGN_OR_RETURN(ExpressionPtr projected,
                          ProjectPredicate(field, partition_type->fields()[i].type, *e, strict));
    if (projected == nullptr) continue;
    result = strict ? Or(std::move(result), std::move(projected)) : And(std::move(result), std::move(projected));
  }
  return result;
}

Result<ExpressionPtr> ProjectWith(const PartitionSpec& spec, const Schema& schema, const ExpressionPtr& bound,
                                  bool strict) {
  FLOE_ASSIGN_OR_RETURN(TypePtr partition_type, spec.PartitionType(schema));
  return Project(spec, partition_type, RewriteNot(bound), strict);
}

}  // namespace

Result<ExpressionPtr> ProjectInclusive(const PartitionSpec& spec, const Schema& schema, const ExpressionPtr& bound) {
  return ProjectWith(spec, schema, bound, false);
}

Result<ExpressionPtr> ProjectStrict(const PartitionSpec& spec, const Schema& schema, const ExpressionPtr& bound) {
  return ProjectWith(spec, schema, bound, true);
}

}  // namespace floe::iceberg
