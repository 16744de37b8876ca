// Parquet modular encryption: the keys a reader is given and the keys and
// choices a writer is given; the AES-GCM / AES-CTR decryption and encryption
// of a file's modules.
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
// DuckDB (through 1.5 at least) writes AES_GCM_V1 files with no AAD at all
// and no aad_file_unique; a file that stores neither an aad_file_unique nor
// an AAD prefix, and is given none, is read that way (decision 0066).
//
// Thread safety: DecryptionKeys and EncryptionProperties are plain values.
// ModuleDecryptor is immutable; FileDecryptor may be used from any thread
// (it calls the key retriever under a lock, once per distinct key_metadata).
// A ModuleEncryptor is used by one thread at a time (it keeps its cipher
// context).

#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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

// How a writer encrypts a file (spec: Encryption.md 3 and 5). Keys are raw
// AES keys of 16, 24 or 32 bytes.
struct EncryptionProperties {
  // Encrypts the footer (or signs it, with `plaintext_footer`) and every
  // column without a key of its own.
  std::string footer_key;
  // Stored for readers' key retrievers (FileCryptoMetaData.key_metadata, or
  // footer_signing_key_metadata with a plaintext footer).
  std::optional<std::string> footer_key_metadata;
  struct ColumnKey {
    std::string key;
    std::optional<std::string> key_metadata;  // stored in the column's crypto metadata
  };
  // Columns encrypted with a key of their own, by dotted path ("a.b.c").
  // Their metadata (statistics included) is encrypted with that key too.
  std::map<std::string, ColumnKey> column_keys;
  // Columns left in plaintext, by dotted path. Every other column is
  // encrypted: secure unless told otherwise (decision 0066).
  std::set<std::string> plaintext_columns;
  // The footer in plaintext (magic PAR1, readable by readers that know no
  // encryption, which then read the plaintext columns), signed with the
  // footer key; encrypted columns' statistics are left out of it.
  bool plaintext_footer = false;
  // AES_GCM_CTR_V1: pages with AES-CTR (no tag; faster), the rest with
  // AES-GCM. Otherwise AES_GCM_V1: everything with AES-GCM.
  bool ctr_pages = false;
  // Binds the file to a name or a table version (spec 4.4). Stored in the
  // file unless `store_aad_prefix` is false; readers must then supply it.
  std::optional<std::string> aad_prefix;
  bool store_aad_prefix = true;
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

// Opens `blob`, nonce (12 bytes) | ciphertext | tag (16 bytes) with no
// length prefix, under AES-GCM with `key` and `aad`: the form wrapped keys
// take in parquet-mr's key material (key_tools.h). PermissionDenied when
// the tag does not match; Corrupt when the blob is shorter than 28 bytes;
// InvalidArgument for a key that is no AES key's size.
Result<std::string> OpenAesGcmBlob(std::string_view key, std::span<const uint8_t> blob, std::string_view aad);

// Seals `plain` under AES-GCM with `key` and `aad` as the blob
// OpenAesGcmBlob opens: a fresh random nonce (12 bytes) | ciphertext | tag
// (16 bytes). InvalidArgument for a key that is no AES key's size; Internal
// when OpenSSL fails.
Result<std::string> SealAesGcmBlob(std::string_view key, std::string_view plain, std::string_view aad);

// `size` bytes from OpenSSL's random generator, for keys and key ids.
// Internal when it has none to give.
Result<std::string> RandomBytes(size_t size);

// The bytes the module at the start of `bytes` takes: 4 + its stored
// length, read from its first 4 bytes (Corrupt when there are fewer), not
// checked against `bytes`: for callers that fetch the rest.
Result<int64_t> EncryptedModuleExtent(std::span<const uint8_t> bytes);
// The same, checked: Corrupt when the module runs past `bytes`.
Result<size_t> EncryptedModuleSize(std::span<const uint8_t> bytes);

// Decrypts the modules of one column chunk (or, for the footer, of the file).
class ModuleDecryptor {
 public:
  // `module_aad` false: the modules carry no AAD (DuckDB's files).
  ModuleDecryptor(std::string key, std::string file_aad, bool ctr_pages, int16_t row_group, int16_t column,
                  bool module_aad = true)
      : key_(std::move(key)),
        file_aad_(std::move(file_aad)),
        ctr_pages_(ctr_pages),
        module_aad_(module_aad),
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

  // False for DuckDB's form (see the top of this file): modules without
  // AAD, and page headers whose compressed_page_size leaves out the
  // encryption's length, nonce and tag.
  bool module_aad() const { return module_aad_; }

 private:
  std::string Aad(ModuleType type, int32_t page_ordinal) const;

