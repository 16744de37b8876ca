// The table the expression tests filter: one column of most types, a nested
// struct, a list. Shared by tests/iceberg/expression_*_test.cc.

#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/schema.h"
#include "schema_test_util.h"

namespace floe::iceberg::expression_test {

using testing::Column;

inline Schema Orders() {
  return Schema::Make(
             0, {Column(1, "id", Type::Long(), true),
                 Column(2, "amount", Type::Decimal(18, 2).value()),
                 Column(3, "city", Type::String()),
                 Column(4, "order_ts", Type::TimestampTz()),
                 Column(5, "score", Type::Double()),
                 Column(6, "n", Type::Int()),
                 Column(7, "info", Type::Struct({Column(8, "zip", Type::String()), Column(9, "code", Type::Int(), true)})),
                 Column(10, "tags", Type::List(11, Type::String(), false)),
                 Column(12, "day", Type::Date()),
                 Column(13, "f", Type::Float()),
                 Column(14, "flag", Type::Boolean()),
                 Column(15, "qty", Type::Int(), true),
                 Column(16, "ts", Type::Timestamp()),
                 Column(17, "ts_ns", Type::TimestampNs()),
                 Column(18, "price", Type::Decimal(9, 2).value()),
                 Column(19, "bin", Type::Binary())})
      .value();
}

// `text` parsed and bound to Orders(); a failure fails the test and gives
// AlwaysTrue().
inline ExpressionPtr BindText(std::string_view text) {
  Result<ExpressionPtr> parsed = ParseExpression(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  if (!parsed.ok()) return AlwaysTrue();
  Result<ExpressionPtr> bound = Bind(Orders(), *parsed);
  EXPECT_TRUE(bound.ok()) << text << ": " << bound.status().ToString();
  return bound.ok() ? *bound : AlwaysTrue();
}

}  // namespace floe::iceberg::expression_test
