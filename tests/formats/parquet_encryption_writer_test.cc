// Parquet modular encryption, write side (docs/decisions/0066): files floe
// encrypts in every form (AES_GCM_V1 and AES_GCM_CTR_V1, encrypted and
// signed plaintext footers, footer key only and column keys, plaintext
// columns, stored and supplied AAD prefixes) read back with their keys, and
// only with them; the plaintext footer hides encrypted columns' statistics;
// bad properties are refused before anything is written. DuckDB reads the
// plaintext columns of floe's plaintext-footer files, and floe reads the
// files DuckDB encrypts. The AAD floe writes is the one its reader checks
// against the parquet-cpp and parquet-mr files of parquet-testing
// (parquet_encryption_test.cc).

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

#include "floe/columnar/batch_printer.h"
#include "floe/formats/parquet/bloom_filter.h"
#include "floe/formats/parquet/bloom_filter_reader.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/page_index.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/required_tools.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace encryption_writer_test {  // the unity build merges anonymous namespaces
namespace {

const std::string kFooterKey = "footer-key-16byt";
const std::string kNameKey = "a 24-byte column key....";
const std::string kPointKey = "a 32-byte key for the point colu";

std::shared_ptr<const Schema> TestSchema() {
  auto point = DataType::Struct({Field("x", DataType::Int32()), Field("label", DataType::Utf8())});
  return testing::MakeSchema({
      Field("id", DataType::Int64(), false),
      Field("name", DataType::Utf8()),
      Field("score", DataType::Float64()),
      Field("tags", DataType::List(Field("element", DataType::Utf8()))),
      Field("point", point),
  });
}

// 2,000 rows: ids 0.., names from 40 values (a dictionary), random rest.
RecordBatch TestBatch(const std::shared_ptr<const Schema>& schema) {
  constexpr int64_t kRows = 2000;
  std::mt19937_64 rng(66);
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<std::string>> names;
  for (int64_t i = 0; i < kRows; ++i) {
    ids.push_back(i);
    names.push_back(i % 11 == 0 ? std::nullopt : std::optional<std::string>(StrCat("name-", i % 40)));
  }
  std::vector<Array> columns = {testing::Int64s(ids), testing::Strings(names)};
  for (int f = 2; f < schema->num_fields(); ++f) {
    auto column = testing::RandomColumn(schema->field(f), kRows, rng, 0.1);
    EXPECT_TRUE(column.ok()) << column.status().ToString();
    columns.push_back(*column);
  }
  return testing::Batch(schema, std::move(columns));
}

std::string Json(const std::shared_ptr<const Schema>& schema, const std::vector<RecordBatch>& batches) {
  auto text = FormatBatches(schema, batches, PrintOptions{OutputFormat::kJsonl});
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  return text.ok() ? *text : "";
}

WriterOptions SmallPages(EncryptionProperties encryption) {
  WriterOptions options;
  options.row_group_rows = 700;  // 3 row groups
  options.page_rows = 100;       // 7 data pages per chunk
  options.columns["id"].bloom_filter = true;
  options.columns["name"].bloom_filter = true;
  options.encryption = std::move(encryption);
  return options;
}

Status Write(const std::string& path, const RecordBatch& batch, const WriterOptions& options) {
  return testing::WriteFile(path, batch.schema_ptr(), {batch}, options).status();
}

Result<std::shared_ptr<const ParquetFileReader>> Open(const std::string& path,
                                                      std::shared_ptr<const DecryptionKeys> keys) {
  ReaderOptions options;
  options.decryption = std::move(keys);
  FLOE_ASSIGN_OR_RETURN(auto file, ParquetFileReader::Open(NewLocalFileIO(), path, options));
  return std::shared_ptr<const ParquetFileReader>(std::move(file));
}

Result<std::vector<RecordBatch>> Scan(const std::shared_ptr<const ParquetFileReader>& file,
                                      std::optional<std::vector<std::string>> columns = std::nullopt) {
  ScanOptions scan;
  scan.columns = std::move(columns);
  scan.batch_size = 333;
  return ReadAllBatches(file, scan);
}

std::shared_ptr<DecryptionKeys> AllKeys() {
  auto keys = std::make_shared<DecryptionKeys>();
  keys->footer_key = kFooterKey;
  keys->column_keys = {{"name", kNameKey}, {"point.x", kPointKey}, {"point.label", kPointKey}};
  return keys;
}

std::string Magic(const std::string& path, bool tail) {
  const std::string bytes = testing::ReadFileBytes(path);
  return tail ? bytes.substr(bytes.size() - 4) : bytes.substr(0, 4);
}

bool Contains(const Status& s, const std::string& text) { return s.message().find(text) != std::string::npos; }

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  ASSERT_TRUE(out.good()) << path;
}

