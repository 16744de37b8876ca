// The codec limit of a Parquet column for bench/parquet-vs-duckdb.sh: how
// fast one core decompresses the column's pages alone, from memory, with
// floe's codec calls and nothing else (no I/O, no page decoding, no
// aggregation). The scan's time over this time is the share of the scan the
// codec takes; the goal is a compressed scan at >= 70 % of the codec
// limit, i.e. codec time / scan time >= 0.70.
//
// Usage: floe_parquet_codec_limit FILE COLUMN RUNS
// Output: "<best cpu ms> <uncompressed bytes> <compressed bytes> <codec>
// <dictionary|plain>", the last word saying whether most data pages are
// dictionary-encoded (their bytes are short indices, so the codec is a small
// part of any scan of them). Every page of every row group of COLUMN is read
// into memory first. Each run copies each page's compressed bytes into a
// reused input buffer, untimed, then times only the codec call, which
// decompresses into one reused output buffer: in a scan the compressed bytes
// are in cache because the read just wrote them there, and timing the call
// on input that waits on DRAM would overstate the codec's share by ~10 %
// (double.zstd: 214 ms cold, 195 ms hot). Data page v2 levels are stored
// uncompressed and are not counted.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "floe/formats/compression/codec.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/io/file_io.h"

namespace floe {
namespace {

struct CompressedPage {
  Buffer chunk;  // keeps the bytes `data` points into
  std::span<const uint8_t> data;
  int64_t uncompressed_size = 0;
};

struct ColumnPages {
  compression::Codec codec = compression::Codec::kUncompressed;
  std::vector<CompressedPage> pages;
  int64_t uncompressed_bytes = 0;
  int64_t compressed_bytes = 0;
  int64_t dictionary_data_pages = 0;
  int64_t data_pages = 0;
};

bool IsDictionaryEncoding(parquet::Encoding encoding) {
  return encoding == parquet::Encoding::RLE_DICTIONARY || encoding == parquet::Encoding::PLAIN_DICTIONARY;
}

Result<int> ColumnIndexOf(const parquet::ParquetFileReader& file, const std::string& column) {
  const parquet::RowGroup& first = file.metadata().row_groups.at(0);
  for (size_t c = 0; c < first.columns.size(); ++c) {
    const auto& meta = first.columns[c].meta_data;
    if (meta && meta->path_in_schema.Dotted() == column) return static_cast<int>(c);
  }
  return Status::NotFound("no column " + column);
}

Result<ColumnPages> ReadPages(const std::string& path, const std::string& column) {
  FLOE_ASSIGN_OR_RETURN(auto file, parquet::ParquetFileReader::Open(NewLocalFileIO(), path));
  if (file->num_row_groups() == 0) return Status::InvalidArgument("the file has no row groups");
  FLOE_ASSIGN_OR_RETURN(const int column_index, ColumnIndexOf(*file, column));
  ColumnPages out;
  for (int rg = 0; rg < file->num_row_groups(); ++rg) {
    FLOE_ASSIGN_OR_RETURN(const parquet::ColumnMetaData* meta, file->ColumnChunkMeta(rg, column_index));
    FLOE_ASSIGN_OR_RETURN(out.codec, parquet::ToCodec(meta->codec));
    FLOE_ASSIGN_OR_RETURN(parquet::ColumnChunkRange range, file->ColumnChunkBytes(rg, column_index));
    FLOE_ASSIGN_OR_RETURN(Buffer chunk, file->file().Read(range.offset, range.length));
    const auto* bytes = reinterpret_cast<const uint8_t*>(chunk.data());
    size_t pos = 0;
    while (pos < static_cast<size_t>(chunk.size())) {
      size_t header_size = 0;
      FLOE_ASSIGN_OR_RETURN(parquet::PageHeader header,
                            parquet::DecodePageHeader({bytes + pos, chunk.size() - pos}, &header_size));
      pos += header_size;
      const auto compressed = static_cast<size_t>(header.compressed_page_size);
      if (compressed > static_cast<size_t>(chunk.size()) - pos) return Status::Corrupt("a page runs past its chunk");
      size_t levels = 0;
      bool is_compressed = true;
      if (header.data_page_header || header.data_page_header_v2) {
        ++out.data_pages;
        const parquet::Encoding encoding = header.data_page_header ? header.data_page_header->encoding
                                                                   : header.data_page_header_v2->encoding;
        if (IsDictionaryEncoding(encoding)) ++out.dictionary_data_pages;
      }
      if (header.data_page_header_v2) {
        levels = static_cast<size_t>(header.data_page_header_v2->definition_levels_byte_length) +
                 static_cast<size_t>(header.data_page_header_v2->repetition_levels_byte_length);
        is_compressed = header.data_page_header_v2->is_compressed.value_or(true);
      }
      if (levels > compressed) return Status::Corrupt("page levels longer than the page");
      if (is_compressed) {
        CompressedPage page;
        page.chunk = chunk;
        page.data = {bytes + pos + levels, compressed - levels};
        page.uncompressed_size = header.uncompressed_page_size - static_cast<int64_t>(levels);
        out.uncompressed_bytes += page.uncompressed_size;
        out.compressed_bytes += static_cast<int64_t>(page.data.size());
        out.pages.push_back(std::move(page));
      }
      pos += compressed;
    }
  }
  return out;
}

double ProcessCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

Result<double> DecompressAll(const ColumnPages& column, std::vector<uint8_t>* input, std::vector<uint8_t>* output) {
  double codec_ms = 0;
  for (const CompressedPage& page : column.pages) {
    if (input->size() < page.data.size()) input->resize(page.data.size());
    if (static_cast<int64_t>(output->size()) < page.uncompressed_size) {
      output->resize(static_cast<size_t>(page.uncompressed_size));
    }
    std::copy(page.data.begin(), page.data.end(), input->begin());
    const double start = ProcessCpuMs();
    FLOE_RETURN_IF_ERROR(compression::Decompress(column.codec, {input->data(), page.data.size()},
                                                 {output->data(), static_cast<size_t>(page.uncompressed_size)}));
    codec_ms += ProcessCpuMs() - start;
  }
  return codec_ms;
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s FILE COLUMN RUNS\n", argv[0]);
    return 2;
  }
  const int runs = std::max(1, std::atoi(argv[3]));
  auto column = floe::ReadPages(argv[1], argv[2]);
  if (!column.ok()) {
    std::fprintf(stderr, "floe_parquet_codec_limit: %s\n", column.status().ToString().c_str());
    return 1;
  }
  std::vector<uint8_t> input;
  std::vector<uint8_t> output;
  double best = 1e300;
  for (int r = 0; r < runs; ++r) {
    auto ms = floe::DecompressAll(*column, &input, &output);
    if (!ms.ok()) {
      std::fprintf(stderr, "floe_parquet_codec_limit: %s\n", ms.status().ToString().c_str());
      return 1;
    }
    best = std::min(best, *ms);
  }
  const std::string codec(floe::compression::CodecName(column->codec));
  const bool dictionary = 2 * column->dictionary_data_pages > column->data_pages;
  std::printf("%.3f %lld %lld %s %s\n", best, static_cast<long long>(column->uncompressed_bytes),
              static_cast<long long>(column->compressed_bytes), codec.c_str(), dictionary ? "dictionary" : "plain");
  return 0;
}