  std::string key_;
  std::string file_aad_;
  bool ctr_pages_;
  bool module_aad_;
  int16_t row_group_;
  int16_t column_;
};

// Encrypts the modules of one column chunk (or, for the footer, of the
// file) of a file being written: each gets a fresh random nonce.
class ModuleEncryptor {
 public:
  // InvalidArgument when `key` is not 16, 24 or 32 bytes.
  static Result<ModuleEncryptor> Make(std::string key, std::string file_aad, bool ctr_pages, int16_t row_group,
                                      int16_t column);
  ModuleEncryptor(ModuleEncryptor&&) noexcept;
  ModuleEncryptor& operator=(ModuleEncryptor&&) noexcept;
  ~ModuleEncryptor();

  // The bytes the module of `plain_size` bytes takes: length, nonce,
  // ciphertext and (but for AES-CTR pages) tag.
  size_t EncryptedSize(ModuleType type, size_t plain_size) const;

  // Writes the module of `plain` to out[0, EncryptedSize()). `page_ordinal`
  // as ModuleDecryptor::Decrypt's: data pages and their headers only, up to
  // 32767 (Unsupported above). Internal when OpenSSL fails.
  Status Encrypt(ModuleType type, std::span<const uint8_t> plain, int32_t page_ordinal, uint8_t* out);
  // The same, appended to *out.
  Status Append(ModuleType type, std::span<const uint8_t> plain, int32_t page_ordinal, std::string* out);
  Status Append(ModuleType type, std::span<const uint8_t> plain, int32_t page_ordinal, std::vector<uint8_t>* out);

  // Plaintext footer mode (spec 5.5): the 28-byte signature of `footer`,
  // a fresh nonce and the GCM tag of the footer under this key.
  Result<std::string> SignFooter(std::span<const uint8_t> footer);

 private:
  struct Cipher;
  ModuleEncryptor(std::string key, std::string file_aad, bool ctr_pages, int16_t row_group, int16_t column,
                  std::unique_ptr<Cipher> cipher);

  std::string key_;
  std::string file_aad_;
  bool ctr_pages_;
  int16_t row_group_;
  int16_t column_;
  std::unique_ptr<Cipher> cipher_;
};

// A file being written: its algorithm and AAD, and the key of each leaf
// column (by ordinal), from EncryptionProperties.
class FileEncryptor {
 public:
  // `columns`: the paths of the file's leaf columns, in order; properties
  // name them dotted.
  // InvalidArgument for a key of the wrong size, a column key or plaintext
  // column naming no leaf column (or both naming one), or an AAD prefix not
  // to be stored that is not given.
  static Result<FileEncryptor> Make(const EncryptionProperties& properties, const std::vector<ColumnPath>& columns);

  const EncryptionAlgorithm& algorithm() const { return algorithm_; }
  bool plaintext_footer() const { return plaintext_footer_; }
  const std::optional<std::string>& footer_key_metadata() const { return footer_key_metadata_; }
  const std::string& file_aad() const { return file_aad_; }
  bool ctr_pages() const { return ctr_pages_; }

  // Whether column `column` is encrypted, with which key, and its crypto
  // metadata; `own_key`: a key of its own rather than the footer's.
  bool encrypted(int column) const { return columns_[static_cast<size_t>(column)].has_value(); }
  const std::string& column_key(int column) const { return columns_[static_cast<size_t>(column)]->key; }
  bool own_key(int column) const { return columns_[static_cast<size_t>(column)]->own_key; }
  const ColumnCryptoMetaData& crypto_metadata(int column) const {
    return columns_[static_cast<size_t>(column)]->crypto_metadata;
  }

  // Encryptors of the footer and of an encrypted column's chunk in a row
  // group (Unsupported past row group 32767).
  Result<ModuleEncryptor> ForFooter() const;
  Result<ModuleEncryptor> ForColumn(int64_t row_group, int column) const;

 private:
  struct Column {
    std::string key;
    bool own_key = false;
    ColumnCryptoMetaData crypto_metadata;
  };
  FileEncryptor() = default;

  EncryptionAlgorithm algorithm_;
  bool plaintext_footer_ = false;
  bool ctr_pages_ = false;
  std::string footer_key_;
  std::optional<std::string> footer_key_metadata_;
  std::string file_aad_;
  std::vector<std::optional<Column>> columns_;
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

  // False for DuckDB's form (see the top of this file): modules without AAD.
  bool module_aad() const { return module_aad_; }

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
  bool module_aad_ = true;
  std::optional<std::string> footer_key_metadata_;
  std::string where_;
};

}  // namespace floe::parquet