// Each test's folder and the table it writes.
class ParquetEncryptionWriterTest : public ::testing::Test {
 protected:
  floe::testing::TempDir dir;
  const std::shared_ptr<const Schema> schema = TestSchema();
  const RecordBatch batch = TestBatch(schema);
};

// The footer key for every column but "name", which has a key of its own.
EncryptionProperties NameKeyed() {
  EncryptionProperties e;
  e.footer_key = kFooterKey;
  e.column_keys = {{"name", {kNameKey, std::nullopt}}};
  return e;
}

TEST_F(ParquetEncryptionWriterTest, EveryFormReadsBackWithItsKeysAndNotWithout) {
  const std::string expected = Json(schema, {batch});
  int form = 0;
  for (const bool ctr : {false, true}) {
    for (const bool plaintext_footer : {false, true}) {
      for (const bool column_keys : {false, true}) {
        SCOPED_TRACE(StrCat("ctr ", ctr, ", plaintext footer ", plaintext_footer, ", column keys ", column_keys));
        EncryptionProperties e;
        e.footer_key = kFooterKey;
        e.plaintext_footer = plaintext_footer;
        e.ctr_pages = ctr;
        if (column_keys) {
          e.column_keys = {{"name", {kNameKey, "name-key-v1"}},
                           {"point.x", {kPointKey, std::nullopt}},
                           {"point.label", {kPointKey, std::nullopt}}};
          e.plaintext_columns = {"id"};
        }
        WriterOptions options = SmallPages(e);
        options.data_page_version = 1 + form % 2;
        const std::string path = dir.Join(StrCat("form-", form++, ".parquet"));
        ASSERT_TRUE(Write(path, batch, options).ok());
        EXPECT_EQ(Magic(path, false), plaintext_footer ? "PAR1" : "PARE");
        EXPECT_EQ(Magic(path, true), plaintext_footer ? "PAR1" : "PARE");

        auto file = Open(path, AllKeys());
        ASSERT_TRUE(file.ok()) << file.status().ToString();
        const auto fields = FieldsOf(*(*file)->encryption_algorithm());
        ASSERT_TRUE(fields.has_value());
        EXPECT_EQ(fields->ctr_pages, ctr);
        ASSERT_TRUE(fields->aad_file_unique->has_value());
        EXPECT_EQ((*fields->aad_file_unique)->size(), 8u);
        auto read = Scan(*file);
        ASSERT_TRUE(read.ok()) << read.status().ToString();
        EXPECT_EQ(Json(schema, *read), expected);

        // Without keys: an encrypted footer opens nothing; a plaintext one
        // gives its plaintext columns and refuses the encrypted ones.
        auto keyless = Open(path, nullptr);
        if (!plaintext_footer) {
          EXPECT_EQ(keyless.status().code(), StatusCode::kPermissionDenied) << keyless.status().ToString();
          continue;
        }
        ASSERT_TRUE(keyless.ok()) << keyless.status().ToString();
        auto ids = Scan(*keyless, std::vector<std::string>{"id"});
        if (column_keys) {
          ASSERT_TRUE(ids.ok()) << ids.status().ToString();
          int64_t rows = 0;
          for (const RecordBatch& b : *ids) {
            for (int64_t i = 0; i < b.num_rows(); ++i) EXPECT_EQ(b.column(0).Values<int64_t>()[i], rows + i);
            rows += b.num_rows();
          }
          EXPECT_EQ(rows, batch.num_rows());
        } else {
          EXPECT_EQ(ids.status().code(), StatusCode::kPermissionDenied) << ids.status().ToString();
        }
        auto names = Scan(*keyless, std::vector<std::string>{"name"});
        EXPECT_EQ(names.status().code(), StatusCode::kPermissionDenied) << names.status().ToString();
      }
    }
  }
}

