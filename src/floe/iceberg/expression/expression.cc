#include "floe/iceberg/expression/expression.h"

#include <cctype>

#include "floe/base/strings.h"

namespace floe::iceberg {

struct ExpressionFactory {
  static ExpressionPtr Node(Operation op, ExpressionPtr left, ExpressionPtr right) {
    return std::make_shared<const Expression>(Expression::Passkey(), op, std::move(left), std::move(right), "",
                                              std::vector<Literal>{}, false, -1, nullptr);
  }
  static ExpressionPtr Pred(Operation op, std::string column, std::vector<Literal> literals, bool bound,
                            int32_t field_id, TypePtr type) {
    return std::make_shared<const Expression>(Expression::Passkey(), op, nullptr, nullptr, std::move(column),
                                              std::move(literals), bound, field_id, std::move(type));
  }
};

bool IsPredicateOp(Operation op) { return op >= Operation::kIsNull; }

bool IsUnaryOp(Operation op) {
  return op == Operation::kIsNull || op == Operation::kNotNull || op == Operation::kIsNan ||
         op == Operation::kNotNan;
}

bool IsSetOp(Operation op) { return op == Operation::kIn || op == Operation::kNotIn; }

Operation NegateOp(Operation op) {
  switch (op) {
    case Operation::kIsNull: return Operation::kNotNull;
    case Operation::kNotNull: return Operation::kIsNull;
    case Operation::kIsNan: return Operation::kNotNan;
    case Operation::kNotNan: return Operation::kIsNan;
    case Operation::kLt: return Operation::kGtEq;
    case Operation::kLtEq: return Operation::kGt;
    case Operation::kGt: return Operation::kLtEq;
    case Operation::kGtEq: return Operation::kLt;
    case Operation::kEq: return Operation::kNotEq;
    case Operation::kNotEq: return Operation::kEq;
    case Operation::kIn: return Operation::kNotIn;
    case Operation::kNotIn: return Operation::kIn;
    case Operation::kStartsWith: return Operation::kNotStartsWith;
    case Operation::kNotStartsWith: return Operation::kStartsWith;
    case Operation::kTrue: return Operation::kFalse;
    case Operation::kFalse: return Operation::kTrue;
    default: return op;
  }
}

std::string_view OperationSymbol(Operation op) {
  switch (op) {
    case Operation::kTrue: return "true";
    case Operation::kFalse: return "false";
    case Operation::kAnd: return "and";
    case Operation::kOr: return "or";
    case Operation::kNot: return "not";
    case Operation::kIsNull: return "is null";
    case Operation::kNotNull: return "is not null";
    case Operation::kIsNan: return "is nan";
    case Operation::kNotNan: return "is not nan";
    case Operation::kLt: return "<";
    case Operation::kLtEq: return "<=";
    case Operation::kGt: return ">";
    case Operation::kGtEq: return ">=";
    case Operation::kEq: return "=";
    case Operation::kNotEq: return "!=";
    case Operation::kIn: return "in";
    case Operation::kNotIn: return "not in";
    case Operation::kStartsWith: return "starts with";
    case Operation::kNotStartsWith: return "not starts with";
  }
  return "?";
}

bool Expression::Equals(const Expression& other) const {
  if (op_ != other.op_) return false;
  switch (op_) {
    case Operation::kTrue:
    case Operation::kFalse: return true;
    case Operation::kAnd:
    case Operation::kOr: return left_->Equals(*other.left_) && right_->Equals(*other.right_);
    case Operation::kNot: return left_->Equals(*other.left_);
    default: break;
  }
  if (column_ != other.column_ || bound_ != other.bound_ || literals_.size() != other.literals_.size()) return false;
  if (bound_ && (field_id_ != other.field_id_ || !TypeEquals(type_, other.type_))) return false;
  for (size_t i = 0; i < literals_.size(); ++i) {
    if (!(literals_[i] == other.literals_[i])) return false;
  }
  return true;
}

ExpressionPtr AlwaysTrue() {
  static const ExpressionPtr kTrue = ExpressionFactory::Node(Operation::kTrue, nullptr, nullptr);
  return kTrue;
}

ExpressionPtr AlwaysFalse() {
  static const ExpressionPtr kFalse = ExpressionFactory::Node(Operation::kFalse, nullptr, nullptr);
  return kFalse;
}

ExpressionPtr And(ExpressionPtr left, ExpressionPtr right) {
  if (left->op() == Operation::kFalse || right->op() == Operation::kFalse) return AlwaysFalse();
  if (left->op() == Operation::kTrue) return right;
  if (right->op() == Operation::kTrue) return left;
  return ExpressionFactory::Node(Operation::kAnd, std::move(left), std::move(right));
}

ExpressionPtr Or(ExpressionPtr left, ExpressionPtr right) {
  if (left->op() == Operation::kTrue || right->op() == Operation::kTrue) return AlwaysTrue();
  if (left->op() == Operation::kFalse) return right;
  if (right->op() == Operation::kFalse) return left;
  return ExpressionFactory::Node(Operation::kOr, std::move(left), std::move(right));
}

ExpressionPtr Not(ExpressionPtr child) {
  if (child->op() == Operation::kTrue) return AlwaysFalse();
  if (child->op() == Operation::kFalse) return AlwaysTrue();
  if (child->op() == Operation::kNot) return child->left();
  return ExpressionFactory::Node(Operation::kNot, std::move(child), nullptr);
}

ExpressionPtr Predicate(Operation op, std::string column, std::vector<Literal> literals) {
  return ExpressionFactory::Pred(op, std::move(column), std::move(literals), false, -1, nullptr);
}

ExpressionPtr BoundPredicate(Operation op, std::string column, int32_t field_id, TypePtr type,
                             std::vector<Literal> literals) {
  return ExpressionFactory::Pred(op, std::move(column), std::move(literals), true, field_id, std::move(type));
}

ExpressionPtr IsNull(std::string column) { return Predicate(Operation::kIsNull, std::move(column)); }
ExpressionPtr NotNull(std::string column) { return Predicate(Operation::kNotNull, std::move(column)); }
ExpressionPtr IsNan(std::string column) { return Predicate(Operation::kIsNan, std::move(column)); }
ExpressionPtr NotNan(std::string column) { return Predicate(Operation::kNotNan, std::move(column)); }
ExpressionPtr LessThan(std::string column, Literal value) {
  return Predicate(Operation::kLt, std::move(column), {std::move(value)});
}
ExpressionPtr LessThanOrEqual(std::string column, Literal value) {
  return Predicate(Operation::kLtEq, std::move(column), {std::move(value)});
}
ExpressionPtr GreaterThan(std::string column, Literal value) {
  return Predicate(Operation::kGt, std::move(column), {std::move(value)});
}
ExpressionPtr GreaterThanOrEqual(std::string column, Literal value) {
  return Predicate(Operation::kGtEq, std::move(column), {std::move(value)});
}
ExpressionPtr Equal(std::string column, Literal value) {
  return Predicate(Operation::kEq, std::move(column), {std::move(value)});
}
ExpressionPtr NotEqual(std::string column, Literal value) {
  return Predicate(Operation::kNotEq, std::move(column), {std::move(value)});
}
ExpressionPtr In(std::string column, std::vector<Literal> values) {
  return Predicate(Operation::kIn, std::move(column), std::move(values));
}
ExpressionPtr NotIn(std::string column, std::vector<Literal> values) {
  return Predicate(Operation::kNotIn, std::move(column), std::move(values));
}
ExpressionPtr StartsWith(std::string column, std::string prefix) {
  return Predicate(Operation::kStartsWith, std::move(column), {Literal::String(std::move(prefix))});
}
ExpressionPtr NotStartsWith(std::string column, std::string prefix) {
  return Predicate(Operation::kNotStartsWith, std::move(column), {Literal::String(std::move(prefix))});
}

namespace {

// How one side of the text forms renders names and values.
struct TextStyle {
  bool parseable;
};

bool IsKeyword(std::string_view word) {
  static constexpr std::string_view kKeywords[] = {"and", "or",   "not",    "in",   "is",   "null",
                                                   "nan", "like", "starts", "with", "true", "false"};
  for (std::string_view k : kKeywords) {
    if (EqualsIgnoreCase(word, k)) return true;
  }
  return false;
}

bool IsPlainIdentifier(std::string_view name) {
  if (name.empty() || IsKeyword(name)) return false;
  if (!(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

void AppendQuoted(std::string_view text, char quote, std::string* out) {
  out->push_back(quote);
  for (char c : text) {
    if (c == quote) out->push_back(quote);  // '' and "" escape the quote itself
    out->push_back(c);
  }
  out->push_back(quote);
}

void AppendColumn(const std::string& column, const TextStyle& style, std::string* out) {
  if (!style.parseable) {
    out->append(column);
    return;
  }
  // A dotted path of plain identifiers reads back as is; anything else is
  // one double-quoted name (the binder looks names up by their full text).
  bool plain = true;
  for (std::string_view part : Split(column, '.')) plain = plain && IsPlainIdentifier(part);
  if (plain) {
    out->append(column);
  } else {
    AppendQuoted(column, '"', out);
  }
}

void AppendLiteral(const Literal& literal, const TextStyle& style, std::string* out) {
  const TypeId id = literal.type()->id();
  if (style.parseable) {
    if (id == TypeId::kLong || id == TypeId::kInt || id == TypeId::kBoolean) {
      out->append(literal.ToString());
    } else {
      AppendQuoted(literal.ToString(), '\'', out);
    }
    return;
  }
  if (id == TypeId::kString) {
    out->push_back('"');
    for (char c : literal.bytes()) {
      if (c == '"' || c == '\\') out->push_back('\\');
      out->push_back(c);
    }
    out->push_back('"');
  } else {
    out->append(literal.ToString());
  }
}

void AppendExpression(const Expression& e, const TextStyle& style, std::string* out) {
  switch (e.op()) {
    case Operation::kTrue:
    case Operation::kFalse: out->append(OperationSymbol(e.op())); return;
    case Operation::kAnd:
    case Operation::kOr:
      out->push_back('(');
      AppendExpression(*e.left(), style, out);
      out->append(e.op() == Operation::kAnd ? " and " : " or ");
      AppendExpression(*e.right(), style, out);
      out->push_back(')');
      return;
    case Operation::kNot:
      out->append("not(");
      AppendExpression(*e.left(), style, out);
      out->push_back(')');
      return;
    default: break;
  }
  AppendColumn(e.column(), style, out);
  out->push_back(' ');
  out->append(OperationSymbol(e.op()));
  if (IsUnaryOp(e.op())) return;
  out->push_back(' ');
  if (IsSetOp(e.op())) {
    out->push_back('(');
    for (size_t i = 0; i < e.literals().size(); ++i) {
      if (i > 0) out->append(", ");
      AppendLiteral(e.literals()[i], style, out);
    }
    out->push_back(')');
    return;
  }
  if (e.literals().empty()) {
    out->append("?");  // a malformed unbound predicate; the binder refuses it
    return;
  }
  AppendLiteral(e.literal(), style, out);
}

ExpressionPtr Negate(const ExpressionPtr& e);

ExpressionPtr Rewrite(const ExpressionPtr& e) {
  switch (e->op()) {
    case Operation::kAnd: return And(Rewrite(e->left()), Rewrite(e->right()));
    case Operation::kOr: return Or(Rewrite(e->left()), Rewrite(e->right()));
    case Operation::kNot: return Negate(e->left());
    default: return e;
  }
}

// The rewritten form of not(e).
ExpressionPtr Negate(const ExpressionPtr& e) {
  switch (e->op()) {
    case Operation::kTrue: return AlwaysFalse();
    case Operation::kFalse: return AlwaysTrue();
    case Operation::kAnd: return Or(Negate(e->left()), Negate(e->right()));
    case Operation::kOr: return And(Negate(e->left()), Negate(e->right()));
    case Operation::kNot: return Rewrite(e->left());
    default:
      return ExpressionFactory::Pred(NegateOp(e->op()), e->column(), e->literals(), e->is_bound(), e->field_id(),
                                     e->type());
  }
}

}  // namespace

std::string ToString(const Expression& expr) {
  std::string out;
  AppendExpression(expr, TextStyle{false}, &out);
  return out;
}

std::string ToFilterText(const Expression& expr) {
  std::string out;
  AppendExpression(expr, TextStyle{true}, &out);
  return out;
}

ExpressionPtr RewriteNot(const ExpressionPtr& expr) { return Rewrite(expr); }

}  // namespace floe::iceberg
