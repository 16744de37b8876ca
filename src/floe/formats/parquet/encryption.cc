#include "floe/formats/parquet/encryption.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "floe/base/bytes.h"
#include "floe/base/strings.h"

namespace floe::parquet {
namespace {

constexpr size_t kLengthBytes = 4;
constexpr size_t kNonceBytes = 12;
constexpr size_t kTagBytes = 16;

struct CipherContextFree {
  void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, CipherContextFree>;

const EVP_CIPHER* GcmCipher(size_t key_bytes) {
  switch (key_bytes) {
    case 16: return EVP_aes_128_gcm();
    case 24: return EVP_aes_192_gcm();
    case 32: return EVP_aes_256_gcm();
    default: return nullptr;
  }
}

const EVP_CIPHER* CtrCipher(size_t key_bytes) {
  switch (key_bytes) {
    case 16: return EVP_aes_128_ctr();
    case 24: return EVP_aes_192_ctr();
    case 32: return EVP_aes_256_ctr();
    default: return nullptr;
  }
}

const unsigned char* Bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

bool IsPage(ModuleType type) { return type == ModuleType::kDataPage || type == ModuleType::kDictionaryPage; }

Status CheckPageOrdinal(int32_t page_ordinal) {
  if (page_ordinal >= 0 && page_ordinal <= INT16_MAX) return Status::OK();
  return Status::Unsupported(
      StrCat("encrypted data page number ", page_ordinal, " (the AAD holds page ordinals up to 32767)"));
}

// spec 4.4: the file's AAD, then the module type, then (all but the footer)
// the row group and column ordinals, then (data pages and their headers)
// the page ordinal, each 16 bits little-endian.
std::string ModuleAad(const std::string& file_aad, ModuleType type, int16_t row_group, int16_t column,
                      int32_t page_ordinal) {
  std::string aad = file_aad;
  aad.push_back(static_cast<char>(type));
  if (type == ModuleType::kFooter) return aad;
  auto append16 = [&aad](int32_t v) {
    aad.push_back(static_cast<char>(v & 0xff));
    aad.push_back(static_cast<char>((v >> 8) & 0xff));
  };
  append16(row_group);
  append16(column);
  if (type == ModuleType::kDataPage || type == ModuleType::kDataPageHeader) append16(page_ordinal);
  return aad;
}

Status KeySizeError(size_t key_bytes) {
  return Status::InvalidArgument(
      StrCat("a parquet encryption key of ", key_bytes, " bytes (AES keys are 16, 24 or 32 bytes)"));
}

// Encrypts `text` under AES-GCM with key, nonce and aad into `out`
// (text.size() bytes) and its tag into `tag` (16 bytes).
Status GcmSeal(std::string_view key, const uint8_t* nonce, std::string_view aad, std::span<const uint8_t> text,
               uint8_t* out, uint8_t* tag) {
  const EVP_CIPHER* cipher = GcmCipher(key.size());
  if (cipher == nullptr) return KeySizeError(key.size());
  if (text.size() > static_cast<size_t>(INT32_MAX) || aad.size() > static_cast<size_t>(INT32_MAX)) {
    return Status::Unsupported(StrCat("AES-GCM over ", text.size(), " bytes"));
  }
  CipherContext ctx(EVP_CIPHER_CTX_new());
  int n = 0;
  int tail = 0;
  if (ctx == nullptr || EVP_EncryptInit_ex(ctx.get(), cipher, nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) != 1 ||
      EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, Bytes(key), nonce) != 1 ||
      EVP_EncryptUpdate(ctx.get(), nullptr, &n, Bytes(aad), static_cast<int>(aad.size())) != 1 ||
      EVP_EncryptUpdate(ctx.get(), out, &n, text.data(), static_cast<int>(text.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), out + n, &tail) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, tag) != 1) {
    return Status::Internal("OpenSSL AES-GCM encryption failed");
  }
  return Status::OK();
}

// The AES-GCM tag of `text` under key, nonce and aad. Encrypts to compute it,
// as the footer signature is defined.
Result<std::string> GcmTag(const std::string& key, const uint8_t* nonce, const std::string& aad,
                           std::span<const uint8_t> text) {
  std::vector<uint8_t> scratch(text.size());
  std::string tag(kTagBytes, '\0');
  FLOE_RETURN_IF_ERROR(GcmSeal(key, nonce, aad, text, scratch.data(), reinterpret_cast<uint8_t*>(tag.data())));
  return tag;
}

// Opens nonce (12 bytes) | text | tag (16 bytes) under AES-GCM into `out`
// (text_size bytes). False when the tag does not match; the callers say
// what that means for them.
Result<bool> GcmOpen(std::string_view key, const uint8_t* nonce, size_t text_size, std::string_view aad, uint8_t* out) {
  const EVP_CIPHER* cipher = GcmCipher(key.size());
  if (cipher == nullptr) return KeySizeError(key.size());
  if (text_size > static_cast<size_t>(INT32_MAX) || aad.size() > static_cast<size_t>(INT32_MAX)) {
    return Status::Unsupported(StrCat("an encrypted module of ", text_size, " bytes"));
  }
  const uint8_t* text = nonce + kNonceBytes;
  void* tag = const_cast<uint8_t*>(text + text_size);  // OpenSSL's API is not const-correct; it only reads
  CipherContext ctx(EVP_CIPHER_CTX_new());
  int n = 0;
  int tail = 0;
  if (ctx == nullptr || EVP_DecryptInit_ex(ctx.get(), cipher, nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) != 1 ||
      EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, Bytes(key), nonce) != 1 ||
      EVP_DecryptUpdate(ctx.get(), nullptr, &n, Bytes(aad), static_cast<int>(aad.size())) != 1 ||
      EVP_DecryptUpdate(ctx.get(), out, &n, text, static_cast<int>(text_size)) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag) != 1) {
    return Status::Internal("OpenSSL AES-GCM decryption failed");
  }
  return EVP_DecryptFinal_ex(ctx.get(), out + n, &tail) == 1;
}

}  // namespace

