// Parquet modular encryption, read side (docs/decisions/0065), on the
// encrypted files of parquet-testing: what each kind of key (footer, column,
// retriever, AAD prefix) opens, the errors without them or with wrong ones,
// altered bytes, and the modules beyond pages (page index, bloom filters).
// Pages encrypted by hand, with the spec's AAD written out: PageReaderTest.
// The values themselves are checked for every file, against the generator
// that wrote them, by formats.parquet_conformance.

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "floe/formats/compression/codec.h"
#include "floe/formats/parquet/bloom_filter_reader.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/page_index.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace encryption_test {  // the unity build merges anonymous namespaces
namespace {

std::string Data(const std::string& name) { return testing::ParquetTestingDir() + "/data/" + name; }

// data/README.md: the keys are these ASCII digits.
constexpr char kFooterKey[] = "0123456789012345";
constexpr char kDoubleKey[] = "1234567890123450";
constexpr char kFloatKey[] = "1234567890123451";

std::shared_ptr<const DecryptionKeys> Keys(bool footer = true, bool columns = true) {
  auto keys = std::make_shared<DecryptionKeys>();
  if (footer) keys->footer_key = kFooterKey;
  if (columns) keys->column_keys = {{"double_field", kDoubleKey}, {"float_field", kFloatKey}};
  return keys;
}

Result<std::unique_ptr<ParquetFileReader>> Open(const std::string& path, std::shared_ptr<const DecryptionKeys> keys) {
  ReaderOptions options;
  options.decryption = std::move(keys);
  return ParquetFileReader::Open(NewLocalFileIO(), path, options);
}

Result<std::vector<RecordBatch>> Scan(const std::string& path, std::shared_ptr<const DecryptionKeys> keys,
                                      std::vector<std::string> columns) {
  FLOE_ASSIGN_OR_RETURN(auto file, Open(path, std::move(keys)));
  ScanOptions scan;
  scan.columns = std::move(columns);
  return ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(file)), scan);
}

// The doubles of column 0 of `batches`.
std::vector<double> Doubles(const std::vector<RecordBatch>& batches) {
  std::vector<double> out;
  for (const RecordBatch& b : batches) {
    const double* v = b.column(0).Values<double>();
    out.insert(out.end(), v, v + b.num_rows());
  }
  return out;
}

// The leaf column whose dotted path is `path`, or -1.
int FindColumn(const ParquetFileReader& file, const std::string& path) {
  for (int c = 0; c < file.schema().num_columns(); ++c) {
    if (file.schema().column(c).dotted_path() == path) return c;
  }
  return -1;
}

bool Contains(const Status& s, const std::string& text) { return s.message().find(text) != std::string::npos; }

TEST(ParquetEncryptionTest, EachKindOfFileOpensWithItsKeysAndReadsTheEncryptedColumn) {
  // Encrypted footer (GCM, GCM-CTR pages), footer key for every column,
  // plaintext signed footer, and an AAD prefix the file stores.
  for (const std::string name :
       {"encrypt_columns_and_footer.parquet.encrypted", "encrypt_columns_and_footer_ctr.parquet.encrypted",
        "uniform_encryption.parquet.encrypted", "encrypt_columns_plaintext_footer.parquet.encrypted",
        "encrypt_columns_and_footer_aad.parquet.encrypted"}) {
    SCOPED_TRACE(name);
    auto batches = Scan(Data(name), Keys(), {"double_field"});
    ASSERT_TRUE(batches.ok()) << batches.status().ToString();
    const std::vector<double> values = Doubles(*batches);
    ASSERT_EQ(values.size(), 50u);
    for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(values[i], static_cast<double>(i) * 1.1111111) << i;
  }
}

TEST(ParquetEncryptionTest, AnEncryptedFooterWithoutItsKeyIsPermissionDenied) {
  auto none = Open(Data("encrypt_columns_and_footer.parquet.encrypted"), nullptr);
  ASSERT_FALSE(none.ok());
  EXPECT_TRUE(none.status().IsPermissionDenied()) << none.status().ToString();
  EXPECT_TRUE(Contains(none.status(), "encrypted footer")) << none.status().ToString();

  auto wrong_keys = std::make_shared<DecryptionKeys>();
  wrong_keys->footer_key = "0123456789012346";
  auto wrong = Open(Data("encrypt_columns_and_footer.parquet.encrypted"), wrong_keys);
  ASSERT_FALSE(wrong.ok());
  EXPECT_TRUE(wrong.status().IsPermissionDenied()) << wrong.status().ToString();
  EXPECT_TRUE(Contains(wrong.status(), "authentication tag")) << wrong.status().ToString();

  auto bad_size = std::make_shared<DecryptionKeys>();
  bad_size->footer_key = "short";
  auto refused = Open(Data("encrypt_columns_and_footer.parquet.encrypted"), bad_size);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsInvalidArgument()) << refused.status().ToString();
}

