#include "floe/iceberg/expression/binder.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "floe/base/strings.h"

namespace floe::iceberg {
namespace {

struct FieldInfo {
  const NestedField* field = nullptr;
  bool in_collection = false;  // inside a list or a map
  bool never_null = false;     // it and every enclosing struct are required
};

bool FindField(const std::vector<NestedField>& fields, int32_t id, bool in_collection, bool never_null,
               FieldInfo* out) {
  for (const NestedField& f : fields) {
    const bool f_never_null = never_null && f.required;
    if (f.field_id == id) {
      *out = FieldInfo{&f, in_collection, f_never_null};
      return true;
    }
    if (f.type->is_nested()) {
      const bool collection = in_collection || f.type->id() != TypeId::kStruct;
      if (FindField(f.type->fields(), id, collection, f_never_null && !collection, out)) return true;
    }
  }
  return false;
}

// Where a literal lands against a column type: inside its range, or beyond
// either end (so that the comparison is decided for every value).
enum class Fit { kFits, kAboveMax, kBelowMin };

Fit BySign(bool negative) { return negative ? Fit::kBelowMin : Fit::kAboveMax; }

// Text of an optionally signed run of digits, with an optional fraction.
bool IsPlainNumber(std::string_view text, size_t* whole_digits, size_t* fraction_digits, bool* negative) {
  *negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  const size_t point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view fraction = point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
  if (whole.empty() && fraction.empty()) return false;
  for (char c : whole) {
    if (c < '0' || c > '9') return false;
  }
  for (char c : fraction) {
    if (c < '0' || c > '9') return false;
  }
  const size_t first = whole.find_first_not_of('0');
  *whole_digits = first == std::string_view::npos ? 0 : whole.size() - first;
  *fraction_digits = fraction.size();
  return true;
}

Decimal128Value PowerOfTen(int32_t n) {
  Decimal128Value v = 1;
  for (int32_t i = 0; i < n; ++i) v *= 10;
  return v;
}

// Casts `literal` for a column of `type`, or says which end of the range it
// lies beyond. An error when the value cannot be read as the type at all.
Result<Fit> CastForColumn(const Literal& literal, const TypePtr& type, Literal* out) {
  const TypeId from = literal.type()->id();
  const TypeId to = type->id();
  if (from == TypeId::kInt || from == TypeId::kLong) {
    const int64_t v = from == TypeId::kInt ? literal.int_value() : literal.long_value();
    if (to == TypeId::kInt && (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())) {
      return BySign(v < 0);
    }
    if (to == TypeId::kDecimal) {
      const Decimal128Value max_whole = PowerOfTen(type->precision() - type->scale()) - 1;
      if (v > max_whole || v < -max_whole) return BySign(v < 0);
    }
  }
  if (from == TypeId::kDouble && to == TypeId::kFloat) {
    const double v = literal.double_value();
    if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max()) return BySign(v < 0);
  }
  if (from == TypeId::kString) {
    const std::string_view text = Trim(literal.bytes());
    size_t whole = 0, fraction = 0;
    bool negative = false;
    const bool number = IsPlainNumber(text, &whole, &fraction, &negative);
    if ((to == TypeId::kInt || to == TypeId::kLong) && number && fraction == 0 && text.find('.') == std::string_view::npos) {
      // An integer too long for the type reads as out of range, not as garbage.
      int64_t v = 0;
      std::string_view digits = text;
      if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (ec == std::errc::result_out_of_range) return BySign(negative);
      if (ec == std::errc() && end == digits.data() + digits.size()) return CastForColumn(Literal::Long(v), type, out);
    }
    if (to == TypeId::kDecimal && number && fraction <= static_cast<size_t>(type->scale()) &&
        whole > static_cast<size_t>(type->precision() - type->scale())) {
      return BySign(negative);
    }
    if (to == TypeId::kFloat) {
      double v = 0;
      std::string_view digits = text;
      if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (ec == std::errc() && std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max()) {
        return BySign(negative);
      }
    }
  }
  FLOE_ASSIGN_OR_RETURN(*out, literal.CastTo(type));
  return Fit::kFits;
}

std::string Render(const Literal& literal) {
  return literal.type()->id() == TypeId::kString ? Quote(literal.bytes()) : literal.ToString();
}

bool IsNaN(const Literal& literal) {
  const TypeId id = literal.type()->id();
  return (id == TypeId::kFloat && std::isnan(literal.float_value())) ||
         (id == TypeId::kDouble && std::isnan(literal.double_value()));
}

class Binder {
 public:
  Binder(const Schema& schema, bool case_sensitive) : schema_(schema), case_sensitive_(case_sensitive) {}

  Result<ExpressionPtr> Bind(const ExpressionPtr& e) {
    switch (e->op()) {
      case Operation::kTrue:
      case Operation::kFalse: return e;
      case Operation::kAnd: {
        FLOE_ASSIGN_OR_RETURN(ExpressionPtr left, Bind(e->left()));
        FLOE_ASSIGN_OR_RETURN(ExpressionPtr right, Bind(e->right()));
        return And(std::move(left), std::move(right));
      }
      case Operation::kOr: {
        FLOE_ASSIGN_OR_RETURN(ExpressionPtr left, Bind(e->left()));
        FLOE_ASSIGN_OR_RETURN(ExpressionPtr right, Bind(e->right()));
        return Or(std::move(left), std::move(right));
      }
      case Operation::kNot: {
        FLOE_ASSIGN_OR_RETURN(ExpressionPtr child, Bind(e->left()));
        return Not(std::move(child));
      }
      default: return BindPredicate(*e);
    }
  }