std::optional<EncryptionAlgorithmFields> FieldsOf(const EncryptionAlgorithm& algorithm) {
  const auto fields = [](std::string_view name, bool ctr_pages, const auto& a) {
    return EncryptionAlgorithmFields{name, ctr_pages, &a.aad_prefix, &a.aad_file_unique,
                                     a.supply_aad_prefix.value_or(false)};
  };
  if (const auto* gcm = std::get_if<AesGcmV1>(&algorithm)) return fields("AES_GCM_V1", false, *gcm);
  if (const auto* ctr = std::get_if<AesGcmCtrV1>(&algorithm)) return fields("AES_GCM_CTR_V1", true, *ctr);
  return std::nullopt;
}

Result<std::string> OpenAesGcmBlob(std::string_view key, std::span<const uint8_t> blob, std::string_view aad) {
  if (blob.size() < kNonceBytes + kTagBytes) {
    return Status::Corrupt(StrCat("a wrapped key of ", blob.size(), " bytes is shorter than its nonce and tag"));
  }
  std::string plain(blob.size() - kNonceBytes - kTagBytes, '\0');
  FLOE_ASSIGN_OR_RETURN(const bool opened,
                        GcmOpen(key, blob.data(), plain.size(), aad, reinterpret_cast<uint8_t*>(plain.data())));
  if (!opened) {
    return Status::PermissionDenied("a wrapped key's authentication tag does not match: a wrong wrapping key");
  }
  return plain;
}

Result<std::string> SealAesGcmBlob(std::string_view key, std::string_view plain, std::string_view aad) {
  std::string blob(kNonceBytes + plain.size() + kTagBytes, '\0');
  auto* bytes = reinterpret_cast<uint8_t*>(blob.data());
  if (RAND_bytes(bytes, static_cast<int>(kNonceBytes)) != 1) return Status::Internal("OpenSSL: no random nonce");
  FLOE_RETURN_IF_ERROR(
      GcmSeal(key, bytes, aad, AsBytes(plain), bytes + kNonceBytes, bytes + kNonceBytes + plain.size()));
  return blob;
}

