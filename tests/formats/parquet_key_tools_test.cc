// parquet's key tools (key_tools.h, decisions 0067 and 0069): parquet-mr's
// file with external, double-wrapped key material decrypts through a
// LocalKms holding parquet-testing's master keys; files with internal key
// material, single- and double-wrapped, decrypt the same way; files whose
// keys MakeKeyToolsFileKeys made, with material shaped as parquet-mr's,
// decrypt through the KMS; and each failure (a master key the KMS lacks, a
// missing key material file, a plain key id, an altered wrapped key, bad
// options) is a clear error.

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "floe/base/base64.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/key_tools.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace key_tools_test {  // the unity build merges anonymous namespaces
namespace {

const std::string kExternalFile = testing::ParquetTestingDir() + "/data/external_key_material_java.parquet.encrypted";

// data/README.md: the master keys of parquet-mr's InMemoryKMS, ASCII digits.
std::map<std::string, std::string, std::less<>> MasterKeys() {
  return {{"kf", "0123456789012345"}, {"kc1", "1234567890123450"}, {"kc2", "1234567890123451"}};
}

// A LocalKms that counts its unwrap and wrap calls per master key.
class CountingKms : public KmsClient {
 public:
  explicit CountingKms(std::map<std::string, std::string, std::less<>> keys) : kms_(std::move(keys)) {}
  Result<std::string> WrapKey(std::string_view key, std::string_view master_key_id) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++wraps_[std::string(master_key_id)];
    return kms_.WrapKey(key, master_key_id);
  }
  Result<std::string> UnwrapKey(std::string_view wrapped_key, std::string_view master_key_id) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++calls_[std::string(master_key_id)];
    return kms_.UnwrapKey(wrapped_key, master_key_id);
  }
  std::map<std::string, int> calls() {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_;
  }
  std::map<std::string, int> wraps() {
    std::lock_guard<std::mutex> lock(mutex_);
    return wraps_;
  }

 private:
  LocalKms kms_;
  std::mutex mutex_;
  std::map<std::string, int> calls_;
  std::map<std::string, int> wraps_;
};

Result<std::vector<RecordBatch>> ReadWith(const std::string& path, std::shared_ptr<KmsClient> kms,
                                          std::optional<std::vector<std::string>> columns = std::nullopt,
                                          std::shared_ptr<KeyEncryptionKeyCache> cache = nullptr) {
  auto keys = std::make_shared<DecryptionKeys>();
  auto io = NewLocalFileIO();
  keys->key_retriever = MakeKeyToolsRetriever(std::move(kms), io, path, std::move(cache));
  ReaderOptions options;
  options.decryption = std::move(keys);
  FLOE_ASSIGN_OR_RETURN(auto file, ParquetFileReader::Open(io, path, options));
  ScanOptions scan;
  scan.columns = std::move(columns);
  return ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(file)), scan);
}

// AES-GCM nonce | ciphertext | tag of `plain`: how the key tools wrap keys.
std::string Wrap(const std::string& key, const std::string& plain, const std::string& aad) {
  std::string out(12 + plain.size() + 16, '\0');
  auto* bytes = reinterpret_cast<unsigned char*>(out.data());
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  int n = 0;
  const bool ok =
      RAND_bytes(bytes, 12) == 1 && EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), nullptr, nullptr, nullptr) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, nullptr) == 1 &&
      EVP_EncryptInit_ex(ctx, nullptr, nullptr, reinterpret_cast<const unsigned char*>(key.data()), bytes) == 1 &&
      EVP_EncryptUpdate(ctx, nullptr, &n, reinterpret_cast<const unsigned char*>(aad.data()),
                        static_cast<int>(aad.size())) == 1 &&
      EVP_EncryptUpdate(ctx, bytes + 12, &n, reinterpret_cast<const unsigned char*>(plain.data()),
                        static_cast<int>(plain.size())) == 1 &&
      EVP_EncryptFinal_ex(ctx, bytes + 12 + n, &n) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, bytes + 12 + plain.size()) == 1;
  EVP_CIPHER_CTX_free(ctx);
  EXPECT_TRUE(ok);
  return out;
}

std::string Base64(const std::string& bytes) {
  // The key tools write standard base64; the decoder takes either alphabet.
  return Base64UrlEncode(bytes);
}