TEST_F(ParquetEncryptionWriterTest, EncryptedPageIndexesAndBloomFiltersAnswer) {
  EncryptionProperties e = NameKeyed();
  const std::string path = dir.Join("indexed.parquet");
  WriterOptions options = SmallPages(e);
  options.page_checksums = false;
  ASSERT_TRUE(Write(path, batch, options).ok());
  auto keys = std::make_shared<DecryptionKeys>();
  keys->footer_key = kFooterKey;
  keys->column_keys = {{"name", kNameKey}};
  auto file = Open(path, keys);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_EQ((*file)->num_row_groups(), 3);

  // Row group 1 holds ids 700..1399 and names name-0..name-39.
  auto ids = ReadBloomFilter(**file, 1, 0);
  ASSERT_TRUE(ids.ok() && ids->has_value()) << ids.status().ToString();
  auto names = ReadBloomFilter(**file, 1, 1);
  ASSERT_TRUE(names.ok() && names->has_value()) << names.status().ToString();
  int false_positives = 0;
  for (int64_t id = 700; id < 1400; ++id) ASSERT_TRUE((*ids)->Check(BloomHash(id))) << id;
  for (int64_t id = 5000; id < 6000; ++id) false_positives += (*ids)->Check(BloomHash(id)) ? 1 : 0;
  EXPECT_LT(false_positives, 100);  // a decrypted filter, not noise that answers yes
  for (int n = 0; n < 40; ++n) EXPECT_TRUE((*names)->Check(BloomHash(StrCat("name-", n)))) << n;

  auto index = ReadPageIndex(**file, 1, std::vector<int>{0, 1});
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  ASSERT_TRUE((*index)[0].offset_index && (*index)[0].column_index);
  EXPECT_EQ((*index)[0].offset_index->page_locations.size(), 7u);
  int64_t first_min = 0;
  ASSERT_EQ((*index)[0].column_index->min_values.at(1).size(), sizeof first_min);
  std::memcpy(&first_min, (*index)[0].column_index->min_values[1].data(), sizeof first_min);
  EXPECT_EQ(first_min, 800);  // the second page of row group 1
  ASSERT_TRUE((*index)[1].offset_index.has_value());
  EXPECT_EQ((*index)[1].offset_index->page_locations.size(), 7u);

  // Each index and filter is exactly its modules: the lengths the footer
  // gives are the modules' own extents (a reader that trusted a longer
  // length would read past them unnoticed).
  const std::string bytes = testing::ReadFileBytes(path);
  const auto extent = [&](int64_t offset) {
    auto e = EncryptedModuleExtent(testing::AsBytes(bytes).subspan(static_cast<size_t>(offset)));
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    return e.ok() ? *e : -1;
  };
  for (const RowGroup& group : (*file)->metadata().row_groups) {
    for (const ColumnChunk& chunk : group.columns) {
      ASSERT_TRUE(chunk.crypto_metadata.has_value());
      EXPECT_EQ(*chunk.column_index_length, extent(*chunk.column_index_offset));
      EXPECT_EQ(*chunk.offset_index_length, extent(*chunk.offset_index_offset));
      if (const auto offset = chunk.meta_data->bloom_filter_offset) {
        const int64_t header = extent(*offset);
        EXPECT_EQ(*chunk.meta_data->bloom_filter_length, header + extent(*offset + header));
      }
    }
  }

  // A selection seeks through the decrypted offset index to pages deep in
  // an encrypted chunk, which decrypt with their own page ordinals.
  ScanOptions scan;
  scan.columns = std::vector<std::string>{"id", "name"};
  scan.row_groups = std::vector<int>{1};
  scan.row_selection[1] = {RowRange{450, 460}};  // ids 1150..1159
  auto read = ReadAllBatches(*file, scan);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  int64_t rows = 0;
  for (const RecordBatch& b : *read) {
    for (int64_t i = 0; i < b.num_rows(); ++i) {
      const int64_t id = b.column(0).Values<int64_t>()[i];
      EXPECT_EQ(id, 1150 + rows + i);
      if (id % 11 != 0) {
        EXPECT_EQ(b.column(1).GetString(i), StrCat("name-", id % 40));
      }
    }
    rows += b.num_rows();
  }
  EXPECT_EQ(rows, 10);
}

