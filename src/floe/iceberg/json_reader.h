// JsonObjectReader: typed, path-aware access to one JSON object of a
// metadata document parsed by simdjson (DOM API), for the iceberg JSON
// parsers and the REST catalog's messages (catalog/rest/, server/), which
// share its error wording. Not part of the public API.
//
// Every error is Corrupt and names the field by its path from the document
// root: "field 'schemas[1].fields[0].type' is missing", "field
// 'last-column-id' is \"3\", expected an integer". JSON null reads as absent
// for optional fields.
//
// Thread safety: refers to a document owned by the caller's parser; use on
// the thread that parsed it, while the parser lives.

#pragma once

#include <simdjson.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

namespace floe::iceberg::internal {

// `element` as compact JSON text (for default values kept verbatim).
std::string MinifiedJson(simdjson::dom::element element);
// "object", "array", "string", "integer", "number", "boolean", "null".
std::string_view JsonKindName(simdjson::dom::element element);
// A short rendering of a value for messages: the JSON text, cut at 40 chars.
std::string JsonSnippet(simdjson::dom::element element);

class JsonObjectReader {
 public:
  // Corrupt naming `path` unless `element` is an object.
  static Result<JsonObjectReader> Make(simdjson::dom::element element, std::string path);

  // The path of a member: "a.b" (or "b" at the root).
  std::string PathOf(std::string_view key) const;
  const std::string& path() const { return path_; }
  bool Has(std::string_view key) const;

  // The member, or nullopt when absent or null.
  std::optional<simdjson::dom::element> Find(std::string_view key) const;
  // Corrupt "field '<path>' is missing" when absent or null.
  Result<simdjson::dom::element> Get(std::string_view key) const;

  Result<int64_t> Int64(std::string_view key) const;
  Result<int32_t> Int32(std::string_view key) const;
  Result<std::string> String(std::string_view key) const;
  Result<bool> Bool(std::string_view key) const;
  Result<std::optional<int64_t>> OptionalInt64(std::string_view key) const;
  // A snapshot id: an int64, or an integer in [2^63, 2^64) read as the int64
  // with the same 64 bits. Some tools mint unsigned 64-bit ids; manifests
  // (Avro longs) carry those same bits, so this keeps the ids matching.
  Result<int64_t> SnapshotId(std::string_view key) const;
  Result<std::optional<int64_t>> OptionalSnapshotId(std::string_view key) const;
  Result<std::optional<int32_t>> OptionalInt32(std::string_view key) const;
  Result<std::optional<std::string>> OptionalString(std::string_view key) const;
  // An array member's items; an absent/null one reads as empty when
  // `required` is false.
  Result<std::vector<simdjson::dom::element>> Array(std::string_view key, bool required = true) const;
  Result<std::vector<int32_t>> Int32List(std::string_view key, bool required = true) const;
  Result<std::vector<std::string>> StringList(std::string_view key, bool required = true) const;
  // An object of string values; absent/null reads as empty.
  Result<std::map<std::string, std::string>> StringMap(std::string_view key) const;

  // "field '<path>' is <snippet>, <why>".
  Status Bad(std::string_view key, simdjson::dom::element value, std::string_view why) const;
  Status Missing(std::string_view key) const;

  simdjson::dom::object object() const { return object_; }

 private:
  JsonObjectReader(simdjson::dom::object object, std::string path) : object_(object), path_(std::move(path)) {}

  simdjson::dom::object object_;
  std::string path_;
};

// Value conversions shared by the readers; `path` names the value.
Result<int64_t> JsonInt64(simdjson::dom::element value, const std::string& path);
Result<int32_t> JsonInt32(simdjson::dom::element value, const std::string& path);
Result<std::string> JsonString(simdjson::dom::element value, const std::string& path);
Result<JsonObjectReader> JsonObject(simdjson::dom::element value, const std::string& path);

}  // namespace floe::iceberg::internal
