// ParseExpression: the text form of a row filter, as `floe table scan
// --where` takes it, into an unbound Expression (expression.h).
//
// Grammar (keywords case-insensitive; `and` binds tighter than `or`):
//
//   filter     := or
//   or         := and ("or" and)*
//   and        := unary ("and" unary)*
//   unary      := "not" unary | "(" filter ")" | "true" | "false" | predicate
//   predicate  := column op value
//               | column ["not"] "in" "(" value ("," value)* ")"
//               | column "is" ["not"] ("null" | "nan")
//               | column ["not"] "starts" "with" string
//               | column ["not"] "like" string     -- 'prefix%' only
//   op         := "=" | "==" | "!=" | "<>" | "<" | "<=" | ">" | ">="
//   column     := name ("." name)*   -- bare [A-Za-z_][A-Za-z0-9_]* or "double quoted" ("" escapes ")
//   value      := string | number | "true" | "false"
//   string     := 'single quoted' ('' escapes ')
//
// Values: strings become Literal::String; integers (within int64)
// Literal::Long; other numbers (12.50, 1e3, -0.5, integers beyond int64)
// Literal::String of their text, so that the binder casts them through
// Literal::Parse and decimals stay exact; true/false Literal::Boolean.
// `like 'abc%'` is `starts with 'abc'`, `like 'abc'` is `= 'abc'`; patterns
// with other wildcards are Unsupported.
//
// Errors: InvalidArgument (Unsupported for like patterns) with the byte
// offset: `--where: expected a value at offset 17 in "amount > and x"`.
// Runs of one operator build balanced trees, so long filters stay shallow;
// parentheses nest at most 256 deep.
//
// Thread safety: a pure function.

#pragma once

#include <string_view>

#include "floe/base/result.h"
#include "floe/iceberg/expression/expression.h"

namespace floe::iceberg {

Result<ExpressionPtr> ParseExpression(std::string_view text);

}  // namespace floe::iceberg
