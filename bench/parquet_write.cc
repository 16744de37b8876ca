// floe's side of bench/parquet-write-vs-duckdb.sh.
//
//   floe_parquet_write write SRC OUT CODEC ROW_GROUP_ROWS RUNS [PAGE_ROWS]
//       reads SRC (a Parquet file DuckDB generated) into memory, untimed, then
//       writes it RUNS times to OUT with floe's defaults but CODEC (its
//       default level) and ROW_GROUP_ROWS; prints "<best wall ms> <best cpu ms>",
//       the CPU time being this process's (user + system) around one write:
//       Open, every Write, Close. PAGE_ROWS, when given, cuts pages by that
//       many rows alone (the byte limit raised to 1 GiB): PAGE_ROWS =
//       ROW_GROUP_ROWS writes one page per row group, DuckDB's layout.
//   floe_parquet_write describe FILE
//       prints what FILE holds, one line: row groups, data pages, encodings,
//       whether pages carry a CRC, whether chunks have a column and an offset
//       index, whether statistics have min/max, the file size. The script
//       prints it for floe's and DuckDB's file, to show what each writes.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/base/strings.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/io/file_io.h"

namespace floe {
namespace {

double CpuMs() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  const auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; };
  return ms(u.ru_utime) + ms(u.ru_stime);
}

Status Write(const std::string& src, const std::string& out, const std::string& codec_name, int64_t row_group_rows,
             int runs, std::optional<int64_t> page_rows) {
  auto io = NewLocalFileIO();
  FLOE_ASSIGN_OR_RETURN(auto opened, parquet::ParquetFileReader::Open(io, src));
  std::shared_ptr<const parquet::ParquetFileReader> file(std::move(opened));
  FLOE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetRecordBatchReader::Make(file, {}));
  std::vector<RecordBatch> batches;
  std::shared_ptr<const Schema> schema;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader->Next());
    if (!batch) break;
    schema = batch->schema_ptr();
    batches.push_back(std::move(*batch));
  }
  if (schema == nullptr) return Status::InvalidArgument(StrCat(Quote(src), " has no rows"));
  parquet::WriterOptions options;
  FLOE_ASSIGN_OR_RETURN(options.codec, compression::CodecFromName(codec_name));
  options.row_group_rows = row_group_rows;
  if (page_rows) {
    options.page_rows = *page_rows;
    options.page_bytes = int64_t{1} << 30;  // below the writer's 2 GiB page limit
  }
  double best_wall = 1e300;
  double best_cpu = 1e300;
  for (int r = 0; r < runs; ++r) {
    const double cpu = CpuMs();
    const auto start = std::chrono::steady_clock::now();
    FLOE_ASSIGN_OR_RETURN(auto writer, parquet::ParquetFileWriter::Open(io, out, schema, options));
    for (const RecordBatch& b : batches) FLOE_RETURN_IF_ERROR(writer->Write(b));
    FLOE_RETURN_IF_ERROR(writer->Close().status());
    best_wall = std::min(best_wall, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    best_cpu = std::min(best_cpu, CpuMs() - cpu);
  }
  std::printf("%.3f %.3f\n", best_wall, best_cpu);
  return Status::OK();
}

Status Describe(const std::string& path) {
  auto io = NewLocalFileIO();
  FLOE_ASSIGN_OR_RETURN(Buffer bytes, io->ReadAll(path));
  FLOE_ASSIGN_OR_RETURN(auto file, parquet::ParquetFileReader::Open(io, path));
  const parquet::FileMetaData& m = file->metadata();
  int64_t pages = 0;
  int64_t crc_pages = 0;
  int64_t dictionary_pages = 0;
  int64_t chunks = 0;
  int64_t column_indexes = 0;
  int64_t offset_indexes = 0;
  int64_t stats = 0;
  std::set<std::string> encodings;
  const std::span<const uint8_t> all(bytes.data(), static_cast<size_t>(bytes.size()));
  for (const parquet::RowGroup& rg : m.row_groups) {
    for (const parquet::ColumnChunk& c : rg.columns) {
      ++chunks;
      column_indexes += c.column_index_offset.has_value();
      offset_indexes += c.offset_index_offset.has_value();
      const parquet::ColumnMetaData& cm = *c.meta_data;
      stats += cm.statistics && cm.statistics->min_value && cm.statistics->max_value;
      int64_t pos = cm.dictionary_page_offset.value_or(cm.data_page_offset);
      const int64_t end = pos + cm.total_compressed_size;
      while (pos < end) {
        size_t used = 0;
        FLOE_ASSIGN_OR_RETURN(parquet::PageHeader h, parquet::DecodePageHeader(all.subspan(static_cast<size_t>(pos)), &used));
        crc_pages += h.crc.has_value();
        if (h.type == parquet::PageType::DICTIONARY_PAGE) {
          ++dictionary_pages;
        } else {
          ++pages;
          if (h.data_page_header) encodings.insert(std::string(parquet::EncodingName(h.data_page_header->encoding)));
          if (h.data_page_header_v2) encodings.insert(std::string(parquet::EncodingName(h.data_page_header_v2->encoding)));
        }
        pos += static_cast<int64_t>(used) + h.compressed_page_size;
      }
    }
  }
  std::string list;
  for (const auto& e : encodings) list += (list.empty() ? "" : "+") + e;
  std::printf("row_groups=%zu data_pages=%lld dictionary_pages=%lld encodings=%s crc=%lld/%lld column_index=%lld/%lld "
              "offset_index=%lld/%lld min_max=%lld/%lld bytes=%lld\n",
              m.row_groups.size(), static_cast<long long>(pages), static_cast<long long>(dictionary_pages), list.c_str(),
              static_cast<long long>(crc_pages), static_cast<long long>(pages + dictionary_pages),
              static_cast<long long>(column_indexes), static_cast<long long>(chunks),
              static_cast<long long>(offset_indexes), static_cast<long long>(chunks), static_cast<long long>(stats),
              static_cast<long long>(chunks), static_cast<long long>(bytes.size()));
  return Status::OK();
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  floe::Status st;
  if (command == "write" && (argc == 7 || argc == 8)) {
    std::optional<int64_t> page_rows;
    if (argc == 8) page_rows = std::max<int64_t>(1, std::atoll(argv[7]));
    st = floe::Write(argv[2], argv[3], argv[4], std::atoll(argv[5]), std::max(1, std::atoi(argv[6])), page_rows);
  } else if (command == "describe" && argc == 3) {
    st = floe::Describe(argv[2]);
  } else {
    std::fprintf(stderr, "usage: %s write SRC OUT CODEC ROW_GROUP_ROWS RUNS [PAGE_ROWS] | describe FILE\n", argv[0]);
    return 2;
  }
  if (!st.ok()) {
    std::fprintf(stderr, "floe_parquet_write: %s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
