// Fuzzes a whole-file read: the input is a Parquet file in memory, opened
// and scanned to the end with every column, in small batches (so records
// spanning pages and batches are exercised) and within a small memory budget
// (so inflating pages must be refused, not allocated), with the keys of the
// encrypted seeds. Then what pruning reads beside the data: each chunk's
// page index, the statistics of each of its pages, its bloom filter, and
// its dictionary page's values against a predicate; and each chunk's page
// headers walked as `floe parquet pages` lists them.
// Inputs of odd size read their strings as dictionary arrays; inputs whose
// size is 2 or 3 modulo 4 read under a string limit of 64 bytes per batch,
// so batches are read again (cut where their bytes end, halved, or a row
// alone over the limit, decision 0082), and a top-level string column of a
// batch of more than one row must then hold at most 64 bytes.
// Any error is fine; a crash, UB, leak or an array that fails validation is
// not.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "floe/formats/parquet/bloom_filter_reader.h"
#include "floe/formats/parquet/dictionary_filter.h"
#include "floe/formats/parquet/dictionary_page_reader.h"
#include "floe/formats/parquet/page_headers.h"
#include "floe/formats/parquet/page_index.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/parquet/statistics.h"
#include "floe/io/file_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::shared_ptr<floe::FileIO> io = floe::NewMemoryFileIO();
  if (!io->WriteAll("mem://fuzz.parquet", std::string_view(reinterpret_cast<const char*>(data), size)).ok()) {
    return 0;
  }
  floe::parquet::ReaderOptions options;
  options.max_page_size = 16 << 20;
  // The keys of parquet-testing's encrypted seeds (data/README.md), so that
  // their mutants reach the decryption paths: module lengths, the crypto
  // metadata, the decrypted footer and pages. The plaintext footer's
  // signature is not checked, so a mutated one still reaches its columns.
  static const auto keys = [] {
    auto k = std::make_shared<floe::parquet::DecryptionKeys>();
    k->footer_key = "0123456789012345";
    k->column_keys = {{"double_field", "1234567890123450"}, {"float_field", "1234567890123451"}};
    k->verify_footer_signature = false;
    return k;
  }();
  options.decryption = keys;
  auto opened = floe::parquet::ParquetFileReader::Open(io, "mem://fuzz.parquet", options);
  if (!opened.ok()) return 0;
  std::shared_ptr<const floe::parquet::ParquetFileReader> file(std::move(*opened));
  floe::parquet::ScanOptions scan;
  scan.batch_size = 97;
  // Half the inputs read strings as dictionary arrays (their indices, the
  // dictionary page kept, pages without it extending the dictionary).
  scan.read_dictionary = size % 2 == 1;
  const bool small_limit = size % 4 >= 2;
  constexpr int64_t kSmallLimit = 64;
  if (small_limit) scan.max_batch_value_bytes = kSmallLimit;
  auto reader = floe::parquet::ParquetRecordBatchReader::Make(file, scan);
  if (reader.ok()) {
    // Bound the work per input: a tiny file may declare billions of rows.
    for (int batches = 0; batches < 2000; ++batches) {
      auto batch = (*reader)->Next();
      if (!batch.ok() || !batch->has_value()) break;
      for (const floe::Array& column : (*batch)->columns()) {
        if (!column.Validate().ok()) std::abort();
        const bool strings = column.type_id() == floe::TypeId::kString || column.type_id() == floe::TypeId::kBinary;
        if (small_limit && strings && column.length() > 1) {
          const int32_t* offsets = column.ValueOffsets();
          if (offsets[column.length()] - offsets[0] > kSmallLimit) std::abort();
        }
      }
    }
  }
  // The page indexes, page statistics and bloom filters of the first row
  // groups and columns (bounded, as above).
  const int row_groups = std::min(file->num_row_groups(), 4);
  const int columns = std::min(file->schema().num_columns(), 16);
  for (int g = 0; g < row_groups; ++g) {
    for (int c = 0; c < columns; ++c) {
      const int one[] = {c};
      auto index = floe::parquet::ReadPageIndex(*file, g, one);
      if (index.ok() && (*index)[0].column_index) {
        const floe::parquet::ColumnIndex& ci = *(*index)[0].column_index;
        for (size_t p = 0; p < ci.null_pages.size(); ++p) {
          (void)floe::parquet::PageStatistics(file->schema().column(c), ci, p);
        }
      }
      auto headers = floe::parquet::ReadPageHeaders(*file, g, c);
      if (headers.ok()) {
        for (const floe::parquet::StoredPageHeader& page : *headers) {
          if (page.stored_size <= 0 || page.file_offset < 0 || page.stored_size > file->file_size()) std::abort();
        }
      }
      auto bloom = floe::parquet::ReadBloomFilter(*file, g, c);
      if (bloom.ok() && *bloom) (void)(*bloom)->Check(0x9e3779b97f4a7c15ULL);
      auto dictionary = floe::parquet::ReadDictionaryPages(*file, g, {c});
      if (dictionary.ok() && (*dictionary)[0]) {
        const floe::parquet::Page& page = *(*dictionary)[0];
        const auto& column = file->schema().column(c);
        auto values = floe::parquet::DictionaryPageValues(column, page.encoding, page.values, page.num_values);
        if (values.ok()) {
          const auto* begin = reinterpret_cast<const char*>(page.values.data());
          for (std::string_view v : *values) {
            if (v.data() < begin || v.data() + v.size() > begin + page.values.size()) std::abort();
          }
          // A range that the first value meets, with an IN list of the last.
          const std::string first = values->empty() ? std::string() : std::string(values->front());
          const std::string last = values->empty() ? std::string() : std::string(values->back());
          const floe::parquet::ColumnPredicate at_least{c, floe::parquet::ColumnPredicate::Op::kGtEq, {first}};
          const floe::parquet::ColumnPredicate among{c, floe::parquet::ColumnPredicate::Op::kIn, {last, first}};
          const floe::parquet::ColumnPredicate* both[] = {&at_least, &among};
          (void)floe::parquet::DictionaryMayMatch(column, both, *values);
        }
      }
    }
  }
  return 0;
}