TEST(ParquetKeyToolsTest, ParquetMrsExternalDoubleWrappedKeyMaterialDecrypts) {
  auto kms = std::make_shared<CountingKms>(MasterKeys());
  auto batches = ReadWith(kExternalFile, kms);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  // parquet-mr's generator: integers i, strings a letter (a..j by i % 10) and i.
  int64_t i = 0;
  for (const RecordBatch& b : *batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r, ++i) {
      EXPECT_EQ(b.column(0).Values<int32_t>()[r], i);
      EXPECT_EQ(b.column(1).GetString(r), StrCat(std::string(1, static_cast<char>('a' + i % 10)), i));
    }
  }
  EXPECT_EQ(i, 100);
  // One key-encryption key per master key, each unwrapped once.
  EXPECT_EQ(kms->calls(), (std::map<std::string, int>{{"kc1", 1}, {"kc2", 1}, {"kf", 1}}));
}

TEST(ParquetKeyToolsTest, MissingMasterKeysMaterialFilesAndPlainKeyIdsAreClearErrors) {
  auto without_footer = MasterKeys();
  without_footer.erase("kf");
  auto refused = ReadWith(kExternalFile, std::make_shared<LocalKms>(without_footer));
  EXPECT_EQ(refused.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(refused.status().message().find("no master key 'kf'"), std::string::npos) << refused.status().ToString();

  auto wrong = MasterKeys();
  wrong["kc2"][0] ^= 1;  // columns read through kc2 fail; the footer opens
  auto wrong_column = ReadWith(kExternalFile, std::make_shared<LocalKms>(wrong));
  EXPECT_EQ(wrong_column.status().code(), StatusCode::kPermissionDenied) << wrong_column.status().ToString();
  EXPECT_NE(wrong_column.status().message().find("master key 'kc2'"), std::string::npos)
      << wrong_column.status().ToString();

  // The file without its key material beside it.
  floe::testing::TempDir dir;
  const std::string moved = dir.Join("moved.parquet.encrypted");
  std::filesystem::copy_file(kExternalFile, moved);
  auto missing = ReadWith(moved, std::make_shared<LocalKms>(MasterKeys()));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound) << missing.status().ToString();
  EXPECT_NE(missing.status().message().find("_KEY_MATERIAL_FOR_moved.parquet.encrypted.json"), std::string::npos)
      << missing.status().ToString();
  EXPECT_EQ(ExternalKeyMaterialPath("s3://bucket/t/data/f.parquet"),
            "s3://bucket/t/data/_KEY_MATERIAL_FOR_f.parquet.json");

  // A file whose key metadata is a plain key id, not key material.
  auto plain_id = ReadWith(testing::ParquetTestingDir() + "/data/uniform_encryption.parquet.encrypted",
                           std::make_shared<LocalKms>(MasterKeys()));
  EXPECT_EQ(plain_id.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(plain_id.status().message().find("key metadata 'kf' is not key material"), std::string::npos)
      << plain_id.status().ToString();
}

TEST(ParquetKeyToolsTest, InternalKeyMaterialSingleAndDoubleWrappedDecrypts) {
  floe::testing::TempDir dir;
  const auto schema = testing::MakeSchema({Field("id", DataType::Int64(), false), Field("secret", DataType::Utf8())});
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<std::string>> secrets;
  for (int64_t i = 0; i < 500; ++i) {
    ids.push_back(i);
    secrets.push_back(StrCat("s", i * 7));
  }
  const RecordBatch batch = testing::Batch(schema, {testing::Int64s(ids), testing::Strings(secrets)});
  const std::string footer_dek = "footer data key!";
  const std::string column_dek = "column data key!";
  const std::string kek = "key encrypt key!";
  const std::string kek_id = "kek-id-16-bytes.";
  const auto masters = MasterKeys();
  // Single wrapping for the footer key, double for the column key.
  const std::string footer_material =
      StrCat(R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":true,"masterKeyID":"kf",)",
             R"("doubleWrapping":false,"wrappedDEK":")", Base64(Wrap(masters.at("kf"), footer_dek, "kf")), R"("})");
  const std::string column_material =
      StrCat(R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":false,"masterKeyID":"kc1",)",
             R"("doubleWrapping":true,"keyEncryptionKeyID":")", Base64(kek_id), R"(","wrappedKEK":")",
             Base64(Wrap(masters.at("kc1"), kek, "kc1")), R"(","wrappedDEK":")", Base64(Wrap(kek, column_dek, kek_id)),
             R"("})");
  EncryptionProperties e;
  e.footer_key = footer_dek;
  e.footer_key_metadata = footer_material;
  e.column_keys = {{"secret", {column_dek, column_material}}};
  const std::string path = dir.Join("internal.parquet");
  WriterOptions options;
  options.encryption = e;
  ASSERT_TRUE(testing::WriteFile(path, schema, {batch}, options).ok());

  auto batches = ReadWith(path, std::make_shared<LocalKms>(masters));
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  int64_t i = 0;
  for (const RecordBatch& b : *batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r, ++i) EXPECT_EQ(b.column(1).GetString(r), StrCat("s", i * 7));
  }
  EXPECT_EQ(i, 500);

  // A wrapped data key altered in the file's key material fails its tag.
  std::string altered_material = column_material;
  const size_t dek = altered_material.find(R"("wrappedDEK":")") + 20;
  altered_material[dek] = altered_material[dek] == 'A' ? 'B' : 'A';
  e.column_keys["secret"].key_metadata = altered_material;
  options.encryption = e;
  const std::string altered = dir.Join("altered.parquet");
  ASSERT_TRUE(testing::WriteFile(altered, schema, {batch}, options).ok());
  auto refused = ReadWith(altered, std::make_shared<LocalKms>(masters));
  EXPECT_EQ(refused.status().code(), StatusCode::kPermissionDenied) << refused.status().ToString();
}

