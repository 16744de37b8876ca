#include "floe/iceberg/json_reader.h"

#include <limits>

#include "floe/base/strings.h"

namespace floe::iceberg::internal {

using simdjson::dom::element;
using simdjson::dom::element_type;

std::string MinifiedJson(element e) { return simdjson::minify(e); }

std::string_view JsonKindName(element e) {
  switch (e.type()) {
    case element_type::OBJECT: return "an object";
    case element_type::ARRAY: return "an array";
    case element_type::STRING: return "a string";
    case element_type::INT64:
    case element_type::UINT64: return "an integer";
    case element_type::DOUBLE: return "a number";
    case element_type::BOOL: return "a boolean";
    case element_type::NULL_VALUE: return "null";
  }
  return "a value";
}

std::string JsonSnippet(element e) {
  std::string text = simdjson::minify(e);
  constexpr size_t kMax = 40;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

namespace {

Status BadValue(const std::string& path, element value, std::string_view why) {
  return Status::Corrupt(StrCat("field ", Quote(path), " is ", JsonSnippet(value), ", ", why));
}

}  // namespace

Result<int64_t> JsonInt64(element value, const std::string& path) {
  if (value.type() == element_type::INT64) return int64_t(value.get_int64().value_unsafe());
  if (value.type() == element_type::UINT64) return BadValue(path, value, "out of the int64 range");
  return BadValue(path, value, "expected an integer");
}

Result<int64_t> JsonSnapshotId(element value, const std::string& path) {
  if (value.type() == element_type::UINT64) return static_cast<int64_t>(value.get_uint64().value_unsafe());
  return JsonInt64(value, path);
}

Result<int32_t> JsonInt32(element value, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(int64_t v, JsonInt64(value, path));
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return BadValue(path, value, "out of the int32 range");
  }
  return static_cast<int32_t>(v);
}

Result<std::string> JsonString(element value, const std::string& path) {
  if (value.type() != element_type::STRING) return BadValue(path, value, "expected a string");
  return std::string(value.get_string().value_unsafe());
}

Result<JsonObjectReader> JsonObject(element value, const std::string& path) {
  return JsonObjectReader::Make(value, path);
}

Result<JsonObjectReader> JsonObjectReader::Make(element e, std::string path) {
  if (e.type() != element_type::OBJECT) {
    return Status::Corrupt(StrCat(path.empty() ? std::string("document") : StrCat("field ", Quote(path)), " is ",
                                  JsonKindName(e), ", expected an object"));
  }
  return JsonObjectReader(e.get_object().value_unsafe(), std::move(path));
}

std::string JsonObjectReader::PathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : StrCat(path_, ".", key);
}

bool JsonObjectReader::Has(std::string_view key) const { return Find(key).has_value(); }

std::optional<element> JsonObjectReader::Find(std::string_view key) const {
  element e;
  if (object_.at_key(key).get(e) != simdjson::SUCCESS) return std::nullopt;
  if (e.type() == element_type::NULL_VALUE) return std::nullopt;
  return e;
}

Status JsonObjectReader::Missing(std::string_view key) const {
  return Status::Corrupt(StrCat("field ", Quote(PathOf(key)), " is missing"));
}

Status JsonObjectReader::Bad(std::string_view key, element value, std::string_view why) const {
  return BadValue(PathOf(key), value, why);
}

Result<element> JsonObjectReader::Get(std::string_view key) const {
  auto e = Find(key);
  if (!e) return Missing(key);
  return *e;
}

Result<int64_t> JsonObjectReader::Int64(std::string_view key) const {
  FLOE_ASSIGN_OR_RETURN(element e, Get(key));
  return JsonInt64(e, PathOf(key));
}

Result<int64_t> JsonObjectReader::SnapshotId(std::string_view key) const {
  FLOE_ASSIGN_OR_RETURN(element e, Get(key));
  return JsonSnapshotId(e, PathOf(key));
}

