// Two reader hooks checked through storage: the footer cache (a second open
// of the same file fetches no footer) and bloom filters — the writer's fpp
// sizing its filters and their measured false positives, and filters other
// engines wrote (parquet-testing, DuckDB) answering probes.

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "floe/columnar/builder.h"
#include "floe/formats/parquet/bloom_filter_reader.h"
#include "floe/formats/parquet/footer_cache.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"
#include "floe/io/tracing_file_io.h"
#include "parquet_fixtures.h"
#include "parquet_writer_test_util.h"
#include "testing/temp_dir.h"

namespace floe::parquet {
namespace footer_cache_test {  // the unity build merges anonymous namespaces
namespace {

std::string Data(const std::string& name) { return testing::ParquetTestingDir() + "/data/" + name; }

TEST(FooterCacheTest, ASecondOpenOfTheSameFileFetchesNoFooter) {
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewLocalFileIO(), trace);
  auto cache = std::make_shared<LruFooterCache>(8);
  ReaderOptions options;
  options.footer_cache = cache;
  const std::string path = Data("alltypes_tiny_pages.parquet");
  OpenReadOptions known_size;
  known_size.size = static_cast<int64_t>(std::filesystem::file_size(path));

  auto first = ParquetFileReader::Open(io, path, options, known_size);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_GE(trace->totals().gets, 1);  // the tail read (and the footer, when longer than the guess)
  EXPECT_EQ(cache->misses(), 1);
  EXPECT_EQ(cache->size(), 1u);

  trace->Clear();
  auto second = ParquetFileReader::Open(io, path, options, known_size);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(trace->totals().requests, 0) << trace->Format();  // size known, footer cached: no request at all
  EXPECT_EQ(cache->hits(), 1);
  EXPECT_EQ(&(*second)->metadata(), &(*first)->metadata());  // the same decoded footer, shared
  EXPECT_EQ((*second)->schema().schema(), (*first)->schema().schema());

  // The cached footer reads the same rows.
  ScanOptions scan;
  scan.columns = std::vector<std::string>{"id", "string_col"};
  auto rows_first = ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(*first)), scan);
  auto rows_second = ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(*second)), scan);
  ASSERT_TRUE(rows_first.ok() && rows_second.ok());
  ASSERT_EQ(rows_first->size(), rows_second->size());
  for (size_t b = 0; b < rows_first->size(); ++b) {
    for (int c = 0; c < 2; ++c) EXPECT_TRUE(ArrayEquals((*rows_first)[b].column(c), (*rows_second)[b].column(c)));
  }

  // Without a known size only the size is asked for.
  trace->Clear();
  ASSERT_TRUE(ParquetFileReader::Open(io, path, options).ok());
  EXPECT_EQ(trace->totals().gets, 0) << trace->Format();
}

TEST(FooterCacheTest, KeysOnPathAndSizeAndEvictsTheLeastRecentlyUsed) {
  floe::testing::TempDir dir;
  auto cache = std::make_shared<LruFooterCache>(2);
  ReaderOptions options;
  options.footer_cache = cache;
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewLocalFileIO(), trace);
  const std::vector<std::string> files = {Data("alltypes_plain.parquet"), Data("alltypes_dictionary.parquet"),
                                          Data("nulls.snappy.parquet")};
  for (const auto& f : files) ASSERT_TRUE(ParquetFileReader::Open(io, f, options).ok());
  EXPECT_EQ(cache->size(), 2u);
  EXPECT_EQ(cache->misses(), 3);
  // The first file was evicted; the last two hit.
  trace->Clear();
  ASSERT_TRUE(ParquetFileReader::Open(io, files[2], options).ok());
  ASSERT_TRUE(ParquetFileReader::Open(io, files[1], options).ok());
  EXPECT_EQ(trace->totals().gets, 0);
  ASSERT_TRUE(ParquetFileReader::Open(io, files[0], options).ok());
  EXPECT_GE(trace->totals().gets, 1);
  EXPECT_EQ(cache->hits(), 2);

  // A file replaced at the same path with another size is read again.
  const std::string path = dir.Join("x.parquet");
  std::filesystem::copy_file(files[0], path);
  ASSERT_TRUE(ParquetFileReader::Open(io, path, options).ok());
  std::filesystem::copy_file(files[1], path, std::filesystem::copy_options::overwrite_existing);
  auto replaced = ParquetFileReader::Open(io, path, options);
  ASSERT_TRUE(replaced.ok()) << replaced.status().ToString();
  EXPECT_EQ((*replaced)->num_rows(), 2);  // alltypes_dictionary's rows, not alltypes_plain's 8

  // Concurrent opens share the cache safely.
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) EXPECT_TRUE(ParquetFileReader::Open(io, files[static_cast<size_t>(i % 3)], options).ok());
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_LE(cache->size(), 2u);
}

// ---- bloom filters ---------------------------------------------------------

// The fraction of `probes` values absent from the file that the filter lets through.
double FalsePositiveRate(const SplitBlockBloomFilter& filter, int64_t first_absent, int64_t probes) {
  int64_t passed = 0;
  for (int64_t i = first_absent; i < first_absent + probes; ++i) passed += filter.Check(BloomHash(i)) ? 1 : 0;
  return static_cast<double>(passed) / static_cast<double>(probes);
}

