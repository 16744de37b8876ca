#include "floe/cli/table_syntax.h"

#include <cctype>
#include <charconv>

#include "floe/base/strings.h"
#include "floe/iceberg/update/partition_spec_update.h"

namespace floe::cli {
namespace {

using iceberg::NestedField;
using iceberg::Type;
using iceberg::TypePtr;

// A cursor over the text with the few token kinds these forms need.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ >= text_.size();
  }
  // Consumes `c` if it comes next.
  bool Accept(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  Status Expect(char c) {
    if (Accept(c)) return Status::OK();
    return Error(StrCat("expected '", c, "'"));
  }
  // A name: letters, digits, '_', '.', or a "double-quoted" name.
  Result<std::string> Name(const char* what) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '"') {
      const size_t end = text_.find('"', pos_ + 1);
      if (end == std::string_view::npos) return Error("unterminated quoted name");
      std::string name(text_.substr(pos_ + 1, end - pos_ - 1));
      pos_ = end + 1;
      return name;
    }
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' || text_[pos_] == '.')) {
      ++pos_;
    }
    if (pos_ == start) return Error(StrCat("expected ", what));
    return std::string(text_.substr(start, pos_ - start));
  }
  // The next word, lowercased, without consuming it.
  std::string PeekWord() {
    SkipSpace();
    size_t end = pos_;
    while (end < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) ++end;
    std::string word(text_.substr(pos_, end - pos_));
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return word;
  }
  bool AcceptWord(std::string_view word) {
    if (PeekWord() != word) return false;
    pos_ += word.size();
    return true;
  }
  Result<int32_t> Integer() {
    SkipSpace();
    int32_t value = 0;
    const auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), value);
    if (ec != std::errc()) return Error("expected a number");
    pos_ = static_cast<size_t>(end - text_.data());
    return value;
  }
  Status Error(std::string what) const {
    return Status::InvalidArgument(StrCat(what, " at position ", pos_ + 1, " of ", Quote(text_)));
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

class SchemaParser {
 public:
  explicit SchemaParser(Scanner& scanner) : s_(scanner) {}

  Result<NestedField> Column() {
    FLOE_ASSIGN_OR_RETURN(std::string name, s_.Name("a column name"));
    const int32_t id = ++next_id_;
    FLOE_ASSIGN_OR_RETURN(TypePtr type, ParseType());
    bool required = false;
    if (s_.AcceptWord("not")) {
      if (!s_.AcceptWord("null")) return s_.Error("expected NULL after NOT");
      required = true;
    } else if (s_.AcceptWord("null")) {
      required = false;
    }
    return NestedField{id, std::move(name), std::move(type), required, {}, {}, {}};
  }

  Result<std::vector<NestedField>> Columns() {
    std::vector<NestedField> fields;
    do {
      FLOE_ASSIGN_OR_RETURN(NestedField field, Column());
      fields.push_back(std::move(field));
    } while (s_.Accept(','));
    if (!s_.AtEnd()) return s_.Error("expected ',' or the end");
    return fields;
  }

 private:
  Result<TypePtr> ParseType() {
    const std::string word = s_.PeekWord();
    if (word.empty()) return s_.Error("expected a type");
    s_.AcceptWord(word);
    if (word == "struct") {
      FLOE_RETURN_IF_ERROR(s_.Expect('<'));
      std::vector<NestedField> fields;
      do {
        FLOE_ASSIGN_OR_RETURN(std::string name, s_.Name("a field name"));
        FLOE_RETURN_IF_ERROR(s_.Expect(':'));
        const int32_t id = ++next_id_;
        FLOE_ASSIGN_OR_RETURN(TypePtr type, ParseType());
        bool required = false;
        if (s_.AcceptWord("not")) {
          if (!s_.AcceptWord("null")) return s_.Error("expected NULL after NOT");
          required = true;
        }
        fields.push_back(NestedField{id, std::move(name), std::move(type), required, {}, {}, {}});
      } while (s_.Accept(','));
      FLOE_RETURN_IF_ERROR(s_.Expect('>'));
      return Type::Struct(std::move(fields));
    }
    if (word == "list" || word == "array") {
      FLOE_RETURN_IF_ERROR(s_.Expect('<'));
      const int32_t id = ++next_id_;
      FLOE_ASSIGN_OR_RETURN(TypePtr element, ParseType());
      FLOE_RETURN_IF_ERROR(s_.Expect('>'));
      return Type::List(id, std::move(element), false);
    }
    if (word == "map") {
      FLOE_RETURN_IF_ERROR(s_.Expect('<'));
      const int32_t key_id = ++next_id_;
      const int32_t value_id = ++next_id_;
      FLOE_ASSIGN_OR_RETURN(TypePtr key, ParseType());
      FLOE_RETURN_IF_ERROR(s_.Expect(','));
      FLOE_ASSIGN_OR_RETURN(TypePtr value, ParseType());
      FLOE_RETURN_IF_ERROR(s_.Expect('>'));
      return Type::Map(key_id, std::move(key), value_id, std::move(value), false);
    }
    if (word == "decimal" || word == "numeric") {
      FLOE_RETURN_IF_ERROR(s_.Expect('('));
      FLOE_ASSIGN_OR_RETURN(int32_t precision, s_.Integer());
      int32_t scale = 0;
      if (s_.Accept(',')) {
        FLOE_ASSIGN_OR_RETURN(scale, s_.Integer());
      }
      FLOE_RETURN_IF_ERROR(s_.Expect(')'));
      auto type = Type::Decimal(precision, scale);
      if (!type.ok()) return s_.Error(type.status().message());
      return type;
    }
    if (word == "fixed") {
      const bool bracket = s_.Accept('[');
      if (!bracket) FLOE_RETURN_IF_ERROR(s_.Expect('('));
      FLOE_ASSIGN_OR_RETURN(int32_t length, s_.Integer());
      FLOE_RETURN_IF_ERROR(s_.Expect(bracket ? ']' : ')'));
      auto type = Type::Fixed(length);
      if (!type.ok()) return s_.Error(type.status().message());
      return type;
    }
    static const std::pair<std::string_view, std::string_view> kAliases[] = {
        {"bigint", "long"},    {"integer", "int"},   {"smallint", "int"}, {"tinyint", "int"},
        {"varchar", "string"}, {"text", "string"},   {"bool", "boolean"}, {"real", "float"},
        {"float4", "float"},   {"float8", "double"}, {"bytea", "binary"}, {"blob", "binary"},
    };
    std::string name = word;
    for (const auto& [alias, iceberg_name] : kAliases) {
      if (name == alias) name = iceberg_name;
    }
    auto type = iceberg::ParsePrimitiveType(name);
    if (!type.ok()) return s_.Error(StrCat("unknown type '", word, "'"));
    return type;
  }

  Scanner& s_;
  int32_t next_id_ = 0;
};

}  // namespace