TEST_F(ParquetEncryptionWriterTest, APlaintextFooterLeavesOutTheStatisticsOfEncryptedColumns) {
  EncryptionProperties e = NameKeyed();
  e.plaintext_footer = true;
  e.plaintext_columns = {"id"};
  const std::string path = dir.Join("signed.parquet");
  WriterOptions options = SmallPages(e);
  options.codec = compression::Codec::kUncompressed;  // nothing hidden but by encryption
  auto written = testing::WriteFile(path, schema, {batch}, options);
  ASSERT_TRUE(written.ok()) << written.status().ToString();

  // No value of the encrypted column is in the file: not in its pages, its
  // dictionary, its bloom filter's neighbours or the statistics. The same
  // file unencrypted holds them in the clear.
  options.encryption.reset();
  const std::string clear_path = dir.Join("clear.parquet");
  ASSERT_TRUE(testing::WriteFile(clear_path, schema, {batch}, options).ok());
  EXPECT_NE(testing::ReadFileBytes(clear_path).find("name-17"), std::string::npos);
  EXPECT_EQ(testing::ReadFileBytes(path).find("name-17"), std::string::npos);
  EXPECT_EQ(testing::ReadFileBytes(path).find("name-0"), std::string::npos);  // the minimum

  // The footer as stored: what a reader without keys finds.
  const std::string bytes = testing::ReadFileBytes(path);
  auto footer = testing::FindFooter(bytes);
  ASSERT_TRUE(footer.ok);
  size_t consumed = 0;
  auto stored = DecodeFileMetaData(footer.bytes, &consumed);
  ASSERT_TRUE(stored.ok()) << stored.status().ToString();
  EXPECT_EQ(footer.bytes.size() - consumed, 28u);  // the signature: nonce and tag
  ASSERT_TRUE(stored->encryption_algorithm.has_value());
  for (const RowGroup& group : stored->row_groups) {
    const ColumnChunk& id = group.columns[0];
    EXPECT_FALSE(id.crypto_metadata.has_value());
    EXPECT_FALSE(id.encrypted_column_metadata.has_value());
    EXPECT_TRUE(id.meta_data->statistics.has_value());
    const ColumnChunk& name = group.columns[1];
    ASSERT_TRUE(name.crypto_metadata.has_value());
    EXPECT_TRUE(std::holds_alternative<EncryptionWithColumnKey>(*name.crypto_metadata));
    EXPECT_TRUE(name.encrypted_column_metadata.has_value());
    ASSERT_TRUE(name.meta_data.has_value());  // offsets and sizes, for readers without the key
    EXPECT_FALSE(name.meta_data->statistics.has_value());
    EXPECT_FALSE(name.meta_data->size_statistics.has_value());
    EXPECT_FALSE(name.meta_data->encoding_stats.has_value());
    const ColumnChunk& score = group.columns[2];  // the footer key's
    ASSERT_TRUE(score.crypto_metadata.has_value());
    EXPECT_TRUE(std::holds_alternative<EncryptionWithFooterKey>(*score.crypto_metadata));
    EXPECT_TRUE(score.encrypted_column_metadata.has_value());
    EXPECT_FALSE(score.meta_data->statistics.has_value());
    EXPECT_FALSE(score.meta_data->encoding_stats.has_value());
    EXPECT_TRUE(id.meta_data->encoding_stats.has_value());
  }

  // With the keys, the reader finds the statistics the writer computed.
  auto keys = std::make_shared<DecryptionKeys>();
  keys->footer_key = kFooterKey;
  keys->column_keys = {{"name", kNameKey}};
  auto file = Open(path, keys);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  for (int g = 0; g < (*file)->num_row_groups(); ++g) {
    for (int c : {1, 2}) {
      auto meta = (*file)->ColumnChunkMeta(g, c);
      ASSERT_TRUE(meta.ok()) << meta.status().ToString();
      ASSERT_TRUE((*meta)->statistics.has_value());
      EXPECT_EQ(**meta,
                *written->metadata.row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(c)].meta_data);
    }
  }
  // An altered footer fails its signature.
  std::string altered = bytes;
  const size_t created_by = altered.find("floe version");
  ASSERT_NE(created_by, std::string::npos);
  altered[created_by] = 'F';
  const std::string altered_path = dir.Join("altered.parquet");
  WriteBytes(altered_path, altered);
  EXPECT_EQ(Open(altered_path, keys).status().code(), StatusCode::kPermissionDenied);
}

