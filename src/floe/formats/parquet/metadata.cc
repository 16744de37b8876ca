#include "floe/formats/parquet/metadata.h"

#include <iterator>

#include "floe/base/strings.h"

namespace floe::parquet {

std::string LogicalTypeName(const LogicalType& type) {
  static constexpr const char* kNames[] = {"STRING", "MAP",       "LIST",    "ENUM",     "DECIMAL",   "DATE",
                                           "TIME",   "TIMESTAMP", "INTEGER", "UNKNOWN",  "JSON",      "BSON",
                                           "UUID",   "FLOAT16",   "VARIANT", "GEOMETRY", "GEOGRAPHY", "VECTOR"};
  static_assert(std::size(kNames) + 1 == std::variant_size_v<LogicalType>);
  if (const auto* unknown = std::get_if<UnknownUnionMember>(&type)) {
    return StrCat("UNKNOWN_MEMBER(", unknown->field_id, ")");
  }
  return kNames[type.index()];
}

}  // namespace floe::parquet
