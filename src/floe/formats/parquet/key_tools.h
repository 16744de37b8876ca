// parquet-mr's key tools (org.apache.parquet.crypto.keytools), the reading
// side: encrypted files whose key_metadata is key material of type PKMT1.
// The material is held in key_metadata itself ("internalStorage": true) or,
// by reference, in "_KEY_MATERIAL_FOR_<file name>.json" beside the file.
// Each data key is wrapped by a master key in a KMS, either directly or
// through a key-encryption key the KMS wraps ("doubleWrapping"), which is
// then an AES-GCM blob with the key-encryption key's id as AAD.
//
// Spark writes encrypted tables this way (parquet.crypto.factory.class =
// PropertiesDrivenCryptoFactory). floe plugs it in as a
// DecryptionKeys::key_retriever (decision 0067).
//
// Thread safety: a KmsClient is called from any thread, so implementations
// must be thread-safe (LocalKms is). The retriever MakeKeyToolsRetriever
// returns may be called from any thread.

#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/io/file_io.h"

namespace floe::parquet {

// A key management service that holds master keys and unwraps the keys
// wrapped with them.
class KmsClient {
 public:
  virtual ~KmsClient() = default;
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
  Result<std::string> UnwrapKey(std::string_view wrapped_key, std::string_view master_key_id) override;

 private:
  const std::map<std::string, std::string, std::less<>> master_keys_;
};

// Where the key tools keep the key material of `file_path` when it is not
// held in the file: "<dir>/_KEY_MATERIAL_FOR_<file name>.json".
std::string ExternalKeyMaterialPath(const std::string& file_path);

// A DecryptionKeys::key_retriever for a file written with the key tools.
// For each key_metadata it reads the key material (the external file, read
// through `io` once, on first need) and unwraps the data key through `kms`.
// Each key-encryption key is unwrapped once. Errors:
// - InvalidArgument: key_metadata that is not key tools material (for
//   instance a plain key id);
// - Unsupported: another keyMaterialType;
// - Corrupt: key material that does not parse or lacks a field;
// - NotFound: a missing external key material file or reference;
// - the KMS's errors, and PermissionDenied when a wrapped data key fails
//   its tag.
std::function<Result<std::string>(const std::string& key_metadata)> MakeKeyToolsRetriever(
    std::shared_ptr<KmsClient> kms, std::shared_ptr<FileIO> io, std::string file_path);

}  // namespace floe::parquet
