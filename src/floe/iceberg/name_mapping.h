// Name mapping (spec: "Column Projection", "Name Mapping Serialization"):
// how a table finds its field ids in data files written without them, from
// the `schema.name-mapping.default` property.
//
// Thread safety: plain values.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

namespace floe::iceberg {

struct MappedField {
  std::optional<int32_t> field_id;  // a mapping may name fields without ids
  std::vector<std::string> names;
  std::vector<MappedField> fields;  // nested struct, list and map fields
};

struct NameMapping {
  std::vector<MappedField> fields;

  // The field id a top-level column name maps to, if any.
  std::optional<int32_t> TopLevelId(std::string_view name) const;
};

// Parses the JSON list form. InvalidArgument naming what is wrong.
Result<NameMapping> ParseNameMapping(std::string_view json);

}  // namespace floe::iceberg
