// Scan planning speed on a synthetic Iceberg table: FLOE_BENCH_PLAN_FILES
// data files (default 1,000,000) in manifests of 1,000 files, one day
// partition per manifest, each file with metrics for 5 columns — the
// issue's "1,000,000 data files in 1,000 manifests". Measured: planning a
// one-partition query (manifests skipped by their partition summaries, then
// files by metrics) and listing every file (entries per second), on one
// thread, cold (the FileIO is memory; every manifest is decoded each time);
// listing on two threads; and decoding the entries alone, the floor. On a
// shared machine read the CPU column for one thread: real time waits for
// the cores.

#include <benchmark/benchmark.h>

#include <cstdlib>

#include "floe/base/strings.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/manifest_writer.h"
#include "floe/iceberg/new_table_metadata.h"
#include "floe/iceberg/scan/table_scan.h"
#include "floe/iceberg/table_update.h"

namespace floe::iceberg {
namespace {

constexpr int kFilesPerManifest = 1000;
constexpr int32_t kFirstDay = 20000;

struct SyntheticTable {
  std::shared_ptr<FileIO> io = NewMemoryFileIO();
  std::shared_ptr<const TableMetadata> metadata;
  int64_t files = 0;
};

NestedField Column(int32_t id, const char* name, TypePtr type) {
  NestedField f;
  f.field_id = id;
  f.name = name;
  f.type = std::move(type);
  return f;
}

const SyntheticTable& Table() {
  static SyntheticTable* table = [] {
    auto* t = new SyntheticTable();
    const char* env = std::getenv("FLOE_BENCH_PLAN_FILES");
    int64_t files = 1'000'000;
    if (env != nullptr) ParseInt64(env, &files);
    const int manifests = static_cast<int>(std::max<int64_t>(1, files / kFilesPerManifest));
    t->files = int64_t{manifests} * kFilesPerManifest;

    TableDefinition def;
    def.schema = Schema::Make(0, {Column(1, "id", Type::Long()), Column(2, "ts", Type::Timestamp()),
                                  Column(3, "city", Type::String()), Column(4, "amount", Type::Double()),
                                  Column(5, "note", Type::String())})
                     .value();
    def.partition_spec.fields.push_back({{2}, 1000, "ts_day", Transform::Day()});
    def.location = "mem://bench/t";
    TableMetadata metadata = NewTableMetadata(def).value();
    const Schema& schema = *metadata.current_schema();
    const PartitionSpec& spec = *metadata.default_spec();
    const int64_t snapshot_id = 1;
    std::vector<ManifestFile> list;
    for (int m = 0; m < manifests; ++m) {
      const std::string path = StrCat("mem://bench/t/metadata/m", m, ".avro");
      auto writer = ManifestWriter::Open(*t->io, path, 2, spec, schema, snapshot_id, ManifestContent::kData).value();
      for (int f = 0; f < kFilesPerManifest; ++f) {
        ManifestEntry e;
        DataFile& d = e.data_file;
        d.file_path = StrCat("mem://bench/t/data/ts_day=", m, "/", f, ".parquet");
        d.partition = {Literal::Date(kFirstDay + m)};
        d.record_count = 10000;
        d.file_size_in_bytes = 1 << 20;
        const int64_t day_us = int64_t{kFirstDay + m} * 86'400'000'000LL;
        for (int32_t c = 1; c <= 5; ++c) {
          d.column_sizes[c] = 100000;
          d.value_counts[c] = 10000;
          d.null_value_counts[c] = 0;
        }
        d.lower_bounds[1] = Literal::Long(int64_t{m} * 10'000'000 + f * 10000).ToBytes();
        d.upper_bounds[1] = Literal::Long(int64_t{m} * 10'000'000 + f * 10000 + 9999).ToBytes();
        d.lower_bounds[2] = Literal::Timestamp(day_us + int64_t{f} * 86'400'000).ToBytes();
        d.upper_bounds[2] = Literal::Timestamp(day_us + int64_t{f + 1} * 86'400'000 - 1).ToBytes();
        d.lower_bounds[3] = "Aveiro";
        d.upper_bounds[3] = "Valencia";
        (void)writer->Add(e);
      }
      list.push_back(writer->Close().value());
    }
    auto list_writer = ManifestListWriter::Open(*t->io, "mem://bench/t/metadata/snap-1.avro", 2, snapshot_id,
                                                std::nullopt, 1)
                           .value();
    for (const auto& m : list) (void)list_writer->Add(m);
    (void)list_writer->Close();
    Snapshot snapshot;
    snapshot.snapshot_id = snapshot_id;
    snapshot.sequence_number = 1;
    snapshot.timestamp_ms = 1;
    snapshot.manifest_list = "mem://bench/t/metadata/snap-1.avro";
    snapshot.operation = "append";
    snapshot.schema_id = 0;
    SnapshotRef main;
    main.snapshot_id = snapshot_id;
    t->metadata = std::make_shared<const TableMetadata>(
        ApplyTableChanges(&metadata, {}, {AddSnapshot{snapshot}, SetSnapshotRef{"main", main}}).value());
    return t;
  }();
  return *table;
}

void Plan(benchmark::State& state, const std::string& where) {
  const SyntheticTable& t = Table();
  int64_t planned = 0;
  for (auto _ : state) {
    TableScanOptions options;
    options.threads = 1;
    if (!where.empty()) options.filter = ParseExpression(where).value();
    auto scan = TableScan::Make(t.io, t.metadata, options).value();
    auto tasks = scan->PlanFiles();
    if (!tasks.ok()) state.SkipWithError(tasks.status().ToString().c_str());
    planned = tasks.ok() ? static_cast<int64_t>(tasks->size()) : 0;
    benchmark::DoNotOptimize(planned);
  }
  state.counters["table_files"] = static_cast<double>(t.files);
  state.counters["planned_files"] = static_cast<double>(planned);
}

void BM_PlanOnePartition(benchmark::State& state) {
  // One day, and an hour of it: manifests pruned by summaries, files by metrics.
  const int32_t day = kFirstDay + static_cast<int32_t>(Table().files / kFilesPerManifest / 2);
  const std::string date = Literal::Date(day).ToString();
  Plan(state, StrCat("ts >= '", date, "T20:00:00' and ts < '", date, "T21:00:00'"));
}

void BM_ListAllFiles(benchmark::State& state) {
  Plan(state, "");
  state.counters["entries_per_s"] =
      benchmark::Counter(static_cast<double>(Table().files), benchmark::Counter::kIsIterationInvariantRate);
}

// The floor of listing: decoding every entry of every manifest (no
// statistics, as an unfiltered plan reads them), building no tasks.
void BM_DecodeAllEntries(benchmark::State& state) {
  const SyntheticTable& t = Table();
  for (auto _ : state) {
    auto manifests = ReadManifestList(*t.io, t.metadata->current_snapshot()->manifest_list).value();
    int64_t entries = 0;
    ManifestReaderOptions options;
    options.read_stats = false;
    ManifestEntry entry;
    for (const auto& m : manifests) {
      auto reader = ManifestReader::Open(*t.io, m, options).value();
      while (reader->Next(&entry).value()) ++entries;
    }
    benchmark::DoNotOptimize(entries);
  }
  state.counters["entries_per_s"] =
      benchmark::Counter(static_cast<double>(Table().files), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ListAllFilesTwoThreads(benchmark::State& state) {
  const SyntheticTable& t = Table();
  for (auto _ : state) {
    TableScanOptions options;
    options.threads = 2;
    auto scan = TableScan::Make(t.io, t.metadata, options).value();
    auto tasks = scan->PlanFiles();
    if (!tasks.ok()) state.SkipWithError(tasks.status().ToString().c_str());
    benchmark::DoNotOptimize(tasks);
  }
  state.counters["entries_per_s"] =
      benchmark::Counter(static_cast<double>(Table().files), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_PlanOnePartition)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ListAllFiles)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ListAllFilesTwoThreads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DecodeAllEntries)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace floe::iceberg

BENCHMARK_MAIN();
