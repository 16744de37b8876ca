// The writer's dictionary decisions per column chunk: the early give-up on
// the first page (docs/decisions/0046), the page-end rule (0040), and a
// dictionary builder reused from chunk to chunk. Values are read back with
// floe's reader.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/formats/parquet/record_batch_reader.h"
#include "formats/parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace {

using testing::Batch;
using testing::MakeSchema;
using testing::WriteFile;

int CountPages(const ColumnMetaData& m, PageType type, Encoding encoding) {
  int n = 0;
  for (const auto& e : *m.encoding_stats) n += e.page_type == type && e.encoding == encoding ? e.count : 0;
  return n;
}

// Every value of column 0 of `path`, as strings (integers printed).
std::vector<std::string> ReadBack(const std::string& path) {
  std::vector<std::string> out;
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  if (!file.ok()) return out;
  auto reader = ParquetRecordBatchReader::Make(std::shared_ptr<const ParquetFileReader>(std::move(*file)), {});
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return out;
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || !*batch) return out;
    const Array& a = (*batch)->column(0);
    for (int64_t i = 0; i < a.length(); ++i) {
      out.push_back(a.type_id() == TypeId::kString ? std::string(a.GetString(i)) : std::to_string(a.Values<int64_t>()[i]));
    }
  }
}

// 8,192 strings of 200 bytes, each `repeat_every`-th one a repeat of the one
// before, in one page. PLAIN holds 204 bytes a value; the dictionary 204 a
// distinct value plus 13-bit indices.
std::vector<std::optional<std::string>> WideStrings(int repeat_every) {
  std::vector<std::optional<std::string>> v;
  for (int i = 0; i < 8192; ++i) {
    if (i % repeat_every == repeat_every - 1) {
      v.push_back(v.back());
    } else {
      std::string s = std::to_string(i);
      s.resize(200, 'x');
      v.push_back(s);
    }
  }
  return v;
}

WriterOptions OnePageOptions() {
  WriterOptions o;
  o.codec = compression::Codec::kUncompressed;
  o.page_rows = 8192;
  o.page_bytes = int64_t{8} << 20;
  o.dictionary_page_size_limit = int64_t{8} << 20;
  return o;
}

TEST(ParquetWriterDictionaryTest, GivesUpEarlyWhenNearlyEveryProbedValueIsNew) {
  // 39 in 40 new: more than 31 in 32 of the first 4,096 values, so the
  // dictionary is dropped early. At the page end it would have saved 1.7%
  // (1,629,000 + 13,000 bytes against 1,671,000): the cost of the rule.
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("s", DataType::Utf8(), false)});
  const auto values = WideStrings(40);
  const std::string path = dir.Join("early.parquet");
  auto written = WriteFile(path, schema, {Batch(schema, {testing::Strings(values)})}, OnePageOptions());
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  const ColumnMetaData& m = *written->metadata.row_groups.at(0).columns.at(0).meta_data;
  EXPECT_FALSE(m.dictionary_page_offset.has_value());
  EXPECT_EQ(CountPages(m, PageType::DATA_PAGE, Encoding::PLAIN), 1);
  EXPECT_EQ(CountPages(m, PageType::DATA_PAGE, Encoding::RLE_DICTIONARY), 0);
  const auto back = ReadBack(path);
  ASSERT_EQ(back.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(back[i], *values[i]) << i;
}

TEST(ParquetWriterDictionaryTest, KeepsProbingBelowTheThresholdAndKeepsADictionaryThatPays) {
  // 19 in 20 new: under the threshold, so the page-end rule decides, and the
  // dictionary (1,588,000 + 13,000 bytes against 1,671,000) pays.
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("s", DataType::Utf8(), false)});
  const auto values = WideStrings(20);
  const std::string path = dir.Join("kept.parquet");
  auto written = WriteFile(path, schema, {Batch(schema, {testing::Strings(values)})}, OnePageOptions());
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  const ColumnMetaData& m = *written->metadata.row_groups.at(0).columns.at(0).meta_data;
  EXPECT_TRUE(m.dictionary_page_offset.has_value());
  EXPECT_EQ(CountPages(m, PageType::DATA_PAGE, Encoding::RLE_DICTIONARY), 1);
  const auto back = ReadBack(path);
  ASSERT_EQ(back.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(back[i], *values[i]) << i;
}

TEST(ParquetWriterDictionaryTest, EachRowGroupDecidesAfreshWithTheReusedBuilder) {
  // Row groups of 10,000 rows: unique, then ten values, then unique again,
  // then ten other values; each chunk's dictionary starts empty.
  floe::testing::TempDir dir;
  auto schema = MakeSchema({Field("v", DataType::Int64(), false)});
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < 40'000; ++i) {
    const int64_t group = i / 10'000;
    values.push_back(group % 2 == 0 ? i * 7919 : 1000 * group + i % 10);
  }
  WriterOptions o;
  o.row_group_rows = 10'000;
  const std::string path = dir.Join("groups.parquet");
  auto written = WriteFile(path, schema, {Batch(schema, {testing::Int64s(values)})}, o);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ASSERT_EQ(written->metadata.row_groups.size(), 4u);
  for (int g = 0; g < 4; ++g) {
    const ColumnMetaData& m = *written->metadata.row_groups[g].columns.at(0).meta_data;
    EXPECT_EQ(m.dictionary_page_offset.has_value(), g % 2 == 1) << "row group " << g;
    EXPECT_EQ(CountPages(m, PageType::DATA_PAGE, Encoding::RLE_DICTIONARY), g % 2 == 1 ? 1 : 0) << "row group " << g;
  }
  const auto back = ReadBack(path);
  ASSERT_EQ(back.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(back[i], std::to_string(*values[i])) << i;
}

}  // namespace
}  // namespace floe::parquet
