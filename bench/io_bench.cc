// FileIO micro-benchmarks: what coalescing saves when a reader asks for many
// small ranges (Parquet column chunks and pages), on local disk and memory.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "floe/io/file_io.h"

namespace floe {
namespace {

constexpr int64_t kObjectSize = 64 << 20;

std::string BenchPath() {
  // Never destroyed: the exit handler that removes the file runs after static
  // destructors would have freed it.
  static const std::string* path = [] {
    auto* p = new std::string(
        (std::filesystem::temp_directory_path() / ("floe-io-bench-" + std::to_string(getpid()))).string());
    std::string data(kObjectSize, 'x');
    if (!NewLocalFileIO()->WriteAll(*p, std::string_view(data)).ok()) std::abort();
    std::atexit([] { std::filesystem::remove(BenchPath()); });
    return p;
  }();
  return *path;
}

// 2,000 ranges of 4 KiB with 2 KiB gaps: the shape of a page-index-driven read.
std::vector<ReadRange> PageLikeRanges() {
  std::vector<ReadRange> ranges;
  for (int64_t off = 0; ranges.size() < 2000; off += 6144) ranges.push_back({off, 4096});
  return ranges;
}

void ReadRanges(benchmark::State& state, std::shared_ptr<FileIO> io, std::string path, bool coalesce) {
  auto file = io->OpenRead(path).value();
  const auto ranges = PageLikeRanges();
  const CoalesceOptions options{.hole_size_limit = coalesce ? 8192 : -1, .range_size_limit = 32 << 20};
  for (auto _ : state) {
    auto parts = file->ReadRanges(ranges, options);
    if (!parts.ok()) state.SkipWithError(parts.status().ToString().c_str());
    benchmark::DoNotOptimize(parts);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(ranges.size()) * 4096);
}

void BM_LocalReadRangesCoalesced(benchmark::State& s) { ReadRanges(s, NewLocalFileIO(), BenchPath(), true); }
void BM_LocalReadRangesOneRequestEach(benchmark::State& s) { ReadRanges(s, NewLocalFileIO(), BenchPath(), false); }

std::shared_ptr<FileIO> MemoryWithObject() {
  static auto io = [] {
    auto m = NewMemoryFileIO();
    if (!m->WriteAll("mem://bench/obj", std::string(kObjectSize, 'y')).ok()) std::abort();
    return m;
  }();
  return io;
}
void BM_MemoryReadRangesCoalesced(benchmark::State& s) { ReadRanges(s, MemoryWithObject(), "mem://bench/obj", true); }
void BM_MemoryReadRangesOneRequestEach(benchmark::State& s) {
  ReadRanges(s, MemoryWithObject(), "mem://bench/obj", false);
}

BENCHMARK(BM_LocalReadRangesCoalesced);
BENCHMARK(BM_LocalReadRangesOneRequestEach);
BENCHMARK(BM_MemoryReadRangesCoalesced);
BENCHMARK(BM_MemoryReadRangesOneRequestEach);

}  // namespace
}  // namespace floe

BENCHMARK_MAIN();