TEST(BloomFilterTest, FppSizesTheFilterAndBoundsItsFalsePositives) {
  floe::testing::TempDir dir;
  auto schema = testing::MakeSchema({Field("id", DataType::Int64(), false)});
  std::vector<std::optional<int64_t>> ids;
  for (int64_t i = 0; i < 5000; ++i) ids.push_back(i * 3);
  const RecordBatch batch = testing::Batch(schema, {testing::Int64s(ids)});
  std::map<double, int64_t> bytes;
  std::map<double, double> rates;
  for (const double fpp : {0.001, 0.05, 0.3}) {
    for (const int64_t ndv : {int64_t{0}, int64_t{5000}}) {  // counted, and given
      SCOPED_TRACE(StrCat("fpp ", fpp, " ndv ", ndv));
      const std::string path = dir.Join(StrCat("b", fpp, "-", ndv, ".parquet"));
      WriterOptions options;
      options.columns["id"].bloom_filter = true;
      options.columns["id"].bloom_fpp = fpp;
      options.columns["id"].bloom_ndv = ndv;
      ASSERT_TRUE(testing::WriteFile(path, schema, {batch}, options).ok());
      auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
      ASSERT_TRUE(file.ok());
      auto filter = ReadBloomFilter(**file, 0, 0);
      ASSERT_TRUE(filter.ok() && filter->has_value());
      EXPECT_EQ((*filter)->num_bytes(), SplitBlockBloomFilter::OptimalNumBytes(5000, fpp));
      for (int64_t i = 0; i < 5000; ++i) ASSERT_TRUE((*filter)->Check(BloomHash(i * 3))) << i * 3;  // no false negative
      // Absent values: multiples of 3 plus 1.
      int64_t passed = 0;
      for (int64_t i = 0; i < 20000; ++i) passed += (*filter)->Check(BloomHash(i * 3 + 1)) ? 1 : 0;
      const double rate = static_cast<double>(passed) / 20000;
      // Power-of-two sizing gives at most the asked rate, often less; allow
      // the sampling error of 20,000 probes.
      EXPECT_LE(rate, fpp * 1.3 + 0.002);
      bytes[fpp] = (*filter)->num_bytes();
      rates[fpp] = rate;
    }
  }
  EXPECT_GT(bytes[0.001], bytes[0.05]);
  EXPECT_GT(bytes[0.05], bytes[0.3]);
  EXPECT_LT(rates[0.001], rates[0.3]);
}

TEST(BloomFilterTest, ProbesAFilterParquetMrWrote) {
  // data_index_bloom_encoding_stats.parquet: one string column with a bloom filter.
  auto opened = ParquetFileReader::Open(NewLocalFileIO(), Data("data_index_bloom_encoding_stats.parquet"));
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::shared_ptr<const ParquetFileReader> file(std::move(*opened));
  auto filter = ReadBloomFilter(*file, 0, 0);
  ASSERT_TRUE(filter.ok()) << filter.status().ToString();
  ASSERT_TRUE(filter->has_value());
  auto batches = ReadAllBatches(file);
  ASSERT_TRUE(batches.ok());
  int64_t present = 0;
  std::set<std::string> values;
  for (const RecordBatch& b : *batches) {
    const Array& column = b.column(0);
    for (int64_t i = 0; i < column.length(); ++i) {
      if (column.IsNull(i)) continue;
      const std::string v(column.GetString(i));
      values.insert(v);
      EXPECT_TRUE((*filter)->Check(BloomHash(std::string_view(v)))) << v;
      ++present;
    }
  }
  ASSERT_GT(present, 0);
  int64_t passed = 0;
  int64_t probes = 0;
  for (int i = 0; i < 2000; ++i) {
    const std::string absent = StrCat("absent value ", i);
    if (values.contains(absent)) continue;
    ++probes;
    passed += (*filter)->Check(BloomHash(std::string_view(absent))) ? 1 : 0;
  }
  EXPECT_LT(passed, probes / 10) << passed << " of " << probes << " absent values pass";
  // The scan prunes the row group for an absent value, not for a present one.
  ScanOptions absent;
  absent.filter = {ColumnPredicate{0, ColumnPredicate::Op::kEq, {"absent value 7"}}};
  auto reader = ParquetRecordBatchReader::Make(file, absent);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE((*reader)->Next().ok());
  EXPECT_EQ((*reader)->metrics().row_groups_pruned_by_bloom, 1);
  ScanOptions found;
  found.filter = {ColumnPredicate{0, ColumnPredicate::Op::kEq, {*values.begin()}}};
  auto reader2 = ParquetRecordBatchReader::Make(file, found);
  ASSERT_TRUE(reader2.ok());
  auto batch = (*reader2)->Next();
  ASSERT_TRUE(batch.ok() && batch->has_value());
  EXPECT_EQ((*reader2)->metrics().row_groups_pruned, 0);
}