Result<iceberg::Schema> ParseSchemaText(std::string_view text) {
  Scanner scanner(text);
  SchemaParser parser(scanner);
  FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, parser.Columns());
  auto schema = iceberg::Schema::Make(iceberg::Schema::kInitialSchemaId, std::move(fields));
  if (!schema.ok()) return Status::InvalidArgument(StrCat("schema ", Quote(text), ": ", schema.status().message()));
  return schema;
}

Result<NestedField> ParseColumnText(std::string_view text) {
  Scanner scanner(text);
  SchemaParser parser(scanner);
  FLOE_ASSIGN_OR_RETURN(NestedField field, parser.Column());
  if (!scanner.AtEnd()) return scanner.Error("expected the end of the column definition");
  return field;
}

Result<std::vector<PartitionTerm>> ParsePartitionTerms(std::string_view text) {
  Scanner s(text);
  std::vector<PartitionTerm> terms;
  if (s.AtEnd()) return terms;
  do {
    FLOE_ASSIGN_OR_RETURN(std::string first, s.Name("a column or transform"));
    PartitionTerm term;
    if (!s.Accept('(')) {
      term.column = std::move(first);
      terms.push_back(std::move(term));
      continue;
    }
    std::string transform = first;
    for (char& c : transform) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (transform == "bucket" || transform == "truncate") {
      FLOE_ASSIGN_OR_RETURN(int32_t parameter, s.Integer());
      FLOE_RETURN_IF_ERROR(s.Expect(','));
      auto made = transform == "bucket" ? iceberg::Transform::Bucket(parameter) : iceberg::Transform::Truncate(parameter);
      if (!made.ok()) return s.Error(made.status().message());
      term.transform = *made;
    } else {
      auto made = iceberg::Transform::Parse(transform);
      if (!made.ok() || made->is_unknown()) return s.Error(StrCat("unknown transform '", first, "'"));
      term.transform = *made;
    }
    FLOE_ASSIGN_OR_RETURN(term.column, s.Name("a column name"));
    FLOE_RETURN_IF_ERROR(s.Expect(')'));
    terms.push_back(std::move(term));
  } while (s.Accept(','));
  if (!s.AtEnd()) return s.Error("expected ',' or the end");
  return terms;
}