// The members of the JSON object `text` and the kind of each value
// (boolean, string, ...): parquet-java casts the booleans it reads
// ((Boolean) keyMetadataJson.get(...)), so a string "true" would fail there.
std::map<std::string, simdjson::dom::element_type> MemberKinds(std::string_view text) {
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  EXPECT_EQ(parser.parse(simdjson::padded_string(text)).get_object().get(object), simdjson::SUCCESS) << text;
  std::map<std::string, simdjson::dom::element_type> kinds;
  for (const auto field : object) kinds.emplace(field.key, field.value.type());
  return kinds;
}

// Members of the side file, each a JSON object held as a string.
std::map<std::string, std::string> SideFileEntries(std::string_view text) {
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  EXPECT_EQ(parser.parse(simdjson::padded_string(text)).get_object().get(object), simdjson::SUCCESS) << text;
  std::map<std::string, std::string> entries;
  for (const auto field : object) {
    std::string_view value;
    EXPECT_EQ(field.value.get_string().get(value), simdjson::SUCCESS);
    entries.emplace(std::string(field.key), std::string(value));
  }
  return entries;
}

std::string FileText(const std::string& path) {
  auto bytes = NewLocalFileIO()->ReadAll(path);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size()) : "";
}

struct KeyToolsFile {
  std::shared_ptr<const Schema> schema = testing::MakeSchema(
      {Field("id", DataType::Int64(), false), Field("secret", DataType::Utf8()), Field("note", DataType::Utf8())});
  RecordBatch batch = MakeBatch(*this);
  KeyToolsFileKeys last_keys;  // of the last file WriteAndReadBack wrote

  static RecordBatch MakeBatch(const KeyToolsFile& f) {
    std::vector<std::optional<int64_t>> ids;
    std::vector<std::optional<std::string>> secrets;
    std::vector<std::optional<std::string>> notes;
    for (int64_t i = 0; i < 300; ++i) {
      ids.push_back(i);
      secrets.push_back(StrCat("secret-", i * 3));
      notes.push_back(i % 5 == 0 ? std::nullopt : std::optional<std::string>(StrCat("note ", i)));
    }
    return testing::Batch(f.schema, {testing::Int64s(ids), testing::Strings(secrets), testing::Strings(notes)});
  }

  // Writes the file at `path` with keys made through `kms`, the side file
  // too, and checks that it reads back to the batch through `kms`.
  void WriteAndReadBack(const std::string& path, CountingKms& kms, const KeyToolsOptions& options) {
    auto keys = MakeKeyToolsFileKeys(kms, options);
    ASSERT_TRUE(keys.ok()) << keys.status().ToString();
    last_keys = *keys;
    auto io = NewLocalFileIO();
    ASSERT_TRUE(WriteExternalKeyMaterial(*io, path, *keys).ok());
    WriterOptions writer_options;
    writer_options.encryption = keys->properties;
    ASSERT_TRUE(testing::WriteFile(path, schema, {batch}, writer_options).ok());

    auto read = ReadWith(path, std::shared_ptr<KmsClient>(&kms, [](KmsClient*) {}));
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    int64_t rows = 0;
    for (const RecordBatch& b : *read) {
      for (int64_t r = 0; r < b.num_rows(); ++r, ++rows) {
        EXPECT_EQ(b.column(0).Values<int64_t>()[r], rows);
        EXPECT_EQ(b.column(1).GetString(r), StrCat("secret-", rows * 3));
        EXPECT_EQ(b.column(2).IsNull(r), rows % 5 == 0);
      }
    }
    EXPECT_EQ(rows, 300);
  }
};

