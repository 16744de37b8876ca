// Commit latency and metadata bytes per commit: a fast append of one data
// file to a table that already has N data manifests (N = 10, 100, 1000; each
// earlier append added one), on memory storage with a compare-and-swap
// pointer, so what is timed is floe's commit path — reading the parent's
// manifest list, writing the new manifest, manifest list and metadata JSON
// — not a catalog or a disk. Merging is off (`commit.manifest-merge.enabled`
// false), so the manifest count stays N. Counters: metadata_bytes (all
// bytes the commit wrote) and manifest_list_bytes.

#include <benchmark/benchmark.h>

#include <mutex>

#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/io/tracing_file_io.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/new_table_metadata.h"
#include "floe/iceberg/table.h"
#include "floe/iceberg/table_operations.h"

namespace floe::iceberg {
namespace {

// The table's pointer in memory; metadata files through the given FileIO.
class PointerOps final : public TableOperations {
 public:
  PointerOps(std::shared_ptr<FileIO> io, TableMetadata initial) : io_(std::move(io)) {
    state_.metadata = std::make_shared<const TableMetadata>(std::move(initial));
    state_.metadata_location = Location(*state_.metadata);
    (void)WriteTableMetadata(*io_, state_.metadata_location, *state_.metadata);
  }
  Result<TableState> Refresh() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return state_;
  }
  Result<TableState> Commit(const TableState& base, const TableMetadata& updated) override {
    const std::string location = Location(updated);
    FLOE_RETURN_IF_ERROR(WriteTableMetadata(*io_, location, updated));
    std::lock_guard<std::mutex> lock(mutex_);
    if (base.metadata_location != state_.metadata_location) return Status::CommitConflict("pointer moved");
    state_.metadata = std::make_shared<const TableMetadata>(updated);
    state_.metadata_location = location;
    return state_;
  }
  FileIO& io() override { return *io_; }
  std::string name() const override { return "bench.commit"; }

 private:
  std::string Location(const TableMetadata& m) {
    return StrCat(m.location, "/metadata/", counter_++, "-", RandomUuid(), ".metadata.json");
  }
  std::shared_ptr<FileIO> io_;
  std::mutex mutex_;
  TableState state_;
  int counter_ = 0;
};

NestedField Column(int32_t id, const char* name, TypePtr type) {
  NestedField f;
  f.field_id = id;
  f.name = name;
  f.type = std::move(type);
  return f;
}

DataFile File(int64_t n) {
  DataFile d;
  d.file_path = StrCat("mem://bench/c/data/", n, ".parquet");
  d.record_count = 10000;
  d.file_size_in_bytes = 1 << 20;
  for (int32_t c = 1; c <= 3; ++c) {
    d.column_sizes[c] = 100000;
    d.value_counts[c] = 10000;
    d.null_value_counts[c] = 0;
  }
  d.lower_bounds[1] = Literal::Long(n * 10000).ToBytes();
  d.upper_bounds[1] = Literal::Long(n * 10000 + 9999).ToBytes();
  return d;
}

void BM_AppendCommit(benchmark::State& state) {
  const int64_t existing = state.range(0);
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewMemoryFileIO(), trace);
  TableDefinition def;
  def.schema = Schema::Make(0, {Column(1, "id", Type::Long()), Column(2, "city", Type::String()),
                                Column(3, "amount", Type::Double())})
                   .value();
  def.location = "mem://bench/c";
  def.properties = {{"commit.manifest-merge.enabled", "false"}};
  Table table(std::make_shared<PointerOps>(io, NewTableMetadata(def).value()));
  int64_t next = 0;
  for (; next < existing; ++next) {
    auto r = table.AppendFiles({File(next)});
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      return;
    }
  }
  int64_t commits = 0, bytes = 0, list_bytes = 0;
  for (auto _ : state) {
    trace->Clear();
    auto r = table.AppendFiles({File(next++)});
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      return;
    }
    ++commits;
    for (const auto& request : trace->requests()) {
      if (request.method != "PUT") continue;
      bytes += request.bytes;
      if (request.path.find("/snap-") != std::string::npos) list_bytes += request.bytes;
    }
  }
  state.counters["manifests"] = static_cast<double>(next);
  state.counters["metadata_bytes"] = static_cast<double>(bytes) / static_cast<double>(std::max<int64_t>(commits, 1));
  state.counters["manifest_list_bytes"] =
      static_cast<double>(list_bytes) / static_cast<double>(std::max<int64_t>(commits, 1));
}

BENCHMARK(BM_AppendCommit)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace floe::iceberg

BENCHMARK_MAIN();
