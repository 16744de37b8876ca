// Parquet footer decoding speed: DecodeFileMetaData on a large footer
// (~1 MB: 100 row groups x 100 columns, every chunk with the fields a
// writer such as floe, DuckDB or parquet-mr sets: encodings, statistics
// with min/max, encoding stats, page index offsets, size statistics).
//
// Two benchmarks in the same process, so their ratio holds under the
// machine's noise:
//  - BM_DecodeFooter: the full decode into FileMetaData;
//  - BM_SkipFooter: a bare walk that skips the whole struct (the wire's
//    parsing cost alone, the floor for any decoder on this machine).
// Bytes per second are footer bytes. The heap is set to keep freed memory
// (see kKeepHeap below). The footer is also written to
// $FLOE_BENCH_FOOTER_FILE (when set) as a Parquet file with no data pages,
// so that a peer can parse the same footer (bench/parquet-footer-vs-duckdb.sh).
//
//   build/release/bench/parquet_footer_bench

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/thrift_compact.h"

namespace floe::parquet {
namespace {

// A decoded footer is ~6 MB of structs in a few hundred blocks. Freed, they
// leave a free top of the heap larger than glibc's trim threshold (128 KiB),
// so glibc returns it to the kernel after every iteration and the next
// decode takes ~1,600 page faults: the benchmark would time the kernel's
// clear_page, not the decoder. A process that reads files keeps its heap
// warm; so does this one. FLOE_BENCH_DEFAULT_HEAP=1 keeps glibc's default.
[[maybe_unused]] const bool kKeepHeap = [] {
  if (std::getenv("FLOE_BENCH_DEFAULT_HEAP") == nullptr) mallopt(M_TRIM_THRESHOLD, 256 << 20);
  return true;
}();

constexpr int kRowGroups = 100;
constexpr int kColumns = 100;
constexpr int64_t kRowsPerGroup = 122880;

std::string Plain64(int64_t v) {
  std::string s(8, '\0');
  std::memcpy(s.data(), &v, 8);
  return s;
}

FileMetaData MakeFooter() {
  FileMetaData m;
  m.version = 2;
  m.created_by = "floe version 0.1.0 (bench)";
  SchemaElement root;
  root.name = "schema";
  root.num_children = kColumns;
  m.schema.push_back(root);
  for (int c = 0; c < kColumns; ++c) {
    SchemaElement el;
    el.name = "column_" + std::to_string(c);
    el.repetition_type = FieldRepetitionType::OPTIONAL;
    el.field_id = c + 1;
    if (c % 4 == 3) {
      el.type = Type::BYTE_ARRAY;
      el.logicalType = StringType{};
      el.converted_type = ConvertedType::UTF8;
    } else {
      el.type = c % 4 == 2 ? Type::DOUBLE : Type::INT64;
    }
    m.schema.push_back(el);
  }
  int64_t offset = 4;
  for (int g = 0; g < kRowGroups; ++g) {
    RowGroup rg;
    rg.num_rows = kRowsPerGroup;
    rg.file_offset = offset;
    rg.ordinal = static_cast<int16_t>(g);
    for (int c = 0; c < kColumns; ++c) {
      const SchemaElement& el = m.schema[static_cast<size_t>(c) + 1];
      ColumnChunk cc;
      ColumnMetaData md;
      md.type = *el.type;
      md.encodings = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY};
      md.path_in_schema = {el.name};
      md.codec = CompressionCodec::ZSTD;
      md.num_values = kRowsPerGroup;
      md.total_uncompressed_size = 983'040 + c;
      md.total_compressed_size = 412'345 + c * 7;
      md.dictionary_page_offset = offset;
      md.data_page_offset = offset + 40'000;
      Statistics st;
      st.null_count = g * 3 + c;
      if (md.type == Type::BYTE_ARRAY) {
        st.min_value = "amsterdam-" + std::to_string(g);
        st.max_value = "zurich-" + std::to_string(c);
      } else {
        st.min_value = Plain64(int64_t{g} * kRowsPerGroup);
        st.max_value = Plain64(int64_t{g + 1} * kRowsPerGroup - 1);
      }
      st.is_min_value_exact = true;
      st.is_max_value_exact = true;
      md.statistics = st;
      md.encoding_stats = std::vector<PageEncodingStats>{{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1},
                                                         {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 7}};
      SizeStatistics ss;
      if (md.type == Type::BYTE_ARRAY) ss.unencoded_byte_array_data_bytes = 1'500'000 + c;
      ss.definition_level_histogram = std::vector<int64_t>{st.null_count.value_or(0), kRowsPerGroup};
      md.size_statistics = ss;
      cc.file_offset = offset;
      cc.meta_data = std::move(md);
      cc.offset_index_offset = 400'000'000 + offset;
      cc.offset_index_length = 57;
      cc.column_index_offset = 300'000'000 + offset;
      cc.column_index_length = 121;
      offset += 412'345 + c * 7;
      rg.columns.push_back(std::move(cc));
    }
    rg.total_byte_size = 98'304'000;
    rg.total_compressed_size = 41'234'500;
    m.row_groups.push_back(std::move(rg));
  }
  m.num_rows = kRowGroups * kRowsPerGroup;
  m.key_value_metadata = std::vector<KeyValue>{{"iceberg.schema", std::string(2000, 'j')}};
  return m;
}

const std::string& Footer() {
  static const std::string* footer = [] {
    auto* s = new std::string;
    if (!EncodeFileMetaData(MakeFooter(), s).ok()) std::abort();
    if (const char* path = std::getenv("FLOE_BENCH_FOOTER_FILE")) {
      // "PAR1", the footer, its length and "PAR1": a file without data
      // pages, enough for a footer parser.
      FILE* f = std::fopen(path, "wb");
      if (f == nullptr) std::abort();
      const auto len = static_cast<uint32_t>(s->size());
      std::fwrite("PAR1", 1, 4, f);
      std::fwrite(s->data(), 1, s->size(), f);
      std::fwrite(&len, 1, 4, f);
      std::fwrite("PAR1", 1, 4, f);
      std::fclose(f);
    }
    return s;
  }();
  return *footer;
}

std::span<const uint8_t> FooterBytes() {
  const std::string& s = Footer();
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

void BM_DecodeFooter(benchmark::State& state) {
  const auto bytes = FooterBytes();
  for (auto _ : state) {
    auto m = DecodeFileMetaData(bytes);
    if (!m.ok()) {
      state.SkipWithError(m.status().ToString().c_str());
      return;
    }
    benchmark::DoNotOptimize(m->row_groups.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
  state.counters["footer_bytes"] = static_cast<double>(bytes.size());
}

void BM_SkipFooter(benchmark::State& state) {
  const auto bytes = FooterBytes();
  for (auto _ : state) {
    ThriftCompactReader r(bytes);
    if (!r.SkipElement(CompactType::kStruct)) {
      state.SkipWithError(r.status().ToString().c_str());
      return;
    }
    benchmark::DoNotOptimize(r.position());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes.size()));
}

// Run with --benchmark_enable_random_interleaving=true (bench/run.sh does not)
// to interleave repetitions of the two, so that both see the same load.
BENCHMARK(BM_DecodeFooter)->Unit(benchmark::kMicrosecond)->Repetitions(3)->ReportAggregatesOnly(false);
BENCHMARK(BM_SkipFooter)->Unit(benchmark::kMicrosecond)->Repetitions(3)->ReportAggregatesOnly(false);

}  // namespace
}  // namespace floe::parquet

BENCHMARK_MAIN();