TEST_F(ParquetEncryptionWriterTest, WrongKeysAlteredPagesAndMissingPrefixesAreRefused) {
  EncryptionProperties e = NameKeyed();
  e.aad_prefix = "warehouse/db/events/data/00001.parquet";
  e.store_aad_prefix = false;
  const std::string path = dir.Join("prefixed.parquet");
  WriterOptions options = SmallPages(e);
  options.page_checksums = false;  // so an altered page meets its GCM tag
  ASSERT_TRUE(Write(path, batch, options).ok());

  auto keys = AllKeys();
  auto no_prefix = Open(path, keys);
  EXPECT_EQ(no_prefix.status().code(), StatusCode::kPermissionDenied);
  EXPECT_TRUE(Contains(no_prefix.status(), "AAD prefix")) << no_prefix.status().ToString();
  keys->aad_prefix = "warehouse/db/events/data/00002.parquet";  // a file moved under another name
  EXPECT_EQ(Open(path, keys).status().code(), StatusCode::kPermissionDenied);
  keys->aad_prefix = *e.aad_prefix;
  auto file = Open(path, keys);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto read = Scan(*file);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(Json(schema, *read), Json(schema, {batch}));

  auto wrong_footer = AllKeys();
  wrong_footer->aad_prefix = e.aad_prefix;
  wrong_footer->footer_key[0] ^= 1;
  EXPECT_EQ(Open(path, wrong_footer).status().code(), StatusCode::kPermissionDenied);

  // A wrong column key fails that column only.
  auto wrong_column = AllKeys();
  wrong_column->aad_prefix = e.aad_prefix;
  wrong_column->column_keys["name"][0] ^= 1;
  auto opened = Open(path, wrong_column);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  EXPECT_TRUE(Scan(*opened, std::vector<std::string>{"id", "score"}).ok());
  auto names = Scan(*opened, std::vector<std::string>{"name"});
  EXPECT_EQ(names.status().code(), StatusCode::kPermissionDenied) << names.status().ToString();

  // One altered byte in the middle of the first row group's name pages.
  auto meta = (*file)->ColumnChunkMeta(0, 1);
  ASSERT_TRUE(meta.ok());
  std::string bytes = testing::ReadFileBytes(path);
  const int64_t start = (*meta)->dictionary_page_offset.value_or((*meta)->data_page_offset);
  bytes[static_cast<size_t>(start + (*meta)->total_compressed_size / 2)] ^= 0x20;
  const std::string altered = dir.Join("altered.parquet");
  WriteBytes(altered, bytes);
  auto altered_file = Open(altered, keys);
  ASSERT_TRUE(altered_file.ok()) << altered_file.status().ToString();
  auto altered_names = Scan(*altered_file, std::vector<std::string>{"name"});
  EXPECT_FALSE(altered_names.ok());
  EXPECT_TRUE(altered_names.status().code() == StatusCode::kPermissionDenied ||
              altered_names.status().code() == StatusCode::kCorrupt)
      << altered_names.status().ToString();
  EXPECT_TRUE(Scan(*altered_file, std::vector<std::string>{"id"}).ok());
}

