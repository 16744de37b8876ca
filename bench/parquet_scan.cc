// floe's side of bench/parquet-vs-duckdb.sh: scans one column of a Parquet
// file and aggregates it (numbers: SUM; strings: the sum of their lengths),
// the way a query engine would, and prints the best wall and CPU times of N
// runs.
//
// Usage: floe_parquet_scan FILE COLUMN THREADS RUNS
// FLOE_SCAN_FOOTER_KEY=HEX: the file is encrypted, every column with this
// footer key (to measure what decryption costs).
// FLOE_SCAN_READ_DICTIONARY=0: strings as plain arrays, never dictionaries.
// Output: "<best wall ms> <best cpu ms> <aggregate>". The CPU time is the
// process's (user + system, all threads), the measure that stays steady when
// other work shares the cores. Threads take row groups one at a time from a
// shared counter (ScanOptions::next_row_group), each with its own reader over
// the shared footer, as an engine's scan operators do: a thread slowed by a
// neighbour takes fewer. The threads are a floe::ThreadPool's, started once
// for all the runs.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/hex.h"
#include "floe/base/thread_pool.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"

namespace floe {
namespace {

struct Aggregate {
  __int128 integer = 0;
  double real = 0;
  std::vector<int32_t> dictionary_lengths;  // scratch for dictionary columns
};

// Adds `a`'s values to `out`. A list adds its elements' values and a struct
// its fields', so nested columns are scanned through to their leaves. Every
// slot is summed, nulls too: floe's reader leaves zeros in null slots, and
// the nested data of docs/benchmarks.md has no null structs, whose fields
// DuckDB's sums would skip.
Status AddValues(const Array& a, Aggregate* out) {
  const int64_t n = a.length();
  switch (a.type_id()) {
    case TypeId::kInt64: {
      // Exact 128-bit sum in two vectorisable 64-bit halves (a batch holds
      // far fewer than 2^31 values, so neither half overflows).
      const int64_t* v = a.Values<int64_t>();
      int64_t high = 0;
      uint64_t low = 0;
      for (int64_t i = 0; i < n; ++i) {
        high += v[i] >> 32;
        low += static_cast<uint64_t>(v[i]) & 0xffffffffu;
      }
      out->integer += static_cast<__int128>(high) * (__int128{1} << 32) + static_cast<__int128>(low);
      break;
    }
    case TypeId::kInt32: {
      const int32_t* v = a.Values<int32_t>();
      int64_t sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += v[i];
      out->integer += sum;
      break;
    }
    case TypeId::kFloat64: {
      // Four running sums, so the additions do not wait on one another
      // (a float sum's order is the engine's choice; the script compares
      // the results with a relative tolerance).
      const double* v = a.Values<double>();
      double sum[4] = {0, 0, 0, 0};
      int64_t i = 0;
      for (; i + 4 <= n; i += 4) {
        for (int k = 0; k < 4; ++k) sum[k] += v[i + k];
      }
      for (; i < n; ++i) sum[0] += v[i];
      out->real += (sum[0] + sum[1]) + (sum[2] + sum[3]);
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      const int32_t* offsets = a.ValueOffsets();
      out->integer += offsets[n] - offsets[0];
      break;
    }
    case TypeId::kDictionary: {
      // Each dictionary value's length once, then one lookup per row (null
      // rows have no length; their indices are unspecified).
      const Array dictionary = a.dictionary();
      const int32_t* value_offsets = dictionary.ValueOffsets();
      std::vector<int32_t>& lengths = out->dictionary_lengths;
      lengths.resize(static_cast<size_t>(dictionary.length()));
      for (int64_t d = 0; d < dictionary.length(); ++d) lengths[d] = value_offsets[d + 1] - value_offsets[d];
      const int32_t* indices = a.DictionaryIndices();
      int64_t sum = 0;
      if (a.null_count() == 0) {
        for (int64_t i = 0; i < n; ++i) sum += lengths[static_cast<size_t>(indices[i])];
      } else {
        for (int64_t i = 0; i < n; ++i) sum += a.IsValid(i) ? lengths[static_cast<size_t>(indices[i])] : 0;
      }
      out->integer += sum;
      break;
    }
    case TypeId::kList: {
      const int32_t* offsets = a.ValueOffsets();
      return AddValues(a.list_values().Slice(offsets[0], offsets[a.length()] - offsets[0]), out);
    }
    case TypeId::kStruct:
      for (int f = 0; f < a.num_fields(); ++f) FLOE_RETURN_IF_ERROR(AddValues(a.field(f), out));
      break;
    default:
      return Status::Unsupported("the bench aggregates int32, int64, double, strings, and lists and structs of them");
  }
  return Status::OK();
}

// Strings are read as dictionaries where the scanned column's string chunks
// all have a dictionary page, as an engine that keeps dictionaries would (DuckDB
// does); elsewhere a dictionary would only add an index per value.
// FLOE_SCAN_READ_DICTIONARY=0 reads them as plain strings always.
bool ReadDictionary(const parquet::ParquetFileReader& file, const std::string& column) {
  const char* setting = std::getenv("FLOE_SCAN_READ_DICTIONARY");
  if (setting != nullptr && std::string(setting) == "0") return false;
  bool any = false;
  for (int c = 0; c < file.schema().num_columns(); ++c) {
    const parquet::ColumnDescriptor& leaf = file.schema().column(c);
    // The scanned column's string leaves: the column itself or those under it.
    const std::string path = leaf.dotted_path();
    const bool scanned = path == column || path.starts_with(column + ".");
    if (!scanned || leaf.physical_type != parquet::Type::BYTE_ARRAY) continue;
    for (int rg = 0; rg < file.num_row_groups(); ++rg) {
      auto meta = file.ColumnChunkMeta(rg, c);
      if (!meta.ok() || !(*meta)->dictionary_page_offset) return false;
      any = true;
    }
  }
  return any;
}

Status ScanRowGroups(std::shared_ptr<const parquet::ParquetFileReader> file, const std::string& column,
                     std::atomic<int>* next_row_group, Aggregate* out) {
  parquet::ScanOptions options;
  options.columns = std::vector<std::string>{column};
  options.read_dictionary = ReadDictionary(*file, column);
  const int row_groups = file->num_row_groups();
  options.next_row_group = [next_row_group, row_groups]() -> std::optional<int> {
    const int rg = next_row_group->fetch_add(1, std::memory_order_relaxed);
    return rg < row_groups ? std::optional<int>(rg) : std::nullopt;
  };
  FLOE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetRecordBatchReader::Make(std::move(file), options));
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader->Next());
    if (!batch) return Status::OK();
    FLOE_RETURN_IF_ERROR(AddValues(batch->column(0), out));
  }
}

