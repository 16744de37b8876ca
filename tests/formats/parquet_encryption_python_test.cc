// An independent reader of the encrypted files floe writes (decision 0070):
// tests/formats/parquet_decrypt.py, written from parquet-format's
// Encryption.md and parquet.thrift with Python's cryptography package
// (Debian's python3-cryptography, installed by dev/setup). No other engine
// here reads spec-encrypted Parquet: DuckDB reads only its own AAD-less
// form. The script is first shown to read parquet-cpp's and parquet-mr's
// encrypted files. On floe's, it decrypts and checks every module (footer or
// its signature, column metadata, page headers, pages, dictionary pages,
// column and offset indexes, bloom filters) with the spec's AADs, unwraps
// key tools material with the master keys, and decodes the values, which
// must be the values floe wrote. A wrong key and an altered byte must make
// it fail, so that its checks are seen to bite.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "floe/base/hex.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/key_tools.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/required_tools.h"
#include "testing/run_process.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace encryption_python_test {  // the unity build merges anonymous namespaces
namespace {

constexpr const char* kPython = "/usr/bin/python3";
constexpr int64_t kRows = 2000;
const std::string kFooterKey = "footer-key-16byt";
const std::string kNameKey = "a 24-byte column key....";

std::optional<std::string> Name(int64_t i) {
  return i % 11 == 0 ? std::nullopt : std::optional<std::string>(StrCat("name-", i % 40));
}
std::optional<double> Score(int64_t i) {
  return i % 13 == 0 ? std::nullopt : std::optional<double>(static_cast<double>(i) * 0.37);
}
std::optional<int32_t> Count(int64_t i) {
  return i % 17 == 0 ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(i * 7919 % 100000 - 50000));
}

RecordBatch FlatBatch() {
  const auto schema = testing::MakeSchema({Field("id", DataType::Int64(), false), Field("name", DataType::Utf8()),
                                           Field("score", DataType::Float64()), Field("count", DataType::Int32())});
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<std::string>> names;
  std::vector<std::optional<double>> scores;
  std::vector<std::optional<int32_t>> counts;
  for (int64_t i = 0; i < kRows; ++i) {
    ids.push_back(i);
    names.push_back(Name(i));
    scores.push_back(Score(i));
    counts.push_back(Count(i));
  }
  return testing::Batch(schema, {testing::Int64s(ids), testing::Strings(names),
                                 testing::Primitive<double>(DataType::Float64(), scores), testing::Int32s(counts)});
}

struct Decrypted {
  int exit_code = 0;
  std::string out;
  std::string err;
};

Decrypted RunScript(const std::string& path, const std::vector<std::string>& key_args) {
  std::vector<std::string> argv = {kPython, std::string(FLOE_SOURCE_DIR) + "/tests/formats/parquet_decrypt.py", path};
  argv.insert(argv.end(), key_args.begin(), key_args.end());
  auto run = floe::testing::RunProcess(argv);
  return {run.exit_code, run.out, run.err};
}

