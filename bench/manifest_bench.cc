// Manifest reading speed: entries per second through ManifestReader's typed
// path (with and without column stats) against the generic Avro Datum read
// of the same bytes, for deflate (the Java/PyIceberg default) and
// uncompressed files. Entries look like a Spark table's: a day partition and
// metrics for 10 columns in 5 maps (~170 values each). The planning goal is
// listing >= 1 M entries/s on one core.

#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "floe/formats/avro/container_reader.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/manifest_writer.h"
#include "floe/io/file_io.h"

namespace floe::iceberg {
namespace {

constexpr int kEntries = 100000;

FileIO& Io() {
  static std::shared_ptr<FileIO> io = NewMemoryFileIO();
  return *io;
}

std::string Path(avro::BlockCodec codec) { return "mem://bench/" + std::string(avro::BlockCodecName(codec)) + ".avro"; }

// Writes the benchmark manifest once per codec and returns its row.
const ManifestFile& Manifest(FileIO& io, avro::BlockCodec codec) {
  static std::map<avro::BlockCodec, ManifestFile> written;
  auto it = written.find(codec);
  if (it != written.end()) return it->second;
  NestedField ts{1, "ts", Type::Date(), false, {}, {}, {}};
  std::vector<NestedField> columns = {ts};
  for (int c = 2; c <= 10; ++c) columns.push_back({c, "c" + std::to_string(c), Type::Long(), false, {}, {}, {}});
  const Schema schema = Schema::Make(0, columns).value();
  PartitionSpec spec;
  spec.fields = {PartitionField{{1}, 1000, "ts_day", Transform::Day()}};
  ManifestWriteOptions options;
  options.codec = codec;
  auto w = ManifestWriter::Open(io, Path(codec), 2, spec, schema, 5470601323427916272, ManifestContent::kData, options)
               .value();
  for (int i = 0; i < kEntries; ++i) {
    ManifestEntry e;
    DataFile& f = e.data_file;
    f.file_path = "s3://bucket/warehouse/db/t/data/ts_day=2026-10-21/00000-" + std::to_string(i) + ".parquet";
    f.partition = {Literal::Date(20747 + i % 30)};
    f.record_count = 125000;
    f.file_size_in_bytes = 8 << 20;
    for (int c = 1; c <= 10; ++c) {
      f.column_sizes[c] = int64_t{i} * c;
      f.value_counts[c] = 125000;
      f.null_value_counts[c] = 0;
      f.lower_bounds[c] = std::string(8, static_cast<char>('a' + c));
      f.upper_bounds[c] = std::string(8, static_cast<char>('k' + c));
    }
    f.split_offsets = {4};
    (void)w->Add(e);
  }
  return written[codec] = w->Close().value();
}

void BM_ManifestRead(benchmark::State& state) {
  FileIO* io = &Io();
  const bool stats = state.range(0) != 0;
  const auto codec = static_cast<avro::BlockCodec>(state.range(1));
  ManifestFile m = Manifest(*io, codec);
  m.sequence_number = 1;
  ManifestReaderOptions options;
  options.read_stats = stats;
  for (auto _ : state) {
    auto reader = ManifestReader::Open(*io, m, options).value();
    ManifestEntry entry;
    int64_t n = 0;
    while (*reader->Next(&entry)) ++n;
    if (n != kEntries) state.SkipWithError("entry count");
    benchmark::DoNotOptimize(entry);
  }
  state.SetItemsProcessed(state.iterations() * kEntries);
  state.SetBytesProcessed(state.iterations() * m.manifest_length);
  state.SetLabel(std::string(avro::BlockCodecName(codec)) + (stats ? ", stats" : ", no stats"));
}

// The same bytes through the generic Datum reader (the path before the
// typed one): the baseline for the ratio.
void BM_ManifestReadGenericDatum(benchmark::State& state) {
  FileIO* io = &Io();
  const auto codec = static_cast<avro::BlockCodec>(state.range(0));
  const ManifestFile& m = Manifest(*io, codec);
  for (auto _ : state) {
    auto reader = avro::ContainerReader::Open(*io, m.manifest_path).value();
    avro::Datum row;
    int64_t n = 0;
    while (*reader->Next(&row)) ++n;
    if (n != kEntries) state.SkipWithError("entry count");
  }
  state.SetItemsProcessed(state.iterations() * kEntries);
  state.SetLabel(std::string(avro::BlockCodecName(codec)) + ", generic");
}

constexpr int64_t kNull = static_cast<int64_t>(avro::BlockCodec::kNull);
constexpr int64_t kDeflate = static_cast<int64_t>(avro::BlockCodec::kDeflate);

BENCHMARK(BM_ManifestRead)
    ->Args({1, kDeflate})
    ->Args({0, kDeflate})
    ->Args({1, kNull})
    ->Args({0, kNull})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ManifestReadGenericDatum)->Arg(kDeflate)->Arg(kNull)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace floe::iceberg

BENCHMARK_MAIN();
