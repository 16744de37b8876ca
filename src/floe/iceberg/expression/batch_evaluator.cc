// EvaluateBatch (evaluator.h): a bound expression over a whole record batch,
// one truth byte per row (0 false, 1 true, 2 unknown) per node, combined
// with SQL's three-valued logic and mapped to 0/1 at the end.

#include <algorithm>
#include <cmath>
#include <string_view>
#include <type_traits>

#include "floe/base/strings.h"
#include "floe/iceberg/columnar_value.h"
#include "floe/iceberg/expression/evaluator.h"
#include "floe/iceberg/expression/truth.h"

namespace floe::iceberg {
namespace {

constexpr uint8_t kF = 0;
constexpr uint8_t kT = 1;
constexpr uint8_t kU = 2;

using Bytes = std::vector<uint8_t>;

// A field's values in the batch: the leaf array (absent: all null) and one
// validity byte per row, with the nulls of enclosing structs folded in.
struct Column {
  bool present = false;
  Array leaf;
  Bytes valid;
};

bool FindNested(const Array& array, const floe::DataType& type, int32_t field_id, Bytes* valid, Array* leaf) {
  for (int i = 0; i < type.num_fields(); ++i) {
    const Field& f = type.field(i);
    const Array child = array.field(i);
    if (f.field_id && *f.field_id == field_id) {
      *leaf = child;
      return true;
    }
    if (f.type->id() == floe::TypeId::kStruct && FindNested(child, *f.type, field_id, valid, leaf)) {
      for (int64_t r = 0; r < child.length(); ++r) {
        if (child.IsNull(r)) (*valid)[static_cast<size_t>(r)] = 0;
      }
      return true;
    }
  }
  return false;
}

template <typename T, typename Get>
void CompareLoop(Operation op, int64_t n, const Bytes& valid, Get get, const T& lit, bool nan_unknown, Bytes* out) {
  auto run = [&](auto pass) {
    for (int64_t i = 0; i < n; ++i) {
      if (!valid[static_cast<size_t>(i)]) {
        (*out)[static_cast<size_t>(i)] = kU;
        continue;
      }
      const T v = get(i);
      if constexpr (std::is_floating_point_v<T>) {
        if (nan_unknown && std::isnan(v)) {
          (*out)[static_cast<size_t>(i)] = kU;
          continue;
        }
      }
      (*out)[static_cast<size_t>(i)] = pass(v) ? kT : kF;
    }
  };
  switch (op) {
    case Operation::kLt: run([&](const T& v) { return v < lit; }); break;
    case Operation::kLtEq: run([&](const T& v) { return !(lit < v); }); break;
    case Operation::kGt: run([&](const T& v) { return lit < v; }); break;
    case Operation::kGtEq: run([&](const T& v) { return !(v < lit); }); break;
    case Operation::kEq: run([&](const T& v) { return v == lit; }); break;
    case Operation::kNotEq: run([&](const T& v) { return !(v == lit); }); break;
    default: break;
  }
}

template <typename T, typename Get>
void InLoop(bool in, int64_t n, const Bytes& valid, Get get, std::vector<T> set, Bytes* out) {
  std::sort(set.begin(), set.end());
  for (int64_t i = 0; i < n; ++i) {
    if (!valid[static_cast<size_t>(i)]) {
      (*out)[static_cast<size_t>(i)] = kU;
      continue;
    }
    const bool found = std::binary_search(set.begin(), set.end(), get(i));
    (*out)[static_cast<size_t>(i)] = found == in ? kT : kF;
  }
}

class BatchEvaluator {
 public:
  BatchEvaluator(const RecordBatch& batch, const std::function<int(int32_t)>& column_of)
      : batch_(batch), column_of_(column_of), n_(batch.num_rows()) {}

  Result<Bytes> Eval(const Expression& e) {
    switch (e.op()) {
      case Operation::kTrue: return Bytes(static_cast<size_t>(n_), kT);
      case Operation::kFalse: return Bytes(static_cast<size_t>(n_), kF);
      case Operation::kAnd:
      case Operation::kOr: {
        FLOE_ASSIGN_OR_RETURN(Bytes left, Eval(*e.left()));
        FLOE_ASSIGN_OR_RETURN(Bytes right, Eval(*e.right()));
        const bool is_and = e.op() == Operation::kAnd;
        for (size_t i = 0; i < left.size(); ++i) {
          const auto a = static_cast<Truth>(left[i]);
          const auto b = static_cast<Truth>(right[i]);
          left[i] = static_cast<uint8_t>(is_and ? AndTruth(a, b) : OrTruth(a, b));
        }
        return left;
      }
      case Operation::kNot: {
        FLOE_ASSIGN_OR_RETURN(Bytes child, Eval(*e.left()));
        for (uint8_t& b : child) b = static_cast<uint8_t>(NotTruth(static_cast<Truth>(b)));
        return child;
      }
      default: return EvalPredicate(e);
    }
  }

