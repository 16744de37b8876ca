#include "floe/formats/parquet/dictionary_filter.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <unordered_set>

#include "floe/base/strings.h"

namespace floe::parquet {
namespace {

bool IsDictionaryDataEncoding(Encoding encoding) {
  return encoding == Encoding::PLAIN_DICTIONARY || encoding == Encoding::RLE_DICTIONARY;
}

// The size of every PLAIN value of a fixed-width column; 0 for BYTE_ARRAY.
int64_t FixedValueSize(const ColumnDescriptor& column) {
  switch (column.physical_type) {
    case Type::BOOLEAN: return 0;
    case Type::INT32:
    case Type::FLOAT: return 4;
    case Type::INT64:
    case Type::DOUBLE: return 8;
    case Type::INT96: return 12;
    case Type::FIXED_LEN_BYTE_ARRAY: return column.type_length;
    case Type::BYTE_ARRAY: return 0;
  }
  return 0;
}

bool IsBytesDecimal(const ColumnDescriptor& column) {
  return column.physical_type == Type::BYTE_ARRAY &&
         (column.conversion == ValueConversion::kDecimalFromBytes || column.type->id() == TypeId::kDecimal128);
}

// Whether two values of `column` are equal exactly when their bytes are,
// so that an IN list can be looked up by bytes. Not for floats (-0 == +0,
// NaN != NaN), decimals in BYTE_ARRAY (of any width), INT96 (ordered only
// under INT96_TIMESTAMP_ORDER) or INTERVAL (no order at all).
bool EqualityIsBytewise(const ColumnDescriptor& column) {
  switch (column.physical_type) {
    case Type::INT32:
    case Type::INT64: return true;
    case Type::FIXED_LEN_BYTE_ARRAY:
      return column.conversion != ValueConversion::kFloat16ToFloat32 && column.type->id() != TypeId::kInterval;
    case Type::BYTE_ARRAY: return !IsBytesDecimal(column);
    default: return false;
  }
}

// One predicate, asked of one value at a time.
class ValueTest {
 public:
  ValueTest(const ColumnDescriptor& column, const ColumnPredicate& predicate, int64_t dictionary_size)
      : column_(column), predicate_(predicate) {
    if (predicate.op != ColumnPredicate::Op::kEq && predicate.op != ColumnPredicate::Op::kIn) return;
    const int64_t size = FixedValueSize(column);
    const bool sizes_fit = std::all_of(predicate.values.begin(), predicate.values.end(), [&](const std::string& v) {
      return size == 0 || static_cast<int64_t>(v.size()) == size;
    });
    if (EqualityIsBytewise(column) && sizes_fit) {
      bytewise_ = true;
      equal_to_.insert(predicate.values.begin(), predicate.values.end());
      return;
    }
    // One by one: bounded, as a long IN list against a large dictionary
    // would cost more than the row group it might save.
    constexpr int64_t kMostComparisons = int64_t{1} << 24;
    undecided_ =
        static_cast<int64_t>(predicate.values.size()) > kMostComparisons / std::max<int64_t>(dictionary_size, 1);
  }

  bool MaySatisfy(std::string_view value) const {
    using Op = ColumnPredicate::Op;
    if (undecided_) return true;
    if (bytewise_) return equal_to_.contains(value);
    const auto compared = [&](const std::string& wanted) {
      return CompareStatisticsValues(column_, value, wanted);  // value against wanted
    };
    switch (predicate_.op) {
      case Op::kEq:
      case Op::kIn:
        return std::any_of(predicate_.values.begin(), predicate_.values.end(), [&](const std::string& wanted) {
          const std::optional<int> c = compared(wanted);
          return !c || *c == 0;
        });
      default: break;
    }
    if (predicate_.values.size() != 1) return true;
    const std::optional<int> c = compared(predicate_.values[0]);
    if (!c) return true;
    switch (predicate_.op) {
      case Op::kLt: return *c < 0;
      case Op::kLtEq: return *c <= 0;
      case Op::kGt: return *c > 0;
      case Op::kGtEq: return *c >= 0;
      default: return true;
    }
  }

