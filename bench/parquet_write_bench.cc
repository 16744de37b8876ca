// Parquet writing speed: ParquetFileWriter on deterministic generated data
// (the column kinds of issue 3's benchmark), to a local file, statistics and
// page index on. The DuckDB side of the ratio is its COPY of the same data
// (see bench/run.sh and docs/benchmarks.md); this binary measures floe alone.
//
//   build/release/bench/parquet_write_bench --benchmark_filter=Write

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <random>
#include <string>

#include "floe/columnar/builder.h"
#include "floe/formats/parquet/file_writer.h"

namespace floe::parquet {
namespace {

constexpr int64_t kRows = 2'000'000;

enum Kind { kRandomInt64, kSequentialInt64, kInt32Distinct1000, kDouble, kStrings50Distinct, kStrings32Bytes };

Array MakeColumn(Kind kind) {
  std::mt19937_64 rng(42);
  switch (kind) {
    case kRandomInt64:
    case kSequentialInt64: {
      PrimitiveBuilder<int64_t> b(DataType::Int64());
      static_cast<void>(b.Reserve(kRows));
      for (int64_t i = 0; i < kRows; ++i) b.UnsafeAppend(kind == kRandomInt64 ? static_cast<int64_t>(rng()) : i);
      return *b.Finish();
    }
    case kInt32Distinct1000: {
      PrimitiveBuilder<int32_t> b(DataType::Int32());
      static_cast<void>(b.Reserve(kRows));
      for (int64_t i = 0; i < kRows; ++i) b.UnsafeAppend(static_cast<int32_t>(rng() % 1000));
      return *b.Finish();
    }
    case kDouble: {
      PrimitiveBuilder<double> b(DataType::Float64());
      static_cast<void>(b.Reserve(kRows));
      std::uniform_real_distribution<double> d(-1e9, 1e9);
      for (int64_t i = 0; i < kRows; ++i) b.UnsafeAppend(d(rng));
      return *b.Finish();
    }
    case kStrings50Distinct:
    case kStrings32Bytes: {
      StringBuilder b;
      std::string s(32, 'x');
      for (int64_t i = 0; i < kRows; ++i) {
        if (kind == kStrings50Distinct) {
          static_cast<void>(b.Append("city-" + std::to_string(rng() % 50)));
        } else {
          for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
          static_cast<void>(b.Append(s));
        }
      }
      return *b.Finish();
    }
  }
  return {};
}

void BM_Write(benchmark::State& state) {
  const auto kind = static_cast<Kind>(state.range(0));
  const auto codec = static_cast<compression::Codec>(state.range(1));
  Array column = MakeColumn(kind);
  auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("v", column.type(), false)});
  const int64_t batch_rows = 122880;  // DuckDB's row group size, for equal settings
  std::vector<RecordBatch> batches;
  for (int64_t off = 0; off < kRows; off += batch_rows) {
    batches.push_back(RecordBatch::Make(schema, {column.Slice(off, std::min(batch_rows, kRows - off))}).value());
  }
  const std::string path = "/tmp/floe_parquet_write_bench_" + std::to_string(::getpid()) + ".parquet";
  int64_t bytes = 0;
  for (auto _ : state) {
    WriterOptions o;
    o.codec = codec;
    o.row_group_rows = batch_rows;
    auto writer = ParquetFileWriter::Open(NewLocalFileIO(), path, schema, o);
    if (!writer.ok()) {
      state.SkipWithError(writer.status().ToString().c_str());
      return;
    }
    for (const auto& b : batches) static_cast<void>((*writer)->Write(b));
    auto written = (*writer)->Close();
    if (!written.ok()) {
      state.SkipWithError(written.status().ToString().c_str());
      return;
    }
    bytes = written->file_size;
  }
  std::remove(path.c_str());
  state.counters["file_bytes"] = static_cast<double>(bytes);
  state.SetItemsProcessed(state.iterations() * kRows);
}

BENCHMARK(BM_Write)
    ->ArgsProduct({{kRandomInt64, kSequentialInt64, kInt32Distinct1000, kDouble, kStrings50Distinct, kStrings32Bytes},
                   {static_cast<int>(compression::Codec::kUncompressed), static_cast<int>(compression::Codec::kSnappy),
                    static_cast<int>(compression::Codec::kZstd), static_cast<int>(compression::Codec::kLz4Raw)}})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.3);

}  // namespace
}  // namespace floe::parquet

BENCHMARK_MAIN();
