#include "floe/iceberg/name_mapping.h"

#include <simdjson.h>

#include "floe/base/json_parse.h"
#include "floe/base/strings.h"

namespace floe::iceberg {
namespace {

Result<std::vector<MappedField>> ReadFields(simdjson::dom::element list, int depth) {
  if (depth > 64) return Status::InvalidArgument("name mapping: nested too deeply");
  simdjson::dom::array array;
  if (list.get_array().get(array) != simdjson::SUCCESS) {
    return Status::InvalidArgument("name mapping: expected a list of field mappings");
  }
  std::vector<MappedField> fields;
  for (simdjson::dom::element item : array) {
    simdjson::dom::object object;
    if (item.get_object().get(object) != simdjson::SUCCESS) {
      return Status::InvalidArgument("name mapping: a field mapping is not an object");
    }
    MappedField field;
    int64_t id = 0;
    if (object["field-id"].get_int64().get(id) == simdjson::SUCCESS) field.field_id = static_cast<int32_t>(id);
    simdjson::dom::array names;
    if (object["names"].get_array().get(names) != simdjson::SUCCESS) {
      return Status::InvalidArgument("name mapping: a field mapping has no \"names\" list");
    }
    for (simdjson::dom::element name : names) {
      std::string_view text;
      if (name.get_string().get(text) != simdjson::SUCCESS) {
        return Status::InvalidArgument("name mapping: a name is not a string");
      }
      field.names.emplace_back(text);
    }
    simdjson::dom::element nested;
    if (object["fields"].get(nested) == simdjson::SUCCESS && !nested.is_null()) {
      FLOE_ASSIGN_OR_RETURN(field.fields, ReadFields(nested, depth + 1));
    }
    fields.push_back(std::move(field));
  }
  return fields;
}

}  // namespace

std::optional<int32_t> NameMapping::TopLevelId(std::string_view name) const {
  for (const auto& field : fields) {
    for (const auto& n : field.names) {
      if (n == name) return field.field_id;
    }
  }
  return std::nullopt;
}

Result<NameMapping> ParseNameMapping(std::string_view json) {
  if (json.empty()) return Status::InvalidArgument("name mapping: empty");
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (ParseJson(parser, json).get(root) != simdjson::SUCCESS) {
    return Status::InvalidArgument("name mapping: not valid JSON");
  }
  NameMapping mapping;
  FLOE_ASSIGN_OR_RETURN(mapping.fields, ReadFields(root, 0));
  return mapping;
}

}  // namespace floe::iceberg