 private:
  Result<ExpressionPtr> BindPredicate(const Expression& p) {
    // A bound predicate is rebound by field id, so a filter bound to one
    // schema follows renames into another.
    const NestedField* found = p.is_bound() ? schema_.FindFieldById(p.field_id())
                                            : schema_.FindFieldByName(p.column(), case_sensitive_);
    if (found == nullptr) return Status::InvalidArgument(StrCat("cannot find column ", Quote(p.column()), " in schema"));
    FieldInfo info;
    FindField(schema_.fields(), found->field_id, false, true, &info);
    const std::string name = schema_.FindColumnName(found->field_id);
    const TypePtr& type = found->type;
    if (info.in_collection) {
      return Status::InvalidArgument(StrCat("cannot filter on column ", Quote(name), ": it is inside a list or map"));
    }
    if (type->is_nested()) {
      return Status::InvalidArgument(
          StrCat("cannot filter on column ", Quote(name), " of type ", type->ToString(), ": not a primitive column"));
    }
    const Operation op = p.op();
    const std::vector<Literal>& literals = p.literals();
    const std::string described = StrCat("column ", name, " (", type->ToString(), ")");
    if (IsUnaryOp(op)) {
      if (!literals.empty()) return Status::InvalidArgument(StrCat("'", OperationSymbol(op), "' takes no value"));
      if (op == Operation::kIsNan || op == Operation::kNotNan) {
        if (type->id() != TypeId::kFloat && type->id() != TypeId::kDouble) {
          return Status::InvalidArgument(StrCat("'", OperationSymbol(op), "' needs a float or double column, not ", described));
        }
      }
      const bool always_null = type->id() == TypeId::kUnknown;
      if (op == Operation::kIsNull && (info.never_null || always_null)) {
        return always_null ? AlwaysTrue() : AlwaysFalse();
      }
      if (op == Operation::kNotNull && (info.never_null || always_null)) {
        return always_null ? AlwaysFalse() : AlwaysTrue();
      }
      return BoundPredicate(op, name, found->field_id, type);
    }
    // Every non-null value satisfies the predicate: true where nulls cannot
    // occur, else `is not null`, so null rows still compare unknown.
    auto all_non_null = [&]() -> ExpressionPtr {
      if (info.never_null) return AlwaysTrue();
      return BoundPredicate(Operation::kNotNull, name, found->field_id, type);
    };
    if (op == Operation::kStartsWith || op == Operation::kNotStartsWith) {
      if (type->id() != TypeId::kString) {
        return Status::InvalidArgument(StrCat("'", OperationSymbol(op), "' needs a string column, not ", described));
      }
      if (literals.size() != 1 || literals[0].type()->id() != TypeId::kString) {
        return Status::InvalidArgument(StrCat("'", OperationSymbol(op), "' on ", described, " needs one string value"));
      }
      return BoundPredicate(op, name, found->field_id, type, literals);
    }
    auto cast = [&](const Literal& literal, Literal* out) -> Result<Fit> {
      Result<Fit> fit = CastForColumn(literal, type, out);
      if (!fit.ok()) return Status::InvalidArgument(StrCat("cannot compare ", described, " with ", Render(literal)));
      if (*fit == Fit::kFits && IsNaN(*out)) {
        return Status::InvalidArgument(StrCat("cannot compare ", described, " with NaN (use 'is nan')"));
      }
      return fit;
    };
    if (IsSetOp(op)) {
      std::vector<Literal> values;
      for (const Literal& literal : literals) {
        Literal value = literal;
        FLOE_ASSIGN_OR_RETURN(Fit fit, cast(literal, &value));
        if (fit == Fit::kFits) values.push_back(std::move(value));
      }
      std::sort(values.begin(), values.end(), [](const Literal& a, const Literal& b) { return a.Compare(b) < 0; });
      values.erase(std::unique(values.begin(), values.end(),
                               [](const Literal& a, const Literal& b) { return a.Compare(b) == 0; }),
                   values.end());
      if (values.empty()) return op == Operation::kIn ? AlwaysFalse() : all_non_null();
      if (values.size() == 1) {
        return BoundPredicate(op == Operation::kIn ? Operation::kEq : Operation::kNotEq, name, found->field_id, type,
                              std::move(values));
      }
      return BoundPredicate(op, name, found->field_id, type, std::move(values));
    }
    if (literals.size() != 1) {
      return Status::InvalidArgument(StrCat("'", OperationSymbol(op), "' on ", described, " needs one value, got ",
                                            literals.size()));
    }
    Literal value = literals[0];
    FLOE_ASSIGN_OR_RETURN(Fit fit, cast(literals[0], &value));
    if (fit != Fit::kFits) {
      // spec-compatible folding as Java's UnboundPredicate.bind does it.
      const bool above = fit == Fit::kAboveMax;
      switch (op) {
        case Operation::kLt:
        case Operation::kLtEq: return above ? all_non_null() : AlwaysFalse();
        case Operation::kGt:
        case Operation::kGtEq: return above ? AlwaysFalse() : all_non_null();
        case Operation::kEq: return AlwaysFalse();
        case Operation::kNotEq: return all_non_null();
        default: break;
      }
    }
    return BoundPredicate(op, name, found->field_id, type, {std::move(value)});
  }

  const Schema& schema_;
  bool case_sensitive_;
};

}  // namespace

Result<ExpressionPtr> Bind(const Schema& schema, const ExpressionPtr& expr, bool case_sensitive) {
  return Binder(schema, case_sensitive).Bind(expr);
}

}  // namespace floe::iceberg