Result<std::string> RandomBytes(size_t size) {
  std::string bytes(size, '\0');
  if (size > static_cast<size_t>(INT32_MAX) ||
      RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(size)) != 1) {
    return Status::Internal(StrCat("OpenSSL: no ", size, " random bytes"));
  }
  return bytes;
}

Result<int64_t> EncryptedModuleExtent(std::span<const uint8_t> bytes) {
  if (bytes.size() < kLengthBytes) {
    return Status::Corrupt(StrCat("encrypted module cut short: ", bytes.size(), " bytes, its length needs 4"));
  }
  const uint32_t length = static_cast<uint32_t>(bytes[0]) | static_cast<uint32_t>(bytes[1]) << 8 |
                          static_cast<uint32_t>(bytes[2]) << 16 | static_cast<uint32_t>(bytes[3]) << 24;
  return static_cast<int64_t>(kLengthBytes) + length;
}

Result<size_t> EncryptedModuleSize(std::span<const uint8_t> bytes) {
  FLOE_ASSIGN_OR_RETURN(const int64_t extent, EncryptedModuleExtent(bytes));
  if (extent > static_cast<int64_t>(bytes.size())) {
    return Status::Corrupt(StrCat("encrypted module of ", extent - static_cast<int64_t>(kLengthBytes),
                                  " bytes runs past the ", bytes.size() - kLengthBytes, " bytes that hold it"));
  }
  return static_cast<size_t>(extent);
}

std::string ModuleDecryptor::Aad(ModuleType type, int32_t page_ordinal) const {
  if (!module_aad_) return std::string();
  return ModuleAad(file_aad_, type, row_group_, column_, page_ordinal);
}

Result<Buffer> ModuleDecryptor::Decrypt(ModuleType type, std::span<const uint8_t> module, int32_t page_ordinal) const {
  FLOE_RETURN_IF_ERROR(CheckPageOrdinal(page_ordinal));
  FLOE_ASSIGN_OR_RETURN(const size_t size, EncryptedModuleSize(module));
  const bool ctr = ctr_pages_ && IsPage(type);
  const size_t overhead = kNonceBytes + (ctr ? 0 : kTagBytes);
  if (size - kLengthBytes < overhead) {
    return Status::Corrupt(StrCat("encrypted module of ", size - kLengthBytes, " bytes is shorter than its ", overhead,
                                  "-byte nonce", ctr ? "" : " and tag"));
  }
  const uint8_t* nonce = module.data() + kLengthBytes;
  const uint8_t* text = nonce + kNonceBytes;
  const size_t text_size = size - kLengthBytes - overhead;
  if (text_size > static_cast<size_t>(INT32_MAX)) {
    return Status::Unsupported(StrCat("encrypted module of ", text_size, " bytes"));
  }
  FLOE_ASSIGN_OR_RETURN(Buffer plain, Buffer::Allocate(static_cast<int64_t>(text_size)));
  if (ctr) {
    CipherContext ctx(EVP_CIPHER_CTX_new());
    int n = 0;
    int tail = 0;
    const EVP_CIPHER* cipher = CtrCipher(key_.size());
    if (cipher == nullptr) return KeySizeError(key_.size());
    // spec 4.2.2: the IV is the nonce and a 4-byte counter starting at 1.
    unsigned char iv[16] = {};
    std::memcpy(iv, nonce, kNonceBytes);
    iv[15] = 1;
    if (ctx == nullptr || EVP_DecryptInit_ex(ctx.get(), cipher, nullptr, Bytes(key_), iv) != 1 ||
        EVP_DecryptUpdate(ctx.get(), plain.mutable_data(), &n, text, static_cast<int>(text_size)) != 1 ||
        EVP_DecryptFinal_ex(ctx.get(), plain.mutable_data() + n, &tail) != 1) {
      return Status::Internal("OpenSSL AES-CTR decryption failed");
    }
    return plain;
  }
  FLOE_ASSIGN_OR_RETURN(const bool opened,
                        GcmOpen(key_, nonce, text_size, Aad(type, page_ordinal), plain.mutable_data()));
  if (!opened) {
    return Status::PermissionDenied(
        "the authentication tag does not match: a wrong key or AAD prefix, or altered bytes");
  }
  return plain;
}