Result<iceberg::PartitionSpec> ParsePartitionText(std::string_view text, const iceberg::Schema& schema) {
  FLOE_ASSIGN_OR_RETURN(std::vector<PartitionTerm> terms, ParsePartitionTerms(text));
  iceberg::PartitionSpecUpdate update({}, iceberg::PartitionSpec{}, schema,
                                      iceberg::PartitionSpec::kUnpartitionedLastAssignedId, 2);
  for (const PartitionTerm& term : terms) update.AddField(term.column, term.transform);
  FLOE_ASSIGN_OR_RETURN(auto applied, update.Apply());
  return applied.spec;
}

Result<iceberg::SortOrder> ParseSortText(std::string_view text, const iceberg::Schema& schema) {
  Scanner s(text);
  iceberg::SortOrder order;
  if (s.AtEnd()) return order;
  order.order_id = 1;
  do {
    FLOE_ASSIGN_OR_RETURN(std::string first, s.Name("a column or transform"));
    iceberg::SortField field;
    std::string column = first;
    if (s.Accept('(')) {
      std::string name = first;
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (name == "bucket" || name == "truncate") {
        FLOE_ASSIGN_OR_RETURN(int32_t parameter, s.Integer());
        FLOE_RETURN_IF_ERROR(s.Expect(','));
        auto made = name == "bucket" ? iceberg::Transform::Bucket(parameter) : iceberg::Transform::Truncate(parameter);
        if (!made.ok()) return s.Error(made.status().message());
        field.transform = *made;
      } else {
        auto made = iceberg::Transform::Parse(name);
        if (!made.ok() || made->is_unknown()) return s.Error(StrCat("unknown transform '", first, "'"));
        field.transform = *made;
      }
      FLOE_ASSIGN_OR_RETURN(column, s.Name("a column name"));
      FLOE_RETURN_IF_ERROR(s.Expect(')'));
    }
    const NestedField* source = schema.FindFieldByName(column);
    if (source == nullptr) return Status::InvalidArgument(StrCat("cannot sort by '", column, "': no such column"));
    if (!field.transform.CanTransform(*source->type)) {
      return Status::InvalidArgument(StrCat("cannot sort by ", field.transform.ToString(), "(", column,
                                            "): not defined for ", source->type->ToString()));
    }
    field.source_ids = {source->field_id};
    if (s.AcceptWord("desc")) {
      field.direction = iceberg::SortDirection::kDesc;
      field.null_order = iceberg::NullOrder::kNullsLast;  // as SQL: DESC puts nulls last by default
    } else {
      s.AcceptWord("asc");
    }
    if (s.AcceptWord("nulls")) {
      if (s.AcceptWord("first")) {
        field.null_order = iceberg::NullOrder::kNullsFirst;
      } else if (s.AcceptWord("last")) {
        field.null_order = iceberg::NullOrder::kNullsLast;
      } else {
        return s.Error("expected FIRST or LAST after NULLS");
      }
    }
    order.fields.push_back(std::move(field));
  } while (s.Accept(','));
  if (!s.AtEnd()) return s.Error("expected ',' or the end");
  return order;
}

}  // namespace floe::cli
