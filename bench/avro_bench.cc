// Avro container reading speed on Iceberg-like manifest entries (a data
// file with 10 columns of metrics maps), deflate-compressed, from memory:
// entries per second for a generic read and for a read by field id into a
// reader schema. The issue's planning goal is listing >= 1 M entries/s.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "floe/formats/avro/container_reader.h"
#include "floe/formats/avro/container_writer.h"
#include "floe/io/file_io.h"

namespace floe::avro {
namespace {

std::string MetricsField(const char* name, int id, int key_id, const char* value_type) {
  return std::string(R"({"name":")") + name + R"(","type":["null",{"type":"array","logicalType":"map","items":{"type":"record","name":"k)" +
         std::to_string(key_id) + "_v" + std::to_string(key_id + 1) + R"(","fields":[{"name":"key","type":"int","field-id":)" +
         std::to_string(key_id) + R"(},{"name":"value","type":")" + value_type + R"(","field-id":)" + std::to_string(key_id + 1) +
         R"(}]}}],"default":null,"field-id":)" + std::to_string(id) + "}";
}

std::string EntrySchema() {
  return R"({"type":"record","name":"manifest_entry","fields":[{"name":"status","type":"int","field-id":0},
    {"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},
    {"name":"sequence_number","type":["null","long"],"default":null,"field-id":3},
    {"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
      {"name":"content","type":"int","field-id":134},
      {"name":"file_path","type":"string","field-id":100},
      {"name":"file_format","type":"string","field-id":101},
      {"name":"partition","type":{"type":"record","name":"r102","fields":[{"name":"day","type":["null","int"],"field-id":1000}]},"field-id":102},
      {"name":"record_count","type":"long","field-id":103},
      {"name":"file_size_in_bytes","type":"long","field-id":104},)" +
         MetricsField("column_sizes", 108, 117, "long") + "," + MetricsField("value_counts", 109, 119, "long") + "," +
         MetricsField("null_value_counts", 110, 121, "long") + "," + MetricsField("lower_bounds", 125, 126, "bytes") + "," +
         MetricsField("upper_bounds", 128, 129, "bytes") +
         R"(,{"name":"split_offsets","type":["null",{"type":"array","items":"long","element-id":133}],"default":null,"field-id":132}]}}]})";
}

Datum Metrics(int columns, bool bytes, int64_t seed) {
  std::vector<Datum> kv;
  for (int c = 1; c <= columns; ++c) {
    kv.push_back(Datum::Record({Datum::Int(c), bytes ? Datum::Bytes(std::string(8, static_cast<char>('a' + c))) : Datum::Long(seed * c)}));
  }
  return Datum::Array(std::move(kv));
}

const std::string& ManifestBytes(int entries) {
  static std::string bytes;
  if (!bytes.empty()) return bytes;
  auto io = NewMemoryFileIO();
  auto schema = Schema::Parse(EntrySchema());
  auto writer = ContainerWriter::Open(*io->OpenWrite("mem://bench/m.avro"), *schema);
  for (int i = 0; i < entries; ++i) {
    Datum row = Datum::Record({Datum::Int(1), Datum::Long(5470601323427916272), Datum::Null(),
        Datum::Record({Datum::Int(0), Datum::String("s3://bucket/warehouse/db/t/data/day=2026-10-21/00000-" + std::to_string(i) + ".parquet"),
                       Datum::String("PARQUET"), Datum::Record({Datum::Int(20747)}), Datum::Long(125000), Datum::Long(8 << 20),
                       Metrics(10, false, i), Metrics(10, false, i), Metrics(10, false, 0), Metrics(10, true, i), Metrics(10, true, i),
                       Datum::Array({Datum::Long(4)})})});
    (void)(*writer)->Append(row);
  }
  (void)(*writer)->Close();
  bytes = std::string((*io->ReadAll("mem://bench/m.avro")).view());
  return bytes;
}

void Read(benchmark::State& state, bool resolve) {
  constexpr int kEntries = 20000;
  const std::string& bytes = ManifestBytes(kEntries);
  auto io = NewMemoryFileIO();
  (void)io->WriteAll("mem://bench/m.avro", bytes);
  auto reader_schema = *Schema::Parse(EntrySchema());
  for (auto _ : state) {
    auto reader = ContainerReader::Open(*io, "mem://bench/m.avro");
    if (resolve) (void)(*reader)->SetReaderSchema(reader_schema);
    Datum row;
    int64_t n = 0;
    while (*(*reader)->Next(&row)) ++n;
    if (n != kEntries) state.SkipWithError("row count");
  }
  state.SetItemsProcessed(state.iterations() * kEntries);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
}

void BM_AvroReadManifestEntriesGeneric(benchmark::State& state) { Read(state, false); }
void BM_AvroReadManifestEntriesByFieldId(benchmark::State& state) { Read(state, true); }
BENCHMARK(BM_AvroReadManifestEntriesGeneric)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AvroReadManifestEntriesByFieldId)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace floe::avro

BENCHMARK_MAIN();
