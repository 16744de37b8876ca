#include "floe/formats/parquet/key_tools.h"

#include <simdjson.h>

#include <map>
#include <mutex>
#include <optional>

#include "floe/base/base64.h"
#include "floe/base/strings.h"
#include "floe/formats/parquet/encryption.h"

namespace floe::parquet {
namespace {

constexpr std::string_view kMaterialType = "PKMT1";

std::span<const uint8_t> AsBytes(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

// The first characters of `text`, for messages (key metadata can be long).
std::string Shown(std::string_view text) {
  constexpr size_t kShown = 60;
  return text.size() <= kShown ? Quote(text) : StrCat(Quote(text.substr(0, kShown)), "...");
}

// A JSON object of strings and booleans, as key material is.
struct FlatObject {
  std::map<std::string, std::string, std::less<>> strings;
  std::map<std::string, bool, std::less<>> booleans;

  Result<std::string> String(std::string_view key, std::string_view what) const {
    const auto it = strings.find(key);
    if (it == strings.end()) return Status::Corrupt(StrCat(what, " has no string ", Quote(key)));
    return it->second;
  }
  Result<bool> Boolean(std::string_view key, std::string_view what) const {
    const auto it = booleans.find(key);
    if (it == booleans.end()) return Status::Corrupt(StrCat(what, " has no boolean ", Quote(key)));
    return it->second;
  }
};

// Parses `text` as a JSON object; other kinds of values in it are skipped.
// nullopt when `text` is not a JSON object at all.
std::optional<FlatObject> ParseFlatObject(std::string_view text) {
  const simdjson::padded_string padded(text);
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  if (parser.parse(padded).get_object().get(object) != simdjson::SUCCESS) return std::nullopt;
  FlatObject out;
  for (const auto field : object) {
    std::string_view s;
    bool b = false;
    if (field.value.get_string().get(s) == simdjson::SUCCESS) {
      out.strings.emplace(std::string(field.key), std::string(s));
    } else if (field.value.get_bool().get(b) == simdjson::SUCCESS) {
      out.booleans.emplace(std::string(field.key), b);
    }
  }
  return out;
}

Result<std::string> DecodeBase64Field(const FlatObject& material, std::string_view key, std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(const std::string text, material.String(key, what));
  auto bytes = Base64Decode(text);
  if (!bytes.ok()) return Status::Corrupt(StrCat(what, ": ", Quote(key), " is not base64"));
  return bytes;
}

// The retriever's state, shared by its copies.
class KeyToolsRetriever {
 public:
  KeyToolsRetriever(std::shared_ptr<KmsClient> kms, std::shared_ptr<FileIO> io, std::string file_path)
      : kms_(std::move(kms)), io_(std::move(io)), file_path_(std::move(file_path)) {}

  Result<std::string> Retrieve(const std::string& key_metadata) {
    const std::optional<FlatObject> metadata = ParseFlatObject(key_metadata);
    if (!metadata) {
      return Status::InvalidArgument(
          StrCat("key metadata ", Shown(key_metadata), " is not key material of parquet's key tools"));
    }
    const std::string what = "key metadata";
    FLOE_ASSIGN_OR_RETURN(const std::string type, metadata->String("keyMaterialType", what));
    if (type != kMaterialType) {
      return Status::Unsupported(StrCat("key material of type ", Quote(type), " (floe reads ", kMaterialType, ")"));
    }
    FLOE_ASSIGN_OR_RETURN(const bool internal, metadata->Boolean("internalStorage", what));
    if (internal) return Unwrap(*metadata, what);
    FLOE_ASSIGN_OR_RETURN(const std::string reference, metadata->String("keyReference", what));
    FLOE_ASSIGN_OR_RETURN(const FlatObject material, ExternalMaterial(reference));
    return Unwrap(material, StrCat("key material ", Quote(reference)));
  }

 private:
  Result<FlatObject> ExternalMaterial(const std::string& reference) {
    const std::string path = ExternalKeyMaterialPath(file_path_);
    std::lock_guard<std::mutex> lock(mutex_);
    if (!external_) {
      auto bytes = io_->ReadAll(path);
      if (!bytes.ok()) return bytes.status().WithContext(StrCat("external key material of ", Quote(file_path_)));
      std::optional<FlatObject> file =
          ParseFlatObject({reinterpret_cast<const char*>(bytes->data()), static_cast<size_t>(bytes->size())});
      if (!file) return Status::Corrupt(StrCat("external key material ", Quote(path), " is not a JSON object"));
      external_ = std::move(*file);
    }
    const auto it = external_->strings.find(reference);
    if (it == external_->strings.end()) {
      return Status::NotFound(StrCat("external key material ", Quote(path), " has no key ", Quote(reference)));
    }
    std::optional<FlatObject> material = ParseFlatObject(it->second);
    if (!material) return Status::Corrupt(StrCat("key material ", Quote(reference), " is not a JSON object"));
    return std::move(*material);
  }

  Result<std::string> Unwrap(const FlatObject& material, const std::string& what) {
    FLOE_ASSIGN_OR_RETURN(const std::string master_key_id, material.String("masterKeyID", what));
    FLOE_ASSIGN_OR_RETURN(const std::string wrapped_dek, material.String("wrappedDEK", what));
    FLOE_ASSIGN_OR_RETURN(const bool double_wrapping, material.Boolean("doubleWrapping", what));
    if (!double_wrapping) return kms_->UnwrapKey(wrapped_dek, master_key_id);
    FLOE_ASSIGN_OR_RETURN(const std::string kek_id, DecodeBase64Field(material, "keyEncryptionKeyID", what));
    FLOE_ASSIGN_OR_RETURN(const std::string wrapped_kek, material.String("wrappedKEK", what));
    FLOE_ASSIGN_OR_RETURN(const std::string kek, KeyEncryptionKey(kek_id, wrapped_kek, master_key_id));
    FLOE_ASSIGN_OR_RETURN(const std::string dek_blob, DecodeBase64Field(material, "wrappedDEK", what));
    auto dek = OpenAesGcmBlob(kek, AsBytes(dek_blob), kek_id);
    if (!dek.ok()) return dek.status().WithContext(what);
    return dek;
  }

  Result<std::string> KeyEncryptionKey(const std::string& kek_id, const std::string& wrapped_kek,
                                       const std::string& master_key_id) {
    // Held across the KMS call, so that each key-encryption key is asked
    // for once; the file decryptor asks one key at a time anyway.
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = keks_.find(kek_id); it != keks_.end()) return it->second;
    FLOE_ASSIGN_OR_RETURN(std::string kek, kms_->UnwrapKey(wrapped_kek, master_key_id));
    keks_.emplace(kek_id, kek);
    return kek;
  }

  const std::shared_ptr<KmsClient> kms_;
  const std::shared_ptr<FileIO> io_;
  const std::string file_path_;
  std::mutex mutex_;
  std::optional<FlatObject> external_;       // the external key material file, once read
  std::map<std::string, std::string> keks_;  // key-encryption key id -> key
};

}  // namespace

Result<std::string> LocalKms::UnwrapKey(std::string_view wrapped_key, std::string_view master_key_id) {
  const auto it = master_keys_.find(master_key_id);
  if (it == master_keys_.end()) {
    return Status::PermissionDenied(StrCat("the KMS has no master key ", Quote(master_key_id)));
  }
  auto blob = Base64Decode(wrapped_key);
  if (!blob.ok())
    return Status::Corrupt(StrCat("a key wrapped by master key ", Quote(master_key_id), " is not base64"));
  auto key = OpenAesGcmBlob(it->second, AsBytes(*blob), master_key_id);
  if (!key.ok()) return key.status().WithContext(StrCat("unwrapping with master key ", Quote(master_key_id)));
  return key;
}

std::string ExternalKeyMaterialPath(const std::string& file_path) {
  const size_t slash = file_path.rfind('/');
  const size_t name = slash == std::string::npos ? 0 : slash + 1;
  return StrCat(file_path.substr(0, name), "_KEY_MATERIAL_FOR_", file_path.substr(name), ".json");
}

std::function<Result<std::string>(const std::string&)> MakeKeyToolsRetriever(std::shared_ptr<KmsClient> kms,
                                                                             std::shared_ptr<FileIO> io,
                                                                             std::string file_path) {
  auto retriever = std::make_shared<KeyToolsRetriever>(std::move(kms), std::move(io), std::move(file_path));
  return [retriever](const std::string& key_metadata) { return retriever->Retrieve(key_metadata); };
}

}  // namespace floe::parquet