TEST(ParquetKeyToolsTest, FilesWrittenWithKeyToolsKeysDecryptThroughTheKms) {
  floe::testing::TempDir dir;
  KeyToolsFile file;
  KeyToolsOptions options;
  options.footer_master_key_id = "kf";
  options.column_master_key_ids = {{"secret", "kc1"}, {"note", "kc1"}};  // "id" takes the footer key
  for (const bool internal : {true, false}) {
    for (const bool double_wrapping : {true, false}) {
      SCOPED_TRACE(StrCat(internal ? "internal" : "external", double_wrapping ? ", double" : ", single"));
      options.internal_key_material = internal;
      options.double_wrapping = double_wrapping;
      CountingKms kms(MasterKeys());
      const std::string path = dir.Join(StrCat("f", internal, double_wrapping, ".parquet"));
      file.WriteAndReadBack(path, kms, options);
      EXPECT_EQ(std::filesystem::exists(ExternalKeyMaterialPath(path)), !internal);
      // Double wrapping sends the KMS one key-encryption key per master key;
      // single wrapping each data key, the two columns' included.
      const std::map<std::string, int> per_key = double_wrapping ? std::map<std::string, int>{{"kc1", 1}, {"kf", 1}}
                                                                 : std::map<std::string, int>{{"kc1", 2}, {"kf", 1}};
      EXPECT_EQ(kms.wraps(), per_key);
      EXPECT_EQ(kms.calls(), per_key);
    }
  }
  // AES-256 data and key-encryption keys read back the same way.
  options.data_key_bytes = 32;
  options.key_encryption_key_bytes = 32;
  CountingKms kms(MasterKeys());
  file.WriteAndReadBack(dir.Join("aes256.parquet"), kms, options);
}

TEST(ParquetKeyToolsTest, KeyMaterialIsShapedAsParquetMrsAndItsMasterKeysMatter) {
  floe::testing::TempDir dir;
  KeyToolsFile file;
  KeyToolsOptions options;
  options.footer_master_key_id = "kf";
  options.column_master_key_ids = {{"secret", "kc1"}, {"note", "kc2"}};
  options.internal_key_material = false;
  CountingKms kms(MasterKeys());
  const std::string path = dir.Join("shaped.parquet");
  file.WriteAndReadBack(path, kms, options);

  // The side file has parquet-mr's references, and each entry the members
  // of the entry of the same kind in parquet-mr's own side file.
  const auto ours = SideFileEntries(FileText(ExternalKeyMaterialPath(path)));
  const auto theirs = SideFileEntries(FileText(ExternalKeyMaterialPath(kExternalFile)));
  ASSERT_EQ(ours.size(), 3u);
  for (const auto& [reference, material] : theirs) {
    ASSERT_TRUE(ours.contains(reference)) << reference;
    EXPECT_EQ(MemberKinds(ours.at(reference)), MemberKinds(material)) << reference;
  }
  // Internal material is the same with "internalStorage": true, which
  // parquet-mr's internal material adds.
  LocalKms local(MasterKeys());
  KeyToolsOptions internal_options = options;
  internal_options.internal_key_material = true;
  auto internal = MakeKeyToolsFileKeys(local, internal_options);
  ASSERT_TRUE(internal.ok()) << internal.status().ToString();
  auto with_storage = [](std::map<std::string, simdjson::dom::element_type> kinds) {
    kinds.emplace("internalStorage", simdjson::dom::element_type::BOOL);
    return kinds;
  };
  EXPECT_EQ(MemberKinds(*internal->properties.footer_key_metadata), with_storage(MemberKinds(theirs.at("footerKey"))));
  EXPECT_EQ(MemberKinds(*internal->properties.column_keys.at("note").key_metadata),
            with_storage(MemberKinds(theirs.at("columnKey0"))));
  // An external reference is parquet-mr's three members.
  EXPECT_EQ(
      MemberKinds(*file.last_keys.properties.footer_key_metadata),
      (std::map<std::string, simdjson::dom::element_type>{{"keyMaterialType", simdjson::dom::element_type::STRING},
                                                          {"internalStorage", simdjson::dom::element_type::BOOL},
                                                          {"keyReference", simdjson::dom::element_type::STRING}}));
  // Wrapped keys of 16-byte keys are as long as parquet-mr's, in the
  // standard base64 alphabet with padding that Java's decoder takes.
  const auto wrapped_dek = [](const std::string& material) {
    const size_t at = material.find(R"("wrappedDEK":")") + 14;
    return material.substr(at, material.find('"', at) - at);
  };
  EXPECT_EQ(wrapped_dek(ours.at("footerKey")).size(), wrapped_dek(theirs.at("footerKey")).size());
  EXPECT_EQ(wrapped_dek(ours.at("footerKey")).back(), '=');
  EXPECT_EQ(wrapped_dek(ours.at("columnKey0")).find_first_of("-_"), std::string::npos);

  // Without kc2 the footer, "id" and "secret" still read; "note" does not.
  auto without_kc2 = MasterKeys();
  without_kc2.erase("kc2");
  auto partial = ReadWith(path, std::make_shared<LocalKms>(without_kc2), std::vector<std::string>{"id", "secret"});
  ASSERT_TRUE(partial.ok()) << partial.status().ToString();
  int64_t partial_rows = 0;
  for (const RecordBatch& b : *partial) {
    for (int64_t r = 0; r < b.num_rows(); ++r, ++partial_rows) {
      EXPECT_EQ(b.column(1).GetString(r), StrCat("secret-", partial_rows * 3));
    }
  }
  EXPECT_EQ(partial_rows, 300);
  auto refused = ReadWith(path, std::make_shared<LocalKms>(without_kc2));
  EXPECT_EQ(refused.status().code(), StatusCode::kPermissionDenied) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("no master key 'kc2'"), std::string::npos) << refused.status().ToString();
  // Other master keys under the same ids open nothing.
  auto other = MasterKeys();
  other["kf"][3] ^= 1;
  EXPECT_EQ(ReadWith(path, std::make_shared<LocalKms>(other)).status().code(), StatusCode::kPermissionDenied);
}