TEST(ParquetEncryptionTest, WithTheFooterKeyAloneOnlyTheColumnsOfOtherKeysAreRefused) {
  const std::string path = Data("encrypt_columns_and_footer.parquet.encrypted");
  auto file = Open(path, Keys(/*footer=*/true, /*columns=*/false));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  const int double_field = FindColumn(**file, "double_field");
  ASSERT_GE(double_field, 0);
  auto meta = (*file)->ColumnChunkMeta(0, double_field);
  ASSERT_FALSE(meta.ok());
  EXPECT_TRUE(meta.status().IsPermissionDenied()) << meta.status().ToString();

  auto plain = Scan(path, Keys(true, false), {"int32_field", "ba_field"});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  int64_t rows = 0;
  for (const RecordBatch& b : *plain) rows += b.num_rows();
  EXPECT_EQ(rows, 50);

  auto refused = Scan(path, Keys(true, false), {"double_field"});
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsPermissionDenied()) << refused.status().ToString();
  EXPECT_TRUE(Contains(refused.status(), "double_field")) << refused.status().ToString();

  // A wrong column key fails that column when it is read; the file opens
  // and its other columns read.
  auto wrong = std::make_shared<DecryptionKeys>(*Keys());
  wrong->column_keys["double_field"] = kFloatKey;
  auto wrong_scan = Scan(path, wrong, {"double_field"});
  ASSERT_FALSE(wrong_scan.ok());
  EXPECT_TRUE(wrong_scan.status().IsPermissionDenied()) << wrong_scan.status().ToString();
  EXPECT_TRUE(Contains(wrong_scan.status(), "double_field")) << wrong_scan.status().ToString();
  EXPECT_TRUE(Contains(wrong_scan.status(), "authentication tag")) << wrong_scan.status().ToString();
  auto others = Scan(path, wrong, {"float_field", "int32_field"});
  EXPECT_TRUE(others.ok()) << others.status().ToString();
}

TEST(ParquetEncryptionTest, APlaintextFooterReadsItsPlaintextColumnsWithoutKeysAndChecksItsSignature) {
  const std::string path = Data("encrypt_columns_plaintext_footer.parquet.encrypted");
  auto plain = Scan(path, nullptr, {"boolean_field", "int32_field"});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  auto refused = Scan(path, nullptr, {"float_field"});
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsPermissionDenied()) << refused.status().ToString();
  EXPECT_TRUE(Contains(refused.status(), "float_field")) << refused.status().ToString();

  // The signature is made with the footer key: a wrong one fails it...
  auto wrong = std::make_shared<DecryptionKeys>(*Keys());
  wrong->footer_key = "5432109876543210";
  auto unsigned_open = Open(path, wrong);
  ASSERT_FALSE(unsigned_open.ok());
  EXPECT_TRUE(unsigned_open.status().IsPermissionDenied()) << unsigned_open.status().ToString();
  EXPECT_TRUE(Contains(unsigned_open.status(), "signature")) << unsigned_open.status().ToString();
  // ... unless the check is turned off; the column keys still read the data.
  wrong->verify_footer_signature = false;
  auto batches = Scan(path, wrong, {"double_field"});
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Doubles(*batches).size(), 50u);
}

TEST(ParquetEncryptionTest, AKeyRetrieverIsAskedWithTheFilesKeyMetadata) {
  // The files name their keys "kf", "kc1" and "kc2" (data/README.md).
  std::vector<std::string> asked;
  auto keys = std::make_shared<DecryptionKeys>();
  keys->key_retriever = [&asked](const std::string& key_metadata) -> Result<std::string> {
    asked.push_back(key_metadata);
    if (key_metadata == "kf") return std::string(kFooterKey);
    if (key_metadata == "kc1") return std::string(kDoubleKey);
    if (key_metadata == "kc2") return std::string(kFloatKey);
    return Status::NotFound("no key " + key_metadata);
  };
  auto batches = Scan(Data("encrypt_columns_and_footer.parquet.encrypted"), keys, {"double_field", "float_field"});
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Doubles(*batches).size(), 50u);
  // Each key once, though the scan needs the column keys at open, for the
  // chunk's bytes and for its pages.
  for (const std::string key_metadata : {"kf", "kc1", "kc2"}) {
    EXPECT_EQ(std::count(asked.begin(), asked.end(), key_metadata), 1) << key_metadata;
  }

  // The retriever's error is passed on, with the column it was for, when
  // that column is read.
  keys->key_retriever = [](const std::string& key_metadata) -> Result<std::string> {
    if (key_metadata == "kf") return std::string(kFooterKey);
    return Status::NotFound("the KMS has no key " + key_metadata);
  };
  auto refused = Scan(Data("encrypt_columns_and_footer.parquet.encrypted"), keys, {"float_field"});
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsNotFound()) << refused.status().ToString();
  EXPECT_TRUE(Contains(refused.status(), "the KMS has no key kc2")) << refused.status().ToString();
  EXPECT_TRUE(Contains(refused.status(), "float_field")) << refused.status().ToString();
}

