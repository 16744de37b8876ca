// Puffin codec names and the footer payload's JSON, both ways.

#include "floe/formats/puffin/puffin_metadata.h"

#include <simdjson.h>

#include <limits>

#include "floe/base/json_parse.h"
#include "floe/base/json_writer.h"
#include "floe/base/strings.h"

namespace floe::puffin {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

std::string Snippet(element e) {
  std::string text = simdjson::minify(e);
  constexpr size_t kMax = 40;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

Status Bad(const std::string& path, element value, std::string_view why) {
  return Status::Corrupt(StrCat("field ", Quote(path), " is ", Snippet(value), ", ", why));
}

Status Missing(const std::string& path) { return Status::Corrupt(StrCat("field ", Quote(path), " is missing")); }

// The member `key` of `object`, or a null element when absent; JSON null
// reads as absent.
bool Find(simdjson::dom::object object, std::string_view key, element* out) {
  element e;
  if (object[key].get(e) != simdjson::SUCCESS || e.is_null()) return false;
  *out = e;
  return true;
}

Result<int64_t> Int64(element value, const std::string& path, bool unsigned_bits_ok = false) {
  if (value.type() == element_type::INT64) return int64_t{value.get_int64().value_unsafe()};
  // Snapshot ids in [2^63, 2^64) keep their 64 bits, as in table metadata.
  if (value.type() == element_type::UINT64) {
    if (unsigned_bits_ok) return static_cast<int64_t>(value.get_uint64().value_unsafe());
    return Bad(path, value, "out of the int64 range");
  }
  return Bad(path, value, "expected an integer");
}

Result<int64_t> RequiredInt64(simdjson::dom::object object, std::string_view key, const std::string& prefix,
                              bool unsigned_bits_ok = false) {
  element e;
  const std::string path = StrCat(prefix, key);
  if (!Find(object, key, &e)) return Missing(path);
  return Int64(e, path, unsigned_bits_ok);
}

Result<std::string> String(element value, const std::string& path) {
  std::string_view s;
  if (value.get_string().get(s) != simdjson::SUCCESS) return Bad(path, value, "expected a string");
  return std::string(s);
}

// An optional object of string values; absent or null reads as empty.
Result<std::map<std::string, std::string>> StringMap(simdjson::dom::object object, std::string_view key,
                                                     const std::string& prefix) {
  std::map<std::string, std::string> out;
  element e;
  const std::string path = StrCat(prefix, key);
  if (!Find(object, key, &e)) return out;
  simdjson::dom::object map;
  if (e.get_object().get(map) != simdjson::SUCCESS) return Bad(path, e, "expected an object of strings");
  for (auto [name, value] : map) {
    FLOE_ASSIGN_OR_RETURN(std::string v, String(value, StrCat(path, ".", name)));
    out[std::string(name)] = std::move(v);
  }
  return out;
}

Result<BlobMetadata> ParseBlob(element value, const std::string& path) {
  simdjson::dom::object object;
  if (value.get_object().get(object) != simdjson::SUCCESS) return Bad(path, value, "expected an object");
  const std::string prefix = path + ".";
  BlobMetadata blob;
  element e;
  if (!Find(object, "type", &e)) return Missing(prefix + "type");
  FLOE_ASSIGN_OR_RETURN(blob.type, String(e, prefix + "type"));
  if (!Find(object, "fields", &e)) return Missing(prefix + "fields");
  simdjson::dom::array fields;
  if (e.get_array().get(fields) != simdjson::SUCCESS) return Bad(prefix + "fields", e, "expected a list of ints");
  size_t i = 0;
  for (element field : fields) {
    const std::string field_path = StrCat(prefix, "fields[", i++, "]");
    FLOE_ASSIGN_OR_RETURN(const int64_t id, Int64(field, field_path));
    if (id < std::numeric_limits<int32_t>::min() || id > std::numeric_limits<int32_t>::max()) {
      return Bad(field_path, field, "out of the int32 range");
    }
    blob.fields.push_back(static_cast<int32_t>(id));
  }
  FLOE_ASSIGN_OR_RETURN(blob.snapshot_id, RequiredInt64(object, "snapshot-id", prefix, true));
  FLOE_ASSIGN_OR_RETURN(blob.sequence_number, RequiredInt64(object, "sequence-number", prefix));
  FLOE_ASSIGN_OR_RETURN(blob.offset, RequiredInt64(object, "offset", prefix));
  FLOE_ASSIGN_OR_RETURN(blob.length, RequiredInt64(object, "length", prefix));
  if (Find(object, "compression-codec", &e)) {
    FLOE_ASSIGN_OR_RETURN(blob.compression_codec, String(e, prefix + "compression-codec"));
  }
  FLOE_ASSIGN_OR_RETURN(blob.properties, StringMap(object, "properties", prefix));
  return blob;
}

}  // namespace

std::string_view PuffinCodecName(PuffinCodec codec) {
  switch (codec) {
    case PuffinCodec::kNone: return "";
    case PuffinCodec::kLz4: return "lz4";
    case PuffinCodec::kZstd: return "zstd";
  }
  return "";
}

Result<PuffinCodec> PuffinCodecFromName(std::string_view name) {
  if (name.empty()) return PuffinCodec::kNone;
  if (EqualsIgnoreCase(name, "lz4")) return PuffinCodec::kLz4;
  if (EqualsIgnoreCase(name, "zstd")) return PuffinCodec::kZstd;
  return Status::Unsupported(StrCat("compression codec ", Quote(name), " is not a Puffin codec (lz4, zstd)"));
}

compression::Codec ToCompressionCodec(PuffinCodec codec) {
  switch (codec) {
    case PuffinCodec::kNone: return compression::Codec::kUncompressed;
    case PuffinCodec::kLz4: return compression::Codec::kLz4Frame;
    case PuffinCodec::kZstd: return compression::Codec::kZstd;
  }
  return compression::Codec::kUncompressed;
}

std::string FileMetadataToJson(const FileMetadata& metadata) {
  JsonWriter w;
  const auto properties = [&w](const std::map<std::string, std::string>& map) {
    if (map.empty()) return;
    w.Key("properties");
    w.BeginObject();
    for (const auto& [key, value] : map) w.Member(key, value);
    w.EndObject();
  };
  w.BeginObject();
  w.Key("blobs");
  w.BeginArray();
  for (const BlobMetadata& blob : metadata.blobs) {
    w.BeginObject();
    w.Member("type", blob.type);
    w.Key("fields");
    w.BeginArray();
    for (int32_t id : blob.fields) w.Int(id);
    w.EndArray();
    w.Member("snapshot-id", blob.snapshot_id);
    w.Member("sequence-number", blob.sequence_number);
    w.Member("offset", blob.offset);
    w.Member("length", blob.length);
    if (!blob.compression_codec.empty()) w.Member("compression-codec", blob.compression_codec);
    properties(blob.properties);
    w.EndObject();
  }
  w.EndArray();
  properties(metadata.properties);
  w.EndObject();
  return w.Take();
}

Result<FileMetadata> ParseFileMetadata(std::string_view json) {
  simdjson::dom::parser parser;
  element root;
  if (auto error = ParseJson(parser, json).get(root); error != simdjson::SUCCESS) {
    return Status::Corrupt(StrCat("not JSON: ", simdjson::error_message(error)));
  }
  simdjson::dom::object object;
  if (root.get_object().get(object) != simdjson::SUCCESS) {
    return Status::Corrupt(StrCat("the payload is ", Snippet(root), ", expected a FileMetadata object"));
  }
  FileMetadata metadata;
  element e;
  if (!Find(object, "blobs", &e)) return Missing("blobs");
  simdjson::dom::array blobs;
  if (e.get_array().get(blobs) != simdjson::SUCCESS) return Bad("blobs", e, "expected a list of BlobMetadata");
  size_t i = 0;
  for (element blob : blobs) {
    FLOE_ASSIGN_OR_RETURN(BlobMetadata b, ParseBlob(blob, StrCat("blobs[", i++, "]")));
    metadata.blobs.push_back(std::move(b));
  }
  FLOE_ASSIGN_OR_RETURN(metadata.properties, StringMap(object, "properties", ""));
  return metadata;
}

}  // namespace floe::puffin