Result<bool> ModuleDecryptor::VerifySignature(std::span<const uint8_t> footer,
                                              std::span<const uint8_t> signature) const {
  if (signature.size() != kNonceBytes + kTagBytes) {
    return Status::Corrupt(StrCat("footer signature of ", signature.size(), " bytes (it is 28)"));
  }
  FLOE_ASSIGN_OR_RETURN(const std::string tag, GcmTag(key_, signature.data(), Aad(ModuleType::kFooter, 0), footer));
  return CRYPTO_memcmp(tag.data(), signature.data() + kNonceBytes, kTagBytes) == 0;
}

Result<std::shared_ptr<const FileDecryptor>> FileDecryptor::Make(const EncryptionAlgorithm& algorithm,
                                                                 std::optional<std::string> footer_key_metadata,
                                                                 const DecryptionKeys& keys, std::string where) {
  const std::optional<EncryptionAlgorithmFields> fields = FieldsOf(algorithm);
  if (!fields) return Status::Unsupported(StrCat(where, " is encrypted with an algorithm floe does not know"));
  std::string prefix;
  if (const std::optional<std::string>& stored = *fields->aad_prefix) {
    if (keys.aad_prefix && *keys.aad_prefix != *stored) {
      return Status::PermissionDenied(StrCat(where, ": the AAD prefix given differs from the one the file stores"));
    }
    prefix = *stored;
  } else if (keys.aad_prefix) {
    prefix = *keys.aad_prefix;
  } else if (fields->supply_aad_prefix) {
    return Status::PermissionDenied(
        StrCat(where, " was encrypted with an AAD prefix it does not store; give it (DecryptionKeys::aad_prefix)"));
  }
  std::shared_ptr<FileDecryptor> out(new FileDecryptor());
  out->ctr_pages_ = fields->ctr_pages;
  // DuckDB's form (see the header): no unique id, no prefix, no AAD.
  out->module_aad_ = fields->aad_file_unique->has_value() || !prefix.empty() || fields->supply_aad_prefix;
  out->keys_ = keys;
  out->file_aad_ = prefix + fields->aad_file_unique->value_or("");
  out->footer_key_metadata_ = std::move(footer_key_metadata);
  out->where_ = std::move(where);
  return std::shared_ptr<const FileDecryptor>(std::move(out));
}

Status FileDecryptor::CheckKeySize(const std::string& key, const std::string& what) const {
  if (key.size() == 16 || key.size() == 24 || key.size() == 32) return Status::OK();
  return Status::InvalidArgument(
      StrCat(where_, ": the ", what, " is ", key.size(), " bytes (AES keys are 16, 24 or 32 bytes)"));
}

Result<std::string> FileDecryptor::Retrieve(const std::string& key_metadata, const std::string& what) const {
  std::lock_guard<std::mutex> lock(retrieved_mutex_);
  if (const auto it = retrieved_.find(key_metadata); it != retrieved_.end()) return it->second;
  auto key = keys_.key_retriever(key_metadata);
  if (!key.ok()) return key.status().WithContext(StrCat(where_, ": ", what));
  retrieved_.emplace(key_metadata, *key);
  return key;
}

Result<std::string> FileDecryptor::FooterKey() const {
  std::string key;
  if (!keys_.footer_key.empty()) {
    key = keys_.footer_key;
  } else if (keys_.key_retriever && footer_key_metadata_) {
    FLOE_ASSIGN_OR_RETURN(key, Retrieve(*footer_key_metadata_, "footer key"));
  } else {
    return Status::PermissionDenied(StrCat(where_, " is encrypted and no footer key was given"));
  }
  FLOE_RETURN_IF_ERROR(CheckKeySize(key, "footer key"));
  return key;
}

Result<ModuleDecryptor> FileDecryptor::ForFooter() const {
  FLOE_ASSIGN_OR_RETURN(std::string key, FooterKey());
  return ModuleDecryptor(std::move(key), file_aad_, ctr_pages_, 0, 0, module_aad_);
}

