// Bind: resolves an unbound expression against a schema (Java's Binder and
// UnboundPredicate.bind).
//
// Each predicate's column is looked up by its full dotted name (nested
// struct fields as "a.b"; fields inside lists and maps are refused, as are
// struct, list and map columns themselves) and its literals are cast to the
// column's type with Literal::CastTo. Simplifications, all preserving SQL
// truth on every row:
//   - `is null` on a field that can never be null (it and every enclosing
//     struct required) is false, `is not null` there is true;
//   - a literal beyond the range of the column's type (an int column against
//     3000000000, a float column against 1e300, a decimal(9,2) against
//     10^10) decides the comparison for every non-null value: `int_col <
//     3000000000` becomes `int_col is not null` (true for a required column,
//     as in Java), `int_col > 3000000000` false; in-lists drop such values
//     (an empty `in` is false, an empty `not in` is `is not null`);
//   - `in` with one value becomes `=`, `not in` with one `!=`; in-lists are
//     deduplicated and sorted.
//
// Errors (InvalidArgument): "cannot find column 'x' in schema", "cannot
// compare column amount (decimal(18,2)) with 'abc'", NaN as a comparison
// value (use `is nan`), `is nan` on a column that is not float or double,
// `starts with` on a column that is not a string, a wrong number of
// literals. A predicate that is already bound is bound again by its field
// id (so a filter follows column renames between schemas).
//
// Thread safety: a pure function.

#pragma once

#include "floe/base/result.h"
#include "floe/iceberg/expression/expression.h"
#include "floe/iceberg/schema.h"

namespace floe::iceberg {

Result<ExpressionPtr> Bind(const Schema& schema, const ExpressionPtr& expr, bool case_sensitive = true);

}  // namespace floe::iceberg
