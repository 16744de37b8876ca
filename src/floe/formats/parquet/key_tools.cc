#include "floe/formats/parquet/key_tools.h"

#include <simdjson.h>

#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "floe/base/base64.h"
#include "floe/base/bytes.h"
#include "floe/base/json_writer.h"
#include "floe/base/strings.h"

namespace floe::parquet {
namespace {

constexpr std::string_view kMaterialType = "PKMT1";

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
  // Older parquet-mr writes booleans as strings ("internalStorage":"false").
  Result<bool> Boolean(std::string_view key, std::string_view what) const {
    if (const auto it = booleans.find(key); it != booleans.end()) return it->second;
    if (const auto it = strings.find(key); it != strings.end() && (it->second == "true" || it->second == "false")) {
      return it->second == "true";
    }
    return Status::Corrupt(StrCat(what, " has no boolean ", Quote(key)));
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
  KeyToolsRetriever(std::shared_ptr<KmsClient> kms, std::shared_ptr<FileIO> io, std::string file_path,
                    std::shared_ptr<KeyEncryptionKeyCache> cache)
      : kms_(std::move(kms)), io_(std::move(io)), file_path_(std::move(file_path)), keks_(std::move(cache)) {
    // Without a shared cache, one for this file alone, kept as long as it.
    if (!keks_) keks_ = std::make_shared<KeyEncryptionKeyCache>(std::chrono::steady_clock::duration::max());
  }

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
    FLOE_ASSIGN_OR_RETURN(const std::string kek, keks_->ForReading(master_key_id, kek_id, [&] {
      return kms_->UnwrapKey(wrapped_kek, master_key_id);
    }));
    FLOE_ASSIGN_OR_RETURN(const std::string dek_blob, DecodeBase64Field(material, "wrappedDEK", what));
    auto dek = OpenAesGcmBlob(kek, AsBytes(dek_blob), kek_id);
    if (!dek.ok()) return dek.status().WithContext(what);
    return dek;
  }

  const std::shared_ptr<KmsClient> kms_;
  const std::shared_ptr<FileIO> io_;
  const std::string file_path_;
  std::mutex mutex_;                    // guards external_
  std::optional<FlatObject> external_;  // the external key material file, once read
  std::shared_ptr<KeyEncryptionKeyCache> keks_;
};

// Wraps the data keys of one file (parquet-mr's FileKeyWrapper): each data
// key with its master key, or, double-wrapped, with the file's key-encryption
// key for that master key, made and sent to the KMS once.
class FileKeyWrapper {
 public:
  // `shared`, when not null, is consulted once per master key of the file.
  FileKeyWrapper(KmsClient& kms, const KeyToolsOptions& options, KeyEncryptionKeyCache* shared)
      : kms_(kms), options_(options), shared_(shared) {}

  // The key_metadata for `data_key`: its material, or with external storage
  // a reference to the material kept for the side file.
  Result<std::string> KeyMetadata(const std::string& data_key, const std::string& master_key_id, bool footer) {
    JsonWriter material;
    material.BeginObject();
    material.Member("keyMaterialType", kMaterialType);
    if (options_.internal_key_material) material.Member("internalStorage", true);
    material.Member("isFooterKey", footer);
    if (footer) {
      material.Member("kmsInstanceID", options_.kms_instance_id);
      material.Member("kmsInstanceURL", options_.kms_instance_url);
    }
    material.Member("masterKeyID", master_key_id);
    if (options_.double_wrapping) {
      FLOE_ASSIGN_OR_RETURN(const KeyEncryptionKeyCache::Key* kek, KeyEncryptionKeyFor(master_key_id));
      // The data key under the key-encryption key, its id's bytes the AAD.
      FLOE_ASSIGN_OR_RETURN(const std::string blob, SealAesGcmBlob(kek->key, data_key, kek->id));
      material.Member("wrappedDEK", Base64Encode(blob));
      material.Member("doubleWrapping", true);
      material.Member("keyEncryptionKeyID", Base64Encode(kek->id));
      material.Member("wrappedKEK", kek->wrapped);
    } else {
      FLOE_ASSIGN_OR_RETURN(const std::string wrapped, kms_.WrapKey(data_key, master_key_id));
      material.Member("wrappedDEK", wrapped);
      material.Member("doubleWrapping", false);
    }
    material.EndObject();
    if (options_.internal_key_material) return material.Take();

    // parquet-mr's references: "footerKey", and "columnKey<n>" in order.
    const std::string reference = footer ? "footerKey" : StrCat("columnKey", column_references_++);
    external_.emplace_back(reference, material.Take());
    JsonWriter metadata;
    metadata.BeginObject();
    metadata.Member("keyMaterialType", kMaterialType);
    metadata.Member("internalStorage", false);
    metadata.Member("keyReference", reference);
    metadata.EndObject();
    return metadata.Take();
  }

  // The side file: each reference's material as a JSON string.
  std::string ExternalMaterial() const {
    if (options_.internal_key_material) return "";
    JsonWriter file;
    file.BeginObject();
    for (const auto& [reference, material] : external_) file.Member(reference, material);
    file.EndObject();
    return file.Take();
  }