Result<ModuleDecryptor> FileDecryptor::ForColumn(const ColumnCryptoMetaData& crypto, const std::string& dotted_path,
                                                 int64_t row_group, int64_t column) const {
  if (row_group > INT16_MAX || column > INT16_MAX) {
    return Status::Unsupported(StrCat(where_, ": column ", Quote(dotted_path), " in row group ", row_group,
                                      " is encrypted, and the AAD holds ordinals up to 32767 only"));
  }
  std::string key;
  if (std::holds_alternative<EncryptionWithFooterKey>(crypto)) {
    FLOE_ASSIGN_OR_RETURN(key, FooterKey());
  } else if (const auto* with_key = std::get_if<EncryptionWithColumnKey>(&crypto)) {
    const std::string what = StrCat("key of column ", Quote(dotted_path));
    if (const auto it = keys_.column_keys.find(dotted_path); it != keys_.column_keys.end()) {
      key = it->second;
    } else if (keys_.key_retriever && with_key->key_metadata) {
      FLOE_ASSIGN_OR_RETURN(key, Retrieve(*with_key->key_metadata, what));
    } else {
      return Status::PermissionDenied(
          StrCat(where_, ": column ", Quote(dotted_path), " is encrypted and no key was given for it"));
    }
    FLOE_RETURN_IF_ERROR(CheckKeySize(key, what));
  } else {
    return Status::Unsupported(StrCat(where_, ": column ", Quote(dotted_path), " has an unknown encryption kind"));
  }
  return ModuleDecryptor(std::move(key), file_aad_, ctr_pages_, static_cast<int16_t>(row_group),
                         static_cast<int16_t>(column), module_aad_);
}

// Two contexts keyed once: AES-GCM for every module, AES-CTR for the pages
// of AES_GCM_CTR_V1 files; each module sets only its nonce.
struct ModuleEncryptor::Cipher {
  CipherContext gcm;
  CipherContext ctr;
};

ModuleEncryptor::ModuleEncryptor(std::string key, std::string file_aad, bool ctr_pages, int16_t row_group,
                                 int16_t column, std::unique_ptr<Cipher> cipher)
    : key_(std::move(key)),
      file_aad_(std::move(file_aad)),
      ctr_pages_(ctr_pages),
      row_group_(row_group),
      column_(column),
      cipher_(std::move(cipher)) {}
ModuleEncryptor::ModuleEncryptor(ModuleEncryptor&&) noexcept = default;
ModuleEncryptor& ModuleEncryptor::operator=(ModuleEncryptor&&) noexcept = default;
ModuleEncryptor::~ModuleEncryptor() = default;

