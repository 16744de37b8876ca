// Parquet modular encryption, the reading side: the keys a reader is given,
// and the AES-GCM / AES-CTR decryption of a file's modules.
//
// spec: apache/parquet-format Encryption.md. A file encrypts modules: the
// footer, column metadata, page headers, pages, column and offset indexes,
// bloom filter headers and bitsets. Each is stored as
//   length (4 bytes, little-endian) | nonce (12) | ciphertext | tag (16)
// (pages of AES_GCM_CTR_V1 files: length | nonce | ciphertext, AES-CTR). A
// module's AAD binds it to its place: the file's AAD (prefix + unique id),
// the module type, and (all but the footer) the row group and column
// ordinals, and (data pages and their headers) the page ordinal.
//
// Thread safety: DecryptionKeys is a plain value. ModuleDecryptor is
// immutable; FileDecryptor may be used from any thread (it calls the key
// retriever under a lock, once per distinct key_metadata).

#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "floe/base/buffer.h"
#include "floe/base/result.h"
#include "floe/formats/parquet/metadata.h"

namespace floe::parquet {

// The keys for reading encrypted files. Keys are raw AES keys of 16, 24 or
// 32 bytes. A key is looked up in the explicit fields first, then asked of
// `key_retriever` with the key_metadata the file stores for it (a key id, or
// wrapped key material a KMS client unwraps).
struct DecryptionKeys {
  // The footer key: decrypts an encrypted footer, verifies a signed plaintext
  // footer, and decrypts the columns encrypted with the footer key.
  std::string footer_key;
  // Column keys by dotted column path ("a.b.c").
  std::map<std::string, std::string> column_keys;
  // Optional: key_metadata -> key. Called at most once per distinct
  // key_metadata of a file (the key is kept), never by two threads at once;
  // an error it returns is passed on, and asked again next time.
  std::function<Result<std::string>(const std::string& key_metadata)> key_retriever;
  // The AAD prefix, for files written with one they did not store
  // (supply_aad_prefix). When the file stores one too, both must agree.
  std::optional<std::string> aad_prefix;
  // Check the signature of a plaintext footer (needs the footer key).
  bool verify_footer_signature = true;
};

// spec: Encryption.md 4.4.2, the module types of the AAD suffix.
enum class ModuleType : uint8_t {
  kFooter = 0,
  kColumnMetaData = 1,
  kDataPage = 2,
  kDictionaryPage = 3,
  kDataPageHeader = 4,
  kDictionaryPageHeader = 5,
  kColumnIndex = 6,
  kOffsetIndex = 7,
  kBloomFilterHeader = 8,
  kBloomFilterBitset = 9,
};

// What AES_GCM_V1 and AES_GCM_CTR_V1 both hold, the same three fields, with
// the algorithm's name and whether its pages use AES-CTR; nullopt for an
// algorithm floe does not know. The pointers are into `algorithm`.
struct EncryptionAlgorithmFields {
  std::string_view name;
  bool ctr_pages = false;
  const std::optional<std::string>* aad_prefix = nullptr;
  const std::optional<std::string>* aad_file_unique = nullptr;
  bool supply_aad_prefix = false;
};
std::optional<EncryptionAlgorithmFields> FieldsOf(const EncryptionAlgorithm& algorithm);

// The bytes the module at the start of `bytes` takes: 4 + its stored
// length, read from its first 4 bytes (Corrupt when there are fewer), not
// checked against `bytes`: for callers that fetch the rest.
Result<int64_t> EncryptedModuleExtent(std::span<const uint8_t> bytes);
// The same, checked: Corrupt when the module runs past `bytes`.
Result<size_t> EncryptedModuleSize(std::span<const uint8_t> bytes);

// Decrypts the modules of one column chunk (or, for the footer, of the file).
class ModuleDecryptor {
 public:
  ModuleDecryptor(std::string key, std::string file_aad, bool ctr_pages, int16_t row_group, int16_t column)
      : key_(std::move(key)),
        file_aad_(std::move(file_aad)),
        ctr_pages_(ctr_pages),
        row_group_(row_group),
        column_(column) {}

  // Decrypts the module at the start of `module` (length prefix included;
  // bytes after it are ignored). `page_ordinal` counts the chunk's data
  // pages from 0 and is used by data pages and their headers only; the AAD
  // holds it in 16 bits, so above 32767 it is Unsupported, as in other
  // readers. PermissionDenied when the authentication tag does not match (a
  // wrong key or AAD prefix, or altered bytes); Corrupt when the module is
  // cut short.
  Result<Buffer> Decrypt(ModuleType type, std::span<const uint8_t> module, int32_t page_ordinal = 0) const;

  // Plaintext footer mode: true when `signature` (nonce + tag, 28 bytes)
  // signs `footer` under this decryptor's key.
  Result<bool> VerifySignature(std::span<const uint8_t> footer, std::span<const uint8_t> signature) const;

 private:
  std::string Aad(ModuleType type, int32_t page_ordinal) const;

  std::string key_;
  std::string file_aad_;
  bool ctr_pages_;
  int16_t row_group_;
  int16_t column_;
};

// The file's encryption: its algorithm and AAD, and the keys from
// DecryptionKeys.
class FileDecryptor {
 public:
  // `where` names the file in messages. PermissionDenied when the file needs
  // an AAD prefix it does not store and none was given, or when the given
  // prefix differs from the stored one; Unsupported for an unknown algorithm.
  static Result<std::shared_ptr<const FileDecryptor>> Make(const EncryptionAlgorithm& algorithm,
                                                           std::optional<std::string> footer_key_metadata,
                                                           const DecryptionKeys& keys, std::string where);

  // The footer's decryptor. PermissionDenied when no footer key is known,
  // InvalidArgument when the key is not an AES key's size.
  Result<ModuleDecryptor> ForFooter() const;
  // The decryptor of one encrypted column chunk, of row group and column
  // ordinals up to 32767 (the AAD holds them in 16 bits; above that,
  // Unsupported). PermissionDenied when no key is known for it,
  // InvalidArgument when the key is not an AES key's size.
  Result<ModuleDecryptor> ForColumn(const ColumnCryptoMetaData& crypto, const std::string& dotted_path,
                                    int64_t row_group, int64_t column) const;

 private:
  FileDecryptor() = default;
  Result<std::string> FooterKey() const;
  // The retriever's key for `key_metadata`, asked once and kept.
  Result<std::string> Retrieve(const std::string& key_metadata, const std::string& what) const;
  Status CheckKeySize(const std::string& key, const std::string& what) const;

  DecryptionKeys keys_;
  mutable std::mutex retrieved_mutex_;
  mutable std::map<std::string, std::string> retrieved_;  // key_metadata -> key
  std::string file_aad_;
  bool ctr_pages_ = false;
  std::optional<std::string> footer_key_metadata_;
  std::string where_;
};

}  // namespace floe::parquet