 private:
  // One key-encryption key per master key for the whole file, even if the
  // shared cache's copy expires while the file's keys are being made.
  Result<const KeyEncryptionKeyCache::Key*> KeyEncryptionKeyFor(const std::string& master_key_id) {
    if (const auto it = file_keks_.find(master_key_id); it != file_keks_.end()) return &it->second;
    const auto make = [&] { return MakeKeyEncryptionKey(master_key_id); };
    FLOE_ASSIGN_OR_RETURN(KeyEncryptionKeyCache::Key kek,
                          shared_ != nullptr ? shared_->ForWriting(master_key_id, make) : make());
    return &file_keks_.emplace(master_key_id, std::move(kek)).first->second;
  }

  Result<KeyEncryptionKeyCache::Key> MakeKeyEncryptionKey(const std::string& master_key_id) {
    KeyEncryptionKeyCache::Key kek;
    FLOE_ASSIGN_OR_RETURN(kek.key, RandomBytes(static_cast<size_t>(options_.key_encryption_key_bytes)));
    FLOE_ASSIGN_OR_RETURN(kek.id, RandomBytes(16));
    FLOE_ASSIGN_OR_RETURN(kek.wrapped, kms_.WrapKey(kek.key, master_key_id));
    return kek;
  }

  KmsClient& kms_;
  const KeyToolsOptions& options_;
  KeyEncryptionKeyCache* shared_;
  std::map<std::string, KeyEncryptionKeyCache::Key> file_keks_;  // by master key id
  int column_references_ = 0;
  std::vector<std::pair<std::string, std::string>> external_;  // reference, material
};

Status CheckKeyToolsOptions(const KeyToolsOptions& options, const EncryptionProperties& base) {
  if (options.footer_master_key_id.empty()) {
    return Status::InvalidArgument("key tools encryption needs a footer master key id");
  }
  for (const auto& [column, master_key_id] : options.column_master_key_ids) {
    if (column.empty() || master_key_id.empty()) {
      return Status::InvalidArgument(
          StrCat("key tools encryption: column ", Quote(column), " with master key id ", Quote(master_key_id)));
    }
  }
  for (const auto& [what, bytes] : {std::pair<std::string_view, int>{"data key", options.data_key_bytes},
                                    {"key-encryption key", options.key_encryption_key_bytes}}) {
    if (bytes != 16 && bytes != 24 && bytes != 32) {
      return Status::InvalidArgument(
          StrCat("key tools encryption: a ", what, " of ", bytes, " bytes (AES keys are 16, 24 or 32 bytes)"));
    }
  }
  if (!base.footer_key.empty() || base.footer_key_metadata || !base.column_keys.empty()) {
    return Status::InvalidArgument("key tools encryption makes the keys; the properties given already have some");
  }
  return Status::OK();
}

}  // namespace

Result<std::string> LocalKms::MasterKey(std::string_view master_key_id) const {
  const auto it = master_keys_.find(master_key_id);
  if (it == master_keys_.end()) {
    return Status::PermissionDenied(StrCat("the KMS has no master key ", Quote(master_key_id)));
  }
  return it->second;
}

Result<std::string> LocalKms::WrapKey(std::string_view key, std::string_view master_key_id) {
  FLOE_ASSIGN_OR_RETURN(const std::string master_key, MasterKey(master_key_id));
  auto blob = SealAesGcmBlob(master_key, key, master_key_id);
  if (!blob.ok()) return blob.status().WithContext(StrCat("wrapping with master key ", Quote(master_key_id)));
  return Base64Encode(*blob);
}

Result<std::string> LocalKms::UnwrapKey(std::string_view wrapped_key, std::string_view master_key_id) {
  FLOE_ASSIGN_OR_RETURN(const std::string master_key, MasterKey(master_key_id));
  auto blob = Base64Decode(wrapped_key);
  if (!blob.ok())
    return Status::Corrupt(StrCat("a key wrapped by master key ", Quote(master_key_id), " is not base64"));
  auto key = OpenAesGcmBlob(master_key, AsBytes(*blob), master_key_id);
  if (!key.ok()) return key.status().WithContext(StrCat("unwrapping with master key ", Quote(master_key_id)));
  return key;
}

std::string ExternalKeyMaterialPath(const std::string& file_path) {
  const size_t slash = file_path.rfind('/');
  const size_t name = slash == std::string::npos ? 0 : slash + 1;
  return StrCat(file_path.substr(0, name), "_KEY_MATERIAL_FOR_", file_path.substr(name), ".json");
}

