// Expression: a boolean filter over a table's rows (spec: "Scan Planning"),
// as a tree of and / or / not over predicates, in the shape of Java's
// org.apache.iceberg.expressions.
//
// A predicate names one column and holds zero (is null, is nan), one
// (comparisons, starts with) or any number (in, not in) of literals. It is
// unbound as built by the factories or the parser — the column is a name as
// written, the literals as typed — and bound by Bind() (binder.h), which
// resolves the name to a field id and type and casts the literals to it.
// Projections (projection.h) produce predicates bound to a partition tuple,
// whose field ids are the partition field ids.
//
// Truth values follow SQL: a comparison with a null value is unknown, and a
// row or partition is selected when the filter is true (evaluator.h).
//
// Thread safety: expressions are immutable and shared by pointer; any
// thread may read them.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/iceberg/literal.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg {

enum class Operation {
  kTrue,
  kFalse,
  kAnd,
  kOr,
  kNot,
  kIsNull,
  kNotNull,
  kIsNan,
  kNotNan,
  kLt,
  kLtEq,
  kGt,
  kGtEq,
  kEq,
  kNotEq,
  kIn,
  kNotIn,
  kStartsWith,
  kNotStartsWith,
};

// Predicates are the operations from kIsNull on.
bool IsPredicateOp(Operation op);
// is null, not null, is nan, not nan: no literal.
bool IsUnaryOp(Operation op);
// in, not in: a set of literals.
bool IsSetOp(Operation op);
// The predicate that holds exactly when `op` is false on a non-null value:
// < and >=, <= and >, = and !=, in and not in, is null and not null, is nan
// and not nan, starts with and not starts with. Requires IsPredicateOp.
Operation NegateOp(Operation op);
// "<", "<=", "=", "in", "is null", "starts with", ... for messages.
std::string_view OperationSymbol(Operation op);

class Expression;
using ExpressionPtr = std::shared_ptr<const Expression>;

class Expression {
  struct Passkey {
    explicit Passkey() = default;
  };

 public:
  Operation op() const { return op_; }
  bool is_predicate() const { return IsPredicateOp(op_); }

  // and / or: both children; not: left() only. Null for other operations.
  const ExpressionPtr& left() const { return left_; }
  const ExpressionPtr& right() const { return right_; }

  // Predicates only. The column as written (dotted for nested fields); once
  // bound, the schema's full name of the field (or the partition field name).
  const std::string& column() const { return column_; }
  // Unbound: as given. Bound: cast to type(); for in / not in distinct and
  // in ascending order.
  const std::vector<Literal>& literals() const { return literals_; }
  // The first literal, for predicates with exactly one. Requires one.
  const Literal& literal() const { return literals_.front(); }

  bool is_bound() const { return bound_; }
  // Bound predicates only: the field id and its (primitive) type.
  int32_t field_id() const { return field_id_; }
  const TypePtr& type() const { return type_; }

  // Structural equality: same operations, columns, binding and literals.
  bool Equals(const Expression& other) const;

  Expression(Passkey, Operation op, ExpressionPtr left, ExpressionPtr right, std::string column,
             std::vector<Literal> literals, bool bound, int32_t field_id, TypePtr type)
      : op_(op),
        left_(std::move(left)),
        right_(std::move(right)),
        column_(std::move(column)),
        literals_(std::move(literals)),
        bound_(bound),
        field_id_(field_id),
        type_(std::move(type)) {}

 private:
  // The factories below (expression.cc) are the only makers.
  friend struct ExpressionFactory;

  Operation op_;
  ExpressionPtr left_;
  ExpressionPtr right_;
  std::string column_;
  std::vector<Literal> literals_;
  bool bound_ = false;
  int32_t field_id_ = -1;
  TypePtr type_;
};

// The constants (shared singletons).
ExpressionPtr AlwaysTrue();
ExpressionPtr AlwaysFalse();
// Conjunction and disjunction, simplified when a side is a constant:
// And(false, x) = false, And(true, x) = x, Or(true, x) = true, Or(false, x) = x.
ExpressionPtr And(ExpressionPtr left, ExpressionPtr right);
ExpressionPtr Or(ExpressionPtr left, ExpressionPtr right);
// Negation, simplified: Not(true) = false, Not(false) = true, Not(Not(x)) = x.
ExpressionPtr Not(ExpressionPtr child);

// An unbound predicate on `column` (dotted for nested fields). `op` must be a
// predicate operation (IsPredicateOp); the number of literals is checked when
// the predicate is bound (InvalidArgument there).
ExpressionPtr Predicate(Operation op, std::string column, std::vector<Literal> literals = {});
// A bound predicate, as the binder and projections make them: the caller
// vouches that the literals are of `type` and fit the operation.
ExpressionPtr BoundPredicate(Operation op, std::string column, int32_t field_id, TypePtr type,
                             std::vector<Literal> literals = {});

ExpressionPtr IsNull(std::string column);
ExpressionPtr NotNull(std::string column);
ExpressionPtr IsNan(std::string column);
ExpressionPtr NotNan(std::string column);
ExpressionPtr LessThan(std::string column, Literal value);
ExpressionPtr LessThanOrEqual(std::string column, Literal value);
ExpressionPtr GreaterThan(std::string column, Literal value);
ExpressionPtr GreaterThanOrEqual(std::string column, Literal value);
ExpressionPtr Equal(std::string column, Literal value);
ExpressionPtr NotEqual(std::string column, Literal value);
ExpressionPtr In(std::string column, std::vector<Literal> values);
ExpressionPtr NotIn(std::string column, std::vector<Literal> values);
ExpressionPtr StartsWith(std::string column, std::string prefix);
ExpressionPtr NotStartsWith(std::string column, std::string prefix);

// Readable text, as --explain shows it: `(order_ts >= 2026-10-21T20:00:00 and
// city in ("x", "y"))`, `not(a is null)`, string literals in double quotes,
// other literals as Literal::ToString.
std::string ToString(const Expression& expr);
// Text that ParseExpression (parser.h) reads back into an equal unbound
// expression (and that binds to an equal bound one): names quoted when they
// are not plain identifiers, strings and non-integer literals in single
// quotes.
std::string ToFilterText(const Expression& expr);

// The equivalent expression without kNot: negations pushed down to the
// predicates with NegateOp and De Morgan's laws. Binding and SQL truth are
// preserved: NOT of an unknown comparison stays unknown.
ExpressionPtr RewriteNot(const ExpressionPtr& expr);

}  // namespace floe::iceberg