// Checks the script's JSON: the values floe wrote, and the modules of each
// kind. `own_metadata`: the chunks whose metadata is a module of its own
// (with an encrypted footer, those of columns with keys of their own; with a
// plaintext footer, those of every encrypted column).
void ExpectValues(const Decrypted& decrypted, int encrypted_columns, int own_metadata, int row_groups,
                  bool dictionary) {
  ASSERT_EQ(decrypted.exit_code, 0) << decrypted.err;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_EQ(parser.parse(simdjson::padded_string(decrypted.out)).get(root), simdjson::SUCCESS) << decrypted.out;
  EXPECT_EQ(int64_t(root["rows"]), kRows);
  simdjson::dom::object columns = root["columns"];
  simdjson::dom::array id = columns["id"], name = columns["name"], score = columns["score"], count = columns["count"];
  ASSERT_EQ(id.size(), static_cast<size_t>(kRows));
  ASSERT_EQ(name.size(), static_cast<size_t>(kRows));
  ASSERT_EQ(score.size(), static_cast<size_t>(kRows));
  ASSERT_EQ(count.size(), static_cast<size_t>(kRows));
  int64_t mismatches = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    const auto at = static_cast<size_t>(i);
    mismatches += int64_t(id.at(at)) != i;
    mismatches += Name(i) ? std::string_view(name.at(at)) != *Name(i) : !name.at(at).is_null();
    mismatches += Score(i) ? double(score.at(at)) != *Score(i) : !score.at(at).is_null();
    mismatches += Count(i) ? int64_t(count.at(at)) != *Count(i) : !count.at(at).is_null();
  }
  EXPECT_EQ(mismatches, 0);

  simdjson::dom::object modules = root["modules"];
  const auto modules_of = [&modules](const char* type) {
    int64_t n = 0;
    return modules[type].get(n) == simdjson::SUCCESS ? n : 0;
  };
  const bool plaintext_footer = bool(root["plaintext_footer"]);
  EXPECT_EQ(modules_of(plaintext_footer ? "footer_signature" : "footer"), 1);
  EXPECT_EQ(modules_of("column_metadata"), own_metadata);
  // Each encrypted chunk: its column and offset index; each data page and
  // its header (2000 rows in pages of at most 100: 20 per column).
  EXPECT_EQ(modules_of("column_index"), encrypted_columns * row_groups);
  EXPECT_EQ(modules_of("offset_index"), encrypted_columns * row_groups);
  EXPECT_GE(modules_of("data_page"), encrypted_columns * kRows / 100);
  EXPECT_EQ(modules_of("data_page_header"), modules_of("data_page"));
  // Bloom filters on "id" and "name", both encrypted in every form here.
  EXPECT_EQ(modules_of("bloom_filter_header"), 2 * row_groups);
  EXPECT_EQ(modules_of("bloom_filter_bitset"), 2 * row_groups);
  if (dictionary) {
    EXPECT_GE(modules_of("dictionary_page"), row_groups);
  }
}

class ParquetEncryptionPythonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto probe = floe::testing::RunProcess({kPython, "-c", "import cryptography.hazmat.primitives.ciphers.aead"});
    FLOE_REQUIRE_TOOL(probe.exit_code == 0, "/usr/bin/python3 with python3-cryptography");
  }

  // 3 row groups of at most 700 rows, pages of at most 100 rows, bloom
  // filters on "id" and "name", the page index on.
  WriterOptions Options(EncryptionProperties encryption, compression::Codec codec, int page_version, bool dictionary) {
    WriterOptions options;
    options.row_group_rows = 700;
    options.page_rows = 100;
    options.codec = codec;
    options.data_page_version = page_version;
    options.dictionary = dictionary;
    options.columns["id"].bloom_filter = true;
    options.columns["name"].bloom_filter = true;
    options.encryption = std::move(encryption);
    return options;
  }

  std::string Write(const std::string& name, const WriterOptions& options) {
    const std::string path = dir.Join(name);
    auto written = testing::WriteFile(path, batch.schema_ptr(), {batch}, options);
    EXPECT_TRUE(written.ok()) << written.status().ToString();
    return path;
  }

  floe::testing::TempDir dir;
  const RecordBatch batch = FlatBatch();
};

EncryptionProperties NameKeyed() {
  EncryptionProperties e;
  e.footer_key = kFooterKey;
  e.column_keys = {{"name", {kNameKey, std::nullopt}}};
  return e;
}

const std::vector<std::string> kRawKeys = {"--footer-key", Hex(kFooterKey), "--column-key", "name=" + Hex(kNameKey)};