// `pool` is null for one thread: the scan runs on the calling thread.
// Otherwise `threads` tasks run on the pool's workers, or on the calling
// thread while it waits. Those threads live across runs, as an engine's do.
// A thread started for each run would begin with an empty allocator cache
// and fault its buffers in again every time.
Result<Aggregate> Scan(const std::string& path, const std::string& column, int threads, ThreadPool* pool) {
  parquet::ReaderOptions options;
  if (const char* hex = std::getenv("FLOE_SCAN_FOOTER_KEY")) {
    auto keys = std::make_shared<parquet::DecryptionKeys>();
    if (!DecodeHex(hex, &keys->footer_key)) return Status::InvalidArgument("FLOE_SCAN_FOOTER_KEY is not hex");
    options.decryption = std::move(keys);
  }
  FLOE_ASSIGN_OR_RETURN(auto opened, parquet::ParquetFileReader::Open(NewLocalFileIO(), path, options));
  std::shared_ptr<const parquet::ParquetFileReader> file(std::move(opened));
  std::atomic<int> next_row_group{0};
  std::vector<Aggregate> partial(static_cast<size_t>(threads));
  if (pool == nullptr) {
    FLOE_RETURN_IF_ERROR(ScanRowGroups(file, column, &next_row_group, &partial[0]));
  } else {
    TaskGroup group(*pool);
    for (int t = 0; t < threads; ++t) {
      group.Spawn([&, t] { return ScanRowGroups(file, column, &next_row_group, &partial[static_cast<size_t>(t)]); });
    }
    FLOE_RETURN_IF_ERROR(group.Wait());
  }
  Aggregate total;
  for (const Aggregate& p : partial) {
    total.integer += p.integer;
    total.real += p.real;
  }
  return total;
}

double ProcessCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s FILE COLUMN THREADS RUNS\n", argv[0]);
    return 2;
  }
  const int threads = std::max(1, std::atoi(argv[3]));
  const int runs = std::max(1, std::atoi(argv[4]));
  std::unique_ptr<floe::ThreadPool> pool;
  if (threads > 1) pool = std::make_unique<floe::ThreadPool>(threads);
  double best = 1e300;
  double best_cpu = 1e300;
  floe::Aggregate result;
  for (int r = 0; r < runs; ++r) {
    const double cpu_start = floe::ProcessCpuMs();
    const auto start = std::chrono::steady_clock::now();
    auto aggregate = floe::Scan(argv[1], argv[2], threads, pool.get());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    best_cpu = std::min(best_cpu, floe::ProcessCpuMs() - cpu_start);
    if (!aggregate.ok()) {
      std::fprintf(stderr, "floe_parquet_scan: %s\n", aggregate.status().ToString().c_str());
      return 1;
    }
    result = *aggregate;
    best = std::min(best, ms);
  }
  // Integers print exactly (sums can pass 2^63); reals as %.6g.
  const bool negative = result.integer < 0;
  unsigned __int128 magnitude = negative ? 0 - static_cast<unsigned __int128>(result.integer)
                                         : static_cast<unsigned __int128>(result.integer);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude > 0);
  if (result.real != 0) {
    std::printf("%.3f %.3f %.6g\n", best, best_cpu, result.real);
  } else {
    std::printf("%.3f %.3f %s%s\n", best, best_cpu, negative ? "-" : "", digits.c_str());
  }
  return 0;
}