TEST_F(ParquetEncryptionWriterTest, EachFileHasItsOwnAadAndNonces) {
  EncryptionProperties e;
  e.footer_key = kFooterKey;
  ASSERT_TRUE(Write(dir.Join("a.parquet"), batch, SmallPages(e)).ok());
  ASSERT_TRUE(Write(dir.Join("b.parquet"), batch, SmallPages(e)).ok());
  const std::string a = testing::ReadFileBytes(dir.Join("a.parquet"));
  const std::string b = testing::ReadFileBytes(dir.Join("b.parquet"));
  // The same layout (to a few bytes: the CRCs of different ciphertexts take
  // varints of different lengths) and ciphertexts that share next to nothing.
  ASSERT_LT(std::max(a.size(), b.size()) - std::min(a.size(), b.size()), 100u);
  size_t same = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) same += a[i] == b[i] ? 1 : 0;
  EXPECT_LT(same, a.size() / 50);
  auto fa = Open(dir.Join("a.parquet"), AllKeys());
  auto fb = Open(dir.Join("b.parquet"), AllKeys());
  ASSERT_TRUE(fa.ok() && fb.ok());
  EXPECT_NE(*FieldsOf(*(*fa)->encryption_algorithm())->aad_file_unique,
            *FieldsOf(*(*fb)->encryption_algorithm())->aad_file_unique);
}

TEST_F(ParquetEncryptionWriterTest, EncryptedDictionaryPagesPruneRowGroups) {
  // Every row group holds name-0 .. name-39 (some nulls): "name-3a" lies
  // inside their bounds and in none of their dictionaries, which are
  // encrypted with the name column's own key.
  const std::string path = dir.Join("dictionaries.parquet");
  WriterOptions options = SmallPages(NameKeyed());
  options.columns["name"].bloom_filter = false;  // leave the pruning to the dictionaries
  ASSERT_TRUE(Write(path, batch, options).ok());
  auto file = Open(path, AllKeys());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_TRUE((*file)->metadata().row_groups[0].columns[1].crypto_metadata.has_value());
  const auto scan = [&](const std::string& name) {
    ScanOptions options;
    options.columns = std::vector<std::string>{"id"};
    options.filter = {ColumnPredicate{1, ColumnPredicate::Op::kEq, {name}}};
    auto reader = ParquetRecordBatchReader::Make(*file, options);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    int64_t rows = 0;
    while (reader.ok()) {
      auto next = (*reader)->Next();
      EXPECT_TRUE(next.ok()) << next.status().ToString();
      if (!next.ok() || !*next) break;
      rows += (*next)->num_rows();
    }
    return std::make_pair(rows, reader.ok() ? (*reader)->metrics().row_groups_pruned_by_dictionary : -1);
  };
  EXPECT_EQ(scan("name-3a"), std::make_pair(int64_t{0}, int64_t{3}));
  EXPECT_EQ(scan("name-37"), std::make_pair(batch.num_rows(), int64_t{0}));

  // Without the name column's key its dictionary goes unused, and an
  // equality on it fails as it always has: the bloom filter path needs the
  // column's metadata.
  auto keys = std::make_shared<DecryptionKeys>();
  keys->footer_key = kFooterKey;
  auto footer_only = Open(path, keys);
  ASSERT_TRUE(footer_only.ok()) << footer_only.status().ToString();
  ScanOptions by_name;
  by_name.columns = std::vector<std::string>{"id"};
  by_name.filter = {ColumnPredicate{1, ColumnPredicate::Op::kEq, {"name-3a"}}};
  auto reader = ParquetRecordBatchReader::Make(*footer_only, by_name);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->Next().status().code(), StatusCode::kPermissionDenied);
}

