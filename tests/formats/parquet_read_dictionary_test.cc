// ScanOptions::read_dictionary: string and binary columns read as
// dictionary arrays that share their row group's dictionary page. Every
// parquet-testing file must read to the same values both ways; floe's own
// files pin down the sharing, the pages a writer wrote without the
// dictionary, and row selections.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "floe/base/strings.h"
#include "floe/columnar/batch_printer.h"
#include "floe/columnar/builder.h"
#include "floe/columnar/take.h"
#include "floe/formats/parquet/field_annotation.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace read_dictionary_test {  // the unity build merges anonymous namespaces

Result<std::shared_ptr<const ParquetFileReader>> Open(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto file, ParquetFileReader::Open(NewLocalFileIO(), path));
  return std::shared_ptr<const ParquetFileReader>(std::move(file));
}

ScanOptions Dictionaries(int64_t batch_size = 64 * 1024) {
  ScanOptions options;
  options.read_dictionary = true;
  options.batch_size = batch_size;
  return options;
}

int CountDictionaries(const TypePtr& type) {
  if (type->id() == TypeId::kDictionary) return 1;
  int count = 0;
  for (const Field& field : type->fields()) count += CountDictionaries(field.type);
  return count;
}

std::string Jsonl(const std::shared_ptr<const Schema>& schema, const std::vector<RecordBatch>& batches) {
  auto text = FormatBatches(schema, batches, PrintOptions{OutputFormat::kJsonl});
  EXPECT_TRUE(text.ok()) << text.status().ToString();
  return text.ok() ? *text : "";
}

