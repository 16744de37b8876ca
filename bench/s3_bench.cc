// S3 micro-benchmarks against a real server started for the run: GET
// throughput of a 64 MiB object (one stream, and 8 ranged GETs in parallel
// through ReadRanges), small-object PUTs per second, and the same reads on
// local disk as the reference. FLOE_BENCH_S3_SERVER=moto|rgw picks the
// server (default rgw, the production one; moto is Python and much slower).

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "floe/io/file_io.h"
#include "floe/io/s3_client.h"
#include "floe/io/s3_file_io_internal.h"

namespace floe {
namespace {

// 64 MiB; FLOE_BENCH_S3_OBJECT_MIB scales it (the smoke run uses 1).
int64_t ObjectSize() {
  static const int64_t size = [] {
    const char* mib = std::getenv("FLOE_BENCH_S3_OBJECT_MIB");
    const int64_t n = mib != nullptr ? std::atoll(mib) : 64;
    return (n > 0 ? n : 64) << 20;
  }();
  return size;
}
const std::string kBucket = "floe-bench";

struct Server {
  std::string dir;
  std::string endpoint;
  std::shared_ptr<S3Client> client;
  std::shared_ptr<FileIO> io;
  std::string error;
};

std::string Run(const std::string& cmd, int* rc) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    *rc = -1;
    return out;
  }
  char buf[512];
  while (fgets(buf, sizeof buf, p)) out += buf;
  *rc = pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

Server& S3() {
  static Server* server = [] {
    auto* s = new Server;
    const char* kind = std::getenv("FLOE_BENCH_S3_SERVER");
    std::string tmpl = (std::filesystem::temp_directory_path() / "floe-s3-bench-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      s->error = "mkdtemp failed";
      return s;
    }
    s->dir = tmpl;
    const std::string script = FLOE_SOURCE_DIR "/tests/s3/s3_test_server.sh";
    int rc = 0;
    s->endpoint = Run("/bin/bash " + script + " start " + (kind ? kind : "rgw") + " " + s->dir, &rc);
    if (rc != 0) {
      s->error = "could not start the S3 server: " + s->endpoint;
      return s;
    }
    std::atexit([] {
      int ignored = 0;
      Run("/bin/bash " FLOE_SOURCE_DIR "/tests/s3/s3_test_server.sh stop " + S3().dir, &ignored);
      std::filesystem::remove_all(S3().dir);
    });
    S3Config config;
    config.endpoint = s->endpoint;
    config.credentials = {"floe-test", "floe-test-secret", ""};
    auto client = S3Client::Make(config);
    if (!client.ok() || !(*client)->CreateBucket(kBucket).ok()) {
      s->error = "could not create the bench bucket";
      return s;
    }
    s->client = *client;
    s->io = NewS3FileIOWithClient(s->client);
    if (!s->io->WriteAll("s3://" + kBucket + "/big", std::string(ObjectSize(), 'x')).ok()) {
      s->error = "could not write the 64 MiB object";
    }
    return s;
  }();
  return *server;
}

std::string LocalObject() {
  // Never destroyed: the exit handler that removes the file runs after static
  // destructors would have freed it.
  static const std::string* path = [] {
    auto* p = new std::string(
        (std::filesystem::temp_directory_path() / ("floe-s3-bench-local-" + std::to_string(getpid()))).string());
    if (!NewLocalFileIO()->WriteAll(*p, std::string(ObjectSize(), 'x')).ok()) std::abort();
    std::atexit([] { std::filesystem::remove(LocalObject()); });
    return p;
  }();
  return *path;
}

void GetWhole(benchmark::State& state, FileIO& io, const std::string& path, bool ranged_parallel) {
  auto file = io.OpenRead(path);
  if (!file.ok()) {
    state.SkipWithError(file.status().ToString().c_str());
    return;
  }
  std::vector<ReadRange> ranges;
  for (int64_t off = 0; off < ObjectSize(); off += 8 << 20) ranges.push_back({off, 8 << 20});
  for (auto _ : state) {
    if (ranged_parallel) {
      // No coalescing: 8 requests of 8 MiB, max_parallel_reads in flight.
      auto parts = (*file)->ReadRanges(ranges, CoalesceOptions{.hole_size_limit = -1, .range_size_limit = 8 << 20});
      if (!parts.ok()) state.SkipWithError(parts.status().ToString().c_str());
      benchmark::DoNotOptimize(parts);
    } else {
      auto all = (*file)->Read(0, ObjectSize());
      if (!all.ok()) state.SkipWithError(all.status().ToString().c_str());
      benchmark::DoNotOptimize(all);
    }
  }
  state.SetBytesProcessed(state.iterations() * ObjectSize());
}

void BM_S3GetSingleStream(benchmark::State& state) {
  if (!S3().error.empty()) return state.SkipWithError(S3().error.c_str());
  GetWhole(state, *S3().io, "s3://" + kBucket + "/big", false);
}
void BM_S3GetRangedParallel(benchmark::State& state) {
  if (!S3().error.empty()) return state.SkipWithError(S3().error.c_str());
  GetWhole(state, *S3().io, "s3://" + kBucket + "/big", true);
}
void BM_LocalGetSingleStream(benchmark::State& state) {
  auto io = NewLocalFileIO();
  GetWhole(state, *io, LocalObject(), false);
}

void SmallPuts(benchmark::State& state, bool if_absent) {
  if (!S3().error.empty()) return state.SkipWithError(S3().error.c_str());
  static std::atomic<int64_t> counter{0};
  const std::string body(4096, 'p');
  for (auto _ : state) {
    const std::string path = "s3://" + kBucket + "/small/" + std::to_string(counter++);
    Status st = if_absent ? S3().io->PutIfAbsent(path, body) : S3().io->WriteAll(path, std::string_view(body));
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
  }
  state.SetItemsProcessed(state.iterations());
}
void BM_S3SmallPut4KiB(benchmark::State& state) { SmallPuts(state, false); }
void BM_S3SmallPutIfAbsent4KiB(benchmark::State& state) { SmallPuts(state, true); }

BENCHMARK(BM_LocalGetSingleStream)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_S3GetSingleStream)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_S3GetRangedParallel)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_S3SmallPut4KiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_S3SmallPutIfAbsent4KiB)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace floe

BENCHMARK_MAIN();