TEST_F(ParquetEncryptionWriterTest, BadPropertiesAreRefusedBeforeAnythingIsWritten) {
  const std::string path = dir.Join("never.parquet");
  struct Case {
    std::function<void(EncryptionProperties*)> change;
    std::string message;
  };
  const std::vector<Case> cases = {
      {[](EncryptionProperties* e) { e->footer_key = "short"; }, "footer key is 5 bytes"},
      {[](EncryptionProperties* e) { e->column_keys["name"].key = std::string(33, 'k'); }, "key of column 'name'"},
      {[](EncryptionProperties* e) { e->column_keys["nmae"].key = kNameKey; }, "'nmae', which is no leaf column"},
      {[](EncryptionProperties* e) { e->column_keys["point"].key = kNameKey; }, "'point', which is no leaf column"},
      {[](EncryptionProperties* e) { e->plaintext_columns.insert("tags"); }, "'tags', which is no leaf column"},
      {[](EncryptionProperties* e) {
         e->column_keys["id"].key = kNameKey;
         e->plaintext_columns.insert("id");
       },
       "'id' has a key and is to be plaintext"},
      {[](EncryptionProperties* e) { e->store_aad_prefix = false; }, "AAD prefix not to be stored"},
  };
  for (const Case& c : cases) {
    EncryptionProperties e;
    e.footer_key = kFooterKey;
    c.change(&e);
    WriterOptions options;
    options.encryption = e;
    auto writer = ParquetFileWriter::Open(NewLocalFileIO(), path, schema, options);
    ASSERT_FALSE(writer.ok()) << c.message;
    EXPECT_EQ(writer.status().code(), StatusCode::kInvalidArgument) << writer.status().ToString();
    EXPECT_TRUE(Contains(writer.status(), c.message)) << writer.status().ToString();
    EXPECT_FALSE(std::filesystem::exists(path));
  }

  // The AAD holds column ordinals in 16 bits: an encrypted column past
  // 32767 is refused at Open, a plaintext one is not.
  std::vector<Field> wide;
  for (int i = 0; i < 32769; ++i) wide.push_back(Field(StrCat("c", i), DataType::Int32()));
  const auto wide_schema = testing::MakeSchema(std::move(wide));
  WriterOptions options;
  options.encryption = EncryptionProperties{};
  options.encryption->footer_key = kFooterKey;
  auto too_wide = ParquetFileWriter::Open(NewLocalFileIO(), path, wide_schema, options);
  EXPECT_EQ(too_wide.status().code(), StatusCode::kUnsupported) << too_wide.status().ToString();
  EXPECT_TRUE(Contains(too_wide.status(), "'c32768' is leaf column number 32768")) << too_wide.status().ToString();
  EXPECT_FALSE(std::filesystem::exists(path));
  options.encryption->plaintext_columns = {"c32768"};
  auto fits = ParquetFileWriter::Open(NewLocalFileIO(), path, wide_schema, options);
  ASSERT_TRUE(fits.ok()) << fits.status().ToString();
  (*fits)->Abort();
}