TEST(BloomFilterTest, ProbesAFilterDuckDbWrote) {
  FLOE_REQUIRE_DUCKDB();
  floe::testing::TempDir dir;
  const std::string path = dir.Join("duck.parquet");
  // DuckDB writes bloom filters for dictionary-encoded columns.
  auto r = testing::RunDuckDb({"COPY (SELECT (i % 500) * 7 AS n, 'name-' || (i % 300) AS s FROM range(20000) t(i)) TO " +
                               testing::SqlString(path) + " (FORMAT parquet)"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto file = ParquetFileReader::Open(NewLocalFileIO(), path);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto ints = ReadBloomFilter(**file, 0, 0);
  auto strings = ReadBloomFilter(**file, 0, 1);
  ASSERT_TRUE(ints.ok() && strings.ok()) << ints.status().ToString() << strings.status().ToString();
  ASSERT_TRUE(ints->has_value()) << "DuckDB wrote no bloom filter for n";
  ASSERT_TRUE(strings->has_value()) << "DuckDB wrote no bloom filter for s";
  for (int64_t v = 0; v < 500; ++v) EXPECT_TRUE((*ints)->Check(BloomHash(v * 7))) << v * 7;
  for (int v = 0; v < 300; ++v) EXPECT_TRUE((*strings)->Check(BloomHash(StrCat("name-", v)))) << v;
  EXPECT_LT(FalsePositiveRate(**ints, 1'000'000, 5000), 0.1);
  int passed = 0;
  for (int v = 300; v < 2300; ++v) passed += (*strings)->Check(BloomHash(StrCat("name-", v))) ? 1 : 0;
  EXPECT_LT(passed, 200);
}

// How many rows a scan of `file` filtered by `predicate` returns, and how
// many row groups the bloom filters pruned.
std::pair<int64_t, int64_t> RowsAndBloomPruned(const std::shared_ptr<const ParquetFileReader>& file,
                                               ColumnPredicate predicate) {
  ScanOptions options;
  options.filter = {std::move(predicate)};
  auto reader = ParquetRecordBatchReader::Make(file, options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {-1, -1};
  int64_t rows = 0;
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || !*batch) break;
    rows += (*batch)->num_rows();
  }
  return {rows, (*reader)->metrics().row_groups_pruned_by_bloom};
}

TEST(BloomFilterTest, AFloatZeroIsFoundWhicheverSignItWasWrittenWith) {
  // Writers hash a float's bits, so -0.0 and +0.0 hash apart, while a
  // predicate compares by value: x = 0.0 matches a stored -0.0.
  floe::testing::TempDir dir;
  auto schema = testing::MakeSchema({Field("x", DataType::Float64(), false), Field("y", DataType::Float32(), false)});
  for (const double zero : {-0.0, 0.0}) {
    SCOPED_TRACE(StrCat("stored zero ", std::signbit(zero) ? "-0" : "+0"));
    std::vector<std::optional<double>> xs;
    std::vector<std::optional<float>> ys;
    for (int i = 0; i < 100; ++i) {
      xs.push_back(i == 40 ? zero : -50.5 + i);  // -50.5 .. 48.5, one zero
      ys.push_back(static_cast<float>(xs.back().value()));
    }
    const RecordBatch batch = testing::Batch(schema, {testing::Primitive<double>(DataType::Float64(), xs),
                                                      testing::Primitive<float>(DataType::Float32(), ys)});
    const std::string path = dir.Join(std::signbit(zero) ? "negative_zero.parquet" : "positive_zero.parquet");
    WriterOptions options;
    options.columns["x"].bloom_filter = true;
    options.columns["y"].bloom_filter = true;
    ASSERT_TRUE(testing::WriteFile(path, schema, {batch}, options).ok());
    auto opened = ParquetFileReader::Open(NewLocalFileIO(), path);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    std::shared_ptr<const ParquetFileReader> file(std::move(*opened));
    for (const double wanted : {0.0, -0.0}) {
      SCOPED_TRACE(StrCat("wanted ", std::signbit(wanted) ? "-0" : "+0"));
      EXPECT_EQ(RowsAndBloomPruned(file, ColumnPredicate{0, ColumnPredicate::Op::kEq, {PlainDouble(wanted)}}),
                std::make_pair(int64_t{100}, int64_t{0}));
      EXPECT_EQ(RowsAndBloomPruned(file, ColumnPredicate{1,
                                                         ColumnPredicate::Op::kIn,
                                                         {PlainFloat(7.25f), PlainFloat(static_cast<float>(wanted))}}),
                std::make_pair(int64_t{100}, int64_t{0}));
    }
    // The filters still prune: 0.25 lies within the bounds and is absent.
    EXPECT_EQ(RowsAndBloomPruned(file, ColumnPredicate{0, ColumnPredicate::Op::kEq, {PlainDouble(0.25)}}),
              std::make_pair(int64_t{0}, int64_t{1}));
    EXPECT_EQ(RowsAndBloomPruned(file, ColumnPredicate{1, ColumnPredicate::Op::kEq, {PlainFloat(0.25f)}}),
              std::make_pair(int64_t{0}, int64_t{1}));
  }
}

}  // namespace
}  // namespace footer_cache_test
}  // namespace floe::parquet