template <typename T>
Result<T> KeyEncryptionKeyCache::OneCallPerKey(const CallKey& key, const std::function<std::optional<T>()>& kept,
                                               const std::function<Result<T>()>& call,
                                               const std::function<void(const T&)>& keep) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    if (std::optional<T> value = kept()) return *value;
    const auto running = calls_.find(key);
    if (running == calls_.end()) break;
    // Another thread is asking the KMS for this key: its outcome is ours.
    const std::shared_ptr<Call> other = running->second;
    ++waits_;
    call_done_.wait(lock, [&] { return other->done; });
    if (!other->status.ok()) return other->status;
    // Its key is kept now, unless the lifetime is already over.
  }
  const auto mine = std::make_shared<Call>();
  calls_.emplace(key, mine);
  DropExpired();
  lock.unlock();
  // The call ends on every way out, a throwing KmsClient's included, so that
  // its waiters never wait for good.
  const auto end_call = [&](Status status) {
    mine->done = true;
    mine->status = std::move(status);
    calls_.erase(key);
    call_done_.notify_all();
  };
  Result<T> result = Status::Internal("the KMS call did not finish");
  try {
    result = call();
  } catch (...) {
    lock.lock();
    end_call(Status::Internal("the KMS call threw an exception"));
    throw;
  }
  lock.lock();
  if (result.ok()) keep(*result);
  end_call(result.status());
  return result;
}

Result<KeyEncryptionKeyCache::Key> KeyEncryptionKeyCache::ForWriting(const std::string& master_key_id,
                                                                     const std::function<Result<Key>()>& make) {
  return OneCallPerKey<Key>(
      CallKey{true, master_key_id, ""},
      [&]() -> std::optional<Key> {
        const auto it = writing_.find(master_key_id);
        if (it == writing_.end() || !Fresh(it->second.made)) return std::nullopt;
        return it->second.value;
      },
      make,
      [&](const Key& key) {
        const auto now = std::chrono::steady_clock::now();
        reading_.insert_or_assign(std::pair(master_key_id, key.id), Entry<std::string>{key.key, now});
        writing_.insert_or_assign(master_key_id, Entry<Key>{key, now});
      });
}

Result<std::string> KeyEncryptionKeyCache::ForReading(const std::string& master_key_id, const std::string& id,
                                                      const std::function<Result<std::string>()>& unwrap) {
  const auto slot = std::pair(master_key_id, id);
  return OneCallPerKey<std::string>(
      CallKey{false, master_key_id, id},
      [&]() -> std::optional<std::string> {
        const auto it = reading_.find(slot);
        if (it == reading_.end() || !Fresh(it->second.made)) return std::nullopt;
        return it->second.value;
      },
      unwrap,
      [&](const std::string& key) {
        reading_.insert_or_assign(slot, Entry<std::string>{key, std::chrono::steady_clock::now()});
      });
}

int64_t KeyEncryptionKeyCache::waits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waits_;
}

size_t KeyEncryptionKeyCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return writing_.size() + reading_.size();
}

void KeyEncryptionKeyCache::DropExpired() {
  std::erase_if(writing_, [&](const auto& entry) { return !Fresh(entry.second.made); });
  std::erase_if(reading_, [&](const auto& entry) { return !Fresh(entry.second.made); });
}

std::function<Result<std::string>(const std::string&)> MakeKeyToolsRetriever(
    std::shared_ptr<KmsClient> kms, std::shared_ptr<FileIO> io, std::string file_path,
    std::shared_ptr<KeyEncryptionKeyCache> cache) {
  auto retriever =
      std::make_shared<KeyToolsRetriever>(std::move(kms), std::move(io), std::move(file_path), std::move(cache));
  return [retriever](const std::string& key_metadata) { return retriever->Retrieve(key_metadata); };
}

Result<KeyToolsFileKeys> MakeKeyToolsFileKeys(KmsClient& kms, const KeyToolsOptions& options, EncryptionProperties base,
                                              KeyEncryptionKeyCache* cache) {
  FLOE_RETURN_IF_ERROR(CheckKeyToolsOptions(options, base));
  const auto data_key_bytes = static_cast<size_t>(options.data_key_bytes);
  FileKeyWrapper wrapper(kms, options, cache);
  KeyToolsFileKeys out;
  out.properties = std::move(base);
  FLOE_ASSIGN_OR_RETURN(out.properties.footer_key, RandomBytes(data_key_bytes));
  FLOE_ASSIGN_OR_RETURN(out.properties.footer_key_metadata,
                        wrapper.KeyMetadata(out.properties.footer_key, options.footer_master_key_id, true));
  for (const auto& [column, master_key_id] : options.column_master_key_ids) {
    EncryptionProperties::ColumnKey& key = out.properties.column_keys[column];
    FLOE_ASSIGN_OR_RETURN(key.key, RandomBytes(data_key_bytes));
    FLOE_ASSIGN_OR_RETURN(key.key_metadata, wrapper.KeyMetadata(key.key, master_key_id, false));
  }
  out.external_key_material = wrapper.ExternalMaterial();
  return out;
}

Status WriteExternalKeyMaterial(FileIO& io, const std::string& file_path, const KeyToolsFileKeys& keys) {
  if (keys.external_key_material.empty()) return Status::OK();
  const std::string path = ExternalKeyMaterialPath(file_path);
  return io.WriteAll(path, keys.external_key_material)
      .WithContext(StrCat("external key material of ", Quote(file_path)));
}

}  // namespace floe::parquet
