// Commit latency and metadata bytes per commit: a fast append of one data
// file to a table that already has N data manifests (N = 10, 100, 1000; each
// earlier append added one), on memory storage with a compare-and-swap
// pointer, so what is timed is floe's commit path — reading the parent's
// manifest list, writing the new manifest, manifest list and metadata JSON
// — not a catalog or a disk. Merging is off (`commit.manifest-merge.enabled`
// false), so the manifest count stays N. Counters: metadata_bytes (all
// bytes the commit wrote) and manifest_list_bytes.
//
// BM_AppendRowsLocal: what durability costs on local disk. One Table::Append
// of 1000 rows in F partitions (F = 1, 16 data files) to a table in a
// folder under $TMPDIR, the pointer swapped in memory after the metadata
// JSON is written durable. Mode 0 skips FileIO::MakeDurable (what floe did
// before: data, manifests and list never fsynced), mode 1 is the commit's
// one parallel MakeDurable before the swap, mode 2 instead writes every
// file with WriteOptions::durable (fsync of the file and its folder in
// Close, one after another as the writer closes them).

#include <benchmark/benchmark.h>

#include <stdlib.h>

#include <filesystem>
#include <mutex>

#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
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

// Mode 0: MakeDurable does nothing; mode 2: every write durable at Close.
class DurabilityModeFileIO final : public FileIO {
 public:
  DurabilityModeFileIO(std::shared_ptr<FileIO> base, int mode) : base_(std::move(base)), mode_(mode) {}
  std::string_view scheme() const override { return base_->scheme(); }
  Result<FileInfo> Stat(const std::string& path) override { return base_->Stat(path); }
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path,
                                                     const OpenReadOptions& options) override {
    return base_->OpenRead(path, options);
  }
  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options) override {
    WriteOptions o = options;
    if (mode_ == 2) o.durable = true;
    return base_->OpenWrite(path, o);
  }
  Status Delete(const std::string& path) override { return base_->Delete(path); }
  Result<ListPage> List(const std::string& prefix, const ListOptions& options) override {
    return base_->List(prefix, options);
  }
  Status MakeDurable(std::span<const std::string> paths) override {
    return mode_ == 1 ? base_->MakeDurable(paths) : Status::OK();
  }

 private:
  std::shared_ptr<FileIO> base_;
  int mode_;
};

void BM_AppendRowsLocal(benchmark::State& state) {
  const int64_t partitions = state.range(0);
  const int mode = static_cast<int>(state.range(1));
  const char* tmp = std::getenv("TMPDIR");
  std::string root = StrCat(tmp != nullptr ? tmp : "/tmp", "/floe-commit-bench-XXXXXX");
  if (::mkdtemp(root.data()) == nullptr) {
    state.SkipWithError("mkdtemp failed");
    return;
  }
  auto io = std::make_shared<DurabilityModeFileIO>(NewLocalFileIO(), mode);
  TableDefinition def;
  def.schema = Schema::Make(0, {Column(1, "id", Type::Long()), Column(2, "region", Type::String())}).value();
  def.partition_spec.fields.push_back(PartitionField{{2}, 1000, "region", Transform::Identity()});
  def.location = root + "/t";
  def.properties = {{"commit.manifest-merge.enabled", "false"}};
  Table table(std::make_shared<PointerOps>(io, NewTableMetadata(def).value()));
  auto schema = table.WriteSchema().value();
  int64_t next_id = 0;
  auto source = [&]() -> BatchSource {
    auto done = std::make_shared<bool>(false);
    return [&, done]() -> Result<std::optional<RecordBatch>> {
      if (*done) return std::optional<RecordBatch>();
      *done = true;
      Int64Builder ids;
      StringBuilder regions;
      for (int i = 0; i < 1000; ++i) {
        FLOE_RETURN_IF_ERROR(ids.Append(next_id++));
        FLOE_RETURN_IF_ERROR(regions.Append(StrCat("r", i % partitions)));
      }
      FLOE_ASSIGN_OR_RETURN(auto id_array, ids.Finish());
      FLOE_ASSIGN_OR_RETURN(auto region_array, regions.Finish());
      FLOE_ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema, {std::move(id_array), std::move(region_array)}));
      return std::optional<RecordBatch>(std::move(batch));
    };
  };
  // The partition folders exist from here on, as in a table's steady state.
  if (auto r = table.Append(source()); !r.ok()) {
    state.SkipWithError(r.status().ToString().c_str());
    return;
  }
  for (auto _ : state) {
    auto r = table.Append(source());
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      break;
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
}

BENCHMARK(BM_AppendRowsLocal)
    ->ArgNames({"files", "mode"})
    ->ArgsProduct({{1, 16}, {0, 1, 2}})
    ->Iterations(150)  // the same history (metadata JSON size) for every mode
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace floe::iceberg

BENCHMARK_MAIN();
