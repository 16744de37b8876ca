#include "floe/iceberg/expression/parquet_filter.h"

#include <limits>
#include <optional>
#include <string>

namespace floe::iceberg {
namespace {

using parquet::ColumnDescriptor;
using parquet::ColumnPredicate;
using parquet::ValueConversion;
using PhysicalType = parquet::Type;

// How a bound in a finer unit becomes one in the file's coarser unit, so
// that the comparison keeps every matching row.
enum class Round { kExact, kFloor, kCeil };

// The outcome of encoding one literal for a column.
enum class Encoded { kOk, kImpossible, kUnsupported };

constexpr int64_t Pow10(int n) {
  int64_t v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

// `v` in units of 10^-from seconds as units of 10^-to seconds.
std::optional<int64_t> Rescale(int64_t v, int from, int to, Round round) {
  if (to >= from) {
    const int64_t f = Pow10(to - from);
    if (v > std::numeric_limits<int64_t>::max() / f || v < std::numeric_limits<int64_t>::min() / f) {
      return std::nullopt;
    }
    return v * f;
  }
  const int64_t f = Pow10(from - to);
  int64_t q = v / f;
  const int64_t r = v % f;
  if (r == 0) return q;
  if (round == Round::kExact) return std::nullopt;
  if (r < 0) --q;  // floor
  return round == Round::kCeil ? q + 1 : q;
}

// Digits of sub-second precision: the file's unit for a time or timestamp leaf.
int FileDigits(const ColumnDescriptor& c) {
  if (c.conversion == ValueConversion::kMillisToMicros32 || c.conversion == ValueConversion::kMillisToMicros64) {
    return 3;
  }
  return c.type->unit() == floe::TimeUnit::kNano ? 9 : 6;
}

Encoded EncodeInteger(int64_t v, const ColumnDescriptor& c, std::string* out) {
  if (c.physical_type == PhysicalType::INT32) {
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      return Encoded::kImpossible;
    }
    *out = parquet::PlainInt32(static_cast<int32_t>(v));
    return Encoded::kOk;
  }
  if (c.physical_type == PhysicalType::INT64) {
    *out = parquet::PlainInt64(v);
    return Encoded::kOk;
  }
  return Encoded::kUnsupported;
}

Encoded EncodeDecimal(Decimal128Value unscaled, const Literal& literal, const ColumnDescriptor& c, std::string* out) {
  if (c.type->id() != floe::TypeId::kDecimal128 || c.type->scale() != literal.type()->scale()) {
    return Encoded::kUnsupported;
  }
  switch (c.conversion) {
    case ValueConversion::kDecimalFromInt32:
    case ValueConversion::kDecimalFromInt64:
      if (unscaled < std::numeric_limits<int64_t>::min() || unscaled > std::numeric_limits<int64_t>::max()) {
        return Encoded::kImpossible;
      }
      return EncodeInteger(static_cast<int64_t>(unscaled), c, out);
    case ValueConversion::kDecimalFromBytes: {
      const std::string minimal = literal.ToBytes();  // big-endian two's complement, minimal
      if (c.physical_type == PhysicalType::BYTE_ARRAY) {
        *out = minimal;
        return Encoded::kOk;
      }
      if (c.physical_type != PhysicalType::FIXED_LEN_BYTE_ARRAY || c.type_length <= 0) return Encoded::kUnsupported;
      const auto width = static_cast<size_t>(c.type_length);
      if (minimal.size() > width) return Encoded::kImpossible;
      const char fill = (static_cast<uint8_t>(minimal[0]) & 0x80) ? '\xff' : '\0';
      *out = std::string(width - minimal.size(), fill) + minimal;
      return Encoded::kOk;
    }
    default: return Encoded::kUnsupported;
  }
}

Encoded Encode(const Literal& literal, const ColumnDescriptor& c, Round round, std::string* out) {
  const floe::TypeId column = c.type->id();
  const PhysicalType physical = c.physical_type;
  switch (literal.type()->id()) {
    case TypeId::kBoolean:
      if (column != floe::TypeId::kBool || physical != PhysicalType::BOOLEAN) return Encoded::kUnsupported;
      *out = std::string(1, literal.bool_value() ? '\x01' : '\x00');
      return Encoded::kOk;
    case TypeId::kInt:
    case TypeId::kLong: {
      const bool narrow = column == floe::TypeId::kInt8 || column == floe::TypeId::kInt16;
      if (!(narrow || column == floe::TypeId::kInt32 || column == floe::TypeId::kInt64)) return Encoded::kUnsupported;
      return EncodeInteger(literal.type()->id() == TypeId::kInt ? literal.int_value() : literal.long_value(), c, out);
    }
    case TypeId::kDate:
      if (column != floe::TypeId::kDate32 || physical != PhysicalType::INT32) return Encoded::kUnsupported;
      return EncodeInteger(literal.int_value(), c, out);
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      const bool time = literal.type()->id() == TypeId::kTime;
      if (column != (time ? floe::TypeId::kTime64 : floe::TypeId::kTimestamp)) return Encoded::kUnsupported;
      if (c.conversion != ValueConversion::kNone && c.conversion != ValueConversion::kMillisToMicros32 &&
          c.conversion != ValueConversion::kMillisToMicros64) {
        return Encoded::kUnsupported;  // INT96 has no order
      }
      const TypeId id = literal.type()->id();
      const int digits = (id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs) ? 9 : 6;
      const std::optional<int64_t> v = Rescale(literal.long_value(), digits, FileDigits(c), round);
      if (!v) return Encoded::kImpossible;
      return EncodeInteger(*v, c, out);
    }
    case TypeId::kFloat:
      if (column == floe::TypeId::kFloat32 && physical == PhysicalType::FLOAT) {
        *out = parquet::PlainFloat(literal.float_value());
        return Encoded::kOk;
      }
      if (column == floe::TypeId::kFloat64 && physical == PhysicalType::DOUBLE) {
        *out = parquet::PlainDouble(literal.float_value());
        return Encoded::kOk;
      }
      return Encoded::kUnsupported;
    case TypeId::kDouble: {
      const double v = literal.double_value();
      if (column == floe::TypeId::kFloat64 && physical == PhysicalType::DOUBLE) {
        *out = parquet::PlainDouble(v);
        return Encoded::kOk;
      }
      // A float file under a double column: only a bound that is a float
      // itself compares the same way.
      if (column == floe::TypeId::kFloat32 && physical == PhysicalType::FLOAT &&
          static_cast<double>(static_cast<float>(v)) == v) {
        *out = parquet::PlainFloat(static_cast<float>(v));
        return Encoded::kOk;
      }
      return Encoded::kUnsupported;
    }
    case TypeId::kDecimal: return EncodeDecimal(literal.decimal_value(), literal, c, out);
    case TypeId::kString:
      if (column != floe::TypeId::kString || physical != PhysicalType::BYTE_ARRAY) return Encoded::kUnsupported;
      *out = std::string(literal.bytes());
      return Encoded::kOk;
    case TypeId::kBinary:
      if (column != floe::TypeId::kBinary || physical != PhysicalType::BYTE_ARRAY) return Encoded::kUnsupported;
      *out = std::string(literal.bytes());
      return Encoded::kOk;
    case TypeId::kFixed:
    case TypeId::kUuid: {
      const floe::TypeId want = literal.type()->id() == TypeId::kUuid ? floe::TypeId::kUuid
                                                                      : floe::TypeId::kFixedSizeBinary;
      if (column != want || physical != PhysicalType::FIXED_LEN_BYTE_ARRAY ||
          static_cast<size_t>(c.type_length) != literal.bytes().size()) {
        return Encoded::kUnsupported;
      }
      *out = std::string(literal.bytes());
      return Encoded::kOk;
    }
    default: return Encoded::kUnsupported;
  }
}

int FindLeaf(const parquet::ParquetSchema& schema, int32_t field_id) {
  for (int i = 0; i < schema.num_columns(); ++i) {
    const ColumnDescriptor& c = schema.column(i);
    if (c.max_repetition_level != 0) continue;  // inside a list or map
    const parquet::SchemaNode& node = schema.nodes()[static_cast<size_t>(c.node)];
    if (node.field_id && *node.field_id == field_id) return i;
  }
  return -1;
}

// The smallest string greater than every string starting with `prefix`, or
// nullopt when there is none (a prefix of 0xff bytes).
std::optional<std::string> PrefixSuccessor(std::string prefix) {
  while (!prefix.empty() && static_cast<uint8_t>(prefix.back()) == 0xff) prefix.pop_back();
  if (prefix.empty()) return std::nullopt;
  prefix.back() = static_cast<char>(static_cast<uint8_t>(prefix.back()) + 1);
  return prefix;
}

void Translate(const Expression& p, const parquet::ParquetSchema& schema, std::vector<ColumnPredicate>* out) {
  if (!p.is_bound()) return;
  const int column = FindLeaf(schema, p.field_id());
  if (column < 0) return;
  const ColumnDescriptor& c = schema.column(column);
  using Op = ColumnPredicate::Op;
  auto add = [&](Op op, std::vector<std::string> values) {
    out->push_back(ColumnPredicate{column, op, std::move(values)});
  };
  auto compare = [&](Op op, const Literal& literal, Round round) {
    std::string value;
    if (Encode(literal, c, round, &value) == Encoded::kOk) add(op, {std::move(value)});
  };
  switch (p.op()) {
    case Operation::kIsNull: add(Op::kIsNull, {}); return;
    case Operation::kNotNull: add(Op::kIsNotNull, {}); return;
    case Operation::kLt: compare(Op::kLt, p.literal(), Round::kCeil); return;
    case Operation::kLtEq: compare(Op::kLtEq, p.literal(), Round::kFloor); return;
    case Operation::kGt: compare(Op::kGt, p.literal(), Round::kFloor); return;
    case Operation::kGtEq: compare(Op::kGtEq, p.literal(), Round::kCeil); return;
    case Operation::kEq: compare(Op::kEq, p.literal(), Round::kExact); return;
    case Operation::kIn: {
      std::vector<std::string> values;
      for (const Literal& literal : p.literals()) {
        std::string value;
        const Encoded e = Encode(literal, c, Round::kExact, &value);
        if (e == Encoded::kUnsupported) return;
        if (e == Encoded::kOk) values.push_back(std::move(value));  // impossible values match no row
      }
      if (!values.empty()) add(Op::kIn, std::move(values));
      return;
    }
    case Operation::kStartsWith: {
      if (c.type->id() != floe::TypeId::kString || c.physical_type != PhysicalType::BYTE_ARRAY) return;
      const std::string prefix(p.literal().bytes());
      add(Op::kGtEq, {prefix});
      if (std::optional<std::string> next = PrefixSuccessor(prefix)) add(Op::kLt, {std::move(*next)});
      return;
    }
    default: return;  // !=, not in, not starts with, NaN tests: statistics cannot exclude them
  }
}

void Conjuncts(const Expression& e, const parquet::ParquetSchema& schema, std::vector<ColumnPredicate>* out) {
  if (e.op() == Operation::kAnd) {
    Conjuncts(*e.left(), schema, out);
    Conjuncts(*e.right(), schema, out);
  } else if (e.is_predicate()) {
    Translate(e, schema, out);
  }
}

}  // namespace

std::vector<ColumnPredicate> ToParquetPredicates(const Expression& bound, const parquet::ParquetSchema& file_schema) {
  std::vector<ColumnPredicate> out;
  // RewriteNot needs shared ownership; copy the root's view through a
  // non-owning pointer (the tree outlives the call).
  const ExpressionPtr root(std::shared_ptr<const Expression>(), &bound);
  Conjuncts(*RewriteNot(root), file_schema, &out);
  return out;
}

}  // namespace floe::iceberg
