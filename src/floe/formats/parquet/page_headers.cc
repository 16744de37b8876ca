#include "floe/formats/parquet/page_headers.h"

#include <string>
#include <utility>

#include "floe/base/crc32.h"
#include "floe/formats/parquet/metadata_enums.h"
#include "floe/formats/parquet/reader/page_reader.h"

namespace floe::parquet {

Result<std::vector<StoredPageHeader>> ReadPageHeaders(const ParquetFileReader& file, int row_group, int column) {
  // First, as it refuses a row group or column the file lacks.
  FLOE_ASSIGN_OR_RETURN(const ColumnMetaData* meta, file.ColumnChunkMeta(row_group, column));
  const std::string context = file.ColumnChunkContext(row_group, column);
  FLOE_ASSIGN_OR_RETURN(const ColumnChunkRange range, file.ColumnChunkBytes(row_group, column));
  auto codec = ToCodec(meta->codec);
  // The codec only matters to decompression, which a walk never does: LZO
  // chunks list like any other.
  const compression::Codec walk_codec = codec.ok() ? *codec : compression::Codec::kUncompressed;
  PageReaderOptions options;
  options.end_after_values = range.end_after_values;
  FLOE_ASSIGN_OR_RETURN(options.decryptor, file.ColumnDecryptor(row_group, column));
  options.first_page_is_dictionary = meta->dictionary_page_offset && *meta->dictionary_page_offset > 0;
  FLOE_ASSIGN_OR_RETURN(Buffer chunk, file.file().Read(range.offset, range.length));
  PageReader pages(std::move(chunk), range.offset, walk_codec, std::move(options), context);
  std::vector<StoredPageHeader> headers;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<StoredPage> page, pages.NextStored());
    if (!page) break;
    StoredPageHeader& out = headers.emplace_back();
    out.file_offset = page->file_offset;
    out.stored_size = page->header_size + static_cast<int64_t>(page->body.size());
    out.data_page_ordinal = page->data_page_ordinal;
    if (page->header.crc) out.crc_matches = Crc32(0, page->body) == static_cast<uint32_t>(*page->header.crc);
    out.header = std::move(page->header);
  }
  return headers;
}

bool OffsetIndexLocates(const OffsetIndex& index, const std::vector<StoredPageHeader>& pages) {
  const std::vector<PageLocation>& locations = index.page_locations;
  size_t data_pages = 0;
  for (const StoredPageHeader& page : pages) {
    if (page.data_page_ordinal < 0) continue;
    if (data_pages == locations.size() || locations[data_pages].offset != page.file_offset ||
        locations[data_pages].compressed_page_size != page.stored_size) {
      return false;
    }
    ++data_pages;
  }
  return data_pages == locations.size();
}

}  // namespace floe::parquet