 private:
  Result<Column> Resolve(int32_t field_id) {
    Column c;
    c.valid.assign(static_cast<size_t>(n_), 1);
    const int index = column_of_ ? column_of_(field_id) : -1;
    if (index < -1 || index >= batch_.num_columns()) {
      return Status::InvalidArgument(StrCat("field ", field_id, " maps to column ", index, " of a batch with ",
                                            batch_.num_columns(), " columns"));
    }
    if (index >= 0) {
      c.leaf = batch_.column(index);
      c.present = true;
    } else {
      for (int i = 0; i < batch_.num_columns() && !c.present; ++i) {
        const Array& column = batch_.column(i);
        if (column.type_id() != floe::TypeId::kStruct) continue;
        if (FindNested(column, *column.type(), field_id, &c.valid, &c.leaf)) {
          for (int64_t r = 0; r < n_; ++r) {
            if (column.IsNull(r)) c.valid[static_cast<size_t>(r)] = 0;
          }
          c.present = true;
        }
      }
    }
    if (!c.present) {
      std::fill(c.valid.begin(), c.valid.end(), 0);
      return c;
    }
    if (c.leaf.null_count() != 0) {
      for (int64_t r = 0; r < n_; ++r) {
        if (c.leaf.IsNull(r)) c.valid[static_cast<size_t>(r)] = 0;
      }
    }
    if (c.leaf.type_id() == floe::TypeId::kDictionary && c.leaf.dictionary().null_count() != 0) {
      // A valid index that refers to a null value is a null row.
      const Array dictionary = c.leaf.dictionary();
      const int32_t* indices = c.leaf.DictionaryIndices();
      for (int64_t r = 0; r < n_; ++r) {
        if (c.valid[static_cast<size_t>(r)] && dictionary.IsNull(indices[r])) c.valid[static_cast<size_t>(r)] = 0;
      }
    }
    return c;
  }

  Result<Bytes> EvalPredicate(const Expression& p) {
    Bytes out(static_cast<size_t>(n_), kU);
    if (!p.is_bound()) return out;
    FLOE_ASSIGN_OR_RETURN(Column c, Resolve(p.field_id()));
    const Operation op = p.op();
    if (op == Operation::kIsNull || op == Operation::kNotNull) {
      for (size_t i = 0; i < out.size(); ++i) out[i] = (c.valid[i] != 0) == (op == Operation::kNotNull) ? kT : kF;
      return out;
    }
    if (c.present && FastPath(p, c, &out)) return out;
    for (int64_t i = 0; i < n_; ++i) {
      std::optional<Literal> v;
      if (c.valid[static_cast<size_t>(i)]) v = LiteralAt(c.leaf, i);
      out[static_cast<size_t>(i)] = static_cast<uint8_t>(EvaluatePredicate(p, v));
    }
    return out;
  }

  // Typed loops for a column whose layout is the predicate type's own;
  // false when there is none and the per-row path must run.
  bool FastPath(const Expression& p, const Column& c, Bytes* out) {
    const Operation op = p.op();
    const floe::DataType& layout = *c.leaf.type();
    const TypeId type = p.type()->id();
    const bool compare = op >= Operation::kLt && op <= Operation::kNotEq && p.literals().size() == 1;
    const bool set = IsSetOp(op);
    for (const Literal& l : p.literals()) {
      if (IsNaNLiteral(l)) return false;
    }
    auto ints = [&](auto tag, auto literal_value) {
      using T = decltype(tag);
      const T* values = c.leaf.Values<T>();
      auto get = [values](int64_t i) { return values[i]; };
      if (compare) {
        CompareLoop<T>(op, n_, c.valid, get, literal_value(p.literal()), false, out);
        return true;
      }
      if (set) {
        std::vector<T> lits;
        for (const Literal& l : p.literals()) lits.push_back(literal_value(l));
        InLoop<T>(op == Operation::kIn, n_, c.valid, get, std::move(lits), out);
        return true;
      }
      return false;
    };
    auto floats = [&](auto tag, auto literal_value) {
      using T = decltype(tag);
      const T* values = c.leaf.Values<T>();
      if (op == Operation::kIsNan || op == Operation::kNotNan) {
        for (int64_t i = 0; i < n_; ++i) {
          const bool nan = c.valid[static_cast<size_t>(i)] && std::isnan(values[i]);
          (*out)[static_cast<size_t>(i)] = nan == (op == Operation::kIsNan) ? kT : kF;
        }
        return true;
      }
      if (!compare) return false;
      CompareLoop<T>(op, n_, c.valid, [values](int64_t i) { return values[i]; }, literal_value(p.literal()), true,
                     out);
      return true;
    };
    switch (type) {
      case TypeId::kInt:
        if (layout.id() != floe::TypeId::kInt32) return false;
        return ints(int32_t{}, [](const Literal& l) { return l.int_value(); });
      case TypeId::kDate:
        if (layout.id() != floe::TypeId::kDate32) return false;
        return ints(int32_t{}, [](const Literal& l) { return l.int_value(); });
      case TypeId::kLong:
        if (layout.id() != floe::TypeId::kInt64) return false;
        return ints(int64_t{}, [](const Literal& l) { return l.long_value(); });
      case TypeId::kTime:
        if (layout.id() != floe::TypeId::kTime64 || layout.unit() != floe::TimeUnit::kMicro) return false;
        return ints(int64_t{}, [](const Literal& l) { return l.long_value(); });
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs: {
        const bool nanos = type == TypeId::kTimestampNs || type == TypeId::kTimestampTzNs;
        if (layout.id() != floe::TypeId::kTimestamp ||
            layout.unit() != (nanos ? floe::TimeUnit::kNano : floe::TimeUnit::kMicro)) {
          return false;
        }
        return ints(int64_t{}, [](const Literal& l) { return l.long_value(); });
      }
      case TypeId::kDecimal:
        if (layout.id() != floe::TypeId::kDecimal128 || layout.scale() != p.type()->scale()) return false;
        return ints(Decimal128Value{}, [](const Literal& l) { return l.decimal_value(); });
      case TypeId::kFloat:
        if (layout.id() != floe::TypeId::kFloat32) return false;
        return floats(float{}, [](const Literal& l) { return l.float_value(); });
      case TypeId::kDouble:
        if (layout.id() != floe::TypeId::kFloat64) return false;
        return floats(double{}, [](const Literal& l) { return l.double_value(); });
      case TypeId::kString:
        if (layout.id() == floe::TypeId::kDictionary && layout.value_type()->id() == floe::TypeId::kString) {
          return DictionaryStrings(p, c, out);
        }
        return layout.id() == floe::TypeId::kString && Strings(p, c, out);
      default: return false;
    }
  }

