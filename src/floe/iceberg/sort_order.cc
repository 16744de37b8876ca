#include "floe/iceberg/sort_order.h"

#include "floe/base/strings.h"

namespace floe::iceberg {

std::string_view SortDirectionName(SortDirection direction) {
  return direction == SortDirection::kAsc ? "asc" : "desc";
}

std::string_view NullOrderName(NullOrder order) {
  return order == NullOrder::kNullsFirst ? "nulls-first" : "nulls-last";
}

Result<SortDirection> ParseSortDirection(std::string_view text) {
  if (text == "asc") return SortDirection::kAsc;
  if (text == "desc") return SortDirection::kDesc;
  return Status::InvalidArgument(StrCat("sort direction ", Quote(text), " is not 'asc' or 'desc'"));
}

Result<NullOrder> ParseNullOrder(std::string_view text) {
  if (text == "nulls-first") return NullOrder::kNullsFirst;
  if (text == "nulls-last") return NullOrder::kNullsLast;
  return Status::InvalidArgument(StrCat("null order ", Quote(text), " is not 'nulls-first' or 'nulls-last'"));
}

}  // namespace floe::iceberg
