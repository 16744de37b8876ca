// parquet-mr's key tools (org.apache.parquet.crypto.keytools): encrypted
// files whose key_metadata is key material of type PKMT1, read and written.
// The material is held in key_metadata itself ("internalStorage": true) or,
// by reference, in "_KEY_MATERIAL_FOR_<file name>.json" beside the file.
// Each data key is wrapped by a master key in a KMS, either directly or
// through a key-encryption key the KMS wraps ("doubleWrapping"), which is
// then an AES-GCM blob with the key-encryption key's id as AAD.
//
// Spark writes encrypted tables this way (parquet.crypto.factory.class =
// PropertiesDrivenCryptoFactory). floe reads them through a
// DecryptionKeys::key_retriever (decision 0067) and writes them by filling
// EncryptionProperties with fresh data keys and their material (0069).
//
// Thread safety: a KmsClient is called from any thread, so implementations
// must be thread-safe (LocalKms is). The retriever MakeKeyToolsRetriever
// returns may be called from any thread; so may a KeyEncryptionKeyCache.

#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "floe/base/result.h"
#include "floe/formats/parquet/encryption.h"
#include "floe/io/file_io.h"

namespace floe::parquet {

// A key management service that holds master keys, and wraps and unwraps
// keys with them.
class KmsClient {
 public:
  virtual ~KmsClient() = default;
  // `key` wrapped with master key `master_key_id`, as base64 text for the
  // key material. PermissionDenied when the KMS refuses or does not know the
  // master key; InvalidArgument when the master key cannot wrap (LocalKms:
  // it is not 16, 24 or 32 bytes).
  virtual Result<std::string> WrapKey(std::string_view key, std::string_view master_key_id) = 0;
  // The key `wrapped_key` (base64 text, as the key material holds it)
  // unwrapped with master key `master_key_id`. PermissionDenied when the KMS
  // refuses, does not know the master key, or the key was not wrapped with it.
  virtual Result<std::string> UnwrapKey(std::string_view wrapped_key, std::string_view master_key_id) = 0;
};

// A KMS whose master keys are handed to it. A key is wrapped as AES-GCM
// nonce | ciphertext | tag under the master key, with the master key's id as
// AAD: the wrapping of parquet-mr's InMemoryKMS and parquet-cpp's
// TestOnlyInServerWrapKms, for files whose master keys are at hand.
class LocalKms final : public KmsClient {
 public:
  // Master keys by id; each 16, 24 or 32 bytes.
  explicit LocalKms(std::map<std::string, std::string, std::less<>> master_keys)
      : master_keys_(std::move(master_keys)) {}
  Result<std::string> WrapKey(std::string_view key, std::string_view master_key_id) override;
  Result<std::string> UnwrapKey(std::string_view wrapped_key, std::string_view master_key_id) override;

 private:
  Result<std::string> MasterKey(std::string_view master_key_id) const;

  const std::map<std::string, std::string, std::less<>> master_keys_;
};

// Key-encryption keys kept across files, as parquet-mr's KeyToolkit keeps
// them (parquet.encryption.cache.lifetime.seconds, 600 by default). Files
// whose keys are made with one cache share one key-encryption key per
// master key, and retrievers given one unwrap each key-encryption key once
// for all the files they read. A table of many files then asks the KMS once
// per master key and lifetime, not once per file; each file still gets data
// keys of its own. A key older than the lifetime is not used again: the next
// file gets a new one, and the next read asks the KMS again. A key made for
// writing is kept for reading too.
//
// It holds raw keys in memory: never log or persist it. Keys past their
// lifetime are dropped whenever a key is missing. Thread-safe. A KMS call is
// made outside the cache's lock, so a slow KMS stalls only the threads that
// want the same key: they wait for that one call instead of asking the KMS
// again, and take its outcome, key or error (an error is not kept: the next
// caller asks again). A call that throws ends as an error for its waiters
// and its exception goes on to its caller. A KmsClient may use the cache,
// but not for the key it is being called for: that would wait for itself.
class KeyEncryptionKeyCache {
 public:
  explicit KeyEncryptionKeyCache(std::chrono::steady_clock::duration lifetime = std::chrono::minutes(10))
      : lifetime_(lifetime) {}

  // A key-encryption key: `id` is 16 random bytes, `wrapped` the key as the
  // KMS wrapped it with its master key.
  struct Key {
    std::string key;
    std::string id;
    std::string wrapped;
  };

  // The key for writing under `master_key_id`; when there is none younger
  // than the lifetime, the one `make` returns (whose error is returned).
  Result<Key> ForWriting(const std::string& master_key_id, const std::function<Result<Key>()>& make);
  // Key `id` under `master_key_id`, unwrapped; when it is not kept (or too
  // old), what `unwrap` returns (whose error is returned).
  Result<std::string> ForReading(const std::string& master_key_id, const std::string& id,
                                 const std::function<Result<std::string>()>& unwrap);

  // How many keys it holds, for writing and reading.
  size_t size() const;
  // How many lookups waited for another thread's KMS call for their key.
  int64_t waits() const;

 private:
  template <typename T>
  struct Entry {
    T value;
    std::chrono::steady_clock::time_point made;
  };
  bool Fresh(std::chrono::steady_clock::time_point made) const {
    return std::chrono::steady_clock::now() - made < lifetime_;
  }
  // Drops the keys past their lifetime. Called with mutex_ held.
  void DropExpired();