// Row i's string, `length` bytes long: one of 10 values in the first 1,000
// rows (so that a writer keeps its dictionary), then one of `distinct`.
std::string Value(int64_t i, int64_t distinct, int64_t length = 24) {
  std::string value = StrCat("value-", i < 1'000 ? i % 10 : i % distinct, "-");
  value.resize(static_cast<size_t>(length), 'x');
  return value;
}

// A file of one row group: id int64, s string (null every 7th row).
std::string WriteStrings(const floe::testing::TempDir& dir, const std::string& name, int64_t rows, int64_t distinct,
                         WriterOptions options) {
  Int64Builder ids;
  StringBuilder strings;
  for (int64_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(ids.Append(i).ok());
    EXPECT_TRUE((i % 7 == 3 ? strings.AppendNull() : strings.Append(Value(i, distinct))).ok());
  }
  auto schema = testing::MakeSchema({Field("id", DataType::Int64(), false), Field("s", DataType::Utf8())});
  const std::string path = dir.Join(name);
  options.row_group_rows = rows;
  auto written =
      testing::WriteFile(path, schema, {testing::Batch(schema, {*ids.Finish(), *strings.Finish()})}, options);
  EXPECT_TRUE(written.ok()) << written.status().ToString();
  return path;
}

// Options under which WriteStrings' column starts with a dictionary and
// falls back to PLAIN pages once the values turn distinct (row 1,000): a
// 4 KB dictionary, and pages of 50 rows so that dictionary pages are
// written before the fallback.
WriterOptions FallingBack() {
  WriterOptions options;
  options.dictionary_page_size_limit = 4096;
  options.page_rows = 50;
  return options;
}

// The batches' rows are WriteStrings' rows `first`, `first` + 1, ...
void ExpectRows(const std::vector<RecordBatch>& batches, int64_t first, int64_t rows, int64_t distinct) {
  int64_t id = first;
  for (const RecordBatch& batch : batches) {
    const Array& s = batch.column(1);
    ASSERT_EQ(s.type_id(), TypeId::kDictionary);
    ASSERT_TRUE(s.Validate().ok()) << s.Validate().ToString();
    const Array dictionary = s.dictionary();
    for (int64_t r = 0; r < batch.num_rows(); ++r, ++id) {
      ASSERT_EQ(batch.column(0).Values<int64_t>()[r], id);
      ASSERT_EQ(s.IsNull(r), id % 7 == 3) << "row " << id;
      if (s.IsValid(r)) {
        ASSERT_EQ(dictionary.GetString(s.DictionaryIndices()[r]), Value(id, distinct)) << "row " << id;
      }
    }
  }
  EXPECT_EQ(id, first + rows);
}

TEST(ParquetReadDictionaryTest, EveryParquetTestingFileReadsToTheSameValues) {
  int files = 0;
  int dictionary_columns = 0;
  int variants = 0;
  for (const std::string sub : {"/data", "/variant", "/shredded_variant"}) {
    for (const std::string& path : testing::FilesEndingWith(testing::ParquetTestingDir() + sub, ".parquet")) {
      SCOPED_TRACE(path);
      auto file = Open(path);
      if (!file.ok()) continue;  // encrypted without keys, or damaged: not this test's subject
      auto plain_reader = ParquetRecordBatchReader::Make(*file);
      auto dict_reader = ParquetRecordBatchReader::Make(*file, Dictionaries());
      ASSERT_TRUE(plain_reader.ok() && dict_reader.ok());
      const std::shared_ptr<const Schema> plain_schema = (*plain_reader)->schema();
      const std::shared_ptr<const Schema> dict_schema = (*dict_reader)->schema();
      ASSERT_EQ(plain_schema->num_fields(), dict_schema->num_fields());
      for (int i = 0; i < plain_schema->num_fields(); ++i) {
        const Field& plain = plain_schema->field(i);
        const Field& dict = dict_schema->field(i);
        EXPECT_TRUE(TypeEquals(WithoutDictionaries(dict.type), plain.type))
            << dict.type->ToString() << " vs " << plain.type->ToString();
        EXPECT_EQ(dict.name, plain.name);
        EXPECT_EQ(dict.field_id, plain.field_id);
        EXPECT_EQ(dict.metadata, plain.metadata);
        dictionary_columns += CountDictionaries(dict.type);
        for (const auto& [key, value] : plain.metadata) {
          if (key == kLogicalTypeKey && value.starts_with("VARIANT")) {
            EXPECT_EQ(CountDictionaries(dict.type), 0) << "a VARIANT stays as stored: " << dict.type->ToString();
            ++variants;
          }
        }
      }
      auto plain = ReadAllBatches(*file);
      auto dict = ReadAllBatches(*file, Dictionaries());
      ASSERT_EQ(plain.ok(), dict.ok()) << plain.status().ToString() << " / " << dict.status().ToString();
      if (!plain.ok()) {
        EXPECT_EQ(plain.status().code(), dict.status().code());
        continue;
      }
      ++files;
      ASSERT_EQ(plain->size(), dict->size());
      for (size_t b = 0; b < plain->size(); ++b) {
        ASSERT_EQ((*plain)[b].num_rows(), (*dict)[b].num_rows());
        for (int c = 0; c < plain_schema->num_fields(); ++c) {
          const Array& column = (*dict)[b].column(c);
          ASSERT_TRUE(column.Validate().ok()) << column.Validate().ToString();
          auto decoded = DecodeDictionaries(column);
          ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
          EXPECT_TRUE(ArrayEquals(*decoded, (*plain)[b].column(c))) << "batch " << b << ", column " << c;
        }
      }
      // Printed, a dictionary reads as its values.
      EXPECT_EQ(Jsonl(dict_schema, *dict), Jsonl(plain_schema, *plain));
    }
  }
  EXPECT_GT(files, 50);
  EXPECT_GT(dictionary_columns, 50);
  EXPECT_GT(variants, 10);
}

TEST(ParquetReadDictionaryTest, NestedStringsBecomeDictionariesInPlace) {
  auto file = Open(testing::ParquetTestingDir() + "/data/nested_lists.snappy.parquet");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto reader = ParquetRecordBatchReader::Make(*file, Dictionaries());
  ASSERT_TRUE(reader.ok());
  const TypePtr& a = (*reader)->schema()->field(0).type;
  ASSERT_EQ(a->id(), TypeId::kList);
  const TypePtr& leaf = a->item_field().type->item_field().type->item_field().type;
  EXPECT_EQ(leaf->ToString(), "dictionary<string>");
  EXPECT_EQ((*reader)->schema()->field(1).type->id(), TypeId::kInt32);  // not a string: unchanged
}

TEST(ParquetReadDictionaryTest, BatchesOfARowGroupShareItsDictionaryPage) {
  floe::testing::TempDir dir;
  const std::string path = WriteStrings(dir, "shared.parquet", 10'000, 50, {});
  auto file = Open(path);
  ASSERT_TRUE(file.ok());
  auto batches = ReadAllBatches(*file, Dictionaries(1'000));
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), 10u);
  ExpectRows(*batches, 0, 10'000, 50);
  const ArrayData* dictionary = (*batches)[0].column(1).data()->dictionary.get();
  ASSERT_NE(dictionary, nullptr);
  EXPECT_EQ(dictionary->length, 50);
  for (const RecordBatch& batch : *batches) EXPECT_EQ(batch.column(1).data()->dictionary.get(), dictionary);
}

TEST(ParquetReadDictionaryTest, PagesWrittenWithoutTheDictionaryExtendIt) {
  floe::testing::TempDir dir;
  // 3,000 distinct values outgrow a 4 KB dictionary: the writer falls back
  // to PLAIN pages partway through the chunk.
  WriterOptions fallback = FallingBack();
  const std::string path = WriteStrings(dir, "fallback.parquet", 6'000, 3'000, fallback);
  auto file = Open(path);
  ASSERT_TRUE(file.ok());
  const ColumnMetaData* meta = *(*file)->ColumnChunkMeta(0, 1);
  ASSERT_TRUE(meta->dictionary_page_offset.has_value());
  ASSERT_NE(std::find(meta->encodings.begin(), meta->encodings.end(), Encoding::PLAIN), meta->encodings.end());
  auto batches = ReadAllBatches(*file, Dictionaries(500));
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ExpectRows(*batches, 0, 6'000, 3'000);
  // The first batch indexes the dictionary page alone; the last has values
  // of its own after it.
  const int64_t first = (*batches).front().column(1).dictionary().length();
  const int64_t last = (*batches).back().column(1).dictionary().length();
  EXPECT_LT(first, 3'000);
  EXPECT_GT(last, first);

  // Written without a dictionary at all: each batch's values are its dictionary.
  WriterOptions plain;
  plain.dictionary = false;
  auto no_dictionary = Open(WriteStrings(dir, "plain.parquet", 2'000, 3'000, plain));
  ASSERT_TRUE(no_dictionary.ok());
  auto plain_batches = ReadAllBatches(*no_dictionary, Dictionaries(500));
  ASSERT_TRUE(plain_batches.ok()) << plain_batches.status().ToString();
  ExpectRows(*plain_batches, 0, 2'000, 3'000);
  const Array& s = (*plain_batches)[0].column(1);
  EXPECT_EQ(s.dictionary().length(), s.length() - s.null_count());
}

TEST(ParquetReadDictionaryTest, BatchesOverTheByteCapAreReadAgainShorter) {
  floe::testing::TempDir dir;
  WriterOptions fallback = FallingBack();
  auto file = Open(WriteStrings(dir, "capped.parquet", 6'000, 3'000, fallback));
  ASSERT_TRUE(file.ok());
  // Only the values of pages without the dictionary count against the cap:
  // 1,000 rows of them are 24,000 bytes, over 4,096.
  ScanOptions scan = Dictionaries(1'000);
  scan.max_batch_value_bytes = 4096;
  auto batches = ReadAllBatches(*file, scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ExpectRows(*batches, 0, 6'000, 3'000);
  EXPECT_EQ((*batches)[0].num_rows(), 1'000);  // dictionary-encoded rows: indices only
  EXPECT_LT(batches->back().num_rows(), 1'000);
  for (const RecordBatch& batch : *batches) {
    const Array dictionary = batch.column(1).dictionary();
    const int64_t chunk_values = (*batches)[0].column(1).dictionary().length();
    const int32_t* offsets = dictionary.ValueOffsets();
    EXPECT_LE(offsets[dictionary.length()] - offsets[chunk_values], 4096);
  }
}

TEST(ParquetReadDictionaryTest, SelectionsAcrossTheFallbackKeepTheirValues) {
  floe::testing::TempDir dir;
  for (const bool page_index : {true, false}) {
    SCOPED_TRACE(page_index ? "with a page index" : "without");
    WriterOptions fallback = FallingBack();
    fallback.page_index = page_index;
    auto file = Open(WriteStrings(dir, StrCat("selected-", page_index, ".parquet"), 6'000, 3'000, fallback));
    ASSERT_TRUE(file.ok());
    ScanOptions scan = Dictionaries(700);
    scan.row_selection[0] = {RowRange{10, 30}, RowRange{990, 1'150}, RowRange{1'190, 1'210}, RowRange{5'990, 6'000}};
    auto batches = ReadAllBatches(*file, scan);
    ASSERT_TRUE(batches.ok()) << batches.status().ToString();
    std::vector<int64_t> expected;
    for (const RowRange& range : scan.row_selection[0]) {
      for (int64_t id = range.begin; id < range.end; ++id) expected.push_back(id);
    }
    size_t row = 0;
    for (const RecordBatch& batch : *batches) {
      const Array& s = batch.column(1);
      ASSERT_TRUE(s.Validate().ok()) << s.Validate().ToString();
      for (int64_t r = 0; r < batch.num_rows(); ++r, ++row) {
        ASSERT_LT(row, expected.size());
        const int64_t id = expected[row];
        ASSERT_EQ(batch.column(0).Values<int64_t>()[r], id);
        ASSERT_EQ(s.IsNull(r), id % 7 == 3) << "row " << id;
        if (s.IsValid(r)) {
          ASSERT_EQ(s.dictionary().GetString(s.DictionaryIndices()[r]), Value(id, 3'000)) << "row " << id;
        }
      }
    }
    EXPECT_EQ(row, expected.size());
  }
}

TEST(ParquetReadDictionaryTest, RowSelectionsReadOnlyTheirIndices) {
  floe::testing::TempDir dir;
  WriterOptions options;
  options.page_index = true;
  options.page_bytes = 4096;
  const std::string path = WriteStrings(dir, "selected.parquet", 20'000, 40, options);
  auto file = Open(path);
  ASSERT_TRUE(file.ok());
  ScanOptions scan = Dictionaries();
  scan.row_selection[0] = {RowRange{12'345, 13'000}};
  auto batches = ReadAllBatches(*file, scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ExpectRows(*batches, 12'345, 655, 40);
}

TEST(ParquetReadDictionaryTest, ConcatenatedBatchesKeepTheirValues) {
  floe::testing::TempDir dir;
  WriterOptions fallback = FallingBack();
  auto file = Open(WriteStrings(dir, "concatenated.parquet", 3'000, 2'000, fallback));
  ASSERT_TRUE(file.ok());
  auto dict = ReadAllBatches(*file, Dictionaries(700));
  auto plain = ReadAllBatches(*file);
  ASSERT_TRUE(dict.ok() && plain.ok());
  auto joined = ConcatenateRows(*dict);
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  auto decoded = DecodeDictionaries(joined->column(1));
  ASSERT_TRUE(decoded.ok());
  EXPECT_TRUE(ArrayEquals(*decoded, (*plain)[0].column(1)));
}

TEST(ParquetReadDictionaryTest, DictionaryColumnsAreWrittenAsTheirValues) {
  floe::testing::TempDir dir;
  WriterOptions fallback = FallingBack();
  auto source = Open(WriteStrings(dir, "source.parquet", 10'000, 1'500, fallback));
  ASSERT_TRUE(source.ok());
  auto reader = ParquetRecordBatchReader::Make(*source, Dictionaries(900));
  ASSERT_TRUE(reader.ok());
  auto dict = ReadAllBatches(*source, Dictionaries(900));
  ASSERT_TRUE(dict.ok());
  // Some batches one by one, the rest as one batch of several slices the
  // writer decodes in turn.
  std::vector<RecordBatch> batches(dict->begin(), dict->begin() + 2);
  auto rest = ConcatenateRows(std::span<const RecordBatch>(dict->data() + 2, dict->size() - 2));
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  ASSERT_GT(rest->num_rows(), 4'096);
  batches.push_back(*rest);
  const std::string copy = dir.Join("copy.parquet");
  auto written = testing::WriteFile(copy, (*reader)->schema(), batches);
  ASSERT_TRUE(written.ok()) << written.status().ToString();

  auto copied = Open(copy);
  ASSERT_TRUE(copied.ok());
  EXPECT_EQ((*copied)->schema().column(1).type->id(), TypeId::kString);
  auto plain_copy = ReadAllBatches(*copied);
  auto plain_source = ReadAllBatches(*source);
  ASSERT_TRUE(plain_copy.ok() && plain_source.ok());
  ASSERT_EQ(plain_copy->size(), 1u);
  EXPECT_TRUE(ArrayEquals((*plain_copy)[0].column(1), (*plain_source)[0].column(1)));
}

}  // namespace read_dictionary_test
}  // namespace floe::parquet