// The script is a reader in its own right: it reads the files parquet-cpp
// and parquet-mr encrypted for parquet-testing, in every form they have, to
// their generators' values (int32_field i, double_field i * 1.1111111).
TEST_F(ParquetEncryptionPythonTest, TheScriptReadsParquetCppAndParquetMrsEncryptedFiles) {
  // data/README.md's keys, ASCII digits.
  const std::vector<std::string> keys = {"--footer-key", Hex("0123456789012345"),
                                         "--column-key", "double_field=" + Hex("1234567890123450"),
                                         "--column-key", "float_field=" + Hex("1234567890123451")};
  struct Case {
    std::string file;
    std::vector<std::string> extra;
    int column_metadata_modules;  // the columns with keys of their own
  };
  const Case cases[] = {
      {"encrypt_columns_and_footer", {}, 2},
      {"encrypt_columns_and_footer_aad", {}, 2},
      {"encrypt_columns_and_footer_ctr", {}, 2},
      {"encrypt_columns_and_footer_disable_aad_storage", {"--aad-prefix", "tester"}, 2},
      {"encrypt_columns_plaintext_footer", {}, 2},
      {"uniform_encryption", {}, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    std::vector<std::string> args = keys;
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    const Decrypted decrypted =
        RunScript(testing::ParquetTestingDir() + "/data/" + c.file + ".parquet.encrypted", args);
    ASSERT_EQ(decrypted.exit_code, 0) << decrypted.err;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.parse(simdjson::padded_string(decrypted.out)).get(root), simdjson::SUCCESS);
    simdjson::dom::array ints = root["columns"]["int32_field"], doubles = root["columns"]["double_field"];
    ASSERT_EQ(ints.size(), 50u);
    ASSERT_EQ(doubles.size(), 50u);
    for (size_t i = 0; i < 50; ++i) {
      EXPECT_EQ(int64_t(ints.at(i)), static_cast<int64_t>(i));
      EXPECT_EQ(double(doubles.at(i)), static_cast<double>(i) * 1.1111111) << i;
    }
    int64_t column_metadata = 0;
    if (root["modules"]["column_metadata"].get(column_metadata) != simdjson::SUCCESS) column_metadata = 0;
    EXPECT_EQ(column_metadata, c.column_metadata_modules);
  }
}

TEST_F(ParquetEncryptionPythonTest, EncryptedFooterGcmPagesV1Zstd) {
  EncryptionProperties e = NameKeyed();
  e.plaintext_columns = {"count"};
  const std::string path = Write("gcm.parquet", Options(e, compression::Codec::kZstd, 1, true));
  ExpectValues(RunScript(path, kRawKeys), 3, 1 * 3, 3, true);
}

TEST_F(ParquetEncryptionPythonTest, SignedPlaintextFooterCtrPagesV2SnappyWithAStoredAadPrefix) {
  EncryptionProperties e = NameKeyed();
  e.plaintext_footer = true;
  e.ctr_pages = true;
  e.aad_prefix = "warehouse/t/data/ctr.parquet";
  const std::string path = Write("ctr.parquet", Options(e, compression::Codec::kSnappy, 2, false));
  ExpectValues(RunScript(path, kRawKeys), 4, 4 * 3, 3, false);
}

TEST_F(ParquetEncryptionPythonTest, SuppliedAadPrefixUncompressedPagesV2) {
  EncryptionProperties e = NameKeyed();
  e.aad_prefix = "table-version-7";
  e.store_aad_prefix = false;
  const std::string path = Write("supplied.parquet", Options(e, compression::Codec::kUncompressed, 2, true));
  std::vector<std::string> args = kRawKeys;
  args.insert(args.end(), {"--aad-prefix", "table-version-7"});
  ExpectValues(RunScript(path, args), 4, 1 * 3, 3, true);
  // Without the prefix the script cannot build the AADs; with another, no tag matches.
  EXPECT_NE(RunScript(path, kRawKeys).exit_code, 0);
  args.back() = "table-version-8";
  const Decrypted other = RunScript(path, args);
  EXPECT_NE(other.exit_code, 0);
  EXPECT_NE(other.err.find("the GCM tag does not match"), std::string::npos) << other.err;
}