// DuckDB, the peer: it reads the plaintext columns of floe's signed
// plaintext-footer files (spec 5.5's legacy reader) and refuses the
// encrypted ones; floe reads the files DuckDB encrypts (its form without
// AAD, decision 0066) with the values DuckDB reads from them.
TEST_F(ParquetEncryptionWriterTest, DuckDbAndFloeReadEachOthersEncryptedFiles) {
  FLOE_REQUIRE_DUCKDB();
  EncryptionProperties e = NameKeyed();
  e.plaintext_footer = true;
  e.plaintext_columns = {"id", "score"};
  const std::string floe_file = dir.Join("floe.parquet");
  ASSERT_TRUE(Write(floe_file, batch, SmallPages(e)).ok());
  const std::string plain_file = dir.Join("plain.parquet");
  WriterOptions plain_options;
  plain_options.row_group_rows = 700;
  ASSERT_TRUE(Write(plain_file, batch, plain_options).ok());

  const std::string duck_file = dir.Join("duck.parquet");
  auto r = testing::RunDuckDb({
      "SELECT count(*) AS n, sum(id) AS ids, sum(score) AS scores FROM read_parquet(" + testing::SqlString(floe_file) +
          ")",
      "SELECT count(*) AS n, sum(id) AS ids, sum(score) AS scores FROM read_parquet(" + testing::SqlString(plain_file) +
          ")",
      "SET force_mbedtls_unsafe = true",  // writing without the httpfs extension's OpenSSL
      "PRAGMA add_parquet_key('k', '0123456789112345')",
      "COPY (SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || (i % 30) END AS s, (i * 0.25)::DOUBLE AS d, "
      "[i, i + 1] AS l FROM range(5000) t(i)) TO " +
          testing::SqlString(duck_file) + " (ENCRYPTION_CONFIG {footer_key: 'k'}, ROW_GROUP_SIZE 2048)",
      "SELECT count(*) AS n, sum(id) AS ids, sum(length(s)) AS lengths, sum((d * 4)::BIGINT) AS ds, sum(l[2]) AS ls "
      "FROM "
      "read_parquet(" +
          testing::SqlString(duck_file) + ", encryption_config = {footer_key: 'k'})",
  });
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.rows.size(), 4u) << r.err;
  EXPECT_EQ(r.rows[0], r.rows[1]);  // the plaintext columns, as from the plaintext file
  EXPECT_NE(r.rows[0].find("\"n\":\"2000\""), std::string::npos) << r.rows[0];
  auto refused = testing::RunDuckDb({"SELECT max(name) FROM read_parquet(" + testing::SqlString(floe_file) + ")"});
  EXPECT_NE(refused.exit_code, 0) << "DuckDB read an encrypted column without its key";

  // floe reads DuckDB's file: the same sums.
  auto keys = std::make_shared<DecryptionKeys>();
  keys->footer_key = "0123456789112345";
  auto file = Open(duck_file, keys);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ((*file)->num_row_groups(), 3);
  auto read = Scan(*file);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  int64_t n = 0, ids = 0, lengths = 0, ds = 0, second = 0;
  for (const RecordBatch& b : *read) {
    const Array& l = b.column(3);
    for (int64_t i = 0; i < b.num_rows(); ++i) {
      ids += b.column(0).Values<int64_t>()[i];
      if (b.column(1).IsValid(i)) lengths += static_cast<int64_t>(b.column(1).GetString(i).size());
      ds += static_cast<int64_t>(b.column(2).Values<double>()[i] * 4);
      second += l.list_values().Values<int64_t>()[l.ValueOffsets()[i] + 1];
    }
    n += b.num_rows();
  }
  EXPECT_EQ(r.rows[3], StrCat("{\"n\":\"", n, "\",\"ids\":\"", ids, "\",\"lengths\":\"", lengths, "\",\"ds\":\"", ds,
                              "\",\"ls\":\"", second, "\"}"));
  auto keyless = Open(duck_file, nullptr);
  EXPECT_EQ(keyless.status().code(), StatusCode::kPermissionDenied);
}

}  // namespace
}  // namespace encryption_writer_test
}  // namespace floe::parquet