TEST(ParquetEncryptionTest, AnAadPrefixTheFileDoesNotStoreMustBeGivenAndOneItStoresMustMatch) {
  const std::string hidden = Data("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted");
  auto missing = Open(hidden, Keys());
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsPermissionDenied()) << missing.status().ToString();
  EXPECT_TRUE(Contains(missing.status(), "AAD prefix")) << missing.status().ToString();

  auto keys = std::make_shared<DecryptionKeys>(*Keys());
  keys->aad_prefix = "tester";
  auto batches = Scan(hidden, keys, {"double_field"});
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(Doubles(*batches).size(), 50u);

  keys->aad_prefix = "another";
  auto wrong_hidden = Open(hidden, keys);
  ASSERT_FALSE(wrong_hidden.ok());
  EXPECT_TRUE(wrong_hidden.status().IsPermissionDenied()) << wrong_hidden.status().ToString();
  auto wrong_stored = Open(Data("encrypt_columns_and_footer_aad.parquet.encrypted"), keys);
  ASSERT_FALSE(wrong_stored.ok());
  EXPECT_TRUE(Contains(wrong_stored.status(), "differs")) << wrong_stored.status().ToString();
}

TEST(ParquetEncryptionTest, AnAlteredByteInAnEncryptedPageIsRefusedNotRead) {
  floe::testing::TempDir dir;
  const std::string source = Data("encrypt_columns_and_footer.parquet.encrypted");
  std::ifstream in(source, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto file = Open(source, Keys());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  const int column = FindColumn(**file, "double_field");
  auto range = (*file)->ColumnChunkBytes(0, column);
  ASSERT_TRUE(range.ok()) << range.status().ToString();
  // The chunk's last byte is the last page's GCM tag.
  bytes[static_cast<size_t>(range->offset + range->length - 1)] ^= 0x01;
  const std::string altered = dir.Join("altered.parquet.encrypted");
  std::ofstream(altered, std::ios::binary) << bytes;

  auto refused = Scan(altered, Keys(), {"double_field"});
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsPermissionDenied()) << refused.status().ToString();
  EXPECT_TRUE(Contains(refused.status(), "double_field")) << refused.status().ToString();
  EXPECT_TRUE(Contains(refused.status(), "authentication tag")) << refused.status().ToString();
  // The other columns are untouched.
  EXPECT_TRUE(Scan(altered, Keys(), {"float_field", "int32_field"}).ok());
}

TEST(ParquetEncryptionTest, EncryptedBloomFiltersAndPageIndexesDecryptAndAnswer) {
  // parquet-mr: 2000 rows, double_field = i + 0.5, float_field = i + 0.25,
  // both encrypted with their bloom filters and page indexes.
  const std::string path = Data("encrypt_columns_and_footer_bloom_filter.parquet.encrypted");
  auto opened = Open(path, Keys());
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::shared_ptr<const ParquetFileReader> file(std::move(*opened));
  const int double_field = FindColumn(*file, "double_field");
  const int float_field = FindColumn(*file, "float_field");

  auto doubles = ReadBloomFilter(*file, 0, double_field);
  ASSERT_TRUE(doubles.ok()) << doubles.status().ToString();
  ASSERT_TRUE(doubles->has_value());
  auto floats = ReadBloomFilter(*file, 0, float_field);
  ASSERT_TRUE(floats.ok() && floats->has_value()) << floats.status().ToString();
  int false_positives = 0;
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE((*doubles)->Check(BloomHash(i + 0.5))) << i;  // no false negative
    ASSERT_TRUE((*floats)->Check(BloomHash(static_cast<float>(i) + 0.25f))) << i;
    false_positives += (*doubles)->Check(BloomHash(i + 0.75)) ? 1 : 0;
  }
  EXPECT_LT(false_positives, 200);  // a decrypted filter, not noise that answers yes

  const std::vector<int> columns = {double_field, float_field};
  auto index = ReadPageIndex(*file, 0, columns);
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  for (const ColumnPageIndex& column : *index) {
    ASSERT_TRUE(column.offset_index.has_value());
    ASSERT_TRUE(column.column_index.has_value());
    EXPECT_FALSE(column.offset_index->page_locations.empty());
  }
  // Several pages, so the selection below lands past the first.
  EXPECT_GT((*index)[0].offset_index->page_locations.size(), 1u);
  // min/max of the double column's first page, from its decrypted column index.
  double first_min = 0;
  std::memcpy(&first_min, (*index)[0].column_index->min_values.at(0).data(), sizeof first_min);
  EXPECT_EQ(first_min, 0.5);

  // A row selection seeks through the decrypted offset index; the pages it
  // lands on decrypt with their own page ordinals.
  ScanOptions scan;
  scan.columns = std::vector<std::string>{"double_field"};
  scan.row_selection[0] = {RowRange{1500, 1510}};
  auto reader = ParquetRecordBatchReader::Make(file, scan);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  std::vector<RecordBatch> batches;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (!*batch) break;
    batches.push_back(std::move(**batch));
  }
  const std::vector<double> values = Doubles(batches);
  ASSERT_EQ(values.size(), 10u);
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(values[i], 1500.5 + static_cast<double>(i));
}

}  // namespace
}  // namespace encryption_test
}  // namespace floe::parquet