// Key tools material the script unwraps as parquet-mr does: parquet-mr's
// own file with external double-wrapped material, then floe's files with
// internal double-wrapped and external single-wrapped material.
TEST_F(ParquetEncryptionPythonTest, KeyToolsMaterialUnwrapsWithTheMasterKeys) {
  // data/README.md's master keys, ASCII digits.
  const std::vector<std::string> masters = {"--master-key", "kf=" + Hex("0123456789012345"),  //
                                            "--master-key", "kc1=" + Hex("1234567890123450"),
                                            "--master-key", "kc2=" + Hex("1234567890123451")};
  const Decrypted java =
      RunScript(testing::ParquetTestingDir() + "/data/external_key_material_java.parquet.encrypted", masters);
  ASSERT_EQ(java.exit_code, 0) << java.err;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_EQ(parser.parse(simdjson::padded_string(java.out)).get(root), simdjson::SUCCESS);
  // Its pages are DELTA_BINARY_PACKED and DELTA_BYTE_ARRAY, which the script
  // does not decode; every module of both columns opened.
  EXPECT_EQ(int64_t(root["rows"]), 100);
  EXPECT_EQ(int64_t(root["modules"]["footer"]), 1);
  EXPECT_EQ(int64_t(root["modules"]["column_metadata"]), 2);
  EXPECT_EQ(int64_t(root["modules"]["data_page"]), 2);
  EXPECT_EQ(int64_t(root["modules"]["column_index"]), 2);

  LocalKms kms({{"kf", "0123456789012345"}, {"kc1", "1234567890123450"}, {"kc2", "1234567890123451"}});
  for (const bool internal : {true, false}) {
    SCOPED_TRACE(internal ? "internal, double wrapping" : "external, single wrapping");
    KeyToolsOptions key_tools;
    key_tools.footer_master_key_id = "kf";
    key_tools.column_master_key_ids = {{"name", "kc1"}, {"score", "kc2"}};
    key_tools.data_key_bytes = 32;
    key_tools.internal_key_material = internal;
    key_tools.double_wrapping = internal;
    EncryptionProperties base;
    base.ctr_pages = true;
    auto keys = MakeKeyToolsFileKeys(kms, key_tools, base);
    ASSERT_TRUE(keys.ok()) << keys.status().ToString();
    const std::string path = Write(internal ? "internal.parquet" : "external.parquet",
                                   Options(keys->properties, compression::Codec::kZstd, 1, true));
    ASSERT_TRUE(WriteExternalKeyMaterial(*NewLocalFileIO(), path, *keys).ok());
    ExpectValues(RunScript(path, masters), 4, 2 * 3, 3, true);

    std::vector<std::string> wrong = masters;
    wrong[3] = "kc1=" + Hex("1234567890123451");
    const Decrypted wrong_master = RunScript(path, wrong);
    EXPECT_NE(wrong_master.exit_code, 0);
    EXPECT_NE(wrong_master.err.find("does not open"), std::string::npos) << wrong_master.err;
  }
}

TEST_F(ParquetEncryptionPythonTest, AWrongKeyOrAnAlteredByteFailsTheScript) {
  const std::string path = Write("checked.parquet", Options(NameKeyed(), compression::Codec::kUncompressed, 1, false));
  ExpectValues(RunScript(path, kRawKeys), 4, 1 * 3, 3, false);

  std::string wrong_key = kNameKey;
  wrong_key[0] ^= 1;
  const Decrypted wrong = RunScript(path, {"--footer-key", Hex(kFooterKey), "--column-key", "name=" + Hex(wrong_key)});
  EXPECT_NE(wrong.exit_code, 0);
  EXPECT_NE(wrong.err.find("the GCM tag does not match"), std::string::npos) << wrong.err;

  // One byte in the middle of the file, inside some page.
  std::string bytes = testing::ReadFileBytes(path);
  bytes[bytes.size() / 2] ^= 0x20;
  const std::string altered = dir.Join("altered.parquet");
  {
    std::ofstream out(altered, std::ios::binary);
    out << bytes;
  }
  const Decrypted refused = RunScript(altered, kRawKeys);
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("parquet_decrypt:"), std::string::npos) << refused.err;
}

}  // namespace
}  // namespace encryption_python_test
}  // namespace floe::parquet