  bool Strings(const Expression& p, const Column& c, Bytes* out) {
    const Array& a = c.leaf;
    const auto value = [&a](int64_t i) { return a.GetString(i); };
    return StringLoops(p, n_, c.valid, value, out);
  }

  // A string predicate over dictionary-encoded strings: when the dictionary
  // is no longer than the batch, evaluated once per value and looked up per
  // row; otherwise per row through the index. (Resolve made rows whose value
  // is null invalid, so every valid row's index and value are valid.)
  bool DictionaryStrings(const Expression& p, const Column& c, Bytes* out) {
    const Array dictionary = c.leaf.dictionary();
    const int32_t* indices = c.leaf.DictionaryIndices();
    if (dictionary.length() > n_) {
      const auto row_value = [&](int64_t i) { return dictionary.GetString(indices[i]); };
      return StringLoops(p, n_, c.valid, row_value, out);
    }
    const int64_t count = dictionary.length();
    Bytes valid(static_cast<size_t>(count), 1);
    for (int64_t j = 0; j < count; ++j) {
      if (dictionary.IsNull(j)) valid[static_cast<size_t>(j)] = 0;
    }
    Bytes truth(static_cast<size_t>(count), kU);
    const auto value = [&](int64_t j) { return dictionary.GetString(j); };
    if (!StringLoops(p, count, valid, value, &truth)) return false;
    for (int64_t i = 0; i < n_; ++i) {
      if (c.valid[static_cast<size_t>(i)]) (*out)[static_cast<size_t>(i)] = truth[static_cast<size_t>(indices[i])];
    }
    return true;
  }

  // Rows [0, n) whose string is get(i); rows not `valid` are left unknown.
  template <typename Get>
  bool StringLoops(const Expression& p, int64_t n, const Bytes& valid, Get get, Bytes* out) {
    const Operation op = p.op();
    if (op >= Operation::kLt && op <= Operation::kNotEq && p.literals().size() == 1) {
      // std::string_view orders bytes as unsigned char: UTF-8 code point order.
      CompareLoop<std::string_view>(op, n, valid, get, p.literal().bytes(), false, out);
      return true;
    }
    if (IsSetOp(op)) {
      std::vector<std::string_view> set;
      for (const Literal& l : p.literals()) set.push_back(l.bytes());
      InLoop<std::string_view>(op == Operation::kIn, n, valid, get, std::move(set), out);
      return true;
    }
    if ((op == Operation::kStartsWith || op == Operation::kNotStartsWith) && p.literals().size() == 1) {
      const std::string_view prefix = p.literal().bytes();
      const bool want = op == Operation::kStartsWith;
      for (int64_t i = 0; i < n; ++i) {
        if (!valid[static_cast<size_t>(i)]) continue;  // stays unknown
        (*out)[static_cast<size_t>(i)] = get(i).starts_with(prefix) == want ? kT : kF;
      }
      return true;
    }
    return false;
  }

  const RecordBatch& batch_;
  const std::function<int(int32_t)>& column_of_;
  int64_t n_;
};

}  // namespace

Result<std::vector<uint8_t>> EvaluateBatch(const Expression& bound, const RecordBatch& batch,
                                           const std::function<int(int32_t field_id)>& column_of) {
  FLOE_ASSIGN_OR_RETURN(Bytes truth, BatchEvaluator(batch, column_of).Eval(bound));
  for (uint8_t& b : truth) b = b == kT ? 1 : 0;
  return truth;
}

}  // namespace floe::iceberg