TEST(ParquetKeyToolsTest, OlderParquetMrsBooleansAsStringsRead) {
  // Older parquet-mr kept key material in a map of strings:
  // "internalStorage":"true", "doubleWrapping":"false".
  floe::testing::TempDir dir;
  KeyToolsFile file;
  KeyToolsOptions options;
  options.footer_master_key_id = "kf";
  options.double_wrapping = false;
  LocalKms kms(MasterKeys());
  auto keys = MakeKeyToolsFileKeys(kms, options);
  ASSERT_TRUE(keys.ok()) << keys.status().ToString();
  std::string& material = *keys->properties.footer_key_metadata;
  for (const std::string_view member : {"internalStorage", "isFooterKey", "doubleWrapping"}) {
    for (const std::string_view value : {"true", "false"}) {
      const std::string plain = StrCat("\"", member, "\":", value);
      if (const size_t at = material.find(plain); at != std::string::npos) {
        material.replace(at, plain.size(), StrCat("\"", member, "\":\"", value, "\""));
      }
    }
  }
  EXPECT_NE(material.find(R"("internalStorage":"true")"), std::string::npos) << material;
  EXPECT_NE(material.find(R"("doubleWrapping":"false")"), std::string::npos) << material;
  WriterOptions writer_options;
  writer_options.encryption = keys->properties;
  const std::string path = dir.Join("strings.parquet");
  ASSERT_TRUE(testing::WriteFile(path, file.schema, {file.batch}, writer_options).ok());
  auto read = ReadWith(path, std::make_shared<LocalKms>(MasterKeys()));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
}