 private:
  const ColumnDescriptor& column_;
  const ColumnPredicate& predicate_;
  bool bytewise_ = false;
  bool undecided_ = false;
  std::unordered_set<std::string_view> equal_to_;  // views into predicate_.values
};

}  // namespace

bool AllDataPagesDictionaryEncoded(const ColumnMetaData& meta) {
  if (meta.encoding_stats) {
    bool any_data_page = false;
    for (const PageEncodingStats& s : *meta.encoding_stats) {
      if (s.page_type != PageType::DATA_PAGE && s.page_type != PageType::DATA_PAGE_V2) continue;
      if (s.count <= 0) continue;
      if (!IsDictionaryDataEncoding(s.encoding)) return false;
      any_data_page = true;
    }
    return any_data_page;
  }
  bool plain_dictionary = false;
  for (const Encoding e : meta.encodings) {
    if (e == Encoding::PLAIN_DICTIONARY) {
      plain_dictionary = true;
    } else if (e != Encoding::RLE && e != Encoding::BIT_PACKED) {
      return false;
    }
  }
  return plain_dictionary;
}

bool DictionaryCanDecide(const ColumnPredicate& predicate) {
  using Op = ColumnPredicate::Op;
  switch (predicate.op) {
    case Op::kEq:
    case Op::kLt:
    case Op::kLtEq:
    case Op::kGt:
    case Op::kGtEq: return predicate.values.size() == 1;
    case Op::kIn: return true;
    case Op::kIsNull:
    case Op::kIsNotNull: return false;
  }
  return false;
}

Result<std::vector<std::string_view>> DictionaryPageValues(const ColumnDescriptor& column, Encoding encoding,
                                                           std::span<const uint8_t> data, int64_t num_values) {
  if (encoding != Encoding::PLAIN && encoding != Encoding::PLAIN_DICTIONARY) {
    return Status::Unsupported(
        StrCat("dictionary page of column ", Quote(column.dotted_path()), " in encoding ", EncodingName(encoding)));
  }
  if (column.physical_type == Type::BOOLEAN) {
    return Status::Unsupported(StrCat("dictionary page of BOOLEAN column ", Quote(column.dotted_path())));
  }
  if (num_values < 0) return Status::Corrupt(StrCat("dictionary page declares ", num_values, " values"));
  const auto* bytes = reinterpret_cast<const char*>(data.data());
  const int64_t fixed = FixedValueSize(column);
  std::vector<std::string_view> values;
  if (fixed > 0) {
    if (num_values > static_cast<int64_t>(data.size()) / fixed) {
      return Status::Corrupt(
          StrCat("dictionary page declares ", num_values, " values of ", fixed, " bytes in ", data.size(), " bytes"));
    }
    values.reserve(static_cast<size_t>(num_values));
    for (int64_t i = 0; i < num_values; ++i) values.emplace_back(bytes + i * fixed, static_cast<size_t>(fixed));
    return values;
  }
  // BYTE_ARRAY: each value behind its 4-byte little-endian length.
  if (num_values > static_cast<int64_t>(data.size() / 4)) {
    return Status::Corrupt(StrCat("dictionary page declares ", num_values, " values in ", data.size(), " bytes"));
  }
  values.reserve(static_cast<size_t>(num_values));
  size_t at = 0;
  for (int64_t i = 0; i < num_values; ++i) {
    uint32_t length = 0;
    if (data.size() - at < 4) {
      return Status::Corrupt(StrCat("dictionary page ends after ", i, " of its ", num_values, " values"));
    }
    std::memcpy(&length, bytes + at, 4);
    at += 4;
    if (length > data.size() - at) {
      return Status::Corrupt(
          StrCat("dictionary page value ", i, " of ", length, " bytes runs past the page's ", data.size(), " bytes"));
    }
    values.emplace_back(bytes + at, length);
    at += length;
  }
  return values;
}

bool DictionaryMayMatch(const ColumnDescriptor& column, std::span<const ColumnPredicate* const> predicates,
                        std::span<const std::string_view> dictionary) {
  std::vector<ValueTest> tests;
  for (const ColumnPredicate* p : predicates) {
    if (DictionaryCanDecide(*p)) tests.emplace_back(column, *p, static_cast<int64_t>(dictionary.size()));
  }
  if (tests.empty()) return true;
  const auto some_value = [&](const auto& satisfies) {
    return std::any_of(dictionary.begin(), dictionary.end(), satisfies);
  };
  if (column.max_repetition_level > 0) {
    // A list's row holds many values, each predicate perhaps met by another.
    return std::all_of(tests.begin(), tests.end(), [&](const ValueTest& t) {
      return some_value([&](std::string_view value) { return t.MaySatisfy(value); });
    });
  }
  return some_value([&](std::string_view value) {
    return std::all_of(tests.begin(), tests.end(), [&](const ValueTest& t) { return t.MaySatisfy(value); });
  });
}

}  // namespace floe::parquet