Result<std::optional<int64_t>> JsonObjectReader::OptionalSnapshotId(std::string_view key) const {
  auto e = Find(key);
  if (!e) return std::optional<int64_t>();
  FLOE_ASSIGN_OR_RETURN(int64_t v, JsonSnapshotId(*e, PathOf(key)));
  return std::optional<int64_t>(v);
}

Result<int32_t> JsonObjectReader::Int32(std::string_view key) const {
  FLOE_ASSIGN_OR_RETURN(element e, Get(key));
  return JsonInt32(e, PathOf(key));
}

Result<std::string> JsonObjectReader::String(std::string_view key) const {
  FLOE_ASSIGN_OR_RETURN(element e, Get(key));
  return JsonString(e, PathOf(key));
}

Result<bool> JsonObjectReader::Bool(std::string_view key) const {
  FLOE_ASSIGN_OR_RETURN(element e, Get(key));
  if (e.type() != element_type::BOOL) return Bad(key, e, "expected true or false");
  return e.get_bool().value_unsafe();
}

Result<std::optional<int64_t>> JsonObjectReader::OptionalInt64(std::string_view key) const {
  auto e = Find(key);
  if (!e) return std::optional<int64_t>();
  FLOE_ASSIGN_OR_RETURN(int64_t v, JsonInt64(*e, PathOf(key)));
  return std::optional<int64_t>(v);
}

Result<std::optional<int32_t>> JsonObjectReader::OptionalInt32(std::string_view key) const {
  auto e = Find(key);
  if (!e) return std::optional<int32_t>();
  FLOE_ASSIGN_OR_RETURN(int32_t v, JsonInt32(*e, PathOf(key)));
  return std::optional<int32_t>(v);
}

Result<std::optional<std::string>> JsonObjectReader::OptionalString(std::string_view key) const {
  auto e = Find(key);
  if (!e) return std::optional<std::string>();
  FLOE_ASSIGN_OR_RETURN(std::string v, JsonString(*e, PathOf(key)));
  return std::optional<std::string>(std::move(v));
}

Result<std::vector<element>> JsonObjectReader::Array(std::string_view key, bool required) const {
  std::vector<element> out;
  auto e = Find(key);
  if (!e) {
    if (required) return Missing(key);
    return out;
  }
  if (e->type() != element_type::ARRAY) return Bad(key, *e, "expected an array");
  simdjson::dom::array array;
  if (e->get_array().get(array) != simdjson::SUCCESS) return Bad(key, *e, "expected an array");
  for (element item : array) out.push_back(item);
  return out;
}

Result<std::vector<int32_t>> JsonObjectReader::Int32List(std::string_view key, bool required) const {
  FLOE_ASSIGN_OR_RETURN(std::vector<element> array, Array(key, required));
  std::vector<int32_t> out;
  size_t i = 0;
  for (element item : array) {
    FLOE_ASSIGN_OR_RETURN(int32_t v, JsonInt32(item, StrCat(PathOf(key), "[", i++, "]")));
    out.push_back(v);
  }
  return out;
}

Result<std::vector<std::string>> JsonObjectReader::StringList(std::string_view key, bool required) const {
  FLOE_ASSIGN_OR_RETURN(std::vector<element> array, Array(key, required));
  std::vector<std::string> out;
  size_t i = 0;
  for (element item : array) {
    FLOE_ASSIGN_OR_RETURN(std::string v, JsonString(item, StrCat(PathOf(key), "[", i++, "]")));
    out.push_back(std::move(v));
  }
  return out;
}

Result<std::map<std::string, std::string>> JsonObjectReader::StringMap(std::string_view key) const {
  std::map<std::string, std::string> out;
  auto e = Find(key);
  if (!e) return out;
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, Make(*e, PathOf(key)));
  for (auto [k, v] : obj.object_) {
    FLOE_ASSIGN_OR_RETURN(std::string value, JsonString(v, obj.PathOf(k)));
    if (!out.emplace(std::string(k), std::move(value)).second) {
      return Status::Corrupt(StrCat("field ", Quote(obj.PathOf(k)), " appears twice"));
    }
  }
  return out;
}

}  // namespace floe::iceberg::internal