TEST(ParquetKeyToolsTest, BadKeyToolsOptionsAndUnknownMasterKeysAreRefusedBeforeWriting) {
  LocalKms kms(MasterKeys());
  const auto refused = [&kms](const KeyToolsOptions& options, EncryptionProperties base = {}) {
    return MakeKeyToolsFileKeys(kms, options, std::move(base)).status();
  };
  KeyToolsOptions options;
  EXPECT_EQ(refused(options).code(), StatusCode::kInvalidArgument);  // no footer master key
  options.footer_master_key_id = "kf";
  options.data_key_bytes = 20;
  const Status odd_length = refused(options);
  EXPECT_EQ(odd_length.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(odd_length.message().find("a data key of 20 bytes"), std::string::npos) << odd_length.ToString();
  options.data_key_bytes = 16;
  options.column_master_key_ids = {{"secret", ""}};
  EXPECT_EQ(refused(options).code(), StatusCode::kInvalidArgument);
  options.column_master_key_ids = {{"secret", "no-such-key"}};
  const Status unknown = refused(options);
  EXPECT_EQ(unknown.code(), StatusCode::kPermissionDenied);
  EXPECT_NE(unknown.message().find("no master key 'no-such-key'"), std::string::npos) << unknown.ToString();
  options.column_master_key_ids.clear();
  EncryptionProperties with_key;
  with_key.footer_key = std::string(16, 'k');
  EXPECT_EQ(refused(options, with_key).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(refused(options).ok());
}

// The key-encryption key id in a key's material (base64).
std::string KekIdIn(const std::string& key_metadata) {
  const std::string member = "\"keyEncryptionKeyID\":\"";
  const size_t at = key_metadata.find(member);
  if (at == std::string::npos) return "";
  const size_t begin = at + member.size();
  return key_metadata.substr(begin, key_metadata.find('"', begin) - begin);
}

TEST(ParquetKeyToolsTest, ACacheSharesKeyEncryptionKeysAcrossFilesForItsLifetime) {
  floe::testing::TempDir dir;
  KeyToolsFile file;
  KeyToolsOptions options;
  options.footer_master_key_id = "kf";
  options.column_master_key_ids = {{"secret", "kc1"}, {"note", "kc2"}};
  const auto write = [&](const std::string& path, CountingKms& kms, KeyEncryptionKeyCache* cache) {
    auto keys = MakeKeyToolsFileKeys(kms, options, {}, cache);
    EXPECT_TRUE(keys.ok()) << keys.status().ToString();
    if (!keys.ok()) return KeyToolsFileKeys();
    WriterOptions writer_options;
    writer_options.encryption = keys->properties;
    EXPECT_TRUE(testing::WriteFile(path, file.schema, {file.batch}, writer_options).ok());
    return *keys;
  };
  const std::map<std::string, int> once_each = {{"kc1", 1}, {"kc2", 1}, {"kf", 1}};
  const std::map<std::string, int> three_each = {{"kc1", 3}, {"kc2", 3}, {"kf", 3}};

  // Three files through one cache: one key-encryption key per master key,
  // sent to the KMS once, but data keys of each file's own.
  CountingKms writer_kms(MasterKeys());
  auto writer_cache = std::make_shared<KeyEncryptionKeyCache>();
  std::vector<std::string> paths;
  std::vector<KeyToolsFileKeys> keys;
  for (int i = 0; i < 3; ++i) {
    paths.push_back(dir.Join(StrCat("cached", i, ".parquet")));
    keys.push_back(write(paths.back(), writer_kms, writer_cache.get()));
  }
  EXPECT_EQ(writer_kms.wraps(), once_each);
  EXPECT_NE(keys[0].properties.footer_key, keys[1].properties.footer_key);
  EXPECT_NE(keys[1].properties.footer_key, keys[2].properties.footer_key);
  ASSERT_FALSE(KekIdIn(*keys[0].properties.footer_key_metadata).empty());
  EXPECT_EQ(KekIdIn(*keys[0].properties.footer_key_metadata), KekIdIn(*keys[2].properties.footer_key_metadata));
  EXPECT_NE(KekIdIn(*keys[0].properties.footer_key_metadata),
            KekIdIn(*keys[0].properties.column_keys.at("secret").key_metadata));

  // Read through one cache, the KMS unwraps each key-encryption key once
  // for the three files; through none, once per file.
  const auto read_all = [&](CountingKms& kms, const std::function<std::shared_ptr<KeyEncryptionKeyCache>()>& cache) {
    for (const std::string& path : paths) {
      auto read = ReadWith(path, std::shared_ptr<KmsClient>(&kms, [](KmsClient*) {}), std::nullopt, cache());
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      int64_t rows = 0;
      for (const RecordBatch& b : *read) {
        for (int64_t r = 0; r < b.num_rows(); ++r, ++rows)
          EXPECT_EQ(b.column(1).GetString(r), StrCat("secret-", rows * 3));
      }
      EXPECT_EQ(rows, 300);
    }
  };
  CountingKms shared_reads(MasterKeys());
  auto reader_cache = std::make_shared<KeyEncryptionKeyCache>();
  read_all(shared_reads, [&] { return reader_cache; });
  EXPECT_EQ(shared_reads.calls(), once_each);
  CountingKms per_file_reads(MasterKeys());
  read_all(per_file_reads, [] { return nullptr; });
  EXPECT_EQ(per_file_reads.calls(), three_each);
  // The writer's cache already holds the keys it made: no unwrap at all.
  CountingKms writer_reads(MasterKeys());
  read_all(writer_reads, [&] { return writer_cache; });
  EXPECT_TRUE(writer_reads.calls().empty());

  // Past its lifetime a key is not used again: with a lifetime of zero,
  // every file gets new key-encryption keys and every read asks the KMS;
  // within a file, the columns of one master key still share one.
  CountingKms expiring_kms(MasterKeys());
  KeyEncryptionKeyCache expired(std::chrono::seconds(0));
  options.column_master_key_ids = {{"secret", "kc1"}, {"note", "kc1"}};
  const KeyToolsFileKeys first = write(dir.Join("expired0.parquet"), expiring_kms, &expired);
  const KeyToolsFileKeys second = write(dir.Join("expired1.parquet"), expiring_kms, &expired);
  EXPECT_NE(KekIdIn(*first.properties.footer_key_metadata), KekIdIn(*second.properties.footer_key_metadata));
  EXPECT_EQ(KekIdIn(*first.properties.column_keys.at("secret").key_metadata),
            KekIdIn(*first.properties.column_keys.at("note").key_metadata));
  EXPECT_EQ(expiring_kms.wraps(), (std::map<std::string, int>{{"kc1", 2}, {"kf", 2}}));
  // Expired keys are dropped, not kept: the cache holds the last file's.
  for (int i = 0; i < 10; ++i) write(dir.Join(StrCat("expired", i + 2, ".parquet")), expiring_kms, &expired);
  EXPECT_LE(expired.size(), 4u);  // at most, for writing and reading, kf's and kc1's
  options.column_master_key_ids = {{"secret", "kc1"}, {"note", "kc2"}};
  CountingKms expired_reads(MasterKeys());
  auto expired_reader = std::make_shared<KeyEncryptionKeyCache>(std::chrono::seconds(0));
  read_all(expired_reads, [&] { return expired_reader; });
  EXPECT_EQ(expired_reads.calls(), three_each);

  // A KMS error is returned, and not kept: the next file asks again.
  auto without_kc2 = MasterKeys();
  without_kc2.erase("kc2");
  CountingKms partial(without_kc2);
  KeyEncryptionKeyCache cache;
  EXPECT_EQ(MakeKeyToolsFileKeys(partial, options, {}, &cache).status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(MakeKeyToolsFileKeys(partial, options, {}, &cache).status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(partial.wraps().at("kc2"), 2);
}

TEST(ParquetKeyToolsTest, ThreadsWritingThroughOneCacheAskTheKmsOncePerMasterKey) {
  KeyToolsOptions options;
  options.footer_master_key_id = "kf";
  options.column_master_key_ids = {{"secret", "kc1"}};
  CountingKms kms(MasterKeys());
  KeyEncryptionKeyCache cache;
  std::vector<std::thread> threads;
  std::atomic<int> made{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        if (MakeKeyToolsFileKeys(kms, options, {}, &cache).ok()) ++made;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(made.load(), 40);
  EXPECT_EQ(kms.wraps(), (std::map<std::string, int>{{"kc1", 1}, {"kf", 1}}));
}

// A KMS call held until released, counting the calls made.
class HeldCall {
 public:
  // `results` are those of the first calls, in turn; later calls get the last.
  explicit HeldCall(std::vector<Result<std::string>> results = {std::string("kek of kc1")})
      : results_(std::move(results)) {}
  // The call: waits for Release(), then returns its result.
  Result<std::string> operator()() {
    std::unique_lock<std::mutex> lock(mutex_);
    const size_t call = calls_++;
    changed_.notify_all();
    changed_.wait(lock, [&] { return released_; });
    return results_[std::min(call, results_.size() - 1)];
  }
  void WaitForCall() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return calls_ > 0; });
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }
  size_t calls() {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_;
  }

 private:
  const std::vector<Result<std::string>> results_;
  std::mutex mutex_;
  std::condition_variable changed_;
  size_t calls_ = 0;
  bool released_ = false;
};

// Waits until `n` lookups of `cache` have waited for another's KMS call.
void AwaitWaits(const KeyEncryptionKeyCache& cache, int64_t n) {
  while (cache.waits() < n) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TEST(ParquetKeyToolsTest, ASlowKmsCallStallsOnlyTheThreadsWantingItsKey) {
  KeyEncryptionKeyCache cache;
  HeldCall slow;
  const auto unwrap_slowly = [&] { return cache.ForReading("kc1", "id1", [&] { return slow(); }); };
  std::vector<Result<std::string>> got(2, Status::Internal("not read"));
  std::thread first([&] { got[0] = unwrap_slowly(); });
  slow.WaitForCall();
  std::thread second([&] { got[1] = unwrap_slowly(); });
  AwaitWaits(cache, 1);  // the second reader waits for the first one's call

  // While kc1's call is held, other keys are read and made. (Before, the
  // cache's lock was held across the call and these waited for it; the
  // wait is bounded so that such a cache fails here instead of hanging.)
  auto others = std::async(std::launch::async, [&] {
    auto read = cache.ForReading("kf", "id2", [] { return Result<std::string>(std::string("kek of kf")); });
    auto made = cache.ForWriting("kc2", [] {
      return Result<KeyEncryptionKeyCache::Key>(KeyEncryptionKeyCache::Key{"k", "id3", "w"});
    });
    return read.ok() && *read == "kek of kf" && made.ok() && made->id == "id3";
  });
  EXPECT_EQ(others.wait_for(std::chrono::seconds(30)), std::future_status::ready)
      << "reading kf's key waited for kc1's KMS call";

  slow.Release();
  first.join();
  second.join();
  EXPECT_TRUE(others.get());
  for (const auto& key : got) {
    ASSERT_TRUE(key.ok()) << key.status().ToString();
    EXPECT_EQ(*key, "kek of kc1");
  }
  EXPECT_EQ(slow.calls(), 1u);
  EXPECT_EQ(cache.waits(), 1);
}

TEST(ParquetKeyToolsTest, WritersOfOneMasterKeyWaitForOneKeyToBeMade) {
  KeyEncryptionKeyCache cache;
  std::mutex mutex;
  std::condition_variable changed;
  bool released = false;
  int made = 0;
  const auto make = [&]() -> Result<KeyEncryptionKeyCache::Key> {
    std::unique_lock<std::mutex> lock(mutex);
    ++made;
    changed.notify_all();
    changed.wait(lock, [&] { return released; });
    return KeyEncryptionKeyCache::Key{"key", "id", "wrapped"};
  };
  std::vector<Result<KeyEncryptionKeyCache::Key>> got(3, Status::Internal("not made"));
  std::vector<std::thread> threads;
  threads.emplace_back([&] { got[0] = cache.ForWriting("kf", make); });
  {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return made == 1; });
  }
  for (size_t t = 1; t < 3; ++t) threads.emplace_back([&, t] { got[t] = cache.ForWriting("kf", make); });
  AwaitWaits(cache, 2);
  {
    std::lock_guard<std::mutex> lock(mutex);
    released = true;
    changed.notify_all();
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(made, 1);
  for (const auto& key : got) {
    ASSERT_TRUE(key.ok()) << key.status().ToString();
    EXPECT_EQ(key->id, "id");
  }
}

TEST(ParquetKeyToolsTest, AFailedKmsCallIsTheOutcomeOfItsWaitersButNotKept) {
  KeyEncryptionKeyCache cache;
  HeldCall slow({Status::PermissionDenied("the KMS refused"), std::string("kek of kc1")});
  const auto unwrap_slowly = [&] { return cache.ForReading("kc1", "id1", [&] { return slow(); }); };
  std::vector<Result<std::string>> got(2, Status::Internal("not read"));
  std::thread first([&] { got[0] = unwrap_slowly(); });
  slow.WaitForCall();
  std::thread second([&] { got[1] = unwrap_slowly(); });
  AwaitWaits(cache, 1);
  slow.Release();
  first.join();
  second.join();
  // With the KMS down, its waiters do not each ask it again in turn.
  for (const auto& key : got) EXPECT_EQ(key.status().code(), StatusCode::kPermissionDenied) << key.status().ToString();
  EXPECT_EQ(slow.calls(), 1u);
  // The error is not kept: the next lookup asks the KMS again.
  auto again = unwrap_slowly();
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, "kek of kc1");
  EXPECT_EQ(slow.calls(), 2u);
}

TEST(ParquetKeyToolsTest, AKmsCallThatThrowsDoesNotLeaveItsKeyWaitedFor) {
  KeyEncryptionKeyCache cache;
  const auto throwing = []() -> Result<std::string> { throw std::runtime_error("KMS client failure"); };
  EXPECT_THROW((void)cache.ForReading("kc1", "id1", throwing), std::runtime_error);
  // The key is not left in flight: the next lookup makes its own call.
  auto next = std::async(std::launch::async, [&] {
    return cache.ForReading("kc1", "id1", [] { return Result<std::string>(std::string("kek of kc1")); });
  });
  ASSERT_EQ(next.wait_for(std::chrono::seconds(30)), std::future_status::ready) << "the key stayed in flight";
  auto key = next.get();
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ(*key, "kek of kc1");
}

}  // namespace
}  // namespace key_tools_test
}  // namespace floe::parquet