Result<ModuleEncryptor> ModuleEncryptor::Make(std::string key, std::string file_aad, bool ctr_pages, int16_t row_group,
                                              int16_t column) {
  const EVP_CIPHER* gcm = GcmCipher(key.size());
  if (gcm == nullptr) return KeySizeError(key.size());
  auto cipher = std::make_unique<Cipher>();
  cipher->gcm.reset(EVP_CIPHER_CTX_new());
  if (cipher->gcm == nullptr || EVP_EncryptInit_ex(cipher->gcm.get(), gcm, nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(cipher->gcm.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) != 1 ||
      EVP_EncryptInit_ex(cipher->gcm.get(), nullptr, nullptr, Bytes(key), nullptr) != 1) {
    return Status::Internal("OpenSSL AES-GCM setup failed");
  }
  if (ctr_pages) {
    cipher->ctr.reset(EVP_CIPHER_CTX_new());
    if (cipher->ctr == nullptr ||
        EVP_EncryptInit_ex(cipher->ctr.get(), CtrCipher(key.size()), nullptr, Bytes(key), nullptr) != 1) {
      return Status::Internal("OpenSSL AES-CTR setup failed");
    }
  }
  return ModuleEncryptor(std::move(key), std::move(file_aad), ctr_pages, row_group, column, std::move(cipher));
}

size_t ModuleEncryptor::EncryptedSize(ModuleType type, size_t plain_size) const {
  const bool ctr = ctr_pages_ && IsPage(type);
  return kLengthBytes + kNonceBytes + plain_size + (ctr ? 0 : kTagBytes);
}

Status ModuleEncryptor::Encrypt(ModuleType type, std::span<const uint8_t> plain, int32_t page_ordinal, uint8_t* out) {
  FLOE_RETURN_IF_ERROR(CheckPageOrdinal(page_ordinal));
  if (plain.size() > static_cast<size_t>(INT32_MAX) - kNonceBytes - kTagBytes) {
    return Status::Unsupported(StrCat("an encrypted module of ", plain.size(), " bytes"));
  }
  const bool ctr = ctr_pages_ && IsPage(type);
  const auto length = static_cast<uint32_t>(EncryptedSize(type, plain.size()) - kLengthBytes);
  for (size_t i = 0; i < kLengthBytes; ++i) out[i] = static_cast<uint8_t>(length >> (8 * i));
  uint8_t* nonce = out + kLengthBytes;
  uint8_t* text = nonce + kNonceBytes;
  if (RAND_bytes(nonce, static_cast<int>(kNonceBytes)) != 1) return Status::Internal("OpenSSL: no random nonce");
  const int plain_size = static_cast<int>(plain.size());
  int n = 0;
  int tail = 0;
  if (ctr) {
    // spec 4.2.2: the IV is the nonce and a 4-byte counter starting at 1.
    unsigned char iv[16] = {};
    std::memcpy(iv, nonce, kNonceBytes);
    iv[15] = 1;
    EVP_CIPHER_CTX* ctx = cipher_->ctr.get();
    if (EVP_EncryptInit_ex(ctx, nullptr, nullptr, nullptr, iv) != 1 ||
        EVP_EncryptUpdate(ctx, text, &n, plain.data(), plain_size) != 1 ||
        EVP_EncryptFinal_ex(ctx, text + n, &tail) != 1) {
      return Status::Internal("OpenSSL AES-CTR encryption failed");
    }
    return Status::OK();
  }
  const std::string aad = ModuleAad(file_aad_, type, row_group_, column_, page_ordinal);
  EVP_CIPHER_CTX* ctx = cipher_->gcm.get();
  if (EVP_EncryptInit_ex(ctx, nullptr, nullptr, nullptr, nonce) != 1 ||
      EVP_EncryptUpdate(ctx, nullptr, &n, Bytes(aad), static_cast<int>(aad.size())) != 1 ||
      EVP_EncryptUpdate(ctx, text, &n, plain.data(), plain_size) != 1 ||
      EVP_EncryptFinal_ex(ctx, text + n, &tail) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, kTagBytes, text + plain.size()) != 1) {
    return Status::Internal("OpenSSL AES-GCM encryption failed");
  }
  return Status::OK();
}

Status ModuleEncryptor::Append(ModuleType type, std::span<const uint8_t> plain, int32_t page_ordinal,
                               std::string* out) {
  const size_t start = out->size();
  out->resize(start + EncryptedSize(type, plain.size()));
  const Status status = Encrypt(type, plain, page_ordinal, reinterpret_cast<uint8_t*>(out->data()) + start);
  if (!status.ok()) out->resize(start);
  return status;
}

Status ModuleEncryptor::Append(ModuleType type, std::span<const uint8_t> plain, int32_t page_ordinal,
                               std::vector<uint8_t>* out) {
  const size_t start = out->size();
  out->resize(start + EncryptedSize(type, plain.size()));
  const Status status = Encrypt(type, plain, page_ordinal, out->data() + start);
  if (!status.ok()) out->resize(start);
  return status;
}

Result<std::string> ModuleEncryptor::SignFooter(std::span<const uint8_t> footer) {
  FLOE_ASSIGN_OR_RETURN(const std::string signature, RandomBytes(kNonceBytes));
  FLOE_ASSIGN_OR_RETURN(const std::string tag, GcmTag(key_, reinterpret_cast<const uint8_t*>(signature.data()),
                                                      ModuleAad(file_aad_, ModuleType::kFooter, 0, 0, 0), footer));
  return signature + tag;
}

