#include "floe/iceberg/default_value.h"

#include <simdjson.h>

#include <string>

#include "floe/base/strings.h"

namespace floe::iceberg {

Result<std::optional<Literal>> ParseDefaultValue(const TypePtr& type, std::string_view json) {
  if (type->is_nested()) {
    return Status::Unsupported(StrCat("default value ", json, " of nested type ", type->ToString()));
  }
  // simdjson wants its padding: parse a padded copy.
  const simdjson::padded_string padded(json);
  simdjson::dom::parser parser;
  simdjson::dom::element value;
  auto bad = [&]() {
    return Status::Corrupt(StrCat("default value ", json, " is not a value of type ", type->ToString()));
  };
  if (parser.parse(padded).get(value) != simdjson::SUCCESS) return bad();
  if (value.is_null()) return std::optional<Literal>();
  switch (type->id()) {
    case TypeId::kBoolean: {
      bool b;
      if (value.get_bool().get(b) != simdjson::SUCCESS) return bad();
      return std::optional<Literal>(Literal::Boolean(b));
    }
    case TypeId::kInt:
    case TypeId::kLong: {
      int64_t v;
      if (value.get_int64().get(v) != simdjson::SUCCESS) return bad();
      if (type->id() == TypeId::kLong) return std::optional<Literal>(Literal::Long(v));
      if (v < INT32_MIN || v > INT32_MAX) return bad();
      return std::optional<Literal>(Literal::Int(static_cast<int32_t>(v)));
    }
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double v;
      if (value.get_double().get(v) != simdjson::SUCCESS) return bad();
      if (type->id() == TypeId::kDouble) return std::optional<Literal>(Literal::Double(v));
      return std::optional<Literal>(Literal::Float(static_cast<float>(v)));
    }
    default: {
      // spec: every other primitive is a JSON string in the text form that
      // Literal::Parse reads (fixed and binary as hex).
      std::string_view text;
      if (value.get_string().get(text) != simdjson::SUCCESS) return bad();
      auto literal = Literal::Parse(type, text);
      if (!literal.ok()) return bad();
      return std::optional<Literal>(std::move(*literal));
    }
  }
}

}  // namespace floe::iceberg
