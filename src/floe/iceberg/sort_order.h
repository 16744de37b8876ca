// SortOrder and SortField (spec: "Sorting").
//
// Order id 0 is reserved for the unsorted order, which has no fields.
//
// Thread safety: plain values.

#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/transform.h"

namespace floe::iceberg {

enum class SortDirection : uint8_t { kAsc, kDesc };
enum class NullOrder : uint8_t { kNullsFirst, kNullsLast };

// "asc" / "desc" and "nulls-first" / "nulls-last", the spec's JSON words.
std::string_view SortDirectionName(SortDirection direction);
std::string_view NullOrderName(NullOrder order);
// InvalidArgument naming the text for any other word.
Result<SortDirection> ParseSortDirection(std::string_view text);
Result<NullOrder> ParseNullOrder(std::string_view text);

struct SortField {
  Transform transform = Transform::Identity();
  std::vector<int32_t> source_ids;  // at least one
  SortDirection direction = SortDirection::kAsc;
  NullOrder null_order = NullOrder::kNullsFirst;

  int32_t source_id() const { return source_ids.empty() ? -1 : source_ids[0]; }
  bool operator==(const SortField&) const = default;
};

struct SortOrder {
  static constexpr int32_t kUnsortedOrderId = 0;

  int32_t order_id = kUnsortedOrderId;
  std::vector<SortField> fields;

  bool is_unsorted() const { return fields.empty(); }
  bool operator==(const SortOrder&) const = default;
};

}  // namespace floe::iceberg
