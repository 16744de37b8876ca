// parquet's key tools (key_tools.h, decision 0067): parquet-mr's file with
// external, double-wrapped key material decrypts through a LocalKms holding
// parquet-testing's master keys; files floe writes with internal key
// material, single- and double-wrapped, decrypt the same way; and each
// failure (a master key the KMS lacks, a missing key material file, a plain
// key id, an altered wrapped key) is a clear error.

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <atomic>
#include <filesystem>
#include <memory>

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

// A LocalKms that counts its calls per master key.
class CountingKms : public KmsClient {
 public:
  explicit CountingKms(std::map<std::string, std::string, std::less<>> keys) : kms_(std::move(keys)) {}
  Result<std::string> UnwrapKey(std::string_view wrapped_key, std::string_view master_key_id) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++calls_[std::string(master_key_id)];
    return kms_.UnwrapKey(wrapped_key, master_key_id);
  }
  std::map<std::string, int> calls() {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_;
  }

 private:
  LocalKms kms_;
  std::mutex mutex_;
  std::map<std::string, int> calls_;
};

Result<std::vector<RecordBatch>> ReadWith(const std::string& path, std::shared_ptr<KmsClient> kms) {
  auto keys = std::make_shared<DecryptionKeys>();
  auto io = NewLocalFileIO();
  keys->key_retriever = MakeKeyToolsRetriever(std::move(kms), io, path);
  ReaderOptions options;
  options.decryption = std::move(keys);
  FLOE_ASSIGN_OR_RETURN(auto file, ParquetFileReader::Open(io, path, options));
  return ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(file)), ScanOptions{});
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

}  // namespace
}  // namespace key_tools_test
}  // namespace floe::parquet