  const std::chrono::steady_clock::duration lifetime_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry<Key>> writing_;                                  // by master key id
  std::map<std::pair<std::string, std::string>, Entry<std::string>> reading_;  // by (master key id, key id)
  // A KMS call in progress, for its waiters: whether it ended, and how.
  struct Call {
    bool done = false;
    Status status;
  };
  // (for writing, master key id, key id): a key being made or unwrapped.
  using CallKey = std::tuple<bool, std::string, std::string>;
  // The value `kept` finds under the lock; otherwise the outcome of one
  // `call` for all the threads that want `key` while it runs, whose value
  // `keep` stores under the lock.
  template <typename T>
  Result<T> OneCallPerKey(const CallKey& key, const std::function<std::optional<T>()>& kept,
                          const std::function<Result<T>()>& call, const std::function<void(const T&)>& keep);

  std::map<CallKey, std::shared_ptr<Call>> calls_;
  std::condition_variable call_done_;
  int64_t waits_ = 0;
};

// Where the key tools keep the key material of `file_path` when it is not
// held in the file: "<dir>/_KEY_MATERIAL_FOR_<file name>.json".
std::string ExternalKeyMaterialPath(const std::string& file_path);

// A DecryptionKeys::key_retriever for a file written with the key tools.
// For each key_metadata it reads the key material (the external file, read
// through `io` once, on first need) and unwraps the data key through `kms`.
// Each key-encryption key is unwrapped once for the file, or with `cache`,
// once in the cache's lifetime for every file read through it. Errors:
// - InvalidArgument: key_metadata that is not key tools material (for
//   instance a plain key id);
// - Unsupported: another keyMaterialType;
// - Corrupt: key material that does not parse or lacks a field;
// - NotFound: a missing external key material file or reference;
// - the KMS's errors, and PermissionDenied when a wrapped data key fails
//   its tag.
std::function<Result<std::string>(const std::string& key_metadata)> MakeKeyToolsRetriever(
    std::shared_ptr<KmsClient> kms, std::shared_ptr<FileIO> io, std::string file_path,
    std::shared_ptr<KeyEncryptionKeyCache> cache = nullptr);

// Which master keys encrypt a file, and how its key material is kept: the
// properties of parquet-mr's PropertiesDrivenCryptoFactory.
struct KeyToolsOptions {
  // parquet.encryption.footer.key: wraps the footer's data key. That key
  // encrypts (or, with a plaintext footer, signs) the footer and every
  // encrypted column without a master key of its own.
  std::string footer_master_key_id;
  // parquet.encryption.column.keys: master key id by dotted column path.
  // Each column gets a data key of its own, wrapped with its master key.
  // Unlike parquet-mr, a column not named here is encrypted with the footer
  // key, not left in plaintext; EncryptionProperties::plaintext_columns says
  // which are (decision 0066).
  std::map<std::string, std::string> column_master_key_ids;
  // parquet.encryption.double.wrapping: data keys are wrapped with a
  // key-encryption key of the file, one per master key, and only those go
  // to the KMS. Single wrapping asks the KMS once per data key.
  bool double_wrapping = true;
  // parquet.encryption.key.material.store.internally: the material in
  // key_metadata itself, or (false) in the side file
  // ExternalKeyMaterialPath(file), which key_metadata then refers to.
  bool internal_key_material = true;
  // parquet.encryption.data.key.length.bits and kek.length.bits, in bytes:
  // 16, 24 or 32.
  int data_key_bytes = 16;
  int key_encryption_key_bytes = 16;
  // Stored in the footer key's material, for readers that pick the KMS by it.
  std::string kms_instance_id = "DEFAULT";
  std::string kms_instance_url = "DEFAULT";
};

// `base` with fresh random data keys for the footer and each column of
// `options`, and their key material as key_metadata; base's own footer key
// and column keys must be empty. With external material, the side file's
// JSON is in `external_key_material`: write it to
// ExternalKeyMaterialPath(file) (WriteExternalKeyMaterial) before the file is
// closed, for the file cannot be read without it.
struct KeyToolsFileKeys {
  EncryptionProperties properties;
  std::string external_key_material;  // empty with internal material
};
// InvalidArgument for options that name no footer master key, name an empty
// id, give a key length that is not 16, 24 or 32 bytes, or for a `base` that
// already has keys; the KMS's errors; Internal when OpenSSL has no random
// bytes. The KMS is asked once per master key with double wrapping (with
// `cache`, only for master keys it has no fresh key-encryption key of), once
// per data key without. The result holds the raw data keys: never log it.
Result<KeyToolsFileKeys> MakeKeyToolsFileKeys(KmsClient& kms, const KeyToolsOptions& options,
                                              EncryptionProperties base = {}, KeyEncryptionKeyCache* cache = nullptr);

// Writes the side file of `file_path` (`keys.external_key_material`) through
// `io`, replacing one already there; does nothing for internal material.
// Returns the FileIO's error, with the file's path as context.
Status WriteExternalKeyMaterial(FileIO& io, const std::string& file_path, const KeyToolsFileKeys& keys);

}  // namespace floe::parquet