Result<FileEncryptor> FileEncryptor::Make(const EncryptionProperties& properties,
                                          const std::vector<ColumnPath>& columns) {
  auto check_key = [](const std::string& key, const std::string& what) -> Status {
    if (key.size() == 16 || key.size() == 24 || key.size() == 32) return Status::OK();
    return Status::InvalidArgument(
        StrCat("encryption: the ", what, " is ", key.size(), " bytes (AES keys are 16, 24 or 32 bytes)"));
  };
  FLOE_RETURN_IF_ERROR(check_key(properties.footer_key, "footer key"));
  std::set<std::string> leaves;
  for (const ColumnPath& path : columns) leaves.insert(path.Dotted());
  for (const auto& [path, column_key] : properties.column_keys) {
    if (!leaves.contains(path)) {
      return Status::InvalidArgument(StrCat("encryption: a key for ", Quote(path), ", which is no leaf column"));
    }
    if (properties.plaintext_columns.contains(path)) {
      return Status::InvalidArgument(StrCat("encryption: column ", Quote(path), " has a key and is to be plaintext"));
    }
    FLOE_RETURN_IF_ERROR(check_key(column_key.key, StrCat("key of column ", Quote(path))));
  }
  for (const std::string& path : properties.plaintext_columns) {
    if (!leaves.contains(path)) {
      return Status::InvalidArgument(StrCat("encryption: plaintext column ", Quote(path), ", which is no leaf column"));
    }
  }
  if (!properties.store_aad_prefix && !properties.aad_prefix) {
    return Status::InvalidArgument("encryption: an AAD prefix not to be stored, but none was given");
  }

  FileEncryptor out;
  out.plaintext_footer_ = properties.plaintext_footer;
  out.ctr_pages_ = properties.ctr_pages;
  out.footer_key_ = properties.footer_key;
  out.footer_key_metadata_ = properties.footer_key_metadata;
  // spec 4.4: 8 random bytes make each file's AAD, and so its modules, its own.
  FLOE_ASSIGN_OR_RETURN(const std::string unique, RandomBytes(8));
  out.file_aad_ = properties.aad_prefix.value_or("") + unique;
  const auto fill = [&](auto algorithm) {
    if (properties.aad_prefix && properties.store_aad_prefix) algorithm.aad_prefix = properties.aad_prefix;
    if (properties.aad_prefix && !properties.store_aad_prefix) algorithm.supply_aad_prefix = true;
    algorithm.aad_file_unique = unique;
    return algorithm;
  };
  if (properties.ctr_pages) {
    out.algorithm_ = fill(AesGcmCtrV1{});
  } else {
    out.algorithm_ = fill(AesGcmV1{});
  }
  out.columns_.resize(columns.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    const std::string path = columns[i].Dotted();
    if (properties.plaintext_columns.contains(path)) continue;
    if (i > static_cast<size_t>(INT16_MAX)) {
      return Status::Unsupported(StrCat("encryption: column ", Quote(path), " is leaf column number ", i,
                                        ", and the AAD holds column ordinals up to 32767"));
    }
    Column& column = out.columns_[i].emplace();
    if (const auto it = properties.column_keys.find(path); it != properties.column_keys.end()) {
      column.key = it->second.key;
      column.own_key = true;
      EncryptionWithColumnKey with_key;
      with_key.path_in_schema = columns[i];
      with_key.key_metadata = it->second.key_metadata;
      column.crypto_metadata = std::move(with_key);
    } else {
      column.key = properties.footer_key;
      column.crypto_metadata = EncryptionWithFooterKey{};
    }
  }
  return out;
}

Result<ModuleEncryptor> FileEncryptor::ForFooter() const {
  return ModuleEncryptor::Make(footer_key_, file_aad_, ctr_pages_, 0, 0);
}

Result<ModuleEncryptor> FileEncryptor::ForColumn(int64_t row_group, int column) const {
  if (row_group > INT16_MAX || column > INT16_MAX) {
    return Status::Unsupported(
        StrCat("encryption: row group ", row_group, ", column ", column, " (the AAD holds ordinals up to 32767)"));
  }
  return ModuleEncryptor::Make(column_key(column), file_aad_, ctr_pages_, static_cast<int16_t>(row_group),
                               static_cast<int16_t>(column));
}

}  // namespace floe::parquet
